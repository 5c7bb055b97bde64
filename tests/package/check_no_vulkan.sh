#!/usr/bin/env bash
# A -DVKSKIN_GPU=OFF build needs no Vulkan: check_no_vulkan.sh BUILD_DIR [NINJA] [C_COMPILER]
# Fails when any object of the build (library, tools, tests) included a Vulkan or volk header,
# as recorded in Ninja's dependency log, or when the build runs glslc; then installs the build
# into a temporary prefix, where no header may include Vulkan either and the library must
# define every function the installed headers declare (check_symbols.sh --no-gpu).
set -euo pipefail
build=$1
ninja=${2:-ninja}
cc=${3:-cc}
here=$(cd "$(dirname "$0")" && pwd)
deps=$("$ninja" -C "$build" -t deps)
if [ -z "$deps" ]; then
  echo "check_no_vulkan: no dependency log in $build (build it first)" >&2
  exit 1
fi
hits=$(printf '%s\n' "$deps" | grep -E '/(vulkan|volk)[^/]*(/|\.h)' | sort -u || true)
if [ -n "$hits" ]; then
  echo "check_no_vulkan: -DVKSKIN_GPU=OFF build includes Vulkan headers:" >&2
  printf '%s\n' "$hits" | sed 's/^/  /' >&2
  exit 1
fi
if grep -q glslc "$build/build.ninja"; then
  echo "check_no_vulkan: -DVKSKIN_GPU=OFF build runs glslc" >&2
  exit 1
fi
echo "check_no_vulkan: $(printf '%s\n' "$deps" | grep -c '^[^ ].*: #deps') objects, no Vulkan or volk header"

prefix=$(mktemp -d "${TMPDIR:-/tmp}/vkskin-nogpu.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
hits=$(grep -rlE '^#[[:space:]]*include[[:space:]]*[<"](vulkan/|volk\.h)' "$prefix/include" || true)
if [ -n "$hits" ]; then
  echo "check_no_vulkan: installed headers include Vulkan:" >&2
  printf '%s\n' "$hits" | sed "s|$prefix/|  |" >&2
  exit 1
fi
lib=$(find "$prefix" -name 'libvkskin.a' -o -name 'libvkskin.so.*.*' -type f | head -n 1)
"$here/check_symbols.sh" --no-gpu "$lib" "$prefix/include" "$cc"
echo "check_no_vulkan: installed headers and library need no Vulkan"
