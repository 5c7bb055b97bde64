#!/usr/bin/env bash
# The README's test command: sets up, builds and runs every test with CTest.
#   tools/scripts/test.sh              plain build (build/)
#   tools/scripts/test.sh --sanitize   AddressSanitizer + UBSan build (build-asan/), with
#                                      VKSKIN_TEST_SANITIZER_SUBSET=1: the tests that run one
#                                      command at many settings keep the subset each one's
#                                      header names (the plain build runs them all)
#   tools/scripts/test.sh --no-gpu     -DVKSKIN_GPU=OFF build (build-nogpu/): no Vulkan, volk or
#                                      glslc; GPU tests skipped, the build checked for Vulkan headers
# GPU tests run on the Vulkan device found (lavapipe where there is no GPU) with the Khronos
# validation layer, and are skipped (CTest "Not Run", exit 77) where there is no Vulkan device.
# The plain build then runs one GPU test per device path of the library again on SwiftShader,
# chromium's Vulkan on the CPU (tools/scripts/test_swiftshader.sh; skipped, saying so, where it
# is absent; VKSKIN_SWIFTSHADER_ALL=1: every GPU test).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/tools/scripts/setup.sh"
if [ "${1:-}" = "--sanitize" ]; then
  "$root/tools/scripts/build.sh" build-asan -DVKSKIN_SANITIZE=ON
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/lsan.supp:print_suppressions=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  export VKSKIN_TEST_SANITIZER_SUBSET=${VKSKIN_TEST_SANITIZER_SUBSET-1} # set it empty for every setting
  cd "$root/build-asan"
elif [ "${1:-}" = "--no-gpu" ]; then
  "$root/tools/scripts/build.sh" build-nogpu -DVKSKIN_GPU=OFF
  cd "$root/build-nogpu"
else
  "$root/tools/scripts/build.sh" build
  cd "$root/build"
fi
ctest --output-on-failure -j2 --timeout 600
if [ -z "${1:-}" ]; then
  "$root/tools/scripts/test_swiftshader.sh" "$root/build"
fi
