//! glTF bytes (`.glb` or `.gltf`) through the importer and, when they import, posing in
//! both lanes, the fixed-point check, baking and the baked asset's reader: see
//! `skin_tests::fuzz::gltf`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    skin_tests::fuzz::gltf(data);
});
