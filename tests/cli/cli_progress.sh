#!/usr/bin/env bash
# Progress lines on long runs (issue 25, tools/vkskin/cli_progress.c): validate, bake, deform
# and render say done/total, the rate and the time left on stderr, whether or not it is a
# terminal (here it is not: a CI log), never on stdout; --quiet silences them; a run shorter
# than the interval prints none. $VKSKIN_PROGRESS_INTERVAL_MS=0 makes every run "long", so no
# test needs minutes of work. The CPU commands run everywhere; validate and render need a
# Vulkan device and are skipped without one.
# Usage: cli_progress.sh VKSKIN
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$vk" generate --vertices 1500 --out hero.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
# a progress line: "vkskin CMD: done/total UNIT (P%), R UNIT/s, T s left" (or "done in T s")
line() { echo "vkskin $1: [0-9]*/[0-9]* $2 ([0-9]*%), [0-9.]* $2/s, "; }

# shows CMD UNIT what... : the command, run with lines forced, prints them on stderr only;
# with --quiet, and with an interval longer than the run, none
shows() {
    local cmd=$1 unit=$2; shift 2
    VKSKIN_PROGRESS_INTERVAL_MS=0 "$vk" "$cmd" "$@" > out 2> err; local rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: $cmd: exit $rc ($(head -c 400 err))"; fail=1; return; }
    grep -q "$(line "$cmd" "$unit")" err || { echo "FAIL: $cmd: no progress line on stderr: $(head -c 400 err)"; fail=1; }
    grep -q "$(line "$cmd" "$unit").*done in" err || { echo "FAIL: $cmd: no final progress line"; fail=1; }
    grep -q "vkskin $cmd: [0-9]*/" out && { echo "FAIL: $cmd: a progress line on stdout"; fail=1; }
    VKSKIN_PROGRESS_INTERVAL_MS=0 "$vk" "$cmd" "$@" --quiet > out 2> err
    grep -q "vkskin $cmd: [0-9]*/" err && { echo "FAIL: $cmd --quiet: a progress line: $(grep "vkskin $cmd: [0-9]*/" err | head -1)"; fail=1; }
    VKSKIN_PROGRESS_INTERVAL_MS=3600000 "$vk" "$cmd" "$@" > out 2> err
    grep -q "vkskin $cmd: [0-9]*/" err && { echo "FAIL: $cmd: a progress line before the interval passed"; fail=1; }
}

shows deform poses hero.dff --cpu --instances 20 --frames 3 --out d.raw --format raw
shows deform poses hero.dff --cpu-fast --instances 20 --frames 3 --out d.pc2
cat > bake.json <<JSON
{"jobs": [{"name": "walk", "model": "hero.dff", "clips": ["hero.dff.walk.anm"], "range": [0, 0.2], "outputs": ["pc2"]},
          {"name": "wave", "model": "hero.dff", "clips": ["hero.dff.wave.anm"], "range": [0, 0.2], "outputs": ["pc2"]}]}
JSON
shows bake jobs bake.json --cpu --force --out baked

if "$vk" devices > /dev/null 2>&1; then
    shows validate poses hero.dff --instances 30 --frames 2 --max-chunk-mb 1
    shows validate poses hero.dff --clip hero.dff.wave.anm --instances 12 --frames 2 --json
    VKSKIN_PROGRESS_INTERVAL_MS=0 "$vk" validate hero.dff --instances 30 --json > out.json 2> err
    python3 -c "import json,sys; json.load(open('out.json'))" 2> /dev/null ||
        { echo "FAIL: validate --json: stdout is not JSON alone"; fail=1; }
    shows deform poses hero.dff --gpu --instances 20 --frames 3 --out g.raw --format raw
    shows render instances hero.dff --instances 12 --out r.png
else
    echo "no Vulkan device: validate, deform --gpu and render not checked"
fi
exit $fail
