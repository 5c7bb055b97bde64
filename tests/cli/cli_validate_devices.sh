#!/usr/bin/env bash
# vkskin validate --device LIST (issue 25): the poses split across several contexts give the
# verdict of one device, bit for bit. On lavapipe the same device is asked for twice or three
# times (two contexts on one device): the JSON metrics of --device 0,0 and 0,0,0 equal those
# of --device 0 (timings, chunk counts and device fields stripped) over several chunks and
# files, and so do the golden raws; --each keeps one section per device; a number no device
# has exits 4. Exit 77 without a Vulkan device.
# Usage: cli_validate_devices.sh VKSKIN
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$vk" generate --vertices 3000 --out hero.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
"$vk" generate --vertices 500 --out small.dff > /dev/null || { echo "FAIL: generate"; exit 1; }
"$vk" validate hero.dff --instances 1 --quiet > /dev/null 2> probe.err; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi

# (the readback check's gpu_reduction, which counts the chunks each context cut, and
# what each context took, "context_shares", a split's own: its lines go, "[{" to "}],")
metrics() { sed -e '/"gpu_reduction"/,/^\t}/d' -e '/"context_shares"/,/}\]/d' "$1" | grep -v -e '_ms"' -e '"chunks"' -e '"device' -e '"queue_'; }
args=(hero.dff small.dff --instances 37 --seed 5 --frames 2 --max-chunk-mb 1 --json --quiet)
for d in 0 0,0 0,0,0; do
    "$vk" validate "${args[@]}" --device $d > v$d.json 2> v$d.err; rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: --device $d: exit $rc ($(head -c 400 v$d.err))"; fail=1; }
    metrics v$d.json > m$d.json
done
grep -q '"nmse":' m0.json || { echo "FAIL: no metrics in the JSON"; fail=1; }
for d in 0,0 0,0,0; do
    cmp -s m0.json m$d.json || { echo "FAIL: --device $d differs from --device 0:"; diff m0.json m$d.json | head; fail=1; }
done

# a failing run fails alike (the worst vertex and instance are the first found)
for d in 0 0,0; do
    "$vk" validate hero.dff --instances 11 --inject-fault weight --json --quiet --device $d > f$d.json 2> /dev/null
    [ $? -eq 3 ] || { echo "FAIL: an injected fault passed with --device $d"; fail=1; }
    metrics f$d.json > fm$d.json
done
cmp -s fm0.json fm0,0.json || { echo "FAIL: a failing run differs between --device 0 and 0,0"; fail=1; }

# the golden raws written by two contexts are one device's bytes
"$vk" validate hero.dff --instances 20 --seed 2 --save-golden g1 --device 0 --quiet > /dev/null 2>&1
"$vk" validate hero.dff --instances 20 --seed 2 --save-golden g2 --device 0,0 --quiet > /dev/null 2>&1
cmp -s g1/0.raw g2/0.raw || { echo "FAIL: the golden raw of --device 0,0 differs from --device 0"; fail=1; }

# --each: the same work on every device of the list, one section each
"$vk" validate hero.dff --instances 3 --device 0,0 --each --json --quiet > each.json 2> each.err; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --each: exit $rc ($(head -c 400 each.err))"; fail=1; }
n=$(grep -c '"device_type"' each.json)
[ "$n" -eq 2 ] || { echo "FAIL: --each gave $n device sections, expected 2"; fail=1; }
"$vk" validate hero.dff --instances 3 --device 0,0 --json --quiet > one.json 2> /dev/null
n=$(grep -c '"device_type"' one.json)
[ "$n" -eq 1 ] || { echo "FAIL: a split run gave $n device sections, expected 1"; fail=1; }

# a device the list names that does not exist
"$vk" validate hero.dff --instances 3 --device 0,99 --quiet > /dev/null 2> bad.err; rc=$?
[ $rc -eq 4 ] && [ -s bad.err ] || { echo "FAIL: --device 0,99 exit $rc, expected 4 with a message"; fail=1; }
exit $fail
