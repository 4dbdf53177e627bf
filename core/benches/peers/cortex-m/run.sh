#!/usr/bin/env bash
# Builds the embedded-3dgfx comparison for the M4F, the M3 and the M0 and runs it under QEMU
# (-icount shift=0): mps2-an386 for the M4F, mps2-an385 for the M3 and, for lack of RAM on the
# micro:bit (embedded-3dgfx's SkinningData alone is 18 KiB), for the M0 code as well: an M3
# executes ARMv6-M code instruction for instruction, so the count is the M0 build's.
set -euo pipefail
cd "$(dirname "$0")"
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_TARGET CARGO_BUILD_RUSTFLAGS
for spec in "thumbv7em-none-eabihf cortex-m4 mps2-an386 M4F" \
            "thumbv7m-none-eabi cortex-m3 mps2-an385 M3" \
            "thumbv6m-none-eabi cortex-m3 mps2-an385 M0"; do
  set -- $spec
  RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 cargo build --quiet --release --target "$1"
  echo "== $4 ($1 on QEMU $3)"
  timeout 600 qemu-system-arm -cpu "$2" -machine "$3" -nographic -icount shift=0 \
    -semihosting-config enable=on,target=native -kernel "target/$1/release/skin-peer-firmware"
done
