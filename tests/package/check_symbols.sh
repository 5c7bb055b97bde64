#!/usr/bin/env bash
# What libvkskin exports: check_symbols.sh [--no-gpu] LIBRARY INCLUDE_DIR [CC] [NM]
#   - a shared library (nm -D --defined-only) or a static one (nm -g --defined-only: the
#     prelinked archive keeps only exported names global) defines vks_* names only: no vks__
#     internals, no volk vk* pointers, nothing else but the linker's own (_init, _fini, ...);
#   - every function declared in the public headers (INCLUDE_DIR/vkskin.h, INCLUDE_DIR/vkskin/*.h)
#     carries VKS_API, and the library defines it (a gpu.h function without its stub in a
#     -DVKSKIN_GPU=OFF build fails here). --no-gpu: a -DVKSKIN_GPU=OFF library, which has no
#     headers that name Vulkan types (those including a Vulkan or volk header, e.g. crowd.h).
set -euo pipefail
nogpu=0
if [ "${1:-}" = --no-gpu ]; then
  nogpu=1
  shift
fi
lib=$1
inc=$2
cc=${3:-cc}
nm=${4:-nm}
fail=0

case "$lib" in
  *.so | *.so.*) mode=(-D --defined-only) ;;
  *) mode=(-g --defined-only) ;;
esac
# Weak instantiations of the C++ standard library's templates (std::map's node eraser, which
# libdraco's headers use in the Draco shim) keep default visibility whatever the build says,
# since libstdc++ declares namespace std visible; a host's own copies are folded with them at
# link time (COMDAT), so they are not names of vkskin's. An -O1 build (the sanitizers') leaves
# some out of line where -O3 inlines them all.
exported=$("$nm" "${mode[@]}" "$lib" |
  awk 'NF >= 3 && !(($2 == "W" || $2 == "V") && $3 ~ /^_ZN?K?St/) { print $3 }' | sort -u)
# The linker's and the sanitizers' own symbols.
allowed='^(_init|_fini|_edata|_end|__bss_start|_ITM_.*|__odr_asan_gen_.*|___asan_gen_.*|__asan_.*|__ubsan_.*|__sancov_.*)$'
bad=$(printf '%s\n' "$exported" | grep -v '^$' | grep -Ev "$allowed" | grep -Ev '^vks_[a-z0-9]' || true)
internal=$(printf '%s\n' "$exported" | grep '^vks__' || true)
if [ -n "$bad$internal" ]; then
  echo "check_symbols: $lib exports names outside the public API:" >&2
  printf '%s\n' $bad $internal | sed 's/^/  /' >&2
  fail=1
fi

# Public declarations: every header under INCLUDE_DIR, preprocessed with VKS_API made visible.
headers=()
for h in "$inc"/vkskin.h "$inc"/vkskin/*.h; do
  [ -e "$h" ] || continue
  if [ $nogpu = 1 ] && grep -Eq '^#[[:space:]]*include[[:space:]]*[<"](vulkan/|volk\.h)' "$h"; then
    continue
  fi
  headers+=("$h")
done
decls=$(for h in "${headers[@]}"; do echo "#include \"$h\""; done |
  "$cc" -E -P -DVKS_API=VKS_API_MARK -I "$inc" -x c - | awk '
  { text = text " " $0 }
  END {
    n = split(text, stmt, /[;{}]/)
    for (i = 1; i <= n; i++) {
      s = stmt[i]
      sub(/^[ \t]+/, "", s)
      if (s ~ /^(typedef|static|return)[ \t]/) continue
      # a function name: vks_ identifier followed by "(" that does not open a (*pointer)
      if (!match(s, /vks_[a-z0-9_]+[ \t]*\([^*]/)) continue
      name = substr(s, RSTART, RLENGTH)
      sub(/[ \t]*\(.*/, "", name)
      print ((s ~ /VKS_API_MARK/) ? "api " : "bare ") name
    }
  }' | sort -u)
count=$(printf '%s\n' "$decls" | grep -c '^api ' || true)
bare=$(printf '%s\n' "$decls" | awk '$1 == "bare" { print $2 }')
if [ -n "$bare" ]; then
  echo "check_symbols: declared in $inc without VKS_API:" >&2
  printf '%s\n' $bare | sed 's/^/  /' >&2
  fail=1
fi
missing=$(comm -23 <(printf '%s\n' "$decls" | awk '$1 == "api" { print $2 }' | sort -u) \
                   <(printf '%s\n' "$exported" | sort -u))
if [ -n "$missing" ]; then
  echo "check_symbols: declared VKS_API but not defined (exported) by $lib:" >&2
  printf '%s\n' $missing | sed 's/^/  /' >&2
  fail=1
fi
nexp=$(printf '%s\n' "$exported" | grep -c '^vks_' || true)
echo "check_symbols: $(basename "$lib"): $nexp vks_ symbols exported, $count public declarations"
exit $fail
