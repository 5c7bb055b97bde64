#!/bin/sh
# vkskin tune with the validation layer on (any message fails): the planted slow candidate
# (workgroups of one invocation, runs of one instance, the serial pose pass) loses, the winner is stored in the cache
# under $XDG_CACHE_HOME and bench then runs it and says so (source "cache"); --no-store stores
# nothing; --json lists every candidate; a candidate the device cannot run and --launch-shape
# are usage errors (exit 2). Exit 77 without a Vulkan device.
V="$1"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
# Mesa's shader cache stays where it was: only vkskin's own cache is private here (a cold
# driver cache would compile every candidate's pipelines again, most of this test's time).
export MESA_SHADER_CACHE_DIR="${MESA_SHADER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mesa_shader_cache}"
export XDG_CACHE_HOME="$T/cache"
small="--vertices 600 --bones 24 --instances 16 --repeats 1"
# the slow one names pose=serial: over a GPU's table row (pose=nodes) pose_wg=1 is refused
# (test_tuning checks every shape these scripts plant over the H100's row and lavapipe's)
"$V" tune $small --candidate wg=1,pose_wg=1,run=1,palette=off,pose=serial --candidate wg=64,run=32,palette=off --validation \
    >"$T/t.out" 2>"$T/t.err"
rc=$?
if [ $rc -eq 4 ]; then echo "skipped: no Vulkan device"; exit 77; fi
fail=0
[ $rc -eq 0 ] || { echo "tune: exit $rc"; cat "$T/t.err"; exit 1; }
if grep -q "validation" "$T/t.err"; then echo "validation-layer messages:"; cat "$T/t.err"; fail=1; fi
[ "$(grep -c 'M vertex-instances/s' "$T/t.out")" -eq 2 ] || { echo "not two candidates:"; cat "$T/t.out"; fail=1; }
grep -q '^chosen: wg=64,pose_wg=64,run=32,' "$T/t.out" || { echo "the slow candidate won:"; cat "$T/t.out"; fail=1; }
grep -q "^stored in $T/cache/vkskin/" "$T/t.out" || { echo "not stored in the cache:"; cat "$T/t.out"; fail=1; }
"$V" bench --vertices 600 --bones 24 --instances 4 --repeats 1 --json >"$T/b.json" 2>"$T/b.err" ||
    { echo "bench failed"; cat "$T/b.err"; fail=1; }
grep -q '"source":[[:space:]]*"cache"' "$T/b.json" && grep -q '"shape":[[:space:]]*"wg=64,pose_wg=64,run=32,' "$T/b.json" ||
    { echo "bench did not start with the stored shape:"; grep -A8 launch_shape "$T/b.json"; fail=1; }
# --no-store: the JSON lists the candidates and nothing is written
rm -rf "$T/cache"
"$V" tune $small --candidate wg=64 --candidate wg=128 --no-store --json >"$T/n.json" 2>"$T/n.err" ||
    { echo "tune --no-store failed"; cat "$T/n.err"; fail=1; }
[ "$(grep -c '"shape":' "$T/n.json")" -eq 2 ] && grep -q '"stored":[[:space:]]*false' "$T/n.json" ||
    { echo "tune --no-store --json:"; cat "$T/n.json"; fail=1; }
[ ! -e "$T/cache/vkskin" ] || [ -z "$(ls "$T/cache/vkskin" | grep launch-shape)" ] ||
    { echo "--no-store stored a shape"; fail=1; }
"$V" tune $small --candidate wg=64 --candidate wg=9 >"$T/x.out" 2>"$T/x.err"
rc=$?
[ $rc -eq 2 ] && grep -q "candidate 1: launch shape: 'wg=9'" "$T/x.err" || { echo "bad candidate: exit $rc"; cat "$T/x.err"; fail=1; }
"$V" tune $small --launch-shape wg=64 >"$T/y.out" 2>"$T/y.err"
rc=$?
[ $rc -eq 2 ] || { echo "tune --launch-shape: exit $rc"; fail=1; }
exit $fail
