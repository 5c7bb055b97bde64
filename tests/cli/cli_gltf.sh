#!/usr/bin/env bash
# glTF through the vkskin program (issue 14, the reader): inspect (text, JSON, --clips),
# deform playing a file's own clips on the CPU engines (SimpleSkin at 1 s against vertices
# worked out by hand), a .gltf read through a relative path from another folder and one whose
# .bin is missing (named in the error), a clip name the file lacks (its clips listed); with a
# Vulkan device: validate with the validation layer (Fox's three clips, CesiumMan and
# RiggedFigure, whose inverse binds leave out their Z_UP turn: passed as placed, no flag),
# deform --gpu, render and a crowd mixing glTF models.
# Usage: cli_gltf.sh VKSKIN DATASETS [CHECK_PNG]
set -u
here=$(cd "$(dirname "$0")" && pwd)
vk=$1
data=$2/gltf
check_png=${3:-}
[ -f "$data/Fox/Fox.glb" ] || { echo "glTF samples not found in $data: skipped"; exit 77; }
data=$(cd "$data" && pwd)
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

expect() {
  local want=$1 what=$2; shift 2
  "$@" > out 2> err; local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want ($(head -c 600 err))"; fail=1
  elif [ "$want" -ne 0 ] && [ ! -s err ]; then
    echo "FAIL: $what: exit $rc with no message"; fail=1
  fi
}
has() { grep -q -- "$3" "$2" || { echo "FAIL: $1: $2 lacks '$3': $(head -c 600 "$2")"; fail=1; }; }

fox=$data/Fox/Fox.glb
simple=$data/SimpleSkin/SimpleSkin.gltf

# ---- inspect ----
expect 0 "inspect .glb" "$vk" inspect "$fox"
has "inspect .glb" out "gltf glTF 2.0 (.glb)"
has "inspect .glb" out "25 nodes, 1 skinned mesh(es), 24 bones, 1 groups, 1728 vertices, 576 triangles"
expect 0 "inspect --json" "$vk" inspect --json "$fox"
has "inspect --json" out '"format":[[:space:]]*"gltf"'
# what Fox is painted with (issue 26): its UV set, material, embedded PNG and sampler
has "inspect --json: the material" out '"name":[[:space:]]*"fox_material"'
has "inspect --json: the image" out '"mime_type":[[:space:]]*"image/png"'
has "inspect --json: the image's bytes" out '"bytes":[[:space:]]*26764'
has "inspect --json: the sampler" out '"mag_filter":[[:space:]]*9729'
expect 0 "inspect .glb (surface)" "$vk" inspect "$fox"
has "inspect: the UV set" out "UV sets: 1"
has "inspect: the UV range" out "\[0\] u 0.02044..0.983, v 0.01976..0.985"
has "inspect: the material" out '\[0\] "fox_material": base colour (1, 1, 1, 1), texture image 0, sampler 0 on UV set 0'
has "inspect: the image" out '\[0\] "" image/png, 26764 bytes embedded'
has "inspect: the mesh's surface" out "1 UV set, material 0"
expect 0 "inspect --clips" "$vk" inspect --clips "$fox"
has "inspect --clips" out "3 clips"
has "inspect --clips" out 'clip 1 "Walk": 0.7083 s'
# a relative path from another folder: the .bin is found beside the .gltf
expect 0 "inspect .gltf by a relative path" bash -c "cd '$data/..' && '$vk' inspect gltf/RiggedSimple/RiggedSimple.gltf"
has "inspect .gltf" out "160 vertices, 188 triangles"
# without its .bin: the error names the buffer and the file
cp "$data/RiggedSimple/RiggedSimple.gltf" lonely.gltf
expect 1 "a .gltf without its .bin" "$vk" inspect lonely.gltf
has "a .gltf without its .bin" err "buffers\[0\]"
has "a .gltf without its .bin" err "RiggedSimple0.bin"
# JOINTS_1/WEIGHTS_1: the test's hand-made file with one vertex of 8 weights
two_sets=$here/../fuzz/gltf/two_sets.gltf
expect 0 "inspect two weight sets" "$vk" inspect "$two_sets"
has "inspect two weight sets" out "1 with 5 or more weights (glTF JOINTS_1), kept as stored"
has "inspect two weight sets" out "up to 8 influences"
# a glTF whose one mesh has no skin: a rigid part on its node, read and listed
echo '{"asset":{"version":"2.0"},"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"accessors":[{"componentType":5126,"count":3,"type":"VEC3"}]}' > rigid.gltf
expect 0 "an unskinned glTF" "$vk" inspect rigid.gltf
has "an unskinned glTF" out "1 rigid mesh node(s)"
# points and lines are no surface to deform: said with their vertex counts, never silently
# (a mesh of triangles beside points: the points' vertices named on stderr and in the detail)
python3 - <<'EOF'
import base64, json, struct
pos = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
data = "data:application/octet-stream;base64," + base64.b64encode(pos).decode()
doc = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
       "buffers": [{"uri": data, "byteLength": 36}], "bufferViews": [{"buffer": 0, "byteLength": 36}],
       "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}],
       "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}, {"attributes": {"POSITION": 0}, "mode": 0}]}]}
json.dump(doc, open("points.gltf", "w"))
doc["extensionsUsed"] = ["EXT_mesh_gpu_instancing"]
doc["nodes"][0]["extensions"] = {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": 0}}}
json.dump(doc, open("instanced.gltf", "w"))
EOF
expect 0 "points beside triangles" "$vk" inspect points.gltf
has "points beside triangles" err "mode 0 (points) is not a surface to deform: 3 vertices skipped"
has "points beside triangles" out "1 primitive(s) without triangles skipped (3 vertices of points and lines)"
expect 0 "EXT_mesh_gpu_instancing" "$vk" inspect instanced.gltf
has "EXT_mesh_gpu_instancing" err "nodes\[0\]: EXT_mesh_gpu_instancing draws its mesh at 3 places; read once, at the node"
# a glTF with neither a mesh nor an animation: the model's error, not the clips'
echo '{"asset":{"version":"2.0"},"nodes":[{"name":"empty"}]}' > empty.gltf
expect 1 "a glTF without meshes" "$vk" inspect empty.gltf
has "a glTF without meshes" err "nodes: the scene has no node with a mesh"

# ---- CPU: the file's own clips ----
# SimpleSkin at 1 s (node 2 turned 90 degrees about z): vertex 8 (-0.5, 2, 0) -> (-1, 0.5, 0),
# vertex 4 (-0.5, 1, 0), half on each joint -> (-0.25, 0.75, 0)
expect 0 "deform SimpleSkin at 1 s" "$vk" deform "$simple" --clip "$simple" --time 1 --out s.csv
has "SimpleSkin at 1 s" s.csv "^0,0,0,8,-1,0.5,0,"
has "SimpleSkin at 1 s" s.csv "^0,0,0,4,-0.25,0.75,0,"
expect 0 "deform --clip .glb#Walk" "$vk" deform "$fox" --cpu --clip "$fox#Walk" --instances 2 --stagger --frames 3 --out fox.csv
rows=$(($(wc -l < fox.csv) - 1))
[ "$rows" -eq $((2 * 3 * 1728)) ] || { echo "FAIL: deform --clip Fox wrote $rows rows"; fail=1; }
expect 0 "deform --cpu-fast --clip #2" "$vk" deform "$fox" --cpu-fast --clip "$fox#2" --instances 2 --frames 2 --out run.csv
expect 1 "a clip the file lacks" "$vk" deform "$fox" --clip "$fox#Jump" --out x.csv
has "a clip the file lacks" err '"Survey", "Walk", "Run"'

# ---- GPU ----
# (the leak check stays on under the sanitizers: src/gpu/vulkan/keep_drivers.c)
gpu="ASAN_OPTIONS=${ASAN_OPTIONS:-}"
if ! env "$gpu" "$vk" devices > /dev/null 2>&1; then
  echo "no Vulkan device: the GPU checks skipped"
  [ $fail -eq 0 ] && echo "cli_gltf: all CPU checks passed"
  exit $fail
fi
for clip in Survey Walk Run; do
  expect 0 "validate Fox #$clip" env "$gpu" "$vk" validate "$fox" --clip "$fox#$clip" --instances 12 --stagger --frames 3 --validation
  grep -q "^PASS: 1 file(s).*clips sampled in the crowd's pose pass.*validation layer clean" out ||
    { echo "FAIL: validate Fox #$clip: $(tail -1 out)"; fail=1; }
done
for f in CesiumMan/CesiumMan.glb RiggedFigure/RiggedFigure.gltf RiggedSimple/RiggedSimple.gltf; do
  expect 0 "validate $f" env "$gpu" "$vk" validate "$data/$f" --clip "$data/$f" --instances 6 --stagger --frames 2 --validation
  grep -q "^PASS" out || { echo "FAIL: validate $f: $(tail -1 out)"; fail=1; }
  grep -q "bind pose .*PASS (placed" out || { echo "FAIL: validate $f: the placement not said"; fail=1; }
  grep -q "note: every bone's bind skin matrix is one rigid transform" err || { echo "FAIL: validate $f: no placement note"; fail=1; }
done
expect 0 "deform --gpu --clip" env "$gpu" "$vk" deform "$fox" --gpu --clip "$fox#Walk" --instances 2 --stagger --frames 3 --out fox_gpu.csv --validation
[ "$(wc -l < fox_gpu.csv)" -eq "$(wc -l < fox.csv)" ] || { echo "FAIL: deform --gpu wrote another row count"; fail=1; }
cat > crowd.json <<EOF2
{"instances": [
  {"model": "$fox", "clip": "$fox#Run", "start": 0.2},
  {"model": "$fox", "clip": "$fox#Survey", "speed": 1.5, "cycle": "mirror"},
  {"model": "$simple", "clip": "$simple", "start": 1.0,
   "root": {"translation": [2, 0, 0], "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]}}
]}
EOF2
expect 0 "validate a glTF crowd" env "$gpu" "$vk" validate --crowd crowd.json --frames 3 --validation
grep -q "^PASS: 2 file(s).*validation layer clean" out || { echo "FAIL: glTF crowd: $(tail -1 out)"; fail=1; }
expect 0 "render --clip" env "$gpu" "$vk" render "$fox" --clip "$fox#Walk" --instances 4 --stagger --out fox.png --validation
if [ -n "$check_png" ]; then
  "$check_png" fox.png 640 360 || fail=1
fi
[ $fail -eq 0 ] && echo "cli_gltf: all checks passed"
exit $fail
