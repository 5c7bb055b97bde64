#!/usr/bin/env bash
# Every exit code of the README's table, each with a message on stderr: 0 ok, 1 bad input,
# 2 usage, 3 validation failed, 4 no Vulkan device, 5 runtime failure, 6 bind-pose check
# failed; and with several inputs the most severe code, not the last one.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cp "$src/datasets/char_b24_pl8.dff" a.dff
cp "$src/datasets/char_b24_pl8.p3d" m.p3d
head -c 300 /dev/urandom > garbage.dff
echo '{"nodes": []}' > p.json

# expect CODE "what" command...: the exit code, and (for non-zero) a message on stderr
expect() {
  local want=$1 what=$2; shift 2
  "$@" > out 2> err; local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want ($(head -c 300 err))"; fail=1
  elif [ "$want" -ne 0 ] && [ ! -s err ]; then
    echo "FAIL: $what: exit $rc with no message"; fail=1
  fi
}

expect 0 "inspect a good model" "$vk" inspect a.dff
expect 1 "inspect garbage" "$vk" inspect garbage.dff
expect 1 "inspect a missing file" "$vk" inspect missing.dff
# NW4C XML is taken by both the .cmdl and the .cskla reader: a broken clip given to bind to a
# model is reported by the clip reader, not as a model without a Model element
cp "$src/datasets/char_b24_pl8.cmdl" c.cmdl
printf '<?xml version="1.0"?>\n<NintendoWareIntermediateFile></NintendoWareIntermediateFile>\n' > bad.cskla
expect 1 "inspect --model of a broken .cskla" "$vk" inspect --model c.cmdl bad.cskla
grep -q 'SkeletalAnimationData' err || { echo "FAIL: the broken .cskla's error is not the clip's: $(cat err)"; fail=1; }
expect 1 "a missing --model-cfg file is bad input" "$vk" inspect m.p3d --model-cfg missing.cfg
expect 1 "a pose file that names no node of the model" \
  "$vk" deform a.dff --cpu --pose <(echo '{"nodes": [{"name": "nope", "rotation": [0, 0, 0, 1]}]}') --out x.csv
expect 2 "no command" "$vk"
expect 2 "an unknown option" "$vk" inspect a.dff --bogus
expect 2 "--pose with --procedural" "$vk" deform a.dff --pose p.json --procedural --out x.csv
expect 2 "--procedural with --pose" "$vk" validate a.dff --procedural --pose p.json
expect 2 "--max-chunk-mb 0" "$vk" validate a.dff --max-chunk-mb 0
expect 2 "bench --vertices 0" "$vk" bench --vertices 0
expect 2 "bench --instances 0" "$vk" bench --instances 0
expect 2 "--instances 0" "$vk" deform a.dff --instances 0 --out x.csv
expect 2 "deform without --out" "$vk" deform a.dff
expect 2 "OBJ of several frames" "$vk" deform a.dff --frames 2 --out x.obj
expect 4 "no Vulkan device" env VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json \
  "$vk" validate a.dff
expect 5 "an output in a folder that does not exist" "$vk" deform a.dff --cpu --out missing/x.csv
echo ro > ro.csv; chmod 444 ro.csv
expect 5 "a read-only output" "$vk" deform a.dff --cpu --out ro.csv

# several inputs: the worst code wins, whatever the order
mkdir outs
expect 5 "an output too large for the disk, then a bad input" \
  "$vk" deform a.dff garbage.dff --cpu --format raw --instances 4294967295 --frames 1000 --out outs
expect 5 "a bad input, then an output too large for the disk" \
  "$vk" deform garbage.dff a.dff --cpu --format raw --instances 4294967295 --frames 1000 --out outs
expect 1 "a bad input among good ones" "$vk" inspect a.dff garbage.dff a.dff

# the GPU codes need a Vulkan device (lavapipe counts)
"$vk" validate a.dff --instances 2 > /dev/null 2>&1; rc=$?
if [ $rc -eq 4 ]; then
  echo "no Vulkan device: exit 3 not checked"
else
  expect 0 "validate passes" "$vk" validate a.dff --instances 2
  expect 3 "validate with an injected fault" "$vk" validate a.dff --instances 2 --inject-fault weight
  expect 3 "a validation failure outranks a bad input" "$vk" validate garbage.dff a.dff --inject-fault matrix
fi
exit $fail
