#!/usr/bin/env bash
# The Unity and Unreal playback kits' HLSL (engines/unity, engines/unreal) compile with a real
# HLSL front end: glslang's (glslangValidator -D), as a vertex shader to SPIR-V, through small
# wrappers (tests/engines/hlsl) that call every function of the kits as the engines would. The
# check can fail: a copy of each kit file with one call broken must not compile.
# Skipped (77) without glslangValidator (Debian's glslang-tools).
set -u
src=${VKSKIN_SOURCE_DIR:?}
glslang=$(command -v glslangValidator || true)
[ -n "$glslang" ] || { echo "glslangValidator not installed (glslang-tools): skipped"; exit 77; }
fail=0
no() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# compile WRAPPER INCLUDE-DIR: 0 when it compiles
compile() {
  "$glslang" -D -V -S vert -e main -I"$2" -o "$tmp/out.spv" "$src/tests/engines/hlsl/$1.hlsl" > "$tmp/$1.log" 2>&1
}
for pair in unity_vat:unity:VkskinVat.hlsl unreal_vat:unreal/Shaders:VkskinVat.ush; do
  IFS=: read -r wrapper kit file <<< "$pair"
  if compile "$wrapper" "$src/engines/$kit"; then
    grep -qi "warning" "$tmp/$wrapper.log" && no "$kit: warnings: $(grep -i warning "$tmp/$wrapper.log" | head -3)"
    [ -s "$tmp/out.spv" ] || no "$kit: no SPIR-V written"
  else
    no "$kit: $file does not compile: $(grep -i error "$tmp/$wrapper.log" | head -5)"
  fi
  # the same with one call broken (a missing argument) must fail
  mkdir -p "$tmp/broken_$kit"
  cp "$src/engines/$kit/"* "$tmp/broken_$kit/"
  sed -i 's/VkskinClipFrames(clip, frame, f0, f1, t);/VkskinClipFrames(clip, frame, f0, f1);/' "$tmp/broken_$kit/$file"
  cmp -s "$src/engines/$kit/$file" "$tmp/broken_$kit/$file" && no "$kit: the broken copy is not broken"
  compile "$wrapper" "$tmp/broken_$kit" && no "$kit: a broken $file compiled: the wrapper does not reach the kit"
done
[ $fail -eq 0 ] && echo "engines_hlsl: the Unity include, the Shader Graph node and the Unreal custom-node HLSL compile"
exit $fail
