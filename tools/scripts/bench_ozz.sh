#!/usr/bin/env bash
# The fast CPU engine per core against ozz-animation's SkinningJob (issue 11's bar), measured
# by turns on this machine: tools/ozz/skinning_bench.cc built against an ozz-animation
# checkout (no network is needed: pass the folder), once for baseline x86-64 (ozz's SSE2 path)
# and once with -march=native (its AVX2+FMA path), then ROUNDS rounds of
#   ozz baseline, ozz native, vkskin bench --instances 100 --no-gpu (per-core figures)
# and each round's ratios vkskin baseline / ozz SSE2, vkskin AVX2 / ozz native and, where the
# CPU has it, vkskin AVX-512 / ozz native (the same -march=native build: ozz has no AVX-512 path
# of its own, and the compiler may use AVX-512 where it vectorises).
#   tools/scripts/bench_ozz.sh OZZ-CHECKOUT [VKSKIN] [ROUNDS]
# Both write every instance to its own output (the harness's "distinct"), as vkskin bench does.
# OZZ_MODE=partitioned gives ozz the bench character's vertices by influence count, one job per
# count as ozz's own meshes run them (the loop-for-loop ratio; the default gives ozz 4 live
# influences on every vertex, where the character's use 2.54); OZZ_MODE="partitioned cputime"
# times both in CPU time, which a loaded machine's preemptions do not inflate: ozz's harness
# and tools/ozz/fast_cputime.c (built here in VKSKIN's build folder), the medians of their runs.
set -euo pipefail
ozz=${1:?usage: bench_ozz.sh OZZ-CHECKOUT [VKSKIN] [ROUNDS]}
vkskin=${2:-build/vkskin}
rounds=${3:-5}
here=$(cd "$(dirname "$0")/../ozz" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
src=("$here/skinning_bench.cc" "$ozz/src/geometry/runtime/skinning_job.cc" "$ozz/src/base/maths/simd_math.cc"
     "$ozz/src/base/memory/allocator.cc" "$ozz/src/base/log.cc" "$ozz/src/base/platform.cc")
g++ -std=c++17 -O2 -DNDEBUG -Wno-ignored-attributes -I"$ozz/include" "${src[@]}" -o "$out/ozz_sse2" 2>/dev/null
g++ -std=c++17 -O2 -DNDEBUG -march=native -Wno-ignored-attributes -I"$ozz/include" "${src[@]}" -o "$out/ozz_native" 2>/dev/null
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo "ozz: $(git -C "$ozz" rev-parse --short HEAD 2>/dev/null || echo "$ozz")${OZZ_MODE:+, harness mode: $OZZ_MODE}"
echo "| round | ozz SSE2 | ozz native | vkskin baseline | vkskin AVX2 | vkskin AVX-512 | baseline / ozz SSE2 | AVX2 / ozz native | AVX-512 / ozz native |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
best() { "$1" distinct ${OZZ_MODE:-} | sed -n 's/^RESULT best \([0-9.]*\).*/\1/p'; }
cputime=
case " ${OZZ_MODE:-} " in *" cputime "*)
  cputime="$(dirname "$vkskin")/fast_cputime"
  cmake --build "$(dirname "$vkskin")" --target fast_cputime >/dev/null
  best() { "$1" distinct ${OZZ_MODE:-} | sed -n 's/^RESULT best [0-9.]* median \([0-9.]*\).*/\1/p'; } ;;
esac
# one kernel in CPU time (fast_cputime's median), or nothing where this CPU has no such kernel
fast() { "$cputime" "$1" 2>/dev/null | sed -n 's/^RESULT best [0-9.]* median \([0-9.]*\).*/\1/p'; }
for r in $(seq "$rounds"); do
  a=$(best "$out/ozz_sse2")
  b=$(best "$out/ozz_native")
  if [ -n "$cputime" ]; then
    vb=$(fast baseline) va=$(fast avx2) vz=$(fast avx512)
  else
    v=$("$vkskin" bench --instances 100 --no-gpu 2>&1)
    vb=$(echo "$v" | sed -n 's/.*1 core *\([0-9.]*\) M.*(baseline kernel).*/\1/p')
    va=$(echo "$v" | sed -n 's/.*1 core *\([0-9.]*\) M.*(avx2 kernel).*/\1/p')
    vz=$(echo "$v" | sed -n 's/.*1 core *\([0-9.]*\) M.*(avx512 kernel).*/\1/p')
  fi
  awk -v r="$r" -v a="$a" -v b="$b" -v vb="$vb" -v va="${va:-0}" -v vz="${vz:-0}" 'BEGIN {
    printf "| %d | %.1f | %.1f | %.1f | %.1f | %.1f | x%.2f | x%.2f | x%.2f |\n", r, a, b, vb, va, vz, vb / a,
           (va > 0 ? va / b : 0), (vz > 0 ? vz / b : 0) }'
done
