#!/usr/bin/env bash
# Rigid atomics of a RenderWare clump (issue 38): an atomic without a Skin PLG attached to a
# bone's frame is part of the character, deformed by that frame's world in the skinned
# atomic's space on --cpu, --cpu-fast and --gpu (validation layer on; skipped without a
# device), against frames composed independently from the Frame List (rw_rigid_golden.py).
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
here=$(cd "$(dirname "$0")" && pwd)
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
say() { echo "FAIL: $*"; fail=1; }
cp "$src/datasets/char_b24_pl8.dff" plain.dff
python3 "$here/rw_rigid_golden.py" make plain.dff prop.dff hand_l || exit 1
cat > pose.json <<'JSON'
{"nodes": [{"name": "lowerarm_l", "rotation": [0.2588190, 0, 0.9659258, 0]},
           {"name": "hand_l", "rotation": [0, 0.3826834, 0, 0.9238795]}]}
JSON
"$vk" inspect prop.dff > inspect.txt 2>&1 || say "inspect: $(tail -3 inspect.txt)"
engines="--cpu --cpu-fast"
if "$vk" devices > /dev/null 2>&1; then engines="$engines --gpu"; else echo "note: no Vulkan device, --gpu not run"; fi
for e in $engines; do
  extra=""; [ "$e" = "--gpu" ] && extra="--validation"
  "$vk" deform plain.dff $e $extra --pose pose.json --out skinned.raw 2> err || say "$e: deform of the plain model: $(cat err)"
  "$vk" deform prop.dff $e $extra --pose pose.json --out prop.raw 2> err || say "$e: deform with the rigid atomic: $(cat err)"
  grep -q "validation" err && say "$e: validation layer messages: $(grep validation err | head -3)"
  python3 "$here/rw_rigid_golden.py" check prop.dff pose.json prop.raw skinned.raw || say "$e: the golden differs"
done
if [[ $engines == *--gpu* ]]; then # validate runs the GPU beside the reference
  "$vk" validate prop.dff --instances 4 > val.txt 2>&1 || say "validate: $(tail -5 val.txt)"
fi
# convert writes each rigid part as a mesh node under its bone's node (no one-joint skin);
# read back, the file has the same rigid parts and deforms as the source (axis correction
# applied), and the Khronos validator finds nothing (where tests/node/install.sh installed it)
"$vk" convert prop.dff conv.glb > /dev/null 2> err || say "convert: $(cat err)"
python3 "$here/gltf_rigid_convert.py" nodes conv.glb 1 || fail=1
"$vk" inspect prop.dff 2> /dev/null | sed -n 2p | grep -o '[0-9]* rigid mesh(es)' > src.rigid
"$vk" inspect conv.glb 2> /dev/null | sed -n 2p | grep -o '[0-9]* rigid mesh(es)' > conv.rigid
[ -s src.rigid ] && cmp -s src.rigid conv.rigid || say "inspect: the source has $(cat src.rigid), the converted file $(cat conv.rigid)"
"$vk" deform prop.dff --cpu --pose pose.json --out src.raw 2> err || say "deform of the source: $(cat err)"
"$vk" deform conv.glb --cpu --pose pose.json --out conv.raw 2> err || say "deform of the converted file: $(cat err)"
python3 "$here/gltf_rigid_convert.py" same src.raw conv.glb conv.raw || fail=1
if cache=$("$here/../node/install.sh" 2> /dev/null); then
  cp "$here/../node/validate.mjs" . && ln -sf "$cache/node_modules" node_modules
  node validate.mjs conv.glb > gv.txt 2>&1 || say "gltf-validator: $(grep -v ' 0 errors, 0 warnings' gv.txt | head -8)"
fi
[ $fail -eq 0 ] && echo "cli_rw_rigid: ok"
exit $fail
