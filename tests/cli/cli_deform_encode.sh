#!/usr/bin/env bash
# vkskin deform --gpu converts each chunk into the file's layout on a thread of its own while
# the GPU gets the next one (--encode-threads 1, the default); --encode-threads 0 converts on
# the thread that feeds the GPU, the single-threaded path. Every format is the same bytes both
# ways, with chunks small enough (--max-chunk-mb 1) that the converter's blocks go round many
# times, and under the validation layer. Skipped (77) without a Vulkan device.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
d=$src/datasets
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
if ! "$vk" devices > /dev/null 2>&1; then
    echo "skipped: no Vulkan device"
    exit 77
fi
cd "$tmp"
for fmt in csv raw pc2 glb gltf obj; do
    case $fmt in
    obj) n="--instances 1 --frames 1" ;;
    glb | gltf) n="--instances 1 --frames 40" ;;
    *) n="--instances 150 --frames 3" ;;
    esac
    for t in 0 1; do
        "$vk" deform "$d/char_b48_pl20_strips.nif" --gpu --validation --max-chunk-mb 1 --procedural --seed 3 $n \
            --encode-threads $t --out "out$t.$fmt" 2> "log$t.$fmt"; rc=$?
        check "$fmt --encode-threads $t exits 0 (exit $rc)" "[ $rc -eq 0 ]"
    done
    check "$fmt: the same bytes with the converter thread as without" "cmp -s out0.$fmt out1.$fmt"
    check "$fmt: not empty" "[ -s out1.$fmt ]"
done
"$vk" deform "$d/char_b48_pl20_strips.nif" --gpu --encode-threads 2 --out x.csv 2> /dev/null; rc=$?
check "--encode-threads 2 is a usage error (got $rc)" "[ $rc -eq 2 ]"
[ $fail -eq 0 ] && echo "deform converter thread: ok"
exit $fail
