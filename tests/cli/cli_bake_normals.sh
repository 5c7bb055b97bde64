#!/usr/bin/env bash
# vkskin bake gives a model without normals (Fox.glb has no NORMAL) normals of its own (issue 40):
# every frame's, smooth and area-weighted over its deformed triangles, where they were all zero
# before (engines drew them black, flat white or grey). tests/bake/glb_normals.py computes them
# again from the .glb's own triangles and the baked positions and compares (1e-3, and unit
# length within 1e-3), for the CPU reference and the GPU engine (where there is a Vulkan
# device); the sidecars say the normals were computed, and a model with normals says they are
# its own, skinned.
#   cli_bake_normals.sh VKSKIN REAL_DATASETS
# Exit 77 where Fox.glb is absent.
set -u
vk=$1
fox=${2:-}/gltf/Fox/Fox.glb
src=${VKSKIN_SOURCE_DIR:?}
[ -f "$fox" ] || { echo "skipped: $fox not found"; exit 77; }
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > bake.json <<JSON
{"jobs": [{"name": "fox", "model": "$fox", "clips": ["$fox#Walk", "$fox#Run"], "fps": 30, "outputs": ["raw", "vat-exr-float"]},
          {"name": "bundled", "model": "$src/datasets/char_b24_pl8.cmdl", "clips": ["$src/datasets/char_b24_pl8.cmdl.walk.cskla"],
           "range": [0, 0.2], "outputs": ["raw"]}]}
JSON
for engine in cpu gpu; do
  "$vk" bake bake.json $([ $engine = cpu ] && echo --cpu) --out $engine --quiet > $engine.log 2>&1
  rc=$?
  if [ $engine = gpu ] && [ $rc -eq 4 ]; then echo "no Vulkan device: the GPU engine not checked"; continue; fi
  [ $rc -eq 0 ] || { no "$engine: vkskin bake exit $rc: $(tail -3 $engine.log)"; continue; }
  echo -n "$engine: "
  python3 "$src/tests/bake/glb_normals.py" "$fox" $engine/fox.raw 1728 ||
    no "$engine: the baked normals are not the deformed triangles' smooth area-weighted normals"
  for s in $engine/fox.raw.json $engine/fox.vat-exr-float.json; do
    grep -q '"normals":[[:space:]]*"computed per frame: smooth, area-weighted' $s || no "$s does not say the normals were computed"
  done
  grep -q '"normals":[[:space:]]*"the model.s, skinned"' $engine/bundled.raw.json || no "bundled.raw.json does not say its normals are the model's"
done
[ $fail -eq 0 ] && echo "cli_bake_normals: a model without normals bakes its triangles' smooth normals, said in the sidecars"
exit $fail
