#!/usr/bin/env bash
# examples/deform_batch (a host deforming a batch into raw files through deform_run.h alone)
# against the CLI: its CPU reference file and its GPU file must be byte for byte those of
# `vkskin deform --cpu` and `--gpu` for the same poses (procedural, seed 1, 30 fps), and a file
# of other poses (seed 2) must differ, so the comparison can fail. Exit 77 when there is no
# Vulkan device.
set -u
example=$1
vk=$2
data=$3
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
model=$data/char_b24_pl8.dff
"$example" "$model" "$tmp" 7 3
rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || { echo "FAIL: deform_batch exited $rc"; fail=1; }
for e in cpu gpu; do
  "$vk" deform "$model" --$e --instances 7 --frames 3 --quiet --out "$tmp/cli_$e.raw" ||
    { echo "FAIL: vkskin deform --$e exited $?"; fail=1; }
  cmp "$tmp/$e.raw" "$tmp/cli_$e.raw" || { echo "MISMATCH: the library's $e file is not vkskin deform --$e's"; fail=1; }
done
"$vk" deform "$model" --cpu --instances 7 --frames 3 --seed 2 --quiet --out "$tmp/other.raw"
if cmp -s "$tmp/cpu.raw" "$tmp/other.raw"; then echo "MISMATCH: other poses compare equal"; fail=1; fi
[ $fail = 0 ] && echo "example_deform_batch: the library's files are vkskin deform's, bit for bit"
exit $fail
