#!/usr/bin/env bash
# fetch_three_module.sh DIR VERSION: installs three.js VERSION (an npm version or tag, e.g. latest)
# from npm into DIR (a folder of the build tree, never the sources) for the three.js kit's test
# (tests/cli/engines_threejs.sh), which plays bakes with the release users get from `npm install
# three` as well as with the oldest release the kit supports. The kit uses the ES module build
# (build/three.module.js, examples/jsm). Without npm or the registry it says so in DIR/three.stamp
# and succeeds: the build goes on and the test skips that version.
set -u
dir=$1 version=$2
mkdir -p "$dir"
stamp="$dir/three.stamp"
if ! command -v npm > /dev/null; then
  echo "fetch_three_module: npm not found: three.js $version not fetched" | tee "$stamp"
  exit 0
fi
rm -rf "$dir/node_modules"
if timeout 180 npm install --no-audit --no-fund --no-save --loglevel=error --prefix "$dir" "three@$version" > "$dir/npm.log" 2>&1 &&
   [ -s "$dir/node_modules/three/build/three.module.js" ]; then
  echo "three.js $(sed -n 's/.*"version": "\([^"]*\)".*/\1/p' "$dir/node_modules/three/package.json") installed in $dir" > "$stamp"
else
  echo "fetch_three_module: npm install three@$version failed (see $dir/npm.log): not fetched" | tee "$stamp"
fi
exit 0
