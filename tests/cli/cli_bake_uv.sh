#!/usr/bin/env bash
# vkskin bake keeps the character's UVs in its VAT rest meshes (issue 26, README "Rest meshes
# and UV sets"): Fox.glb (one UV set, one textured material) baked as a 16-bit PNG VAT gives a
# NAME.vat.glb with TEXCOORD_0 = Fox's own UVs and TEXCOORD_1 = the lookup, the material and its
# PNG kept, and a sidecar whose rest_mesh_uv says so (glb lookup 1, character [0]; obj lookup 0);
# the decode test reads the lookup through the sidecar and compares TEXCOORD_0 with the model's
# UVs. A bundled character (datasets/, painted by the generator) gets the same layout: its own
# UV set in TEXCOORD_0, the lookup in TEXCOORD_1. A character without UVs (RiggedFigure.gltf)
# keeps the lookup in TEXCOORD_0.
#   cli_bake_uv.sh VKSKIN TEST_VAT_DECODE REAL_DATASETS
# Exit 77 where Fox.glb is absent.
set -u
vk=$1
decode=$2
fox=${3:-}/gltf/Fox/Fox.glb
figure=${3:-}/gltf/RiggedFigure/RiggedFigure.gltf
src=${VKSKIN_SOURCE_DIR:?}
[ -f "$fox" ] || { echo "skipped: $fox not found"; exit 77; }
[ -f "$figure" ] || { echo "skipped: $figure not found"; exit 77; }
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"

cat > fox.json <<JSON
{"jobs": [{"name": "fox", "model": "$fox", "clips": ["$fox"], "fps": 10, "range": [0, 0.3],
           "outputs": ["vat-png16"]},
          {"name": "bundled", "model": "$src/datasets/char_b24_pl8.cmdl", "clips": ["$src/datasets/char_b24_pl8.cmdl.walk.cskla"],
           "fps": 10, "range": [0, 0.2], "outputs": ["vat-png16"]},
          {"name": "plain", "model": "$figure", "clips": ["$figure"],
           "fps": 10, "range": [0, 0.2], "outputs": ["vat-png16"]}]}
JSON
"$vk" bake fox.json --cpu --out out 2> bake.log; rc=$?
check "bake of Fox.glb, a bundled character and a character without UVs (exit 0)" "[ $rc -eq 0 ] || cat bake.log"
"$decode" out "$tmp" > decode.log 2>&1; rc=$?
check "decode test: lookup in the sidecar's set, TEXCOORD_0 = the characters' UVs" "[ $rc -eq 0 ] || cat decode.log"
python3 - out/fox.vat-png16.json out/plain.vat-png16.json out/fox.vat.glb out/bundled.vat-png16.json \
  out/bundled.vat.glb > sidecar.log 2>&1 <<'PY' || { cat sidecar.log; fail=1; }
import json, struct, sys
fox, plain = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def glb_json(path):
    b = open(path, "rb").read()
    return json.loads(b[20:20 + struct.unpack("<I", b[12:16])[0]])
bundled = json.load(open(sys.argv[4]))
assert bundled["rest_mesh_uv"] == {"glb": {"lookup": 1, "character": [0]}, "obj": {"lookup": 0, "character": []}}, bundled["rest_mesh_uv"]
jb = glb_json(sys.argv[5])
for p in jb["meshes"][0]["primitives"]:
    assert set(k for k in p["attributes"] if k.startswith("TEXCOORD")) == {"TEXCOORD_0", "TEXCOORD_1"}, p["attributes"]
    assert jb["materials"][p["material"]]["name"].startswith("char_skin_"), jb["materials"]
assert fox["rest_mesh_uv"] == {"glb": {"lookup": 1, "character": [0]}, "obj": {"lookup": 0, "character": []}}, fox["rest_mesh_uv"]
assert plain["rest_mesh_uv"] == {"glb": {"lookup": 0, "character": []}, "obj": {"lookup": 0, "character": []}}, plain["rest_mesh_uv"]
roles = {f["path"]: f["role"] for f in fox["files"]}
assert roles["fox.vat.glb"] == "rest mesh (glTF, TEXCOORD_1 = texel)", roles
b = open(sys.argv[3], "rb").read()
j = json.loads(b[20:20 + struct.unpack("<I", b[12:16])[0]])
p = j["meshes"][0]["primitives"][0]
assert set(k for k in p["attributes"] if k.startswith("TEXCOORD")) == {"TEXCOORD_0", "TEXCOORD_1"}, p["attributes"]
m = j["materials"][p["material"]]
assert m["name"] == "fox_material" and "baseColorTexture" in m["pbrMetallicRoughness"], m
assert m["pbrMetallicRoughness"]["baseColorTexture"].get("texCoord", 0) == 0, m
assert j["images"][0]["mimeType"] == "image/png", j["images"]
PY
check "the OBJ keeps the lookup as its one vt per vertex" "[ \$(grep -c '^vt ' out/fox.vat.obj) -eq 1728 ]"
exit $fail
