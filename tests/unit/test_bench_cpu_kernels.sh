#!/bin/sh
# vkskin bench --no-gpu: a per-core line for each fast kernel this CPU runs (baseline always;
# avx2 and avx512 where /proc/cpuinfo lists their features), the widest chosen by itself, and
# VKSKIN_CPU_PATH=baseline / =avx2 forcing that lower kernel for the whole run. Exit 77 where
# /proc/cpuinfo lists no flags (the expected kernels are not known).
V="$1"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
[ -n "$flags" ] || { echo "skipped: no CPU flags in /proc/cpuinfo (not Linux on x86)"; exit 77; }
has() { for f in "$@"; do echo " $flags " | grep -q " $f " || return 1; done; }
kernels=baseline
has avx2 fma && kernels="$kernels avx2"
has avx2 fma avx512f avx512vl avx512dq avx512bw && kernels="$kernels avx512"
widest=${kernels##* }
bench() { "$@" bench --instances 4 --vertices 600 --bones 24 --no-gpu >"$T/out" 2>&1 || { cat "$T/out"; exit 1; }; }
fail=0
bench "$V"
for k in $kernels; do
    grep -q "1 core.*($k kernel)" "$T/out" || { echo "no per-core line for the $k kernel"; fail=1; }
done
grep -q "($widest kernel, " "$T/out" || { echo "the automatic kernel is not $widest:"; cat "$T/out"; fail=1; }
for k in $kernels; do
    [ "$k" = "$widest" ] && continue
    bench env VKSKIN_CPU_PATH="$k" "$V"
    grep -q "($k kernel, " "$T/out" || { echo "VKSKIN_CPU_PATH=$k did not force it:"; cat "$T/out"; fail=1; }
done
exit $fail
