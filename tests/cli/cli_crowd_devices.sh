#!/usr/bin/env bash
# Clips and crowds across several devices (issue 25, item 4): deform --gpu and validate with
# --clip or --crowd split their instances across --device 0,0 and 0,0,0 (two or three contexts
# on one lavapipe device) and give one device's results: deform the same bytes in raw, PC2, CSV
# and glb, with pieces held whole or (frames that do not fit) written frame by frame, and for a
# crowd of two models with roots, layers and root motion, its <out>.root_motion.csv too; validate
# the same JSON metrics (timings, chunk counts and device fields stripped), the same failure and
# golden raws. Every context must have taken instances (the summary and the JSON say how many),
# the validation layer stays silent, --each keeps a section per device, a number no device has
# exits 4 before any output, render refuses a list (exit 2), and progress counts every context's
# poses. Exit 77 without a Vulkan device. The sanitizer phase (VKSKIN_TEST_SANITIZER_SUBSET=1,
# set by tools/scripts/test.sh --sanitize) compares --device 0 with 0,0 only: two contexts run
# every split path under ASan and UBSan, and three (each of its runs the slowest there, the
# validation layer once per context) are checked in the plain build.
# Usage: cli_crowd_devices.sh VKSKIN
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$vk" generate --vertices 3000 --out hero.dff > /dev/null 2>&1 || { echo "FAIL: generate"; exit 1; }
"$vk" generate --vertices 500 --out small.dff > /dev/null 2>&1 || { echo "FAIL: generate"; exit 1; }
"$vk" validate hero.dff --instances 1 --quiet > /dev/null 2> probe.err; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi
lists=(0 0,0 0,0,0) # the device lists compared; the first is one device's results
[ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ] && lists=(0 0,0)
three() { [ ${#lists[@]} -eq 3 ]; }

# every context of the list took instances: "(N contexts: a + b instances)", none of them 0
shares() { # what, file, contexts
    local line
    line=$(grep -o "($3 contexts: [0-9 +]* instances)" "$2")
    [ -n "$line" ] || { echo "FAIL: $1: no split across $3 contexts said: $(grep deformed "$2" | head -c 300)"; fail=1; return; }
    echo "$line" | grep -Eq '(: | \+ )0( |$)' && { echo "FAIL: $1: a context took no instance: $line"; fail=1; }
}

# deform: what, then the arguments; the output o<d>.<ext> of --device d, compared with --device 0
same() {
    local what=$1 ext=$2; shift 2
    for d in "${lists[@]}"; do
        "$vk" deform hero.dff --gpu "$@" --device $d --out "o$d.$ext" --quiet --validation > /dev/null 2> "e$d.err"; rc=$?
        [ $rc -eq 0 ] || { echo "FAIL: $what --device $d: exit $rc ($(head -c 400 e$d.err))"; fail=1; return; }
    done
    [ -s "o0.$ext" ] || { echo "FAIL: $what: no output"; fail=1; }
    for d in "${lists[@]:1}"; do
        cmp -s "o0.$ext" "o$d.$ext" || { echo "FAIL: $what: --device $d differs from --device 0"; fail=1; }
    done
}
# 3000 vertices are 72 KB an instance and frame: 1 MiB shared by 2 contexts holds 3 frames of 2
# instances, so 23 instances are 12 pieces, several for each context
clip=(--clip hero.dff.walk.anm --stagger --max-chunk-mb 1)
same "raw" raw "${clip[@]}" --instances 23 --frames 3 --format raw
shares "raw" e0,0.err 2
three && shares "raw" e0,0,0.err 3
same "pc2" pc2 "${clip[@]}" --instances 23 --frames 3 --format pc2
same "csv" csv "${clip[@]}" --instances 7 --frames 2 --format csv
same "glb, one instance" glb "${clip[@]}" --instances 1 --frames 4 --format glb
# 20 frames of an instance do not fit a context's half of 1 MiB: written frame by frame in turn
same "raw, frames written as they come" raw "${clip[@]}" --instances 5 --frames 20 --format raw
shares "frames written as they come" e0,0.err 2

# a crowd of two models (40 and 20 instances): clips with roots, layers with root motion, the bind
# pose; 1 MiB chunks make 4 of them for validate
{
    echo '{"instances": ['
    for i in $(seq 0 59); do
        m=hero.dff; [ $((i % 3)) -eq 2 ] && m=small.dff
        case $((i % 4)) in
        0) echo "{\"model\": \"$m\", \"clip\": \"$m.walk.anm\", \"start\": 0.$i, \"root\": {\"translation\": [$i, 0, 1]}},";;
        1) echo "{\"model\": \"$m\", \"layers\": [{\"clip\": \"$m.walk.anm\", \"weight\": 0.6, \"start\": 0.$i},"
           echo " {\"clip\": \"$m.wave.anm\", \"weight\": 0.4}], \"root_motion\": \"z\"},";;
        2) echo "{\"model\": \"$m\", \"clip\": \"$m.wave.anm\", \"speed\": 1.5, \"root\": {\"rotation\": [0, 0, 0.7071068, 0.7071068]}},";;
        3) echo "{\"model\": \"$m\"},";;
        esac
    done
    echo '{"model": "hero.dff", "clip": "hero.dff.walk.anm"}]}'
} > crowd.json
for d in "${lists[@]}"; do
    mkdir -p "c$d"
    "$vk" deform --crowd crowd.json --gpu --frames 3 --max-chunk-mb 1 --format raw --device $d --out "c$d" \
        --quiet --validation > /dev/null 2> "c$d.err"; rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: deform --crowd --device $d: exit $rc ($(head -c 400 c$d.err))"; fail=1; }
done
[ -s c0/hero.dff.raw ] && [ -s c0/small.dff.raw ] || { echo "FAIL: deform --crowd wrote no raw per model"; fail=1; }
[ -s c0/hero.dff.raw.root_motion.csv ] || { echo "FAIL: deform --crowd wrote no root motion"; fail=1; }
for d in "${lists[@]:1}"; do
    diff -r c0 "c$d" > /dev/null || { echo "FAIL: deform --crowd --device $d differs from --device 0: $(diff -rq c0 c$d)"; fail=1; }
done
grep "hero.dff:" c0,0.err > hero0,0.txt # small.dff's instances are one piece: one context
shares "deform --crowd" hero0,0.txt 2

# validate: the JSON metrics of one device, over several chunks and two models
# (what each context took, "context_shares", is a split's own: its lines go, "[{" to "}],")
metrics() { sed '/"context_shares"/,/}\]/d' "$1" | grep -v -e '_ms"' -e '"chunks"' -e '"device' -e '"queue_' -e '"context'; }
# context_instances lists every context, none of them 0
took() { # what, json, contexts
    local c
    c=$(tr -d ' \t\n' < "$2" | grep -o '"context_instances":\[[0-9,]*\]')
    [ "$(echo "$c" | tr -cd ',' | wc -c)" -eq $(($3 - 1)) ] || { echo "FAIL: $1: no split across $3 contexts: '$c'"; fail=1; return; }
    echo "$c" | grep -Eq '[[,]0[],]' && { echo "FAIL: $1: a context took no instance: $c"; fail=1; }
}
vsame() { # what, then the validate arguments
    local what=$1; shift
    for d in "${lists[@]}"; do
        "$vk" validate "$@" --json --quiet --validation --device $d > "v$d.json" 2> "v$d.err"; rc=$?
        [ $rc -eq 0 ] || { echo "FAIL: $what --device $d: exit $rc ($(head -c 400 v$d.err))"; fail=1; return; }
        metrics "v$d.json" > "m$d.json"
    done
    grep -q '"gpu_path":\s*"crowd"' v0.json || { echo "FAIL: $what: not on the crowd path"; fail=1; }
    grep -q '"nmse":' m0.json || { echo "FAIL: $what: no metrics in the JSON"; fail=1; }
    for d in "${lists[@]:1}"; do
        cmp -s m0.json "m$d.json" || { echo "FAIL: $what: --device $d differs from --device 0:"; diff m0.json "m$d.json" | head; fail=1; }
    done
    took "$what" v0,0.json 2
    three && took "$what" v0,0,0.json 3
}
# 14 instances of hero.dff a chunk of 1 MiB: 37 of each model are 4 chunks
vsame "validate --clip" hero.dff small.dff --clip hero.dff.walk.anm --stagger --instances 37 --frames 2 --max-chunk-mb 1
vsame "validate --crowd" --crowd crowd.json --frames 3 --max-chunk-mb 1

# a failing run fails alike
for d in 0 0,0; do
    "$vk" validate hero.dff --clip hero.dff.walk.anm --instances 40 --inject-fault weight --max-chunk-mb 1 --json \
        --quiet --device $d > "f$d.json" 2> /dev/null
    [ $? -eq 3 ] || { echo "FAIL: an injected fault passed with clips on --device $d"; fail=1; }
    metrics "f$d.json" > "fm$d.json"
done
cmp -s fm0.json fm0,0.json || { echo "FAIL: a failing clip run differs between --device 0 and 0,0"; fail=1; }

# the golden raws written by two contexts are one device's bytes
for d in 0 0,0; do
    "$vk" validate hero.dff --clip hero.dff.walk.anm --instances 40 --frames 2 --max-chunk-mb 1 --save-golden "g$d" \
        --device $d --quiet > /dev/null 2>&1 || { echo "FAIL: --save-golden with clips on --device $d"; fail=1; }
done
cmp -s g0/0.raw g0,0/0.raw || { echo "FAIL: the golden raw of clips on --device 0,0 differs from --device 0"; fail=1; }

# --each: the same clips on every device of the list, one section each
"$vk" validate hero.dff --clip hero.dff.walk.anm --instances 3 --device 0,0 --each --json --quiet > each.json 2> each.err; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --each with clips: exit $rc ($(head -c 400 each.err))"; fail=1; }
n=$(grep -c '"device_type"' each.json)
[ "$n" -eq 2 ] || { echo "FAIL: --each with clips gave $n device sections, expected 2"; fail=1; }

# a device the list names that does not exist: exit 4, and deform leaves no output
"$vk" validate hero.dff --clip hero.dff.walk.anm --instances 3 --device 0,99 --quiet > /dev/null 2> bad.err; rc=$?
[ $rc -eq 4 ] && [ -s bad.err ] || { echo "FAIL: validate --clip --device 0,99 exit $rc, expected 4 with a message"; fail=1; }
"$vk" deform hero.dff --gpu --clip hero.dff.walk.anm --instances 3 --device 0,99 --out bad.raw --quiet > /dev/null 2> bad.err; rc=$?
[ $rc -eq 4 ] && [ -s bad.err ] || { echo "FAIL: deform --clip --device 0,99 exit $rc, expected 4 with a message"; fail=1; }
[ ! -e bad.raw ] || { echo "FAIL: deform --clip --device 0,99 left an output"; fail=1; }

# render draws on one device: a list is a usage error that says so
"$vk" render hero.dff --clip hero.dff.walk.anm --instances 2 --device 0,0 --out r.png > /dev/null 2> r.err; rc=$?
[ $rc -eq 2 ] && grep -q "one device" r.err || { echo "FAIL: render --device 0,0: exit $rc, expected 2 ($(head -c 300 r.err))"; fail=1; }
[ ! -e r.png ] || { echo "FAIL: render --device 0,0 wrote an image"; fail=1; }

# progress counts every context's work: the last line of a split run is all of it
# ($VKSKIN_PROGRESS_INTERVAL_MS=0: a line at every step, as on a long run)
VKSKIN_PROGRESS_INTERVAL_MS=0 "$vk" deform hero.dff --gpu "${clip[@]}" --instances 23 --frames 3 --format raw \
    --device 0,0 --out p.raw > /dev/null 2> p.err
grep -q "vkskin deform: 69/69 poses (100%).*done in" p.err || { echo "FAIL: deform's progress on 0,0: $(grep 'done in' p.err)"; fail=1; }
VKSKIN_PROGRESS_INTERVAL_MS=0 "$vk" validate hero.dff --clip hero.dff.walk.anm --instances 40 --frames 2 --max-chunk-mb 1 \
    --device 0,0 > p.out 2> p.err
grep -q "vkskin validate: 80/80 poses (100%).*done in" p.err || { echo "FAIL: validate's progress on 0,0: $(grep 'done in' p.err)"; fail=1; }
grep -q "vkskin validate: [0-9]*/" p.out && { echo "FAIL: a progress line on stdout"; fail=1; }

# the validation layer said nothing on any run (its lines start "vkskin: validation")
bad=$(grep -l "vkskin: validation" ./*.err 2> /dev/null)
[ -z "$bad" ] || { echo "FAIL: validation-layer messages in: $bad"; fail=1; }
exit $fail
