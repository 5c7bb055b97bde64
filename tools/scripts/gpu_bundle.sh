#!/usr/bin/env bash
# A GPU test bundle: tools/scripts/gpu_bundle.sh OUT.tar.xz [BUILD_DIR]
# Packs a Release build: BUILD_DIR as it is, or build/ configured and brought up to date
# into one archive that tests it on another machine, from any folder it is unpacked in:
#   vkskin-gpu/run.sh [--quick] [-j N] OUTDIR     (docs/validation.md: "Testing a build on GPU machines")
#   vkskin-gpu/host_targets.sh [--quick] OUTDIR   validate, bake and deform timed on that host
#                             (tools/scripts/gpu_host_targets.sh)
#   vkskin-gpu/build/...      vkskin, the GPU test programs and helpers, at their build paths
#   vkskin-gpu/src/...        the GPU test scripts, tests/data and the bundled datasets
#   vkskin-gpu/gpu-tests/     CTest's GPU-labelled tests as commands relative to the bundle
#                             (tools/scripts/gpu_bundle_tests.cmake)
#   vkskin-gpu/lib/           the shared libraries the programs need, except glibc's, the GCC
#                             runtime's (libstdc++, libgcc_s: the GPU drivers load the
#                             machine's own, which a copy from here could shadow) and the
#                             Vulkan loader's; the driver is the machine's
#   vkskin-gpu/layers/        the Khronos validation layer, when this machine has it (its
#                             library_path made relative; run.sh adds it with VK_ADD_LAYER_PATH)
#   vkskin-gpu/assets/        three.js for validate --report's 3D view, when the build has it
# The build must be a plain one (no sanitizers) with the GPU on. Written to a temporary name
# and renamed when complete.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
usage() { echo "usage: tools/scripts/gpu_bundle.sh OUT.tar.xz [BUILD_DIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case $1 in *.tar.xz) ;; *) usage ;; esac
out=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
if [ $# -eq 2 ]; then # a build made elsewhere, packed as it is
  build=$(cd "$2" && pwd)
else # build/, configured and brought up to date
  "$root/tools/scripts/build.sh" build
  build=$root/build
fi
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
[ "$(cache CMAKE_BUILD_TYPE)" = Release ] || { echo "gpu_bundle: $build is not a Release build" >&2; exit 1; }
[ "$(cache VKSKIN_GPU)" != OFF ] || { echo "gpu_bundle: $build is built without the GPU" >&2; exit 1; }
case $(cache VKSKIN_SANITIZE) in ON | TRUE | 1) echo "gpu_bundle: $build is a sanitizer build" >&2; exit 1 ;; esac
src=$(cache CMAKE_HOME_DIRECTORY)

work=$(mktemp -d "${TMPDIR:-/tmp}/vkskin-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT
stage=$work/vkskin-gpu
mkdir -p "$stage/lib"

# CTest's GPU tests, rewritten to run from the bundle, and the files they name. ctest reads a
# copy of the build's test files: run in the build itself it would write the build's
# Testing/Temporary/LastTest.log, the log of any ctest running there (this script's own test).
(cd "$build" && find . -name CTestTestfile.cmake) | while read -r f; do
  mkdir -p "$work/ctest/$(dirname "$f")"
  cp "$build/$f" "$work/ctest/$f"
done
(cd "$work/ctest" && ctest --show-only=json-v1 -L '^gpu$') > "$work/tests.json"
cmake -DJSON="$work/tests.json" -DSRC="$src" -DBIN="$build" -DCTEST_COPY="$work/ctest" -DOUT="$stage" \
  -P "$root/tools/scripts/gpu_bundle_tests.cmake"
{ sort -u "$stage/files.txt"; echo build/vkskin; echo src/datasets; echo src/tests/data
  echo src/tools/slurm/all_characters.json; echo src/tools/scripts/bench_bake.sh; } | sort -u | # host_targets.sh's
  while read -r f; do
    case $f in build/*) from=$build/${f#build/} ;; *) from=$src/${f#src/} ;; esac
    # a build path not there yet is a test's output (example_bake_vat's folder before it ran):
    # the test makes it in the bundle; a missing source path still fails below
    case $f in build/*) [ -e "$from" ] || continue ;; esac
    mkdir -p "$stage/$(dirname "$f")"
    [ -e "$stage/$f" ] || cp -a "$from" "$stage/$f"
  done
rm "$stage/files.txt"

# Shared libraries: what ldd finds for every program, less glibc, the GCC runtime and Vulkan
system_lib() {
  case $(basename "$1") in
    libc.so* | libm.so* | libmvec.so* | libpthread.so* | libdl.so* | librt.so* | libresolv.so* | libutil.so* | \
      libanl.so* | ld-linux*.so* | ld64.so* | libstdc++.so* | libgcc_s.so* | libvulkan.so*) return 0 ;;
  esac
  return 1
}
find "$stage/build" -type f -perm -u+x | while read -r prog; do
  head -c 4 "$prog" | grep -q "ELF" || continue
  ldd "$prog" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p'
done | sort -u | while read -r lib; do
  system_lib "$lib" || cp -L "$lib" "$stage/lib/"
done

# The validation layer, found by run.sh through VK_ADD_LAYER_PATH
layer_json=""
for d in /usr/share/vulkan/explicit_layer.d /usr/local/share/vulkan/explicit_layer.d /etc/vulkan/explicit_layer.d; do
  [ -f "$d/VkLayer_khronos_validation.json" ] && { layer_json=$d/VkLayer_khronos_validation.json; break; }
done
if [ -n "$layer_json" ]; then
  lib=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$layer_json")
  case $lib in
    /*) path=$lib ;;
    */*) path=$(dirname "$layer_json")/$lib ;;
    *) path=$(ldconfig -p | sed -n "s/.*=> \(.*\/$lib\)\$/\1/p" | head -1) ;;
  esac
  if [ -n "$path" ] && [ -f "$path" ]; then
    mkdir -p "$stage/layers"
    cp -L "$path" "$stage/layers/"
    sed "s|\"library_path\": *\"[^\"]*\"|\"library_path\": \"./$(basename "$path")\"|" "$layer_json" \
      > "$stage/layers/VkLayer_khronos_validation.json"
  fi
fi

# three.js for the report's 3D view (vkskin names the build tree's copy, which is not here)
three=$build/report_assets/node_modules/three/build/three.min.js
if [ -f "$three" ]; then
  mkdir -p "$stage/assets"
  cp "$three" "$stage/assets/"
fi

cp "$root/tools/scripts/gpu_bundle_run.sh" "$stage/run.sh"
cp "$root/tools/scripts/gpu_host_targets.sh" "$stage/host_targets.sh"
chmod +x "$stage/run.sh" "$stage/host_targets.sh"
{
  echo "vkskin GPU test bundle"
  echo "version: $("$build/vkskin" --version 2>/dev/null | head -1)"
  echo "commit: $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "built on: $(uname -m), $(sed -n 's/^PRETTY_NAME=//p' /etc/os-release 2>/dev/null | tr -d '"')"
  echo "validation layer: $([ -d "$stage/layers" ] && echo carried || echo "not carried (the machine's is used)")"
  echo "tests: $(tr '\n' ' ' < "$stage/gpu-tests/list")"
  echo
  echo "Run: ./run.sh [--quick] [-j N] OUTDIR   (./run.sh --help)"
  echo "Time the host's part: ./host_targets.sh [--quick] OUTDIR   (./host_targets.sh --help)"
} > "$stage/BUNDLE.txt"

tar -C "$work" -cf - vkskin-gpu | xz -T0 -1 > "$out.tmp" # -1: a few seconds; -6 saves 20% in ten times as long
mv "$out.tmp" "$out"
echo "gpu_bundle: $out ($(du -h "$out" | cut -f1), $(wc -l < "$stage/gpu-tests/list") GPU tests)"
