#!/usr/bin/env bash
# GPU tests once more, on SwiftShader: Google's Vulkan on the CPU,
# which Debian's chromium package ships beside the browser. A second implementation next to
# lavapipe, with other limits (subgroups of 4, 256 invocations a workgroup, 32 KiB of shared
# memory, a 1 GiB storage range, 65536 texel elements) and its own precision, so a device
# difference shows in CI before it shows on a user's GPU.
#   tools/scripts/test_swiftshader.sh [BUILD_DIR [CTEST_ARGS...]]   (default: build, beside tools/)
# CTEST_ARGS go to ctest after the pass's own (e.g. -LE cli: the library's GPU tests only).
# The loader is pointed at chromium's ICD file (VK_DRIVER_FILES; VK_ICD_FILENAMES for older
# loaders; VKSKIN_SWIFTSHADER_ICD names another file), and the device it then gives is named
# before the tests and must be SwiftShader: a pass that quietly ran on lavapipe again would
# prove nothing. Where the ICD file is absent, it says so and exits 0: skipped, not failed.
# It runs the tests labelled "swiftshader" (tests/schedule/swiftshader_subset.cmake: one test per
# device path of the library): SwiftShader compiles a pipeline in about a second in every
# process, where lavapipe's shader cache answers at once, and the variants at other tuning
# choices, the program's GPU tests, the host-side splits and threads are the same code on the
# same device (the lavapipe pass runs them all). The tests that run one command at many
# settings keep the subset each one's header names (VKSKIN_TEST_SANITIZER_SUBSET=1, as under
# the sanitizers). VKSKIN_SWIFTSHADER_ALL=1 runs every GPU-labelled test instead (648 s on a
# loaded 2-core machine, against about a quarter of it for the subset).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shift || true
icd=${VKSKIN_SWIFTSHADER_ICD:-}
if [ -z "$icd" ]; then
  for dir in /usr/lib/chromium /usr/lib64/chromium /usr/lib/chromium-browser; do
    if [ -f "$dir/vk_swiftshader_icd.json" ]; then
      icd=$dir/vk_swiftshader_icd.json
      break
    fi
  done
fi
if [ -z "$icd" ] || [ ! -f "$icd" ]; then
  echo "swiftshader: ${icd:-vk_swiftshader_icd.json in the chromium folder} absent (Debian's chromium package" \
       "ships it): the GPU tests' pass on SwiftShader is skipped"
  exit 0
fi
export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
export VKSKIN_TEST_SANITIZER_SUBSET=${VKSKIN_TEST_SANITIZER_SUBSET-1}
device=$("$build/vkskin" devices 2>&1 | grep -m1 '^\* 0: ' || true)
case "$device" in
  *SwiftShader*) echo "swiftshader: the GPU tests on${device#\* 0:} ($icd)" ;;
  *)
    echo "swiftshader: $icd did not give a SwiftShader device: '${device:-no device}'" >&2
    exit 1
    ;;
esac
start=$SECONDS
cd "$build"
labels=(-L swiftshader)
if [ -n "${VKSKIN_SWIFTSHADER_ALL:-}" ]; then
  labels=(-L gpu)
fi
status=0
ctest "${labels[@]}" --output-on-failure -j2 --timeout 600 "$@" || status=$?
echo "swiftshader: the GPU tests took $((SECONDS - start)) s"
exit $status
