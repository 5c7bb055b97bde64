#!/usr/bin/env bash
# The bundled characters convert painted (issue 26): one character of each format of datasets/
# converted to glTF has TEXCOORD_0 on every primitive (the generator's projection: u and v over
# 0..1) and, where the format's writer and reader keep materials, its materials by name with a
# base colour, the texture name the format gives (RenderWare's "char_skin", P3D's
# "char_skin_co.paa") kept in extras.vkskin.base_texture as convert does for a name glTF cannot
# reference. A VAT bake of a bundled character keeps its UVs in TEXCOORD_0 and the lookup in
# TEXCOORD_1 of NAME.vat.glb, as the sidecar says. Then the Khronos glTF validator checks every
# file (zero errors, zero warnings), as gltf_out does; exit 77 where it cannot be installed.
#   cli_convert_surface.sh VKSKIN SOURCE_DIR
set -uo pipefail
vk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# check.py GLB TEXTURE COLOUR: TEXTURE "-" when the format keeps no materials, "names" when it keeps
# them without texture names; COLOUR material 0's base colour, "-" where the format stores none
# (.cmdl as read, and P3D, whose faces hold a texture or a procedural colour, not both)
cat >"$work/check.py" <<'PY'
import json, struct, sys
path, texture, colour = sys.argv[1], sys.argv[2], sys.argv[3]
b = open(path, "rb").read()
j = json.loads(b[20:20 + struct.unpack("<I", b[12:16])[0]])
bin0 = 20 + struct.unpack("<I", b[12:16])[0] + 8
def floats(acc):
    a = j["accessors"][acc]; v = j["bufferViews"][a["bufferView"]]
    off = bin0 + v.get("byteOffset", 0) + a.get("byteOffset", 0)
    return struct.unpack_from("<%df" % (2 * a["count"]), b, off)
prims = [p for m in j["meshes"] for p in m["primitives"]]
assert prims, "no primitive"
for p in prims:
    assert "TEXCOORD_0" in p["attributes"], ("no TEXCOORD_0", p["attributes"])
    uv = floats(p["attributes"]["TEXCOORD_0"])
    assert min(uv) >= 0 and max(uv) <= 1 and max(uv[1::2]) - min(uv[1::2]) > 0.05, "UVs outside 0..1 or flat"
if texture != "-":
    mats = j.get("materials", [])
    assert mats and all("material" in p for p in prims), "no materials"
    for m in mats:
        # RenderWare materials have no name; the others keep the generator's
        assert m.get("name", "char_skin_").startswith("char_skin_"), m
        if texture != "names":
            assert m["extras"]["vkskin"]["base_texture"] == texture, m
    if colour != "-":
        want = [float(x) for x in colour.split(",")]
        got = mats[0]["pbrMetallicRoughness"].get("baseColorFactor", [1, 1, 1, 1])[:3]
        assert all(abs(g - w) < 1 / 255 for g, w in zip(got, want)), (got, want)
PY

files=()
# format, texture name in extras, material 0's colour (RenderWare stores 8-bit RGBA)
for spec in "dff char_skin 0.80,0.56,0.44" "nif - -" "cmdl names -" "p3d char_skin_co.paa -"; do
  set -- $spec
  f=$src/datasets/char_b24_pl8.$1
  out=$work/char_b24_pl8.$1.glb
  if ! "$vk" convert "$f" "$out" >"$work/log" 2>&1; then
    no "convert $f: $(tail -n 1 "$work/log")"
    continue
  fi
  python3 "$work/check.py" "$out" "$2" "$3" >"$work/py" 2>&1 || no "$1: $(tail -n 1 "$work/py")"
  files+=("$out")
done

m=$src/datasets/char_b24_pl8.dff
printf '{"jobs": [{"name": "char", "model": "%s", "clips": ["%s"], "fps": 10, "range": [0, 0.2], "outputs": ["vat-png16"]}]}\n' \
  "$m" "$m.walk.anm" >"$work/bake.json"
if "$vk" bake "$work/bake.json" --cpu --out "$work/bake" >"$work/log" 2>&1; then
  python3 - "$work/bake/char.vat-png16.json" "$work/bake/char.vat.glb" "$work/char_b24_pl8.dff.glb" >"$work/py" 2>&1 <<'PY' ||
import json, struct, sys
side = json.load(open(sys.argv[1]))
assert side["rest_mesh_uv"]["glb"] == {"lookup": 1, "character": [0]}, side["rest_mesh_uv"]
def load(path):
    b = open(path, "rb").read()
    n = struct.unpack("<I", b[12:16])[0]
    return b, json.loads(b[20:20 + n]), 20 + n + 8
def uvs(path, name):
    b, j, bin0 = load(path)
    out = []
    for m in j["meshes"]:
        for p in m["primitives"]:
            a = j["accessors"][p["attributes"][name]]; v = j["bufferViews"][a["bufferView"]]
            off = bin0 + v.get("byteOffset", 0) + a.get("byteOffset", 0)
            f = struct.unpack_from("<%df" % (2 * a["count"]), b, off)
            out += [(f[2 * i], f[2 * i + 1]) for i in range(a["count"])]
    return out
rest0, rest1 = uvs(sys.argv[2], "TEXCOORD_0"), uvs(sys.argv[2], "TEXCOORD_1")
assert len(rest0) == len(rest1) and rest0 != rest1, "TEXCOORD_0 and TEXCOORD_1 the same"
# the rest mesh's UV0 is the character's own: the same set of UVs its conversion carries
conv = set(uvs(sys.argv[3], "TEXCOORD_0"))
assert set(rest0) == conv, "TEXCOORD_0 of the rest mesh is not the character's UV set"
PY
  no "bake: $(tail -n 1 "$work/py")"
  files+=("$work/bake/char.vat.glb")
else
  no "bake $m: $(tail -n 1 "$work/log")"
fi
[ $fail -eq 0 ] || exit 1
echo "cli_convert_surface: ${#files[@]} files painted as expected"

# the Khronos validator, where it can be installed (as gltf_out)
cache=$("$src/tests/node/install.sh") || exit 77
cp "$src"/tests/node/validate.mjs "$work"/ && ln -s "$cache/node_modules" "$work/node_modules"
(cd "$work" && node validate.mjs "${files[@]}") || { echo "FAIL: gltf-validator reported errors or warnings"; exit 1; }
