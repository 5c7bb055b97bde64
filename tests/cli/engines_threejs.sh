#!/usr/bin/env bash
# The three.js playback kit (engines/threejs, docs/baking.md "Play a bake in your engine" and "Play a
# crowd in your engine") in headless Chromium, with each three.js given: the oldest release the
# kit supports (r149, which the build fetches for validate --report) and the current one from npm
# (the build fetches `three@latest`), one page load each.
# A bake of two clips in every texture kind (float and half EXR, 16-bit PNG, bone atlas) and the
# CPU reference's raw positions; the kit's page, served over HTTP from a folder of links
# (browsers refuse modules from file://; the kit installed by `cmake --install`), decodes each kind on the GPU, reads the vertices back
# from a float render target and compares them with the reference within the encoding's bound,
# for two clips of the one texture, at a frame halfway between two, and a frame off by one that
# must fail (vkskin-check.js). Then the same with frames wrapped over 4 rows, padded to powers of
# two, and the rest mesh laid out as Houdini and AnimToTexture do (the lookup in TEXCOORD_1,
# other UVs in TEXCOORD_0, as the sidecar says: GLTFLoader names it uv2 before r151, uv1 after).
# And the page plays a crowd of 1024 instances of a multi-clip bake (Fox.glb's three clips where
# the real datasets are, else the bundled character's two), each its own clip, phase and speed,
# a quarter crossfading, with the character's material: for 16 sampled instances the positions
# the VAT and the bone atlas decode per instance (and the VAT's normals, within 1e-3) match the
# CPU reference at that instance's clip and time, one instance given a wrong clip is told apart
# (vkskin-crowd-check.js), the picture of the VAT crowd (and of the atlas crowd, off screen) is
# more than one colour, the frame time is reported, and no console message.
# Skipped (77) without Chromium, OpenEXR or any three.js the build fetched from npm; a version
# not fetched (npm unreachable) is said, the others are played, and the test says skipped (77)
# unless one failed.
set -u
# engines_threejs.sh VKSKIN DATASETS THREE_PACKAGE_DIR...
vk=$1 datasets=$2
shift 2
src=${VKSKIN_SOURCE_DIR:?}
d=$src/datasets
fail=0
no() { echo "FAIL: $*"; fail=1; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed: skipped"; exit 77; }
have=() missing=0
for t in "$@"; do
  if [ -s "$t/build/three.module.js" ]; then have+=("$t")
  else echo "engines_threejs: three.js not fetched by the build into $t (npm unreachable?): that version skipped"; missing=1; fi
done
[ ${#have[@]} -gt 0 ] || { echo "no three.js was fetched by the build (npm): skipped"; exit 77; }
tmp=$(mktemp -d)
srv=
trap '[ -n "$srv" ] && kill "$srv"; rm -rf "$tmp"' EXIT
cd "$tmp"

# the crowd's bake: Fox.glb's three clips (its texture, its own UVs kept), else the bundled character's two
fox=$datasets/gltf/Fox/Fox.glb
if [ -s "$fox" ]; then
  crowd_job='{"name": "crowd", "model": "'$fox'", "clips": ["'$fox'#Survey", "'$fox'#Walk", "'$fox'#Run"], "fps": 30,
              "outputs": ["vat-png16", "atlas", "raw"]}'
else
  crowd_job='{"name": "crowd", "model": "'$d'/char_b24_pl8.cmdl", "clips": ["'$d'/char_b24_pl8.cmdl.walk.cskla",
              "'$d'/char_b24_pl8.cmdl.wave.cskla"], "outputs": ["vat-png16", "atlas", "raw"]}'
fi
cat > bake.json <<JSON
{"jobs": [{"name": "hero", "model": "$d/char_b24_pl8.cmdl",
           "clips": ["$d/char_b24_pl8.cmdl.walk.cskla", "$d/char_b24_pl8.cmdl.wave.cskla"], "range": [0, 0.5],
           "outputs": ["vat-exr-float", "vat-exr-half", "vat-png16", "atlas", "raw"]},
          {"name": "wide", "model": "$d/char_b24_pl8.cmdl",
           "clips": ["$d/char_b24_pl8.cmdl.walk.cskla", "$d/char_b24_pl8.cmdl.wave.cskla"], "range": [0, 0.5],
           "max_width": 256, "pow2": true, "outputs": ["vat-exr-float", "vat-exr-half", "vat-png16", "raw"]},
          $crowd_job]}
JSON
"$vk" bake bake.json --cpu --out www/bake --quiet > bake.log 2>&1
rc=$?
if grep -q "without OpenEXR" bake.log; then echo "vkskin built without OpenEXR: skipped"; exit 77; fi
[ $rc -eq 0 ] || { cat bake.log; no "vkskin bake exit $rc"; exit 1; }
# the second job wraps each frame over 4 rows of 256 (padded to powers of two), and its rest
# mesh is laid out as it is once the character's UVs are kept: the lookup in the second set
mkdir www/bake2
mv www/bake/wide.* www/bake2/
python3 "$src/tests/engines/two_uv_sets.py" www/bake2/wide.vat.glb www/bake2/two.glb www/bake2/wide.vat-*.json &&
  mv www/bake2/two.glb www/bake2/wide.vat.glb || no "two_uv_sets.py"
grep -q '"rows_per_frame":[[:space:]]*4' www/bake2/wide.vat-png16.json || no "the wide bake has not 4 rows a frame"
# the kit as `cmake --install` puts it (share/vkskin/engines/threejs): all the page needs is there
kit=$src/engines/threejs
if [ "${VKSKIN_INSTALL:-OFF}" = ON ] && [ -n "${VKSKIN_BINARY_DIR:-}" ]; then
  "${CMAKE_COMMAND:-cmake}" --install "$VKSKIN_BINARY_DIR" --component engines --prefix "$tmp/prefix" > install.log 2>&1 ||
    { cat install.log; no "cmake --install --component engines"; }
  kit=$tmp/prefix/share/vkskin/engines/threejs
  [ -s "$kit/index.html" ] || no "the three.js kit is not installed in share/vkskin/engines/threejs"
else
  echo "engines_threejs: the library is not installed by this build (VKSKIN_INSTALL off): the kit from the sources"
fi
ln -s "$kit" www/kit
python3 "$src/tests/engines/serve.py" www port &
srv=$!
for _ in $(seq 50); do [ -s port ] && break; sleep 0.1; done
[ -s port ] || { no "the HTTP server did not start"; exit 1; }

# open URL OUT: the DOM once the page's scripts ran and it went idle (a virtual-time budget far
# beyond what it needs: the page is done when idle); console messages on OUT.log
open_page() {
  rm -rf "$tmp/profile"
  timeout 300 "$browser" --headless=new --no-sandbox --no-first-run --user-data-dir="$tmp/profile" \
    --use-angle=swiftshader --enable-unsafe-swiftshader --enable-logging=stderr --v=0 \
    --virtual-time-budget=6000000 --window-size=700,700 --dump-dom "$1" > "$2" 2> "$2.log"
  local rc=$?
  [ $rc -eq 0 ] || no "chromium exit $rc on $1: $(grep -v dbus "$2.log" | tail -3)"
  if grep -q "CONSOLE" "$2.log"; then no "console messages on $1: $(grep CONSOLE "$2.log" | head -5)"; fi
}

n=0 versions=
for three in "${have[@]}"; do
  n=$((n + 1))
  version=$(sed -n 's/.*"version": "\([^"]*\)".*/\1/p' "$three/package.json")
  ln -s "$three" www/three$n
  out=page$n.dom
  url="http://127.0.0.1:$(cat port)/kit/index.html?three=../three$n/&check=../bake/hero,../bake2/wide&bake=../bake/crowd.vat-png16.json&count=1024&crowdcheck=../bake/crowd&clock=/clock&timed=3&idle=1"
  open_page "$url" $out
  # a page dumped while it still says "loading" was cut off before its scripts ended (seen once
  # in CI under load, at the start of a phase): opened once more, saying so; a page that never
  # loads fails the checks below as before
  if grep -q '<p id="status" data-drawn="0">loading' $out; then
    echo "engines_threejs: the page was dumped still loading; opened once more"
    open_page "$url" $out
  fi
  versions="$versions $version"
  echo "== three.js $version"
  sed -n '/<pre id="check"/,/<\/pre>/p' $out | grep -v PASS
  grep -q 'data-ok="1"' $out && grep -q 'CHECK OK' $out ||
    no "three.js $version: the decoded vertices do not match the CPU reference"
  for set in bake/hero bake2/wide; do
    # every kind was checked, each can fail (a wrong frame is caught)
    for kind in vat-exr-float vat-exr-half vat-png16 atlas; do
      [ $set = bake2/wide ] && [ $kind = atlas ] && continue
      c=$(grep -c "$set: PASS $kind positions" $out)
      [ "$c" -ge 4 ] || no "three.js $version: $set: $kind: $c position checks passed, want 4 (2 clips, exact and interpolated)"
      grep -q "$set: PASS $kind wrong frame detected" $out || no "three.js $version: $set: $kind: a wrong frame was not told apart"
    done
  done
  # the crowd: 16 sampled instances of 1024 by the VAT and by the atlas, some crossfading, and
  # a wrong instance attribute told apart
  for kind in vat atlas; do
    c=$(grep -c "bake/crowd: PASS $kind instance" $out)
    [ "$c" -eq 16 ] || no "three.js $version: crowd $kind: $c sampled instances passed, want 16"
    grep -q "bake/crowd: PASS $kind: [1-9][0-9]* of 16 sampled instances crossfade" $out || no "three.js $version: crowd $kind: no crossfade sampled"
    grep -q "bake/crowd: PASS $kind wrong instance attribute detected" $out ||
      no "three.js $version: crowd $kind: a wrong instance attribute was not told apart"
  done
  grep -q "bake/crowd: PASS atlas crowd drawn with its material" $out || no "three.js $version: the atlas crowd was not drawn"
  grep -q "bake/crowd: PASS vat normals of the 16 sampled instances" $out || no "three.js $version: the crowd's VAT normals were not checked"
  status=$(grep -o '<p id="status"[^<]*' $out)
  echo "$status"
  echo "$status" | grep -q "data-drawn=\"1\" data-uniform=\"0\" data-frame-ms=\"[0-9.]*\">three.js r" ||
    no "three.js $version: the page did not play the crowd: $status"
done
[ $fail -eq 0 ] && echo "engines_threejs: three.js$versions: every kind decoded on the GPU within its bound, a crowd of 1024 decoded per instance, played"
[ $fail -eq 0 ] && [ $missing -eq 1 ] && { echo "engines_threejs: a three.js version was not fetched: skipped"; exit 77; }
exit $fail
