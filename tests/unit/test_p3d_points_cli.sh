#!/bin/sh
# vkskin deform on the synthetic P3D tube (issue 9, point 14): the CSV's vertex column is the
# point index, so every frame of every instance has one row per point of the visual LOD (58),
# numbered 0..57 in order, not one per face corner (83). Also a model.cfg error names the
# config file and its line. Exit 77 without the real samples.
V="$1"
R="${VKSKIN_REAL_DATASETS:-}"
TUBE="$R/p3d/synthetic_skinned_tube.p3d"
[ -n "$R" ] && [ -f "$TUBE" ] || { echo "skipped: no real datasets"; exit 77; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail=0

"$V" deform "$TUBE" --cpu --procedural --instances 2 --frames 3 --out "$T/tube.csv" 2>"$T/err.txt" ||
    { echo "deform failed"; cat "$T/err.txt"; exit 1; }
# rows per (instance, frame), and the vertex column running 0..57 within each
awk -F, 'NR > 1 {
        key = $1 "," $2
        if ($4 != count[key]) { print "frame " key ": vertex " $4 " where " count[key] " was due"; bad = 1 }
        count[key]++
    }
    END {
        frames = 0
        for (k in count) { frames++; if (count[k] != 58) { print "frame " k ": " count[k] " rows, expected 58"; bad = 1 } }
        if (frames != 6) { print frames " frames, expected 6"; bad = 1 }
        exit bad
    }' "$T/tube.csv" || fail=1

# a syntax error on line 4 of the config is reported against the config, with its line
sed '4s/{/{ {/' "$R/p3d/synthetic_skinned_tube.model.cfg" >"$T/broken.model.cfg"
"$V" inspect "$TUBE" --model-cfg "$T/broken.model.cfg" >/dev/null 2>"$T/err.txt"
rc=$?
[ $rc -eq 1 ] || { echo "inspect with a broken model.cfg: exit $rc, expected 1"; fail=1; }
grep -q "broken.model.cfg:4: CfgSkeletons/Default: entry name expected" "$T/err.txt" ||
    { echo "the error does not name the config and its line:"; cat "$T/err.txt"; fail=1; }
grep -q "synthetic_skinned_tube.p3d:0x" "$T/err.txt" &&
    { echo "the error gives an offset into the model:"; cat "$T/err.txt"; fail=1; }

[ $fail -eq 0 ] && echo "test_p3d_points_cli: all checks passed"
exit $fail
