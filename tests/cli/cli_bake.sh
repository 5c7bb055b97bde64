#!/usr/bin/env bash
# vkskin bake (docs/baking.md "Batch baking") over every generated character and clip
# (tools/slurm/all_characters.json) into every output kind: the decode test reproduces the CPU
# reference from the textures and sidecars alone (CPU reference bake, and GPU bake under the
# validation layer where there is a device); a second run skips everything, --force redoes it
# byte for byte; four shards together make the same files as one run; manifest errors name
# the entry. Exit 77 when this vkskin was built without OpenEXR. Two parts, run as two tests
# so each stays short: "core" (reference bake, re-runs, --force, errors) and "engines" (fast
# CPU and GPU bakes decoded, shards, the glTF validator). The sanitizer phase
# (VKSKIN_TEST_SANITIZER_SUBSET=1, set by tools/scripts/test.sh --sanitize) runs "engines" on
# 4 of the 16 jobs, one of each format and each a different character
# (bake_manifest_subset.py): every reader, output kind, engine and shard (one job each) under
# ASan and UBSan, at a quarter of the time; "core" and the plain build bake the whole library.
set -u
vk=$1
decode=$2
part=${3:-core}
src=${VKSKIN_SOURCE_DIR:?}
manifest=$src/tools/slurm/all_characters.json
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=16
if [ "$part" = engines ] && [ -n "${VKSKIN_TEST_SANITIZER_SUBSET:-}" ]; then
    # char_b24_pl8.dff, char_b32_rigid.nif, char_b48_pl20_strips.cmdl, char_b64_i4.p3d
    python3 "$(dirname "$0")/bake_manifest_subset.py" "$manifest" "$tmp/subset.json" 0 5 10 15 ||
        { echo "FAIL: the manifest's subset"; exit 1; }
    manifest=$tmp/subset.json jobs=4
fi
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
same_files() { # same names, same bytes (sidecars and textures; no temporaries)
    [ "$(cd "$1" && ls | sort)" = "$(cd "$2" && ls | sort)" ] || return 1
    for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || { echo "differs: $(basename "$f")"; return 1; }; done
}
cd "$tmp"

cat > probe.json <<JSON
{"jobs": [{"model": "$src/datasets/char_b24_pl8.cmdl", "clips": ["$src/datasets/char_b24_pl8.cmdl.walk.cskla"],
           "range": [0, 0.5], "outputs": ["vat-exr-float"]}]}
JSON
if "$vk" bake probe.json --cpu --out probe 2>&1 | grep -q "without OpenEXR"; then
    echo "skipped: vkskin was built without OpenEXR (install libopenexr-dev)"
    exit 77
fi

# 1. the whole library on the CPU reference; the decode test on every output
"$vk" bake "$manifest" --cpu --out ref --report ref.json 2> ref.log; rc=$?
check "bake --cpu exits 0" "[ $rc -eq 0 ]"
check "$jobs jobs baked" "grep -q '$jobs baked, 0 up to date, 0 failed' ref.log"
check "a clip that drives some of the nodes is noted" \
    "grep -q 'note: the clip \"wave\" of .*char_b24_pl8.dff.ifp animates [0-9]* of the model.s [0-9]* nodes' ref.log"
check "7 sidecars per job" "[ $(ls ref/*.json | wc -l) -eq $((7 * jobs)) ]"
check "no temporaries left" "[ -z \"\$(find ref -name '*.tmp.*')\" ]"
check "the report lists every job" "[ $(grep -c '\"entry_hash\"' ref.json) -eq $jobs ]"
check "the summary is the only output without a terminal" "! grep -q 'ETA' ref.log"
# a report that cannot be written: the error names it once ("--report: ref: is a folder")
"$vk" bake "$manifest" --cpu --out ref --report ref 2> badreport.log
check "an unwritable --report named once" "grep -q -- '--report: ref: is a folder' badreport.log && ! grep -q 'ref:ref' badreport.log"
if [ "$part" = core ]; then
    "$decode" ref "$src/tools/slurm"; rc=$?
    check "decode test of the CPU bake" "[ $rc -eq 0 ]"
fi

if [ "$part" = core ]; then
# 1b. a vertex list longer than a row wraps: 1562 vertices in rows of 256 are 7 rows a frame
cat > wrap.json <<JSON
{"jobs": [{"model": "$src/datasets/char_b24_pl8.nif", "clips": ["$src/datasets/char_b24_pl8.nif.wave.kf"],
           "max_width": 256, "outputs": ["vat-exr-float", "vat-exr-half", "vat-png16"]}]}
JSON
"$vk" bake wrap.json --cpu --out wrap 2> /dev/null; rc=$?
check "a wrapped bake exits 0" "[ $rc -eq 0 ]"
check "the sidecar says 7 rows a frame" "grep -q '\"rows_per_frame\":\s*7' wrap/char_b24_pl8.nif.vat-exr-float.json"
"$decode" wrap "$src/tools/slurm" > /dev/null; rc=$?
check "decode test of the wrapped layout" "[ $rc -eq 0 ]"

# 2. up to date: nothing redone; --force: everything redone, the same bytes
cp -a ref ref0
"$vk" bake "$manifest" --cpu --out ref 2> again.log; rc=$?
check "re-run exits 0" "[ $rc -eq 0 ]"
check "re-run skips all 16 jobs" "grep -q '0 baked, 16 up to date' again.log"
rm ref/char_b24_pl8.nif.vat.pos.f16.exr
"$vk" bake "$manifest" --cpu --out ref 2> again.log
check "a missing texture redoes its job" "grep -q '1 baked, 15 up to date' again.log"
"$vk" bake "$manifest" --cpu --force --out ref 2> force.log
check "--force redoes every job" "grep -q '16 baked, 0 up to date' force.log"
check "--force writes the same bytes" "same_files ref ref0"

# 2b. a changed input redoes its job: the hash covers each input file's size and time
cp "$src/datasets/char_b24_pl8.dff" in.dff
cp "$src/datasets/char_b24_pl8.dff.walk.anm" in.walk.anm
cp "$src/datasets/char_b24_pl8.p3d" in.p3d
cp "$src/datasets/char_b24_pl8.model.cfg" in.model.cfg
cp "$src/datasets/char_b24_pl8.p3d.walk.rtm" in.walk.rtm
cat > inputs.json <<JSON
{"jobs": [{"model": "in.dff", "clips": ["in.walk.anm"], "range": [0, 0.2], "outputs": ["raw"]},
          {"model": "in.p3d", "read": {"model_name": "char_b24_pl8"}, "clips": ["in.walk.rtm"], "range": [0, 0.2], "outputs": ["raw"]}]}
JSON
"$vk" bake inputs.json --cpu --out inout 2> in.log
check "two input jobs baked" "grep -q '2 baked, 0 up to date' in.log"
"$vk" bake inputs.json --cpu --out inout 2> in.log
check "unchanged inputs: both up to date" "grep -q '0 baked, 2 up to date' in.log"
touch -d '2001-02-03 04:05:06' in.walk.anm
"$vk" bake inputs.json --cpu --out inout 2> in.log
check "a clip file changed since: its job redone" "grep -q '1 baked, 1 up to date' in.log"
printf '\n' >> in.model.cfg
"$vk" bake inputs.json --cpu --out inout 2> in.log
check "the P3D model's model.cfg changed: its job redone" "grep -q '1 baked, 1 up to date' in.log"
cp "$src/datasets/char_b24_pl8.dff" in.dff
"$vk" bake inputs.json --cpu --out inout 2> in.log
check "a model copied over: its job redone" "grep -q '1 baked, 1 up to date' in.log"

# 5. errors name the manifest entry
bad() { # manifest text, expected message part, expected exit code
    printf '%s' "$1" > bad.json
    "$vk" bake bad.json --cpu --out badout 2> bad.log; rc=$?
    check "bad manifest ($2) exits $3" "[ $rc -eq $3 ]"
    check "bad manifest names '$2'" "grep -qF -- '$2' bad.log"
}
m="$src/datasets/char_b24_pl8.dff"
bad '{"jobs": [' 'bad.json:0x' 1
bad '{"jobs": []}' 'jobs: must be a non-empty array' 1
bad "{\"jobs\": [{\"model\": \"$m\", \"clips\": [\"$m.ifp\"], \"outputs\": [\"vat-exr-float\", \"gif\"]}]}" 'jobs[0].outputs[1]: unknown output "gif"' 1
bad "{\"jobs\": [{\"model\": \"$m\", \"clips\": [\"$m.ifp\", \"$m.ifp#run\"], \"outputs\": [\"raw\"]}]}" 'jobs[0].clips[1]: ' 1
bad "{\"jobs\": [{\"model\": \"$m\", \"clips\": [\"$m.ifp#run\"], \"outputs\": [\"raw\"]}]}" 'has no clip named "run"' 1
bad "{\"jobs\": [{\"model\": \"$m\", \"clips\": [3], \"outputs\": [\"raw\"]}]}" 'jobs[0].clips[0]: a clip is' 1
bad "{\"jobs\": [{\"model\": \"$m\", \"clip\": [], \"outputs\": [\"raw\"]}]}" 'jobs[0]: unknown key "clip"' 1
bad "{\"jobs\": [{\"model\": \"nothere.dff\", \"clips\": [\"$m.ifp\"], \"outputs\": [\"raw\"]}]}" 'jobs[0]: the model nothere.dff' 1
# an output that cannot be written fails its job (exit 5), naming the entry, and nothing else
mkdir rw && touch rw/char_b24_pl8.cmdl.vat.obj && chmod 444 rw/char_b24_pl8.cmdl.vat.obj
"$vk" bake probe.json --cpu --out rw 2> rw.log; rc=$?
check "a read-only output fails the bake with exit 5" "[ $rc -eq 5 ]"
check "the failure names the entry and the file" "grep -q 'jobs\[0\]: rw/char_b24_pl8.cmdl.vat.obj' rw.log"
check "the read-only file is kept" "[ ! -s rw/char_b24_pl8.cmdl.vat.obj ]"
check "no sidecar for the failed kind" "[ ! -e rw/char_b24_pl8.cmdl.vat-exr-float.json ]"
chmod 644 rw/char_b24_pl8.cmdl.vat.obj
# a full disk during an EXR write names ENOSPC, not OpenEXR's "Error writing to stream"
# (/dev/full answers every write with ENOSPC; the output follows the link and streams into it)
if [ -c /dev/full ]; then
    mkdir full && ln -s /dev/full full/char_b24_pl8.cmdl.vat.pos.f32.exr
    "$vk" bake probe.json --cpu --out full 2> full.log; rc=$?
    check "an EXR written to a full disk fails with exit 5" "[ $rc -eq 5 ]"
    check "and names ENOSPC" "grep -q 'No space left on device' full.log && ! grep -q 'Error writing to stream' full.log"
fi
# an output that is a folder is named as such, without deform's hint about several inputs
mkdir -p rwd/char_b24_pl8.cmdl.vat.obj
"$vk" bake probe.json --cpu --out rwd 2> rwd.log; rc=$?
check "an output that is a folder fails the bake with exit 5" "[ $rc -eq 5 ] && grep -q 'vat.obj: is a folder' rwd.log"
check "and says nothing about several inputs" "! grep -q 'several inputs' rwd.log"
"$vk" bake "$manifest" --shard 4/4 --cpu > /dev/null 2>&1; rc=$?
check "--shard 4/4 is a usage error" "[ $rc -eq 2 ]"
# I/N in digits, with the cap named
for v in " 0/2" "+0/2" "-0/2" "0/+2" "0/ 2" "0/2 "; do
    "$vk" bake "$manifest" --shard "$v" --cpu --check > /dev/null 2>&1; rc=$?
    check "--shard '$v' is a usage error" "[ $rc -eq 2 ]"
done
"$vk" bake "$manifest" --shard 0/100001 --cpu > /dev/null 2> shard.log; rc=$?
check "--shard 0/100001 is a usage error naming the cap" "[ $rc -eq 2 ] && grep -q '100000' shard.log"

else
# the fast CPU engine's bake, decoded
"$vk" bake "$manifest" --cpu-fast --out fast 2> /dev/null
"$decode" fast "$src/tools/slurm" > /dev/null; rc=$?
check "decode test of the fast CPU bake" "[ $rc -eq 0 ]"

# 3. four shards make exactly the single run's files
for i in 0 1 2 3; do "$vk" bake "$manifest" --cpu --shard $i/4 --out shards --report shard$i.json 2> /dev/null; done
check "shards together == one run" "same_files shards ref"
check "every job in exactly one shard" "[ $(cat shard?.json | grep -c '\"entry_hash\"') -eq $jobs ]"
for i in 0 1 2 3; do check "shard $i has work" "grep -q '\"state\":\s*\"baked\"' shard$i.json"; done

# 4. the GPU crowd path under the validation layer, where there is a device
if "$vk" devices > /dev/null 2>&1; then
    "$vk" bake "$manifest" --validation --jobs 2 --out gpu 2> gpu.log; rc=$?
    check "GPU bake exits 0 with no validation message" "[ $rc -eq 0 ]"
    "$decode" gpu "$src/tools/slurm"; rc=$?
    check "decode test of the GPU bake" "[ $rc -eq 0 ]"
    "$vk" bake probe.json --contact-sheet --validation --out sheet 2> sheet.log; rc=$?
    check "--contact-sheet exits 0" "[ $rc -eq 0 ]"
    check "--contact-sheet writes a PNG per clip" "head -c 8 sheet/char_b24_pl8.cmdl.walk.sheet.png | grep -q PNG"
    # a device whose queue family cannot draw (simulated): the sheet's cause on stderr and in
    # the report, never a job that just reads FAILED
    VKSKIN_TEST_NO_GRAPHICS_QUEUE=1 "$vk" bake probe.json --contact-sheet --out nosheet --report nosheet.json \
        2> nosheet.log; rc=$?
    check "--contact-sheet that cannot be drawn fails (5)" "[ $rc -eq 5 ]"
    check "... and says why on stderr" "grep -q 'contact sheet: render: .* has no queue family with graphics' nosheet.log"
    check "... and in the report" "grep -q '\"error\":.*contact sheet: render: .* has no queue family with graphics' nosheet.json"
    # clips without a name are drawn under their file's name (walk.anm, wave.anm and walk.ska
    # are three sheets, not one "0"), and two clips with one sheet name are refused up front
    d=$src/datasets/char_b24_pl8.dff
    cat > sheets.json <<JSON
{"jobs": [{"model": "$d", "clips": ["$d.walk.anm", "$d.wave.anm", "$d.walk.ska", "$d.ifp"],
           "range": [0, 0.2], "outputs": ["raw"]}]}
JSON
    "$vk" bake sheets.json --contact-sheet --validation --out sheets --report sheets.report 2> sheets.log; rc=$?
    check "five clips make five contact sheets" "[ $rc -eq 0 ] && [ \$(ls sheets/*.sheet.png | wc -l) -eq 5 ]"
    check "the report names five different sheets" \
        "[ \$(grep -o '[^\"]*\.sheet\.png' sheets.report | sort -u | wc -l) -eq 5 ]"
    cat > twice.json <<JSON
{"jobs": [{"model": "$d", "clips": ["$d.walk.anm", "$d.walk.anm"], "range": [0, 0.2], "outputs": ["raw"]}]}
JSON
    "$vk" bake twice.json --contact-sheet --out twice 2> twice.log; rc=$?
    check "two clips with one sheet name exit 1" "[ $rc -eq 1 ] && grep -q 'would both be drawn' twice.log"
    check "nothing baked for them" "[ -z \"\$(ls twice)\" ]"
else
    echo "note: no Vulkan device: the GPU bake is not tested here"
fi

# 4b. every glTF a bake writes passes the Khronos validator, where the glTF tests installed it
if command -v node > /dev/null && [ -d "$src/.cache/node/node_modules/gltf-validator" ]; then
    mkdir v && cp "$src/tests/node/validate.mjs" v/ && ln -s "$src/.cache/node/node_modules" v/node_modules
    (cd v && node validate.mjs ../ref/*.glb > ../validator.log 2>&1); rc=$?
    check "the Khronos validator passes every .glb (validator.log)" "[ $rc -eq 0 ]"
    [ $rc -eq 0 ] || grep -B1 "\[error\]\|\[warning\]" validator.log | head -20
else
    echo "note: no glTF validator installed (tests/node/install.sh): the .glb outputs are not validated here"
fi

fi
exit $fail
