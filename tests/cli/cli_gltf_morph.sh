#!/usr/bin/env bash
# glTF morph targets on a skinned mesh (issue 38): a tube authored here (gltf_morph_golden.py)
# with a dense target (positions and normals) and a sparse one (no bufferView), at the mesh's
# default weights, at a node's weights (which override the mesh's) and with only the sparse
# target on; deformed on --cpu, --cpu-fast and --gpu (with the validation layer; skipped
# without a device) in a pose that bends the upper joint, against the specification's
# p + sum w dp then skinning, computed by the script; inspect lists the targets and validate
# passes. Weights channels (LINEAR, STEP, CUBICSPLINE; a clip with only weights), layers that
# blend them (masked layers drive none) and a pose file's weights are played against the
# specification's interpolation and the layer rule computed by the script, on every engine:
# --gpu samples a clip's weights per instance in the crowd's pose pass (with the validation
# layer), validate with the clips and the layered crowd passes against the reference, and bake
# plays them on every engine; a pose file's weights on --gpu too (and validate). convert
# writes the targets with their default weights and the weights channels back (deformed
# again: the same result), and
# the Khronos validator finds no error or warning in the authored and converted files (where
# it is installed: tests/node/install.sh).
set -u
vk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
say() { echo "FAIL: $*"; fail=1; }
cat > pose.json <<'JSON'
{"nodes": [{"name": "bone", "rotation": [0, 0, 0.7071068, 0.7071068]}]}
JSON
echo '{"nodes": []}' > none.json
engines="--cpu --cpu-fast"
if "$vk" devices > /dev/null 2>&1; then engines="$engines --gpu"; else echo "note: no Vulkan device, --gpu not run"; fi
for case in mesh node sparse; do
  python3 "$here/gltf_morph_golden.py" make $case $case.gltf || exit 1
  for e in $engines; do
    extra=""; [ "$e" = "--gpu" ] && extra="--validation"
    "$vk" deform $case.gltf $e $extra --pose pose.json --out $case.raw --format raw 2> err || say "$case $e: deform: $(cat err)"
    grep -qi "validation" err && say "$case $e: validation layer messages: $(grep -i validation err | head -3)"
    python3 "$here/gltf_morph_golden.py" check $case.gltf pose.json $case.raw || say "$case $e: the golden differs"
  done
  if [[ $engines == *--gpu* ]]; then # validate runs the GPU beside the reference
    "$vk" validate $case.gltf --instances 4 > val.txt 2>&1 || say "$case: validate: $(tail -5 val.txt)"
  fi
  "$vk" convert $case.gltf $case.conv.gltf > /dev/null 2> err || say "$case: convert: $(cat err)"
  "$vk" deform $case.conv.gltf --cpu --pose pose.json --out $case.conv.raw --format raw 2> err ||
    say "$case: deform of the converted file: $(cat err)"
  python3 "$here/gltf_morph_golden.py" check $case.gltf pose.json $case.conv.raw || say "$case: convert lost the targets"
  files="${files:-} $case.gltf $case.conv.gltf"
done
# weights channels: a clip that drives only weights (LINEAR; its keys also as normalized bytes
# and shorts, as gltfpack stores them), and STEP and CUBICSPLINE ones beside a rotation
# channel, played over frames at 0.25, 0.75, 1.25, 1.75 s; the weights are
# sampled per instance and frame as the specification interpolates them (on --gpu by the
# crowd's pose pass, from the keys uploaded once)
for case in linear linear_u8 linear_s16 step cubic; do
  python3 "$here/gltf_morph_golden.py" make $case $case.gltf || exit 1
  for e in $engines; do
    extra=""; [ "$e" = "--gpu" ] && extra="--validation"
    "$vk" deform $case.gltf $e $extra --clip $case.gltf --time 0.25 --frames 4 --fps 2 --out $case.raw --format raw 2> err ||
      say "$case $e: deform with the clip: $(cat err)"
    python3 "$here/gltf_morph_golden.py" check $case.gltf none.json $case.raw 0.25 4 2 || say "$case $e: the golden differs"
    grep -q "drives none" err && say "$case: a clip that drives weights is refused"
    grep -qi "validation\|warning" err && say "$case $e: $(grep -i 'validation\|warning' err | head -3)"
  done
  # validate: the crowd's weights beside the reference's, instances at staggered times
  if [[ $engines == *--gpu* ]]; then
    "$vk" validate $case.gltf --clip $case.gltf --instances 3 --time 0.25 --frames 4 --fps 2 > val.txt 2>&1 ||
      say "$case: validate with the clip: $(tail -4 val.txt)"
    grep -q warning val.txt && say "$case: validate with the clip warns: $(grep warning val.txt)"
  fi
  # convert writes the weights channel (its keys and interpolation) on the mesh's node
  "$vk" convert $case.gltf --clip $case.gltf $case.conv.glb > /dev/null 2> err || say "$case: convert with the clip: $(cat err)"
  "$vk" deform $case.conv.glb --cpu --clip $case.conv.glb --time 0.25 --frames 4 --fps 2 --out conv.raw --format raw 2> err ||
    say "$case: deform of the converted clip: $(cat err)"
  python3 "$here/gltf_morph_golden.py" check $case.gltf none.json conv.raw 0.25 4 2 > out.txt ||
    say "$case: convert lost the weights channel: $(cat out.txt)"
  files="$files $case.conv.glb"
done
# layers blend weights channels as they blend the other channels: two normal layers (weighted
# mean), a layer with an additive one (weight x its delta from its clip's first frame), a
# layer beside masked ones (which drive no weights); on --gpu blended in the pose pass
for case in stepw cubicw; do python3 "$here/gltf_morph_golden.py" make $case $case.gltf || exit 1; done
python3 "$here/gltf_morph_golden.py" crowd crowd.json || exit 1
for e in $engines; do
  extra=""; [ "$e" = "--gpu" ] && extra="--validation"
  "$vk" deform linear.gltf $e $extra --crowd crowd.json --time 0.1 --frames 3 --fps 2 --out crowd.raw --format raw 2> err ||
    say "layers $e: deform: $(cat err)"
  grep -qi "validation\|warning" err && say "layers $e: $(grep -i 'validation\|warning' err | head -3)"
  python3 "$here/gltf_morph_golden.py" check-crowd linear.gltf crowd.raw 0.1 3 2 > out.txt || say "layers $e: $(cat out.txt)"
done
if [[ $engines == *--gpu* ]]; then
  # the pose pass's nodes variant (a subgroup per instance) writes the same weights
  "$vk" deform linear.gltf --gpu --validation --launch-shape pose=nodes --crowd crowd.json --time 0.1 --frames 3 --fps 2 \
    --out crowd.raw --format raw 2> err || say "layers, pose=nodes: deform: $(cat err)"
  grep -qi "validation\|warning" err && say "layers, pose=nodes: $(grep -i 'validation\|warning' err | head -3)"
  python3 "$here/gltf_morph_golden.py" check-crowd linear.gltf crowd.raw 0.1 3 2 > out.txt || say "layers, pose=nodes: $(cat out.txt)"
  "$vk" validate linear.gltf --crowd crowd.json --time 0.1 --frames 3 --fps 2 > val.txt 2>&1 ||
    say "validate with the layered crowd: $(tail -4 val.txt)"
fi
# bake plays them too: a job of the CUBICSPLINE clip (frames at 0, 0.25, ..., 1.75 s) on every
# engine (the GPU's is its default), against the specification
printf '{"version": 1, "defaults": {"fps": 4, "outputs": ["raw"]}, "jobs": [{"name": "c", "model": "%s", "clips": ["%s"], "range": [0, 1.75]}]}\n' \
  "$PWD/cubic.gltf" "$PWD/cubic.gltf" > bake.json
for e in $engines; do
  rm -rf baked
  "$vk" bake bake.json ${e/--gpu/} --out baked --quiet > /dev/null 2> err || say "bake $e: $(cat err)"
  python3 "$here/gltf_morph_golden.py" check cubic.gltf none.json baked/c.raw 0 8 4 > out.txt ||
    say "bake $e: $(grep FAIL out.txt | head -2)"
done
# a pose file gives weights per frame, by mesh name or by its node's name; a frame without
# them keeps the defaults; a name no mesh with targets has, or a wrong count, is refused
cat > wpose.json <<'JSON'
{"frames": [{"nodes": [{"name": "bone", "rotation": [0, 0, 0.7071068, 0.7071068]}], "weights": {"tube": [0.25, 1]}},
            {"nodes": [{"name": "bone", "rotation": [0, 0, 0.7071068, 0.7071068]}], "weights": {"body": [-0.5, 0.75]}},
            {"nodes": [{"name": "bone", "rotation": [0, 0, 0.7071068, 0.7071068]}]}]}
JSON
for e in $engines; do
  extra=""; [ "$e" = "--gpu" ] && extra="--validation"
  "$vk" deform mesh.gltf $e $extra --pose wpose.json --out w.raw --format raw 2> err || say "pose weights $e: $(cat err)"
  grep -qi "validation\|warning" err && say "pose weights $e: $(cat err)"
  python3 "$here/gltf_morph_golden.py" check-frames mesh.gltf wpose.json w.raw > out.txt || say "pose weights $e: $(cat out.txt)"
done
# validate gives the GPU's batch and the reference the same weights per pose
if [[ $engines == *--gpu* ]]; then
  "$vk" validate mesh.gltf --pose wpose.json > val.txt 2>&1 || say "validate with pose weights: $(tail -4 val.txt)"
  grep -q warning val.txt && say "validate with pose weights warns: $(grep warning val.txt)"
fi
echo '{"nodes": [], "weights": {"nope": [1, 2]}}' > bad.json
"$vk" deform mesh.gltf --pose bad.json --out w.raw 2> err && say "a pose naming no mesh is accepted"
grep -q 'weights.nope: no mesh with morph targets is named "nope"' err || say "unnamed mesh: $(cat err)"
echo '{"nodes": [], "weights": {"tube": [1]}}' > bad.json
"$vk" deform mesh.gltf --pose bad.json --out w.raw 2> err && say "a pose with one weight for two targets is accepted"
grep -q 'has 2 morph targets: give an array of 2 weights' err || say "wrong count: $(cat err)"
"$vk" inspect node.gltf > out.txt 2>&1 || say "inspect: $(tail -3 out.txt)"
grep -q "2 morph targets (default weights): \[0\] bulge 0.25 \[1\] tip 1 (positions only)" out.txt ||
  say "inspect does not list the targets at the node's weights: $(grep -i morph out.txt)"
"$vk" inspect --json node.gltf > out.json 2> /dev/null
python3 -c "
import json, sys
t = json.load(open('out.json'))['meshes'][0]['morph_targets']
sys.exit(not ([x['name'] for x in t] == ['bulge', 'tip'] and [x['default_weight'] for x in t] == [0.25, 1]))" ||
  say "inspect --json: morph_targets wrong"
if cache=$("$here/../node/install.sh" 2> /dev/null); then
  cp "$here/../node/validate.mjs" . && ln -s "$cache/node_modules" node_modules
  node validate.mjs $files > gv.txt 2>&1 || say "gltf-validator: $(grep -v ' 0 errors, 0 warnings' gv.txt | head -8)"
else
  echo "note: the Khronos validator is not installed (tests/node/install.sh): not run"
fi
[ $fail -eq 0 ] && echo "cli_gltf_morph: ok"
exit $fail
