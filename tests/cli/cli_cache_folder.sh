#!/usr/bin/env bash
# The tuning cache's folder trusted no further than its user (issue 37; docs/safety.md), as
# an attacker who can plant files there or a careless setup would have it, in a private
# $XDG_CACHE_HOME: a symlink at the writer's temporary name ("<entry>.tmp.<pid>", the pid
# known by exec) does not make vkskin tune write the link's target outside the cache; a FIFO
# at an entry's name is skipped with a note, not waited on forever (every run is bounded by
# timeout: a hang fails); a folder that its group or others may write, or (as root) that
# another user owns, is not used: one warning, the run goes on without the cache and stores
# nothing there. Exit 77 without a Vulkan device.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"
export MESA_SHADER_CACHE_DIR="${MESA_SHADER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mesa_shader_cache}"
export XDG_CACHE_HOME="$tmp/cache"
unset VKSKIN_NO_CALIBRATE VKSKIN_LAUNCH_SHAPE VKSKIN_TEST_UNKNOWN_DEVICE
model="$src/datasets/char_b24_pl8.dff"
timeout 60 "$vk" devices > devices.txt 2>&1; rc=$?
if [ $rc -eq 4 ]; then echo "skipped: no Vulkan device"; exit 77; fi
entry=$(sed -n 's/^ *launch-shape cache: //p' devices.txt | head -1)
check "devices names the cache entry in the private folder (exit $rc)" "[ $rc -eq 0 ] && [ \"\${entry#$tmp/cache/vkskin/}\" != \"$entry\" ]"
[ -n "$entry" ] || exit 1
pipelines=${entry%launch-shape.txt}pipelines.bin
mkdir -m 0700 cache cache/vkskin
# a generated 5,000-vertex character: past the small-model class, so tune writes the context's entry
tune=("$vk" tune --vertices 5000 --bones 24 --instances 8 --repeats 1 --candidate wg=64 --candidate wg=128)

# 1. symlinks planted at the temporaries' names: the targets outside the cache stay as they were
echo precious > victim
echo precious > victim2
timeout 120 sh -c 'ln -s "$1" "$2.tmp.$$" && ln -s "$3" "$4.tmp.$$" && shift 4 && exec "$@"' sh \
  "$tmp/victim" "$entry" "$tmp/victim2" "$pipelines" \
  "${tune[@]}" > tune1.out 2> tune1.err; rc=$?
check "tune with planted temporaries exits 0 (exit $rc: $(head -c 300 tune1.err))" "[ $rc -eq 0 ]"
echo precious > expected
check "the launch-shape temporary's link target is not written" "cmp -s victim expected && [ ! -L victim ]"
check "the pipeline cache's temporary's link target is not written" "cmp -s victim2 expected"
rm -f "$entry" "$pipelines" "$entry".tmp.* "$pipelines".tmp.*

# 2. FIFOs at the entries' names: skipped with a note, the run goes on
mkfifo "$entry" "$pipelines"
timeout 60 "$vk" deform "$model" --gpu --out out.csv 2> fifo.err; rc=$?
check "deform --gpu with FIFOs in the cache does not hang and exits 0 (exit $rc: $(head -c 300 fifo.err))" "[ $rc -eq 0 ]"
check "the FIFO at the launch-shape entry is named as not a regular file" "grep -q \"$entry: .*not a regular file\" fifo.err"
# a store replaces the name by rename (the pipeline cache at the end of the run): never written into
check "the entries are FIFOs still or entries stored over them" \
  "{ [ -p \"$entry\" ] || [ -f \"$entry\" ]; } && { [ -p \"$pipelines\" ] || [ -f \"$pipelines\" ]; }"
timeout 60 "$vk" devices > /dev/null 2> fifo2.err; rc=$?
check "devices with a FIFO in the cache does not hang (exit $rc)" "[ $rc -eq 0 ]"
rm -f "$entry" "$pipelines"

# 3. a folder others may write: not used, one warning, nothing stored in it
chmod 0777 cache/vkskin
timeout 120 "${tune[@]}" > tune3.out 2> tune3.err; rc=$?
check "tune with a world-writable cache folder exits 0 (exit $rc: $(head -c 300 tune3.err))" "[ $rc -eq 0 ]"
check "one warning names the folder and its mode" \
  "[ \$(grep -c 'cache/vkskin: the cache folder .*not used' tune3.err) -eq 1 ]"
check "nothing is stored in the untrusted folder" "[ -z \"\$(ls cache/vkskin)\" ]"
chmod 0770 cache/vkskin
timeout 60 "$vk" deform "$model" --gpu --out out.csv 2> group.err; rc=$?
check "a group-writable folder is not used either (exit $rc)" "[ $rc -eq 0 ] && grep -q 'not used' group.err && [ -z \"\$(ls cache/vkskin)\" ]"
chmod 0700 cache/vkskin
if [ "$(id -u)" -eq 0 ]; then
  chown 65534:65534 cache/vkskin
  timeout 120 "${tune[@]}" > tune4.out 2> tune4.err; rc=$?
  check "another user's folder is not used (exit $rc: $(head -c 300 tune4.err))" \
    "[ $rc -eq 0 ] && grep -q 'belongs to user 65534' tune4.err && [ -z \"\$(ls cache/vkskin)\" ]"
  chown 0:0 cache/vkskin
else
  echo "not root: the other owner's folder case skipped"
fi
# and the folder made safe again is used
timeout 120 "${tune[@]}" > tune5.out 2> tune5.err; rc=$?
check "a private folder is used again (exit $rc)" "[ $rc -eq 0 ] && [ -f \"$entry\" ] && ! grep -q 'not used' tune5.err"
exit $fail
