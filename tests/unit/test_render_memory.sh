#!/bin/sh
# vkskin render's memory does not grow with --instances: a sheet is drawn a part at a time
# (cmd_render.c), so 8000 instances of a bundled character peak at about the resident size of
# 2000 (a part is at most 32 MiB of deformed vertices). Drawn at once, the 6000 more instances'
# outputs alone are 6000 x 1562 vertices x 24 bytes = 225 MB; the test allows a growth of half
# of that for what the driver keeps (lavapipe's bins). Exit 77 without a Vulkan device.
V="$1"
RSS="$2"
D="$3"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail=0
for n in 2000 8000; do
    "$RSS" "$V" render "$D/char_b24_pl8.dff" --instances $n --size 64x64 --out "$T/$n.png" >"$T/$n.kb" 2>"$T/err.txt"
    rc=$?
    if [ $rc -eq 4 ]; then echo "skipped: no Vulkan device"; exit 77; fi
    [ $rc -eq 0 ] || { echo "render --instances $n: exit $rc"; cat "$T/err.txt"; exit 1; }
done
small=$(cat "$T/2000.kb") large=$(cat "$T/8000.kb")
growth=$((large - small))
echo "peak resident: $small KiB at 2000 instances, $large KiB at 8000 (growth $growth KiB)"
[ $growth -lt 110000 ] || { echo "FAIL: render's memory grows with the instance count"; fail=1; }
[ $fail -eq 0 ] && echo "render memory: ok"
exit $fail
