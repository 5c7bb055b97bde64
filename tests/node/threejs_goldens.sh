#!/usr/bin/env bash
# Whole characters against three.js (issue 38): real and Blender-authored characters, as they
# are and compressed by the ecosystem's encoders at test time, each played by three.js in Node
# (threejs_check.mjs WHOLE jobs: GLTFLoader decoding EXT_meshopt_compression with three.js's
# own meshopt decoder and KHR_draco_mesh_compression with Google's draco3dgltf, the skinned
# meshes skinned over every JOINTS/WEIGHTS set, morph targets at the clip's weights, rigid
# meshes by their nodes' world matrices) at 5 times off the keys of a clip, against
# `vkskin deform FILE --clip FILE#N --format raw` on --cpu, --cpu-fast and --gpu (with the
# validation layer; skipped without a Vulkan device), every vertex within 1e-5 of the bounding
# radius; and `vkskin validate` with the clip passes on each file.
#   RobotExpressive (tests/data/robot_expressive: 4 skinned meshes, 15 rigid parts under bones,
#     3 morph targets on the rigid head parts) with clips 0 and 6, and through gltfpack -c -kn
#     and -cc -kn; its clips hold the face's weights at 0, so a copy whose weights channels
#     move them (gltf_variants.py face) is played too, as it is and through gltfpack -cc -kn;
#     draco_transcoder refuses morph targets, so it encodes the robot without them (never
#     driven: the same deformation)
#   tube8, prop_char, shapekey_body (tests/data/blender: 8 influences in JOINTS_0/1, props
#     parented to bones, shape keys with a weights channel), as they are and through
#     gltfpack -c -kn, -cc -kn and draco_transcoder (not shapekey_body: morph targets). Both
#     encoders keep 4 influences of tube8's 8 (gltfpack 0.18, draco_transcoder: JOINTS_0 only).
# gltfpack resamples animations at 30 Hz and quantises their keys (-cc: meshopt's filters too):
# each copy's golden is played from the copy's own keys, decoded by three.js, never from the
# original. The check can fail: three.js's golden of a file against vkskin deforming a broken
# copy of it (a prop detached from its bone, the face's weights channels taken away,
# JOINTS_1/WEIGHTS_1 taken away) must fail, each on its own. The sanitizer phase
# (VKSKIN_TEST_SANITIZER_SUBSET=1, set by tools/scripts/test.sh --sanitize) plays 8 of the 17
# files: the robot as it is, its -cc copies and its Draco copy, tube8 as it is, prop_char's -cc
# and Draco copies and shapekey_body's -c copy (weights keys as bytes).
#   threejs_goldens.sh VKSKIN
# Exit 77 where node/npm, gltfpack or draco_transcoder are missing (said on stderr).
set -uo pipefail
vkskin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
data=$here/../data
for tool in gltfpack draco_transcoder python3; do
  command -v $tool > /dev/null || { echo "skipped: $tool is not installed (tools/scripts/setup.sh installs it)" >&2; exit 77; }
done
cache=$("$here/install.sh") || exit $?
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*.mjs "$work"/ && ln -s "$cache/node_modules" "$work/node_modules"
cd "$work" || exit 1
fail=0
say() { echo "FAIL: $*"; fail=1; }
variant() { python3 "$here/gltf_variants.py" "$@" || say "gltf_variants.py $*"; }
pack() { # NAME SOURCE: NAME.c.glb and NAME.cc.glb by gltfpack, keeping the named nodes
  gltfpack -i "$2" -o "$1.c.glb" -c -kn > /dev/null || say "gltfpack -c -kn $2"
  gltfpack -i "$2" -o "$1.cc.glb" -cc -kn > /dev/null || say "gltfpack -cc -kn $2"
}
draco() { draco_transcoder -i "$2" -o "$1.draco.glb" > /dev/null || say "draco_transcoder $2"; }

robot=$data/robot_expressive/RobotExpressive.glb
variant face "$robot" robot_face.glb
variant nomorph "$robot" robot_nomorph.glb
pack robot "$robot"
pack robot_face robot_face.glb
draco robot_nomorph robot_nomorph.glb
files=("$robot" robot.c.glb robot.cc.glb robot_face.glb robot_face.cc.glb robot_nomorph.draco.glb)
for name in tube8 prop_char shapekey_body; do
  pack $name "$data/blender/$name.glb"
  files+=("$data/blender/$name.glb" $name.c.glb $name.cc.glb)
  [ $name = shapekey_body ] || { draco $name "$data/blender/$name.glb"; files+=($name.draco.glb); }
done
if [ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ]; then
  files=("$robot" robot.cc.glb robot_face.cc.glb robot_nomorph.draco.glb "$data/blender/tube8.glb" prop_char.cc.glb
    prop_char.draco.glb shapekey_body.c.glb)
fi
grep -q EXT_meshopt_compression robot.cc.glb && grep -q KHR_mesh_quantization robot.cc.glb &&
  grep -q KHR_draco_mesh_compression robot_nomorph.draco.glb || say "the copies lack their compression extensions"

# the goldens: animation 0 of every file, and the robot's "Running" (6) too
: > jobs.txt
for f in "${files[@]}"; do printf 'WHOLE\t%s\t0\t5\n' "$f" >> jobs.txt; done
printf 'WHOLE\t%s\t6\t5\n' "$robot" >> jobs.txt
gpu=0
if "$vkskin" devices > /dev/null 2>&1; then gpu=1; else echo "note: no Vulkan device: --gpu and validate not run"; fi
VKS_GPU=$gpu node threejs_check.mjs "$vkskin" jobs.txt > check.txt 2>&1 || say "three.js disagrees with vkskin"
grep -v '^note' check.txt
[ "$(grep -c '^ok ' check.txt)" -eq $((($(wc -l < jobs.txt)) * (2 + gpu))) ] || say "not every file was compared on every engine"
if [ $gpu = 1 ]; then # validate runs the GPU beside the reference
  for f in "${files[@]}"; do
    "$vkskin" validate "$f" --clip "$f#0" --instances 3 --frames 3 --fps 2 > val.txt 2>&1 ||
      say "validate $(basename "$f"): $(tail -5 val.txt)"
  done
fi

# the negative cases (CPU engines): vkskin on a broken copy against the golden of the file
variant detach prop_char.cc.glb detached.glb
variant weights robot_face.cc.glb noweights.glb
variant influences "$data/blender/tube8.glb" noset1.glb
for bad in "prop_char.cc.glb detached.glb" "robot_face.cc.glb noweights.glb" "$data/blender/tube8.glb noset1.glb"; do
  set -- $bad
  printf 'WHOLE\t%s\t0\t3\t%s\n' "$1" "$2" > bad.txt
  VKS_GPU=0 node threejs_check.mjs "$vkskin" bad.txt > bad.log 2>&1
  # exit 1 from the comparison itself: both CPU engines off the golden, no exception
  if [ $? -eq 1 ] && [ "$(grep -c '^FAIL' bad.log)" -eq 2 ] && ! grep -q Error bad.log; then
    echo "as expected: $(grep '^FAIL' bad.log | head -1)"
  else
    say "three.js's golden of $(basename "$1") against vkskin on $2: $(cat bad.log)"
  fi
done
[ $fail = 0 ] && echo "ok: ${#files[@]} files, $(grep -c . jobs.txt) clips, three.js and vkskin agree on every engine"
exit $fail
