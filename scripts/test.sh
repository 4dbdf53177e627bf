#!/usr/bin/env bash
# Runs every test of the project: formatting, lints, the workspace's tests (core, host,
# cross-crate: oracle, GPU, QEMU firmware, sample models), the core's Cortex-M builds and
# the Raspberry Pi Pico firmware build.
# Tests that need a GPU adapter, QEMU or ../shared/models say SKIPPED when those are missing;
# with SKIN_REQUIRE_ALL=1 (as .ci/run sets) a skip fails instead.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all --check
(cd firmware && cargo fmt --check) # the firmware is its own workspace

echo "== cargo clippy"
# In the release profile, as the tests below build: the proc macros and build scripts that
# clippy compiles and runs are then the tests' too, not a second debug build of them.
cargo clippy --workspace --all-targets --release --quiet -- -D warnings

echo "== skin-core builds for Cortex-M (build-std with Debian's rustc)"
# (Cortex-M0, M3, M4F, and the M33 with FPU; the cores with an FPU also with `vmla`.)
for build in thumbv6m-none-eabi thumbv7m-none-eabi thumbv7em-none-eabihf \
  thumbv7em-none-eabihf,vmla thumbv8m.main-none-eabihf thumbv8m.main-none-eabihf,vmla; do
  triple="${build%,*}" features=""
  [ "$triple" = "$build" ] || features="${build#*,}"
  RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/cortex-m \
    cargo build --quiet -p skin-core --release --target "$triple" -Z build-std=core \
    --features "$features"
  echo "   $build ok"
done

echo "== firmware for the Raspberry Pi Pico (RP2040 + ST7789; built, not run)"
scripts/firmware.sh size pico fixed
scripts/firmware.sh uf2 fixed >/dev/null

echo "== cargo test"
# Mesa's Vulkan drivers (lavapipe) print "XDG_RUNTIME_DIR is invalid" from tests that open
# the GPU in-process when the variable is unset (CI, sudo); it says nothing about results.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
cargo test --workspace --release
