//! The pose pipeline on well-formed models with hostile numbers (scale, rest translation,
//! key times and values of a skinned triangle's clip, from the input's bytes): see
//! `skin_tests::fuzz::numbers`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    skin_tests::fuzz::numbers(data);
});
