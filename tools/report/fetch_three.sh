#!/usr/bin/env bash
# fetch_three.sh DIR: installs three.js from npm into DIR (a folder of the build tree, never the
# sources) for the 3D view of vkskin validate --report, which copies DIR's
# node_modules/three/build/three.min.js beside each page it writes. The version is pinned: 0.149
# is the last release whose build/ still holds the classic three.min.js (the page is opened from
# file://, where browsers refuse module imports). Without npm or the registry it says so and
# succeeds: the build goes on, and the reports say they have no 3D view.
set -u
dir=$1
version=0.149.0
mkdir -p "$dir"
stamp="$dir/three.stamp"
if [ -s "$dir/node_modules/three/build/three.min.js" ] &&
   grep -q "\"version\": \"$version\"" "$dir/node_modules/three/package.json" 2>/dev/null; then
  echo "three.js $version already in $dir" > "$stamp"
  exit 0
fi
if ! command -v npm > /dev/null; then
  echo "fetch_three: npm not found: validate --report pages will have no 3D view" | tee "$stamp"
  exit 0
fi
if timeout 180 npm install --no-audit --no-fund --no-save --loglevel=error --prefix "$dir" "three@$version" > "$dir/npm.log" 2>&1 &&
   [ -s "$dir/node_modules/three/build/three.min.js" ]; then
  echo "three.js $version installed in $dir" > "$stamp"
else
  echo "fetch_three: npm install three@$version failed (see $dir/npm.log): validate --report pages will have no 3D view" |
    tee "$stamp"
fi
exit 0
