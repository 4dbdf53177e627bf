#!/usr/bin/env bash
# The main job: build the `skin` tool and run it over every sample model in ../shared/models
# (or $SKIN_MODELS): what each model is, what each constant-register budget costs it, its
# baked assets (f32 and fixed, split for the vs_1_1 budget) in target/assets/, a frame of its
# first clip drawn by the CPU rasteriser and by the GPU in target/frames/ (and the whole clip
# as a GIF), and the cross-check of core f32, core fixed and both GPU shader paths against an
# f64 reference (skin validate, with its HTML report in target/report/index.html; exits
# non-zero when an error exceeds its documented threshold).
set -euo pipefail
cd "$(dirname "$0")/.."
models="${SKIN_MODELS:-../shared/models}"
cargo build --release --quiet -p skin-host --bin skin
skin=target/release/skin
shopt -s nullglob
files=("$models"/*.glb "$models"/*.gltf)
if [ ${#files[@]} -eq 0 ]; then
  echo "run: no models in $models (set SKIN_MODELS)" >&2
  exit 2
fi
out=target/assets
frames=target/frames
mkdir -p "$out" "$frames"
for m in "${files[@]}"; do
  name=$(basename "$m")
  echo "=== $name"
  "$skin" inspect "$m"
  "$skin" budget "$m"
  for arith in f32 fixed; do
    "$skin" bake "$m" --arith "$arith" --budget vs_1_1 -o "$out/${name%.*}.$arith.skin"
  done
  echo "baked: $out/${name%.*}.{f32,fixed}.skin"
  anim=()
  "$skin" inspect "$m" | grep -q '^animations: [1-9]' && anim=(--anim 0 --time 0.5)
  for backend in cpu gpu; do
    "$skin" render "$m" "${anim[@]}" --backend "$backend" -o "$frames/${name%.*}.$backend.png"
  done
  if [ ${#anim[@]} -gt 0 ]; then
    "$skin" render "$m" --anim 0 --backend cpu -o "$frames/${name%.*}.cpu.gif"
  fi
done
echo "=== validate"
"$skin" validate "${files[@]}" --frames 8 --report target/report
