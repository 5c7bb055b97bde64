#!/usr/bin/env bash
# The benchmark grid of BENCHMARKS.md: vkskin bench at 1k / 10k / 100k vertices x 1 / 64 / 1000
# instances, one process per point, printed as the Markdown tables recorded there (every engine,
# the GPU kernel's first run and steady state, the plain kernel's ratio, the fast CPU per core,
# the context's creation), then the end to end into a file against the disk at 10k x 1000.
#   tools/scripts/bench_grid.sh [VKSKIN] [OUT-DIR]     (needs jq; OUT-DIR gets the JSON of each run)
# Run it on an otherwise idle machine: the ratios are measured within each run, the absolute
# figures only mean something when nothing else shares the cores.
set -euo pipefail
vkskin=${1:-build/vkskin}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
command -v jq >/dev/null || { echo "bench_grid: needs jq (apt-get install jq)" >&2; exit 2; }

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo
echo "| vertices | instances | CPU reference | fast CPU (all cores) | fast CPU per core (baseline / AVX2) | GPU kernel, steady | GPU kernel, first run | plain kernel, steady | kernel / plain (min..max) | pose µs / instance | GPU end to end | context ms |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
m() { jq -r "$1" "$2"; }
for v in 1000 10000 100000; do
  for n in 1 64 1000; do
    f="$out/bench_${v}_${n}.json"
    "$vkskin" bench --json --vertices "$v" --instances "$n" --ref-instances 20 --repeats 5 >"$f"
    m '"| \(.vertices) | \(.instances) | \(.vertex_instances_per_second.cpu_reference / 1e6 * 10 | round / 10) M/s | \(.vertex_instances_per_second.cpu_fast / 1e6 * 10 | round / 10) M/s | \(.cpu_fast_per_core.baseline / 1e6 | round) / \((.cpu_fast_per_core.avx2 // 0) / 1e6 | round) M/s | \(.gpu.kernel.steady_vertex_instances_per_second / 1e6 * 10 | round / 10) M/s (\(.gpu.kernel.steady_ms * 100 | round / 100) ms) | \(.gpu.kernel.first_vertex_instances_per_second / 1e6 * 10 | round / 10) M/s (\(.gpu.kernel.first_wall_ms * 10 | round / 10) ms wall) | \(.gpu.plain_kernel.steady_vertex_instances_per_second / 1e6 * 10 | round / 10) M/s | x\(.gpu.kernel_over_plain.median * 100 | round / 100) (\(.gpu.kernel_over_plain.min * 100 | round / 100)..\(.gpu.kernel_over_plain.max * 100 | round / 100)) | \(.gpu.kernel.pose_us_per_instance * 10 | round / 10) | \(.gpu.end_to_end.steady_vertex_instances_per_second / 1e6 * 10 | round / 10) M/s | \(.gpu.context_ms | round) |"' "$f"
  done
done

f="$out/bench_e2e.json"
file="$out/end_to_end.raw"
"$vkskin" bench --json --vertices 10000 --instances 1000 --ref-instances 20 --repeats 5 --end-to-end "$file" >"$f"
rm -f "$file"
echo
echo "| to a file, $(m '"\(.vertices) vertices x \(.instances) instances"' "$f") (raw, $(m '.gpu.end_to_end_file.bytes / 1e6 | round' "$f") MB) | M vertex-instances/s | ms |"
echo "|---|---:|---:|"
m '"| GPU kernel, steady (its own step) | \(.gpu.kernel.steady_vertex_instances_per_second / 1e6 * 10 | round / 10) | \(.gpu.kernel.steady_ms | round) |"' "$f"
m '"| GPU kernel, in the rounds | \(.gpu.end_to_end_file.kernel_vertex_instances_per_second / 1e6 * 10 | round / 10) | \(.gpu.end_to_end_file.kernel_ms | round) |"' "$f"
m '"| deform path (complete, renamed into place) | \(.gpu.end_to_end_file.deform_vertex_instances_per_second / 1e6 * 10 | round / 10) | \(.gpu.end_to_end_file.deform_ms | round) (engine \(.gpu.end_to_end_file.engine_ms | round)) |"' "$f"
m '"| deform path + fdatasync | \(.gpu.end_to_end_file.durable_deform_vertex_instances_per_second / 1e6 * 10 | round / 10) | \(.gpu.end_to_end_file.deform_ms + .gpu.end_to_end_file.fdatasync_ms | round) |"' "$f"
m '"| plain write + fdatasync (the disk) | \(.gpu.end_to_end_file.plain_write_vertex_instances_per_second / 1e6 * 10 | round / 10) | \(.gpu.end_to_end_file.plain_write_ms | round) |"' "$f"
m '"| **deform / min(kernel, disk)**, medians of \(.gpu.end_to_end_file.runs) rounds | x\(.gpu.end_to_end_file.deform_over_slower_of_kernel_and_disk * 100 | round / 100) (rounds \(.gpu.end_to_end_file.deform_over_slower_min * 100 | round / 100)..\(.gpu.end_to_end_file.deform_over_slower_max * 100 | round / 100); with fdatasync x\(.gpu.end_to_end_file.durable_deform_over_slower_of_kernel_and_disk * 100 | round / 100)) | |"' "$f"
