#!/usr/bin/env bash
# A run split across several contexts (--device LIST, issue 25) says how the work was shared:
# one stderr line a context, "vkskin CMD: context k/n on DEVICE: N UNIT in C chunks, T s, R
# UNIT/s", for deform, validate and bake, batches and clips alike; never on stdout, none with
# --quiet, none on one device; validate's --json and bake's --report carry the same as
# "context_shares". What the contexts took adds up to the whole run. On lavapipe the same
# device is asked for twice (two contexts). A small run (one chunk, a few jobs) still gives
# every context a share, with one device's results: bytes, bake outputs, validate's metrics;
# validate's clips and crowds give each context an even share of the instances.
# Exit 77 without a Vulkan device.
# Usage: cli_split_shares.sh VKSKIN [SOURCE_DIR]
set -u
vk=$1
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$vk" generate --vertices 3000 --out hero.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
"$vk" generate --vertices 800 --out small.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
"$vk" deform hero.dff --gpu --instances 1 --out probe.raw --quiet > /dev/null 2> probe.err; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi

# shares CMD UNIT TOTAL OUT ERR WHAT: two lines on stderr, none on stdout, adding up to TOTAL
shares() {
    local cmd=$1 unit=$2 total=$3 out=$4 err=$5 what=$6
    local re="^vkskin $cmd: context [12]/2 on .+: [0-9]+ $unit in [0-9]+ (chunk|group)s?, [0-9.]+ s, [0-9]+ $unit/s\$"
    local n sum
    n=$(grep -c -E "$re" "$err")
    [ "$n" -eq 2 ] || { echo "FAIL: $what: $n share lines on stderr, expected 2:"; grep context "$err"; fail=1; }
    grep -q "context [12]/2" "$out" && { echo "FAIL: $what: share lines on stdout"; fail=1; }
    sum=$(grep -E "$re" "$err" | sed -E 's/.*: ([0-9]+) '"$unit"' in .*/\1/' | awk '{ s += $1 } END { print s + 0 }')
    [ "${sum:-0}" -eq "$total" ] || { echo "FAIL: $what: the contexts took $sum $unit, expected $total"; fail=1; }
}
# json_shares FILE UNIT TOTAL WHAT: "context_shares" with two contexts adding up to TOTAL
json_shares() {
    python3 - "$@" <<'PY' || fail=1
import json, sys
path, unit, total, what = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
doc = json.load(open(path))
sh = doc.get("context_shares")
if not sh or len(sh) != 2:
    sys.exit("FAIL: %s: context_shares is %r, expected two contexts" % (what, sh))
for k, s in enumerate(sh):
    for key in ("context", "device", unit, "seconds", "per_second"):
        if key not in s:
            sys.exit("FAIL: %s: context_shares[%d] has no %s" % (what, k, key))
    if s["context"] != k + 1 or not s["device"]:
        sys.exit("FAIL: %s: context_shares[%d] is %r" % (what, k, s))
if sum(s[unit] for s in sh) != total:
    sys.exit("FAIL: %s: context_shares add up to %d %s, expected %d" % (what, sum(s[unit] for s in sh), unit, total))
PY
}
quiet_none() { # ERR WHAT
    grep -q "context [12]/" "$1" && { echo "FAIL: $2: share lines despite --quiet or one device"; fail=1; }
}

# ---- deform: a batch's poses (23 x 3 over 1 MiB chunks), a clip's instances ----
d=(hero.dff --gpu --instances 23 --frames 3 --seed 4 --max-chunk-mb 1 --format raw)
"$vk" deform "${d[@]}" --device 0,0 --out d.raw > d.out 2> d.err || { echo "FAIL: deform --device 0,0"; fail=1; }
shares deform poses 69 d.out d.err "deform batch"
"$vk" deform "${d[@]}" --device 0,0 --out q.raw --quiet > q.out 2> q.err
quiet_none q.err "deform --quiet"
"$vk" deform "${d[@]}" --device 0 --out o.raw > o.out 2> o.err
quiet_none o.err "deform --device 0"
"$vk" deform hero.dff --gpu --clip hero.dff.wave.anm --instances 29 --stagger --frames 3 --max-chunk-mb 1 \
    --format pc2 --device 0,0 --out c.pc2 > c.out 2> c.err || { echo "FAIL: deform --clip --device 0,0"; fail=1; }
shares deform instances 29 c.out c.err "deform clip"

# ---- validate: a batch's poses over two files (37 x 2 each), a clip's instances ----
v=(hero.dff small.dff --instances 37 --seed 5 --frames 2 --max-chunk-mb 1)
"$vk" validate "${v[@]}" --device 0,0 > v.out 2> v.err || { echo "FAIL: validate --device 0,0"; fail=1; }
shares validate poses 148 v.out v.err "validate batch"
"$vk" validate "${v[@]}" --device 0,0 --json > v.json 2> vj.err
shares validate poses 148 v.json vj.err "validate --json batch"
json_shares v.json poses 148 "validate --json batch"
"$vk" validate "${v[@]}" --device 0,0 --quiet > vq.out 2> vq.err
quiet_none vq.err "validate --quiet"
"$vk" validate "${v[@]}" --device 0 --json > v0.json 2> v0.err
quiet_none v0.err "validate --device 0"
grep -q '"context_shares"' v0.json && { echo "FAIL: context_shares on one device"; fail=1; }
"$vk" validate hero.dff --clip hero.dff.wave.anm --instances 29 --stagger --frames 3 --max-chunk-mb 1 \
    --device 0,0 --json > vc.json 2> vc.err || { echo "FAIL: validate --clip --device 0,0"; fail=1; }
shares validate instances 29 vc.json vc.err "validate clip"
json_shares vc.json instances 29 "validate --json clip"

# ---- bake: jobs across the devices, in the report too ----
cat > bake.json <<JSON
{"defaults": {"fps": 10, "outputs": ["vat-png16", "pc2"]},
 "jobs": [{"name": "hero", "model": "hero.dff", "clips": ["hero.dff.walk.anm", "hero.dff.wave.anm"]},
          {"name": "small", "model": "small.dff", "clips": ["small.dff.walk.anm"]},
          {"name": "small_wave", "model": "small.dff", "clips": ["small.dff.wave.anm"]}]}
JSON
"$vk" bake bake.json --device 0,0 --jobs 2 --out b --report b.json > b.out 2> b.err || { echo "FAIL: bake --device 0,0"; fail=1; }
shares bake jobs 3 b.out b.err "bake"
json_shares b.json jobs 3 "bake --report"
"$vk" bake bake.json --device 0,0 --out bq --quiet > bq.out 2> bq.err
quiet_none bq.err "bake --quiet"
"$vk" bake bake.json --device 0 --out b0 --report b0.json > b0.out 2> b0.err
quiet_none b0.err "bake --device 0"
grep -q '"context_shares"' b0.json && { echo "FAIL: context_shares in a one-device bake report"; fail=1; }

# ---- small runs: every context a share, one device's results ----
# (one chunk went to one context: 0 + 6 instances, 0 + 0 + 29, a bake's 3 jobs on one device)
# every ERR CONTEXTS UNIT WHAT: CONTEXTS share lines, none of them 0
every() {
    local n z
    n=$(grep -c -E "^vkskin [a-z]+: context [0-9]+/$2 on .+: [0-9]+ $3 in " "$1")
    [ "$n" -eq "$2" ] || { echo "FAIL: $4: $n share lines, expected $2"; fail=1; return; }
    z=$(grep -E "^vkskin [a-z]+: context [0-9]+/$2 on .+: 0 $3 in " "$1")
    [ -z "$z" ] || { echo "FAIL: $4: a context took nothing: $z"; fail=1; }
}
# the JSON metrics without what a split says of itself, timings and chunk counts
metrics() { sed '/"context_shares"/,/}\]/d' "$1" | grep -v -e '_ms"' -e '"chunks"' -e '"device' -e '"queue_' -e '"context'; }
# vsmall WHAT DEVICES then the validate arguments: metrics of --device DEVICES = --device 0's
vsmall() {
    local what=$1 dev=$2 n=$(($(echo "$2" | tr -cd , | wc -c) + 1)); shift 2
    "$vk" validate "$@" --json --device 0 > s0.json 2> s0.err || { echo "FAIL: $what --device 0: exit $?"; fail=1; }
    "$vk" validate "$@" --json --device "$dev" > s1.json 2> s1.err || { echo "FAIL: $what --device $dev: exit $?"; fail=1; }
    every s1.err "$n" instances "$what --device $dev"
    grep -q '"nmse":' s0.json || { echo "FAIL: $what: no metrics"; fail=1; }
    metrics s0.json > m0.txt
    metrics s1.json > m1.txt
    cmp -s m0.txt m1.txt || { echo "FAIL: $what: --device $dev differs from --device 0:"; diff m0.txt m1.txt | head; fail=1; }
}
# one chunk of 6 layered instances of two models, over 3 frames (the sums in one device's order)
vsmall "validate --crowd" 0,0 --crowd "$src/tests/data/crowd_layers.json" --frames 3
# one chunk of 29 instances on three contexts
vsmall "validate --clip" 0,0,0 hero.dff --clip hero.dff.wave.anm --instances 29 --stagger --frames 3
# validate deals instances, not whole chunks: 20 hero and 38 small instances in chunks of 1 MiB
# are three chunks (14 hero; 6 hero and 32 small; 6 small), which dealt by their count gave two
# contexts 14 + 44 instances; each context now takes an even share (29 + 29, 19 + 19 + 20),
# pieces of the chunks its run ends inside, with one device's metrics
{
  echo '{"instances": ['
  for i in $(seq 0 19); do echo "{\"model\": \"hero.dff\", \"clip\": \"hero.dff.walk.anm\", \"start\": 0.0$i},"; done
  for i in $(seq 0 36); do echo "{\"model\": \"small.dff\", \"clip\": \"small.dff.wave.anm\", \"start\": 0.0$i},"; done
  echo '{"model": "small.dff"}]}'
} > crowd58.json
# even ERR CONTEXTS TOTAL WHAT: each context's instances floor or ceiling of TOTAL / CONTEXTS
even() {
    local got lo=$(($3 / $2)) hi=$((($3 + $2 - 1) / $2))
    got=$(grep -E "^vkskin validate: context [0-9]+/$2 on " "$1" | sed -E 's/.*: ([0-9]+) instances in .*/\1/' | tr '\n' ' ')
    for i in $got; do
        [ "$i" -ge $lo ] && [ "$i" -le $hi ] || { echo "FAIL: $4: the contexts took $got instances, not $lo to $hi each"; fail=1; return; }
    done
}
vsmall "validate --crowd, 3 chunks" 0,0 --crowd crowd58.json --frames 3 --max-chunk-mb 1
even s1.err 2 58 "validate --crowd, 3 chunks on 2"
vsmall "validate --crowd, 3 chunks" 0,0,0 --crowd crowd58.json --frames 3 --max-chunk-mb 1
even s1.err 3 58 "validate --crowd, 3 chunks on 3"
# deform: a batch of 5 x 2 poses and a clip's 5 instances, one chunk each: one device's bytes
"$vk" deform hero.dff --gpu --instances 5 --frames 2 --seed 3 --format raw --device 0,0 --out sb.raw > /dev/null 2> sb.err
"$vk" deform hero.dff --gpu --instances 5 --frames 2 --seed 3 --format raw --device 0 --out sb0.raw > /dev/null 2>&1
every sb.err 2 poses "deform batch, one chunk"
cmp -s sb.raw sb0.raw || { echo "FAIL: deform batch, one chunk: --device 0,0 differs from --device 0"; fail=1; }
c=(hero.dff --gpu --clip hero.dff.wave.anm --instances 5 --stagger --frames 3 --format pc2)
"$vk" deform "${c[@]}" --device 0,0,0 --out sc.pc2 > /dev/null 2> sc.err
"$vk" deform "${c[@]}" --device 0 --out sc0.pc2 > /dev/null 2>&1
every sc.err 3 instances "deform clip, one chunk"
cmp -s sc.pc2 sc0.pc2 || { echo "FAIL: deform clip, one chunk: --device 0,0,0 differs from --device 0"; fail=1; }
# bake: 4 jobs on four devices, a job in flight each (a job in flight took every job it found
# into its group, and the others found none; 3 jobs and two jobs in flight a device above): each
# device a job, every output's bytes those of one device
cat > bake4.json <<JSON
{"defaults": {"fps": 10, "outputs": ["pc2"]},
 "jobs": [{"name": "a", "model": "small.dff", "clips": ["small.dff.walk.anm"]},
          {"name": "b", "model": "small.dff", "clips": ["small.dff.wave.anm"]},
          {"name": "c", "model": "hero.dff", "clips": ["hero.dff.walk.anm"]},
          {"name": "d", "model": "hero.dff", "clips": ["hero.dff.wave.anm"]}]}
JSON
"$vk" bake bake4.json --device 0,0,0,0 --out b4 > /dev/null 2> b4.err || { echo "FAIL: bake --device 0,0,0,0"; fail=1; }
"$vk" bake bake4.json --device 0 --out b40 > /dev/null 2>&1 || { echo "FAIL: bake of 4 jobs --device 0"; fail=1; }
every b4.err 4 jobs "bake, 4 jobs on 4 devices"
every b.err 2 jobs "bake --jobs 2"
same_tree() { # ONE SPLIT WHAT
    (cd "$1" && find . -type f | sort | xargs sha256sum) > sum0.txt
    (cd "$2" && find . -type f | sort | xargs sha256sum) > sum1.txt
    [ -s sum0.txt ] && cmp -s sum0.txt sum1.txt || { echo "FAIL: $3: outputs differ from one device's:"; diff sum0.txt sum1.txt | head -5; fail=1; }
}
same_tree b40 b4 "bake, 4 jobs on 4 devices"
# fewer jobs than devices: a job each for as many devices as there are jobs
"$vk" bake bake.json --device 0,0,0,0 --out b34 > /dev/null 2> b34.err || { echo "FAIL: bake of 3 jobs --device 0,0,0,0"; fail=1; }
n=$(grep -c -E "^vkskin bake: context [0-9]/4 on .+: 1 jobs in 1 group," b34.err)
[ "$n" -eq 3 ] || { echo "FAIL: bake of 3 jobs on 4 devices: $n devices took one job, expected 3:"; grep context b34.err; fail=1; }
same_tree b0 b34 "bake, 3 jobs on 4 devices"
same_tree b0 b "bake --device 0,0 --jobs 2"
[ $fail -eq 0 ] && echo "split shares: ok"
exit $fail
