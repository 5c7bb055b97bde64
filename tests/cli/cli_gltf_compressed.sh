#!/usr/bin/env bash
# Compressed glTF (issue 38, item 4) against its uncompressed original: the files are made
# here, at test time, by the ecosystem's own encoders (Debian's gltfpack for
# EXT_meshopt_compression, with and without KHR_mesh_quantization; draco_transcoder for
# KHR_draco_mesh_compression, quantised and lossless) from a character vkskin generates and
# converts, and from the Khronos samples where the real datasets are present. Each copy is
# deformed on --cpu, --cpu-fast and --gpu with the original's own clip and at the bind pose,
# and compare_matched_raw holds it against the original on the same engine (the encoders
# reorder and merge vertices, so copy vertices are matched to the original's at the bind
# pose). The bounds are the encodings' quantisation steps, relative to the bounding radius:
#   lossless Draco (-qp 0 ...)     1e-6: float noise only (the arithmetic is the same)
#   gltfpack -c -noq               positions exact, weights 8-bit (gltfpack always quantises
#                                  weights): 1e-6 at bind, 2^-8 posed
#   gltfpack -cc (14-bit positions, meshopt's filters: OCTAHEDRAL normals, QUATERNION and
#                                  EXPONENTIAL animation keys, played by the copy too):
#                                  sqrt(3) x 2^-14 at bind (half a step per axis, the box at
#                                  most twice the radius), + 2^-8 posed for the weights
#   draco_transcoder (11-bit)      sqrt(3) x 2^-11 at bind, + 2^-8 posed
# Normals (unit vectors, an absolute bound): 1e-5 lossless (the engines' renormalisation);
# 0.03 where either encoder stores them in 8 bits (about 2 x sqrt(3) x 2^-7: half a step per
# component, stretched up to twice by the octahedral mapping) or the weights are 8-bit.
# Also: validate passes on the quantised copies (the bind check names gltfpack's scaled
# placement), decoded sizes past --max-input-mb are refused naming the bufferView or the
# primitive, and truncated compressed data and a Draco header that contradicts its accessors
# are refused naming them too.
# Usage: cli_gltf_compressed.sh VKSKIN COMPARE_MATCHED_RAW DATASETS
set -u
vk=$1
cmp=$2
data=$3/gltf
for tool in gltfpack draco_transcoder python3; do
  command -v $tool > /dev/null || { echo "$tool not installed (tools/scripts/setup.sh): skipped"; exit 77; }
done
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

expect() {
  local want=$1 what=$2; shift 2
  "$@" > out 2> err; local rc=$?
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $what: exit $rc, expected $want ($(head -c 600 err))"; fail=1
  elif [ "$want" -ne 0 ] && [ ! -s err ]; then
    echo "FAIL: $what: exit $rc with no message"; fail=1
  fi
}
has() { grep -q -- "$3" "$2" || { echo "FAIL: $1: $2 lacks '$3': $(head -c 600 "$2")"; fail=1; }; }

engines="--cpu --cpu-fast"
gpu="ASAN_OPTIONS=${ASAN_OPTIONS:-}"
if env "$gpu" "$vk" devices > /dev/null 2>&1; then
  engines="$engines --gpu"
else
  echo "no Vulkan device: --gpu skipped"
fi
echo '{"nodes": []}' > bind.json

# deform ORIGINAL COPY BIND_BOUND POSED_BOUND NORMAL_BOUND [COPY_CLIP]: both files on every
# engine, the copy playing the original's clip (or COPY_CLIP), compared
same_deformation() {
  local orig=$1 copy=$2 bind_bound=$3 posed_bound=$4 normal_bound=$5 copy_clip=${6:-$1} e
  for e in $engines; do
    local tag="$(basename "$copy") $e${6:+ own clip}"
    expect 0 "$tag bind" env "$gpu" "$vk" deform "$orig" $e --pose bind.json --out ob.raw --format raw --quiet
    expect 0 "$tag bind" env "$gpu" "$vk" deform "$copy" $e --pose bind.json --out cb.raw --format raw --quiet
    expect 0 "$tag clip" env "$gpu" "$vk" deform "$orig" $e --clip "$orig" --instances 2 --stagger --frames 3 --fps 7 \
      --out op.raw --format raw --quiet
    expect 0 "$tag clip" env "$gpu" "$vk" deform "$copy" $e --clip "$copy_clip" --instances 2 --stagger --frames 3 \
      --fps 7 --out cp.raw --format raw --quiet
    # the bind bound judges the bind pose; the posed bound every pose (bind included)
    "$cmp" ob.raw cb.raw ob.raw cb.raw "$bind_bound" "$normal_bound" > cmp_bind.txt ||
      { echo "FAIL: $tag at bind: $(cat cmp_bind.txt)"; fail=1; }
    "$cmp" ob.raw cb.raw op.raw cp.raw "$posed_bound" "$normal_bound" > cmp_posed.txt ||
      { echo "FAIL: $tag posed: $(cat cmp_posed.txt)"; fail=1; }
    echo "$tag: $(head -1 cmp_posed.txt)"
    rm -f ob.raw cb.raw op.raw cp.raw
  done
}

# every encoding of ORIGINAL (a .glb or .gltf) as NAME.*.glb, each checked
all_encodings() {
  local orig=$1 name=$2
  gltfpack -i "$orig" -o "$name.mo.glb" -cc > /dev/null || { echo "FAIL: gltfpack -cc $name"; fail=1; }
  gltfpack -i "$orig" -o "$name.monq.glb" -c -noq > /dev/null || { echo "FAIL: gltfpack -c -noq $name"; fail=1; }
  draco_transcoder -i "$orig" -o "$name.draco.glb" > /dev/null || { echo "FAIL: draco_transcoder $name"; fail=1; }
  draco_transcoder -i "$orig" -o "$name.dracoll.glb" -qp 0 -qn 0 -qt 0 -qw 0 -qg 0 > /dev/null ||
    { echo "FAIL: draco_transcoder lossless $name"; fail=1; }
  has "gltfpack $name" "$name.mo.glb" EXT_meshopt_compression
  has "gltfpack $name" "$name.mo.glb" KHR_mesh_quantization
  has "draco_transcoder $name" "$name.draco.glb" KHR_draco_mesh_compression
  local step8=0.00390625 normal8=0.03 q14 q11
  q14=$(python3 -c "print(3 ** 0.5 * 2 ** -14)")
  q11=$(python3 -c "print(3 ** 0.5 * 2 ** -11)")
  same_deformation "$orig" "$name.dracoll.glb" 1e-6 1e-6 1e-5
  same_deformation "$orig" "$name.monq.glb" 1e-6 $step8 $normal8
  same_deformation "$orig" "$name.mo.glb" "$q14" "$(python3 -c "print($q14 + $step8)")" $normal8
  same_deformation "$orig" "$name.draco.glb" "$q11" "$(python3 -c "print($q11 + $step8)")" $normal8
  # the copy playing its own compressed clip (gltfpack -cc: QUATERNION and EXPONENTIAL filters
  # on the keys, which it also resamples at 30 Hz with 12-bit rotations): a loose bound, 2e-2
  # of the radius, that a misdecoded key (an error of the order of the radius) still fails
  same_deformation "$orig" "$name.mo.glb" "$q14" 2e-2 0.1 "$name.mo.glb"
  for c in mo draco; do
    if [[ $engines == *--gpu* ]]; then
      expect 0 "validate $name.$c" env "$gpu" "$vk" validate "$name.$c.glb" --clip "$orig" --instances 3 --stagger --frames 2
    else
      expect 0 "inspect $name.$c" "$vk" inspect "$name.$c.glb"
    fi
    [ $c = mo ] && has "bind check of $name.mo" err "uniform scale"
  done
}

# ---- a character vkskin makes itself (always) ----
"$vk" generate --format dff --bones 24 --vertices 1500 --influences 4 --palette-limit 8 --seed 1 --out gen.dff > /dev/null ||
  { echo "FAIL: generate"; exit 1; }
expect 0 "convert" "$vk" convert gen.dff gen.glb --clip gen.dff.walk.anm
all_encodings gen.glb gen

# ---- the Khronos samples (where the real datasets are) ----
for f in Fox/Fox.glb CesiumMan/CesiumMan.glb RiggedFigure/RiggedFigure.gltf; do
  if [ -f "$data/$f" ]; then
    all_encodings "$data/$f" "$(basename "${f%.*}")"
  else
    echo "$data/$f not found: skipped"
  fi
done

# ---- decoded sizes bounded by --max-input-mb ----
# 60,000 vertices: the compressed files stay under 1 MiB, the decoded data does not
"$vk" generate --format dff --bones 24 --vertices 60000 --influences 4 --seed 3 --out big.dff > /dev/null &&
  "$vk" convert big.dff big.glb > /dev/null 2>&1 || { echo "FAIL: the large character"; fail=1; }
gltfpack -i big.glb -o big.mo.glb -c > /dev/null
draco_transcoder -i big.glb -o big.draco.glb > /dev/null
for c in mo draco; do
  [ "$(stat -c %s big.$c.glb)" -lt 1048576 ] || { echo "FAIL: big.$c.glb is not under 1 MiB"; fail=1; }
  # (deform, not inspect: inspect shows a glTF whose model fails as a clip file where it can)
  expect 1 "big.$c --max-input-mb 1" "$vk" deform big.$c.glb --max-input-mb 1 --out big.csv
  has "big.$c --max-input-mb 1" err "passes the max input size of 1 MiB"
  [ $c = mo ] && has "meshopt limit names the view" err "bufferViews\[[0-9]*\].extensions.EXT_meshopt_compression"
  [ $c = draco ] && has "Draco limit names the primitive" err "meshes\[0\].primitives\[[0-9]\].extensions.KHR_draco_mesh_compression"
  expect 0 "big.$c --max-input-mb 16" "$vk" inspect big.$c.glb --max-input-mb 16
  # inspect names the compression after the generator
  [ $c = mo ] && has "inspect big.mo" out "(.glb, gltfpack [0-9.]*; .*EXT_meshopt_compression"
  [ $c = draco ] && has "inspect big.draco" out "(.glb, draco_decoder; KHR_draco_mesh_compression)"
done

# ---- broken compressed data: refused, naming the view or the primitive ----
# gltf_edit.py IN OUT KIND: KIND truncate halves each compressed span's byteLength in the
# JSON (the decoders run out of bytes); KIND count gives the first Draco primitive's indices
# accessor 3 more (the Draco header's triangle count no longer matches it)
cat > gltf_edit.py <<'EOF'
import json, struct, sys
src, dst, kind = sys.argv[1:4]
b = open(src, 'rb').read()
n = struct.unpack('<I', b[12:16])[0]
j = json.loads(b[20:20 + n])
for v in j['bufferViews']:
    if kind == 'truncate' and 'EXT_meshopt_compression' in v.get('extensions', {}):
        v['extensions']['EXT_meshopt_compression']['byteLength'] //= 2
for m in j['meshes']:
    for p in m['primitives']:
        d = p.get('extensions', {}).get('KHR_draco_mesh_compression')
        if d and kind == 'truncate':
            j['bufferViews'][d['bufferView']]['byteLength'] //= 2
if kind == 'count':
    j['accessors'][j['meshes'][0]['primitives'][0]['indices']]['count'] += 3
text = json.dumps(j).encode()
text += b' ' * (-len(text) % 4)
rest = b[20 + n:]
head = struct.pack('<III', 0x46546C67, 2, 12 + 8 + len(text) + len(rest)) + struct.pack('<II', len(text), 0x4E4F534A)
open(dst, 'wb').write(head + text + rest)
EOF
python3 gltf_edit.py gen.mo.glb gen.mo.bad.glb truncate
python3 gltf_edit.py gen.draco.glb gen.draco.bad.glb truncate
python3 gltf_edit.py gen.draco.glb gen.draco.count.glb count
expect 1 "truncated meshopt" "$vk" deform gen.mo.bad.glb --out bad.csv
has "truncated meshopt" err "gen.mo.bad.glb:0x[0-9a-f]*: bufferViews\\[[0-9]*\\].extensions.EXT_meshopt_compression: malformed compressed data"
expect 1 "truncated Draco" "$vk" deform gen.draco.bad.glb --out bad.csv
has "truncated Draco" err "gen.draco.bad.glb:0x[0-9a-f]*: meshes\\[0\\].primitives\\[0\\].extensions.KHR_draco_mesh_compression: bufferViews\\[[0-9]*\\] ([0-9]* bytes): malformed Draco data"

expect 1 "Draco count mismatch" "$vk" deform gen.draco.count.glb --out bad.csv
has "Draco count mismatch" err "meshes\\[0\\].primitives\\[0\\].extensions.KHR_draco_mesh_compression: the Draco data claims [0-9]* triangles, but indices accessor"

[ $fail -eq 0 ] && echo "cli_gltf_compressed: all checks passed"
exit $fail
