#!/bin/sh
# Calibration at first use from the command line, on lavapipe told it is unknown to the tuning
# table (VKSKIN_TEST_UNKNOWN_DEVICE) and with the threshold lowered to 10,000 vertex-instances
# (VKSKIN_TEST_CALIBRATE_OVER), the validation layer on (any message fails): devices --json
# says the table's shape would run, that a large first run calibrates, and the cache file it
# looked at; a one-instance validate does not calibrate and stores nothing; bench calibrates
# once (its JSON: source "calibration") and stores it; devices and a second bench then say
# "cache"; a small model's bench calibrates the small-model class apart, once, stored beside
# (launch-shape-small.txt), the context's shape left as it was; VKSKIN_NO_CALIBRATE=1 and --launch-shape turn it off; an unwritable cache still
# calibrates, warns once and exits 0; bench --crowd's crowd calibrates at its creation (its
# work: vertex-instances per frame times the frames bench runs it) and says so in its JSON, and
# the next bench --crowd starts from the cache; a stream (validate --clip) is sized by all its
# instances and frames, not its first chunk's: over the threshold only in total, it calibrates
# once, and under it in total not at all; two contexts of one process on one device calibrate
# once, the second taking the first one's shape. Exit 77 without a Vulkan device. The sanitizer
# phase (VKSKIN_TEST_SANITIZER_SUBSET=1, set by tools/scripts/test.sh --sanitize) calibrates
# without the validation layer: under ASan the layer's check of every candidate pipeline is
# most of this test's time, and the plain build holds calibration to the layer; every step and
# every other check still runs.
V="$1"
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
# Mesa's shader cache stays where it was: only vkskin's own cache is private here (a cold
# driver cache would compile every candidate's pipelines again, most of this test's time).
export MESA_SHADER_CACHE_DIR="${MESA_SHADER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mesa_shader_cache}"
export XDG_CACHE_HOME="$T/cache" VKSKIN_TEST_UNKNOWN_DEVICE=1 VKSKIN_TEST_CALIBRATE_OVER=10000
unset VKSKIN_NO_CALIBRATE VKSKIN_LAUNCH_SHAPE
"$V" devices --json >"$T/d.json" 2>"$T/d.err"
rc=$?
if [ $rc -eq 4 ]; then echo "skipped: no Vulkan device"; exit 77; fi
fail=0
no() { echo "FAIL: $*"; fail=1; }
layer=--validation
[ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ] && layer=
one() { tr -d '\t\n' <"$1"; } # cJSON's JSON on one line (it indents with tabs), for greps across fields
[ $rc -eq 0 ] || no "devices: exit $rc: $(cat "$T/d.err")"
one "$T/d.json" | grep -q '"source":"table","reason":"[^"]*VKSKIN_TEST_UNKNOWN_DEVICE[^"]*","cache_file":"'"$T"'/cache/vkskin/[^"]*-launch-shape.txt","calibrates_at_first_use":true' ||
    { no "devices --json before any calibration:"; grep -A12 launch_shape "$T/d.json"; }
"$V" devices | grep -q "launch shape: wg=.* (table: .*; a large first run calibrates" || no "devices: no launch shape line"

# Small work: the cold-start case never calibrates.
"$V" generate --vertices 600 --bones 24 --out "$T/a.dff" >/dev/null 2>&1 || no "generate failed"
"$V" validate "$T/a.dff" --instances 1 --validation --quiet >"$T/v.out" 2>"$T/v.err" || no "validate: exit $?: $(cat "$T/v.err")"
grep -q "calibrat" "$T/v.err" && no "a one-instance validate calibrated: $(cat "$T/v.err")"
ls "$T/cache/vkskin" 2>/dev/null | grep -q launch-shape && no "a one-instance validate stored a launch shape"

# Large work: bench calibrates once and stores the winner; its JSON says so (a 4,500-vertex
# character: past the small-model class, the context's own shape).
bench="--vertices 4500 --bones 24 --instances 16 --repeats 1 --ref-instances 1 --threads 1"
"$V" bench $bench $layer --json >"$T/b1.json" 2>"$T/b1.err" || no "bench: exit $?: $(cat "$T/b1.err")"
grep -q "validation" "$T/b1.err" && no "validation-layer messages: $(cat "$T/b1.err")"
[ "$(grep -c 'calibrating at first use' "$T/b1.err")" -eq 1 ] || no "bench did not calibrate once: $(cat "$T/b1.err")"
one "$T/b1.json" | grep -q '"source":"calibration","reason":"calibrated at first use' ||
    { no "bench --json: not source calibration"; grep -A10 launch_shape "$T/b1.json"; }
ls "$T/cache/vkskin" | grep -q launch-shape || no "the winner was not stored"
"$V" devices --json >"$T/d2.json" 2>&1
one "$T/d2.json" | grep -q '"source":"cache",[^}]*"calibrates_at_first_use":false' || no "devices after calibration: not cache"
"$V" bench $bench --json >"$T/b2.json" 2>"$T/b2.err" || no "second bench: exit $?"
grep -q "calibrat" "$T/b2.err" && no "the second bench calibrated again"
one "$T/b2.json" | grep -q '"source":"cache"' || no "the second bench did not start from the cache"

# A small model's bench (600 vertices: the small-model class) calibrates the class apart, once,
# stores it beside the context's entry, and says its shape; the context's stays the cache's.
small="--vertices 600 --bones 24 --instances 64 --repeats 1 --ref-instances 1 --threads 1"
"$V" bench $small --json >"$T/bs.json" 2>"$T/bs.err" || no "bench, small model: exit $?: $(cat "$T/bs.err")"
[ "$(grep -c 'calibrating at first use: small models' "$T/bs.err")" -eq 1 ] ||
    no "bench of a small model did not calibrate the class once: $(cat "$T/bs.err")"
ls "$T/cache/vkskin" | grep -q 'launch-shape-small.txt$' || no "the small class's winner was not stored apart"
one "$T/bs.json" | grep -q '"source":"calibration","reason":"calibrated at first use for small models' ||
    { no "bench --json, small model: not the class's calibration"; grep -A10 launch_shape "$T/bs.json"; }
"$V" devices --json >"$T/d3.json" 2>&1
one "$T/d3.json" | grep -q '"source":"cache",[^}]*"calibrates_at_first_use":false' || no "devices after the class: not cache"
"$V" bench $small --json >"$T/bs2.json" 2>"$T/bs2.err" || no "second bench, small model: exit $?"
grep -q "calibrat" "$T/bs2.err" && no "the second small bench calibrated again"
one "$T/bs2.json" | grep -q '"source":"cache","reason":"measured for small models' ||
    no "the second small bench did not start from the class's cache entry"

# Turned off: the environment variable, a forced shape.
rm -rf "$T/cache"
VKSKIN_NO_CALIBRATE=1 "$V" bench $bench --json >"$T/b3.json" 2>"$T/b3.err" || no "bench with VKSKIN_NO_CALIBRATE: exit $?"
grep -q "calibrat" "$T/b3.err" && no "VKSKIN_NO_CALIBRATE=1 calibrated"
one "$T/b3.json" | grep -q '"source":"table"' || no "VKSKIN_NO_CALIBRATE=1: not the table's shape"
"$V" bench $bench --launch-shape wg=64,run=32 --json >"$T/b4.json" 2>"$T/b4.err" || no "bench --launch-shape: exit $?"
grep -q "calibrat" "$T/b4.err" && no "--launch-shape calibrated"
one "$T/b4.json" | grep -q '"source":"forced"' || no "--launch-shape: not forced"
ls "$T/cache/vkskin" 2>/dev/null | grep -q launch-shape && no "a launch shape was stored with calibration off"

# An unwritable cache (a file where its folder would be): calibrates, warns once, exit 0.
mkdir -p "$T/ro" && : >"$T/ro/vkskin"
XDG_CACHE_HOME="$T/ro" "$V" bench $bench --json >"$T/b5.json" 2>"$T/b5.err" || no "bench, unwritable cache: exit $?"
[ "$(grep -c 'cannot write the launch-shape cache' "$T/b5.err")" -eq 1 ] || no "unwritable cache: not one warning: $(cat "$T/b5.err")"
one "$T/b5.json" | grep -q '"source":"calibration"' || no "unwritable cache: not calibrated"

# Crowds: bench --crowd's crowd calibrates once when it is made; its JSON says which shape ran.
rm -rf "$T/cache"
crowd="--crowd --instances 12 --vertices 600 --bones 24 --frames 3"
"$V" bench $crowd $layer --json >"$T/c1.json" 2>"$T/c1.err" || no "bench --crowd: exit $?: $(cat "$T/c1.err")"
grep -q "validation" "$T/c1.err" && no "bench --crowd: validation-layer messages: $(cat "$T/c1.err")"
[ "$(grep -c 'calibrating at first use: .* a crowd' "$T/c1.err")" -eq 1 ] ||
    no "bench --crowd did not calibrate once at the crowd: $(cat "$T/c1.err")"
one "$T/c1.json" | grep -q '"launch_shape":{"shape":"[^"]*","source":"calibration"' ||
    { no "bench --crowd --json: not source calibration"; grep -A4 launch_shape "$T/c1.json"; }
"$V" bench $crowd --json >"$T/c2.json" 2>"$T/c2.err" || no "second bench --crowd: exit $?"
grep -q "calibrat" "$T/c2.err" && no "the second bench --crowd calibrated again"
one "$T/c2.json" | grep -q '"launch_shape":{"shape":"[^"]*","source":"cache"' ||
    no "the second bench --crowd did not start from the cache"

# Streams: 200 instances of a.dff's 595 vertices over 3 frames in chunks of 1 MiB (73 instances:
# 130,305 vertex-instances over the frames) are 357,000 in total; the stream asks with its total
# before its first chunk's crowd is made (that crowd alone is under 200,000).
rm -rf "$T/cache"
clip="$T/a.dff --clip $T/a.dff.walk.anm --stagger --instances 200 --frames 3 --max-chunk-mb 1 $layer --quiet"
VKSKIN_TEST_CALIBRATE_OVER=200000 "$V" validate $clip >"$T/s1.out" 2>"$T/s1.err" || no "validate --clip: exit $?: $(cat "$T/s1.err")"
grep -q "validation" "$T/s1.err" && no "validate --clip: validation-layer messages: $(cat "$T/s1.err")"
[ "$(grep -c 'calibrating at first use: .* a stream (200 instances over 3 frames) of 357000 vertex-instances' "$T/s1.err")" -eq 1 ] ||
    no "a stream over the threshold in total did not calibrate once: $(cat "$T/s1.err")"
rm -rf "$T/cache"
VKSKIN_TEST_CALIBRATE_OVER=400000 "$V" validate $clip >"$T/s2.out" 2>"$T/s2.err" || no "validate --clip, under: exit $?: $(cat "$T/s2.err")"
grep -q "calibrat" "$T/s2.err" && no "a stream under the threshold in total calibrated: $(cat "$T/s2.err")"

# Two contexts of one process on one device (--device 0,0, their shares run at once): one
# calibration for the process; the other context waits for it and takes the same shape, and
# nothing warns that it cannot store (each context calibrated, chose its own and raced to store).
rm -rf "$T/cache"
"$V" deform "$T/a.dff" --gpu --device 0,0 --instances 64 --format raw --out "$T/two.raw" --quiet 2>"$T/two.err" ||
    no "deform --device 0,0: exit $?: $(cat "$T/two.err")"
[ "$(grep -c 'calibrating at first use' "$T/two.err")" -eq 1 ] || no "--device 0,0 did not calibrate once: $(cat "$T/two.err")"
won=$(sed -n 's/.*launch shape: \([^ ]*\) chosen at first use.*/\1/p' "$T/two.err")
grep -q "launch shape: $won, calibrated at first use by another context of this process" "$T/two.err" ||
    no "the second context did not take the first one's shape ($won): $(cat "$T/two.err")"
grep -q "cannot" "$T/two.err" && no "--device 0,0 warned: $(cat "$T/two.err")"
exit $fail
