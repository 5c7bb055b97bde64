#!/bin/sh
# vkskin render end to end: a bundled character, 16 instances, with the validation layer on,
# must give a PNG of the requested size with something drawn on it; the default size is
# 640x360; several files make one sheet; an unwritable output fails before any work (5).
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
[ $fail -eq 0 ] && echo "render CLI: ok"
exit $fail
