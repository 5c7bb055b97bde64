#!/usr/bin/env bash
# vkskin bake holds a job's frames in memory, so a job over --max-memory-mb is refused before
# it is deformed (docs/safety.md): a job of 1802 frames of a 1562-vertex character (about
# 65 MB of positions and normals) under a 32 MB budget fails with exit 5, naming the manifest,
# the job and the budget, writes nothing of that job and never takes its memory (its peak
# resident size stays well under the job's frames), while the manifest's other job is baked.
# Under a budget of 128 MB the same job bakes, and its peak stays within the budget.
set -u
vk=$1
rss=$2
src=${VKSKIN_SOURCE_DIR:?}
d=$src/datasets
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"
cat > m.json <<JSON
{"jobs": [{"name": "big", "model": "$d/char_b24_pl8.dff",
           "clips": ["$d/char_b24_pl8.dff.walk.anm", "$d/char_b24_pl8.dff.wave.anm"], "fps": 600, "outputs": ["raw"]},
          {"name": "small", "model": "$d/char_b24_pl8.dff", "clips": ["$d/char_b24_pl8.dff.walk.anm"],
           "range": [0, 0.5], "outputs": ["raw"]}]}
JSON

# 1. over the budget: refused, the other job baked
kb=$("$rss" "$vk" bake m.json --cpu --out o --max-memory-mb 32 2> err.txt); rc=$?
check "a job over the budget fails the run with exit 5 (got $rc)" "[ $rc -eq 5 ]"
check "the message names the manifest, the job and the budget" \
    "grep -q 'm.json: jobs\[0\]: baking 1802 frames of 1562 vertices takes about [0-9]* MB of memory, over the budget of 32 MB (--max-memory-mb N' err.txt"
check "nothing of the refused job is written" "[ -z \"\$(ls o | grep '^big')\" ]"
check "the other job is baked" "[ -s o/small.raw ] && [ -s o/small.raw.json ]"
echo "peak resident size of the refusing run: ${kb:-?} KiB"
check "the refused job's frames were never made (peak ${kb:-?} KiB)" "[ \"${kb:-999999}\" -lt 45000 ]"

# 2. within the budget: baked, and the peak stays within it
kb=$("$rss" "$vk" bake m.json --cpu --out o --max-memory-mb 128 2> err2.txt); rc=$?
check "the job bakes under a budget of 128 MB (exit $rc)" "[ $rc -eq 0 ]"
check "its raw cache is all its frames" "[ \$(stat -c %s o/big.raw) -eq $((1802 * 1562 * 24)) ]"
echo "peak resident size of the bake: ${kb:-?} KiB"
check "the bake's peak (${kb:-?} KiB) is within the budget" "[ \"${kb:-999999}\" -lt 131072 ]"

# 3. usage
"$vk" bake m.json --cpu --out o --max-memory-mb 0 2> /dev/null; rc=$?
check "--max-memory-mb 0 is a usage error (got $rc)" "[ $rc -eq 2 ]"

[ $fail -eq 0 ] && echo "bake memory budget: ok"
exit $fail
