#!/bin/sh
# vkskin bench's GPU engines on a small workload with the validation layer on (any message
# fails): the project's and the plain kernel (their ratio), first run apart from the steady
# state (which makes no buffer), the end to end, and --end-to-end OUT, which must leave OUT
# holding the raw deform output (instances x file vertices x 24 bytes) and no temporary, after
# one round per repeat of kernel, plain write and deform path.
# Exit 77 without a Vulkan device.
V="$1"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
"$V" bench --instances 6 --vertices 600 --bones 24 --repeats 2 --validation --json --end-to-end "$T/out.raw" \
    >"$T/b.json" 2>"$T/b.err"
rc=$?
if [ $rc -eq 4 ]; then echo "skipped: no Vulkan device"; exit 77; fi
[ $rc -eq 0 ] || { echo "bench: exit $rc"; cat "$T/b.err"; exit 1; }
fail=0
if grep -q "validation" "$T/b.err"; then echo "validation-layer messages:"; cat "$T/b.err"; fail=1; fi
# a number of the JSON report by key (the first one of that name)
num() { sed -n "s/.*\"$1\":[[:space:]]*\([-0-9.e+]*\).*/\1/p" "$T/b.json" | head -1; }
positive() { awk -v x="$1" 'BEGIN { exit !(x + 0 > 0) }'; }
[ "$(grep -c '"steady_buffers_made":[[:space:]]*0,\{0,1\}$' "$T/b.json")" -eq 3 ] ||
    { echo "a steady run made buffers"; fail=1; }
positive "$(num first_buffers_made)" || { echo "the first run made no buffer"; fail=1; }
positive "$(num gpu_kernel_over_plain_kernel)" || { echo "no kernel / plain ratio"; fail=1; }
for k in steady_ms first_ms plain_write_ms kernel_ms first_deform_ms deform_over_slower_of_kernel_and_disk \
    deform_over_slower_min deform_over_slower_max; do
    positive "$(num $k)" || { echo "no $k"; fail=1; }
done
[ "$(num runs)" = 2 ] || { echo "--end-to-end ran $(num runs) rounds, not --repeats 2"; fail=1; }
bytes=$(num bytes)
size=$(wc -c <"$T/out.raw")
[ "$size" -eq "$bytes" ] && [ $((size % (6 * 24))) -eq 0 ] ||
    { echo "the raw output holds $size bytes, the report says $bytes"; fail=1; }
[ "$(ls "$T" | grep -c tmp)" -eq 0 ] || { echo "a temporary was left beside the output"; ls "$T"; fail=1; }
# the device's own ceilings, measured in the same run, and the deform pass as a fraction of fill
for k in fill_bytes_per_second copy_bytes_per_second device_to_host_bytes_per_second deform_over_fill pipeline_ms; do
    positive "$(num $k)" || { echo "no $k"; fail=1; }
done
grep -q '"readback_over_device_to_host"' "$T/b.json" || { echo "no readback fraction (or its null)"; fail=1; }
# which queue the stream's readback copies go to, beside the queue the context submits to
python3 - "$T/b.json" <<'PY' || { echo "no readback_queue (family, queue)"; fail=1; }
import json, sys
b = json.load(open(sys.argv[1]))
assert isinstance(b["readback_queue"]["family"], int) and b["readback_queue"]["queue"] >= 0, b.get("readback_queue")
PY
# the end to end: every output consumed in place on the bench's threads (issue 41), and what
# share of the device-to-host ceiling that is
python3 - "$T/b.json" <<'PY' || { echo "the end to end does not say its consuming threads and its d2h fraction"; fail=1; }
import json, sys
b = json.load(open(sys.argv[1]))
g = b["gpu"]
assert g["end_to_end"]["consumer_threads"] >= 1, g["end_to_end"]
assert g["fractions"]["end_to_end_over_device_to_host"] > 0, g["fractions"]
PY
grep -q '"launch_shape"' "$T/b.json" && grep -Eq '"source":[[:space:]]*"(table|cache)"' "$T/b.json" ||
    { echo "the JSON does not say which launch shape ran and why"; fail=1; }
# A forced launch shape is the one that runs, and says so; one the device cannot run is a
# usage error naming the problem, before any work.
"$V" bench --instances 2 --vertices 300 --bones 24 --repeats 1 --launch-shape wg=128,run=4,palette=on --validation \
    >"$T/f.out" 2>"$T/f.err" || { echo "bench with a forced shape failed"; cat "$T/f.err"; fail=1; }
grep -q "launch shape    wg=128,pose_wg=[0-9]*,run=4,palette=[0-9]*,texels=o[nf]*,pose=[a-z]*\(,zeros=skip\)\{0,1\}\(,slices=[0-9]*\(,slice_min=[0-9]*\)\{0,1\}\)\{0,1\} (forced" "$T/f.out" ||
    { echo "the forced shape is not the one reported:"; grep "launch shape" "$T/f.out"; fail=1; }
if grep -q "validation" "$T/f.err"; then echo "validation-layer messages:"; cat "$T/f.err"; fail=1; fi
VKSKIN_LAUNCH_SHAPE=wg=3 "$V" bench --instances 2 --vertices 300 --bones 24 --repeats 1 >"$T/x.out" 2>"$T/x.err"
rc=$?
[ $rc -eq 2 ] && grep -q "launch shape: 'wg=3'" "$T/x.err" ||
    { echo "VKSKIN_LAUNCH_SHAPE=wg=3: exit $rc"; cat "$T/x.err"; fail=1; }
[ $fail -eq 0 ] || cat "$T/b.json"
exit $fail
