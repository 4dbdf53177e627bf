#!/usr/bin/env bash
# Seed corpora for the fuzz targets, in fuzz/corpus/ (ignored by git):
#   gltf/   every sample model in ../shared/models (or $SKIN_MODELS) and the procedural
#           character, as .glb and .gltf;
#   asset/  each of those baked in both lanes (default budget, and vs_1_1 as the firmware);
#   pose/   a few byte strings of plain numbers.
# The models are copied into the ignored corpus, never into the repository.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
models="${SKIN_MODELS:-$root/../shared/models}"
corpus="$here/corpus"
mkdir -p "$corpus/gltf" "$corpus/asset" "$corpus/pose"

cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p skin-host --bin skin
skin="$root/target/release/skin"

"$skin" character -o "$corpus/gltf/character.glb" >/dev/null
"$skin" character -o "$corpus/gltf/character.gltf" >/dev/null
if [ -d "$models" ]; then
    find "$models" -maxdepth 1 -type f \( -name '*.glb' -o -name '*.gltf' \) \
        -exec cp {} "$corpus/gltf/" \;
else
    echo "seed: $models not found; seeding with the procedural character only" >&2
fi

for model in "$corpus"/gltf/*; do
    name="$(basename "$model")"
    for lane in f32 fixed; do
        "$skin" bake "$model" -o "$corpus/asset/$name.$lane.skin" --arith "$lane" >/dev/null 2>&1 || true
        "$skin" bake "$model" -o "$corpus/asset/$name.$lane.vs_1_1.skin" --arith "$lane" \
            --budget vs_1_1 >/dev/null 2>&1 || true
    done
done

# Numbers for the pose target: little-endian f32s (scale, rest translation, key times and
# values).
python3 - "$corpus/pose" <<'PY'
import struct, sys
seeds = {
    "unit": [1.0, 0, 0.5, 0, 0.5, 0.5, 0, 0, 0, 1, 0, 0],
    "big": [1e30, 1e30, 0, 0, 1, 1, 3e38, 0, 0, 64, 64, 64],
    "tiny": [1e-30, 0, 0, 0, 1e-3, 1e-3, 0, 0, 1, 0, 0, 1],
}
for name, values in seeds.items():
    with open(f"{sys.argv[1]}/{name}", "wb") as f:
        f.write(b"".join(struct.pack("<f", v) for v in values * 6))
PY
echo "seed: $(ls "$corpus/gltf" | wc -l) models, $(ls "$corpus/asset" | wc -l) assets, $(ls "$corpus/pose" | wc -l) number sets in $corpus"
