#!/usr/bin/env bash
# Bake jobs with "root_motion" (docs/baking.md "Batch baking", issue 27): the job's instance plays in
# place, its frames the very bytes `deform --crowd --cpu` writes for the same instance, and the
# motion taken out is written beside the bake as NAME.root_motion.csv (deform's CSV without the
# instance column), listed in every kind's sidecar; yaw adds a yaw column. A job without it
# keeps its bytes and its hash. On Fox.glb (where the real datasets are) the run turns and
# moves: the yaw and x, z columns move, the in-place frames differ from the plain ones, and the
# GPU's bake is near the reference. Errors name the job and the key.
# Usage: cli_bake_root_motion.sh VKSKIN SOURCE_DIR [REAL_DATASETS]
set -u
vk=$1
src=$2
real=${3:-}
fail=0
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp"
check() { if eval "$2"; then :; else echo "FAIL: $1"; fail=1; fi; }

m=$src/datasets/char_b24_pl8.dff
walk='[{"clip": "'$m'.ifp#walk", "weight": 0.7}, {"clip": "'$m'.walk.anm", "weight": 0.3}]'
yaw='{"up": "z", "yaw": true}'
cat > bake.json <<EOT
{"version": 1, "defaults": {"fps": 30, "outputs": ["raw", "vat-png16", "atlas"]},
 "jobs": [{"name": "yaw", "model": "$m", "layers": $walk, "root_motion": $yaw, "range": [0, 0.5]},
          {"name": "move", "model": "$m", "layers": $walk, "root_motion": "z", "range": [0, 0.5]},
          {"name": "still", "model": "$m", "layers": $walk, "range": [0, 0.5]}]}
EOT
echo '{"instances": [{"model": "'$m'", "layers": '"$walk"', "root_motion": '"$yaw"'}]}' > yaw.crowd.json

"$vk" bake bake.json --cpu --out ref --quiet > /dev/null 2> ref.log; rc=$?
check "the CPU reference bakes the jobs with root motion (exit $rc: $(head -c 400 ref.log))" "[ $rc -eq 0 ]"
"$vk" deform --crowd yaw.crowd.json --cpu --frames 16 --fps 30 --format raw --out yaw.crowd.raw 2> /dev/null
check "the bake's frames are deform --crowd's" "cmp -s ref/yaw.raw yaw.crowd.raw"
check "the root motion is deform --crowd's, without the instance column" \
      "cmp -s ref/yaw.root_motion.csv <(sed 's/^[^,]*,//' yaw.crowd.raw.root_motion.csv)"
check "frame,time,x,y,z,yaw and a row a frame" \
      "[ \"\$(head -1 ref/yaw.root_motion.csv)\" = frame,time,x,y,z,yaw ] && [ \$(wc -l < ref/yaw.root_motion.csv) -eq 17 ]"
check "without yaw: frame,time,x,y,z" "[ \"\$(head -1 ref/move.root_motion.csv)\" = frame,time,x,y,z ]"
check "no root motion file for a job without it" "[ ! -e ref/still.root_motion.csv ]"
# every kind's sidecar lists the file with its size, and the clip says what was taken out
check "the sidecars list the root motion" \
      "python3 -c '
import json, os, sys
for k in [\"raw\", \"vat-png16\", \"atlas\"]:
    s = json.load(open(\"ref/yaw.%s.json\" % k))
    f = [e for e in s[\"files\"] if e[\"path\"] == \"yaw.root_motion.csv\"]
    assert len(f) == 1 and f[0][\"bytes\"] == os.path.getsize(\"ref/yaw.root_motion.csv\"), k
    assert \"radians\" in f[0][\"role\"], k
c = json.load(open(\"ref/yaw.raw.json\"))[\"clips\"][0][\"root_motion\"]
assert c == {\"up\": \"z\", \"yaw\": True, \"motion_node\": \"pelvis\", \"file\": \"yaw.root_motion.csv\"}, c
c = json.load(open(\"ref/still.raw.json\"))[\"clips\"][0]
assert \"root_motion\" not in c and not [e for e in json.load(open(\"ref/still.raw.json\"))[\"files\"] if \"root_motion\" in e[\"path\"]]
'"
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
    check "the sidecars validate against the schema ($(head -c 400 schema.log))" "[ $rc -eq 0 ]"
else
    echo "skip: the schema check: no python3 jsonschema"
fi
# a job without root motion is the same bytes and hash as in a manifest without the others
printf '{"version": 1, "defaults": {"fps": 30, "outputs": ["raw", "vat-png16", "atlas"]}, "jobs": [{"name": "still", "model": "%s", "layers": %s, "range": [0, 0.5]}]}\n' "$m" "$walk" > still.json
"$vk" bake still.json --cpu --out alone --quiet > /dev/null 2>&1
hash() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["entry_hash"])' "$1"; }
check "a job without root_motion keeps its bytes and hash" \
      "cmp -s ref/still.raw alone/still.raw && [ \"\$(hash ref/still.raw.json)\" = \"\$(hash alone/still.raw.json)\" ]"
# up to date when unchanged; the CSV gone: its kinds bake again
"$vk" bake bake.json --cpu --out ref --report again.json > /dev/null 2>&1
check "a re-run finds the jobs up to date" "[ \$(grep -c '\"state\":[[:space:]]*\"up to date\"' again.json) -eq 3 ]"
rm ref/yaw.root_motion.csv
"$vk" bake bake.json --cpu --out ref --report gone.json > /dev/null 2>&1
check "without its CSV the job bakes again, and writes it" \
      "[ \$(grep -c '\"state\":[[:space:]]*\"baked\"' gone.json) -eq 1 ] && [ -s ref/yaw.root_motion.csv ]"

if "$vk" devices > /dev/null 2>&1; then
    "$vk" bake bake.json --validation --out gpu --quiet > /dev/null 2> gpu.log; rc=$?
    check "the GPU bakes the jobs under the validation layer (exit $rc: $(head -c 400 gpu.log))" \
          "[ $rc -eq 0 ] && ! grep -qi 'validation' gpu.log"
    check "the GPU's root motion CSV is the reference's" "cmp -s ref/yaw.root_motion.csv gpu/yaw.root_motion.csv"
else
    echo "skip: the GPU bake: no Vulkan device"
fi

# errors name the manifest, the job and the key
bad() { # manifest text, expected message part
    printf '%s\n' "$1" > bad.json
    "$vk" bake bad.json --cpu --out badout > /dev/null 2> bad.log; local rc=$?
    check "exit 1 for: $2 (got $rc)" "[ $rc -eq 1 ]"
    grep -qF -- "$2" bad.log || { echo "FAIL: stderr lacks '$2': $(head -c 400 bad.log)"; fail=1; }
}
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm"}], "root_motion": {"up": "x"}, "outputs": ["raw"]}]}' \
    'bad.json: jobs[0].root_motion.up: expected "y" or "z"'
bad '{"jobs": [{"model": "'$m'", "layers": [{"clip": "'$m'.walk.anm"}], "root_motion": {"yaw": "yes"}, "outputs": ["raw"]}]}' \
    'bad.json: jobs[0].root_motion.yaw: expected true or false'
bad '{"jobs": [{"model": "'$m'", "clips": ["'$m'.walk.anm"], "root_motion": true, "outputs": ["raw"]}]}' \
    'jobs[0]: "root_motion" needs "layers"'
# no output replaces an input: a clip named like the job's root motion file
mkdir -p inout && cp "$m.walk.anm" inout/x.root_motion.csv
printf '{"jobs": [{"name": "x", "model": "%s", "layers": [{"clip": "x.root_motion.csv#0"}], "root_motion": true, "outputs": ["raw"]}]}\n' "$m" > inout/bake.json
"$vk" bake inout/bake.json --cpu --out inout > /dev/null 2> inout.log; rc=$?
check "a root motion file that is an input is refused (exit $rc: $(head -c 300 inout.log))" \
      "[ $rc -eq 2 ] && cmp -s inout/x.root_motion.csv $m.walk.anm"

# Fox.glb's run turns and moves
fox=${real:+$real/gltf/Fox/Fox.glb}
if [ -n "$fox" ] && [ -s "$fox" ]; then
    cat > fox.json <<EOT
{"version": 1, "defaults": {"fps": 10, "outputs": ["raw"]},
 "jobs": [{"name": "run", "model": "$fox", "layers": [{"clip": "$fox#1"}], "root_motion": {"yaw": true}},
          {"name": "plain", "model": "$fox", "layers": [{"clip": "$fox#1"}]}]}
EOT
    "$vk" bake fox.json --cpu --out fox --quiet > /dev/null 2> fox.log; rc=$?
    check "Fox.glb's run bakes with root motion (exit $rc: $(head -c 400 fox.log))" "[ $rc -eq 0 ]"
    check "Fox's run turns and moves on the ground, in place in the frames" \
          "awk -F, 'NR > 1 { if (\$6 > 0.03 || \$6 < -0.03) t = 1; if (\$3 > 0.1 || \$3 < -0.1) x = 1 } END { exit !(t && x) }' fox/run.root_motion.csv && ! cmp -s fox/run.raw fox/plain.raw"
    if "$vk" devices > /dev/null 2>&1; then
        "$vk" bake fox.json --validation --out foxgpu --quiet > /dev/null 2> foxgpu.log; rc=$?
        check "the GPU bakes Fox's run in place (exit $rc: $(head -c 400 foxgpu.log))" \
              "[ $rc -eq 0 ] && ! grep -qi 'validation' foxgpu.log"
        check "the GPU's Fox frames are near the reference" "python3 - fox/run.raw foxgpu/run.raw <<'PY'
import array, sys
a, b = array.array('f'), array.array('f')
a.frombytes(open(sys.argv[1], 'rb').read()); b.frombytes(open(sys.argv[2], 'rb').read())
ext = max(abs(x) for x in a)
worst = max(abs(x - y) for x, y in zip(a, b)) if len(a) == len(b) else float('inf')
sys.exit(0 if worst <= 1e-5 * max(ext, 1.0) else print(f'off by {worst} of {ext}') or 1)
PY"
    fi
else
    echo "skip: Fox.glb: the real datasets are absent"
fi
exit $fail
