#!/usr/bin/env bash
# Builds, runs and sizes the Cortex-M firmware (firmware/).
#
#   scripts/firmware.sh build BOARD LANE [MODEL] [OPTIONS]  bake, build; prints the ELF's path
#   scripts/firmware.sh run BOARD LANE [MODEL] [OPTIONS]    build, run in QEMU (-icount
#                                                 shift=0), decode defmt; exits with the
#                                                 firmware's status
#   scripts/firmware.sh size BOARD LANE [MODEL] [OPTIONS]   build; flash and RAM (text data bss)
#   scripts/firmware.sh uf2 LANE [MODEL]          build for the Pico; write a .uf2 to flash
#   scripts/firmware.sh kernels BOARD LANE [--vmla]  run the kernel benchmark (no model)
#   scripts/firmware.sh bench                     the kernel benchmark on every QEMU BOARD ×
#                                                 LANE, M0 code on the mps2-an385 included
#                                                 (and mps2-an386 f32 --vmla)
#
# BOARD: mps2-an386 (Cortex-M4F), mps2-an385 (Cortex-M3), mps2-an385-m0 (Cortex-M0 code,
#        thumbv6m, on the M3 board: for models beyond the micro:bit's RAM), microbit
#        (Cortex-M0, 16 KiB RAM), pico (Raspberry Pi Pico + ST7789; build, size, uf2 only)
# LANE:  fixed | f32
# MODEL: --model FILE.glb|.gltf (baked with `skin bake --budget vs_1_1`), or --asset FILE
#        (already baked); default: the procedural character (`skin character`).
# OPTIONS: --rows N, --vmla, --skinning lbs|dqs, --anim CLIP, --walk JOINTS (below).
# --rows N: rows per band (1..=240) instead of the board's (micro:bit as its room allows:
#        4 fixed, 3 f32, one fewer with --walk; others as many as
#        46 KiB hold next to the model's vertices and spans, up to 24: CesiumMan 12); a band
#        that with those needs more than the board's RAM holds stops the build.
# --vmla: the f32 kernels' multiply-adds as chained VMLA (skin-core feature `vmla`: same
#        bits, fewer instructions, more cycles on a Cortex-M4); f32 on mps2-an386 only.
# --skinning dqs: dual quaternion skinning: the model baked with `--skinning dqs` (48 bones
#        a part) and the firmware built with feature `dqs`; an --asset must be baked so.
# --anim INDEX|NAME: the clip to play: the model is baked with only that clip (`skin bake
#        --anim`), and the firmware plays the asset's first clip; default: the model's first.
# --walk PELVIS,LEFT_ANKLE,RIGHT_ANKLE,HEAD: the walk demo (feature `walk`): the figure
#        walks over uneven ground, feet planted by IK, head turned to a moving point, on
#        top of its clip; the joints are bone indices of the baked asset (its skeleton is
#        the model's posed nodes, parents first: the character's are 0,10,13,3).
# run:   --out DIR  where QEMU writes the frames (frame-NNN.rgb565, 240×240 RGB565 LE) and
#        this copies the embedded asset (asset.bin); default firmware/target/frames/NAME.
#        --gif FILE  also turns the frames into an animation (`skin frames`; .gif or .apng)
#        playing at the rate they stand for.
#
# Needs Debian's rustc with library source (/usr/bin/rustc), ld.lld-16, qemu-system-arm and
# defmt-print (scripts/setup.sh installs them). The `skin` tool is $SKIN, or built here.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fw="$root/firmware"
target_dir="$fw/target"

# The QEMU boards `bench` runs: M0 code runs on the micro:bit and on the mps2-an385, whose
# RAM takes the models the micro:bit's does not.
boards=(mps2-an386 mps2-an385 mps2-an385-m0 microbit)
lanes=(fixed f32)

die() {
  echo "firmware.sh: $*" >&2
  exit 2
}

triple() {
  case "$1" in
    mps2-an386) echo thumbv7em-none-eabihf ;;
    mps2-an385) echo thumbv7m-none-eabi ;;
    mps2-an385-m0 | microbit | pico) echo thumbv6m-none-eabi ;;
    *) die "unknown board '$1' (mps2-an386, mps2-an385, mps2-an385-m0, microbit, pico)" ;;
  esac
}

# The cargo feature of a board.
feature() {
  case "$1" in
    mps2-an385-m0) echo mps2-an385 ;;
    *) echo "$1" ;;
  esac
}

qemu_machine() {
  case "$1" in
    mps2-an386) echo "-cpu cortex-m4 -machine mps2-an386" ;;
    mps2-an385 | mps2-an385-m0) echo "-cpu cortex-m3 -machine mps2-an385" ;;
    microbit) echo "-machine microbit" ;;
    *) die "$1 does not run in QEMU: flash it (README, 'Flashing a Raspberry Pi Pico')" ;;
  esac
}

check_lane() {
  case "$1" in
    fixed | f32) ;;
    *) die "unknown lane '$1' (fixed, f32)" ;;
  esac
}

# The skin tool: $SKIN, or the workspace's release build.
skin_tool() {
  if [ -n "${SKIN:-}" ]; then
    echo "$SKIN"
    return
  fi
  cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p skin-host --bin skin >&2
  echo "${CARGO_TARGET_DIR:-$root/target}/release/skin"
}

# --vmla for BOARD LANE: sets extra (features) and variant (a name suffix).
vmla() {
  [ "$1" = mps2-an386 ] && [ "$2" = f32 ] \
    || die "--vmla applies to the f32 lane on mps2-an386 (the Cortex-M4F), not $1 $2"
  extra="$extra,vmla" variant="$variant-vmla"
}

# Options after BOARD LANE: sets model, asset, out, extra, variant, skinning.
parse_options() {
  local board="$1" lane="$2"
  shift 2
  model="" asset="" out="" gif="" extra="" variant="" rows="" skinning=lbs anim="" walk=
  while [ $# -gt 0 ]; do
    case "$1" in
      --vmla) vmla "$board" "$lane"; shift ;;
      --rows) rows="${2:?--rows needs a number}"; variant="$variant-rows$rows"; shift 2 ;;
      --skinning)
        skinning="${2:?--skinning needs lbs or dqs}"
        case "$skinning" in
          lbs) ;;
          dqs) extra="$extra,dqs" variant="$variant-dqs" ;;
          *) die "unknown skinning method '$skinning' (lbs, dqs)" ;;
        esac
        shift 2
        ;;
      --anim)
        anim="${2:?--anim needs a clip index or name}"
        variant="$variant-anim-$(printf '%s' "$anim" | tr -c 'A-Za-z0-9' '_')"
        shift 2
        ;;
      --walk)
        walk="${2:?--walk needs PELVIS,LEFT_ANKLE,RIGHT_ANKLE,HEAD}"
        [[ "$walk" =~ ^[0-9]+,[0-9]+,[0-9]+,[0-9]+$ ]] \
          || die "--walk $walk: give four bone indices, PELVIS,LEFT_ANKLE,RIGHT_ANKLE,HEAD"
        extra="$extra,walk" variant="$variant-walk"
        shift 2
        ;;
      --model) model="${2:?--model needs a file}"; shift 2 ;;
      --asset) asset="${2:?--asset needs a file}"; shift 2 ;;
      --out) out="${2:?--out needs a folder}"; shift 2 ;;
      --gif) gif="${2:?--gif needs a file}"; shift 2 ;;
      *) die "unknown option '$1'" ;;
    esac
  done
  [ -z "$model" ] || [ -z "$asset" ] || die "give --model or --asset, not both"
  [ -z "$anim" ] || [ -z "$asset" ] || die "--anim picks a clip to bake: give --model, not --asset"
  [ -z "$model" ] || [ -f "$model" ] || die "no such model: $model"
  [ -z "$asset" ] || [ -f "$asset" ] || die "no such asset: $asset"
}

# Bakes the chosen model for LANE (unless --asset gave one); sets asset and name.
bake() {
  local lane="$1" skin dir clip=()
  dir="$target_dir/assets"
  mkdir -p "$dir"
  if [ -n "$asset" ]; then
    name="$(basename "${asset%.*}")"
    asset="$(cd "$(dirname "$asset")" && pwd)/$(basename "$asset")"
    return
  fi
  skin="$(skin_tool)"
  if [ -z "$model" ]; then
    model="$dir/character.glb"
    "$skin" character -o "$model.$$" >/dev/null
    mv "$model.$$" "$model"
  fi
  name="$(basename "${model%.*}")"
  asset="$dir/$name-$lane$variant.bin"
  [ -z "$anim" ] || clip=(--anim "$anim")
  "$skin" bake "$model" -o "$asset.$$" --arith "$lane" --budget vs_1_1 \
    --skinning "$skinning" "${clip[@]}" >/dev/null
  mv "$asset.$$" "$asset"
}

# What a firmware build reads besides its options and asset: the firmware's and the core's
# files, the lock files and the compiler (a hash).
inputs() {
  (
    cd "$root"
    /usr/bin/rustc -vV
    find core firmware Cargo.lock -path firmware/target -prune -o -type f -print0 \
      | LC_ALL=C sort -z | xargs -0 sha1sum
  ) | sha1sum | cut -d' ' -f1
}

# cargo build with features (and SKIN_ASSET, SKIN_BAND_ROWS, SKIN_WALK); sets elf (the
# ELF under the board's and model's name, which a later build of that name replaces) and
# image (this build's ELF, which nothing replaces: the cached one, QEMU's).
# A built ELF is kept in firmware/target/elf-cache/INPUTS/ under the hash of everything the
# build reads, so the same build (the Pico's by scripts/test.sh and by its test, a rerun of
# the tests) is copied, not compiled again (one built while a source changed is not kept);
# other INPUTS folders (sources since changed) go once unused for an hour. Two builds run at once, each in its own target folder
# (firmware/target, firmware/target/slot1): a build is mostly one compiler thread (fat LTO
# into one codegen unit), so a second build keeps a second core busy; a third waits.
cargo_build() {
  local board="$1" features="$2" name="$3" t sources key cache
  t="$(triple "$board")"
  sources="$(inputs)"
  if [ ! -d "$target_dir/elf-cache/$sources" ]; then
    find "$target_dir/elf-cache" -mindepth 1 -maxdepth 1 -type d -mmin +60 \
      -exec rm -rf {} + 2>/dev/null || true
  fi
  mkdir -p "$target_dir/elf" "$target_dir/elf-cache/$sources" "$target_dir/slot1"
  elf="$target_dir/elf/$board-$name.elf"
  key="$(
    {
      echo "$t $features rows=${SKIN_BAND_ROWS:-} walk=${SKIN_WALK:-}"
      if [ -n "${SKIN_ASSET:-}" ]; then sha1sum <"$SKIN_ASSET"; fi
    } | sha1sum | cut -d' ' -f1
  )"
  cache="$target_dir/elf-cache/$sources/$key.elf"
  touch "$target_dir/elf-cache/$sources"
  if [ -f "$cache" ]; then
    cp "$cache" "$elf.$$"
    mv "$elf.$$" "$elf"
    image="$cache"
    return
  fi
  (
    cd "$fw"
    exec 8>"$target_dir/.build-lock" 9>"$target_dir/slot1/.build-lock"
    local dir="$target_dir"
    if flock -n 8; then
      exec 9>&-
    elif flock -n 9; then
      exec 8>&-
      dir="$target_dir/slot1"
    else
      exec 9>&-
      flock 8
    fi
    # A clean environment: the firmware's .cargo/config.toml sets linker and rustflags.
    unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_TARGET CARGO_BUILD_RUSTFLAGS
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR="$dir" \
      cargo build --quiet --release --target "$t" --features "$features"
    cp "$dir/$t/release/skin-firmware" "$elf.$$"
  )
  image="$elf"
  # Kept only if no source changed while it was built.
  if [ "$(inputs)" = "$sources" ]; then
    cp "$elf.$$" "$cache.$$"
    mv "$cache.$$" "$cache"
    image="$cache"
  fi
  mv "$elf.$$" "$elf"
}

# Bakes and builds the frame loop; sets elf, asset, name.
build() {
  local board="$1" lane="$2"
  shift 2
  check_lane "$lane"
  triple "$board" >/dev/null
  parse_options "$board" "$lane" "$@"
  bake "$lane"
  SKIN_ASSET="$asset" SKIN_BAND_ROWS="$rows" SKIN_WALK="$walk" cargo_build "$board" "$(feature "$board"),$lane$extra" "$lane$variant-$name"
}

# Runs an ELF in QEMU from folder $2, decoding its log; returns QEMU's status.
qemu() {
  local board="$1" dir="$2" raw status=0
  raw="$(mktemp)"
  # shellcheck disable=SC2046
  (cd "$dir" && timeout 600 qemu-system-arm $(qemu_machine "$board") -nographic \
    -icount shift=0 -semihosting-config enable=on,target=native -kernel "$image") >"$raw" \
    || status=$?
  if ! defmt-print -e "$image" <"$raw" && [ "$status" -eq 0 ]; then
    status=1
  fi
  rm -f "$raw"
  return "$status"
}

run() {
  local board="$1"
  qemu_machine "$board" >/dev/null
  build "$@"
  out="${out:-$target_dir/frames/$board-$2$variant-$name}"
  mkdir -p "$out"
  rm -f "$out"/frame-*.rgb565
  cp "$asset" "$out/asset.bin"
  local status=0
  qemu "$board" "$out" || status=$?
  if [ "$status" -eq 0 ] && [ -n "$gif" ]; then
    "$(skin_tool)" frames "$out" -o "$gif"
  fi
  return "$status"
}

# The built ELF's sections: text=… data=… bss=… (bytes).
elf_size() {
  size "$image" | awk 'NR == 2 { print "text=" $1 " data=" $2 " bss=" $3 }'
}

size_of() {
  build "$@"
  echo "SIZE board=$1 lane=$2 model=$name $(elf_size)"
}

# UF2 for the Pico's boot ROM (drag and drop onto RPI-RP2): every loadable segment in
# 256-byte blocks, family RP2040.
uf2() {
  build pico "$@"
  local file="${elf%.elf}.uf2"
  python3 "$root/scripts/uf2.py" "$image" "$file"
  echo "$file"
}

# Builds the kernel benchmark for BOARD LANE [--vmla]; sets elf.
kernels_build() {
  local board="$1" lane="$2" extra="" variant=""
  check_lane "$lane"
  qemu_machine "$board" >/dev/null
  case "${3:-}" in
    "") ;;
    --vmla) vmla "$board" "$lane" ;;
    *) die "unknown option '$3'" ;;
  esac
  cargo_build "$board" "$(feature "$board"),$lane$extra,bench" "$lane$variant-bench"
}

kernels() {
  kernels_build "$@"
  qemu "$1" "$target_dir"
}

# The kernel benchmark's summary lines for BOARD LANE [--vmla], then the ELF's size.
bench_one() {
  kernels_build "$@"
  qemu "$1" "$target_dir" | grep -E 'RESULT|MORPH|CALIBRATION|CHECK|MEMORY|DONE'
  echo "SIZE board=$1 lane=$2${3:+ $3} $(elf_size)"
}

case "${1:-}" in
  # Not `build … && echo`: errexit does not apply inside a command joined by `&&`, so a
  # failed cargo build would go on to copy the previous ELF and succeed.
  build)
    build "${@:2}"
    echo "$elf"
    ;;
  run) run "${@:2}" ;;
  size) size_of "${@:2}" ;;
  uf2) uf2 "${@:2}" ;;
  kernels) kernels "${2:?BOARD}" "${3:?LANE}" "${@:4}" ;;
  bench)
    for b in "${boards[@]}"; do
      for l in "${lanes[@]}"; do
        bench_one "$b" "$l"
      done
    done
    bench_one mps2-an386 f32 --vmla
    ;;
  *)
    sed -n '2,39p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
