#!/usr/bin/env bash
# Up to 8 influences a vertex, exact (issue 38): a glTF tube whose vertices have 5..8 joints
# (JOINTS_0/1, authored here by eight_influences.py) deformed on --cpu, --cpu-fast (each kernel
# this CPU has, one and sixteen instances) and --gpu, each within 1e-5 of the bounding radius of
# the glTF specification's skinning evaluated by eight_influences.py from the file's own
# accessors (which also shows that keeping the 4 largest is 100s of times over that); convert
# keeps all 8 (JOINTS_1 in the .glb, deformed again to the same golden). A tube with 10 a vertex
# loses the 2 smallest: every command (inspect, deform, validate, convert, bake, render) warns
# with the counts on stderr, and inspect, validate and bake carry them in JSON; the bone atlas's
# mesh, read by 4-influence engine shaders, keeps 4 with the same warning.
# Usage: cli_eight_influences.sh VKSKIN [gpu]   (gpu: the build has the Vulkan engine)
set -u
here=$(cd "$(dirname "$0")" && pwd)
vk=$1
gpu_build=${2:-}
py="python3 $here/eight_influences.py"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

expect() {
  local want=$1 what=$2; shift 2
  "$@" > out 2> err; local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want ($(head -c 600 err))"; fail=1
  fi
}
has() { grep -q -- "$3" "$2" || { echo "FAIL: $1: $2 lacks '$3': $(head -c 600 "$2")"; fail=1; }; }
lacks() { ! grep -q -- "$3" "$2" || { echo "FAIL: $1: $2 has '$3'"; fail=1; }; }
golden() { # what, model, csv: within 1e-5 of the independent evaluation
  $py check "$2" pose.json "$3" > check.out 2>&1 || { echo "FAIL: $1: $(cat check.out)"; fail=1; }
  cat check.out
}

$py make tube8.gltf && $py make tube10.gltf --influences 10 && $py pose pose.json && $py pose pose16.json --frames 16 ||
  { echo "FAIL: the test files could not be made"; exit 1; }

# ---- the model: 8 slots, groups of up to 8, no loss ----
expect 0 "inspect" "$vk" inspect tube8.gltf
has "inspect" out "up to 8 influences"
has "inspect" out "influences per vertex: 1:0 2:0 3:0 4:0 5:120 6:108 7:108 8:108"
lacks "inspect" err "lost influences"

# ---- the three engines against the golden ----
gpu=
if [ -n "$gpu_build" ] && "$vk" devices > /dev/null 2>&1; then gpu=--gpu; fi
for engine in --cpu --cpu-fast $gpu; do
  for pose in pose.json pose16.json; do
    expect 0 "deform $engine $pose" "$vk" deform tube8.gltf $engine --pose $pose --out d.csv --quiet
    lacks "deform $engine" err "lost influences"
    golden "deform $engine $pose" tube8.gltf d.csv
  done
done
expect 0 "deform --cpu-fast, baseline kernel" env VKSKIN_CPU_PATH=baseline "$vk" deform tube8.gltf --cpu-fast \
  --pose pose16.json --out d.csv --quiet
golden "deform --cpu-fast, baseline kernel" tube8.gltf d.csv
[ -n "$gpu" ] || echo "no Vulkan device: --gpu not run"
# a clip played by the crowd's pose pass on the GPU, against the reference playing it
for engine in --cpu --cpu-fast $gpu; do
  expect 0 "deform $engine --clip" "$vk" deform tube8.gltf $engine --clip pose16.json --instances 3 --stagger \
    --frames 2 --out "clip$engine.csv" --quiet
done
python3 - clip--cpu.csv clip--cpu-fast.csv ${gpu:+clip--gpu.csv} <<'PY' || { echo "FAIL: the engines' clips differ"; fail=1; }
import csv, sys
ref = list(csv.DictReader(open(sys.argv[1])))
for other in sys.argv[2:]:
    rows = list(csv.DictReader(open(other)))
    assert len(rows) == len(ref) == 3 * 2 * 444, (other, len(rows))
    worst = max(abs(float(a[c]) - float(b[c])) for a, b in zip(rows, ref) for c in "xyz") / 9.014
    print("%s against the reference: %.3g of the radius" % (other, worst))
    assert worst < 1e-5, other
PY
# the golden can fail: the 4 largest, renormalised (what vkskin did before), are far off
expect 0 "deform --cpu" "$vk" deform tube8.gltf --cpu --pose pose.json --out d.csv --quiet
if $py check tube8.gltf pose.json d.csv --keep 4 > keep4.out; then
  echo "FAIL: the 4 largest pass the 8-influence golden: $(cat keep4.out)"; fail=1
fi
cat keep4.out

# ---- convert keeps all 8 (JOINTS_1/WEIGHTS_1), and the result deforms to the same golden ----
expect 0 "convert" "$vk" convert tube8.gltf out8.glb
lacks "convert" err "lost influences"
expect 0 "inspect the converted" "$vk" inspect out8.glb
has "inspect the converted" out "up to 8 influences"
expect 0 "deform the converted" "$vk" deform out8.glb --cpu --pose pose.json --out c.csv --quiet
golden "deform the converted" tube8.gltf c.csv

# ---- more than 8: every command warns, with counts ----
warning="warning: 444 vertices lost influences: the 8 largest kept and renormalised, the largest weight dropped 0.00516"
expect 0 "inspect >8" "$vk" inspect tube10.gltf
has "inspect >8" err "$warning"
has "inspect >8" out "444 with more than 8 weights"
expect 0 "inspect --json >8" "$vk" inspect tube10.gltf --json
has "inspect --json >8" out '"over_eight_kept_to_largest_8"'
expect 0 "deform >8" "$vk" deform tube10.gltf --cpu-fast --pose pose.json --out d.csv --quiet
has "deform >8" err "$warning"
expect 0 "convert >8" "$vk" convert tube10.gltf out10.glb
has "convert >8" err "$warning"
if [ -n "$gpu" ]; then # validate and render run on the GPU
  expect 0 "validate >8" "$vk" validate tube10.gltf --json
  has "validate >8" err "$warning"
  python3 - out <<'PY' || { echo "FAIL: validate --json lacks the counts"; fail=1; }
import json, sys
lost = json.load(open(sys.argv[1]))["files"][0]["influences_lost"]
assert lost["kept"] == 8 and lost["vertices"] == 444 and 0.005 < lost["largest_weight_dropped"] < 0.0052, lost
PY
  expect 0 "render >8" "$vk" render tube10.gltf --pose pose.json --out r.png --quiet
  has "render >8" err "$warning"
fi

# ---- bake: the model's loss, and the bone atlas's mesh kept to 4 (engine shaders) ----
cat > bake.json <<JSON
{"jobs": [{"model": "tube8.gltf", "clips": ["pose16.json"], "outputs": ["atlas", "pc2"]},
          {"model": "tube10.gltf", "clips": ["pose16.json"], "outputs": ["pc2"]}]}
JSON
expect 0 "bake" "$vk" bake bake.json --cpu --out bk --report rep.json
if grep -q "without OpenEXR" err; then
  echo "no OpenEXR: the atlas is not baked"
else
  has "bake" err "jobs\[0\]: warning: 444 vertices lost influences in the bone atlas's mesh (4 joints a vertex)"
  has "bake" err "tube10.gltf: $warning"
  python3 - rep.json bk/tube8.gltf.atlas.json "$here/../../docs/schema/bake_sidecar.schema.json" <<'PY' ||
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
assert jobs[0]["influences_lost"]["vertices"] == 0, jobs[0]
assert jobs[0]["atlas_influences_lost"]["kept"] == 4 and jobs[0]["atlas_influences_lost"]["vertices"] == 444
assert jobs[1]["influences_lost"]["vertices"] == 444, jobs[1]
sidecar = json.load(open(sys.argv[2]))
assert sidecar["influences_lost"]["vertices"] == 444
try:
    import jsonschema  # the sidecar with its counts still follows the published schema
except ImportError:
    sys.exit(0)
jsonschema.validate(sidecar, json.load(open(sys.argv[3])))
PY
    { echo "FAIL: bake's JSON lacks the counts or leaves the schema"; fail=1; }
fi

[ $fail -eq 0 ] && echo "cli_eight_influences: all checks passed"
exit $fail
