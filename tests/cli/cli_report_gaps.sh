#!/usr/bin/env bash
# No silent gaps in validate's reports (issue 22): a part that cannot be produced on a device
# says why, in the page, the JSON and on stderr, and the verdict stays the numbers'.
#   - heat maps on a device whose queue family cannot draw (simulated on lavapipe with
#     VKSKIN_TEST_NO_GRAPHICS_QUEUE, as the H100's compute-only family was): exit 0 still,
#     "no heat map: ... has no queue family with graphics" on stderr, in index.html and in the
#     JSON, and no heat map file;
#   - the same run without the simulation draws every heat map (the renderer does run there);
#   - a model without normals (a bundled character converted to glTF with NORMAL removed, and
#     Fox.glb where the real samples are): its normals are "absent" in the text, the JSON, the
#     page and JUnit (a <skipped> case, valid against the schema), also against a golden,
#     never a PASS on zeros; the exit code stays 0.
set -u
vk=$1 check_png=$2 xsd=$3
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
no() { echo "FAIL: $*"; fail=1; }
a="$src/datasets/char_b24_pl8.dff"

"$vk" validate "$a" --instances 1 > /dev/null 2>&1; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi
command -v xmllint > /dev/null || { echo "xmllint missing (libxml2-utils): skipped"; exit 77; }

# ---- heat maps where the renderer cannot run
VKSKIN_TEST_NO_GRAPHICS_QUEUE=1 "$vk" validate "$a" --instances 2 --report rep_nogfx --json --validation > out 2> err
rc=$?
[ $rc -eq 0 ] || no "no graphics: exit $rc, expected 0 (the numbers pass): $(head -c 400 err)"
grep -q 'no heat map: render: ".*" has no queue family with graphics' err || no "no graphics: stderr does not say why: $(cat err)"
grep -q '<p class="note heatmap-missing">No heat map: render: .* has no queue family with graphics' rep_nogfx/index.html ||
  no "no graphics: the page does not say why there is no heat map"
[ ! -e rep_nogfx/heatmap_d0_f0.png ] || no "no graphics: a heat map file was written"
python3 - <<'PY' || no "no graphics: the JSON does not say why there is no heat map"
import json
h = json.load(open("out"))["files"][0]["heatmap"]
assert h["file"] is None and "has no queue family with graphics" in h["missing"], h
PY

# ---- the same run where the renderer runs: the heat map, and nothing missing
"$vk" validate "$a" --instances 2 --report rep_gfx --json --validation > out 2> err || no "with graphics: exit $?"
"$check_png" rep_gfx/heatmap_d0_f0.png 480 360 > /dev/null || no "with graphics: no drawn heat map"
! grep -q 'heatmap-missing' rep_gfx/index.html || no "with graphics: the page says a heat map is missing"
! grep -q 'no heat map' err || no "with graphics: stderr says a heat map is missing"

# ---- a stream the model does not have
"$vk" convert "$src/datasets/char_b24_pl8.dff" c.gltf 2> err || no "convert: $(cat err)"
python3 - <<'PY' || no "could not strip the normals"
import json
g = json.load(open("c.gltf"))
for m in g["meshes"]:
    for p in m["primitives"]:
        del p["attributes"]["NORMAL"]
json.dump(g, open("nonormals.gltf", "w"))
PY
files="nonormals.gltf"
fox="${VKSKIN_REAL_DATASETS:-}/gltf/Fox/Fox.glb"
[ -f "$fox" ] && files="$files $fox"
for m in $files; do
  "$vk" validate "$m" --instances 2 > out 2> err || no "$m: exit $?: $(head -c 300 err)"
  grep -q '^  normals   absent: the model has no normals (not compared)$' out || no "$m: text: normals not absent: $(grep normals out)"
  ! grep -q '^  normals .*PASS' out || no "$m: text: normals PASS on zeros"
  "$vk" validate "$m" --instances 2 --json --junit j.xml --report rep_absent > out 2> err || no "$m --json: exit $?"
  python3 - <<'PY' || no "$m: JSON: normals not absent"
import json
f = json.load(open("out"))["files"][0]
assert f["normals"] == {"absent": True, "why": "the model has no normals"}, f["normals"]
assert f["positions"]["pass"] and f["pass"], f
PY
  xmllint --noout --schema "$xsd" j.xml 2> xerr || no "$m: j.xml against the JUnit schema: $(cat xerr)"
  [ "$(xmllint --xpath 'string(//testcase[@name="normals"]/skipped/@message)' j.xml)" = \
    "absent: the model has no normals (not compared)" ] || no "$m: JUnit: the normals case is not skipped as absent"
  [ "$(xmllint --xpath 'string(/testsuites/@skipped)' j.xml)" = 1 ] || no "$m: JUnit: testsuites skipped= is not 1"
  [ "$(xmllint --xpath 'string(//testsuite/@skipped)' j.xml)" = 1 ] || no "$m: JUnit: testsuite skipped= is not 1"
  [ "$(xmllint --xpath 'count(//failure|//error)' j.xml)" = 0 ] || no "$m: JUnit: failures"
  grep -q '<li><b>normals</b>: absent: the model has no normals (not compared)</li>' rep_absent/index.html ||
    no "$m: page: normals not absent"
  grep -q '<td>absent: the model has no normals (not compared)</td>' rep_absent/index.html ||
    no "$m: page: the summary's normals cell is not absent"
  ! grep -q 'normals: vertex-instances by error' rep_absent/index.html || no "$m: page: a histogram of the absent normals"
done
# against a golden: the golden normals are absent too
"$vk" validate nonormals.gltf --instances 2 --save-golden gold > /dev/null 2> err || no "--save-golden: $(cat err)"
"$vk" validate nonormals.gltf --instances 2 --against gold --junit jg.xml > out 2> err || no "--against: exit $?: $(cat err)"
grep -q '^  golden normals absent: the model has no normals (not compared)$' out || no "--against: golden normals not absent"
[ "$(xmllint --xpath 'string(//testcase[@name="golden normals"]/skipped/@type)' jg.xml)" = absent ] ||
  no "--against: JUnit golden normals not skipped"
[ "$(xmllint --xpath 'string(/testsuites/@skipped)' jg.xml)" = 2 ] || no "--against: JUnit skipped= is not 2"
# a model with normals: no case is skipped, the normals pass on their numbers
"$vk" validate "$a" --instances 2 --junit jn.xml > out 2> err || no "with normals: exit $?"
grep -q '^  normals   max abs .* PASS$' out || no "with normals: normals not compared"
[ "$(xmllint --xpath 'string(/testsuites/@skipped)' jn.xml)" = 0 ] || no "with normals: a case is skipped"

[ $fail -eq 0 ] && echo "report gaps: ok"
exit $fail
