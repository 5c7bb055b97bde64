#!/usr/bin/env bash
# Bake jobs that name layers (docs/baking.md "Batch baking", issue 27): a job of two normal layers and
# one masked additive one, a job with a crossfade, and one whose additive layer names a
# reference pose, baked by the CPU reference, the fast CPU
# engine and the GPU. The reference's frames must be the very bytes `deform --crowd --cpu`
# writes for the same layered instance; the other engines within float noise of them. A re-run
# is up to date, a changed layer is not; errors name the job and the key.
# Usage: cli_bake_layers.sh VKSKIN SOURCE_DIR
set -u
vk=$1
src=$2
fail=0
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp"
check() { if eval "$2"; then :; else echo "FAIL: $1"; fail=1; fi; }

m=$src/datasets/char_b24_pl8.dff
blend='[{"clip": "'$m'.walk.anm", "weight": 0.6}, {"clip": "'$m'.ifp#wave", "weight": 0.4, "start": 0.3},
        {"clip": "'$m'.wave.anm", "blend": "additive", "mask": "spine_02", "weight": 0.8}]'
fade='[{"clip": "'$m'.walk.anm"}]'
to='{"start": 0.1, "duration": 0.3, "to": [{"clip": "'$m'.ifp#wave", "start": 0.5}]}'
cat > bake.json <<EOT
{"version": 1, "defaults": {"fps": 30, "outputs": ["raw"]},
 "jobs": [{"name": "blend", "model": "$m", "layers": $blend, "range": [0, 0.5]},
          {"name": "fade", "model": "$m", "layers": $fade, "transition": $to, "range": [0, 0.6]},
          {"name": "plain", "model": "$m", "clips": ["$m.walk.anm"], "range": [0, 0.5]}]}
EOT
# the same instances as crowd files, played from frame time 0 at the bake's fps
echo '{"instances": [{"model": "'$m'", "layers": '"$blend"'}]}' > blend.crowd.json
echo '{"instances": [{"model": "'$m'", "layers": '"$fade"', "transition": '"$to"'}]}' > fade.crowd.json

"$vk" bake bake.json --cpu --out ref --quiet > /dev/null 2> ref.log; rc=$?
check "the CPU reference bakes the layered jobs (exit $rc: $(head -c 400 ref.log))" "[ $rc -eq 0 ]"
"$vk" deform --crowd blend.crowd.json --cpu --frames 16 --fps 30 --format raw --out blend.crowd.raw 2> /dev/null
"$vk" deform --crowd fade.crowd.json --cpu --frames 19 --fps 30 --format raw --out fade.crowd.raw 2> /dev/null
check "blend: the bake's frames are deform --crowd's" "cmp -s ref/blend.raw blend.crowd.raw"
check "fade: the bake's frames are deform --crowd's" "cmp -s ref/fade.raw fade.crowd.raw"
check "the layered bake differs from its first layer alone" "! cmp -s ref/blend.raw ref/plain.raw"
check "the sidecar names the one baked clip \"layers\"" "grep -q '\"name\":[[:space:]]*\"layers\"' ref/blend.raw.json"

# the sidecar says what was blended, and validates against the schema
check "the sidecar lists the blend's layers" \
      "python3 -c 'import json,sys; c=json.load(open(\"ref/blend.raw.json\"))[\"clips\"][0]; y=c[\"layers\"]; sys.exit(not (len(y)==3 and y[1][\"weight\"]==0.4 and y[1][\"index\"]==1 and y[2][\"blend\"]==\"additive\" and y[2][\"mask\"]==\"spine_02\" and \"transition\" not in c))'"
check "and the fade's transition and fades" \
      "python3 -c 'import json,sys; c=json.load(open(\"ref/fade.raw.json\"))[\"clips\"][0]; sys.exit(not (c[\"transition\"]=={\"start\":0.1,\"duration\":0.3} and [y[\"fade\"] for y in c[\"layers\"]]==[\"out\",\"in\"]))'"
if python3 -c 'import jsonschema' 2> /dev/null; then
    python3 - "$src/docs/schema/bake_sidecar.schema.json" ref/*.json > schema.log 2>&1 <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
bad = 0
for p in sys.argv[2:]:
    for e in jsonschema.Draft7Validator(schema).iter_errors(json.load(open(p))):
        print('%s: %s: %s' % (p, '/'.join(map(str, e.absolute_path)), e.message))
        bad = 1
sys.exit(bad)
PY
    rc=$?
    check "the layered sidecars validate against the schema ($(head -c 400 schema.log))" "[ $rc -eq 0 ]"
else
    echo "skip: the schema check: no python3 jsonschema"
fi

# positions and normals within float noise of the reference (1e-5 of the model's extent)
near() {
    python3 - "$1" "$2" <<'PY'
import array, sys
a, b = array.array('f'), array.array('f')
a.frombytes(open(sys.argv[1], 'rb').read()); b.frombytes(open(sys.argv[2], 'rb').read())
ext = max(abs(x) for x in a)
worst = max(abs(x - y) for x, y in zip(a, b)) if len(a) == len(b) else float('inf')
sys.exit(0 if worst <= 1e-5 * max(ext, 1.0) else print(f"{sys.argv[2]}: off by {worst}") or 1)
PY
}
"$vk" bake bake.json --cpu-fast --out fast --quiet > /dev/null 2>&1
for j in blend fade; do check "$j: the fast CPU engine's bake is near the reference" "near ref/$j.raw fast/$j.raw"; done
if "$vk" devices > /dev/null 2>&1; then
    "$vk" bake bake.json --validation --out gpu --quiet > /dev/null 2> gpu.log; rc=$?
    check "the GPU bakes the layered jobs under the validation layer (exit $rc: $(head -c 400 gpu.log))" \
          "[ $rc -eq 0 ] && ! grep -qi 'validation' gpu.log"
    for j in blend fade; do check "$j: the GPU's bake is near the reference" "near ref/$j.raw gpu/$j.raw"; done
    # a plain job baked beside layered ones (one group, the crowd's layered tables) is the
    # same bytes as alone
    printf '{"defaults": {"fps": 30, "outputs": ["raw"]}, "jobs": [{"name": "plain", "model": "%s", "clips": ["%s.walk.anm"], "range": [0, 0.5]}]}\n' "$m" "$m" > plain.json
    "$vk" bake plain.json --out alone --quiet > /dev/null 2>&1
    check "a plain job in a group with layered ones is the same bytes as alone" "cmp -s gpu/plain.raw alone/plain.raw"
else
    echo "skip: the GPU bake: no Vulkan device"
fi

# up to date when unchanged; a changed layer weight bakes again
"$vk" bake bake.json --cpu --out ref --report again.json > /dev/null 2>&1
check "a re-run finds the layered jobs up to date" "[ \$(grep -c '\"state\":[[:space:]]*\"up to date\"' again.json) -eq 3 ]"
sed 's/"weight": 0.4/"weight": 0.5/' bake.json > changed.json
"$vk" bake changed.json --cpu --out ref --report changed.report.json > /dev/null 2>&1
check "a changed layer weight bakes its job again, and only it" \
      "[ \$(grep -c '\"state\":[[:space:]]*\"baked\"' changed.report.json) -eq 1 ]"
check "and the job's frames change" "! cmp -s ref/blend.raw blend.crowd.raw"

# an additive layer's reference pose (another clip at a time): the bake's frames are deform
# --crowd's, the GPU's near them, the sidecar says it, and a changed reference time bakes again
refy='[{"clip": "'$m'.walk.anm"}, {"clip": "'$m'.wave.anm", "blend": "additive", "weight": 0.7,
        "reference": {"clip": "'$m'.ifp#wave", "time": 0.3}}]'
printf '{"defaults": {"fps": 30, "outputs": ["raw"]}, "jobs": [{"name": "refpose", "model": "%s", "layers": %s, "range": [0, 0.3]}]}\n' \
    "$m" "$refy" > refpose.json
echo '{"instances": [{"model": "'$m'", "layers": '"$refy"'}]}' > refpose.crowd.json
"$vk" bake refpose.json --cpu --out refpose --quiet > /dev/null 2> refpose.log; rc=$?
check "the CPU reference bakes a layer with a reference pose (exit $rc: $(head -c 400 refpose.log))" "[ $rc -eq 0 ]"
"$vk" deform --crowd refpose.crowd.json --cpu --frames 10 --fps 30 --format raw --out refpose.crowd.raw 2> /dev/null
check "refpose: the bake's frames are deform --crowd's" "cmp -s refpose/refpose.raw refpose.crowd.raw"
tr '\n' ' ' < refpose.json | sed 's/, *"reference": {[^}]*}//' > noref.json
grep -q '"reference"' noref.json && { echo "FAIL: noref.json keeps its reference"; fail=1; }
"$vk" bake noref.json --cpu --out noref --quiet > /dev/null 2>&1
check "the reference pose changes the frames" "! cmp -s refpose/refpose.raw noref/refpose.raw"
check "the sidecar gives the reference pose" \
      "python3 -c 'import json,sys; y=json.load(open(\"refpose/refpose.raw.json\"))[\"clips\"][0][\"layers\"]; sys.exit(not (\"reference\" not in y[0] and y[1][\"reference\"][\"index\"]==1 and y[1][\"reference\"][\"time\"]==0.3 and y[1][\"reference\"][\"file\"].endswith(\".ifp\")))'"
if python3 -c 'import jsonschema' 2> /dev/null; then
    python3 - "$src/docs/schema/bake_sidecar.schema.json" refpose/refpose.raw.json > schema.log 2>&1 <<'PY'
import json, sys, jsonschema
errs = list(jsonschema.Draft7Validator(json.load(open(sys.argv[1]))).iter_errors(json.load(open(sys.argv[2]))))
[print(e.message) for e in errs]
sys.exit(1 if errs else 0)
PY
    rc=$?
    check "the reference pose's sidecar validates against the schema ($(head -c 400 schema.log))" "[ $rc -eq 0 ]"
fi
if "$vk" devices > /dev/null 2>&1; then
    "$vk" bake refpose.json --validation --out refpose_gpu --quiet > /dev/null 2> refpose_gpu.log; rc=$?
    check "the GPU bakes the reference pose (exit $rc: $(head -c 400 refpose_gpu.log))" \
          "[ $rc -eq 0 ] && ! grep -qi 'validation' refpose_gpu.log"
    check "refpose: the GPU's bake is near the reference" "near refpose/refpose.raw refpose_gpu/refpose.raw"
fi
sed 's/"time": 0.3/"time": 0.4/' refpose.json > refpose2.json
"$vk" bake refpose2.json --cpu --out refpose --report refpose2.report.json > /dev/null 2>&1
check "a changed reference time bakes the job again" \
      "[ \$(grep -c '\"state\":[[:space:]]*\"baked\"' refpose2.report.json) -eq 1 ]"

# errors name the manifest, the job and the key
bad() { # manifest text, expected message part
    printf '%s\n' "$1" > bad.json
    "$vk" bake bad.json --cpu --out badout > /dev/null 2> bad.log; local rc=$?
    check "exit 1 for: $2 (got $rc)" "[ $rc -eq 1 ]"
    grep -qF -- "$2" bad.log || { echo "FAIL: stderr lacks '$2': $(head -c 400 bad.log)"; fail=1; }
}
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm"}, {"clip": "'$m'.wave.anm", "weight": -1}], "outputs": ["raw"]}]}' \
    'bad.json: jobs[0].layers[1].weight: '
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm", "blend": "mix"}], "outputs": ["raw"]}]}' \
    'bad.json: jobs[0].layers[0].blend: '
bad '{"jobs": [{"model": "'$m'", "layers": [], "outputs": ["raw"]}]}' 'bad.json: jobs[0].layers: '
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm"}], "transition": {"start": 0, "duration": 1}, "outputs": ["raw"]}]}' \
    'bad.json: jobs[0].transition'
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm"}], "clips": ["'$m'.walk.anm"], "outputs": ["raw"]}]}' \
    'jobs[0]: "layers" and "clips" exclude each other'
bad '{"jobs": [{"model": "'$m'", "clips": ["'$m'.walk.anm"], "transition": {"start": 0, "duration": 1, "to": [{"clip": "'$m'.wave.anm"}]}, "outputs": ["raw"]}]}' \
    'jobs[0]: "transition" needs "layers"'
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm"}, {"clip": "'$m'.wave.anm", "mask": "tail"}], "outputs": ["raw"]}]}' \
    'jobs[0].layers: layer 2: mask: the model '
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.ifp#run"}], "outputs": ["raw"]}]}' \
    'has no clip "run"'
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm", "reference": {"time": 0.5}}], "outputs": ["raw"]}]}' \
    'bad.json: jobs[0].layers[0].reference: a reference pose is for an additive layer'
exit $fail
