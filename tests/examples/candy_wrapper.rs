//! Writes the candy wrapper (`skin_tests::gltf_gen::candy_wrapper`: a tube whose second
//! joint twists 0→180° about its axis) as a `.glb`, for `scripts/pictures.sh`'s LBS | DQS
//! picture:
//!
//! ```sh
//! cargo run --release -p skin-tests --example candy_wrapper -- target/candy.glb
//! skin render target/candy.glb --anim 0 --time 1 --backend lbs-dqs -o candy.png
//! ```

fn main() {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: candy_wrapper OUT.glb");
        std::process::exit(2);
    };
    let glb = skin_tests::gltf_gen::candy_wrapper(17).glb();
    if let Err(e) = std::fs::write(&path, glb) {
        eprintln!(
            "candy_wrapper: cannot write {}: {e}",
            path.to_string_lossy()
        );
        std::process::exit(2);
    }
}
