#!/usr/bin/env bash
# No output replaces an input (docs/safety.md), for every command and every output it writes:
# validate's JUnit, report and golden files, bake's vertex data, textures, sidecars, sheets and
# report, bench's --end-to-end file, render's PNG. Each is refused before any work with exit 2
# and one line naming the output and the input; the input keeps its bytes and nothing new is
# written beside it. Inputs are compared by identity: through a symlink, and a file reached by
# another name, are inputs too. Refused before any device is opened, so no GPU is needed.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
mkdir "$tmp/w"
cd "$tmp/w"
d=$src/datasets
cp "$d/char_b24_pl8.dff" a.dff
cp "$d/char_b24_pl8.dff.walk.anm" a.dff.walk.anm
cp "$d/char_b24_pl8.p3d" m.p3d
cp "$d/char_b24_pl8.model.cfg" m.model.cfg
echo '{"nodes": []}' > p.json
printf '{"instances": [{"model": "a.dff", "clip": "a.dff.walk.anm"}, {"model": "a.dff"}]}\n' > c.json

# refused "what" OUTPUT INPUT command...: exit 2, one line naming the output and the input, the
# input's bytes kept and the folder's files as they were (names, sizes, times)
refused() {
  local what=$1 out=$2 in=$3; shift 3
  local sum before
  sum=$(cksum < "$in")
  cp -p "$in" ../saved
  before=$(find . -printf '%p %s %T@ %y\n' | sort)
  "$@" > /dev/null 2> ../err; local rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL: $what: exit $rc, expected 2 ($(head -c 300 ../err))"; fail=1
  elif ! grep -q 'refusing to overwrite' ../err || ! grep -qF -- "$out" ../err || ! grep -qF -- "$in" ../err; then
    echo "FAIL: $what: the message does not name the output $out and the input $in: $(cat ../err)"; fail=1
  elif [ "$(wc -l < ../err)" -ne 1 ]; then
    echo "FAIL: $what: more than one line: $(cat ../err)"; fail=1
  fi
  check "$what: $in keeps its bytes" "[ \"\$(cksum < '$in')\" = '$sum' ]"
  check "$what: nothing written" "[ \"\$(find . -printf '%p %s %T@ %y\n' | sort)\" = \"\$before\" ]"
  cmp -s "$in" ../saved || cp -p ../saved "$in" # so that one failure does not spoil the next cases
}

# 1. validate: --junit naming the model, a clip, the pose file, the crowd file
refused "validate --junit the model" a.dff a.dff "$vk" validate a.dff --junit a.dff
refused "validate --junit the model by another name" ./a.dff a.dff "$vk" validate a.dff --junit ./a.dff
refused "validate --junit the clip" a.dff.walk.anm a.dff.walk.anm \
  "$vk" validate a.dff --clip a.dff.walk.anm --instances 2 --junit a.dff.walk.anm
refused "validate --junit the pose file" p.json p.json "$vk" validate a.dff --pose p.json --junit p.json
refused "validate --junit the crowd file" c.json c.json "$vk" validate --crowd c.json --junit c.json
refused "validate --junit the model's model.cfg" m.model.cfg m.model.cfg "$vk" validate m.p3d --junit m.model.cfg
# --report DIR and --save-golden DIR: the files they write, reached through symlinks
mkdir r g
ln -s ../a.dff r/index.html
refused "validate --report: index.html" r/index.html a.dff "$vk" validate a.dff --report r
rm r/index.html; ln -s ../a.dff r/three.min.js
refused "validate --report: three.min.js" r/three.min.js a.dff "$vk" validate a.dff --report r
rm r/three.min.js; ln -s ../a.dff r/heatmap_d0_f0.png
refused "validate --report: a heat map" r/heatmap_d0_f0.png a.dff "$vk" validate a.dff --report r
ln -s ../a.dff g/0.raw
refused "validate --save-golden: a raw" g/0.raw a.dff "$vk" validate a.dff --save-golden g
rm g/0.raw; ln -s ../p.json g/golden.json
refused "validate --save-golden: golden.json" g/golden.json p.json "$vk" validate a.dff --pose p.json --save-golden g
rm g/golden.json; echo '{}' > g/golden.json
refused "validate --junit the golden compared against" g/golden.json g/golden.json \
  "$vk" validate a.dff --against g --junit g/golden.json

# 2. bake: --report naming the manifest, a job's model or model.cfg; outputs named like inputs
cat > b.json <<'JSON'
{"out": "baked", "jobs": [{"model": "a.dff", "clips": ["a.dff.walk.anm"], "range": [0, 0.2], "outputs": ["raw"]},
                          {"model": "m.p3d", "clips": ["a.dff.walk.anm"], "range": [0, 0.2], "outputs": ["pc2"]}]}
JSON
refused "bake --report the manifest" b.json b.json "$vk" bake b.json --cpu --report b.json
refused "bake --report a job's model" a.dff a.dff "$vk" bake b.json --cpu --report a.dff
refused "bake --report a job's model.cfg" m.model.cfg m.model.cfg "$vk" bake b.json --cpu --report m.model.cfg
refused "bake --check --report the manifest" b.json b.json "$vk" bake b.json --check --report b.json
mkdir reps; echo '{"tool": "vkskin bake", "jobs": []}' > reps/shard-0.json
refused "bake --check --merge --report a shard report" reps/shard-0.json reps/shard-0.json \
  "$vk" bake b.json --check --merge reps --report reps/shard-0.json
cp a.dff j.pc2
cat > mj.json <<'JSON'
{"out": ".", "jobs": [{"name": "j", "model": "j.pc2", "clips": ["a.dff.walk.anm"], "range": [0, 0.2], "outputs": ["pc2"]}]}
JSON
refused "bake: the job's PC2 is its model" j.pc2 j.pc2 "$vk" bake mj.json --cpu
cp a.dff.walk.anm j.raw
cat > cj.json <<'JSON'
{"out": ".", "jobs": [{"name": "j", "model": "a.dff", "clips": ["j.raw"], "range": [0, 0.2], "outputs": ["raw"]}]}
JSON
refused "bake: the job's raw is its clip" j.raw j.raw "$vk" bake cj.json --cpu
cat > k.raw.json <<'JSON'
{"out": ".", "jobs": [{"name": "k", "model": "a.dff", "clips": ["a.dff.walk.anm"], "range": [0, 0.2], "outputs": ["raw"]}]}
JSON
refused "bake: the raw sidecar is the manifest" k.raw.json k.raw.json "$vk" bake k.raw.json --cpu
cat > two.json <<'JSON'
{"out": ".", "jobs": [{"model": "a.dff", "clips": ["a.dff.walk.anm"], "range": [0, 0.2], "outputs": ["raw"]},
                      {"name": "a.dff.walk", "model": "a.dff", "clips": ["a.dff.walk.anm"], "range": [0, 0.2],
                       "outputs": ["gltf-morph"]}]}
JSON
ln -s a.dff.walk.anm a.dff.walk.morph.glb
refused "bake: one job's output is another job's clip" a.dff.walk.morph.glb a.dff.walk.anm "$vk" bake two.json --cpu
rm a.dff.walk.morph.glb
cat > sheet.json <<'JSON'
{"out": "s", "jobs": [{"name": "j", "model": "a.dff", "clips": ["a.dff.walk.anm"], "range": [0, 0.2],
                       "outputs": ["raw"], "contact_sheet": true}]}
JSON
mkdir s; ln -s ../a.dff s/j.0.sheet.png
refused "bake: a contact sheet" s/j.0.sheet.png a.dff "$vk" bake sheet.json

# 3. bench --end-to-end naming the model
refused "bench --end-to-end the model" a.dff a.dff "$vk" bench --end-to-end a.dff a.dff --instances 2 --repeats 1

# 4. render, deform, convert: the same rule (the model.cfg a P3D reads, a clip)
refused "render --out the model's model.cfg" m.model.cfg m.model.cfg "$vk" render m.p3d --out m.model.cfg
refused "render --out the clip" a.dff.walk.anm a.dff.walk.anm \
  "$vk" render a.dff --clip a.dff.walk.anm --out a.dff.walk.anm
refused "deform --out the crowd file" c.json c.json "$vk" deform --crowd c.json --cpu --out c.json
# a crowd's root-motion CSV is written beside the output ("<out>.root_motion.csv"): a CSV crowd
# file of that name whose instances ask for root motion is refused before any work
printf 'model,clip,root_motion\na.dff,a.dff.walk.anm,y\n' > v.raw.root_motion.csv
refused "deform --out whose root-motion CSV is the crowd file" v.raw.root_motion.csv v.raw.root_motion.csv \
  "$vk" deform --crowd v.raw.root_motion.csv --cpu --frames 2 --out v.raw
rm v.raw.root_motion.csv
ln -s a.dff.walk.anm clip.glb
refused "convert OUT a clip through a symlink" clip.glb a.dff.walk.anm "$vk" convert a.dff clip.glb --clip a.dff.walk.anm
rm clip.glb

# 5. outputs that only resemble inputs are written
"$vk" bake b.json --check --report report.json 2> ../err; rc=$?
check "bake --check --report elsewhere runs (exit 1: nothing baked yet)" "[ $rc -eq 1 ] && [ -s report.json ]"
exit $fail
