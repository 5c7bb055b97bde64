#!/usr/bin/env bash
# The committed Blender goldens (tests/data/blender/*.golden.json, and RobotExpressive's in
# tests/data/robot_expressive) are Blender's: where Blender
# is installed, make them again from the committed characters with
# tests/blender/blender_goldens.py at the same times, and compare (within 1e-5 of the bounding
# radius). Skipped (77) without blender; CI does not install it.
# Usage: cli_blender_goldens.sh   (VKSKIN_SOURCE_DIR: the repository)
set -u
src=${VKSKIN_SOURCE_DIR:?}
data=$src/tests/data/blender
command -v blender > /dev/null 2>&1 || { echo "blender is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for base in "$data/shapekey_body" "$data/tube8" "$data/prop_char" "$src/tests/data/robot_expressive/RobotExpressive"; do
  name=$(basename "$base")
  times=$(python3 -c "import json,sys; print(','.join('%g' % t for t in json.load(open(sys.argv[1]))['times']))" \
    "$base.golden.json") || exit 1
  blender -b --factory-startup --python "$src/tests/blender/blender_goldens.py" -- "$tmp" "$times" "$base.glb" \
    > "$tmp/log" 2>&1 || { echo "FAIL: Blender could not make the $name golden: $(grep -i 'error\|golden' "$tmp/log" | tail -5)"; fail=1; continue; }
  python3 "$src/tests/cli/blender_golden_check.py" compare "$base.golden.json" "$tmp/$name.golden.json" || fail=1
done
[ $fail -eq 0 ] && echo "cli_blender_goldens: ok"
exit $fail
