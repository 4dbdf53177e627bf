#!/usr/bin/env bash
# Builds and runs the Cortex-M firmware (firmware/) under QEMU.
#
#   scripts/firmware.sh build BOARD LANE   build; prints the ELF's path (firmware/target/elf/BOARD-LANE.elf)
#   scripts/firmware.sh run BOARD LANE     build, run in QEMU (-icount shift=0), decode defmt;
#                                          exits with the firmware's status
#   scripts/firmware.sh size BOARD LANE    build; flash/RAM sizes (text data bss)
#   scripts/firmware.sh bench              run and size every BOARD × LANE
#
# BOARD: mps2-an386 (Cortex-M4F), mps2-an385 (Cortex-M3), microbit (Cortex-M0)
# LANE:  fixed | f32
# Needs Debian's rustc with library source (/usr/bin/rustc), ld.lld-16, qemu-system-arm and
# defmt-print: scripts/setup.sh installs them.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fw="$root/firmware"

boards=(mps2-an386 mps2-an385 microbit)
lanes=(fixed f32)

triple() {
  case "$1" in
    mps2-an386) echo thumbv7em-none-eabihf ;;
    mps2-an385) echo thumbv7m-none-eabi ;;
    microbit) echo thumbv6m-none-eabi ;;
    *) echo "firmware.sh: unknown board '$1' (mps2-an386, mps2-an385, microbit)" >&2; exit 2 ;;
  esac
}

qemu_machine() {
  case "$1" in
    mps2-an386) echo "-cpu cortex-m4 -machine mps2-an386" ;;
    mps2-an385) echo "-cpu cortex-m3 -machine mps2-an385" ;;
    microbit) echo "-machine microbit" ;;
  esac
}

check_lane() {
  case "$1" in
    fixed | f32) ;;
    *) echo "firmware.sh: unknown lane '$1' (fixed, f32)" >&2; exit 2 ;;
  esac
}

build() {
  local board="$1" lane="$2" t
  t="$(triple "$board")"
  check_lane "$lane"
  (
    cd "$fw"
    # A clean environment: the firmware's .cargo/config.toml sets linker and rustflags.
    unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_TARGET CARGO_BUILD_RUSTFLAGS
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$fw/target" \
      cargo build --quiet --release --target "$t" --features "$board,$lane"
  )
  mkdir -p "$fw/target/elf"
  local elf="$fw/target/elf/$board-$lane.elf"
  cp "$fw/target/$t/release/skin-firmware" "$elf"
  echo "$elf"
}

run() {
  local board="$1" lane="$2" elf raw status
  elf="$(build "$board" "$lane")"
  raw="$(mktemp)"
  trap 'rm -f "$raw"' RETURN
  # shellcheck disable=SC2046
  status=0
  timeout 300 qemu-system-arm $(qemu_machine "$board") -nographic -icount shift=0 \
    -semihosting-config enable=on,target=native -kernel "$elf" >"$raw" || status=$?
  defmt-print -e "$elf" <"$raw"
  return "$status"
}

size_of() {
  local elf
  elf="$(build "$1" "$2")"
  echo "SIZE board=$1 lane=$2 $(size "$elf" | awk 'NR == 2 { print "text=" $1 " data=" $2 " bss=" $3 }')"
}

case "${1:-}" in
  build) build "$2" "$3" ;;
  run) run "$2" "$3" ;;
  size) size_of "$2" "$3" ;;
  bench)
    for b in "${boards[@]}"; do
      for l in "${lanes[@]}"; do
        run "$b" "$l" | grep -E 'RESULT|CALIBRATION|CHECK|DONE'
        size_of "$b" "$l"
      done
    done
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
