#!/usr/bin/env bash
# examples/bench_host (a host measuring the engines through bench.h alone) against the CLI: the
# library's report and `vkskin bench --json` for the same model and sizes have the same keys in
# the same order (times differ run to run; the figures do not) and the same workload: vertices,
# bones, instances, reference instances, device, launch shape, chunks, the fast kernel and its
# per-core kernels. The same on the CPU engines alone (--no-gpu). The comparison is shown to
# fail on a report with other keys (bench --end-to-end's). The text it prints (the library's,
# vks_bench_write_text) is `vkskin bench`'s line for line, the figures aside. Exit 77 when there
# is no Vulkan device.
set -u
example=$1
vk=$2
data=$3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model="$data/char_b24_pl8.dff"
"$example" "$tmp/lib.json" "$model" --instances 12 --repeats 2 > "$tmp/lib.txt" 2> "$tmp/lib.err"
rc=$?
cat "$tmp/lib.txt" "$tmp/lib.err"
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || { echo "FAIL: bench_host exited $rc"; fail=1; }
"$vk" bench "$model" --instances 12 --repeats 2 --json > "$tmp/cli.json" || { echo "FAIL: vkskin bench exited $?"; fail=1; }
"$vk" bench "$model" --instances 12 --repeats 2 > "$tmp/cli.txt" || { echo "FAIL: vkskin bench (text) exited $?"; fail=1; }
# the lines with their figures (and the padding that follows their widths) taken out
words() { sed -E 's/[0-9]+(\.[0-9]+)?//g; s/ +/ /g' "$1"; }
if ! diff <(words "$tmp/cli.txt") <(words "$tmp/lib.txt" | sed '$d'); then
    echo "FAIL: bench_host's text is not vkskin bench's"; fail=1
fi
"$example" "$tmp/libc.json" "$model" --instances 12 --no-gpu > /dev/null || { echo "FAIL: bench_host --no-gpu exited $?"; fail=1; }
"$vk" bench "$model" --instances 12 --no-gpu --json > "$tmp/clic.json" || { echo "FAIL: vkskin bench --no-gpu exited $?"; fail=1; }
"$vk" bench "$model" --instances 12 --repeats 1 --json --end-to-end "$tmp/e2e.raw" > "$tmp/e2e.json" ||
    { echo "FAIL: vkskin bench --end-to-end exited $?"; fail=1; }
python3 - "$tmp/lib.json" "$tmp/cli.json" "$tmp/libc.json" "$tmp/clic.json" "$tmp/e2e.json" <<'PY' || fail=1
import json, sys
lib, cli, libc, clic, e2e = (json.load(open(p)) for p in sys.argv[1:6])
def keys(o, p=""):
    out = []
    if isinstance(o, dict):
        for k, v in o.items():
            out += [p + "/" + k] + keys(v, p + "/" + k)
    return out
def same(a, b, name):
    why = []
    ka, kb = keys(a), keys(b)
    if ka != kb:
        why.append("keys differ: " + ", ".join(sorted(set(ka) ^ set(kb))[:8]) or "their order differs")
    for k in ("device", "device_type", "vertices", "bones", "groups", "instances", "reference_instances",
              "cpu_threads", "cpu_fast_kernel", "gpu_chunks"):
        if a.get(k) != b.get(k):
            why.append(f"{k}: {a.get(k)!r} against {b.get(k)!r}")
    if sorted(a.get("cpu_fast_per_core", {})) != sorted(b.get("cpu_fast_per_core", {})):
        why.append("the per-core kernels differ")
    ga, gb = a.get("gpu", {}), b.get("gpu", {})
    for k in ("repeats",):
        if ga.get(k) != gb.get(k):
            why.append(f"gpu/{k}: {ga.get(k)!r} against {gb.get(k)!r}")
    if ga.get("launch_shape", {}).get("shape") != gb.get("launch_shape", {}).get("shape"):
        why.append("the launch shapes differ")
    for w in why:
        print(f"{name}: {w}")
    return not why
ok = same(lib, cli, "GPU")
ok = same(libc, clic, "CPU only") and ok
if lib.get("vertex_instances_per_second", {}).get("gpu_kernel", 0) <= 0:
    print("GPU: no kernel rate"); ok = False
if "gpu" in libc:
    print("CPU only: a gpu section"); ok = False
if same(lib, e2e, "against --end-to-end (must differ)"):
    print("the comparison does not see a report with other keys"); ok = False
print("the library's report and vkskin bench --json agree" if ok else "MISMATCH")
sys.exit(0 if ok else 1)
PY
exit $fail
