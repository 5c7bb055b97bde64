#!/usr/bin/env bash
# The Godot 3 playback kit (engines/godot3, docs/baking.md "Play a bake in your engine") in Debian's
# godot3 under Xvfb: a baked frame drawn by the kit's scene (its shaders decoding the textures)
# matches vkskin's own render of the same frame of the same clip by silhouette. Both pictures
# use vkskin render's camera (the kit's scene fits it to the bind pose as src/render/camera.c
# does), 256 x 256; a pixel is the model's where it differs from the picture's background, and
# the intersection over union of the two masks must be at least 0.97. Measured: 0.993 to 0.9999
# (the renderers rasterise edges by their own rules, and Godot 3 loads EXRs at half precision);
# other frames of the walk score 0.47 to 0.85, and the test checks that a wrong frame (frame 0
# against frame 7) falls under the threshold. Kinds: the float EXR (clip 0, walk), the 16-bit PNG
# with its bounds (clip 1, wave, from the same texture as the walk; frames wrapped over 4 rows
# of a power-of-two texture) with the lookup in the rest mesh's second UV set (as Houdini and
# AnimToTexture lay it out; the float one reads today's single set), and the bone atlas.
# Crowds: the float VAT and the atlas as a MultiMesh of 64 instances, each playing its own clip,
# phase and speed from its custom data (vkskin_crowd.gd); the sampled one, whose clip reaches the
# frame at crowd time 1.5 s from its own offset and speed, stands where the camera looks and
# must match vkskin render of that clip and frame (the material's own uniforms hold another
# frame, so a shader that ignored the instance's data would not). Where the real datasets are,
# Fox.glb, which has no normals, baked as an atlas plays (it crashed the player before), and
# stands on its feet there and in vkskin render (both took the long axis for up before); the
# bundled P3D (left-handed) is drawn as vkskin render draws it.
# Skipped (77) without godot3, xvfb-run, OpenEXR or a Vulkan device for vkskin render.
set -u
vk=$1
src=${VKSKIN_SOURCE_DIR:?}
d=$src/datasets
fail=0
no() { echo "FAIL: $*"; fail=1; }
godot=$(command -v godot3 || true)
[ -n "$godot" ] || { echo "godot3 not installed: skipped"; exit 77; }
command -v xvfb-run > /dev/null || { echo "xvfb-run not installed (xvfb): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
model=$d/char_b24_pl8.cmdl walk=$d/char_b24_pl8.cmdl.walk.cskla wave=$d/char_b24_pl8.cmdl.wave.cskla

cat > bake.json <<JSON
{"jobs": [{"name": "hero", "model": "$model", "clips": ["$walk", "$wave"], "range": [0, 0.5],
           "outputs": ["vat-exr-float", "atlas"]},
          {"name": "wide", "model": "$model", "clips": ["$walk", "$wave"], "range": [0, 0.5],
           "max_width": 256, "pow2": true, "outputs": ["vat-png16"]}]}
JSON
"$vk" bake bake.json --cpu --out bake --quiet > bake.log 2>&1
rc=$?
if grep -q "without OpenEXR" bake.log; then echo "vkskin built without OpenEXR: skipped"; exit 77; fi
[ $rc -eq 0 ] || { cat bake.log; no "vkskin bake exit $rc"; exit 1; }
# the second job wraps each frame over 4 rows of 256 (padded to powers of two), and its rest
# mesh is laid out as it is once the character's UVs are kept: the lookup in the second set
python3 "$src/tests/engines/two_uv_sets.py" bake/wide.vat.glb two.glb && mv two.glb bake/wide.vat.glb ||
  no "two_uv_sets.py"

# vkskin render shows the last of --frames F frames at --fps: frame k is --frames k+1
ref() { # CLIP FRAME OUT
  "$vk" render "$model" --clip "$1" --frames $(($2 + 1)) --fps 30 --size 256x256 --out "$3" --quiet > "$3.log" 2>&1
}
ref "$walk" 7 walk7.png; rc=$?
[ $rc -eq 4 ] && { echo "no Vulkan device for vkskin render: skipped"; exit 77; }
[ $rc -eq 0 ] || no "vkskin render exit $rc: $(cat walk7.png.log)"
ref "$walk" 0 walk0.png || no "vkskin render walk frame 0"
ref "$wave" 8 wave8.png || no "vkskin render wave frame 8"

# the kit is a Godot project: run a copy (Godot writes beside its project and in HOME)
cp -r "$src/engines/godot3" project
mkdir home
godot_shot() { # SIDECAR CLIP FRAME OUT [PLAYER ARGUMENTS]
  HOME="$tmp/home" XDG_DATA_HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home" \
    timeout 60 xvfb-run -a -s "-screen 0 640x480x24" "$godot" --path "$tmp/project" -- \
    --bake="$tmp/$1" --clip="$2" --frame="$3" --out="$tmp/$4" ${5:-} > "$4.log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] && [ -s "$4" ] || no "godot3 on $1 clip $2 frame $3: exit $rc: $(grep -E 'ERROR|error' "$4.log" | grep -v -E 'ALSA|audio|locale|make_dir|init_device' | head -3)"
  if grep -q "SHADER ERROR" "$4.log"; then no "a shader of the kit does not compile: $(grep -A1 'SHADER ERROR' "$4.log" | head -4)"; fi
}
iou() { python3 "$src/tests/engines/silhouette_iou.py" "$1" "$2"; }
at_least() { python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)" "$1" "$2"; }

godot_shot bake/hero.vat-exr-float.json 0 7 g_float.png
godot_shot bake/wide.vat-png16.json 1 8 g_png16.png
godot_shot bake/hero.atlas.json 0 7 g_atlas.png
godot_shot bake/hero.vat-exr-float.json 0 7 g_crowd_vat.png "--crowd=64 --instance=37"
godot_shot bake/hero.atlas.json 1 8 g_crowd_atlas.png "--crowd=64 --instance=11"
for pair in g_float.png:walk7.png g_png16.png:wave8.png g_atlas.png:walk7.png g_crowd_vat.png:walk7.png \
            g_crowd_atlas.png:wave8.png; do
  g=${pair%%:*} r=${pair#*:}
  [ -s "$g" ] && [ -s "$r" ] || continue
  s=$(iou "$g" "$r") || { no "silhouette_iou.py $g $r"; continue; }
  echo "$g against vkskin render $r: IoU $s"
  at_least "$s" 0.97 || no "$g does not match vkskin's render of the same frame: IoU $s < 0.97"
done
# the check can fail: the frame Godot drew is not vkskin's frame 0
if [ -s g_float.png ] && [ -s walk0.png ]; then
  s=$(iou g_float.png walk0.png)
  echo "g_float.png (frame 7) against vkskin render of frame 0: IoU $s"
  at_least "$s" 0.97 && no "a wrong frame passes: IoU $s"
fi
# a left-handed file (the same character as P3D writes it): drawn as its right-handed twin, as
# vkskin render draws it (the sidecar's handedness)
p3d=$d/char_b24_pl8.p3d
printf '{"jobs": [{"name": "left", "model": "%s", "clips": ["%s.walk.rtm"], "range": [0, 0.5], "outputs": ["vat-exr-float"]}]}' \
  "$p3d" "$p3d" > left.json
"$vk" bake left.json --cpu --out bake --quiet > left.log 2>&1 || no "vkskin bake of the P3D: $(tail -3 left.log)"
"$vk" render "$p3d" --clip "$p3d.walk.rtm" --frames 8 --fps 30 --size 256x256 --out left7.png --quiet > left7.log 2>&1 ||
  no "vkskin render of the P3D: $(tail -3 left7.log)"
godot_shot bake/left.vat-exr-float.json 0 7 g_left.png
if [ -s g_left.png ] && [ -s left7.png ]; then
  s=$(iou g_left.png left7.png) || no "silhouette_iou.py on the P3D"
  echo "g_left.png (P3D, left-handed) against vkskin render left7.png: IoU $s"
  at_least "$s" 0.97 || no "the left-handed P3D is not drawn as vkskin render draws it: IoU $s < 0.97"
fi

# a source without normals (Fox.glb) baked as an atlas: the player draws it, shaded by its faces
fox=${2:-}/gltf/Fox/Fox.glb
if [ -s "$fox" ]; then
  printf '{"jobs": [{"name": "fox", "model": "%s", "clips": ["%s#Walk"], "outputs": ["atlas"]}]}' "$fox" "$fox" > fox.json
  "$vk" bake fox.json --cpu --out bake --quiet > fox.log 2>&1 || no "vkskin bake of Fox.glb: $(tail -3 fox.log)"
  godot_shot bake/fox.atlas.json 0 3 g_fox_atlas.png
  "$vk" render "$fox" --clip "$fox#Walk" --frames 4 --fps 30 --size 256x256 --out fox3.png --quiet > fox3.log 2>&1 ||
    no "vkskin render of Fox.glb: $(tail -3 fox3.log)"
  if [ -s g_fox_atlas.png ] && [ -s fox3.png ]; then
    s=$(iou g_fox_atlas.png fox3.png) || no "silhouette_iou.py on the Fox"
    echo "g_fox_atlas.png against vkskin render fox3.png: IoU $s"
    at_least "$s" 0.97 || no "the Fox atlas without normals does not match vkskin's render: IoU $s < 0.97"
    # and both stand on the Fox's feet: the camera's up is the sidecar's (and the file's) +y
    for p in fox3.png g_fox_atlas.png; do
      box=$(python3 "$src/tests/engines/silhouette_on_feet.py" $p) || no "$p: the Fox does not stand on its feet ($box)"
    done
  fi
else
  echo "engines_godot: no Fox.glb in the real datasets: the bake without normals not played"
fi
[ $fail -eq 0 ] && echo "engines_godot: Godot 3 draws the baked frames and crowds as vkskin render does"
exit $fail
