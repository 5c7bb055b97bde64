#!/usr/bin/env bash
# Every bundled character stands upright after `vkskin convert` (issue 26, item 5): each file of
# datasets/ in every format is converted to glTF and its bind pose, posed from the .glb by
# gltf_bind_bounds.py (the specification's skinning, not vkskin's reader), must be tallest along
# +Y with more of it above the origin than below (feet down, head up). Before the generator wrote
# each format in its own axes, the RenderWare and NIF characters lay on their backs (Y within
# +-0.18, Z from -1.8 to 0). The real characters of ../shared/datasets are checked the same way
# where that folder is (the quadruped Fox: longer than tall, so only on its feet and not on its
# side), as their conversion must not have moved with the generator.
#   cli_convert_upright.sh VKSKIN SOURCE_DIR
set -uo pipefail
vk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
bounds="$src/tests/cli/gltf_bind_bounds.py"
real=${VKSKIN_REAL_DATASETS:-$src/../shared/datasets}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# convert FILE EXPECT: EXPECT is "upright" (tallest along +Y, head up) or "on-feet" (taller than
# wide, more above the origin than below: a four-legged character)
checks=0
convert() {
  local f=$1 expect=$2 out
  out="$work/$(basename "$f").glb"
  if ! "$vk" convert "$f" "$out" >"$work/log" 2>&1; then
    no "convert $f: $(tail -n 1 "$work/log")"
    return
  fi
  python3 "$bounds" "$out" >"$work/box" || { no "gltf_bind_bounds.py on $out"; return; }
  read -r _ x0 y0 z0 x1 y1 z1 <"$work/box"
  if ! awk -v e="$expect" -v x0="$x0" -v y0="$y0" -v z0="$z0" -v x1="$x1" -v y1="$y1" -v z1="$z1" 'BEGIN {
      ex = x1 - x0; ey = y1 - y0; ez = z1 - z0
      ok = y1 > -y0 && ey > ex && (e == "on-feet" || ey > ez)
      exit !ok }'; then
    no "$(basename "$f") ($expect expected) converts to x $x0..$x1, y $y0..$y1, z $z0..$z1"
  fi
  checks=$((checks + 1))
}

n=0
for f in "$src"/datasets/*.dff "$src"/datasets/*.nif "$src"/datasets/*.cmdl "$src"/datasets/*.p3d; do
  [ -e "$f" ] || continue
  convert "$f" upright
  n=$((n + 1))
done
[ "$n" -eq 16 ] || no "expected the 16 bundled characters (4 of each format), found $n"

if [ -d "$real" ]; then
  for spec in renderware/tube_rw36003.dff:upright p3d/synthetic_skinned_tube.p3d:upright \
              gltf/CesiumMan/CesiumMan.glb:upright gltf/RiggedFigure/RiggedFigure.gltf:upright \
              gltf/Fox/Fox.glb:on-feet; do
    f="$real/${spec%%:*}"
    [ -e "$f" ] && convert "$f" "${spec##*:}" || echo "note: $f absent, not checked"
  done
else
  echo "note: $real absent: the real characters are not checked"
fi
[ $fail -eq 0 ] && echo "cli_convert_upright: $checks conversions stand upright"
exit $fail
