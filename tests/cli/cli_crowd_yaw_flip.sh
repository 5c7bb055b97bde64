#!/usr/bin/env bash
# Yaw removal near an upside-down motion node (issue 37): a flip whose root passes within 1e-4
# rad of upside down. The swing-twist yaw is ill-conditioned there (the twist's pair (d.u, d.w)
# is about as small as a float's rounding of the pose), so the rule (clip.h) takes no yaw where
# that pair is shorter than 1/32: the root's up axis within about 3.6 degrees of straight down.
# Checked: validate passes (GPU against the reference) across the flip and in a dense window
# about the inversion, --cpu-fast's and --gpu's vertices are the reference's, the CSV's yaw is 0
# inside the band and the clip's turn outside it, and a layered instance does the same.
# GPU checks run with the validation layer on and are skipped without a device (exit 4).
# Usage: cli_crowd_yaw_flip.sh VKSKIN SOURCE_DIR
set -u
vk=$1
src=$2
. "$src/tests/cli/crowd_engines.sh"
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
c=$src/datasets/char_b24_pl8.cmdl

# the root turns about x through a half turn (pi at t = 1 s, 0.5 rad a second), heading 0.7
# rad about y, tilted 1e-4 rad about z: it passes 1e-4 rad from upside down
cskla_linear flip Character Rotate X 60 2.6415926535897931 3.6415926535897931 Y 0.7 Z 1e-4 > flip.cskla
cat > flip.json <<EOT
{"instances": [{"model": "$c", "clip": "flip.cskla", "root_motion": {"up": "y", "yaw": true}},
 {"model": "$c", "layers": [{"clip": "flip.cskla", "weight": 0.6}, {"clip": "$c.walk.cskla", "weight": 0.4, "mask": "spine_01"},
   {"clip": "$c.wave.cskla", "blend": "additive", "mask": "spine_02"}], "root_motion": {"up": "y", "yaw": true}}]}
EOT

# the flip at 0.01 rad steps (through the band's edges) and at 1e-6 rad steps about the inversion
for window in "--time 0.6 --fps 50 --frames 41" "--time 0.9998 --fps 10000 --frames 5"; do
  "$vk" validate --crowd flip.json $window --validation > out 2> err; rc=$?
  [ $rc -eq 0 ] || [ $rc -eq 4 ] || { echo "FAIL: validate the flip ($window): exit $rc ($(tail -c 800 err))"; fail=1; }
  for e in cpu cpu-fast gpu; do
    extra=""
    [ $e = gpu ] && extra=--validation
    "$vk" deform --crowd flip.json --$e $window --format raw --out flip.$e.raw $extra > out 2> err; rc=$?
    [ $e = gpu ] && [ $rc -eq 4 ] && { echo "skip: deform --gpu: no Vulkan device"; continue; }
    [ $rc -eq 0 ] || { echo "FAIL: deform the flip --$e ($window): exit $rc ($(head -c 600 err))"; fail=1; continue; }
    [ $e = cpu ] || raw_close flip.cpu.raw flip.$e.raw || { echo "FAIL: the flip ($window): --$e is not the reference"; fail=1; }
  done
  # the yaw column: 0 within 2 asin(1/32) = 0.0625 rad of the inversion (time 1 +- 0.125 s),
  # the heading's turn (well away from 0) beyond 0.08 rad
  awk -F, 'NR > 1 { d = $3 - 1; if (d < 0) d = -d
                    if (d < 0.12 && $7 != 0) { print "yaw " $7 " at time " $3 " inside the band"; bad = 1 }
                    if (d > 0.16 && ($7 < 0.1 && $7 > -0.1)) { print "no yaw at time " $3 " outside the band"; bad = 1 } }
           END { exit bad }' flip.cpu.raw.root_motion.csv || { echo "FAIL: the flip's yaw column ($window)"; fail=1; }
done
exit $fail
