#!/usr/bin/env bash
# vkskin validate's reports end to end (issue 16): --junit against the JUnit schema with its
# counts, --report's page and heat maps, --inject-fault matrix giving a failing case, a red row
# and a heat map whose reddest vertices are the ones the fault moves (worked out from the model
# by report_fault_vertices), --save-golden on lavapipe and --against naming the moved vertices,
# --device all, --tolerance-scale / --nmse printed everywhere and bad values refused, and the
# exit codes of the README kept with the reports written anyway.
set -u
vk=$1 fault_vertices=$2 check_png=$3 xsd=$4
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cp "$src/datasets/char_b24_pl8.dff" a.dff
cp "$src/datasets/char_b24_pl8.nif" b.nif
no() { echo "FAIL: $*"; fail=1; }

"$vk" validate a.dff --instances 1 > /dev/null 2>&1; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi
command -v xmllint > /dev/null || { echo "xmllint missing (libxml2-utils): skipped"; exit 77; }

# run CODE what args...: vkskin validate with args, expecting exit CODE
run() {
  local want=$1 what=$2; shift 2
  "$vk" validate "$@" > out 2> err; local rc=$?
  [ $rc -eq "$want" ] || no "$what: exit $rc, expected $want ($(head -c 400 err))"
}
# a JSON value from out by a Python expression on j
js() { python3 -c "import json,sys; j=json.load(open('out')); print($1)"; }

# ---- a passing run: JUnit valid, counts per file x stream x device + bind pose
run 0 "two good files" a.dff b.nif --instances 3 --junit pass.xml --report rep_pass --tolerance-scale 1.5 --nmse 2e-9 \
  --validation
xmllint --noout --schema "$xsd" pass.xml 2> xerr || no "pass.xml against the JUnit schema: $(cat xerr)"
ncase=$(xmllint --xpath 'count(//testcase)' pass.xml)
[ "$ncase" = 7 ] || no "pass.xml: $ncase test cases, expected 7 (2 files x positions, normals, bind pose; the layer)"
[ "$(xmllint --xpath 'string(/testsuites/@tests)' pass.xml)" = 7 ] || no "pass.xml: testsuites tests= is not 7"
[ "$(xmllint --xpath 'count(//testcase[@name="validation layer"])' pass.xml)" = 1 ] || no "pass.xml: no validation layer case"
[ "$(xmllint --xpath 'count(//failure)' pass.xml)" = 0 ] || no "pass.xml has failures"
[ "$(xmllint --xpath 'string(//property[@name="tolerance_scale"]/@value)' pass.xml)" = 1.5 ] || no "pass.xml: tolerance_scale property"
[ "$(xmllint --xpath 'string(//property[@name="nmse"]/@value)' pass.xml)" = 2e-09 ] || no "pass.xml: nmse property"
grep -q "tolerance scale 1.5, NMSE bound 2e-09" pass.xml || no "pass.xml: the tolerances are not in the messages"
# class names as CI servers split them (at dots): validate.DEVICE.FILE, no dot inside a part
# (llvmpipe's "LLVM 15.0.6" and the files' extensions are written with '_'); every case timed
dots='string-length(@classname) - string-length(translate(@classname, ".", ""))'
[ "$(xmllint --xpath "count(//testcase[@name='positions' and $dots != 2])" pass.xml)" = 0 ] ||
  no "pass.xml: a file's class name has a dot inside a part: $(xmllint --xpath 'string(//testcase/@classname)' pass.xml)"
[ "$(xmllint --xpath "count(//testcase[@name='validation layer' and $dots != 1])" pass.xml)" = 0 ] ||
  no "pass.xml: the device's class name has a dot inside a part"
[ "$(xmllint --xpath 'count(//testcase[@classname=concat("validate.", translate(/testsuites/testsuite/properties/property[@name="device"]/@value, ".", "_"), ".a_dff")])' pass.xml)" = 3 ] ||
  no "pass.xml: a.dff's cases are not of class validate.DEVICE.a_dff"
[ "$(xmllint --xpath 'count(//testcase[not(@time)])' pass.xml)" = 0 ] || no "pass.xml: a test case without a time"
[ "$(xmllint --xpath 'sum(//testcase/@time) > 0' pass.xml)" = true ] || no "pass.xml: no time in any test case"
grep -q "1.5 x the derived bounds, NMSE <= 2e-09" out || no "text output: the tolerances are not printed"
grep -q "tolerances loosened" err || no "a loosened run does not say so on stderr"
[ -s rep_pass/index.html ] || no "rep_pass/index.html missing"
grep -q "tolerance scale <b>1.5</b>" rep_pass/index.html || no "index.html: the tolerance scale is not printed"
[ "$(grep -c '<tr class="pass">' rep_pass/index.html)" = 2 ] || no "index.html: expected two passing rows"
for png in rep_pass/heatmap_d0_f0.png rep_pass/heatmap_d0_f1.png; do
  "$check_png" "$png" 480 360 > /dev/null || no "$png: not a drawn 480x360 PNG"
done
run 0 "JSON prints the tolerances" a.dff --instances 2 --json --tolerance-scale 0.5
[ "$(js "j['tolerance_scale'], j['nmse'], j['files'][0]['positions']['tolerance_abs']")" = "0.5 1e-09 1.5e-05" ] ||
  no "JSON: tolerance_scale, nmse or the scaled bound are off: $(js "j['tolerance_scale'], j['nmse']")"

# ---- a fault: a failing case, a red row, and the heat map's vertices are the fault's
"$fault_vertices" a.dff > touched || no "report_fault_vertices failed"
run 3 "--inject-fault matrix" a.dff b.nif --instances 3 --inject-fault matrix --junit fault.xml --report rep_fault --json \
  --validation
xmllint --noout --schema "$xsd" fault.xml 2> xerr || no "fault.xml against the JUnit schema: $(cat xerr)"
failing=$(xmllint --xpath 'string(//testcase[failure]/@name)' fault.xml)
[ "$failing" = positions ] || no "fault.xml: the failing case is '$failing', expected positions"
[ "$(xmllint --xpath 'count(//failure)' fault.xml)" = 1 ] || no "fault.xml: expected one failure"
[ "$(xmllint --xpath 'string(/testsuites/@failures)' fault.xml)" = 1 ] || no "fault.xml: testsuites failures= is not 1"
xmllint --xpath 'string(//testcase[failure]/@classname)' fault.xml | grep -q '\.a_dff$' || no "fault.xml: the failing case is not a.dff's"
[ "$(grep -c '<tr class="fail">' rep_fault/index.html)" = 1 ] || no "index.html: expected one red row"
"$check_png" rep_fault/heatmap_d0_f0.png 480 360 > /dev/null || no "the fault's heat map is not a drawn PNG"
js "'\n'.join(str(v) for v in j['files'][0]['heatmap']['vertices_over'])" > heat
js "'\n'.join(str(v) for v in j['files'][0]['positions']['vertices_over'])" > over
[ -s heat ] || no "the heat map names no vertex over tolerance"
bad=$(sort -u heat over | comm -23 - <(sort -u touched) | head -5)
[ -z "$bad" ] || no "vertices the fault does not touch reported over tolerance: $bad"
[ "$(js "j['files'][0]['heatmap']['vertices_over_count'] > 0 and j['files'][1]['positions']['over'] == 0")" = True ] ||
  no "the fault's file has no vertex over in its heat map, or the other file failed"
[ "$(js "j['files'][0]['positions']['worst_vertex'] in [$(paste -sd, touched)]")" = True ] ||
  no "the worst vertex is not one the fault touches"

# ---- golden: stored on this device, compared again; a fault makes the regression fail and
# name vertices the fault touches; another pose spec or model is never compared
run 0 "--save-golden" a.dff b.nif --instances 2 --frames 2 --save-golden gold
[ -s gold/golden.json ] && [ -s gold/0.raw ] && [ -s gold/1.raw ] || no "the golden is incomplete: $(ls gold)"
python3 - gold/golden.json <<'PY' || no "golden.json lacks what made the results"
import json, sys
g = json.load(open(sys.argv[1]))
assert g["pose_spec"] == "--instances 2 --frames 2" and g["engine"] and g["device"] and g["vkskin_version"]
assert [f["poses"] for f in g["files"]] == [4, 4] and all(len(f["model_hash"]) == 16 for f in g["files"])
PY
[ "$(stat -c %s gold/0.raw)" = $((4 * 1562 * 6 * 4)) ] || no "gold/0.raw is not 4 poses x 1562 vertices x 6 floats"
run 0 "--against the same device" a.dff b.nif --instances 2 --frames 2 --against gold --junit gold.xml
[ "$(xmllint --xpath 'count(//testcase[starts-with(@name, "golden")])' gold.xml)" = 4 ] || no "gold.xml: expected 4 golden cases"
run 3 "--against with a fault" a.dff b.nif --instances 2 --frames 2 --against gold --inject-fault matrix --json
grep -q "regression against gold" err || no "the regression is not reported on stderr"
js "'\n'.join(str(v) for v in j['files'][0]['golden']['moved_vertices'])" > moved
[ -s moved ] || no "the regression names no moved vertex"
bad=$(sort -u moved | comm -23 - <(sort -u touched) | head -5)
[ -z "$bad" ] || no "moved vertices the fault does not touch: $bad"
[ "$(js "j['files'][0]['golden']['moved_count'] == $(wc -l < touched) and j['files'][1]['golden']['pass']")" = True ] ||
  no "the regression did not name every touched vertex ($(wc -l < touched)) or failed the other file"
run 3 "--against with other poses" a.dff --instances 3 --frames 2 --against gold
grep -q "pose options" err || no "another pose spec is not named: $(head -c 300 err)"
run 1 "--against a folder without a golden" a.dff --instances 2 --against rep_pass
grep -q "rep_pass/golden.json" err || no "a missing golden.json is not named: $(head -c 300 err)"
cp -r gold broken
echo '{"files": [' > broken/golden.json
run 1 "--against a golden.json that is not JSON" a.dff --instances 2 --frames 2 --against broken
grep -q "broken/golden.json: not JSON" err || no "a broken golden.json is not named: $(head -c 300 err)"
cp gold/golden.json broken/golden.json
head -c 1000 gold/0.raw > broken/0.raw
run 3 "--against a truncated raw" a.dff b.nif --instances 2 --frames 2 --against broken --junit broken.xml
grep -q "broken/0.raw: not the size" err || no "a truncated raw is not named: $(head -c 300 err)"
[ "$(xmllint --xpath 'count(//testcase[error])' broken.xml)" = 2 ] || no "broken.xml: the truncated raw's golden cases are not errors"
python3 -c "import json; g=json.load(open('gold/golden.json')); g['files'][1]['model_hash']='0'*16; json.dump(g, open('broken/golden.json','w'))"
cp gold/0.raw broken/0.raw
run 3 "--against a golden of another model" a.dff b.nif --instances 2 --frames 2 --against broken
grep -q "files\[1\]: model hash 0000000000000000" err || no "another model's golden is not named: $(head -c 300 err)"
# a key given twice is refused (cJSON would read the first), and a raw holding a NaN is no
# golden: before, it compared as "moved by inf" with an NMSE of 0
cp gold/golden.json broken/golden.json
python3 -c "
import re
t = re.sub(r'(\"pose_spec\":\\s*\"[^\"]*\")', r'\\1, \"pose_spec\": \"--instances 9\"', open('gold/golden.json').read(), 1)
open('broken/golden.json', 'w').write(t)"
run 1 "--against a golden.json with a key given twice" a.dff b.nif --instances 2 --frames 2 --against broken
grep -q 'the key "pose_spec" is given twice' err || no "a key given twice is not named: $(head -c 300 err)"
cp gold/golden.json broken/golden.json
python3 -c "
import struct
b = bytearray(open('gold/0.raw', 'rb').read()); b[400:404] = struct.pack('<f', float('nan'))
open('broken/0.raw', 'wb').write(b)"
run 3 "--against a raw holding a NaN" a.dff b.nif --instances 2 --frames 2 --against broken
grep -q "non-finite value (position of vertex 33 in pose 0)" err || no "a NaN in the golden is not named: $(head -c 300 err)"
grep -q "max abs inf" out && no "a NaN in the golden is compared as moved by inf"
run 2 "--save-golden with --against" a.dff --save-golden g2 --against gold

# the same through the crowd path: clips sampled on the GPU, poses numbered instance x frame
cp "$src/datasets/char_b24_pl8.dff.walk.anm" walk.anm
run 0 "--save-golden of a clip" a.dff --clip walk.anm --instances 5 --frames 3 --save-golden gclip
run 0 "--against of a clip" a.dff --clip walk.anm --instances 5 --frames 3 --against gclip
run 3 "--against of a clip with a fault" a.dff --clip walk.anm --instances 5 --frames 3 --against gclip \
  --inject-fault matrix --json
js "'\n'.join(str(v) for v in j['files'][0]['golden']['moved_vertices'])" > moved
bad=$(sort -u moved | comm -23 - <(sort -u touched) | head -5)
[ -s moved ] && [ -z "$bad" ] || no "a clip's regression names no vertex or one the fault does not touch: $bad"

# ---- every device (--each): one report per device, the exit code the worst
ndev=$("$vk" devices --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
run 0 "--device all --each" a.dff --instances 2 --device all --each --json --junit all.xml
if [ "$ndev" -gt 1 ]; then
  [ "$(js "len(j['devices'])")" -ge 1 ] || no "--device all: no device in the JSON"
else
  [ "$(js "j['device']")" != "" ] || no "--device all with one device: no device named"
fi
[ "$(xmllint --xpath 'count(//testsuite)' all.xml)" -ge 1 ] || no "all.xml: no suite per device"
run 3 "--device all --each with a fault" a.dff --instances 2 --device all --each --inject-fault matrix --junit allf.xml
[ "$(xmllint --xpath 'count(//testsuite[@failures > 0])' allf.xml)" = "$(xmllint --xpath 'count(//testsuite)' allf.xml)" ] ||
  no "--device all with a fault: a device's suite has no failure"

# ---- bounds that would loosen silently are refused; the codes stay as documented
for bad_value in -1 nan inf -inf x 1e999 ""; do
  run 2 "--tolerance-scale '$bad_value'" a.dff --tolerance-scale "$bad_value"
  run 2 "--nmse '$bad_value'" a.dff --nmse "$bad_value"
done
run 2 "--junit without a value" a.dff --junit
run 5 "--junit into a folder that does not exist" a.dff --instances 1 --junit missing/j.xml
[ -s fault.xml ] && [ -s rep_fault/index.html ] || no "a failing run did not write its reports"
# no device at all: exit 4 as documented, and the reports say so as an error case
env VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json \
  "$vk" validate a.dff --junit nodev.xml --report nodev > out 2> err
[ $? -eq 4 ] || no "no Vulkan device: expected exit 4"
xmllint --noout --schema "$xsd" nodev.xml 2> /dev/null || no "nodev.xml against the JUnit schema"
[ "$(xmllint --xpath 'count(//testcase/error)' nodev.xml)" = 1 ] || no "nodev.xml: the missing device is not an error case"
grep -q "could not run" nodev/index.html || no "the page of a run without a device does not say so"

[ $fail -eq 0 ] && echo "cli_report: all checks passed"
exit $fail
