#!/usr/bin/env bash
# Rigid shapes of a NIF (issue 38): a shape without a skin instance under a bone (made from the
# real Skyrim LE cylinders by taking cylinder_2's skin away and moving it under BoneB) is part
# of the character, deformed by the bone's world and its own transform on --cpu, --cpu-fast and
# --gpu (validation layer on; skipped without a device), against transforms composed
# independently from the blocks (nif_rigid_golden.py). Skipped (77) without the sample.
set -u
vk=$1
data=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
in=$data/nif/nifly_skyrimle_cylinders_TestNifFile_Optimize_LE_to_SE.nif
[ -f "$in" ] || { echo "the NIF samples are not here: skipped"; exit 77; }
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
say() { echo "FAIL: $*"; fail=1; }
cp "$in" plain.nif
python3 "$here/nif_rigid_golden.py" make plain.nif rigid.nif || exit 1
cat > pose.json <<'JSON'
{"nodes": [{"name": "BoneB", "rotation": [0.2588190, 0, 0, 0.9659258]}]}
JSON
"$vk" inspect rigid.nif > inspect.txt 2>&1 || say "inspect: $(tail -3 inspect.txt)"
grep -q "rigid" inspect.txt || say "inspect does not show the rigid group"
engines="--cpu --cpu-fast"
if "$vk" devices > /dev/null 2>&1; then engines="$engines --gpu"; else echo "note: no Vulkan device, --gpu not run"; fi
for e in $engines; do
  extra=""; [ "$e" = "--gpu" ] && extra="--validation"
  "$vk" deform plain.nif $e $extra --pose pose.json --out skinned.raw 2> err || say "$e: deform of the sample: $(cat err)"
  "$vk" deform rigid.nif $e $extra --pose pose.json --out rigid.raw 2> err || say "$e: deform with the rigid shape: $(cat err)"
  grep -q "validation" err && say "$e: validation layer messages: $(grep validation err | head -3)"
  python3 "$here/nif_rigid_golden.py" check rigid.nif pose.json rigid.raw skinned.raw || say "$e: the golden differs"
done
if [[ $engines == *--gpu* ]]; then # validate runs the GPU beside the reference
  "$vk" validate rigid.nif --instances 4 > val.txt 2>&1 || say "validate: $(tail -5 val.txt)"
fi
# convert writes each rigid part as a mesh node under its bone's node (no one-joint skin);
# read back, the file has the same rigid parts and deforms as the source (axis correction
# applied), and the Khronos validator finds nothing (where tests/node/install.sh installed it)
"$vk" convert rigid.nif conv.glb > /dev/null 2> err || say "convert: $(cat err)"
python3 "$here/gltf_rigid_convert.py" nodes conv.glb 1 || fail=1
"$vk" inspect rigid.nif 2> /dev/null | sed -n 2p | grep -o '[0-9]* rigid mesh(es)' > src.rigid
"$vk" inspect conv.glb 2> /dev/null | sed -n 2p | grep -o '[0-9]* rigid mesh(es)' > conv.rigid
[ -s src.rigid ] && cmp -s src.rigid conv.rigid || say "inspect: the source has $(cat src.rigid), the converted file $(cat conv.rigid)"
"$vk" deform rigid.nif --cpu --pose pose.json --out src.raw 2> err || say "deform of the source: $(cat err)"
"$vk" deform conv.glb --cpu --pose pose.json --out conv.raw 2> err || say "deform of the converted file: $(cat err)"
python3 "$here/gltf_rigid_convert.py" same src.raw conv.glb conv.raw || fail=1
if cache=$("$here/../node/install.sh" 2> /dev/null); then
  cp "$here/../node/validate.mjs" . && ln -sf "$cache/node_modules" node_modules
  node validate.mjs conv.glb > gv.txt 2>&1 || say "gltf-validator: $(grep -v ' 0 errors, 0 warnings' gv.txt | head -8)"
fi
[ $fail -eq 0 ] && echo "cli_nif_rigid: ok"
exit $fail
