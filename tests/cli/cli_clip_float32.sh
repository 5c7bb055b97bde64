#!/usr/bin/env bash
# Clip keys float32 cannot carry, on every engine (issue 21, point 3): a clip whose keys are
# conditioned at load plays the same on --cpu, --cpu-fast and --gpu, with finite output; one
# whose keys are refused exits 1 naming the key; and no deform or bake writes an inf or a NaN
# with exit 0 (a pose that takes the model beyond float32 exits non-zero, with no output). The
# crafted files come from test_clip_float32 --dump; checks that need a Vulkan device are
# skipped without one (exit 4).
#   cli_clip_float32.sh VKSKIN TEST_CLIP_FLOAT32
set -u
vk=$1
craft=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
"$craft" --dump "$tmp" > /dev/null || { echo "FAIL: test_clip_float32 --dump"; exit 1; }
engines="--cpu --cpu-fast --gpu"
gpu=1
"$vk" devices > /dev/null 2>&1
[ $? -eq 4 ] && { gpu=0; engines="--cpu --cpu-fast"; echo "no Vulkan device: --gpu and validate skipped"; }

# run WANT ARGS...: vkskin with stdout in $tmp/out and stderr in $tmp/err; checks the exit code
# and that a failing exit said why.
run() {
  local want=$1
  shift
  "$vk" "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  check "vkskin $* exits $want (got $rc)" "[ $rc -eq $want ]"
  [ "$want" -ne 0 ] && check "vkskin $* says why on stderr" "[ -s '$tmp/err' ]"
  return 0
}
err_has() { check "$1: stderr has '$2'" "grep -Eq -- '$2' '$tmp/err'"; }
finite() { check "$1: no inf or nan in $2" "! grep -Eqi 'inf|nan' '$2'"; }
# the largest difference of x y z between two deform CSVs (same rows)
max_diff() {
  paste -d, "$1" "$2" | awk -F, 'NR > 1 { for (i = 5; i <= 7; i++) { d = $i - $(i + 10); if (d < 0) d = -d;
    if (d > m) m = d } } END { printf "%.3g\n", m + 0 }'
}

# ---- conditioned at load: every engine agrees, every output finite
play() { # MODEL CLIP
  for e in $engines; do
    run 0 deform "$1" --clip "$2" --instances 2 --stagger --frames 5 --fps 40 $e --out "$tmp/out$e.csv"
    finite "$(basename "$2") $e" "$tmp/out$e.csv"
  done
  for e in $engines; do
    [ "$e" = --cpu ] && continue
    d=$(max_diff "$tmp/out--cpu.csv" "$tmp/out$e.csv")
    check "$(basename "$2"): $e within 1e-4 of --cpu (off by $d)" "awk 'BEGIN { exit !($d <= 1e-4) }'"
  done
  if [ $gpu -eq 1 ]; then
    run 0 validate "$1" --clip "$2" --instances 4 --stagger
  fi
}
play "$tmp/clip_char.dff" "$tmp/quat_1e30.anm"
play "$tmp/clip_char.cmdl" "$tmp/euler_1e30.cskla"

# ---- refused, naming the clip, the track, the channel and the key
for e in $engines; do
  run 1 deform "$tmp/clip_char.dff" --clip "$tmp/quat_1e-40.anm" $e --out "$tmp/no.csv"
  err_has "quaternion (1e-40, 0, 0, 0) $e" \
    'quat_1e-40.anm:clip\[0\] ""/track\[1\] ""/rotation: key 0: quaternion \(9.99995e-41, 0, 0, 0\) has norm'
  run 1 deform "$tmp/clip_char.dff" --clip "$tmp/translation_3e38.anm" $e --out "$tmp/no.csv"
  err_has "translation 3e38 $e" 'translation_3e38.anm:clip\[0\] ""/track\[0\] ""/translation: key 0: 3e\+38, beyond'
  check "no output after a refused clip ($e)" "[ ! -e '$tmp/no.csv' ]"
done

# ---- the last guard: a pose whose hierarchy composes bounded scales (2e14 on three nested
# nodes) beyond float32 is never written as inf or NaN with exit 0
echo '{"nodes": [{"index": 1, "scale": [2e14, 2e14, 2e14]}, {"index": 2, "scale": [2e14, 2e14, 2e14]},
  {"index": 3, "scale": [2e14, 2e14, 2e14]}]}' > "$tmp/huge.json"
for e in $engines; do
  for f in csv raw; do
    run 1 deform "$tmp/clip_char.dff" --clip "$tmp/huge.json" $e --out "$tmp/huge.$f"
    err_has "scales beyond float32 $e $f" 'instance 0 frame 0: vertex [0-9]+: deformed (position|normal) is -?(inf|nan)'
    check "no output beyond float32 ($e $f)" "[ ! -e '$tmp/huge.$f' ]"
  done
done
cat > "$tmp/huge_bake.json" <<JSON
{"jobs": [{"model": "$tmp/clip_char.dff", "clips": ["$tmp/huge.json"], "range": [0, 0.1],
           "outputs": ["vat-png16", "pc2"]}]}
JSON
bakes="--cpu --cpu-fast"
[ $gpu -eq 1 ] && bakes="$bakes --gpu-default"
for e in $bakes; do
  flag=$e
  [ "$e" = --gpu-default ] && flag=
  run 5 bake "$tmp/huge_bake.json" $flag --out "$tmp/bake$e"
  err_has "bake beyond float32 ($e)" 'jobs\[0\]: frame 0: a deformed position is -?(inf|nan), beyond float32'
  check "bake beyond float32 ($e) writes nothing" "[ -z \"\$(ls -A '$tmp/bake$e' 2> /dev/null)\" ]"
done

[ $fail -eq 0 ] && echo "cli_clip_float32: all checks passed"
exit $fail
