#!/usr/bin/env bash
# Outputs that destroy nothing and inputs read within limits (docs/safety.md), as a user runs
# vkskin deform: special files streamed into, symlinks followed, inputs never overwritten, no
# two inputs written to one name, what can be checked refused before any work, temporaries
# removed on SIGINT/SIGTERM and swept after kill -9, read-only files kept, inputs bounded.
# Uses the project's own datasets only, so it runs everywhere.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
no_temps() { [ -z "$(find "$tmp" -name '*.tmp.*' 2>/dev/null)" ]; }
cd "$tmp"
cp "$src/datasets/char_b24_pl8.dff" a.dff
cp "$src/datasets/char_b24_pl8.nif" a.nif
cp "$src/datasets/char_b24_pl8.p3d" m.p3d
cp "$src/datasets/char_b24_pl8.model.cfg" m.model.cfg
csv_bytes=$("$vk" deform a.dff --cpu --out - 2>/dev/null | wc -c)
check "deform to - streams a CSV to stdout" "[ $csv_bytes -gt 1000 ]"

# 1. special files: written directly, never replaced
mkfifo fifo
timeout 60 cat fifo > from_fifo & reader=$!
"$vk" deform a.dff --cpu --out fifo 2>/dev/null; rc=$?
[ -p fifo ] || kill $reader 2>/dev/null # a FIFO replaced by a file would leave the reader waiting
wait $reader
check "deform into a FIFO exits 0" "[ $rc -eq 0 ]"
check "the FIFO is still a FIFO" "[ -p fifo ]"
check "the FIFO's reader got the CSV" "[ \$(wc -c < from_fifo) -eq $csv_bytes ]"
# As root, private device nodes: a regression must not replace the system's /dev/null or
# /dev/full (other users cannot replace those, so they use them).
full=/dev/full
if [ "$(id -u)" -eq 0 ] && mknod nulldev c 1 3 2>/dev/null && mknod fulldev c 1 7 2>/dev/null; then
  full=fulldev
  "$vk" deform a.dff --cpu --out nulldev 2>/dev/null; rc=$?
  check "deform into a character device exits 0" "[ $rc -eq 0 ]"
  check "the device node is still a character device" "[ -c nulldev ]"
else
  echo "not root (or no mknod): private device node case skipped"
fi
"$vk" deform a.dff --cpu --out $full 2> err; rc=$?
check "a write failure exits 5" "[ $rc -eq 5 ]"
check "a write failure says why (errno of the failing call)" "grep -q 'No space left on device' err"
check "the full device is still a device" "[ -c $full ]"
# raw frames go through the output's writer thread (vks_output_reserve): its failures too
"$vk" deform a.dff --cpu-fast --instances 400 --format raw --out $full 2> err; rc=$?
check "a failure in the output's writer thread exits 5" "[ $rc -eq 5 ] && grep -q 'No space left on device' err"
# a reader that goes away: the process ends of SIGPIPE as a Unix filter does (exit 128 + 13),
# quietly; where SIGPIPE is ignored, the write's EPIPE is a write failure (exit 5)
"$vk" deform a.dff --cpu-fast --instances 400 --format raw --out - 2> err | head -c 100 > /dev/null
rc=${PIPESTATUS[0]}
check "a closed pipe ends the process by SIGPIPE, quietly" "[ $rc -eq 141 ] && [ ! -s err ]"
(trap '' PIPE; "$vk" deform a.dff --cpu-fast --instances 400 --format raw --out - 2> err | head -c 100 > /dev/null
 exit "${PIPESTATUS[0]}"); rc=$?
check "with SIGPIPE ignored, a closed pipe exits 5 naming EPIPE" "[ $rc -eq 5 ] && grep -q 'Broken pipe' err"
echo old > real.csv
ln -s real.csv link.csv
ln -s sub/new.csv dangling.csv; mkdir sub
"$vk" deform a.dff --cpu --out link.csv 2>/dev/null; rc=$?
check "deform through a symlink exits 0" "[ $rc -eq 0 ] && [ -L link.csv ]"
check "the symlink's target holds the output" "[ \$(wc -c < real.csv) -eq $csv_bytes ]"
"$vk" deform a.dff --cpu --out dangling.csv 2>/dev/null
check "a dangling symlink's target is created" "[ -L dangling.csv ] && [ \$(wc -c < sub/new.csv) -eq $csv_bytes ]"
echo 'keep' > kept.csv; chmod 640 kept.csv
"$vk" deform a.dff --cpu --out kept.csv 2>/dev/null
check "a replaced file keeps its permission bits" "[ \$(stat -c %a kept.csv) = 640 ]"

# 2. an output equal to an input is refused before any work
cp a.dff a.orig
"$vk" deform a.dff --cpu --format raw --out a.dff 2> err; rc=$?
check "output = input exits 2" "[ $rc -eq 2 ] && grep -q 'refusing to overwrite' err"
check "the input is untouched" "cmp -s a.dff a.orig"
ln -s a.dff alias.raw
"$vk" deform a.dff --cpu --out alias.raw 2>/dev/null; rc=$?
check "output = input through a symlink exits 2" "[ $rc -eq 2 ] && cmp -s a.dff a.orig"
echo '{"nodes": []}' > p.json; cp p.json p.orig
"$vk" deform a.dff --cpu --pose p.json --out p.json 2>/dev/null; rc=$?
check "output = pose file exits 2" "[ $rc -eq 2 ] && cmp -s p.json p.orig"
cp m.model.cfg cfg.orig
"$vk" deform m.p3d --cpu --out m.model.cfg 2>/dev/null; rc=$?
check "output = the model's model.cfg exits 2" "[ $rc -eq 2 ] && cmp -s m.model.cfg cfg.orig"
"$vk" deform m.p3d --cpu --model-cfg m.model.cfg --format raw --out ./m.model.cfg 2>/dev/null; rc=$?
check "output = --model-cfg exits 2" "[ $rc -eq 2 ] && cmp -s m.model.cfg cfg.orig"

# 3. several inputs: names that keep the input's extension, collisions refused up front
mkdir out x y; cp a.dff x/; cp a.dff y/
"$vk" deform a.dff a.nif --cpu --out out 2>/dev/null; rc=$?
check "a.dff and a.nif into a folder exit 0" "[ $rc -eq 0 ]"
check "both outputs exist under their own names" "[ -s out/a.dff.csv ] && [ -s out/a.nif.csv ]"
"$vk" deform x/a.dff y/a.dff --cpu --out out --format raw 2> err; rc=$?
check "two inputs with one file name exit 2" "[ $rc -eq 2 ] && grep -q 'would both be written' err"
check "nothing written for a refused collision" "[ ! -e out/a.dff.raw ]"
"$vk" deform a.dff a.dff --cpu --out out --format pc2 2>/dev/null; rc=$?
check "one input given twice exits 2" "[ $rc -eq 2 ] && [ ! -e out/a.dff.pc2 ]"
"$vk" deform a.dff a.nif --cpu --out nofolder 2>/dev/null; rc=$?
check "several inputs into a missing folder exit 5" "[ $rc -eq 5 ]"

# 4. what can be checked is refused at once, with exit 5 and nothing left behind
"$vk" deform a.dff --cpu --out out 2> err; rc=$?
check "--out naming a folder with one input exits 5" "[ $rc -eq 5 ] && grep -q 'is a folder' err"
"$vk" deform a.dff --cpu --out missing/x.csv 2> err; rc=$?
check "a folder that does not exist exits 5" "[ $rc -eq 5 ] && grep -q 'does not exist' err"
start=$(date +%s)
"$vk" deform a.dff --cpu --instances 4294967295 --frames 4294967295 --format raw --out huge.raw 2> err; rc=$?
check "an output larger than the free space exits 5" "[ $rc -eq 5 ] && grep -q 'free' err"
check "refused at once" "[ \$(( \$(date +%s) - start )) -lt 10 ] && [ ! -e huge.raw ] && no_temps"
"$vk" deform a.dff --cpu --instances 70000 --frames 70000 --out huge.pc2 2> err; rc=$?
check "a PC2 over its 32-bit sample count exits 5" "[ $rc -eq 5 ] && grep -q 'PC2' err && [ ! -e huge.pc2 ]"
if [ "$(id -u)" -ne 0 ]; then
  mkdir locked; chmod 555 locked
  "$vk" deform a.dff --cpu --out locked/x.csv 2>/dev/null; rc=$?
  check "a folder that cannot be written exits 5" "[ $rc -eq 5 ]"
fi

# 5. interrupted runs leave no temporary; a dead run's temporary is swept, a live one's kept
set -m # job control: background jobs keep SIGINT (bash ignores it in them otherwise)
for sig in INT TERM; do
  "$vk" deform a.dff --cpu --instances 3000 --format csv --out sig.raw 2>/dev/null &
  pid=$!
  for _ in $(seq 100); do ls sig.raw.tmp.* >/dev/null 2>&1 && break; sleep 0.05; done
  check "SIG$sig: the run had a temporary" "ls sig.raw.tmp.* >/dev/null 2>&1"
  kill -$sig $pid; wait $pid; rc=$?
  check "SIG$sig ends the run by that signal" "[ $rc -eq $((128 + $(kill -l $sig))) ]"
  check "SIG$sig leaves no temporary and no output" "no_temps && [ ! -e sig.raw ]"
done
set +m
dead=4194000; while kill -0 $dead 2>/dev/null; do dead=$((dead + 1)); done
touch "sweep.raw.tmp.$dead" "sweep.raw.tmp.$dead.3" "sweep.raw.tmp.$$"
"$vk" deform a.dff --cpu --format raw --out sweep.raw 2>/dev/null
check "a dead process's temporaries are swept" "[ ! -e sweep.raw.tmp.$dead ] && [ ! -e sweep.raw.tmp.$dead.3 ]"
check "a live process's temporary is kept" "[ -e sweep.raw.tmp.$$ ]"
rm -f "sweep.raw.tmp.$$"

# 6. a read-only output is not replaced (even by root)
echo 'precious' > ro.csv; chmod 444 ro.csv
"$vk" deform a.dff --cpu --out ro.csv 2> err; rc=$?
check "a read-only output exits 5" "[ $rc -eq 5 ] && grep -q 'read-only' err"
check "the read-only file is untouched" "[ \"\$(cat ro.csv)\" = precious ]"

# 7. inputs are read within a limit
timeout 60 "$vk" inspect /dev/zero --max-input-mb 1 2> err; rc=$?
check "/dev/zero is refused past --max-input-mb with exit 1" "[ $rc -eq 1 ] && grep -q 'input limit' err"
check "one line" "[ \$(wc -l < err) -eq 1 ]"
# each input is read once, and never past the limit: a pipe that ends between the limit and
# twice it is refused, and a pipe (which cannot be read twice) is inspected
head -c 1572864 /dev/zero | "$vk" inspect /dev/stdin --max-input-mb 1 2> err; rc=$?
check "a 1.5 MB pipe is refused past --max-input-mb 1" "[ $rc -eq 1 ] && grep -q 'past the limit' err"
"$vk" inspect <(cat a.dff) > piped.txt 2> err; rc=$?
check "inspect reads a model from a pipe" "[ $rc -eq 0 ] && grep -q renderware piped.txt"
"$vk" inspect --model a.dff <(cat "$src/datasets/char_b24_pl8.dff.walk.anm") > piped.txt 2> err; rc=$?
check "inspect --model reads a clip from a pipe" "[ $rc -eq 0 ] && grep -q renderware-anm piped.txt"
truncate -s 3G sparse.dff
timeout 60 "$vk" inspect sparse.dff 2> err; rc=$?
check "a 3 GB file is refused by its size (default 2048 MB)" "[ $rc -eq 1 ] && grep -q '2048 MB' err"
"$vk" inspect a.dff --max-input-mb 0 2>/dev/null; rc=$?
check "--max-input-mb 0 is a usage error" "[ $rc -eq 2 ]"
check "no temporary anywhere" "no_temps"
exit $fail
