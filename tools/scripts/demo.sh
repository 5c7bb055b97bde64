#!/usr/bin/env bash
# The README's main command: sets up, builds, and runs vkskin on the bundled datasets with the
# default procedural animation, printing what it did.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/tools/scripts/setup.sh"
"$root/tools/scripts/build.sh" build
cd "$root"
vk=build/vkskin
out=build/demo
mkdir -p "$out"
shopt -s nullglob
files=(datasets/*.dff datasets/*.nif datasets/*.cmdl datasets/*.p3d)
if [ ${#files[@]} -eq 0 ]; then
  echo "demo: no bundled datasets found in datasets/" >&2
  exit 1
fi
echo "== vkskin inspect: the bundled characters =="
for f in "${files[@]}"; do
  "$vk" inspect "$f" | sed -n '1,2p;/bind-pose check/p'
done
echo
echo "== vkskin deform --cpu: 4 instances x 8 frames of procedural animation each, as PC2 point caches =="
"$vk" deform "${files[@]}" --cpu --procedural --instances 4 --frames 8 --seed 7 --format pc2 --out "$out"
ls -l "$out"
echo
echo "== vkskin validate: one GPU (or lavapipe) batch of every character, 64 posed instances each,"
echo "   against the CPU reference, with the Khronos validation layer on =="
if "$vk" validate "${files[@]}" --instances 64 --frames 1 --seed 7 --validation; then
  echo "demo: validation passed"
else
  rc=$?
  if [ $rc -eq 4 ]; then
    echo "demo: no Vulkan device on this machine; GPU validation skipped"
  else
    echo "demo: validation failed (exit $rc)"
    exit $rc
  fi
fi
