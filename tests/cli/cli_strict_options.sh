#!/usr/bin/env bash
# Option values taken as written, or refused as usage errors (exit 2) before any work
# (issue 37): a --device number past the range of device indices (4294967296 wrapped to
# device 0 and ran, 4294967295 was shown as device -1), alone or in a list; numbers with a
# leading space or sign (--max-memory-mb " 5", --threads +2) or trailing junk; a --launch-shape
# that gives one key twice (refused naming the key; checked where the context is made, so that
# case needs a Vulkan device and is skipped without one). Uses the project's own datasets.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
m=$src/datasets/char_b24_pl8.dff
usage() { # usage WHAT GREP COMMAND...: exit 2, the message, nothing written
  local what=$1 want=$2
  shift 2
  rm -f out.csv
  "$@" > out.txt 2> err.txt; local rc=$?
  if [ $rc -ne 2 ] || ! grep -q -- "$want" err.txt || [ -e out.csv ]; then
    echo "FAIL: $what: exit $rc (want 2 and '$want'): $(head -c 300 err.txt)"
    fail=1
  fi
}

usage "--device 4294967296 (wrapped to device 0)" "device 4294967296" "$vk" deform "$m" --gpu --device 4294967296 --out out.csv
usage "--device 4294967295 (shown as device -1)" "device 4294967295" "$vk" deform "$m" --gpu --device 4294967295 --out out.csv
usage "--device 99999999999999999999 (past any integer)" "out of range" "$vk" deform "$m" --gpu --device 99999999999999999999 --out out.csv
usage "--device 0,4294967296 (a list)" "4294967296" "$vk" deform "$m" --gpu --device 0,4294967296 --out out.csv
usage "validate --device 2147483648" "out of range" "$vk" validate "$m" --device 2147483648
usage "--max-memory-mb ' 5'" "not a number" "$vk" bake nothing.json --max-memory-mb " 5"
usage "--max-memory-mb +5" "not a number" "$vk" bake nothing.json --max-memory-mb +5
usage "--max-memory-mb '5 '" "not a number" "$vk" bake nothing.json --max-memory-mb "5 "
usage "--threads ' 2'" "not a number" "$vk" deform "$m" --cpu-fast --threads " 2" --out out.csv
usage "--instances 0x10" "not a number" "$vk" deform "$m" --cpu --instances 0x10 --out out.csv
# decimal numbers too: strtod takes leading spaces, a '+', hex and "infinity"
usage "--fps ' 30'" "not a" "$vk" deform "$m" --cpu --fps " 30" --out out.csv
usage "--time 0x1p0" "not a" "$vk" deform "$m" --cpu --time 0x1p0 --out out.csv
usage "--clip-speed +1" "not a" "$vk" deform "$m" --cpu --clip "$m.walk.anm" --clip-speed +1 --out out.csv
usage "validate --tolerance-scale ' 2'" "tolerance-scale" "$vk" validate "$m" --tolerance-scale " 2"
usage "convert --fps ' 30'" "fps" "$vk" convert "$m" out.glb --fps " 30"
usage "inspect --clip-duration ' 1'" "clip-duration" "$vk" inspect "$m.walk.anm" --clip-duration " 1"
usage "render --size ' 64x64'" "size" "$vk" render "$m" --size " 64x64" --out out.csv
usage "render --size '64x 64'" "size" "$vk" render "$m" --size "64x 64" --out out.csv

# in range: a number that names no device is no usage error (exit 4: no such device)
"$vk" deform "$m" --gpu --device 2147483647 --out out.csv 2> err.txt; rc=$?
[ $rc -eq 4 ] || { echo "FAIL: --device 2147483647 (in range, no such device): exit $rc: $(head -c 300 err.txt)"; fail=1; }

# a launch shape that says a key twice: the second was taken silently
"$vk" devices > /dev/null 2>&1; rc=$?
if [ $rc -eq 4 ]; then
  echo "no Vulkan device: the --launch-shape case skipped"
else
  usage "--launch-shape wg=64,wg=128" "wg" "$vk" deform "$m" --gpu --launch-shape wg=64,wg=128 --out out.csv
  grep -q "twice" err.txt || { echo "FAIL: the duplicate key's message: $(cat err.txt)"; fail=1; }
  usage "--launch-shape run=8,palette=off,run=16" "run" "$vk" deform "$m" --gpu --launch-shape run=8,palette=off,run=16 --out out.csv
fi
exit $fail
