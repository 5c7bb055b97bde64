#!/usr/bin/env bash
# vkskin validate --threads N (issue 25): the CPU reference and the comparison run on N threads,
# and the report must not depend on N, bit for bit: the JSON metrics (max abs / rel, NMSE,
# over, worst vertex and instance, scales) of --threads 1, 2, 3 and 7 are byte-identical, on
# the batch path (poses from a seed) and on the crowd path (clips sampled on the GPU, with
# roots from a crowd file), over several chunks. A split of the NMSE sums per thread would
# change their last digits. Exit 77 without a Vulkan device.
# Usage: cli_validate_threads.sh VKSKIN
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$vk" generate --vertices 3000 --out hero.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
"$vk" validate hero.dff --instances 1 --quiet > /dev/null 2> probe.err; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi

# the metrics of a run: its JSON without the timings and the chunk count
metrics() { grep -v -e '_ms"' -e '"chunks"' "$1"; }
same_for_every_n() { # what, then the validate arguments
    local what=$1; shift
    for n in 1 2 3 7; do
        "$vk" validate "$@" --json --quiet --threads $n > t$n.json 2> t$n.err; rc=$?
        if [ $rc -ne 0 ]; then echo "FAIL: $what --threads $n: exit $rc ($(head -c 400 t$n.err))"; fail=1; return; fi
        metrics t$n.json > m$n.json
    done
    grep -q '"nmse":' m1.json || { echo "FAIL: $what: no metrics in the JSON"; fail=1; }
    for n in 2 3 7; do
        cmp -s m1.json m$n.json || { echo "FAIL: $what: --threads $n differs from --threads 1:"; diff m1.json m$n.json | head; fail=1; }
    done
}
same_for_every_n "batch" hero.dff --instances 37 --seed 5 --frames 2 --max-chunk-mb 1
same_for_every_n "clips" hero.dff --clip hero.dff.wave.anm --instances 29 --stagger --frames 3 --max-chunk-mb 1
cat > crowd.json <<JSON
{"instances": [
 {"model": "hero.dff", "clip": "hero.dff.walk.anm", "start": 0.1, "speed": 1.5, "root": {"translation": [3, 0, 2], "scale": [1.5, 1.5, 1.5]}},
 {"model": "hero.dff", "clip": "hero.dff.wave.anm", "start": 0.3, "root": {"translation": [-2, 0, 1], "rotation": [0, 0.7071068, 0, 0.7071068]}},
 {"model": "hero.dff", "clip": "hero.dff.walk.anm", "start": 0.7, "cycle": "mirror"}
]}
JSON
same_for_every_n "crowd with roots" --crowd crowd.json --frames 4 --max-chunk-mb 1

# a failing run fails alike for every N (the worst vertex and instance are the first found)
same_for_every_n_fail() {
    for n in 1 3; do
        "$vk" validate hero.dff --instances 11 --inject-fault weight --json --quiet --threads $n > f$n.json 2> /dev/null
        [ $? -eq 3 ] || { echo "FAIL: an injected fault passed with --threads $n"; fail=1; }
        metrics f$n.json > fm$n.json
    done
    cmp -s fm1.json fm3.json || { echo "FAIL: a failing run differs between --threads 1 and 3"; fail=1; }
}
same_for_every_n_fail

for bad in 0 -1 x 65; do
    "$vk" validate hero.dff --instances 1 --threads $bad > /dev/null 2> bad.err
    [ $? -eq 2 ] && [ -s bad.err ] || { echo "FAIL: --threads $bad is not a usage error"; fail=1; }
done
exit $fail
