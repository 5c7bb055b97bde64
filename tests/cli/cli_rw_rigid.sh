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
[ $fail -eq 0 ] && echo "cli_rw_rigid: ok"
exit $fail
