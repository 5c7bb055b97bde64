#!/usr/bin/env bash
# Configures and builds vkskin into a build folder: tools/scripts/build.sh [DIR] [cmake args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-build}
shift || true
cmake -S "$root" -B "$root/$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
ninja -C "$root/$dir" >/dev/null
echo "build: $dir ready"
