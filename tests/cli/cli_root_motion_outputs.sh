#!/usr/bin/env bash
# A crowd's root-motion CSVs under the rules of every output (issue 37; docs/safety.md), as a
# user runs vkskin deform --crowd: one that another model's vertex output would be written to
# is refused before any work (exit 2); one that cannot be written (read-only, a folder in the
# way) is refused before the crowd is deformed (exit 5), nothing written; --out - refuses to
# drop the root motion (exit 2) unless --root-motion PATH says where it goes; --out to a
# character device (a user discarding the vertices) writes no "<device>.root_motion.csv"
# beside it and says so; --root-motion is checked like --out (its folder, another output's
# name). Uses the project's own datasets only, on the CPU reference.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"
m=$src/datasets/char_b24_pl8.dff
cp "$m" a.dff
cp "$m.walk.anm" a.dff.walk.anm
layered='"layers": [{"clip": "a.dff.walk.anm"}], "root_motion": "y"'
echo '{"instances": [{"model": "a.dff", '"$layered"'}]}' > one.json
echo '{"instances": [{"model": "a.dff", "clip": "a.dff.walk.anm"}]}' > plain.json
"$vk" deform --crowd one.json --cpu --frames 2 --out ref.csv 2> ref.err; rc=$?
check "a crowd with root motion writes it beside the output (exit $rc)" "[ $rc -eq 0 ] && [ -s ref.csv.root_motion.csv ]"

# 1. a model's vertex output named like another model's root-motion CSV: refused before any work
mkdir b out
cp "$m" b/a.dff.csv.root_motion # a DFF, found by its bytes; its output is out/a.dff.csv.root_motion.csv
echo '{"instances": [{"model": "a.dff", '"$layered"'}, {"model": "b/a.dff.csv.root_motion", "clip": "a.dff.walk.anm"}]}' > two.json
"$vk" deform --crowd two.json --cpu --frames 2 --out out 2> share.err; rc=$?
check "a vertex output on another model's root-motion CSV exits 2 (exit $rc: $(head -c 300 share.err))" "[ $rc -eq 2 ]"
check "the message names both and the shared name" \
  "grep -q 'root-motion CSV of a.dff' share.err && grep -q 'vertex output of b/a.dff.csv.root_motion' share.err &&
   grep -q 'would both be written to out/a.dff.csv.root_motion.csv' share.err"
check "nothing was written" "[ -z \"\$(ls out)\" ]"

# 2. a root-motion CSV that cannot be written: refused before the crowd is deformed
echo keep > ro.csv.root_motion.csv
chmod 0444 ro.csv.root_motion.csv
"$vk" deform --crowd one.json --cpu --frames 2 --out ro.csv 2> ro.err; rc=$?
check "a read-only root-motion CSV exits 5 before any work (exit $rc)" \
  "[ $rc -eq 5 ] && [ ! -e ro.csv ] && grep -q 'ro.csv.root_motion.csv: is read-only' ro.err && ! grep -q deformed ro.err"
check "the read-only CSV is kept" "[ \"\$(cat ro.csv.root_motion.csv)\" = keep ]"
mkdir dir.csv.root_motion.csv
"$vk" deform --crowd one.json --cpu --frames 2 --out dir.csv 2> dir.err; rc=$?
check "a folder at the root-motion CSV's name exits 5 before any work (exit $rc)" \
  "[ $rc -eq 5 ] && [ ! -e dir.csv ] && grep -q 'dir.csv.root_motion.csv: is a folder' dir.err"

# 3. --out - : the root motion is not dropped silently
"$vk" deform --crowd one.json --cpu --frames 2 --out - > stdout.csv 2> dash.err; rc=$?
check "--out - with root motion and no --root-motion exits 2 (exit $rc)" "[ $rc -eq 2 ] && [ ! -s stdout.csv ]"
check "the message names --root-motion" "grep -q -- '--root-motion' dash.err"
"$vk" deform --crowd one.json --cpu --frames 2 --out - --root-motion named.csv > stdout.csv 2> named.err; rc=$?
check "--out - --root-motion PATH writes both (exit $rc: $(head -c 300 named.err))" \
  "[ $rc -eq 0 ] && cmp -s stdout.csv ref.csv && cmp -s named.csv ref.csv.root_motion.csv"
"$vk" deform --crowd plain.json --cpu --frames 2 --out - > plain.csv 2> plain.err; rc=$?
check "--out - without root motion in the crowd runs as before (exit $rc)" "[ $rc -eq 0 ] && [ -s plain.csv ]"

# 4. a character device: no side file beside it, and a note
if [ "$(id -u)" -eq 0 ] && mknod nulldev c 1 3 2>/dev/null; then
  "$vk" deform --crowd one.json --cpu --frames 2 --out nulldev 2> dev.err; rc=$?
  check "--out a device node exits 0 (exit $rc: $(head -c 300 dev.err))" "[ $rc -eq 0 ] && [ -c nulldev ]"
  check "no root-motion file beside a device" "[ ! -e nulldev.root_motion.csv ]"
  check "the note says the root motion is not written" "grep -q 'root motion is not written' dev.err"
else
  echo "not root (or no mknod): the private device node case skipped"
fi
if [ ! -e /dev/null.root_motion.csv ]; then
  "$vk" deform --crowd one.json --cpu --frames 2 --out /dev/null 2> null.err; rc=$?
  made=0; [ -e /dev/null.root_motion.csv ] && made=1 && rm -f /dev/null.root_motion.csv
  check "--out /dev/null exits 0 and makes no /dev/null.root_motion.csv (exit $rc)" "[ $rc -eq 0 ] && [ $made -eq 0 ]"
fi
"$vk" deform --crowd one.json --cpu --frames 2 --out /dev/null --root-motion kept.csv 2> kept.err; rc=$?
check "--out /dev/null --root-motion PATH keeps the root motion (exit $rc)" "[ $rc -eq 0 ] && cmp -s kept.csv ref.csv.root_motion.csv"

# 5. --root-motion is an output like --out
"$vk" deform --crowd one.json --cpu --frames 2 --out same.csv --root-motion same.csv 2> same.err; rc=$?
check "--root-motion the same file as --out exits 2 (exit $rc)" "[ $rc -eq 2 ] && grep -q 'would both be written to same.csv' same.err && [ ! -e same.csv ]"
"$vk" deform --crowd one.json --cpu --frames 2 --out x.csv --root-motion nowhere/rm.csv 2> nowhere.err; rc=$?
check "--root-motion into a missing folder exits 5 before any work (exit $rc)" \
  "[ $rc -eq 5 ] && [ ! -e x.csv ] && grep -q 'nowhere/rm.csv: the folder nowhere does not exist' nowhere.err"
"$vk" deform --crowd two.json --cpu --frames 2 --out out --root-motion rm.csv 2> many.err; rc=$?
check "--root-motion with several models exits 2 (exit $rc)" "[ $rc -eq 2 ] && [ -z \"\$(ls out)\" ]"
"$vk" deform --crowd one.json --cpu --frames 2 --out x.csv --root-motion one.json 2> input.err; rc=$?
check "--root-motion on the crowd file exits 2 (exit $rc)" "[ $rc -eq 2 ] && grep -q 'one of the inputs' input.err"
exit $fail
