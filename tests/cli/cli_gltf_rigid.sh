#!/usr/bin/env bash
# Rigid parts of a glTF character (issue 38): mesh nodes without a skin (a prop on a bone, a
# prop at a scene root) are part of the character, deformed by their node's world in the same
# run as the skinned mesh, on --cpu, --cpu-fast and --gpu (with the validation layer; skipped
# without a device), against worlds composed independently (gltf_rigid_golden.py); inspect
# lists them and validate passes. A glTF stored off its bind pose is a note, not a failure.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
here=$(cd "$(dirname "$0")" && pwd)
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
say() { echo "FAIL: $*"; fail=1; }
"$vk" convert "$src/datasets/char_b24_pl8.dff" plain.glb > /dev/null 2>&1 || { echo "cannot make the glTF"; exit 1; }
python3 "$here/gltf_rigid_golden.py" make plain.glb props.gltf props.bin || exit 1
cat > pose.json <<'JSON'
{"nodes": [{"name": "lowerarm_l", "rotation": [0.2588190, 0, 0.9659258, 0]},
           {"name": "hand_l", "rotation": [0, 0.3826834, 0, 0.9238795]},
           {"name": "crate", "rotation": [0, 0, 0.7071068, 0.7071068]}]}
JSON
# the pose without the crate's entry: the model without props has no such node
python3 -c "import json; d=json.load(open('pose.json')); d['nodes']=d['nodes'][:2]; json.dump(d, open('pose2.json','w'))"
"$vk" inspect props.gltf > inspect.txt 2>&1 || say "inspect: $(tail -3 inspect.txt)"
grep -q '2 rigid mesh node(s)' inspect.txt || say "inspect does not say how many rigid mesh nodes: $(head -3 inspect.txt)"
engines="--cpu --cpu-fast"
if "$vk" devices > /dev/null 2>&1; then engines="$engines --gpu"; else echo "note: no Vulkan device, --gpu not run"; fi
for e in $engines; do
  extra=""; [ "$e" = "--gpu" ] && extra="--validation"
  "$vk" deform plain.glb $e $extra --pose pose2.json --out skinned.raw 2> err || say "$e: deform of the plain model: $(cat err)"
  "$vk" deform props.gltf $e $extra --pose pose.json --out props.raw 2> err || say "$e: deform with props: $(cat err)"
  grep -q "validation" err && say "$e: validation layer messages: $(grep validation err | head -3)"
  python3 "$here/gltf_rigid_golden.py" check props.gltf pose.json props.raw skinned.raw || say "$e: the golden differs"
done
if [[ $engines == *--gpu* ]]; then # validate runs the GPU beside the reference
  "$vk" validate props.gltf --instances 4 > val.txt 2>&1 || say "validate: $(tail -5 val.txt)"
fi
# convert writes each rigid part as a mesh node under its bone's node (no one-joint skin);
# read back, the file has the same rigid parts and deforms as the source (axis correction
# applied), and the Khronos validator finds nothing (where tests/node/install.sh installed it)
"$vk" convert props.gltf conv.glb > /dev/null 2> err || say "convert: $(cat err)"
python3 "$here/gltf_rigid_convert.py" nodes conv.glb 2 || fail=1
"$vk" inspect props.gltf 2> /dev/null | sed -n 2p | grep -o '[0-9]* rigid mesh(es)' > src.rigid
"$vk" inspect conv.glb 2> /dev/null | sed -n 2p | grep -o '[0-9]* rigid mesh(es)' > conv.rigid
[ -s src.rigid ] && cmp -s src.rigid conv.rigid || say "inspect: the source has $(cat src.rigid), the converted file $(cat conv.rigid)"
"$vk" deform props.gltf --cpu --pose pose.json --out src.raw 2> err || say "deform of the source: $(cat err)"
"$vk" deform conv.glb --cpu --pose pose.json --out conv.raw 2> err || say "deform of the converted file: $(cat err)"
python3 "$here/gltf_rigid_convert.py" same src.raw conv.glb conv.raw || fail=1
if cache=$("$here/../node/install.sh" 2> /dev/null); then
  cp "$here/../node/validate.mjs" . && ln -sf "$cache/node_modules" node_modules
  node validate.mjs conv.glb > gv.txt 2>&1 || say "gltf-validator: $(grep -v ' 0 errors, 0 warnings' gv.txt | head -8)"
fi
# glTF does not promise that a mesh is stored at the pose its inverse binds imply (rest is not
# bind): a bind-pose check that differs is a note, not a failure, in inspect and validate
python3 "$here/gltf_rigid_golden.py" offbind props.gltf offbind.gltf hand_l || exit 1
"$vk" inspect offbind.gltf > out 2> err || say "inspect of a glTF stored off its bind pose: exit $? ($(cat err))"
grep -q "differs (a note" out && grep -q "does not promise" err || say "inspect does not note the difference: $(cat out err | grep -i bind)"
"$vk" inspect --json offbind.gltf > out.json 2> /dev/null
python3 -c "import json,sys; b=json.load(open('out.json'))['bind_check']; sys.exit(not (b['promised'] is False and b['status']=='differs (noted)'))" ||
  say "inspect --json: the bind check is not noted as unpromised"
if [[ $engines == *--gpu* ]]; then
  "$vk" validate offbind.gltf --instances 4 > val.txt 2>&1 || say "validate of a glTF stored off its bind pose: $(tail -5 val.txt)"
  grep -q "DIFFERS (a note" val.txt || say "validate does not say the bind pose differs: $(grep -i bind val.txt)"
fi
[ $fail -eq 0 ] && echo "cli_gltf_rigid: ok"
exit $fail
