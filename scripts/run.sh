#!/usr/bin/env bash
# The main job: build the `skin` tool and run it over every sample model in ../shared/models
# (or $SKIN_MODELS): what each model is, and what each constant-register budget costs it.
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
for m in "${files[@]}"; do
  echo "=== $(basename "$m")"
  "$skin" inspect "$m"
  "$skin" budget "$m"
done
