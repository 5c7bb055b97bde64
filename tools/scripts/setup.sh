#!/usr/bin/env bash
# Installs what vkskin needs on Debian 12 (DESIGN.md section 12). Safe to run again: apt-get
# skips what is already there. Runs apt-get directly as root, through sudo otherwise.
set -euo pipefail
packages=(
  cmake ninja-build gcc clang libclang-rt-14-dev pkg-config
  libvulkan-dev libvulkan-volk-dev glslc libshaderc-dev spirv-tools
  mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  libexpat1-dev libcjson-dev libcmocka-dev libpng-dev libopenexr-dev
  liblzo2-dev # tests only: the reference test_lzo1x holds the hand-written LZO1X decoder against
  slurm-wlm munge # vkskin bake's job-array test brings up a one-node cluster (tests/cli/cli_bake_slurm.sh)
  libxml2-utils chromium nodejs # validate's reports: xmllint, the page in a browser, three.js
  groff-base man-db # the vkskin(1) page generated from the option tables renders (tests/cli/cli_reference.sh)
  python3-jsonschema # bake sidecars checked against docs/schema/bake_sidecar.schema.json
  python3-dev python3-numpy python3-setuptools python3-wheel python3-venv python3-pytest # the Python package (python/, docs/python.md)
  libmeshoptimizer-dev libdraco-dev # compressed glTF (EXT_/KHR_meshopt_compression, KHR_draco_mesh_compression)
  gltfpack draco # tests only: the compressed glTF tests make their files with these encoders
  assimp-testmodels # more glTF variants for the glTF reader's tests (/usr/share/assimp/models/glTF2)
  godot3 glslang-tools xvfb xauth # the engine kits' tests: Godot 3 under Xvfb, the Unity and Unreal HLSL compiled
  doxygen # docs: the API reference (docs/api.md) generated from the public headers
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm: Debian's nodejs comes without it, but a nodejs from NodeSource bundles it and conflicts
# with Debian's npm package, so it is asked for only where the command is missing.
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: installed ${missing[*]}"
