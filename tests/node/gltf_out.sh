#!/usr/bin/env bash
# glTF out (issue 14): every generated character of every format converted with its clips,
# every real sample that converts, and deform's glTF bakes, checked by the Khronos validator
# (zero errors, zero warnings) and by three.js in Node against vkskin's CPU reference of the
# source file (threejs_check.mjs).
#   gltf_out.sh VKSKIN
# Exit 77 where node/npm are missing or npm cannot install the helpers (said on stderr).
set -uo pipefail
vkskin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
real=${VKSKIN_REAL_DATASETS:-$here/../../../shared/datasets}
cache=$("$here/install.sh") || exit $?
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*.mjs "$work"/ && ln -s "$cache/node_modules" "$work/node_modules"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. generated characters: each model with all its clip files (.glb and .gltf), and each clip
#    file on its own for the three.js check (animation a = clip a of that file)
"$vkskin" generate --datasets "$work/gen" >/dev/null 2>&1 || fail "generate --datasets"
: >"$work/jobs.txt"
files=()
for m in "$work"/gen/char_*.{dff,nif,cmdl,p3d}; do
  clips=()
  for c in "$m".*; do
    clips+=(--clip "$c")
    o="$work/$(basename "$c").glb"
    "$vkskin" convert "$m" "$o" --clip "$c" 2>"$work/err" || { cat "$work/err"; fail "convert $m --clip $c"; }
    printf '%s\t%s\t%s\n' "$o" "$m" "$c" >>"$work/jobs.txt"
  done
  for ext in glb gltf; do
    o="$work/$(basename "$m").$ext"
    "$vkskin" convert "$m" "$o" "${clips[@]}" 2>"$work/err" || { cat "$work/err"; fail "convert $m"; }
    files+=("$o")
  done
done
[ ${#files[@]} -eq 32 ] || fail "expected 16 characters in two containers, got ${#files[@]} files"

# 2. real samples that convert (a sample vkskin cannot read is not this test's business)
converted=0
if [ -d "$real" ]; then
  for m in "$real"/renderware/*.dff "$real"/nif/*.nif "$real"/p3d/*.p3d "$real"/p3d/odol/*.p3d; do
    [ -f "$m" ] || continue
    o="$work/real_$(basename "$m").glb"
    # a .nif with keyframes of its own (dance.nif) is converted with them and played in three.js
    if [ "${m##*.}" = nif ] && "$vkskin" convert "$m" "$o" --clip "$m" 2>/dev/null; then
      files+=("$o"); converted=$((converted + 1))
      printf '%s\t%s\t%s\n' "$o" "$m" "$m" >>"$work/jobs.txt"
    elif "$vkskin" convert "$m" "$o" 2>"$work/err"; then
      files+=("$o"); converted=$((converted + 1))
    else
      echo "note: $(basename "$m") does not convert: $(head -c 300 "$work/err")"
    fi
  done
  echo "real samples converted: $converted"
  # a texture glTF core cannot hold (the pyffi biped's body.dds) stays named in its material's
  # extras, with a warning naming it (issue 26)
  nif=$real/nif/pyffi_10.1.0.0_test_skincenterradius.nif
  if [ -f "$nif" ]; then
    "$vkskin" convert "$nif" "$work/dds.glb" 2>"$work/dds.err" || fail "convert $nif"
    grep -q 'warning: .*texture "body.dds".*extras.vkskin.base_texture' "$work/dds.err" ||
      { cat "$work/dds.err"; fail "no warning naming body.dds"; }
    (cd "$work" && node --input-type=module -e "
      import { readFileSync } from 'node:fs';
      const b = readFileSync('dds.glb'), j = JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString());
      const m = j.materials[j.meshes[0].primitives[0].material];
      if (m.extras.vkskin.base_texture !== 'body.dds' || j.images || !('TEXCOORD_0' in j.meshes[0].primitives[0].attributes))
        { console.error(JSON.stringify(m)); process.exit(1); }") || fail "body.dds not kept in extras"
    files+=("$work/dds.glb")
  fi
else
  echo "note: no real datasets at $real; generated characters only"
fi

# 3. the Khronos samples (read by vkskin's glTF reader): each as it is against vkskin's reading,
#    and converted back to glTF with its own animations
samples=0
for m in "$real"/gltf/*/*.gltf "$real"/gltf/*/*.glb; do
  [ -f "$m" ] || continue
  printf 'SAMPLE\t%s\n' "$m" >>"$work/jobs.txt"
  o="$work/sample_$(basename "$m").glb"
  "$vkskin" convert "$m" "$o" --clip "$m" 2>"$work/err" || { cat "$work/err"; fail "convert $m"; }
  printf '%s\t%s\t%s\n' "$o" "$m" "$m" >>"$work/jobs.txt"
  files+=("$o"); samples=$((samples + 1))
done
echo "Khronos samples: $samples"
# a character with props parented to bones, authored with Blender (tests/data/blender): as it
# is, and converted with its clip (the props as mesh nodes under their bones' nodes)
m=$here/../data/blender/prop_char.glb
printf 'SAMPLE\t%s\n' "$m" >>"$work/jobs.txt"
"$vkskin" convert "$m" "$work/prop_char.glb" --clip "$m" 2>"$work/err" || { cat "$work/err"; fail "convert $m"; }
printf '%s\t%s\t%s\n' "$work/prop_char.glb" "$m" "$m" >>"$work/jobs.txt"
files+=("$work/prop_char.glb")
# Fox keeps what it is painted with (issue 26): its UV set, its material's base-colour texture
# and its PNG, embedded (the validator below checks the references and the image's bytes)
if [ -f "$work/sample_Fox.glb.glb" ]; then
  (cd "$work" && node --input-type=module -e "
    import { readFileSync } from 'node:fs';
    const b = readFileSync('sample_Fox.glb.glb'), j = JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString());
    const p = j.meshes[0].primitives[0], m = j.materials[p.material], t = j.textures[m.pbrMetallicRoughness.baseColorTexture.index];
    const img = j.images[t.source], v = j.bufferViews[img.bufferView];
    if (!('TEXCOORD_0' in p.attributes) || j.accessors[p.attributes.TEXCOORD_0].count !== 1728 || m.name !== 'fox_material' ||
        img.mimeType !== 'image/png' || v.byteLength !== 26764 || j.samplers[t.sampler].magFilter !== 9729)
      { console.error('Fox lost its surface:', JSON.stringify({ p, m, t, img, v })); process.exit(1); }
    console.log('Fox: TEXCOORD_0, material fox_material, PNG of 26764 bytes kept');") || fail "Fox.glb converted without its UVs, material or image"
fi

# 4. deform's glTF bakes: one frame (a plain mesh) and several (morph targets, STEP weights)
m="$work/gen/char_b24_pl8.dff"
"$vkskin" deform "$m" --cpu --clip "$m.walk.anm" --out "$work/bake1.glb" 2>/dev/null || fail "deform --format glb, 1 frame"
"$vkskin" deform "$m" --cpu --clip "$m.walk.anm" --frames 6 --fps 10 --out "$work/bake6.glb" 2>/dev/null ||
  fail "deform --format glb, 6 frames"
"$vkskin" deform "$work/gen/char_b24_pl8.p3d" --cpu --procedural --frames 3 --format gltf --out "$work/bake3.gltf" \
  2>/dev/null || fail "deform --format gltf"
"$vkskin" deform "$m" --cpu --clip "$m.walk.anm" --frames 6 --fps 10 --format raw --out "$work/bake6.raw" 2>/dev/null ||
  fail "deform --format raw"
printf 'BAKE\t%s\t%s\t10\n' "$work/bake6.glb" "$work/bake6.raw" >>"$work/jobs.txt"
files+=("$work/bake1.glb" "$work/bake6.glb" "$work/bake3.gltf")
# a VAT rest mesh with the character's UVs (TEXCOORD_0), the lookup (TEXCOORD_1) and its material
fox=$real/gltf/Fox/Fox.glb
if [ -f "$fox" ]; then
  printf '{"jobs": [{"name": "fox", "model": "%s", "clips": ["%s"], "fps": 5, "range": [0, 0.2], "outputs": ["vat-png16"]}]}\n' \
    "$fox" "$fox" >"$work/fox_bake.json"
  "$vkskin" bake "$work/fox_bake.json" --cpu --out "$work/fox_bake" >/dev/null 2>&1 || fail "bake Fox.glb"
  files+=("$work/fox_bake/fox.vat.glb")
fi

# 5..8 influences a vertex (issue 38): convert writes JOINTS_1/WEIGHTS_1, and the bone atlas's
# mesh keeps 4; the validator only (three.js skins with JOINTS_0 alone: cli_eight_influences.sh
# checks the deformation against its own evaluation of the specification)
python3 "$here/../cli/eight_influences.py" make "$work/tube8.gltf" || fail "eight_influences.py make"
python3 "$here/../cli/eight_influences.py" pose "$work/tube8_pose.json" --frames 4 || fail "eight_influences.py pose"
"$vkskin" convert "$work/tube8.gltf" "$work/tube8.glb" 2>/dev/null || fail "convert the 8-influence tube"
printf '{"jobs": [{"name": "tube8", "model": "%s", "clips": ["%s"], "outputs": ["atlas"]}]}\n' \
  "$work/tube8.gltf" "$work/tube8_pose.json" >"$work/tube8_bake.json"
files+=("$work/tube8.glb")
if "$vkskin" bake "$work/tube8_bake.json" --cpu --out "$work/tube8_bake" >/dev/null 2>&1; then
  files+=("$work/tube8_bake/tube8.atlas.glb")
else
  echo "note: the 8-influence tube's bone atlas was not baked (no OpenEXR?)"
fi
(cd "$work" && node validate.mjs "${files[@]}") || fail "gltf-validator reported errors or warnings"
# the GPU deformer too where there is a Vulkan device (not in a -DVKSKIN_GPU=OFF build)
if "$vkskin" devices >/dev/null 2>&1; then export VKS_GPU=1; else echo "note: no Vulkan device: CPU reference only"; fi
(cd "$work" && node threejs_check.mjs "$vkskin" jobs.txt) || fail "three.js disagrees with vkskin"
export VKS_GPU=0
# the check can fail: a walk converted, compared with the model playing its wave
m="$work/gen/char_b24_pl8.nif"
printf '%s\t%s\t%s\n' "$work/char_b24_pl8.nif.walk.kf.glb" "$m" "$m.wave.kf" >"$work/wrong.txt"
if (cd "$work" && node threejs_check.mjs "$vkskin" wrong.txt >"$work/wrong.log" 2>&1); then
  cat "$work/wrong.log"; fail "three.js check passed a walk against a wave"
fi
echo "ok: ${#files[@]} files valid; three.js agrees on $(grep -c . "$work/jobs.txt") files (converted clip files, samples, a bake)"
