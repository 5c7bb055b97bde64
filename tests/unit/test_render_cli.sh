#!/bin/sh
# vkskin render end to end: a bundled character, 16 instances, with the validation layer on,
# must give a PNG of the requested size with something drawn on it; the default size is
# 640x360; several files make one sheet; an unwritable output fails before any work (5); a
# device that cannot draw is named as the cause.
# Exit 77 without a Vulkan device.
V="$1"
CHECK="$2"
D="$3"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail=0
"$V" render "$D/char_b24_pl8.dff" --instances 16 --out "$T/x.png" --validation 2>"$T/err.txt"
rc=$?
if [ $rc -eq 4 ]; then echo "skipped: no Vulkan device"; exit 77; fi
[ $rc -eq 0 ] || { echo "render: exit $rc"; cat "$T/err.txt"; fail=1; }
"$CHECK" "$T/x.png" 640 360 || fail=1

"$V" render "$D/char_b24_pl8.dff" "$D/char_b32_rigid.nif" --instances 3 --size 300x200 --out "$T/two.png" \
    --validation 2>"$T/err.txt" || { echo "render of two files failed"; cat "$T/err.txt"; fail=1; }
"$CHECK" "$T/two.png" 300 200 || fail=1

"$V" render "$D/char_b24_pl8.dff" --out "$T/missing/x.png" 2>/dev/null
rc=$?
[ $rc -eq 5 ] || { echo "render into a missing folder: exit $rc, expected 5"; fail=1; }
"$V" render "$D/char_b24_pl8.dff" --size 12 --out "$T/y.png" 2>/dev/null
rc=$?
[ $rc -eq 2 ] || { echo "render --size 12: exit $rc, expected 2"; fail=1; }
# a device whose queue families cannot draw (simulated on lavapipe: a compute-only family, as
# the H100's family 2): the cause on stderr, in one line, and no picture
VKSKIN_TEST_NO_GRAPHICS_QUEUE=1 "$V" render "$D/char_b24_pl8.dff" --out "$T/none.png" 2>"$T/err.txt"
rc=$?
[ $rc -eq 4 ] || { echo "render on a family without graphics: exit $rc, expected 4 (no device that can draw)"; fail=1; }
grep -q '^vkskin: render: ".*" has no queue family with graphics' "$T/err.txt" ||
    { echo "render on a family without graphics: the cause is not named"; cat "$T/err.txt"; fail=1; }
[ ! -e "$T/none.png" ] || { echo "render on a family without graphics wrote a picture"; fail=1; }
[ $fail -eq 0 ] && echo "render CLI: ok"
exit $fail
