#!/usr/bin/env bash
# validate --sample: the reference compares a seeded sample of the instances and the GPU's
# reduction of every chunk is held to the host's bound of all of them.
# - the sample is deterministic: the same seed names the same instances in the JSON, another
#   seed others; N and P% give the counts asked; the default (no --sample) compares every
#   instance and says nothing of a sample;
# - one instance posed wrong on the GPU (--inject-fault instance:K, NaN; scale:K, x4) that the
#   sample leaves out fails the run with exit 3 through the reduction alone (the sampled
#   instances' comparison passes), folded into the deform pass or in a pass of its own
#   (VKSKIN_TEST_SEPARATE_REDUCE), and the full comparison fails on it as well;
# - text, JSON and JUnit say what was sampled, and the JUnit's "gpu reduction" case fails with
#   the fault; a clean run of glTF morph targets stays inside the bound (the targets' deltas
#   are in it); options that cannot go with a sample are refused (exit 2).
# P3D: its skin space is the identity, so a scaled root is not undone by it. Exit 77 without a
# Vulkan device.
# Usage: cli_validate_sample.sh VKSKIN
set -u
vk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

"$vk" generate --vertices 1500 --bones 24 --out a.p3d --no-clips > /dev/null || { echo "FAIL: generate a.p3d"; exit 1; }
# 300 instances of ~36 KB in chunks of 1 MiB: six chunks, some with no sampled instance
base=(validate a.p3d --instances 300 --seed 3 --quiet --max-chunk-mb 1)

"$vk" "${base[@]}" --sample 6 --sample-seed 7 --json > s7a.json 2> err; rc=$?
if [ $rc -eq 4 ]; then echo "skip: no Vulkan device ($(head -c 300 err))"; exit 77; fi
[ $rc -eq 0 ] || { echo "FAIL: --sample 6: exit $rc ($(head -c 600 err))"; exit 1; }
"$vk" "${base[@]}" --sample 6 --sample-seed 7 --json --threads 1 > s7b.json 2> /dev/null || { echo "FAIL: rerun"; fail=1; }
"$vk" "${base[@]}" --sample 6 --sample-seed 8 --json > s8.json 2> /dev/null || { echo "FAIL: seed 8"; fail=1; }
"$vk" "${base[@]}" --sample 5% --json > p5.json 2> /dev/null || { echo "FAIL: --sample 5%"; fail=1; }
"$vk" "${base[@]}" --json > all.json 2> /dev/null || { echo "FAIL: the full comparison"; fail=1; }
python3 - <<'PY' || fail=1
import json
load = lambda n: json.load(open(n))
a, b, c, p, full = load("s7a.json"), load("s7b.json"), load("s8.json"), load("p5.json"), load("all.json")
bad = []
sa = a["sample"]["files"][0]["sampled"]
if len(sa) != 6 or sorted(set(sa)) != sa or not all(0 <= i < 300 for i in sa): bad.append("sample %s" % sa)
if a["sample"]["seed"] != 7 or a["sample"]["count"] != 6: bad.append("stated %s" % a["sample"])
if b["sample"]["files"][0]["sampled"] != sa: bad.append("seed 7 again chose %s" % b["sample"]["files"][0]["sampled"])
if c["sample"]["files"][0]["sampled"] == sa: bad.append("seed 8 chose the same")
if len(p["sample"]["files"][0]["sampled"]) != 15 or p["sample"]["percent"] != 5: bad.append("5%% of 300: %s" % p["sample"])
if p["sample"]["seed"] != 41: bad.append("default seed %s" % p["sample"]["seed"])
nv = a["files"][0]["vertices"]
if a["files"][0]["positions"]["compared"] != 6 * nv * 3:
    bad.append("compared %s" % a["files"][0]["positions"]["compared"])
if a["files"][0]["positions"] != b["files"][0]["positions"]: bad.append("thread count changed the metrics")
if a["sample"]["chunks_checked"] != a["chunks"] or a["chunks"] < 5 or a["sample"]["reduction_pass"] is not True:
    bad.append("reduction %s of %s chunks" % (a["sample"]["chunks_checked"], a["chunks"]))
if "sample" in full or full["files"][0]["positions"]["compared"] != 300 * nv * 3: bad.append("the default is not full")
if bad:
    print("FAIL: " + "; ".join(bad)); raise SystemExit(1)
open("unsampled", "w").write(str(next(i for i in range(300) if i not in sa and i > 20)))
print("sample of seed 7: %s; seed 8: %s" % (sa, c["sample"]["files"][0]["sampled"]))
PY
k=$(cat unsampled 2> /dev/null || echo 100)

# the fault in an instance the sample leaves out: the reduction catches it
for fault in instance scale; do
  "$vk" "${base[@]}" --sample 6 --sample-seed 7 --inject-fault "$fault:$k" --json --junit "$fault.xml" > f.json 2> err; rc=$?
  [ $rc -eq 3 ] || { echo "FAIL: --inject-fault $fault:$k with --sample: exit $rc, not 3 ($(head -c 600 err))"; fail=1; }
  want='NaN or infinite'; [ $fault = scale ] && want='outside the bound'
  grep -q "a.p3d: the GPU's reduction of chunk [0-9]* (poses [0-9]*\.\.[0-9]*): .*$want" err ||
    { echo "FAIL: $fault: no line naming the chunk and '$want': $(head -c 600 err)"; fail=1; }
  python3 - f.json "$fault" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
f, s = d["files"][0], d["sample"]
bad = []
if f["positions"]["pass"] is not True: bad.append("the sampled instances failed too: the test proves nothing")
if s["reduction_pass"] is not False or s["chunks_outside_bound"] != 1: bad.append("reduction %s" % s)
if d["pass"] is not False or d["exit_code"] != 3: bad.append("verdict %s %s" % (d["pass"], d["exit_code"]))
if bad: print("FAIL: %s: %s" % (sys.argv[2], "; ".join(bad))); sys.exit(1)
PY
  grep -q '<property name="sample" value="6 of 300 instances compared with the reference (--sample 6, seed 7)' "$fault.xml" ||
    { echo "FAIL: $fault: no sample property in the JUnit"; fail=1; }
  grep -A1 'name="gpu reduction"' "$fault.xml" | grep -q '<failure' ||
    { echo "FAIL: $fault: the JUnit's gpu reduction case does not fail"; fail=1; }
  "$vk" "${base[@]}" --inject-fault "$fault:$k" > /dev/null 2>&1; rc=$?
  [ $rc -eq 3 ] || { echo "FAIL: --inject-fault $fault:$k, every instance compared: exit $rc, not 3"; fail=1; }
done

# the same fault through the reduction's pass of its own (the streams' form; a batch folds it
# into the deform pass): caught the same way
VKSKIN_TEST_SEPARATE_REDUCE=1 "$vk" "${base[@]}" --sample 6 --sample-seed 7 --inject-fault "instance:$k" > /dev/null 2> err
rc=$?
[ $rc -eq 3 ] && grep -q "NaN or infinite" err ||
  { echo "FAIL: instance:$k with the reduction's own pass: exit $rc ($(head -c 600 err))"; fail=1; }

# text and a passing JUnit say it too
"$vk" "${base[@]}" --sample 6 --sample-seed 7 --junit ok.xml > out.txt 2> err || { echo "FAIL: text run"; fail=1; }
grep -q '^sampled: 6 of 300 instances compared with the reference (--sample 6, seed 7)' out.txt ||
  { echo "FAIL: the text does not say what was sampled: $(head -c 600 out.txt)"; fail=1; }
grep -q "gpu reduction: [0-9]* chunk(s): no non-finite component, positions inside the host's bound  PASS" out.txt ||
  { echo "FAIL: the text's reduction line: $(head -c 600 out.txt)"; fail=1; }
grep -A1 'name="gpu reduction"' ok.xml | grep -q '<failure' && { echo "FAIL: the passing run's JUnit case fails"; fail=1; }
grep -q 'name="gpu reduction"' ok.xml || { echo "FAIL: no gpu reduction case"; fail=1; }

# morph targets move vertices before skinning: the bound takes each bone's target deltas at the
# instance's weights, or glTF tubes whose targets reach past the bind boxes would fail a clean run
for case in mesh node sparse; do
  python3 "$here/gltf_morph_golden.py" make $case $case.gltf || { echo "FAIL: make $case.gltf"; fail=1; continue; }
  "$vk" validate $case.gltf --instances 40 --sample 3 --quiet > out.txt 2> err ||
    { echo "FAIL: --sample on morph targets ($case): $(grep -h 'reduction' out.txt err | head -c 600)"; fail=1; }
done

# what cannot go with a sample, and values that are not one
for bad in "--sample 0" "--sample 101%" "--sample x" "--sample 2.5" "--sample-seed -1" "--sample 5 --save-golden g"; do
  # shellcheck disable=SC2086
  "$vk" "${base[@]}" $bad > /dev/null 2>&1; rc=$?
  [ $rc -eq 2 ] || { echo "FAIL: $bad: exit $rc, not 2"; fail=1; }
done

[ $fail -eq 0 ] && echo "validate --sample: deterministic, stated, and the reduction catches an unsampled instance"
exit $fail
