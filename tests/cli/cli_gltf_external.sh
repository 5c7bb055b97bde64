#!/usr/bin/env bash
# A glTF's external files (docs/safety.md): model.gltf + model.bin is how Blender and the
# Khronos samples ship, so
#   1. the buffers and images a .gltf names are inputs: no command writes over one (deform,
#      validate --junit, render, bench --end-to-end, convert, a glTF clip's buffer, bake);
#   2. a URI resolves inside the model's folder: "../", a percent-encoded absolute path and a
#      link leading out are refused naming the buffer, unless --uri-root names the folder;
#   3. one read per distinct file and one budget for the whole model: twenty buffers naming one
#      file are one read, two large files together pass --max-input-mb, inspect applies it to
#      external buffers, and an endless stream is refused near the limit, not at twice it.
# Refusals come before any device is opened, so no GPU is needed.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
say() { echo "FAIL: $*"; fail=1; }

# A .gltf with its buffer beside it, made from a bundled character with its walk clip: the
# converter writes a .glb, split here into JSON and BIN as an exporter writes them.
"$vk" convert "$src/datasets/char_b24_pl8.dff" --clip "$src/datasets/char_b24_pl8.dff.walk.anm" \
  m.glb > /dev/null 2>&1 || { echo "cannot make the test glTF"; exit 1; }
python3 - m.glb m.gltf m.bin <<'EOF' || exit 1
import json, struct, sys
data = open(sys.argv[1], "rb").read()
n = struct.unpack_from("<I", data, 12)[0]
doc = json.loads(data[20:20 + n])
m = struct.unpack_from("<I", data, 20 + n)[0]
open(sys.argv[3], "wb").write(data[28 + n:28 + n + m])
doc["buffers"][0]["uri"] = sys.argv[3]
doc.setdefault("images", []).append({"uri": "skin.png"})
json.dump(doc, open(sys.argv[2], "w"))
EOF
rm m.glb
printf 'not a real picture' > skin.png
# with_uris OUT URI...: m.gltf with its buffers' URIs replaced by these (one buffer each)
with_uris() {
  python3 - "$@" <<'EOF'
import json, sys
doc = json.load(open("m.gltf"))
first = doc["buffers"][0]
doc["buffers"] = [dict(first, uri=u) for u in sys.argv[2:]]
json.dump(doc, open(sys.argv[1], "w"))
EOF
}

# 1. outputs over the buffer or the image: exit 2, the input's bytes kept
refused() {
  local what=$1 in=$2; shift 2
  local sum
  sum=$(cksum < "$in")
  "$@" > /dev/null 2> err; local rc=$?
  [ $rc -eq 2 ] || say "$what: exit $rc, expected 2 ($(head -c 300 err))"
  grep -q 'refusing to overwrite' err || say "$what: no refusal: $(head -c 300 err)"
  grep -qE "of (m|glbuf)\.gltf" err || say "$what: the message does not say whose file it is: $(head -c 300 err)"
  [ "$(cksum < "$in")" = "$sum" ] || say "$what: $in lost its bytes"
  cp -p m.bin.saved m.bin # so that one failure does not spoil the next cases
}
cp -p m.bin m.bin.saved
refused "deform --out the buffer" m.bin "$vk" deform m.gltf --cpu --out m.bin
refused "deform --out the image" skin.png "$vk" deform m.gltf --cpu --out skin.png
refused "validate --junit the buffer" m.bin "$vk" validate m.gltf --instances 2 --junit m.bin
refused "render --out the buffer" m.bin "$vk" render m.gltf --out m.bin
refused "bench --end-to-end the buffer" m.bin "$vk" bench --end-to-end m.bin m.gltf
cp m.bin out.glb
with_uris glbuf.gltf out.glb
refused "convert onto the buffer" out.glb "$vk" convert glbuf.gltf out.glb
refused "deform --clip: the clip's buffer" m.bin \
  "$vk" deform "$src/datasets/char_b24_pl8.dff" --clip m.gltf --cpu --out m.bin
cp m.bin j.raw
with_uris jm.gltf j.raw
cat > bake.json <<JSON
{"out": ".", "jobs": [{"name": "j", "model": "jm.gltf", "clips": ["$src/datasets/char_b24_pl8.dff.walk.anm"],
  "range": [0, 0.2], "outputs": ["raw"]}]}
JSON
sum=$(cksum < j.raw)
"$vk" bake bake.json --cpu > /dev/null 2> err
rc=$?
[ $rc -eq 2 ] && grep -q 'refusing to overwrite' err || say "bake: the raw output is the model's buffer: exit $rc ($(head -c 300 err))"
[ "$(cksum < j.raw)" = "$sum" ] || say "bake: the model's buffer lost its bytes"

# 2. URIs that leave the model's folder
mkdir -p inside/sub outside
cp m.bin outside/o.bin
cp m.bin inside/m.bin
cp m.gltf inside/
(cd inside && with_uris up.gltf ../outside/o.bin && with_uris down_up.gltf sub/../../outside/o.bin &&
 with_uris abs.gltf "%2F${tmp#/}%2Foutside%2Fo.bin" && with_uris fine.gltf sub/../m.bin && cp ../skin.png . &&
 ln -s ../outside/o.bin link.bin && with_uris link.gltf link.bin)
for f in up down_up abs link; do
  (cd inside && "$vk" inspect $f.gltf > ../out 2> ../err); rc=$?
  [ $rc -eq 1 ] || say "$f.gltf: exit $rc, expected 1"
  grep -q 'buffers\[0\]' err || say "$f.gltf: the message does not name the buffer: $(head -c 300 err)"
  grep -qE "leaves the model's folder|not a relative file name|leads out of the model's folder" err ||
    say "$f.gltf: no reason given: $(head -c 300 err)"
  [ -s out ] && say "$f.gltf: something was printed of the model"
done
(cd inside && "$vk" inspect fine.gltf > /dev/null 2> ../err) || say "a URI that stays inside was refused: $(cat err)"
(cd inside && "$vk" inspect up.gltf --uri-root ../outside > /dev/null 2> ../err) ||
  say "--uri-root does not allow its folder: $(cat err)"
(cd inside && "$vk" inspect link.gltf --uri-root "$tmp/outside" > /dev/null 2> ../err) ||
  say "--uri-root does not allow a link into its folder: $(cat err)"
(cd inside && "$vk" convert abs.gltf ../stolen.glb > /dev/null 2>&1) && say "convert read a file outside the folder"
[ -e stolen.glb ] && say "convert wrote an output from a file outside the folder"

# 3. one read per distinct file, one budget per model
# big.bin and big2.bin: the model's buffer followed by 30 MB; every bufferView on one of the
# buffers in turn, so that each buffer is read
{ cat m.bin; head -c $((30 << 20)) /dev/zero; } > big.bin
cp big.bin big2.bin
python3 - <<'EOF'
import json
doc = json.load(open("m.gltf"))
doc["buffers"] = [dict(doc["buffers"][0], uri="big.bin") for _ in range(20)]
for i, v in enumerate(doc["bufferViews"]):
    v["buffer"] = i % 20
json.dump(doc, open("twenty.gltf", "w"))
doc["buffers"][1]["uri"] = "big2.bin"
json.dump(doc, open("two.gltf", "w"))
EOF
peak() { # peak MB of a command, its exit code beside it
  python3 - "$@" <<'EOF'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=open("err", "w"))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
EOF
}
read -r rc mb < <(peak "$vk" inspect --max-input-mb 40 twenty.gltf)
[ "$rc" -eq 0 ] || say "twenty buffers naming one 30 MB file under 40 MB: exit $rc ($(head -c 300 err))"
[ "$mb" -lt 120 ] || say "twenty buffers naming one 30 MB file peaked at $mb MB"
read -r rc mb < <(peak "$vk" inspect --max-input-mb 40 two.gltf)
[ "$rc" -eq 1 ] && grep -q 'together pass the input limit of 40 MB' err ||
  say "two 30 MB files under 40 MB: exit $rc, expected a refusal naming the limit ($(head -c 300 err))"
read -r rc mb < <(peak "$vk" inspect twenty.gltf --max-input-mb 10)
[ "$rc" -eq 1 ] && grep -q 'input limit of 10 MB' err ||
  say "inspect --max-input-mb 10 read a 30 MB external buffer: exit $rc ($(head -c 300 err))"
read -r rc mb < <(peak "$vk" inspect --max-input-mb 64 /dev/zero)
[ "$rc" -eq 1 ] || say "an endless stream: exit $rc"
# the limit and one block, and room for the program; AddressSanitizer's own bookkeeping adds
# about half the heap again (the old growth peaked at 130 MB plain)
bound=90; [ -n "${ASAN_OPTIONS:-}" ] && bound=115
[ "$mb" -lt "$bound" ] || say "refusing an endless stream under 64 MB peaked at $mb MB (bound $bound)"

[ $fail -eq 0 ] && echo "cli_gltf_external: ok"
exit $fail
