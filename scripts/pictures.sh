#!/usr/bin/env bash
# Regenerates the README's pictures in docs/pictures/ with the project's own commands:
#   firmware-cesiumman.gif  the frames the Cortex-M4F firmware draws in QEMU (fixed lane,
#                           CesiumMan baked for vs_1_1), as `skin frames` animates them
#   walker.gif              the procedural character (`skin character`) walking, drawn by
#                           the CPU renderer (`skin render … -o walker.gif`)
#   error-over-time.svg     CesiumMan's error per path across its clip, the plot of
#                           `skin validate --report`
# Needs what scripts/setup.sh installs (QEMU and the Cortex-M toolchain; a Vulkan adapter,
# lavapipe on CPU-only machines) and ../shared/models.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
models="${SKIN_MODELS:-$root/../shared/models}"
out="$root/docs/pictures"
work="$root/target/pictures"
mkdir -p "$out" "$work"
[ -f "$models/CesiumMan.glb" ] || { echo "pictures.sh: no $models/CesiumMan.glb" >&2; exit 2; }

cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p skin-host --bin skin
skin="${CARGO_TARGET_DIR:-$root/target}/release/skin"

# The board's display: four frames spread over the clip, at the rate they stand for.
SKIN="$skin" "$root/scripts/firmware.sh" run mps2-an386 fixed --model "$models/CesiumMan.glb" \
  --out "$work/firmware" --gif "$out/firmware-cesiumman.gif" >/dev/null

# The walking character, 160 × 160 at 20 frames a second.
"$skin" character -o "$work/walker.glb" >/dev/null
"$skin" render "$work/walker.glb" --anim 0 --backend cpu --size 160x160 --fps 20 \
  -o "$out/walker.gif"

# The error-over-time plot: the report's first SVG image, decoded from its data: URI.
"$skin" validate "$models/CesiumMan.glb" --frames 30 --report "$work/report" >/dev/null
grep -o 'data:image/svg+xml;base64,[A-Za-z0-9+/=]*' "$work/report/CesiumMan.glb.html" \
  | sed -n 1p | cut -d, -f2 | base64 -d >"$out/error-over-time.svg.$$"
mv "$out/error-over-time.svg.$$" "$out/error-over-time.svg"
ls -l "$out"
