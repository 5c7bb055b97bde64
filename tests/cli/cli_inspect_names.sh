#!/usr/bin/env bash
# Names from a file are data, not terminal commands or report lines (issue 37): vkskin inspect
# printed them raw, so a node name holding a newline forged a line of the report and an escape
# sequence reached the terminal. A DFF node name and an IFP clip's name and track name are
# replaced in place (same length) by bytes with a newline, an ESC sequence and a byte that is
# not UTF-8: the text output shows them escaped (\n, \x1b, \xff) on their own line, nothing
# forged, no control byte and no invalid UTF-8 out; inspect --json stays valid UTF-8 JSON (cJSON
# escapes the controls; a byte that is not UTF-8 becomes U+FFFD) with the name's other
# characters kept; the notes and errors of a run that name clips and tracks escape them too.
# Uses the project's own datasets.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"
python3 - "$src/datasets" <<'EOF'
import sys
d = sys.argv[1]
def patch(src, dst, pairs):
    b = open(src, 'rb').read()
    for old, new in pairs:
        assert len(old) == len(new) and b.count(old) >= 1, (old, new)
        b = b.replace(old, new, 1)
    open(dst, 'wb').write(b)
patch(d + '/char_b24_pl8.dff', 'a.dff', [(b'upperarm_twist_01_l', b'\nvkskin: forged\x1b[J\xff')])
patch(d + '/char_b24_pl8.dff.ifp', 'a.ifp', [(b'walk', b'w\nk\x07'), (b'spine_01', b'\x1b]0;t\x07\x9b1')])
patch(d + '/char_b24_pl8.nif.walk.kf', 'a.kf', [(b'spine_01', b'\x1b]0;t\x07\x9b1')]) # bound by name
EOF
clean() { # no forged line, no control byte but the newlines, valid UTF-8
  ! grep -q '^vkskin: forged' "$1" && ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1" &&
    iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1
}
"$vk" inspect a.dff --allow-bind-mismatch > dff.txt 2> dff.err; rc=$?
check "inspect of the DFF runs (exit $rc: $(head -c 200 dff.err))" "[ $rc -eq 0 ]"
check "the DFF's report has no forged line, no control byte, no invalid UTF-8" "clean dff.txt"
check "the node name is shown escaped" "grep -qF '[23] \\nvkskin: forged\\x1b[J\\xff' dff.txt"
check "the palette shows it escaped too" "grep -qF ':\\nvkskin: forged\\x1b[J\\xff' dff.txt"
"$vk" inspect a.dff --allow-bind-mismatch --json > dff.json 2> dff.err; rc=$?
check "inspect --json of the DFF is valid UTF-8 JSON holding the name (exit $rc)" "[ $rc -eq 0 ] && python3 -c '
import json, sys
j = json.loads(open(\"dff.json\", \"rb\").read().decode(\"utf-8\"))
names = json.dumps(j)
assert \"\\\\nvkskin: forged\\\\u001b[J\\\\ufffd\" in names, names[:2000]
'"
"$vk" inspect a.ifp > ifp.txt 2> ifp.err; rc=$?
check "inspect of the IFP runs (exit $rc: $(head -c 200 ifp.err))" "[ $rc -eq 0 ]"
check "the IFP's report is clean" "clean ifp.txt"
check "the clip's name is shown escaped" "grep -qF 'clip 0 \"w\\nk\\x07\"' ifp.txt"
check "the track's name is shown escaped" "grep -qF 'track 1 \"\\x1b]0;t\\x07\\x9b1\"' ifp.txt"
# the same names in the notes and errors of a run (stderr): a track that drives no node, the
# clips a file holds when the one asked for is not there
cp "$src/datasets/char_b24_pl8.dff" b.dff
"$vk" deform "$src/datasets/char_b24_pl8.nif" --cpu --clip a.kf --out x.csv 2> note.err; rc=$?
check "deform with the patched clip runs (exit $rc: $(head -c 300 note.err))" "[ $rc -eq 0 ]"
check "the unmatched track's note is clean and shows the name escaped" \
  "clean note.err && grep -qF '\"\x1b]0;t\x07\x9b1\"' note.err"
"$vk" deform b.dff --cpu --clip a.ifp#nosuch --out x.csv 2> list.err; rc=$?
check "a missing clip's error lists the clips escaped (exit $rc)" \
  "[ $rc -ne 0 ] && clean list.err && grep -qF '\"w\nk\x07\"' list.err"
exit $fail
