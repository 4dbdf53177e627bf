//! A baked asset's bytes through the core's reader in both lanes (aligned and one byte
//! in), every view, a clip sampled, and the scene played in the firmware's and the host's
//! capacities, and through `skin check`'s player: see `skin_tests::fuzz::asset`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    skin_tests::fuzz::asset(data);
});
