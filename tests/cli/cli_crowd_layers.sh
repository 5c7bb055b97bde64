#!/usr/bin/env bash
# Layered crowds through the vkskin program (issue 27): validate (the GPU pose pass against the
# CPU reference) on a crowd with normal and additive layers, masks, crossfades in progress and
# root motion (translation, and with yaw) on the bundled characters of all four formats and on
# Fox.glb, and with additive layers' reference poses named (another clip at a time, or a time);
# deform --crowd's root-motion CSV (a yaw column only where asked for); and the errors: an
# unknown mask node, a bad layer and a reference on a normal layer name their entry.
# GPU checks run with the validation layer on and are skipped without a device (exit 4).
# Usage: cli_crowd_layers.sh VKSKIN SOURCE_DIR            (the bundled characters, the errors)
#        cli_crowd_layers.sh VKSKIN SOURCE_DIR REAL_DATASETS   (Fox.glb only; 77 where absent)
set -u
vk=$1
src=$2
real=${3:-}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

expect() {
  local want=$1 what=$2; shift 2
  "$@" > out 2> err; local rc=$?
  skipped=0
  if [ $rc -eq 4 ] && [ "$want" -eq 0 ] && grep -q -i "vulkan" err; then
    echo "skip: $what: no Vulkan device"; skipped=1; return
  fi
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want ($(head -c 600 err))"; fail=1
  elif [ "$want" -ne 0 ] && [ ! -s err ]; then
    echo "FAIL: $what: exit $rc with no message"; fail=1
  fi
}
has() { grep -q -- "$2" err || { echo "FAIL: $1: stderr lacks '$2': $(head -c 600 err)"; fail=1; }; }

if [ -n "$real" ]; then
  fox=$real/gltf/Fox/Fox.glb
  [ -s "$fox" ] || { echo "skip: $fox is absent"; exit 77; }
  cat > fox.json <<EOT
{"instances": [
 {"model": "$fox", "layers": [{"clip": "$fox#0", "weight": 0.5}, {"clip": "$fox#1", "weight": 0.5, "start": 0.3},
   {"clip": "$fox#2", "blend": "additive", "mask": "b_Spine01_02"}],
  "transition": {"start": 0.05, "duration": 0.2, "to": [{"clip": "$fox#2", "start": 1}]}, "root_motion": "y"},
 {"model": "$fox", "clip": "$fox#1"}
]}
EOT
  expect 0 "validate a layered Fox.glb crowd" "$vk" validate --crowd fox.json --frames 8 --validation
  # the same with yaw taken out too, and Fox's run (clip 1) turns: its yaw column moves
  sed 's/"root_motion": "y"/"root_motion": {"up": "y", "yaw": true}/' fox.json > fox_yaw.json
  printf '{"instances": [{"model": "%s", "clip": "%s#1", "root_motion": {"yaw": true}}]}\n' "$fox" "$fox" > fox_run.json
  expect 0 "validate a layered Fox.glb crowd with yaw" "$vk" validate --crowd fox_yaw.json --frames 8 --validation
  expect 0 "validate Fox.glb's run with yaw" "$vk" validate --crowd fox_run.json --frames 8 --fps 5 --validation
  expect 0 "deform Fox.glb's run with yaw" "$vk" deform --crowd fox_run.json --cpu --frames 12 --fps 5 --out fox.raw
  [ "$(head -1 fox.raw.root_motion.csv)" = "instance,frame,time,x,y,z,yaw" ] &&
    awk -F, 'NR > 1 && ($7 > 0.03 || $7 < -0.03) { turns = 1 } END { exit !turns }' fox.raw.root_motion.csv ||
    { echo "FAIL: Fox's run has no yaw: $(head -4 fox.raw.root_motion.csv)"; fail=1; }
  exit $fail
fi

crowd=$src/tests/data/crowd_layers.json
expect 0 "validate a layered crowd of the four bundled formats" "$vk" validate --crowd "$crowd" --frames 8 --fps 30 --validation
expect 0 "the same with the nodes variant of the pose pass" env VKSKIN_LAUNCH_SHAPE=pose=nodes "$vk" validate --crowd "$crowd" --frames 4 --time 0.2 --validation

# chunks: a first chunk of plain instances, then as many layered ones (27 of 1562 vertices a
# MiB), so the first chunk's crowd is reused for the layered ones
m=$src/datasets/char_b24_pl8.dff
{ echo "model,clip,start,weight,clip2,weight2,blend2"
  for i in $(seq 1 27); do echo "$m,$m.walk.anm,0.0$i,,,,"; done
  for i in $(seq 1 27); do echo "$m,$m.walk.anm,0.$i,0.5,$m.wave.anm,0.5,additive"; done; } > chunks.csv
expect 0 "validate plain then layered instances in several chunks" "$vk" validate --crowd chunks.csv --frames 2 --max-chunk-mb 1 --validation
[ $skipped = 1 ] || grep -q "in 2 chunk" out || [ ! -s out ] || { echo "FAIL: --max-chunk-mb 1 gave one chunk: $(tail -1 out)"; fail=1; }

# root motion beside the vertex output: one row per instance and frame, the same for every engine
mkdir cpu gpu
expect 0 "deform --crowd --cpu with root motion" "$vk" deform --crowd "$crowd" --cpu --frames 4 --format raw --out cpu
rm_csv=cpu/char_b24_pl8.nif.raw.root_motion.csv
[ -s "$rm_csv" ] && [ "$(head -1 "$rm_csv")" = "instance,frame,time,x,y,z" ] && [ "$(wc -l < "$rm_csv")" -eq 5 ] ||
  { echo "FAIL: root motion CSV: $(ls cpu; head -3 "$rm_csv" 2>/dev/null)"; fail=1; }
[ -e cpu/char_b24_pl8.p3d.raw.root_motion.csv ] || { echo "FAIL: no root motion CSV for the p3d instances"; fail=1; }
"$vk" deform --crowd "$crowd" --gpu --frames 4 --format raw --out gpu --validation > out 2> err; rc=$?
if [ $rc -eq 0 ]; then
  cmp -s "$rm_csv" gpu/char_b24_pl8.nif.raw.root_motion.csv || { echo "FAIL: root motion differs between engines"; fail=1; }
elif [ $rc -ne 4 ]; then
  echo "FAIL: deform --crowd --gpu: exit $rc ($(head -c 600 err))"; fail=1
fi

# yaw (issue 27): the same crowd with root_motion {"up": ..., "yaw": true} validates, its CSV
# gains a yaw column after x, y, z, and those stay what translation alone gives
sed -e "s#\.\./\.\./datasets#$src/datasets#g" -e 's/"root_motion": "\([yz]\)"/"root_motion": {"up": "\1", "yaw": true}/' \
  "$crowd" > yaw.json
grep -q '"yaw": true' yaw.json || { echo "FAIL: no yaw crowd made"; fail=1; }
expect 0 "validate the layered crowd with yaw" "$vk" validate --crowd yaw.json --frames 8 --fps 30 --validation
mkdir yaw_cpu yaw_gpu
expect 0 "deform --crowd --cpu with yaw" "$vk" deform --crowd yaw.json --cpu --frames 4 --format raw --out yaw_cpu
yaw_csv=yaw_cpu/char_b24_pl8.nif.raw.root_motion.csv
[ "$(head -1 "$yaw_csv")" = "instance,frame,time,x,y,z,yaw" ] && [ "$(wc -l < "$yaw_csv")" -eq 5 ] &&
  cmp -s <(cut -d, -f1-6 "$yaw_csv") "$rm_csv" ||
  { echo "FAIL: yaw root motion CSV: $(head -3 "$yaw_csv" 2>/dev/null)"; fail=1; }
"$vk" deform --crowd yaw.json --gpu --frames 4 --format raw --out yaw_gpu --validation > out 2> err; rc=$?
if [ $rc -eq 0 ]; then
  cmp -s "$yaw_csv" yaw_gpu/char_b24_pl8.nif.raw.root_motion.csv || { echo "FAIL: yaw CSV differs between engines"; fail=1; }
elif [ $rc -ne 4 ]; then
  echo "FAIL: deform --crowd --gpu with yaw: exit $rc ($(head -c 600 err))"; fail=1
fi

# an additive layer's reference pose named in the crowd file (issue 27): another clip (one no
# layer plays, by name or index) at a time, or the layer's own clip at a time; validate passes,
# and the vertices are not those of the same crowd without references
d=$src/datasets
cat > ref.json <<EOT
{"instances": [
 {"model": "$d/char_b24_pl8.dff", "layers": [{"clip": "$d/char_b24_pl8.dff.walk.anm", "start": 0.1},
   {"clip": "$d/char_b24_pl8.dff.wave.anm", "blend": "additive", "start": 0.2,
    "reference": {"clip": "$d/char_b24_pl8.dff.walk.ska", "time": 0.5}},
   {"clip": "$d/char_b24_pl8.dff.wave.anm", "blend": "additive", "weight": 0.5, "mask": "spine_02", "reference": {"time": 0.3}}]},
 {"model": "$d/char_b24_pl8.nif", "layers": [{"clip": "$d/char_b24_pl8.nif.walk.kf", "speed": 1.2},
   {"clip": "$d/char_b24_pl8.nif.wave.kf", "blend": "additive", "weight": 0.8,
    "reference": {"clip": "$d/char_b24_pl8.nif.walk.kf#0", "time": 0.25}}], "root_motion": "z"},
 {"model": "$d/char_b24_pl8.cmdl", "layers": [{"clip": "$d/char_b24_pl8.cmdl.walk.cskla"},
   {"clip": "$d/char_b24_pl8.cmdl.wave.cskla", "blend": "additive", "start": 0.3,
    "reference": {"clip": "$d/char_b24_pl8.cmdl.walk.cskla", "time": 0.4}}],
  "transition": {"start": 0.0, "duration": 0.2, "to": [{"clip": "$d/char_b24_pl8.cmdl.walk.cskla", "start": 0.7}]}},
 {"model": "$d/char_b24_pl8.p3d", "layers": [{"clip": "$d/char_b24_pl8.p3d.walk.rtm", "weight": 0.7},
   {"clip": "$d/char_b24_pl8.p3d.wave.rtm", "blend": "additive", "start": 0.25,
    "reference": {"clip": "$d/char_b24_pl8.p3d.walk.rtm"}}], "root_motion": "y"}
]}
EOT
expect 0 "validate a crowd whose additive layers name reference poses" "$vk" validate --crowd ref.json --frames 8 --fps 30 --validation
tr '\n' ' ' < ref.json | sed -e 's/, *"reference": {[^}]*}//g' > noref.json
grep -q reference noref.json && { echo "FAIL: the crowd without references still has one"; fail=1; }
mkdir ref noref
expect 0 "deform --crowd --cpu with reference poses" "$vk" deform --crowd ref.json --cpu --frames 3 --format raw --out ref
expect 0 "deform --crowd --cpu without them" "$vk" deform --crowd noref.json --cpu --frames 3 --format raw --out noref
for f in dff nif cmdl p3d; do
  [ -s ref/char_b24_pl8.$f.raw ] && ! cmp -s ref/char_b24_pl8.$f.raw noref/char_b24_pl8.$f.raw ||
    { echo "FAIL: the $f instance's reference pose changes nothing"; fail=1; }
done

# errors name the entry
m=$src/datasets/char_b24_pl8.dff
printf '{"instances": [{"model": "%s", "layers": [{"clip": "%s.walk.anm", "reference": {"time": 1}}]}]}\n' "$m" "$m" > badref.json
expect 1 "a reference pose on a normal layer" "$vk" validate --crowd badref.json
has "the entry and key of a reference on a normal layer" 'badref.json: instances\[0\].layers\[0\].reference: a reference pose is for an additive layer'
printf 'model,clip,clip2,reference_time2\n%s,%s.walk.anm,%s.wave.anm,0.5\n' "$m" "$m" "$m" > badref.csv
expect 1 "a reference_time column on a normal layer" "$vk" deform --crowd badref.csv --cpu --out x.raw
has "the line and column of a reference on a normal layer" 'badref.csv:2: reference_time2: a reference pose is for an additive layer'
printf '{"instances": [{"model": "%s", "layers": [{"clip": "%s.walk.anm"}, {"clip": "%s.wave.anm", "mask": "tail"}]}]}\n' "$m" "$m" "$m" > badmask.json
expect 1 "a mask naming no node" "$vk" deform --crowd badmask.json --cpu --out x.raw
has "the entry and layer of an unknown mask" 'badmask.json: instances\[0\]: layer 2: mask: the model .* has no node "tail"'
printf 'model,clip,weight2\n%s,%s.walk.anm,1\n' "$m" "$m" > badlayer.csv
expect 1 "a layer column without its clip" "$vk" deform --crowd badlayer.csv --cpu --out x.raw
has "the line and column" 'badlayer.csv:2: clip2: expected the clip of layer 2'
printf '{"instances": [{"model": "%s", "clip": "%s.walk.anm", "root_motion": {"up": "x"}}]}\n' "$m" "$m" > badup.json
expect 1 "root motion about an x axis" "$vk" deform --crowd badup.json --cpu --out x.raw
has "the entry and key of a bad up axis" 'badup.json: instances\[0\].root_motion.up: expected "y" or "z"'

exit $fail
