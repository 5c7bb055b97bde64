#!/usr/bin/env bash
# The library as others use it: package_test.sh SOURCE_DIR [C_COMPILER]
#   1. static (default) and shared (-DBUILD_SHARED_LIBS=ON) builds of the library alone
#      (tools and tests off, Ninja, -j2), each installed into a temporary prefix with
#      `cmake --install --prefix`;
#   2. against each: the CMake consumer (find_package(vkskin CONFIG), links libvulkan too and
#      calls Vulkan itself) and the pkg-config consumer (pkg-config [--static] vkskin), run on
#      the bundled characters; the exported symbols checked (check_symbols.sh);
#   3. the CMake consumer again with add_subdirectory(vkskin) and -DVKSKIN_GPU=OFF.
# Everything is built under one temporary folder, removed at the end.
set -euo pipefail
src=$(cd "$1" && pwd)
cc=${2:-cc}
here="$src/tests/package"
jobs=${VKSKIN_PACKAGE_JOBS:-2}
export CMAKE_BUILD_PARALLEL_LEVEL=$jobs
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
for tool in cmake pkg-config nm "$cc"; do
  command -v "$tool" >/dev/null || { echo "package_test: $tool not found (tools/scripts/setup.sh installs it)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/vkskin-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
models=("$src"/datasets/char_b24_pl8.dff "$src"/datasets/char_b24_pl8.nif "$src"/datasets/char_b24_pl8.cmdl)
lib_only=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" -DVKSKIN_BUILD_TOOLS=OFF -DVKSKIN_TESTS=OFF)

step() { echo "== package_test: $*"; }
quiet() { # runs a command, showing its output only when it fails
  local log="$work/log.txt"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "package_test: failed: $*" >&2
    exit 1
  fi
}

for kind in static shared; do
  shared=OFF
  [ $kind = shared ] && shared=ON
  build="$work/build-$kind"
  prefix="$work/prefix-$kind"
  step "$kind library: configure, build, install"
  t0=$SECONDS
  quiet cmake -S "$src" -B "$build" "${gen[@]}" "${lib_only[@]}" -DVKSKIN_INSTALL=ON -DBUILD_SHARED_LIBS=$shared
  quiet cmake --build "$build"
  quiet cmake --install "$build" --prefix "$prefix"
  echo "   built and installed in $((SECONDS - t0)) s:"
  (cd "$prefix" && find . -type f -o -type l | sort | sed 's|^\./|   |')

  if [ $kind = shared ]; then
    lib=$(find "$prefix" -name 'libvkskin.so.*.*' -type f | head -n 1)
  else
    lib=$(find "$prefix" -name 'libvkskin.a' | head -n 1)
  fi
  [ -n "$lib" ] || { echo "package_test: no $kind libvkskin installed" >&2; exit 1; }
  step "$kind library: exported symbols"
  "$here/check_symbols.sh" "$lib" "$prefix/include" "$cc" nm

  step "$kind library: find_package consumer (with libvulkan)"
  quiet cmake -S "$here/cmake_consumer" -B "$work/cmake-$kind" "${gen[@]}" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_PREFIX_PATH="$prefix"
  quiet cmake --build "$work/cmake-$kind"
  "$work/cmake-$kind/use_vkskin_vulkan" "${models[@]}"

  step "$kind library: pkg-config consumer"
  pcdir=$(dirname "$(find "$prefix" -name vkskin.pc | head -n 1)")
  export PKG_CONFIG_PATH="$pcdir"
  static=()
  rpath=()
  if [ $kind = static ]; then
    static=(--static)
  else
    rpath=("-Wl,-rpath,$(pkg-config --variable=libdir vkskin)")
  fi
  version=$(pkg-config --modversion vkskin)
  echo "   pkg-config: vkskin $version: $(pkg-config --cflags vkskin) $(pkg-config "${static[@]}" --libs vkskin)"
  # shellcheck disable=SC2046
  "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -DEXPECTED_VERSION="\"$version\"" $(pkg-config --cflags vkskin) \
    "$here/use_vkskin.c" "$here/consumer_common.c" -o "$work/pc-$kind" \
    $(pkg-config "${static[@]}" --libs vkskin) "${rpath[@]}" -lm
  "$work/pc-$kind" "${models[@]}"
  unset PKG_CONFIG_PATH
done

step "add_subdirectory(vkskin) with -DVKSKIN_GPU=OFF"
t0=$SECONDS
quiet cmake -S "$here/cmake_consumer" -B "$work/subdir" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$cc" -DVKSKIN_SOURCE_DIR="$src" -DVKSKIN_GPU=OFF
quiet cmake --build "$work/subdir"
echo "   built in $((SECONDS - t0)) s"
if [ -d "$work/subdir/vkskin/spv" ] || grep -q glslc "$work/subdir/build.ninja" 2>/dev/null; then
  echo "package_test: -DVKSKIN_GPU=OFF still compiles shaders" >&2
  exit 1
fi
"$work/subdir/use_vkskin_vulkan" "${models[@]}"
echo "package_test: ok"
