#!/usr/bin/env bash
# Whole characters against Blender's own deformation (issue 38): the characters authored with
# Blender (tests/data/blender: a body with shape keys and a weights channel, a tube of 5..8
# influences a vertex in JOINTS_0/1, an arm with a sword and a shield parented to bones), each
# played with its own clip at the committed golden's times on --cpu, --cpu-fast and --gpu (with
# the validation layer; skipped without a device), every vertex within 1e-5 of the bounding
# radius of the positions Blender evaluated (tests/blender/blender_goldens.py made the goldens;
# cli_blender_goldens makes them again where Blender is installed); validate with the clip
# passes. The golden can fail: the same file as a vkskin that dropped the props, the weights
# channel or influences 5..8 would see it is off the golden on --cpu. convert writes them all
# (props as mesh nodes under their bones), and the converted file plays to the same golden.
# Usage: cli_blender_chars.sh VKSKIN
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
data=$src/tests/data/blender
# the Blender characters, and a real one: three.js's RobotExpressive (CC0; 15 rigid parts under
# its bones, morph targets on the rigid head parts driven by the clip's weights channels)
chars="$data/shapekey_body $data/tube8 $data/prop_char $src/tests/data/robot_expressive/RobotExpressive"
check="python3 $src/tests/cli/blender_golden_check.py"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
say() { echo "FAIL: $*"; fail=1; }
engines="--cpu --cpu-fast"
if "$vk" devices > /dev/null 2>&1; then engines="$engines --gpu"; else echo "note: no Vulkan device, --gpu not run"; fi
for base in $chars; do
  name=$(basename "$base") model=$base.glb golden=$base.golden.json
  times=$($check times "$golden") || { say "$name: the golden's times"; continue; }
  for e in $engines; do
    extra=""; [ "$e" = "--gpu" ] && extra="--validation"
    # shellcheck disable=SC2086 # $times is "--time T --frames N --fps F"
    "$vk" deform "$model" $e $extra --clip "$model" $times --out d.raw --format raw --quiet 2> err ||
      { say "$name $e: deform: $(cat err)"; continue; }
    grep -qi "validation\|warning" err && say "$name $e: $(grep -i 'validation\|warning' err | head -3)"
    $check check "$golden" d.raw || say "$name $e: off Blender's golden"
  done
  if [[ $engines == *--gpu* ]]; then # validate runs the GPU beside the reference
    # shellcheck disable=SC2086
    "$vk" validate "$model" --clip "$model" --instances 3 $times > val.txt 2>&1 ||
      say "$name: validate: $(tail -5 val.txt)"
  fi
done
# convert with the clip keeps the whole character: the props as mesh nodes under their bones,
# the shape keys with their weights channel, JOINTS_1/WEIGHTS_1; the converted file, played,
# is Blender's golden again, has the same rigid parts, and the Khronos validator finds nothing
# (where tests/node/install.sh installed it)
for base in $chars; do
  name=$(basename "$base") model=$base.glb golden=$base.golden.json
  "$vk" convert "$model" --clip "$model" $name.conv.glb > /dev/null 2> err || { say "$name: convert: $(cat err)"; continue; }
  # shellcheck disable=SC2046
  "$vk" deform $name.conv.glb --cpu --clip $name.conv.glb $($check times "$golden") --out d.raw --format raw --quiet \
    2> err || say "$name: deform of the converted file: $(cat err)"
  $check check "$golden" d.raw || say "$name: the converted file is off Blender's golden"
  want=$("$vk" inspect "$model" 2> /dev/null | grep -o '[0-9]* rigid mesh node(s)')
  got=$("$vk" inspect $name.conv.glb 2> /dev/null | grep -o '[0-9]* rigid mesh node(s)')
  [ "$want" = "$got" ] || say "$name: inspect of the converted file: '$got', of the source '$want'"
done
python3 "$src/tests/cli/gltf_rigid_convert.py" nodes prop_char.conv.glb 2 || fail=1
# (RobotExpressive's 14 clips: more than convert's first 8 binding slots, which once moved)
python3 "$src/tests/cli/gltf_rigid_convert.py" nodes RobotExpressive.conv.glb 15 || fail=1
if cache=$("$src/tests/node/install.sh" 2> /dev/null); then
  cp "$src/tests/node/validate.mjs" . && ln -sf "$cache/node_modules" node_modules
  node validate.mjs ./*.conv.glb > gv.txt 2>&1 || say "gltf-validator: $(grep -v ' 0 errors, 0 warnings' gv.txt | head -8)"
else
  echo "note: the Khronos validator is not installed (tests/node/install.sh): not run"
fi
# the negative cases: what a vkskin without props, morph weights or influences 5..8 would write
for bad in "prop_char props" "shapekey_body weights" "tube8 influences"; do
  set -- $bad
  $check strip "$data/$1.glb" "$2.glb" "$2" || { say "cannot make the $2 case"; continue; }
  # shellcheck disable=SC2046
  "$vk" deform "$2.glb" --cpu --clip "$2.glb" $($check times "$data/$1.golden.json") --out d.raw --format raw \
    --quiet 2> err || { say "deform of $1 without $2: $(cat err)"; continue; }
  if $check check "$data/$1.golden.json" d.raw > out.txt 2>&1; then
    say "$1 without its $2 passes Blender's golden: $(cat out.txt)"
  else
    echo "without $2 (as expected): $(cat out.txt)"
  fi
done
[ $fail -eq 0 ] && echo "cli_blender_chars: ok"
exit $fail
