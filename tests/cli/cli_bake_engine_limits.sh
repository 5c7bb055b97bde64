#!/usr/bin/env bash
# vkskin bake (docs/baking.md "Batch baking", "Engine limits" and "Sidecars"): a job whose texture would
# be taller than "max_height" (default 16384) is refused before any work, naming the keys that
# help; "pow2" pads a VAT to powers of two and the decode test still reads it; the sidecars
# carry up axis, handedness, unit, colour space and per clip cycle, loop, fps and file index,
# and validate against docs/schema/bake_sidecar.schema.json; unnamed clips are named as
# convert names them; the 16-bit PNGs say linear (gAMA 1.0, no sRGB chunk); the OBJ rest
# mesh's v counts from the bottom, so its comment says a shader subtracts the frame step.
# Exit 77 without OpenEXR, or (after every other check passed) without python3's jsonschema.
set -u
vk=$1
decode=$2
src=${VKSKIN_SOURCE_DIR:?}
d=$src/datasets
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
cd "$tmp"

cat > probe.json <<JSON
{"jobs": [{"model": "$d/char_b24_pl8.cmdl", "clips": ["$d/char_b24_pl8.cmdl.walk.cskla"],
           "range": [0, 0.1], "outputs": ["vat-exr-float"]}]}
JSON
if "$vk" bake probe.json --cpu --out probe 2>&1 | grep -q "without OpenEXR"; then
    echo "skipped: vkskin was built without OpenEXR (install libopenexr-dev)"
    exit 77
fi

# 1. over the limits: refused before any work (exit 1, nothing written), the message naming
#    the texture's size and the keys that help. 1562 vertices in rows of 1024 are 2 rows a
#    frame; 2 s at 5000 fps are 10001 frames, 20002 rows.
cat > tall.json <<JSON
{"jobs": [{"model": "$d/char_b24_pl8.nif", "clips": ["$d/char_b24_pl8.nif.wave.kf"], "fps": 5000,
           "max_width": 1024, "outputs": ["vat-png16", "pc2"]}]}
JSON
"$vk" bake tall.json --cpu --out tall 2> tall.log; rc=$?
check "a VAT taller than 16384 rows is refused (exit 1)" "[ $rc -eq 1 ]"
check "... saying its size and what helps" \
    "grep -q 'tall.json: jobs\[0\]: the VAT of 1562 vertices x 10001 frames is 1024 x 20002 texels (2 rows per frame), over \"max_height\" 16384: lower \"fps\" or \"range\", split its clips into jobs, raise \"max_width\"' tall.log"
check "... before any output is written" "[ -z \"\$(ls tall 2>/dev/null)\" ]"
cat > short.json <<JSON
{"defaults": {"max_height": 40},
 "jobs": [{"model": "$d/char_b24_pl8.nif", "clips": ["$d/char_b24_pl8.nif.wave.kf"], "outputs": ["vat-exr-half"]},
          {"name": "atlas", "model": "$d/char_b24_pl8.nif", "clips": ["$d/char_b24_pl8.nif.wave.kf"],
           "outputs": ["atlas"]},
          {"name": "fits", "model": "$d/char_b24_pl8.nif", "clips": ["$d/char_b24_pl8.nif.wave.kf"],
           "range": [0, 1], "outputs": ["vat-exr-half", "atlas"]}]}
JSON
"$vk" bake short.json --cpu --out short 2> short.log; rc=$?
check "\"max_height\" in defaults: a job over it fails the run (exit 1)" "[ $rc -eq 1 ]"
check "... the VAT of 61 rows over 40 is refused" \
    "grep -q 'short.json: jobs\[0\]: the VAT of 1562 vertices x 61 frames is 1562 x 61 texels (1 row per frame), over \"max_height\" 40: ' short.log"
check "... and so is the atlas" \
    "grep -q 'short.json: jobs\[1\]: the bone atlas of 24 bones x 61 frames is 72 x 61 texels, over \"max_height\" 40: lower \"fps\"' short.log"
check "... a job within it is baked" "[ -s short/fits.vat-exr-half.json ] && [ -s short/fits.atlas.json ]"
check "... the others leave nothing" "[ -z \"\$(ls short | grep -v '^fits\.')\" ]"

# 2. manifest values of the new keys are checked
bad() {
    printf '%s' "$1" > bad.json
    "$vk" bake bad.json --cpu --out badout 2> bad.log; rc=$?
    check "bad manifest: $2" "[ $rc -eq 1 ] && grep -q '$2' bad.log"
}
bad "{\"jobs\": [{\"model\": \"$d/char_b24_pl8.nif\", \"clips\": [], \"outputs\": [\"raw\"], \"max_height\": 0}]}" \
    'bad.json: jobs\[0\]: "max_height" must be a number in \[1, '
bad "{\"jobs\": [{\"model\": \"$d/char_b24_pl8.nif\", \"clips\": [], \"outputs\": [\"raw\"], \"pow2\": 1}]}" \
    'bad.json: jobs\[0\]: "pow2"'

# 3. pow2: 1562 columns padded to 2048, 21 rows to 32; the decode test reads it through the
#    sidecar; every output kind's sidecar of unnamed RenderWare clips
cat > pow2.json <<JSON
{"jobs": [{"model": "$d/char_b24_pl8.dff",
           "clips": ["$d/char_b24_pl8.dff.walk.anm", "$d/char_b24_pl8.dff.wave.anm", "$d/char_b24_pl8.dff.ifp"],
           "range": [0, 0.2], "pow2": true,
           "outputs": ["vat-exr-float", "vat-exr-half", "vat-png16", "atlas", "pc2", "raw", "gltf-morph"]},
          {"model": "$d/char_b24_pl8.p3d", "clips": [{"file": "$d/char_b24_pl8.p3d.walk.rtm", "duration": 1}],
           "range": [0, 0.1], "max_width": 1000, "outputs": ["vat-png16"]}]}
JSON
"$vk" bake pow2.json --cpu --out pow2 2> pow2.log; rc=$?
check "a pow2 bake exits 0" "[ $rc -eq 0 ]"
sc=pow2/char_b24_pl8.dff.vat-png16.json
check "the sidecar says 2048 x pow2 rows" \
    "grep -q '\"width\":\s*2048' $sc && grep -q '\"pow2\":\s*true' $sc && grep -Eq '\"height\":\s*(32|64)\b' $sc"
"$decode" pow2 "$src/tools/slurm" > /dev/null; rc=$?
check "decode test of the padded layout" "[ $rc -eq 0 ]"
check "unnamed clips are named after their file, as convert names them" \
    "grep -q '\"name\":\s*\"char_b24_pl8.dff.walk\"' $sc && grep -q '\"name\":\s*\"char_b24_pl8.dff.wave\"' $sc"
check "... and no clip is named \"0\"" "! grep -q '\"name\":\s*\"0\"' pow2/*.json"
check "the sidecar gives the model's space" \
    "grep -q '\"up_axis\":\s*\"+z\"' $sc && grep -q '\"handedness\":\s*\"right\"' $sc && grep -q '\"unit\":\s*\"metre\"' $sc"
check "... a P3D model's is Y-up left-handed" \
    "grep -q '\"up_axis\":\s*\"+y\"' pow2/char_b24_pl8.p3d.vat-png16.json && grep -q '\"handedness\":\s*\"left\"' pow2/char_b24_pl8.p3d.vat-png16.json"
check "per clip its cycle, loop flag and fps" \
    "grep -q '\"cycle\":' $sc && grep -q '\"loop\":\s*\(true\|false\)' $sc && grep -q '\"fps\":\s*30' $sc"
check "the textures are said to be linear" "grep -q '\"color_space\":\s*\"linear\"' $sc"

# 3b. a sidecar written before these fields (same entry and version) is not up to date
python3 - pow2/char_b24_pl8.p3d.vat-png16.json <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); del s['up_axis']
open(sys.argv[1], 'w').write(json.dumps(s, indent=1) + '\n')
PY
"$vk" bake pow2.json --cpu --out pow2 2> again.log; rc=$?
check "a sidecar without up_axis is baked again, the others are up to date" \
    "[ $rc -eq 0 ] && grep -q '1 baked, 1 up to date, 0 failed' again.log && grep -q '\"up_axis\"' pow2/char_b24_pl8.p3d.vat-png16.json"

# 4. the 16-bit PNGs: a gAMA chunk of 1.0 (100000) before IDAT, no sRGB, iCCP or cHRM chunk
png_chunks() { # chunk types in file order, "gAMA=N" for gAMA
    python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
i, out = 8, []
while i + 8 <= len(b):
    n, t = struct.unpack('>I4s', b[i:i + 8])
    t = t.decode('latin-1')
    out.append(t + ('=%d' % struct.unpack('>I', b[i + 8:i + 12])[0] if t == 'gAMA' else ''))
    i += 12 + n
print(' '.join(out))
PY
}
chunks=$(png_chunks pow2/char_b24_pl8.dff.vat.pos.png)
check "the PNG says linear (gAMA 100000 before IDAT; no sRGB): $chunks" \
    "echo '$chunks' | grep -q '^IHDR gAMA=100000 IDAT' && ! echo '$chunks' | grep -Eq 'sRGB|iCCP|cHRM'"

# 5. the OBJ's v counts from the bottom: vertex 0 of frame 0 is 1 - 0.5 / height, and the
#    comment says a shader subtracts the frame step
obj=pow2/char_b24_pl8.p3d.vat.obj
h=$(python3 -c "import json; print(json.load(open('pow2/char_b24_pl8.p3d.vat-png16.json'))['layout']['height'])")
v0=$(grep -m1 '^vt ' $obj | cut -d' ' -f3)
check "vertex 0's vt is 1 - 0.5 / height ($v0, height $h)" \
    "python3 -c 'import sys; sys.exit(abs($v0 - (1 - 0.5 / $h)) > 1e-6)'"
check "the OBJ says a shader subtracts frame * rows_per_frame / height" \
    "grep -q 'a shader subtracts' $obj && grep -q 'frame \* rows_per_frame / height from v' $obj && ! grep -q 'shader adds' $obj"

# 6. every sidecar against the schema
if python3 -c 'import jsonschema' 2> /dev/null; then
    python3 - "$src/docs/schema/bake_sidecar.schema.json" pow2/*.json short/*.json > schema.log 2>&1 <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
bad = 0
for p in sys.argv[2:]:
    for e in jsonschema.Draft7Validator(schema).iter_errors(json.load(open(p))):
        print('%s: %s: %s' % (p, '/'.join(map(str, e.absolute_path)), e.message))
        bad = 1
print('%d sidecars checked' % (len(sys.argv) - 2))
sys.exit(bad)
PY
    rc=$?
    cat schema.log
    check "every sidecar validates against the schema" "[ $rc -eq 0 ] && grep -q '^1[0-9] sidecars checked' schema.log"
    # the schema can fail: a sidecar without up_axis does not validate
    python3 - "$src/docs/schema/bake_sidecar.schema.json" $sc <<'PY' > /dev/null 2>&1
import json, sys, jsonschema
s = json.load(open(sys.argv[2])); del s['up_axis']
jsonschema.validate(s, json.load(open(sys.argv[1])))
PY
    check "the schema refuses a sidecar without up_axis" "[ $? -ne 0 ]"
elif [ $fail -eq 0 ]; then
    echo "skipped: python3 jsonschema is not installed (tools/scripts/setup.sh): the schema is not checked"
    exit 77
fi
exit $fail
