#!/usr/bin/env bash
# Every thread vkskin starts has a fallback for when none can be had (issue 25): the work runs
# on the calling thread, or on the first context alone. VKSKIN_TEST_THREAD_FAIL=N refuses the
# Nth thread of the process and every later one; with N = 1 (none at all) and with later N
# (some started, the rest refused, in every mix the first creations give), each command must
# give the bytes of the normal run: validate's JSON metrics, deform's raw, PC2 and CSV (CPU
# writer, GPU converter, split contexts, clips), the sha256 of every output of a small bake
# manifest. A refusal is said on stderr, one line per fallback, naming what ran instead.
# Without a Vulkan device only the CPU engines are tried. The sanitizer phase
# (VKSKIN_TEST_SANITIZER_SUBSET=1, set by tools/scripts/test.sh --sanitize) refuses from N = 1
# and 3 only (none at all, and some started): every command and fallback still runs under
# ASan and UBSan, and the plain build tries every N.
# Usage: cli_thread_fallback.sh VKSKIN
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$vk" generate --vertices 3000 --out hero.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
"$vk" generate --vertices 800 --out small.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
gpu=1
"$vk" deform hero.dff --gpu --instances 1 --out probe.raw --quiet > /dev/null 2>&1 || gpu=0
[ $gpu -eq 1 ] || echo "no Vulkan device: the GPU runs are skipped"

refusals=(1 2 3 5)
[ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ] && refusals=(1 3)
warned() { # FILE TEXT WHAT: the fallback is said, on one line
    local n
    n=$(grep -F "vkskin: warning: no thread could be started" "$1" | grep -c -F -e "$2")
    [ "$n" -eq 1 ] || { echo "FAIL: $3: '$2' said $n times with threads refused, expected once"; fail=1; }
}
# the split's own fields go (a run fallen back to one context has none): timings, chunks, devices,
# what each context took
metrics() { sed '/"context_shares"/,/}\]/d' "$1" | grep -v -e '_ms"' -e '"chunks"' -e '"device' -e '"queue_' -e '"context_instances"'; }

# ---- validate: the reference's pool and sums, the split contexts, the crowd split ----
validate_same() { # what, then the arguments; the rest: fallbacks said with every thread refused
    local what=$1; shift
    local -a args=("$@")
    "$vk" validate "${args[@]}" --json --quiet > base.json 2> base.err; rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: $what: exit $rc ($(head -c 300 base.err))"; fail=1; return; }
    grep -q "no thread could be started" base.err && { echo "FAIL: $what: a refusal said on a normal run"; fail=1; }
    metrics base.json > base.m
    for n in "${refusals[@]}"; do
        VKSKIN_TEST_THREAD_FAIL=$n "$vk" validate "${args[@]}" --json --quiet > r$n.json 2> r$n.err; rc=$?
        [ $rc -eq 0 ] || { echo "FAIL: $what, threads refused from $n: exit $rc ($(head -c 300 r$n.err))"; fail=1; continue; }
        metrics r$n.json > r$n.m
        cmp -s base.m r$n.m || { echo "FAIL: $what, threads refused from $n: other metrics"; diff base.m r$n.m | head -5; fail=1; }
        grep -q '"nmse":' r$n.m || { echo "FAIL: $what: no metrics"; fail=1; }
    done
}
if [ $gpu -eq 1 ]; then
    validate_same "validate --device 0,0" hero.dff small.dff --instances 37 --seed 5 --frames 2 --max-chunk-mb 1 \
        --threads 3 --device 0,0
    warned r1.err "validate's reference: fewer threads (none: every share on the calling thread)" "validate"
    warned r1.err "validate --device: a context's poses on the calling thread" "validate"
    validate_same "validate --clip --device 0,0" hero.dff --clip hero.dff.wave.anm --instances 29 --stagger \
        --frames 3 --max-chunk-mb 1 --threads 3 --device 0,0
    warned r1.err "--device (clips, crowds): every instance on the first device" "validate --clip"
fi

# ---- deform: the CPU writer and fast engine, the GPU's converter, split contexts, clips ----
deform_same() { # what, then the arguments
    local what=$1; shift
    "$vk" deform "$@" --quiet --out base.out > /dev/null 2> base.err; rc=$?
    [ $rc -eq 0 ] && [ -s base.out ] || { echo "FAIL: $what: exit $rc ($(head -c 300 base.err))"; fail=1; return; }
    for n in "${refusals[@]}"; do
        VKSKIN_TEST_THREAD_FAIL=$n "$vk" deform "$@" --quiet --out r$n.out > /dev/null 2> r$n.err; rc=$?
        [ $rc -eq 0 ] || { echo "FAIL: $what, threads refused from $n: exit $rc ($(head -c 300 r$n.err))"; fail=1; continue; }
        cmp -s base.out r$n.out || { echo "FAIL: $what, threads refused from $n: other bytes"; fail=1; }
    done
}
chunks=(--instances 23 --frames 3 --seed 4 --max-chunk-mb 1)
deform_same "deform --cpu-fast raw" hero.dff --cpu-fast "${chunks[@]}" --format raw
warned r1.err "deform: each chunk written on the engine's thread" "deform --cpu-fast"
warned r1.err "the fast CPU engine: a thread's share on the calling thread" "deform --cpu-fast"
warned r1.err "an output written on the thread that fills it" "deform --cpu-fast"
deform_same "deform --cpu-fast pc2" hero.dff --cpu-fast "${chunks[@]}" --format pc2
if [ $gpu -eq 1 ]; then
    deform_same "deform --gpu csv" hero.dff --gpu "${chunks[@]}" --format csv
    warned r1.err "deform --gpu: poses converted and written on the thread that feeds the GPU" "deform --gpu csv"
    deform_same "deform --gpu --device 0,0 raw" hero.dff --gpu "${chunks[@]}" --format raw --device 0,0
    warned r1.err "deform --device: every pose on the first device" "deform --device 0,0"
    deform_same "deform --gpu --device 0,0 pc2" hero.dff --gpu "${chunks[@]}" --format pc2 --device 0,0
    deform_same "deform --gpu --clip --device 0,0 pc2" hero.dff --gpu --clip hero.dff.wave.anm --instances 29 \
        --stagger --frames 3 --max-chunk-mb 1 --format pc2 --device 0,0
    warned r1.err "--device (clips, crowds): every instance on the first device" "deform --clip"
fi

# ---- bake: the encoding pool, the jobs in flight (one device each), the output writer ----
cat > bake.json <<JSON
{"defaults": {"fps": 10, "outputs": ["vat-png16", "atlas", "pc2", "raw", "gltf-morph"]},
 "jobs": [{"name": "hero", "model": "hero.dff", "clips": ["hero.dff.walk.anm", "hero.dff.wave.anm"]},
          {"name": "small", "model": "small.dff", "clips": ["small.dff.walk.anm"]},
          {"name": "small_wave", "model": "small.dff", "clips": ["small.dff.wave.anm"], "outputs": ["vat-png16", "pc2"]}]}
JSON
sums() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum); }
bake_same() { # what, then the arguments
    local what=$1; shift
    rm -rf base; "$vk" bake bake.json "$@" --threads 3 --jobs 2 --out base --quiet 2> base.err; rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: $what: exit $rc ($(head -c 300 base.err))"; fail=1; return; }
    sums base > base.sum
    [ "$(wc -l < base.sum)" -ge 10 ] || { echo "FAIL: $what: $(wc -l < base.sum) outputs"; fail=1; }
    for n in "${refusals[@]}"; do
        rm -rf r$n; VKSKIN_TEST_THREAD_FAIL=$n "$vk" bake bake.json "$@" --threads 3 --jobs 2 --out r$n --quiet 2> r$n.err; rc=$?
        [ $rc -eq 0 ] || { echo "FAIL: $what, threads refused from $n: exit $rc ($(head -c 300 r$n.err))"; fail=1; continue; }
        sums r$n > r$n.sum
        cmp -s base.sum r$n.sum || { echo "FAIL: $what, threads refused from $n: other outputs"; diff base.sum r$n.sum | head -4; fail=1; }
    done
}
bake_same "bake --cpu-fast" --cpu-fast
warned r1.err "bake's encoding pool: fewer threads" "bake --cpu-fast"
warned r1.err "bake --jobs: fewer jobs in flight" "bake --cpu-fast"
warned r1.err "the fast CPU engine: a thread's share on the calling thread" "bake --cpu-fast"
if [ $gpu -eq 1 ]; then
    bake_same "bake --device 0,0" --device 0,0
    warned r1.err "bake --jobs: fewer jobs in flight" "bake --device 0,0"
fi
[ $fail -eq 0 ] && echo "thread fallbacks: ok"
exit $fail
