#!/usr/bin/env bash
# host_targets.sh of a vkskin GPU test bundle (made by tools/scripts/gpu_bundle.sh; README.md,
# "Testing a build on GPU machines"): issue 25's host-speed targets measured on the GPU
# machine, in one call, beside the bundle's run.sh (which tests; this times):
#   ./host_targets.sh [--quick] OUTDIR
#   1. validate of the 16 bundled characters x N instances (1000; --quick 8): three runs on
#      every core, then --threads 1, --threads 4 and --device 0,0; the JSON metrics of every
#      run must be the same (the reports do not depend on threads or contexts)
#   2. validate of a generated 10k-vertex character x M (2000; --quick 16), three runs and
#      --threads 1, the same check; then 10 M instances' worth with progress lines on
#   3. bake of the all-characters manifest (bench_bake.sh: the GPU and --cpu-fast engines
#      against dd of the same bytes, page cache and fdatasync; 3 rounds, --quick 1), then
#      --jobs 1, 4 and 16 (--quick 1 and 4)
#   4. deform --gpu of the 10k character to raw and PC2, and --device 0,0 (same bytes), against
#      dd of the raw's size; then a tenth of the instances as CSV
# and writes OUTDIR/host_targets.md (a line a run: wall seconds, exit code; validate's GPU
# passes, total and their ratio; the tables) and every run's JSON and stderr beside it.
# Needs bash, coreutils, awk; the device's own Vulkan driver. Exit: 0 every run passed and the
# metrics agreed, 1 otherwise, 2 usage.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
quick=0
out=""
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "host_targets.sh: unknown option $a" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "host_targets.sh: one OUTDIR" >&2; exit 2; }; out=$a ;;
  esac
done
[ -n "$out" ] || { echo "usage: host_targets.sh [--quick] OUTDIR" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
vk=$here/build/vkskin
if [ $quick = 1 ]; then n16=8 n10k=16 big=64 def=8 frames=2 rounds=1 jobs="1 4"
else n16=1000 n10k=2000 big=20000 def=1000 frames=4 rounds=3 jobs="1 4 16"; fi
md=$out/host_targets.md
failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/vkskin-host.XXXXXX")
trap 'rm -rf "$work"' EXIT
say() { echo "$*" | tee -a "$md"; }
# field FILE KEY: a number of validate's JSON (the run's own, after the files' entries)
field() { grep "\"$2\":" "$1" | tail -1 | sed 's/.*:[[:space:]]*//; s/,$//'; }
# what must not depend on threads or contexts: validate's JSON less timings, chunks, devices
metrics() { sed '/"context_shares"/,/}\]/d' "$1" | grep -v -e '_ms"' -e '"chunks"' -e '"device' -e '"queue_' \
  -e '"seconds"' -e '"per_second"'; }
# timed NAME OUTFILE CMD...: runs CMD (stdout into OUTFILE, stderr beside it), says its wall
timed() {
  local name=$1 file=$2 t0 rc
  shift 2
  t0=$(date +%s.%N)
  "$@" > "$file" 2> "${file%.*}.err"
  rc=$?
  say "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "| %s | %.3f s | exit %s |", "'"$name"'", b - a, '"$rc"' }')"
  [ $rc -eq 0 ] || failed=1
  return $rc
}
# validate_row FILE: GPU passes, total and host/GPU from a run's JSON
validate_row() {
  local g t
  g=$(awk -v p="$(field "$1" gpu_pose_ms)" -v d="$(field "$1" gpu_deform_ms)" 'BEGIN { printf "%.3f", p + d }')
  t=$(field "$1" total_ms)
  say "|   $(basename "$1" .json): $(field "$1" vertex_instances) vertex-instances | GPU passes $g ms, total $(printf '%.1f' "$t") ms | host / GPU $(awk -v g="$g" -v t="$t" 'BEGIN { printf "%.1f", (g > 0 ? (t - g) / g : 0) }') |"
}
same_metrics() { # FIRST OTHERS...
  local a=$1 f
  shift
  for f in "$@"; do
    if ! cmp -s <(metrics "$a") <(metrics "$f"); then
      say "| metrics of $(basename "$f") differ from $(basename "$a") | | FAIL |"
      failed=1
    fi
  done
}

{
  echo "# vkskin host targets: $(sed -n 's/^version: //p' "$here/BUNDLE.txt"), $(date -u +%Y-%m-%d)"
  echo
  echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
  "$vk" devices 2>&1 | head -1
  echo
  echo "| run | wall | |"
  echo "|---|---|---|"
} > "$md"
cat "$md"
cd "$here/src" || exit 1
chars=(datasets/*.dff datasets/*.nif datasets/*.cmdl datasets/*.p3d)
for i in 1 2 3; do
  timed "validate ${#chars[@]} characters x $n16, every core ($i)" "$out/v16_$i.json" \
    "$vk" validate "${chars[@]}" --instances $n16 --json --quiet
done
timed "the same, --threads 1" "$out/v16_t1.json" "$vk" validate "${chars[@]}" --instances $n16 --json --quiet --threads 1
timed "the same, --threads 4" "$out/v16_t4.json" "$vk" validate "${chars[@]}" --instances $n16 --json --quiet --threads 4
timed "the same, --device 0,0" "$out/v16_split.json" "$vk" validate "${chars[@]}" --instances $n16 --json --quiet --device 0,0
for f in "$out"/v16_*.json; do validate_row "$f"; done
same_metrics "$out/v16_1.json" "$out"/v16_[23].json "$out/v16_t1.json" "$out/v16_t4.json" "$out/v16_split.json"

"$vk" generate --vertices 10000 --out "$work/c10k.dff" --no-clips > /dev/null 2>&1 || { say "| generate | | FAIL |"; failed=1; }
for i in 1 2 3; do
  timed "validate a 10k-vertex character x $n10k, every core ($i)" "$out/v10k_$i.json" \
    "$vk" validate "$work/c10k.dff" --instances $n10k --json --quiet
done
timed "the same, --threads 1" "$out/v10k_t1.json" "$vk" validate "$work/c10k.dff" --instances $n10k --json --quiet --threads 1
timed "the 10k character x $big, progress on" "$out/v10k_big.json" "$vk" validate "$work/c10k.dff" --instances $big --json
for f in "$out"/v10k_*.json; do validate_row "$f"; done
same_metrics "$out/v10k_1.json" "$out"/v10k_[23].json "$out/v10k_t1.json"

# where a bake's time went: its report's "stages" (seconds from its start) and its jobs' reads
stages() {
  local k line="stages:"
  for k in devices_open first_deform last_deform_end written; do
    line+=" $k $(printf '%.3f' "$(field "$1" $k)" 2> /dev/null || echo -)"
  done
  echo "$line, reads $(grep '"read_seconds"' "$1" | sed 's/.*:[[:space:]]*//; s/,$//' | awk '{s += $1} END {printf "%.3f", s}') s summed"
}

say ""
timed "bench_bake.sh (GPU and --cpu-fast against dd, $rounds rounds)" "$out/bake_table.md" \
  "$here/src/tools/scripts/bench_bake.sh" "$vk" "$work/bb" $rounds
cat "$out/bake_table.md" >> "$md"
cat "$out/bake_table.md"
for j in $jobs; do
  timed "bake --jobs $j" "$out/bake_jobs$j.out" "$vk" bake tools/slurm/all_characters.json --force --quiet \
    --jobs $j --out "$work/bj" --report "$out/bake_jobs$j.json"
  say "|   bake --jobs $j: $(printf '%.1f' "$(field "$out/bake_jobs$j.json" mb_per_second)") MB/s; $(stages "$out/bake_jobs$j.json") | | |"
done
rm -rf "$work/bb" "$work/bj"

say ""
timed "deform --gpu, $def instances x $frames frames of the 10k character, raw" "$out/deform_raw.out" \
  "$vk" deform "$work/c10k.dff" --gpu --instances $def --frames $frames --out "$work/d.raw" --format raw --quiet
timed "the same, PC2" "$out/deform_pc2.out" \
  "$vk" deform "$work/c10k.dff" --gpu --instances $def --frames $frames --out "$work/d.pc2" --quiet
timed "the same raw, --device 0,0" "$out/deform_split.out" \
  "$vk" deform "$work/c10k.dff" --gpu --instances $def --frames $frames --out "$work/d2.raw" --format raw --device 0,0
cmp -s "$work/d.raw" "$work/d2.raw" || { say "| deform --device 0,0: other bytes than one device | | FAIL |"; failed=1; }
mb=$(($(stat -c %s "$work/d.raw" 2> /dev/null || echo 0) / 1048576 + 1))
timed "dd of $mb MiB (page cache)" "$out/dd.out" dd if=/dev/zero of="$work/dd.bin" bs=1M count=$mb
# text: a tenth of the instances as CSV (six numbers a row, converted on one thread)
csvn=$((def / 10 > 0 ? def / 10 : 1))
timed "the same as CSV, $csvn instances" "$out/deform_csv.out" \
  "$vk" deform "$work/c10k.dff" --gpu --instances $csvn --frames $frames --out "$work/d.csv" --format csv --quiet
say "|   CSV: $(($(stat -c %s "$work/d.csv" 2> /dev/null || echo 0) / 1048576)) MiB | | |"
rm -f "$work"/d.raw "$work"/d2.raw "$work"/d.pc2 "$work"/dd.bin "$work"/d.csv
say ""
say "$([ $failed = 0 ] && echo PASS || echo FAIL): $md"
exit $failed
