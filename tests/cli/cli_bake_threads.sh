#!/usr/bin/env bash
# vkskin bake encodes and writes on a pool of threads (--threads) while the next group is
# deformed, and splits its jobs across devices (--device N,M: one context each). Whatever the
# threads, the jobs in flight and the devices, every file is the same bytes as the
# single-threaded path (--threads 1 --jobs 1: one output after the other, as one thread wrote
# them before the pool): a race between the tasks of a job, or between jobs, shows as a file
# that differs. The manifest is the whole library of generated characters with every output
# kind, on the fast CPU engine and, where there is a device, on the GPU under the validation
# layer, with device 0 asked for twice (two contexts on one device: how lavapipe tests the
# split). Exit 77 when this vkskin was built without OpenEXR. The sanitizer phase
# (VKSKIN_TEST_SANITIZER_SUBSET=1, set by tools/scripts/test.sh --sanitize) bakes 4 of the 16
# jobs, one of each format and each a different character (bake_manifest_subset.py): still
# more jobs than --jobs 3 holds in flight and every reader and output kind under ASan and UBSan,
# at a quarter of the time; the plain build bakes the whole library.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
manifest=$src/tools/slurm/all_characters.json
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=16
if [ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ]; then
    # char_b24_pl8.dff, char_b32_rigid.nif, char_b48_pl20_strips.cmdl, char_b64_i4.p3d
    python3 "$(dirname "$0")/bake_manifest_subset.py" "$manifest" "$tmp/subset.json" 0 5 10 15 ||
        { echo "FAIL: the manifest's subset"; exit 1; }
    manifest=$tmp/subset.json jobs=4
fi
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
same_files() { # same names, same bytes (sidecars and textures; no temporaries)
    [ "$(cd "$1" && ls | sort)" = "$(cd "$2" && ls | sort)" ] || { echo "other files in $2"; return 1; }
    for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || { echo "differs: $(basename "$f")"; return 1; }; done
}
cd "$tmp"
if "$vk" bake "$manifest" --cpu-fast --out probe --threads 1 2>&1 | grep -q "without OpenEXR"; then
    echo "skipped: vkskin was built without OpenEXR (install libopenexr-dev)"
    exit 77
fi

# 1. the fast CPU engine: one thread against several, with several jobs in flight
"$vk" bake "$manifest" --cpu-fast --threads 1 --jobs 1 --out one --report one.json 2> one.log; rc=$?
check "bake --threads 1 exits 0" "[ $rc -eq 0 ]"
check "$jobs jobs baked" "grep -q '$jobs baked, 0 up to date, 0 failed' one.log"
"$vk" bake "$manifest" --cpu-fast --threads 4 --jobs 3 --out many --report many.json 2> many.log; rc=$?
check "bake --threads 4 --jobs 3 exits 0" "[ $rc -eq 0 ]"
check "--threads 4 --jobs 3: the same bytes as --threads 1" "same_files one many"
check "the report lists every file in the same order" \
    "[ \"\$(grep '\"path\"' one.json)\" = \"\$(grep '\"path\"' many.json)\" ]"
check "no temporaries left" "[ -z \"\$(find many -name '*.tmp.*')\" ]"

# 2. usage
"$vk" bake "$manifest" --threads 0 --out x 2> /dev/null; rc=$?
check "--threads 0 is a usage error (got $rc)" "[ $rc -eq 2 ]"

# 3. the GPU: one device against two contexts, under the validation layer
if "$vk" devices > /dev/null 2>&1; then
    "$vk" bake "$manifest" --validation --threads 1 --out gpu1 2> gpu1.log; rc=$?
    check "GPU bake --threads 1 exits 0 with no validation message (exit $rc)" "[ $rc -eq 0 ]"
    "$vk" bake "$manifest" --validation --threads 3 --jobs 2 --out gpu3 --report gpu3.json 2> gpu3.log; rc=$?
    check "GPU bake --threads 3 --jobs 2 exits 0 (exit $rc)" "[ $rc -eq 0 ]"
    # the report's stages: the device opened (while jobs were read), then the groups, then the
    # last write; every job says how long its read took
    check "the report's stages in their order, each job's read_seconds" "python3 - gpu3.json << 'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
s = r['stages']
order = [s['devices_open'], s['first_deform'], s['last_deform_end'], s['written']]
ok = all(0 <= a <= b for a, b in zip(order, order[1:])) and s['written'] == r['seconds']
ok = ok and all(j['read_seconds'] >= 0 for j in r['jobs']) and len(r['jobs']) == $jobs
sys.exit(0 if ok else print(s) or 1)
EOF"
    check "GPU --threads 3 --jobs 2: the same bytes as --threads 1" "same_files gpu1 gpu3"
    "$vk" bake "$manifest" --validation --device 0,0 --out gpu00 2> gpu00.log; rc=$?
    check "GPU bake --device 0,0 exits 0 with no validation message (exit $rc)" "[ $rc -eq 0 ]"
    check "--device 0,0: the same bytes as one device" "same_files gpu1 gpu00"
    "$vk" bake "$manifest" --device 0,99 --out bad 2> bad.log; rc=$?
    check "a device of the list that does not exist: exit 4 (got $rc)" "[ $rc -eq 4 ]"
else
    echo "no Vulkan device: the GPU part is skipped"
fi

# 4. no device: the GPU engine reads its first jobs while the device opens, and writes nothing
#    when it cannot be opened; a folder of earlier outputs keeps them as they were (--force)
"$vk" bake "$manifest" --cpu-fast --threads 1 --out kept 2> /dev/null
cp -r kept kept.before
env VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json \
    "$vk" bake "$manifest" --out none 2> none.log; rc=$?
check "no Vulkan device: exit 4 (got $rc)" "[ $rc -eq 4 ] && grep -q 'no Vulkan device' none.log"
check "no Vulkan device: nothing written" "[ -z \"\$(ls -A none 2> /dev/null)\" ]"
env VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json \
    "$vk" bake "$manifest" --force --out kept 2> /dev/null; rc=$?
check "no Vulkan device over earlier outputs: exit 4 (got $rc)" "[ $rc -eq 4 ]"
check "no Vulkan device: the earlier outputs as they were" "same_files kept.before kept"

[ $fail -eq 0 ] && echo "bake threads and devices: ok"
exit $fail
