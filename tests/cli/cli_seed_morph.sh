#!/usr/bin/env bash
# Morph data in the seed formats (issue 38). Generated small characters (.dff and .nif) get
# morph targets written here from the format notes (seed_morph_golden.py): RenderWare geometry
# morph targets 1 and 2 (with and without a Morph PLG), NIF NiGeomMorpherController +
# NiMorphData with relative and absolute morphs whose weights come from NiFloatInterpolators.
# inspect --json lists the targets with their default weights (NIF: the weights at time 0);
# deform in the bind pose with a pose file's weights moves the vertices by w1 D1 + w2 D2 (the
# script's analytic deltas) on --cpu, --cpu-fast and --gpu (validation layer; skipped without
# a device); what is not read (the Morph PLG, the NIF weights' animation) is warned about on
# stderr and in --json; convert writes the targets as glTF targets (deformed again: the same);
# every byte of the new structures cut back is refused with an offset (seed_morph_cuts).
set -u
vk=$1
cuts=$2
here=$(cd "$(dirname "$0")" && pwd)
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
say() { echo "FAIL: $*"; fail=1; }
gold="python3 $here/seed_morph_golden.py"
engines="--cpu --cpu-fast"
if "$vk" devices > /dev/null 2>&1; then engines="$engines --gpu"; else echo "note: no Vulkan device, --gpu not run"; fi
"$vk" generate --vertices 30 --bones 20 --no-clips --out small.dff > /dev/null || exit 1
"$vk" generate --vertices 30 --bones 20 --no-clips --out small.nif > /dev/null || exit 1
$gold dff small.dff plain.dff || exit 1
$gold dff small.dff plg.dff plg || exit 1
$gold nif small.nif rel.nif relative || exit 1
$gold nif small.nif abs.nif absolute || exit 1
"$vk" generate --vertices 30 --bones 20 --no-clips --version 0x0A010000 --out small10.nif > /dev/null || exit 1
nv=$("$vk" inspect small10.nif --json | python3 -c "import json,sys; print(json.load(sys.stdin)['meshes'][0]['file_vertices'])")
$gold nif10 small10.nif keys.nif "$nv" || exit 1
# what inspect lists, and the warnings about what is not read (stderr, naming the file, and
# --json; deform warns too, below)
for f in plain.dff plg.dff rel.nif abs.nif keys.nif; do
  "$vk" inspect $f --json > $f.json 2> $f.err || say "$f: inspect: $(cat $f.err)"
done
python3 - plain.dff.json plg.dff.json rel.nif.json abs.nif.json keys.nif.json <<'PY' || fail=1
import json, sys
want = {"plain.dff.json": (["morph1", "morph2"], [0, 0]), "plg.dff.json": (["morph1", "morph2"], [0, 0]),
        "rel.nif.json": (["Smile", "Frown"], [0.25, 0.5]), "abs.nif.json": (["Smile", "Frown"], [0.25, 0.5]),
        "keys.nif.json": (["", ""], [0.25, 0.5])}  # 10.1.0.0: no frame names; weights from the morphs' keys
for f in sys.argv[1:]:
    d = json.load(open(f))
    t = d["meshes"][0].get("morph_targets", [])
    got = ([x["name"] for x in t], [x.get("default_weight") for x in t])
    if got != want[f]:
        print("FAIL: %s lists targets %s, expected %s" % (f, got, want[f]))
        sys.exit(1)
    print("%s: targets %s" % (f, got))
PY
grep -q "plg.dff: warning: .*/extension: Morph PLG (0x105" plg.dff.err || say "plg.dff: no warning about the Morph PLG: $(cat plg.dff.err)"
grep -q "Morph PLG" plg.dff.json || say "plg.dff: --json does not say the Morph PLG is not read"
grep -q "Morph PLG" plain.dff.err && say "plain.dff: a Morph PLG warning without one"
grep -q "rel.nif: warning: nif block [0-9]* NiGeomMorpherController at offset .*the weights' animation" rel.nif.err ||
  say "rel.nif: no warning about the weights' animation: $(cat rel.nif.err)"
grep -q "NiGeomMorpherController" rel.nif.json || say "rel.nif: --json does not say the animation is not played"
[ -s abs.nif.err ] && say "abs.nif (weights constant over time): $(cat abs.nif.err)"
grep -q "NiGeomMorpherController at offset .*the weights' animation" keys.nif.err ||
  say "keys.nif: no warning about the morph keys' animation: $(cat keys.nif.err)"
# what the reader does not apply is warned about, never dropped silently
$gold nif small.nif stray.nif stray || exit 1
$gold nif small.nif weighted.nif weighted || exit 1
"$vk" inspect stray.nif --json > stray.json 2> err || say "stray.nif: inspect: $(cat err)"
grep -q "stray.nif: warning: .*NiGeomMorpherController .*its target (block 0) is not a mesh" err ||
  say "stray.nif: no warning about a controller on a node: $(cat err)"
grep -q '"morph_targets":.*\[{' stray.json && say "stray.nif: targets from a controller on a node"
"$vk" inspect weighted.nif > /dev/null 2> err || say "weighted.nif: inspect: $(cat err)"
grep -q "weighted.nif: warning: .*interpolator weights other than 1" err ||
  say "weighted.nif: no warning about interpolator weights: $(cat err)"
# a pose's weights move the vertices by w1 D1 + w2 D2 (bind pose: skin matrices identity)
for f in plain.dff plg.dff rel.nif abs.nif keys.nif; do
  mesh=$(python3 -c "import json,sys; print(json.load(open('$f.json'))['meshes'][0]['name'])")
  printf '{"nodes": [], "weights": {"%s": [0, 0]}}' "$mesh" > zero.json
  printf '{"nodes": [], "weights": {"%s": [0.75, -0.5]}}' "$mesh" > w.json
  kind=""; case $f in *.nif) kind=positions ;; esac
  for e in $engines; do
    extra=""; [ "$e" = "--gpu" ] && extra="--validation"
    "$vk" deform $f $e $extra --pose zero.json --out base.raw --format raw 2> err || say "$f $e: deform: $(cat err)"
    "$vk" deform $f $e $extra --pose w.json --out w.raw --format raw 2> err || say "$f $e: deform with weights: $(cat err)"
    grep -qi "validation" err && say "$f $e: validation layer messages: $(grep -i validation err | head -3)"
    case $f in plg.dff|rel.nif|keys.nif) grep -q "$f: warning: " err || say "$f $e: deform does not warn: $(cat err)" ;; esac
    $gold check base.raw w.raw $f.json 0.75 -0.5 $kind || say "$f $e: the morphed vertices are off"
  done
  # negative case: the wrong weights must fail the check
  $gold check base.raw w.raw $f.json 0.75 0.5 $kind > /dev/null && say "$f: the check passes wrong weights"
  "$vk" deform $f --cpu --pose zero.json --out base.raw --format raw 2> err || say "$f: deform: $(cat err)"
  "$vk" deform $f --cpu --pose w.json --out w.raw --format raw 2> err || say "$f: deform with weights: $(cat err)"
  # convert writes them as glTF targets (a mesh per material, under the axis correction):
  # deformed again with the same weights, each vertex moves as its source vertex does
  "$vk" convert $f $f.glb > /dev/null 2> err || say "$f: convert: $(cat err)"
  "$vk" inspect $f.glb --json > glb.json 2> err || say "$f: inspect of the converted file: $(cat err)"
  "$vk" deform $f.glb --cpu --pose zero.json --out glb_base.raw --format raw 2> err || say "$f: deform .glb: $(cat err)"
  "$vk" deform $f.glb --cpu --pose w.json --out glb_w.raw --format raw 2> err ||
    say "$f: deform .glb with weights: $(cat err)"
  $gold check-convert $f.json base.raw w.raw glb.json glb_base.raw glb_w.raw || say "$f: convert lost the targets"
done
# the file's own clip plays the weights' keys as a weights channel: rel.nif's Smile is a pose
# value (0.25), its Frown LINEAR keys 0.5 at 0 s and 1 at 1 s: 0.75 at 0.5 s; keys.nif's clock
# starts at its controller's -1 s, where Frown's QUADRATIC keys start at 0 (exact at keys;
# linear between them, with a warning)
for spec in "rel.nif 0.5 0.75" "keys.nif 0 0"; do
  set -- $spec
  printf '{"nodes": [], "weights": {"character": [0, 0]}}' > zero.json
  for e in $engines; do
    extra=""; [ "$e" = "--gpu" ] && extra="--validation"
    "$vk" deform $1 $e $extra --pose zero.json --out base.raw --format raw 2> err || say "$1 $e: deform: $(cat err)"
    "$vk" deform $1 $e $extra --clip $1 --time $2 --out clip.raw --format raw 2> err || say "$1 $e: deform --clip: $(cat err)"
    grep -q "drives none" err && say "$1 $e: the weights clip is refused"
    $gold check base.raw clip.raw $1.json 0.25 $3 positions || say "$1 $e: the clip's weights are off"
  done
done
grep -q "quadratic or TBC weight keys played linearly" err || say "keys.nif: no warning about quadratic keys: $(cat err)"
# every byte of the new structures cut back: refused with an offset
for f in plg.dff rel.nif keys.nif; do
  "$cuts" $f > cuts.txt 2>&1 || say "$f: cuts: $(grep -m3 FAIL cuts.txt)"
  tail -1 cuts.txt
done
[ $fail -eq 0 ] && echo "cli_seed_morph: ok"
exit $fail
