#!/usr/bin/env bash
# Installs everything skin needs on a fresh Debian 12 machine (idempotent; skips what is there):
#   - Debian's Rust 1.96 with library source (Cortex-M builds via build-std), lld, QEMU
#   - Mesa's lavapipe (a Vulkan adapter on the CPU) for the wgpu reference
#   - defmt-print (decodes firmware logs)
#   - Chromium (the browser test of `skin validate --report`), node and npm, and the Khronos
#     glTF validator (npm `gltf-validator`) in target/npm/ (checks `skin character`)
# On a laptop with rustup you can instead `rustup target add thumbv6m-none-eabi
# thumbv7m-none-eabi thumbv7em-none-eabihf` and install qemu-system-arm yourself.
set -euo pipefail

need_apt=()
[ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] || need_apt+=(rustc-web rust-web-src)
command -v ld.lld-16 >/dev/null || need_apt+=(lld-16)
command -v qemu-system-arm >/dev/null || need_apt+=(qemu-system-arm)
command -v size >/dev/null || need_apt+=(binutils)  # firmware flash/RAM sizes
[ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] || [ -e /usr/share/vulkan/icd.d/lvp_icd.json ] \
  || need_apt+=(mesa-vulkan-drivers)
ldconfig -p 2>/dev/null | grep -q libvulkan.so.1 || need_apt+=(libvulkan1)
command -v chromium >/dev/null || need_apt+=(chromium)
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! command -v defmt-print >/dev/null; then
  echo "setup: cargo install defmt-print (about 4 minutes)"
  cargo install --locked --quiet defmt-print
fi
# The glTF validator, in the project's own folder (tests/tests/character_gltf.rs runs it).
npm_dir="$(cd "$(dirname "$0")/.." && pwd)/target/npm"
if [ ! -d "$npm_dir/node_modules/gltf-validator" ]; then
  echo "setup: npm install gltf-validator into target/npm"
  mkdir -p "$npm_dir"
  npm install --prefix "$npm_dir" --no-audit --no-fund --silent gltf-validator@2.0.0-dev.3.10
fi
echo "setup: ok"
