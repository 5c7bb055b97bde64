#!/usr/bin/env bash
# Bake throughput (BENCHMARKS.md "Batch baking"): the all-characters manifest baked from
# scratch (--force) on the GPU (lavapipe here) and on the fast CPU engine, each --repeats
# times alternating, against the plain write speed of the same disk measured in the same run
# (dd of the same byte count, page cache and with fdatasync). Prints a Markdown table.
#   tools/scripts/bench_bake.sh [VKSKIN] [OUTDIR (default: a temporary folder)] [REPEATS (3)]
set -euo pipefail
vk=${1:-build/vkskin}
root=$(cd "$(dirname "$0")/../.." && pwd)
manifest=$root/tools/slurm/all_characters.json
out=${2:-$(mktemp -d)}
repeats=${3:-3}
mkdir -p "$out"
# the report's totals come after its jobs: the last occurrence of a key is the run's
field() { grep "\"$2\"" "$1" | tail -1 | sed 's/.*:[[:space:]]*//; s/,$//'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A fps mbs secs
for r in $(seq 1 "$repeats"); do
    for e in gpu cpu-fast; do
        opt=""
        [ $e = cpu-fast ] && opt=--cpu-fast
        "$vk" bake "$manifest" $opt --force --out "$out/$e" --report "$out/$e.json" 2> /dev/null
        fps[$e]+="$(field "$out/$e.json" frames_per_second) "
        mbs[$e]+="$(field "$out/$e.json" mb_per_second) "
        secs[$e]+="$(awk -v f="$(field "$out/$e.json" frames_baked)" -v r="$(field "$out/$e.json" frames_per_second)" 'BEGIN {print f / r}') "
    done
done
bytes=$(field "$out/gpu.json" bytes_written)
frames=$(field "$out/gpu.json" frames_baked)
mb=$(awk -v b="$bytes" 'BEGIN {printf "%d", b / 1048576 + 1}')
plain() { # MB/s of dd writing the bake's byte count, $1: extra dd options
    local t0 t1
    t0=$(date +%s.%N)
    dd if=/dev/zero of="$out/plain.bin" bs=1M count="$mb" $1 2> /dev/null
    t1=$(date +%s.%N)
    rm -f "$out/plain.bin"
    awk -v b="$mb" -v a="$t0" -v c="$t1" 'BEGIN {printf "%.1f", b * 1.048576 / (c - a)}'
}
cache=$(for r in $(seq 1 "$repeats"); do plain ""; echo; done | median)
sync_=$(for r in $(seq 1 "$repeats"); do plain conv=fdatasync; echo; done | median)
echo "manifest: $(basename "$manifest"): $frames frames, $(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1e6}') MB per bake; median of $repeats"
echo
echo "| engine | seconds | frames/s | MB/s written | share of plain write (page cache) | share of plain write (fdatasync) |"
echo "|---|---|---|---|---|---|"
for e in gpu cpu-fast; do
    s=$(echo ${secs[$e]} | tr ' ' '\n' | median)
    f=$(echo ${fps[$e]} | tr ' ' '\n' | median)
    m=$(echo ${mbs[$e]} | tr ' ' '\n' | median)
    printf "| %s | %.2f | %.0f | %.1f | %.2f | %.2f |\n" "$e" "$s" "$f" "$m" "$(awk -v a="$m" -v b="$cache" 'BEGIN {print a / b}')" \
        "$(awk -v a="$m" -v b="$sync_" 'BEGIN {print a / b}')"
done
echo "| plain write (dd, page cache) | | | $cache | 1 | |"
echo "| plain write (dd, fdatasync) | | | $sync_ | | 1 |"
