#!/usr/bin/env bash
# examples/validate_batch (a host validating a batch through validate.h alone) against the CLI:
# the library's vks_validate_run on one thread and `vkskin validate --json` on every core, for
# the same models, instances, frames and seed, must give the same JSON report, key for key and
# number for number (times aside); the report says "pass": true for every file; and a run with
# the tolerances scaled down to nothing must fail (exit 3, "pass": false) with the same
# metrics, so the verdict is the numbers'. A sampled run (3 instances of each) matches
# `validate --sample 3` likewise, and one with the readback check on `validate --readback-check on`. The JUnit XML written from the same result
# (vks_validate_write_junit) has a case per file and stream and bind pose
# and the validation layer's, none failing, and the tight run's has failures. Exit 77 when there is no Vulkan device.
set -u
example=$1
vk=$2
data=$3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
models=("$data/char_b24_pl8.dff" "$data/char_b24_pl8.nif" "$data/char_b32_rigid.p3d")
"$example" "$tmp/lib.json" "${models[@]}" --instances 24 --frames 2 --seed 5 --junit "$tmp/lib.xml" > "$tmp/lib.txt" 2> "$tmp/lib.err"
rc=$?
cat "$tmp/lib.txt" "$tmp/lib.err"
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || { echo "FAIL: validate_batch exited $rc"; fail=1; }
# its text (vks_validate_write_text) is what `vkskin validate` prints: a line per model and stream, the verdict
grep -q '^tolerances on .*: 1 x the derived bounds' "$tmp/lib.txt" && [ "$(grep -c '^  positions .* PASS$' "$tmp/lib.txt")" = 3 ] &&
    grep -q '^PASS: 3 file(s), ' "$tmp/lib.txt" || { echo "FAIL: validate_batch's text is not validate's report"; fail=1; }
"$vk" validate "${models[@]}" --instances 24 --frames 2 --seed 5 --json --quiet > "$tmp/cli.json" ||
    { echo "FAIL: vkskin validate exited $?"; fail=1; }
"$example" "$tmp/tight.json" "${models[@]}" --instances 24 --frames 2 --seed 5 --tolerance-scale 1e-9 \
    --junit "$tmp/tight.xml" > /dev/null 2>&1
rc=$?
[ $rc = 3 ] || { echo "FAIL: with the tolerances scaled by 1e-9 validate_batch exited $rc, not 3"; fail=1; }
# a sampled run (options.sample_count): the same report as validate --sample
"$example" "$tmp/libs.json" "${models[@]}" --instances 24 --frames 2 --seed 5 --sample 3 > /dev/null 2>&1 ||
    { echo "FAIL: validate_batch --sample exited $?"; fail=1; }
"$vk" validate "${models[@]}" --instances 24 --frames 2 --seed 5 --sample 3 --json --quiet > "$tmp/clis.json" ||
    { echo "FAIL: vkskin validate --sample exited $?"; fail=1; }
# the readback check on (the GPU reduces each chunk, the host recomputes its figures)
"$example" "$tmp/libr.json" "${models[@]}" --instances 24 --frames 2 --seed 5 --readback-check on > /dev/null 2>&1 ||
    { echo "FAIL: validate_batch --readback-check on exited $?"; fail=1; }
"$vk" validate "${models[@]}" --instances 24 --frames 2 --seed 5 --readback-check on --json --quiet > "$tmp/clir.json" ||
    { echo "FAIL: vkskin validate --readback-check on exited $?"; fail=1; }
python3 - "$tmp/lib.json" "$tmp/cli.json" "$tmp/tight.json" "$tmp/lib.xml" "$tmp/tight.xml" "$tmp/libs.json" \
    "$tmp/clis.json" "$tmp/libr.json" "$tmp/clir.json" <<'PY' || fail=1
import json, sys
import xml.etree.ElementTree as ET
lib, cli, tight = (json.load(open(p)) for p in sys.argv[1:4])
junit, junit_tight = (ET.parse(p).getroot() for p in sys.argv[4:6])
libs, clis, libr, clir = (json.load(open(p)) for p in sys.argv[6:10])
ok = True
def say(why):
    global ok
    print("FAIL:", why); ok = False
if lib.get("pass") is not True or not all(f["pass"] for f in lib["files"]):
    say("the library's report does not pass")
if [f["instances"] for f in lib["files"]] != [48, 48, 48]:
    say("instances per file: %s" % [f["instances"] for f in lib["files"]])
timing = {"total_ms", "gpu_pose_ms", "gpu_deform_ms"}
def strip(d):
    return {k: v for k, v in d.items() if k not in timing}
def same(a, b, what):
    for k in sorted(set(a) | set(b)):
        if k not in timing and a.get(k) != b.get(k):
            say("%s: key %s: library %s, CLI %s" % (what, k, json.dumps(a.get(k))[:300], json.dumps(b.get(k))[:300]))
same(lib, cli, "every instance")
same(libs, clis, "--sample 3")
same(libr, clir, "--readback-check on")
if not libr.get("gpu_reduction", {}).get("readback_checked"):
    say("--readback-check on: no checked reduction in %s" % json.dumps(libr.get("gpu_reduction")))
if "sample" not in libs or [len(f["sampled"]) for f in libs["sample"]["files"]] != [3, 3, 3]:
    say("the sampled report's sample: %s" % json.dumps(libs.get("sample"))[:300])
if tight.get("pass") is not False or tight.get("exit_code") != 3:
    say("the tight run's report: pass %s, exit_code %s" % (tight.get("pass"), tight.get("exit_code")))
for a, b in zip(lib["files"], tight["files"]):
    if a["positions"]["max_abs"] != b["positions"]["max_abs"] or b["positions"]["over"] == 0:
        say("%s: the tight run's positions %s" % (b["file"], b["positions"]))
cases = junit.findall(".//testcase")
if len(cases) != 10 or junit.findall(".//failure") or junit.findall(".//error"):
    say("JUnit: %d cases, %d failures" % (len(cases), len(junit.findall(".//failure"))))
if len(junit_tight.findall(".//failure")) < 3:
    say("JUnit of the tight run: %d failures" % len(junit_tight.findall(".//failure")))
print("library report = CLI report (times aside): %s, sampled: %s" % (strip(lib) == strip(cli), strip(libs) == strip(clis)))
sys.exit(0 if ok else 1)
PY
[ $fail = 0 ] && echo "example_validate_batch: PASS"
exit $fail
