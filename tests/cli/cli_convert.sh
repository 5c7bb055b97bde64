#!/usr/bin/env bash
# vkskin convert and deform --format glb|gltf through the program, without Node: exit codes and
# messages of bad usage and bad input, nothing left under the output's name or as a temporary
# when a run fails, and the containers' first bytes when it succeeds.
#   cli_convert.sh VKSKIN
set -uo pipefail
vk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
# expect CODE WHAT command...: runs it, checks the exit code, keeps stderr in err
expect() {
  local code=$1 what=$2
  shift 2
  "$@" >out 2>err
  local got=$?
  if [ $got -ne "$code" ]; then
    echo "FAIL: $what: exit $got, expected $code"; cat err; fail=1
  fi
}
says() { grep -q -- "$1" err || { echo "FAIL: stderr lacks '$1':"; cat err; fail=1; }; }
"$vk" generate --datasets gen >/dev/null 2>&1 || { echo "FAIL: generate"; exit 1; }
m=gen/char_b24_pl8.dff

expect 2 "no arguments" "$vk" convert
expect 2 "an output that is not .glb or .gltf" "$vk" convert "$m" out.obj
says "must end in .glb or .gltf"
expect 2 "an unknown option" "$vk" convert "$m" out.glb --frobnicate
expect 2 "--fps 0" "$vk" convert "$m" out.glb --fps 0
cp "$m" same.glb
expect 2 "the output is the input" "$vk" convert same.glb same.glb
says "one of the inputs; refusing to overwrite it"
expect 1 "a missing input" "$vk" convert missing.dff out.glb
head -c 700 "$m" >truncated.dff
expect 1 "a truncated model" "$vk" convert truncated.dff out.glb
says "truncated.dff:0x"
printf 'not a clip at all' >junk.xyz
expect 1 "a clip file that is no clip" "$vk" convert "$m" out.glb --clip junk.xyz
says "not a clip file vkskin reads"
expect 1 "a clip name the file lacks" "$vk" convert "$m" out.glb --clip "$m.ifp#nosuch"
says "no clip named 'nosuch'"
expect 1 "a clip for another skeleton" "$vk" convert gen/char_b24_pl8.cmdl out.glb --clip "$m.walk.anm"
says "drives none of the model's nodes"
expect 5 "an output folder that does not exist" "$vk" convert "$m" nowhere/out.glb
[ ! -e out.glb ] || { echo "FAIL: a failed convert left out.glb"; fail=1; }

expect 0 "convert to .glb" "$vk" convert "$m" out.glb --clip "$m.ifp" --clip "$m.walk.anm#0"
says "3 animation(s)"
[ "$(head -c 4 out.glb)" = glTF ] || { echo "FAIL: out.glb is not a GLB"; fail=1; }
expect 0 "convert to .gltf" "$vk" convert gen/char_b24_pl8.p3d out.gltf --clip gen/char_b24_pl8.p3d.walk.rtm --fps 10
says "sampled at 10 fps"
# clips without a name of their own (.anm, .rtm) are named after their file
grep -q '"name":"char_b24_pl8.p3d.walk"' out.gltf || { echo "FAIL: the .rtm's animation is not named after its file"; fail=1; }
grep -q '"uri":"data:application/octet-stream;base64,' out.gltf || { echo "FAIL: out.gltf has no embedded buffer"; fail=1; }
ls ./*.tmp.* >/dev/null 2>&1 && { echo "FAIL: temporaries left: $(ls ./*.tmp.*)"; fail=1; }
# what convert writes, vkskin reads back without flags: the Z-up (RenderWare) and left-handed
# (P3D) corrections above the skeleton pass the bind check as placed, NW4C needs none
expect 0 "inspect the converted .glb" "$vk" inspect out.glb
says "one rigid transform"
expect 0 "inspect the converted .gltf" "$vk" inspect out.gltf
says "one rigid transform"
"$vk" convert gen/char_b24_pl8.cmdl nw.glb >/dev/null 2>&1
expect 0 "inspect a converted .cmdl" "$vk" inspect nw.glb
grep -q "one rigid transform" err && { echo "FAIL: an NW4C conversion has no correction to place"; fail=1; }

expect 2 "a glTF bake of two instances" "$vk" deform "$m" --cpu --instances 2 --format glb --out bake.glb
says "one instance"
expect 2 "an unknown deform format" "$vk" deform "$m" --cpu --format xyz --out bake.glb
says "glb, gltf"
expect 0 "a glTF bake" "$vk" deform "$m" --cpu --frames 3 --out bake.glb
[ "$(head -c 4 bake.glb)" = glTF ] || { echo "FAIL: bake.glb is not a GLB"; fail=1; }
[ $fail -eq 0 ] && echo "cli_convert: all checks passed"
exit $fail
