#!/usr/bin/env bash
# validate's readback check: the GPU reduces every chunk's outputs (compute/reduce.comp) and the
# host recomputes the same figures from the bytes it compares. With the readback in the compute
# submission and in one of its own (VKSKIN_TEST_SEPARATE_READBACK): the JSON carries
# gpu_reduction (every chunk checked, no mismatch, the positions' extent, no non-finite
# component); with one bit of chunk 2 flipped after the copy (VKSKIN_TEST_FLIP_READBACK=2, far
# inside every tolerance, so the comparison alone passes) validate fails with exit 5 and a line
# naming the file and the chunk. The same on the clip/crowd route (--clip, --crowd: the stream
# reduces each chunk's frame, stream.h desc.reduce), both readbacks, a flipped bit of its third
# chunk frame failing with exit 5 and a line naming file, frame, instances and chunk, and split
# across two contexts (--device 0,0), the batch's split as well. Exit 77 without a Vulkan device.
# Usage: cli_validate_readback.sh VKSKIN
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

"$vk" generate --vertices 2000 --out a.dff --no-clips > /dev/null || { echo "FAIL: generate a.dff"; exit 1; }
"$vk" generate --vertices 700 --bones 24 --seed 2 --out b.dff --no-clips > /dev/null || { echo "FAIL: generate b.dff"; exit 1; }

# 200 poses of ~24 KB a chunk of 1 MiB: five chunks, the last two files' chunk shared
# (--readback-check on: auto, the default, leaves out a context that reads its outputs in place,
# lavapipe's; checked below)
args=(validate a.dff b.dff --instances 200 --seed 1 --json --quiet --max-chunk-mb 1 --validation --readback-check on)
for apart in 0 1; do
  VKSKIN_TEST_SEPARATE_READBACK=$apart "$vk" "${args[@]}" > ok.json 2> err; rc=$?
  if [ $rc -eq 4 ]; then echo "skip: no Vulkan device ($(head -c 300 err))"; exit 77; fi
  [ $rc -eq 0 ] || { echo "FAIL: validate, readback apart=$apart: exit $rc ($(head -c 600 err))"; fail=1; continue; }
  python3 - ok.json "$apart" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
g = d.get("gpu_reduction")
bad = []
if not g: bad.append("no gpu_reduction")
else:
    if g["chunks"] != d["chunks"] or d["chunks"] < 4: bad.append("chunks %s of %s" % (g["chunks"], d["chunks"]))
    if g["readback_checked"] is not True: bad.append("readback_checked %s" % g["readback_checked"])
    if g["readback_mismatches"] != 0: bad.append("mismatches %s" % g["readback_mismatches"])
    if g["nonfinite"] != 0: bad.append("nonfinite %s" % g["nonfinite"])
    lo, hi = g["position_min"], g["position_max"]
    if len(lo) != 3 or len(hi) != 3 or any(a is None or b is None or a >= b for a, b in zip(lo, hi)):
        bad.append("extent %s %s" % (lo, hi))
    if not (0 <= g["normal_deviation_max"] < 1): bad.append("normal deviation %s" % g["normal_deviation_max"])
if d["pass"] is not True or d["exit_code"] != 0: bad.append("not a pass")
if bad:
    print("FAIL: readback apart=%s: %s" % (sys.argv[2], "; ".join(bad)))
    sys.exit(1)
print("readback apart=%s: %d chunks checked, extent %s .. %s" % (sys.argv[2], g["chunks"], g["position_min"], g["position_max"]))
PY
done

for apart in 0 1; do
  VKSKIN_TEST_SEPARATE_READBACK=$apart VKSKIN_TEST_FLIP_READBACK=2 "$vk" "${args[@]}" > bad.json 2> err; rc=$?
  [ $rc -eq 5 ] || { echo "FAIL: a flipped bit of chunk 2, readback apart=$apart: exit $rc, not 5 ($(head -c 600 err))"; fail=1; }
  grep -q "a.dff: readback of chunk 2 (poses [0-9]*\.\.[0-9]*): the GPU's sum 0x[0-9a-f]* but the host read 0x" err ||
    { echo "FAIL: no line naming chunk 2: $(head -c 600 err)"; fail=1; }
  [ "$(grep -c 'readback of chunk' err)" -eq 1 ] || { echo "FAIL: other chunks named: $(head -c 600 err)"; fail=1; }
  python3 - bad.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
g = d["gpu_reduction"]
# the comparison alone passes: the flipped bit is far inside the tolerances
if not (g["readback_mismatches"] == 1 and d["pass"] is False and d["exit_code"] == 5 and
        all(f["positions"]["pass"] and f["normals"]["pass"] for f in d["files"])):
    print("FAIL: flipped bit: %s pass %s exit %s" % (g, d["pass"], d["exit_code"]))
    sys.exit(1)
PY
done
[ $fail -eq 0 ] && echo "a flipped bit of chunk 2 fails validate with exit 5, either readback"

# a batch split across two contexts (--device 0,0): each context reduces its chunks and checks
# their readback as one device's batch does, the JSON's gpu_reduction counting every context's
# chunks; a flipped bit of chunk 2 (each context's: the hook is per context) fails with exit 5
# and a line per context naming the chunk, the context and its poses
"$vk" "${args[@]}" --device 0,0 > splitb.json 2> err; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: validate --device 0,0: exit $rc ($(head -c 600 err))"; fail=1; }
VKSKIN_TEST_FLIP_READBACK=2 "$vk" "${args[@]}" --device 0,0 > splitbad.json 2> err; rc=$?
[ $rc -eq 5 ] || { echo "FAIL: --device 0,0, a flipped bit of chunk 2: exit $rc, not 5 ($(head -c 600 err))"; fail=1; }
for k in 1 2; do
  grep -q "\.dff: readback of chunk 2 on context $k/2 (poses [0-9]*\.\.[0-9]*.*): the GPU's sum 0x[0-9a-f]* but the host read 0x" err ||
    { echo "FAIL: --device 0,0: no line naming chunk 2 of context $k: $(head -c 600 err)"; fail=1; }
done
[ "$(grep -c 'readback of chunk' err)" -eq 2 ] || { echo "FAIL: --device 0,0: other chunks named: $(head -c 600 err)"; fail=1; }
python3 - splitb.json splitbad.json <<'PY' || fail=1
import json, sys
d, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
bad = []
g = d.get("gpu_reduction")
if len(d.get("context_shares", [])) != 2: bad.append("not split: %s" % d.get("context_shares"))
if not g: bad.append("no gpu_reduction")
elif not (g["chunks"] == d["chunks"] == sum(s["chunks"] for s in d["context_shares"]) and
          g["readback_checked"] is True and g["readback_mismatches"] == 0 and g["nonfinite"] == 0):
    bad.append("gpu_reduction %s for %s chunks" % (g, d["chunks"]))
if d["pass"] is not True or d["exit_code"] != 0: bad.append("not a pass")
gb = b.get("gpu_reduction") or {}
if not (gb.get("readback_mismatches") == 2 and b["pass"] is False and b["exit_code"] == 5 and
        all(f["positions"]["pass"] and f["normals"]["pass"] for f in b["files"])):
    bad.append("flipped: %s pass %s exit %s" % (gb, b["pass"], b["exit_code"]))
if bad:
    print("FAIL: --device 0,0: " + "; ".join(bad))
    sys.exit(1)
print("--device 0,0: %d chunks of two contexts checked" % g["chunks"])
PY
# auto on a split: each context by its own device (lavapipe reads in place: none); off: none
VKSKIN_TEST_FLIP_READBACK=2 "$vk" "${args[@]}" --device 0,0 --readback-check off > splitoff.json 2> err; rc=$?
[ $rc -eq 0 ] && ! grep -q gpu_reduction splitoff.json ||
  { echo "FAIL: --device 0,0 --readback-check off: exit $rc, $(grep -o '"gpu_reduction"' splitoff.json)"; fail=1; }
"$vk" validate a.dff b.dff --instances 200 --seed 1 --json --quiet --max-chunk-mb 1 > auto1.json 2> err &&
  "$vk" validate a.dff b.dff --instances 200 --seed 1 --json --quiet --max-chunk-mb 1 --device 0,0 > auto2.json 2> err ||
  { echo "FAIL: auto, one device and split: $(head -c 600 err)"; fail=1; }
python3 - auto1.json auto2.json <<'PY' || fail=1
import json, sys
a, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# the same device twice: the split reduces where one device's batch does
if ("gpu_reduction" in a) != ("gpu_reduction" in s):
    print("FAIL: auto: one device %s, split %s" % ("gpu_reduction" in a, "gpu_reduction" in s))
    sys.exit(1)
PY

# auto (the default): where the GPU reduced, every chunk was checked; off: no reduction, and the
# flipped bit goes unseen (exit 0: what the check is for); a bad mode is a usage error
auto=(validate a.dff b.dff --instances 200 --seed 1 --json --quiet --max-chunk-mb 1)
"$vk" "${auto[@]}" > auto.json 2> err || { echo "FAIL: auto: $(head -c 600 err)"; fail=1; }
VKSKIN_TEST_FLIP_READBACK=2 "$vk" "${auto[@]}" --readback-check off > off.json 2> err; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --readback-check off with a flipped bit: exit $rc, not 0"; fail=1; }
python3 - auto.json off.json <<'PY' || fail=1
import json, sys
a, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
bad = []
if a.get("readback_check") != "auto": bad.append("auto: readback_check %s" % a.get("readback_check"))
g = a.get("gpu_reduction")
if g is not None and (g["readback_checked"] is not True or g["chunks"] != a["chunks"]): bad.append("auto: %s" % g)
if o.get("readback_check") != "off" or "gpu_reduction" in o: bad.append("off: %s" % o.get("gpu_reduction"))
if bad:
    print("FAIL: " + "; ".join(bad))
    sys.exit(1)
print("auto: %s; off: no reduction" % ("reduced, every chunk checked" if g else "not reduced (outputs read in place)"))
PY
"$vk" "${auto[@]}" --readback-check maybe > /dev/null 2> err; rc=$?
[ $rc -eq 2 ] && grep -q "readback-check needs auto, on or off" err || { echo "FAIL: --readback-check maybe: exit $rc"; fail=1; }

# the clip/crowd route: models with clips; a crowd of 40 (two models, clips, layers, roots, the
# bind pose) in chunks of 1 MiB: two chunks of four frames
"$vk" generate --vertices 1500 --out c.dff > /dev/null || { echo "FAIL: generate c.dff"; exit 1; }
"$vk" generate --vertices 700 --bones 24 --seed 2 --out d.dff > /dev/null || { echo "FAIL: generate d.dff"; exit 1; }
{
  echo '{"instances": ['
  for i in $(seq 0 39); do
    case $((i % 4)) in
      0) echo "{\"model\": \"c.dff\", \"clip\": \"c.dff.walk.anm\", \"start\": 0.$i, \"root\": {\"translation\": [$i, 0, 1]}},";;
      1) echo "{\"model\": \"d.dff\", \"layers\": [{\"clip\": \"d.dff.walk.anm\", \"weight\": 0.6}, {\"clip\": \"d.dff.wave.anm\", \"weight\": 0.4}]},";;
      2) echo "{\"model\": \"c.dff\", \"clip\": \"c.dff.wave.anm\", \"speed\": 1.5},";;
      3) echo "{\"model\": \"d.dff\"},";;
    esac
  done
  echo '{"model": "c.dff", "clip": "c.dff.walk.anm"}]}'
} > crowd.json
clip=(validate c.dff --clip c.dff.walk.anm --stagger --instances 30 --frames 3 --max-chunk-mb 1 --json --quiet --validation)
crowd=(validate --crowd crowd.json --frames 4 --max-chunk-mb 1 --json --quiet --validation)
# route name, frames, then the command
check_route() {
  local what=$1 frames=$2; shift 2
  for apart in 0 1; do
    VKSKIN_TEST_SEPARATE_READBACK=$apart "$vk" "$@" > ok.json 2> err; rc=$?
    [ $rc -eq 0 ] || { echo "FAIL: $what, readback apart=$apart: exit $rc ($(head -c 600 err))"; fail=1; continue; }
    python3 - ok.json "$what apart=$apart" "$frames" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
g = d.get("gpu_reduction")
frames = int(sys.argv[3])
bad = []
if d.get("gpu_path") != "crowd": bad.append("gpu_path %s" % d.get("gpu_path"))
if not g: bad.append("no gpu_reduction")
else:
    # a check per chunk and frame
    if g["chunks"] != d["chunks"] * frames or d["chunks"] < 1: bad.append("checked %s for %s chunks" % (g["chunks"], d["chunks"]))
    if g["readback_checked"] is not True: bad.append("readback_checked %s" % g["readback_checked"])
    if g["readback_mismatches"] != 0: bad.append("mismatches %s" % g["readback_mismatches"])
    if g["nonfinite"] != 0: bad.append("nonfinite %s" % g["nonfinite"])
    lo, hi = g["position_min"], g["position_max"]
    if len(lo) != 3 or len(hi) != 3 or any(a is None or b is None or a >= b for a, b in zip(lo, hi)):
        bad.append("extent %s %s" % (lo, hi))
if d["pass"] is not True or d["exit_code"] != 0: bad.append("not a pass")
if bad:
    print("FAIL: %s: %s" % (sys.argv[2], "; ".join(bad)))
    sys.exit(1)
print("%s: %d chunk frames checked" % (sys.argv[2], g["chunks"]))
PY
    VKSKIN_TEST_SEPARATE_READBACK=$apart VKSKIN_TEST_FLIP_READBACK=2 "$vk" "$@" > bad.json 2> err; rc=$?
    [ $rc -eq 5 ] || { echo "FAIL: $what, a flipped bit of chunk 2, apart=$apart: exit $rc, not 5 ($(head -c 600 err))"; fail=1; }
    grep -q "c.dff: readback of chunk 2 (frame [0-9]*, instances [0-9]*\.\.[0-9]*.*): the GPU's sum 0x[0-9a-f]* but the host read 0x" err ||
      { echo "FAIL: $what: no line naming chunk 2: $(head -c 600 err)"; fail=1; }
    [ "$(grep -c 'readback of chunk' err)" -eq 1 ] || { echo "FAIL: $what: other chunks named: $(head -c 600 err)"; fail=1; }
    python3 - bad.json "$what" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
g = d["gpu_reduction"]
if not (g["readback_mismatches"] == 1 and d["pass"] is False and d["exit_code"] == 5 and
        all(f["positions"]["pass"] and f["normals"]["pass"] for f in d["files"])):
    print("FAIL: %s, flipped bit: %s pass %s exit %s" % (sys.argv[2], g, d["pass"], d["exit_code"]))
    sys.exit(1)
PY
  done
}
check_route "--clip" 3 "${clip[@]}"
check_route "--crowd" 4 "${crowd[@]}"

# split across two contexts: every chunk frame of each context checked
"$vk" "${clip[@]}" --device 0,0 > split.json 2> err; rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --clip --device 0,0: exit $rc ($(head -c 600 err))"; fail=1; }
python3 - split.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
g = d.get("gpu_reduction")
if not g or g["readback_checked"] is not True or g["readback_mismatches"] != 0 or g["chunks"] < 3:
    print("FAIL: --clip --device 0,0: gpu_reduction %s" % g)
    sys.exit(1)
PY
[ $fail -eq 0 ] && echo "validate --clip and --crowd check their readback too"
exit $fail
