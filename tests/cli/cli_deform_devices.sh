#!/usr/bin/env bash
# vkskin deform --gpu --device LIST (issue 25): the poses split across several contexts are
# written in pose order, so the file is the bytes of one device. On lavapipe the same device is
# asked for twice or three times (two contexts on one device), over several chunks a context,
# in raw and CSV (the converter thread) and with --encode-threads 0, with the validation layer
# on; a number no device has exits 4 and leaves no output. Exit 77 without a Vulkan device.
# The sanitizer phase (VKSKIN_TEST_SANITIZER_SUBSET=1, set by tools/scripts/test.sh
# --sanitize) compares --device 0 with 0,0 only, and with 0,0,0 only where there are fewer
# poses than contexts: every split path still runs under ASan and UBSan; the plain build
# compares all three everywhere. Each context gets as many pieces of the poses (checked on 87
# poses over two contexts).
# Usage: cli_deform_devices.sh VKSKIN
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$vk" generate --vertices 3000 --out hero.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
"$vk" deform hero.dff --gpu --instances 1 --out probe.raw --quiet > /dev/null 2> probe.err; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi

lists=(0 0,0 0,0,0) # the device lists compared; the first is one device's results
[ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ] && lists=(0 0,0)
same() { # what, then the deform arguments
    local what=$1; shift
    for d in "${lists[@]}"; do
        "$vk" deform hero.dff --gpu "$@" --device $d --out "o$d" --quiet --validation > /dev/null 2> e$d.err; rc=$?
        [ $rc -eq 0 ] || { echo "FAIL: $what --device $d: exit $rc ($(head -c 400 e$d.err))"; fail=1; return; }
    done
    [ -s o0 ] || { echo "FAIL: $what: no output"; fail=1; }
    for d in "${lists[@]:1}"; do
        cmp -s o0 o$d || { echo "FAIL: $what: --device $d differs from --device 0"; fail=1; }
    done
}
# 3000 vertices are 36 KB a stream a pose: chunks of 1 MiB hold 29 poses, 69 poses are 3 chunks
same "raw" --instances 23 --frames 3 --seed 4 --max-chunk-mb 1 --format raw
same "csv" --instances 23 --frames 3 --seed 4 --max-chunk-mb 1 --format csv
same "csv --encode-threads 0" --instances 23 --frames 3 --seed 4 --max-chunk-mb 1 --format csv --encode-threads 0
[ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ] && lists=(0 0,0,0)
same "raw, fewer poses than devices" --instances 2 --format raw

# The deal is even: 87 poses are three chunks of 29, which dealt in turn gave one context 58
# and the other 29; cut into two rounds of two equal pieces (22, 22, 22, 21) they give 44 and 43
"$vk" deform hero.dff --gpu --instances 29 --frames 3 --seed 4 --max-chunk-mb 1 --format raw --device 0,0 \
    --out even.raw > /dev/null 2> even.err
shares=$(sed -n 's/^vkskin deform: context [0-9]\/2 on .*: \([0-9]*\) poses in .*/\1/p' even.err | tr '\n' ' ')
[ "$shares" = "44 43 " ] || { echo "FAIL: --device 0,0 over 87 poses dealt '$shares', expected 44 and 43"; fail=1; }

"$vk" deform hero.dff --gpu --instances 3 --device 0,99 --out bad.raw --quiet > /dev/null 2> bad.err; rc=$?
[ $rc -eq 4 ] && [ -s bad.err ] || { echo "FAIL: --device 0,99 exit $rc, expected 4 with a message"; fail=1; }
[ ! -e bad.raw ] || { echo "FAIL: --device 0,99 left an output"; fail=1; }
exit $fail
