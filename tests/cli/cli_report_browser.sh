#!/usr/bin/env bash
# The page of vkskin validate --report in a real browser (issue 16): headless Chromium opens
# index.html from disk (no network), the three.js viewer must run and draw a canvas that is not
# one colour (it reads its pixels back and says so in #viewer-status), no console message may
# appear (an error, a failed load, a three.js warning), and the screenshot must show a page.
# The same page without three.js must still open cleanly and say it has no 3D view.
# Skipped (77) without a Vulkan device, without Chromium, or when the build could not fetch
# three.js from npm (the page is then checked without its viewer first).
set -u
vk=$1 check_png=$2
src=${VKSKIN_SOURCE_DIR:?}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cp "$src/datasets/char_b24_pl8.dff" a.dff
no() { echo "FAIL: $*"; fail=1; }
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not installed: skipped"; exit 77; }
"$vk" validate a.dff --instances 1 > /dev/null 2>&1
[ $? -eq 4 ] && { echo "no Vulkan device: skipped"; exit 77; }

# open PAGE OUT.dom [--screenshot=...]: the DOM after the page's scripts ran; console
# messages on OUT.dom.log
open_page() {
  local page=$1 dom=$2; shift 2
  [ $# -gt 0 ] || set -- --dump-dom
  timeout 90 "$browser" --headless=new --no-sandbox --no-first-run --user-data-dir="$tmp/profile" \
    --use-angle=swiftshader --enable-unsafe-swiftshader --enable-logging=stderr --v=0 \
    --virtual-time-budget=8000 --window-size=1200,1400 "$@" "file://$tmp/$page" > "$dom" 2> "$dom.log"
  local rc=$?
  [ $rc -eq 0 ] || no "chromium exit $rc on $page: $(grep -v dbus "$dom.log" | tail -3)"
  if grep -q "CONSOLE" "$dom.log"; then no "console messages on $page: $(grep CONSOLE "$dom.log" | head -5)"; fi
}

# ---- without three.js: the page still opens, says why it has no view, runs no viewer
VKSKIN_THREE_JS= "$vk" validate a.dff --instances 2 --inject-fault matrix --report plain > out 2> err
[ $? -eq 3 ] || no "validate --inject-fault with --report: expected exit 3"
grep -q "No 3D view" plain/index.html || no "the page without three.js does not say it has no 3D view"
[ ! -e plain/three.min.js ] || no "three.min.js copied although none was given"
if grep -Eq "(src|href)=\"(https?:)?//" plain/index.html; then no "the page loads something from the network"; fi
open_page plain/index.html plain.dom
grep -q 'id="viewer-status">no 3D view in this report' plain.dom || no "the plain page's status: $(grep -o 'viewer-status[^<]*' plain.dom)"

# ---- with three.js, as the build fetched it
"$vk" validate a.dff --instances 2 --inject-fault matrix --report rep > out 2> err
[ $? -eq 3 ] || no "validate --inject-fault with --report: expected exit 3"
if [ ! -s rep/three.min.js ]; then
  grep -q "No 3D view" rep/index.html || no "no three.js and the page does not say so"
  [ $fail -eq 0 ] || exit 1
  echo "three.js was not fetched by the build (npm): the viewer is skipped"
  exit 77
fi
if grep -Eq "(src|href)=\"(https?:)?//" rep/index.html; then no "the page loads something from the network"; fi
open_page rep/index.html rep.dom
status=$(grep -o '<p id="viewer-status"[^>]*>[^<]*' rep.dom)
echo "$status" | grep -q 'data-drawn="1" data-uniform="0"' || no "the viewer did not draw its canvas: '$status'"
open_page rep/index.html shot.dom --screenshot="$tmp/shot.png"
"$check_png" shot.png 1200 1400 > /dev/null || no "the screenshot is not a 1200x1400 picture of a page"
[ $fail -eq 0 ] && echo "cli_report_browser: viewer drawn, no console message, screenshot taken"
exit $fail
