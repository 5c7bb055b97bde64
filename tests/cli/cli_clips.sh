#!/usr/bin/env bash
# Clips and crowds through the vkskin program (issue 12): --clip with every clip reader the
# generator writes for (RenderWare .anm / .ska, GTA .ifp, Arma .rtm plain and binarised, NIF
# .kf for .nif) and pose JSON, --stagger / --clip-speed / --clip-cycle / --time, JSON and CSV crowds of
# several models with roots, on deform (every engine), validate (clips sampled on the GPU in
# crowds, against the reference's double sampler) and render; and the errors: a bad CSV line
# and a missing clip name are named, no bound track is bad input (1), nonsense combinations
# are usage errors (2). GPU checks run with the validation layer on (CTest fails on its lines)
# and are skipped without a Vulkan device; the CPU checks run everywhere.
# Usage: cli_clips.sh VKSKIN [CHECK_PNG]
set -u
vk=$1
check_png=${2:-}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# expect CODE "what" command...: the exit code, and (for non-zero) a message on stderr
expect() {
  local want=$1 what=$2; shift 2
  "$@" > out 2> err; local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want ($(head -c 600 err))"; fail=1
  elif [ "$want" -ne 0 ] && [ ! -s err ]; then
    echo "FAIL: $what: exit $rc with no message"; fail=1
  fi
}
# has "what" PATTERN: the last command's stderr has PATTERN
has() { grep -q -- "$2" err || { echo "FAIL: $1: stderr lacks '$2': $(head -c 600 err)"; fail=1; }; }

# characters with their clips beside them: hero.dff.walk.anm, .wave.anm, .walk.ska, .ifp;
# b.nif.walk.kf, .wave.kf; p.p3d.walk.rtm (RTM_0101), .wave.rtm (BMTR)
"$vk" generate --out hero.dff --vertices 1200 > /dev/null 2>&1 || { echo "FAIL: generate dff"; exit 1; }
"$vk" generate --out b.nif --format nif --vertices 900 --bones 40 > /dev/null 2>&1 || { echo "FAIL: generate nif"; exit 1; }
"$vk" generate --out p.p3d --format p3d --vertices 900 > /dev/null 2>&1 || { echo "FAIL: generate p3d"; exit 1; }
for f in hero.dff.walk.anm hero.dff.wave.anm hero.dff.walk.ska hero.dff.ifp b.nif.walk.kf b.nif.wave.kf p.p3d.walk.rtm p.p3d.wave.rtm; do
  [ -s "$f" ] || { echo "FAIL: vkskin generate wrote no $f"; exit 1; }
done
# a pose JSON clip: frames of joints every generated character has
cat > nod.json <<'EOF'
{"frames": [
  {"nodes": [{"name": "head", "rotation": [0, 0, 0, 1]}, {"name": "upperarm_l", "rotation": [0, 0, 0, 1]}]},
  {"nodes": [{"name": "head", "rotation": [0.258819, 0, 0, 0.9659258]}, {"name": "upperarm_l", "rotation": [0, 0, 0.5, 0.8660254]}]},
  {"nodes": [{"name": "head", "rotation": [0, 0.258819, 0, 0.9659258]}, {"name": "upperarm_l", "rotation": [0, 0.3826834, 0, 0.9238795]}]}
]}
EOF

# ---- CPU: every engine samples the clips ----
expect 0 "deform --clip .anm" "$vk" deform hero.dff --cpu --clip hero.dff.walk.anm --instances 3 --stagger --frames 4 --out a.csv
"$vk" deform hero.dff --cpu --instances 1 --out one.csv 2> /dev/null
n=$(($(wc -l < one.csv) - 1)) # rows of one pose
rows=$(($(wc -l < a.csv) - 1))
[ "$rows" -eq $((3 * 4 * n)) ] || { echo "FAIL: deform --clip wrote $rows rows, expected $((3 * 4 * n))"; fail=1; }
# frames move, and staggered instances differ from the first
cut -d, -f5-7 a.csv | sed -n "2,$((n + 1))p" > f0.txt
cut -d, -f5-7 a.csv | sed -n "$((n + 2)),$((2 * n + 1))p" > f1.txt
cut -d, -f5-7 a.csv | sed -n "$((4 * n + 2)),$((5 * n + 1))p" > i1f0.txt
cmp -s f0.txt f1.txt && { echo "FAIL: the clip does not move the vertices between frames"; fail=1; }
cmp -s f0.txt i1f0.txt && { echo "FAIL: --stagger: instance 1 starts where instance 0 does"; fail=1; }
# --time T is the first frame's time: frame 15 at 30 fps is --time 0.5
"$vk" deform hero.dff --cpu --clip hero.dff.ifp#wave --frames 16 --out t16.csv 2> /dev/null
"$vk" deform hero.dff --cpu --clip hero.dff.ifp#wave --time 0.5 --out t05.csv 2> /dev/null
tail -n "$n" t16.csv | cut -d, -f3- > a.txt
tail -n "$n" t05.csv | cut -d, -f3- > b.txt
cmp -s a.txt b.txt || { echo "FAIL: --time 0.5 is not frame 15 at 30 fps"; fail=1; }
expect 0 "deform --cpu-fast --clip .ska" "$vk" deform hero.dff --cpu-fast --clip hero.dff.walk.ska --instances 2 --frames 2 --format raw --out fast.raw
expect 0 "deform .kf clip on a .nif" "$vk" deform b.nif --cpu --clip b.nif.walk.kf#walk --clip-cycle mirror --clip-speed 0.5 --frames 3 --out j.csv
expect 0 "deform a pose JSON clip" "$vk" deform hero.dff --cpu --clip nod.json#frames --clip-fps 10 --clip-cycle mirror --frames 3 --out pj.csv
expect 0 "deform .rtm on a .p3d" "$vk" deform p.p3d --cpu --clip p.p3d.wave.rtm --clip-duration 2 --frames 2 --out r.csv
# a clip that drives only some of the model's nodes says so (the rest keep their bind pose),
# not only in inspect --model
expect 0 "deform a clip of a few nodes" "$vk" deform hero.dff --cpu --clip 'hero.dff.ifp#wave' --out w.csv
has "deform notes the nodes the clip leaves alone" \
  "note: the clip hero.dff.ifp#wave animates [0-9]* of the model's [0-9]* nodes; the other [0-9]* keep their bind pose"

# crowds: JSON and CSV, two models, roots, a bind-pose instance; paths relative to the crowd
mkdir crowds
cat > crowds/c.json <<'EOF'
{"instances": [
  {"model": "../hero.dff", "clip": "../hero.dff.walk.anm", "start": 0.25, "cycle": "loop"},
  {"model": "../hero.dff", "clip": "../hero.dff.ifp#wave", "speed": -1.5, "cycle": "mirror",
   "root": {"translation": [2, 0, 1], "rotation": [0, 0.7071068, 0, 0.7071068], "scale": [1.5, 1.5, 1.5]}},
  {"model": "../b.nif", "clip": "../b.nif.wave.kf", "start": 0.3,
   "root": {"matrix": [0,0,-1, 0,1,0, 1,0,0, 4,0,0]}},
  {"model": "../b.nif"}
]}
EOF
cat > crowds/c.csv <<'EOF'
# hero.dff comes from the command line
clip,start,speed,cycle,tx,tz,qy,qw
../hero.dff.walk.anm,0,1,loop,0,0,,
../hero.dff.wave.anm,0.5,1.25,clamp,2,-1,0.3826834,0.9238795
../hero.dff.ifp#1,1,0.5,reset,,,,
EOF
mkdir out_cpu
expect 0 "deform --crowd JSON (two models into a folder)" "$vk" deform --crowd crowds/c.json --cpu --frames 2 --format raw --out out_cpu
[ -s out_cpu/hero.dff.raw ] && [ -s out_cpu/b.nif.raw ] || { echo "FAIL: crowd outputs missing: $(ls out_cpu)"; fail=1; }
[ "$(stat -c %s out_cpu/hero.dff.raw)" -eq $((2 * 2 * n * 24)) ] || { echo "FAIL: hero.dff.raw size"; fail=1; }
expect 0 "deform --crowd CSV with the model on the command line" "$vk" deform hero.dff --crowd crowds/c.csv --cpu-fast --frames 2 --out csv.raw

# ---- errors ----
printf 'clip,speed\n../hero.dff.walk.anm,1\n\n../hero.dff.walk.anm,fast\n' > crowds/bad.csv
expect 1 "a bad number in a CSV crowd" "$vk" deform hero.dff --crowd crowds/bad.csv --cpu --out x.csv
has "a bad CSV line" "crowds/bad.csv:4: speed: expected a finite number"
printf '{"instances": [{"clip": "../hero.dff.walk.anm"}, {"clip": "../hero.dff.ifp#run"}]}' > crowds/noclip.json
expect 1 "a clip name the file does not have" "$vk" deform hero.dff --crowd crowds/noclip.json --cpu --out x.csv
has "the missing clip" 'instances\[1\]: clip ../hero.dff.ifp#run: .*has no clip "run"'
expect 1 "--clip FILE#name the file does not have" "$vk" deform hero.dff --cpu --clip hero.dff.ifp#run --out x.csv
has "the missing --clip name" 'has no clip "run"'
expect 1 "a clip that drives no node of the model" "$vk" deform b.nif --cpu --clip hero.dff.walk.anm --out x.csv
has "no bound track" "drives none of the model's nodes"
expect 1 "a clip file that is not one" "$vk" deform hero.dff --cpu --clip hero.dff --out x.csv
expect 1 "a missing clip file" "$vk" deform hero.dff --cpu --clip missing.anm --out x.csv
expect 1 "a missing crowd file" "$vk" deform hero.dff --cpu --crowd missing.csv --out x.csv
echo '{"frames": [{"nodes": [{"name": "Tail", "rotation": [0, 0, 0, 1]}]}]}' > tail.json
expect 1 "a pose JSON clip naming a node the model lacks" "$vk" deform p.p3d --cpu --clip tail.json --out x.csv
has "the unknown node" 'tail.json: frames\[0\].nodes\[0\]: unknown node name "Tail"
expect 2 "--clip with --crowd" "$vk" deform hero.dff --clip hero.dff.walk.anm --crowd crowds/c.csv --out x.csv
expect 2 "--clip with --pose" "$vk" validate hero.dff --clip hero.dff.walk.anm --pose nod.json
expect 2 "--stagger without --clip" "$vk" validate hero.dff --stagger
expect 2 "--instances with --crowd" "$vk" validate hero.dff --crowd crowds/c.csv --instances 3
expect 2 "--clip-cycle without clips" "$vk" deform hero.dff --clip-cycle loop --out x.csv
expect 2 "--clip-cycle nonsense" "$vk" deform hero.dff --clip hero.dff.walk.anm --clip-cycle forever --out x.csv
expect 2 "an instance without a model and two FILEs" "$vk" validate hero.dff b.nif --crowd crowds/c.csv
has "naming the entry" "crowds/c.csv:3: the instance names no model"
expect 2 "an instance without a model and no FILE" "$vk" validate --crowd crowds/c.csv
expect 2 "a FILE no instance plays" "$vk" validate p.p3d --crowd crowds/c.json
expect 2 "deform over the crowd file" "$vk" deform hero.dff --crowd crowds/c.csv --cpu --out crowds/c.csv
[ "$(head -c 5 crowds/c.csv)" = "# her" ] || { echo "FAIL: the crowd file was overwritten"; fail=1; }

# ---- GPU: clips sampled in the crowd's pose pass ----
"$vk" devices > /dev/null 2>&1
if [ $? -eq 4 ]; then
  echo "no Vulkan device: GPU checks skipped"
  exit $fail
fi
for c in hero.dff.walk.anm hero.dff.wave.anm hero.dff.walk.ska 'hero.dff.ifp#wave'; do
  expect 0 "validate --clip $c" "$vk" validate hero.dff --clip "$c" --instances 5 --stagger --frames 3 --validation
  grep -q "crowd's pose pass), .*validation layer clean" out || { echo "FAIL: validate --clip $c: $(tail -1 out)"; fail=1; }
done
expect 0 "validate a clip of a few nodes" "$vk" validate hero.dff --clip 'hero.dff.ifp#wave' --instances 1
has "validate notes the nodes the clip leaves alone" "note: the clip hero.dff.ifp#wave animates [0-9]* of the model's"
expect 0 "validate .kf clip (.nif)" "$vk" validate b.nif --clip b.nif.wave.kf --instances 3 --frames 3 --fps 7 --validation
expect 0 "validate a pose JSON clip" "$vk" validate p.p3d hero.dff --clip nod.json --clip-fps 10 --instances 3 --stagger --frames 3 --validation
expect 0 "validate RTM_0101 (.p3d)" "$vk" validate p.p3d --clip p.p3d.walk.rtm --instances 3 --clip-speed 1.7 --clip-cycle clamp --frames 3 --validation
expect 0 "validate BMTR (.p3d)" "$vk" validate p.p3d --clip p.p3d.wave.rtm --clip-duration 2 --instances 3 --stagger --frames 2 --time -0.4 --validation
expect 0 "validate a JSON crowd of two models with roots" "$vk" validate --crowd crowds/c.json --frames 4 --validation --json
grep -q '"gpu_path":\s*"crowd"' out || { echo "FAIL: validate --crowd did not take the crowd path"; fail=1; }
grep -q '"validation_messages":\s*0' out || { echo "FAIL: validation-layer messages"; fail=1; }
expect 0 "validate a CSV crowd" "$vk" validate hero.dff --crowd crowds/c.csv --frames 3 --validation
# every format playing its own clips in one crowd (issue 13): .dff with .anm/.ifp, .p3d with
# RTM and BMTR, .nif with both .kf layouts, .cmdl with .cskla; roots, cycles, starts, speeds
"$vk" generate --out n.cmdl --format cmdl --vertices 700 --palette-limit 20 > /dev/null 2>&1 || { echo "FAIL: generate cmdl"; fail=1; }
cat > crowds/mixed.json <<'EOF2'
{"instances": [
  {"model": "../hero.dff", "clip": "../hero.dff.walk.anm", "start": 0.1},
  {"model": "../hero.dff", "clip": "../hero.dff.ifp#wave", "speed": 1.3},
  {"model": "../p.p3d", "clip": "../p.p3d.walk.rtm", "start": 0.4},
  {"model": "../p.p3d", "clip": "../p.p3d.wave.rtm", "cycle": "mirror"},
  {"model": "../b.nif", "clip": "../b.nif.walk.kf", "speed": 0.7},
  {"model": "../b.nif", "clip": "../b.nif.wave.kf", "start": 1.1},
  {"model": "../n.cmdl", "clip": "../n.cmdl.walk.cskla", "cycle": "clamp"},
  {"model": "../n.cmdl", "clip": "../n.cmdl.wave.cskla", "start": 0.5,
   "root": {"translation": [1, 0, 0], "rotation": [0, 0.3826834, 0, 0.9238795], "scale": [1, 1, 1]}}
]}
EOF2
expect 0 "validate a crowd of all four formats playing their own clips" "$vk" validate --crowd crowds/mixed.json --frames 5 --clip-duration 2 --validation
grep -q "PASS: 4 file(s).*clips sampled in the crowd's pose pass.*validation layer clean" out ||
  { echo "FAIL: mixed crowd: $(tail -1 out)"; fail=1; }
expect 0 "validate clips in several chunks" "$vk" validate hero.dff --clip hero.dff.wave.anm --instances 90 --stagger --frames 2 --max-chunk-mb 1 --validation
grep -q "in [2-9] chunk" out || { echo "FAIL: --max-chunk-mb 1 gave one chunk: $(tail -1 out)"; fail=1; }
# the check can fail on the crowd path too
expect 3 "validate --clip with an injected fault" "$vk" validate hero.dff --clip hero.dff.ifp#wave --instances 2 --inject-fault weight
# deform --gpu samples clips on the GPU: the same vertices as the reference within tolerance,
# checked by size here (validate checks values)
mkdir out_gpu
expect 0 "deform --gpu --crowd" "$vk" deform --crowd crowds/c.json --gpu --frames 2 --format raw --out out_gpu --validation
cmp -s <(stat -c %s out_cpu/hero.dff.raw out_cpu/b.nif.raw) <(stat -c %s out_gpu/hero.dff.raw out_gpu/b.nif.raw) ||
  { echo "FAIL: deform --gpu --crowd sizes differ from --cpu"; fail=1; }
expect 0 "render --clip" "$vk" render hero.dff --clip hero.dff.walk.anm --instances 4 --stagger --out clip.png --validation
expect 0 "render --crowd" "$vk" render --crowd crowds/c.json --frames 3 --size 320x200 --out crowd.png --validation
if [ -n "$check_png" ]; then
  "$check_png" clip.png 640 360 || fail=1
  "$check_png" crowd.png 320 200 || fail=1
fi
[ $fail -eq 0 ] && echo "cli_clips: all checks passed"
exit $fail
