#!/usr/bin/env bash
# The readback in a submission of its own (a copy engine's queue where the device has one;
# VKSKIN_TEST_SEPARATE_READBACK=1 takes that path on lavapipe's one queue) through the program:
# deform --crowd --gpu writes the very bytes either way, validate --crowd passes either way
# (several chunks, so the ring is re-aimed and reused), and the validation layer stays silent.
# Exit 77 without a Vulkan device.
# Usage: cli_readback_apart.sh VKSKIN SOURCE_DIR
set -u
vk=$1
src=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

crowd=$src/tests/data/crowd_layers.json
mkdir one apart
VKSKIN_TEST_SEPARATE_READBACK=0 "$vk" deform --crowd "$crowd" --gpu --frames 4 --format raw --out one --validation \
  > out 2> err; rc=$?
if [ $rc -eq 4 ]; then echo "skip: no Vulkan device ($(head -c 300 err))"; exit 77; fi
[ $rc -eq 0 ] || { echo "FAIL: deform --crowd --gpu, readback in one submission: exit $rc ($(head -c 600 err))"; exit 1; }
VKSKIN_TEST_SEPARATE_READBACK=1 "$vk" deform --crowd "$crowd" --gpu --frames 4 --format raw --out apart --validation \
  > out 2> err; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: deform --crowd --gpu, readback apart: exit $rc ($(head -c 600 err))"; fail=1; }
n=$(ls one | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: deform --crowd --gpu wrote nothing"; fail=1; }
diff -r one apart > /dev/null || { echo "FAIL: the outputs differ between the two readbacks: $(diff -r one apart | head -5)"; fail=1; }
[ $fail -eq 0 ] && echo "deform --crowd --gpu: $n files, the same bytes either way"

for apart in 0 1; do
  VKSKIN_TEST_SEPARATE_READBACK=$apart "$vk" validate --crowd "$crowd" --frames 3 --max-chunk-mb 1 --validation \
    > out 2> err; rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: validate --crowd, VKSKIN_TEST_SEPARATE_READBACK=$apart: exit $rc ($(head -c 600 err))"; fail=1; }
done
exit $fail
