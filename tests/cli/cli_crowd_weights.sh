#!/usr/bin/env bash
# Layer weights at their bounds (issue 37): every engine (--cpu, --cpu-fast, --gpu) gives the
# same vertices, or the same refusal naming the crowd entry and layer.
#  - normal layers' weights are renormalised over the node's layers, so 1e-25 alone, 1e-25
#    beside 3e-25 and two of 3e38 pose as 1, 0.25 + 0.75 and 0.5 + 0.5 do, on every engine;
#    a weight faded below float's smallest normal number counts as 0 on every engine;
#  - an additive layer's weight is at most 1 (1e4, 1e20 and 1.5 are refused, JSON and CSV);
#  - an additive layer whose reference pose has a scale below 1e-6 (here 1e-30) adds no scale
#    on that axis, as a zero one, on every engine: no vertex flies off to 1e30.
# GPU checks run with the validation layer on and are skipped without a device (exit 4).
# Usage: cli_crowd_weights.sh VKSKIN SOURCE_DIR
set -u
vk=$1
src=$2
. "$src/tests/cli/crowd_engines.sh"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
d=$src/datasets
m=$d/char_b24_pl8.dff
c=$d/char_b24_pl8.cmdl

# same_on_engines WHAT CROWD [deform options]: every engine deforms CROWD (exit 0) to
# CROWD.ENGINE.raw and --cpu-fast's and --gpu's vertices are the reference's within tolerance
same_on_engines() {
  local what=$1 crowd=$2; shift 2
  for e in cpu cpu-fast gpu; do
    local extra=""
    [ $e = gpu ] && extra=--validation
    "$vk" deform --crowd "$crowd" --$e "$@" --format raw --out "$crowd.$e.raw" $extra > out 2> err
    local rc=$?
    if [ $e = gpu ] && [ $rc -eq 4 ]; then
      echo "skip: $what: no Vulkan device"; continue
    fi
    [ $rc -eq 0 ] || { echo "FAIL: $what: deform --$e: exit $rc ($(head -c 600 err))"; fail=1; continue; }
    grep -q -i "validation layer:\|VUID" err && { echo "FAIL: $what: validation layer: $(head -c 600 err)"; fail=1; }
    [ $e = cpu ] || raw_close "$crowd.cpu.raw" "$crowd.$e.raw" || { echo "FAIL: $what: --$e is not the reference"; fail=1; }
  done
}

# refused WHAT CROWD MESSAGE: every engine exits 1 with MESSAGE (the entry and layer) on stderr
refused() {
  local what=$1 crowd=$2 msg=$3
  for e in cpu cpu-fast gpu; do
    "$vk" deform --crowd "$crowd" --$e --frames 1 --format raw --out refused.raw > out 2> err
    local rc=$?
    [ $rc -eq 1 ] && grep -q -- "$msg" err ||
      { echo "FAIL: $what: deform --$e: exit $rc, expected 1 with '$msg' ($(head -c 600 err))"; fail=1; }
    [ ! -e refused.raw ] || { echo "FAIL: $what: --$e wrote an output"; fail=1; rm -f refused.raw; }
  done
}

# normal layers at the ends of float's range, and the same blends with ordinary weights
layers() { # WEIGHT_WALK [WEIGHT_WAVE]
  printf '{"model": "%s", "layers": [{"clip": "%s.walk.anm", "start": 0.3, "weight": %s}' "$m" "$m" "$1"
  [ -n "${2:-}" ] && printf ', {"clip": "%s.wave.anm", "start": 0.1, "weight": %s}' "$m" "$2"
  printf ']}'
}
echo "{\"instances\": [$(layers 1e-25), $(layers 1e-25 3e-25), $(layers 3e38 3e38), $(layers 3e38)]}" > extreme.json
echo "{\"instances\": [$(layers 1), $(layers 0.25 0.75), $(layers 0.5 0.5), $(layers 1)]}" > plain.json
same_on_engines "normal weights 1e-25, 1e-25 + 3e-25, 3e38 + 3e38, 3e38" extreme.json --frames 3
same_on_engines "normal weights 1, 0.25 + 0.75, 0.5 + 0.5, 1" plain.json --frames 3
[ -s extreme.json.cpu.raw ] && raw_close plain.json.cpu.raw extreme.json.cpu.raw ||
  { echo "FAIL: normal weights at float's ends do not blend as the same weights renormalised"; fail=1; }
"$vk" validate --crowd extreme.json --frames 3 --validation > out 2> err; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 4 ] || { echo "FAIL: validate normal weights at float's ends: exit $rc ($(tail -c 600 err))"; fail=1; }

# a transition entering a normal layer of weight 1e-25 while an additive one leaves: at this
# time the entering weight is 1e-25 x 1e-14, below float's normal range, and counts as 0
cat > faded.json <<EOT
{"instances": [{"model": "$m", "layers": [{"clip": "$m.wave.anm", "blend": "additive", "start": 0.2}],
  "transition": {"start": 0, "duration": 1, "to": [{"clip": "$m.walk.anm", "weight": 1e-25, "start": 0.3}]}}]}
EOT
same_on_engines "a normal weight faded below float's normal range" faded.json --frames 1 --time 5.8e-8

# additive weights above 1 are refused naming the entry and layer, in JSON and CSV
for w in 1e4 1e20 1.5; do
  cat > add_$w.json <<EOT
{"instances": [{"model": "$m", "clip": "$m.walk.anm"},
 {"model": "$m", "layers": [{"clip": "$m.walk.anm"}, {"clip": "$m.wave.anm", "blend": "additive", "weight": $w}]}]}
EOT
  refused "additive weight $w" add_$w.json "add_$w.json: instances\[1\].layers\[1\].weight: expected an additive weight <= 1"
done
printf 'model,clip,clip2,weight2,blend2\n%s,%s.walk.anm,%s.wave.anm,1e4,additive\n' "$m" "$m" "$m" > add.csv
refused "additive weight 1e4 in CSV" add.csv "add.csv:2: weight2: expected an additive weight <= 1"
printf 'model,clip,clip2,weight2,blend2\n%s,%s.walk.anm,%s.wave.anm,1,additive\n' "$m" "$m" "$m" > add_one.csv
same_on_engines "additive weight 1" add_one.csv --frames 2

# an additive layer's reference pose with a scale of 1e-30 (its clip's first frame): no scale
# is added on that axis, so the crowd poses as its normal layer alone
cskla_linear grow spine_02 Scale X 60 1e-30 1 > grow.cskla
echo "{\"instances\": [{\"model\": \"$c\", \"layers\": [{\"clip\": \"$c.walk.cskla\", \"start\": 0.3},
  {\"clip\": \"grow.cskla\", \"blend\": \"additive\", \"start\": 0.4}]}]}" > tiny_ref.json
echo "{\"instances\": [{\"model\": \"$c\", \"layers\": [{\"clip\": \"$c.walk.cskla\", \"start\": 0.3}]}]}" > walk.json
same_on_engines "an additive reference scale of 1e-30" tiny_ref.json --frames 3
same_on_engines "the walk alone" walk.json --frames 3
[ -s tiny_ref.json.cpu.raw ] && raw_close walk.json.cpu.raw tiny_ref.json.cpu.raw ||
  { echo "FAIL: an additive reference scale of 1e-30 added a scale"; fail=1; }
exit $fail
