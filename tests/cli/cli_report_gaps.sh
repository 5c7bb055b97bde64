#!/usr/bin/env bash
# No silent gaps in validate's reports (issue 22): a part that cannot be produced on a device
# says why, in the page, the JSON and on stderr, and the verdict stays the numbers'.
#   - heat maps on a device whose queue family cannot draw (simulated on lavapipe with
#     VKSKIN_TEST_NO_GRAPHICS_QUEUE, as the H100's compute-only family was): exit 0 still,
#     "no heat map: ... has no queue family with graphics" on stderr, in index.html and in the
#     JSON, and no heat map file;
#   - the same run without the simulation draws every heat map (the renderer does run there).
set -u
vk=$1 check_png=$2
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
no() { echo "FAIL: $*"; fail=1; }
a="$src/datasets/char_b24_pl8.dff"

"$vk" validate "$a" --instances 1 > /dev/null 2>&1; rc=$?
if [ $rc -eq 4 ]; then echo "no Vulkan device: skipped"; exit 77; fi

# ---- heat maps where the renderer cannot run
VKSKIN_TEST_NO_GRAPHICS_QUEUE=1 "$vk" validate "$a" --instances 2 --report rep_nogfx --json --validation > out 2> err
rc=$?
[ $rc -eq 0 ] || no "no graphics: exit $rc, expected 0 (the numbers pass): $(head -c 400 err)"
grep -q 'no heat map: render: ".*" has no queue family with graphics' err || no "no graphics: stderr does not say why: $(cat err)"
grep -q '<p class="note heatmap-missing">No heat map: render: .* has no queue family with graphics' rep_nogfx/index.html ||
  no "no graphics: the page does not say why there is no heat map"
[ ! -e rep_nogfx/heatmap_d0_f0.png ] || no "no graphics: a heat map file was written"
python3 - <<'PY' || no "no graphics: the JSON does not say why there is no heat map"
import json
h = json.load(open("out"))["files"][0]["heatmap"]
assert h["file"] is None and "has no queue family with graphics" in h["missing"], h
PY

# ---- the same run where the renderer runs: the heat map, and nothing missing
"$vk" validate "$a" --instances 2 --report rep_gfx --json --validation > out 2> err || no "with graphics: exit $?"
"$check_png" rep_gfx/heatmap_d0_f0.png 480 360 > /dev/null || no "with graphics: no drawn heat map"
! grep -q 'heatmap-missing' rep_gfx/index.html || no "with graphics: the page says a heat map is missing"
! grep -q 'no heat map' err || no "with graphics: stderr says a heat map is missing"

[ $fail -eq 0 ] && echo "report gaps: ok"
exit $fail
