#!/usr/bin/env bash
# Installs the test-only Node helpers pinned in tests/node/package.json (the Khronos glTF
# validator, three.js and the draco3dgltf decoder) into a git-ignored cache, once: later runs,
# offline ones included, reuse it (a changed package.json installs again). Prints the folder
# that holds node_modules on success.
#   tests/node/install.sh [CACHE]     (default: <repo>/.cache/node)
# Exit 77 (CTest's skip) with the reason on stderr where node or npm is missing or the registry
# cannot be reached and nothing is cached yet.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${1:-$root/.cache/node}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "skipped: node and npm are not installed (tools/scripts/setup.sh installs them)" >&2
  exit 77
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9 # one install at a time when several build folders test at once
if cmp -s "$here/package.json" "$cache/package.json" && [ -f "$cache/node_modules/.vkskin-complete" ]; then
  echo "$cache"
  exit 0
fi
cp "$here/package.json" "$cache/package.json"
rm -rf "$cache/node_modules"
if ! (cd "$cache" && timeout 300 npm install --no-audit --no-fund --no-package-lock --loglevel=error >&2); then
  echo "skipped: npm could not install gltf-validator, three and draco3dgltf (registry unreachable?)" >&2
  rm -rf "$cache/node_modules"
  exit 77
fi
touch "$cache/node_modules/.vkskin-complete"
echo "$cache"
