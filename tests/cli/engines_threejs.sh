#!/usr/bin/env bash
# The three.js playback kit (engines/threejs, README "Play a bake in your engine") in headless
# Chromium: a bake of two clips in every texture kind (float and half EXR, 16-bit PNG, bone
# atlas) and the CPU reference's raw positions; the kit's page, served over HTTP from a folder
# of links (browsers refuse modules from file://), decodes each kind on the GPU, reads the
# vertices back from a float render target and compares them with the reference within the
# encoding's bound, for two clips of the one texture, at a frame halfway between two, and a
# frame off by one that must fail (vkskin-check.js). Then the same with frames wrapped over 4
# rows, padded to powers of two, and the rest mesh laid out as Houdini and AnimToTexture do
# (the lookup in TEXCOORD_1, other UVs in TEXCOORD_0); and the page playing the 16-bit VAT and
# the atlas draws a picture with no console message.
# Skipped (77) without Chromium, OpenEXR or the three.js the build fetches from npm.
set -u
vk=$1 three=$2
src=${VKSKIN_SOURCE_DIR:?}
d=$src/datasets
fail=0
no() { echo "FAIL: $*"; fail=1; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed: skipped"; exit 77; }
[ -s "$three/build/three.module.js" ] || { echo "three.js was not fetched by the build (npm): skipped"; exit 77; }
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill "$srv"; rm -rf "$tmp"' EXIT
cd "$tmp"

cat > bake.json <<JSON
{"jobs": [{"name": "hero", "model": "$d/char_b24_pl8.cmdl",
           "clips": ["$d/char_b24_pl8.cmdl.walk.cskla", "$d/char_b24_pl8.cmdl.wave.cskla"], "range": [0, 0.5],
           "outputs": ["vat-exr-float", "vat-exr-half", "vat-png16", "atlas", "raw"]},
          {"name": "wide", "model": "$d/char_b24_pl8.cmdl",
           "clips": ["$d/char_b24_pl8.cmdl.walk.cskla", "$d/char_b24_pl8.cmdl.wave.cskla"], "range": [0, 0.5],
           "max_width": 256, "pow2": true, "outputs": ["vat-exr-float", "vat-exr-half", "vat-png16", "raw"]}]}
JSON
"$vk" bake bake.json --cpu --out www/bake --quiet > bake.log 2>&1
rc=$?
if grep -q "without OpenEXR" bake.log; then echo "vkskin built without OpenEXR: skipped"; exit 77; fi
[ $rc -eq 0 ] || { cat bake.log; no "vkskin bake exit $rc"; exit 1; }
# the second job wraps each frame over 4 rows of 256 (padded to powers of two), and its rest
# mesh is laid out as it is once the character's UVs are kept: the lookup in the second set
mkdir www/bake2
mv www/bake/wide.* www/bake2/
python3 "$src/tests/engines/two_uv_sets.py" www/bake2/wide.vat.glb www/bake2/two.glb &&
  mv www/bake2/two.glb www/bake2/wide.vat.glb || no "two_uv_sets.py"
grep -q '"rows_per_frame":[[:space:]]*4' www/bake2/wide.vat-png16.json || no "the wide bake has not 4 rows a frame"
ln -s "$src/engines/threejs" www/kit
ln -s "$three" www/three
python3 "$src/tests/engines/serve.py" www port &
srv=$!
for _ in $(seq 50); do [ -s port ] && break; sleep 0.1; done
[ -s port ] || { no "the HTTP server did not start"; exit 1; }
base="http://127.0.0.1:$(cat port)/kit/index.html?three=../three/"

# open URL OUT [BUDGET_MS]: the DOM after the page's scripts ran; console messages on OUT.log
open_page() {
  timeout 150 "$browser" --headless=new --no-sandbox --no-first-run --user-data-dir="$tmp/profile" \
    --use-angle=swiftshader --enable-unsafe-swiftshader --enable-logging=stderr --v=0 \
    --virtual-time-budget="${3:-20000}" --window-size=700,700 --dump-dom "$1" > "$2" 2> "$2.log"
  local rc=$?
  [ $rc -eq 0 ] || no "chromium exit $rc on $1: $(grep -v dbus "$2.log" | tail -3)"
  if grep -q "CONSOLE" "$2.log"; then no "console messages on $1: $(grep CONSOLE "$2.log" | head -5)"; fi
}

open_page "$base&check=../bake/hero,../bake2/wide" check.dom
sed -n '/<pre id="check"/,/<\/pre>/p' check.dom
grep -q 'data-ok="1"' check.dom && grep -q 'CHECK OK' check.dom ||
  no "the decoded vertices do not match the CPU reference"
for set in bake/hero bake2/wide; do
  # every kind was checked, each can fail (a wrong frame is caught)
  for kind in vat-exr-float vat-exr-half vat-png16 atlas; do
    [ $set = bake2/wide ] && [ $kind = atlas ] && continue
    n=$(grep -c "$set: PASS $kind positions" check.dom)
    [ "$n" -ge 4 ] || no "$set: $kind: $n position checks passed, want 4 (2 clips, exact and interpolated)"
    grep -q "$set: PASS $kind wrong frame detected" check.dom || no "$set: $kind: a wrong frame was not told apart"
  done
done
for kind in vat-png16 atlas; do
  # a page still "loading" when the budget ran out was starved of CPU (a loaded CI machine:
  # swiftshader draws on the same cores), not wrong: it is opened again with more time; an
  # error or a blank picture fails at once
  for budget in 20000 60000 120000; do
    open_page "$base&bake=../$([ $kind = atlas ] && echo bake/hero || echo bake2/wide).$kind.json&clip=1" \
      "play_$kind.dom" $budget
    grep -q '<p id="status" data-drawn="0">loading' "play_$kind.dom" || break
    echo "engines_threejs: $kind still loading after a virtual-time budget of $budget ms: again with more"
  done
  grep -q 'id="status" data-drawn="1" data-uniform="0"' "play_$kind.dom" ||
    no "the page did not play $kind: $(grep -o '<p id="status"[^<]*' "play_$kind.dom")"
done
[ $fail -eq 0 ] && echo "engines_threejs: every kind decoded on the GPU within its bound, pages played"
exit $fail
