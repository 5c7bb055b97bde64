#!/bin/sh
# vkskin's Python package installed as README says, into a fresh virtual environment in the
# build folder: venv_install.sh SOURCE_DIR BUILD_DIR.
# `python3 -m venv --system-site-packages` then `pip install --no-build-isolation` of a copy
# of python/ (pip builds in the folder it is given: the copy keeps the source tree clean),
# with VKSKIN_BUILD_DIR naming this build, so the extension links the libvkskin.a already
# built instead of configuring CMake again. `import vkskin` must print nothing; `pip wheel`
# must make a wheel holding the extension.
# Skipped (77) where Debian's python3 lacks numpy, pytest, setuptools or venv.
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
py=${VKSKIN_PYTHON:-/usr/bin/python3}
[ -x "$py" ] || py=$(command -v python3)
if ! "$py" -c "import numpy, pytest, setuptools, venv, ensurepip" 2>/dev/null; then
  echo "python_venv: $py lacks numpy, pytest, setuptools or venv (python3-numpy, python3-pytest," \
       "python3-setuptools, python3-venv): skipped"
  exit 77
fi
root=$build/python
rm -rf "$root"
mkdir -p "$root/src"
cp -R "$src/python/." "$root/src/"
rm -rf "$root/src/build" "$root/src/"*.egg-info "$root/src/tests"
"$py" -m venv --system-site-packages "$root/venv"
export VKSKIN_BUILD_DIR="$build" VKSKIN_SOURCE_DIR="$src"
"$root/venv/bin/pip" install --no-build-isolation --no-index \
  --no-deps --disable-pip-version-check -q "$root/src"
said=$(cd "$root" && "$root/venv/bin/python" -c "import vkskin" 2>&1)
if [ -n "$said" ]; then
  echo "python_venv: import vkskin printed: $said"
  exit 1
fi
# and a wheel of the same tree (the extension already built: only the packing runs again)
"$root/venv/bin/pip" wheel --no-build-isolation --no-index --no-deps --disable-pip-version-check -q \
  -w "$root/wheel" "$root/src"
if ! "$root/venv/bin/python" -m zipfile -l "$root"/wheel/vkskin-*.whl | grep -q "vkskin/_vkskin"; then
  echo "python_venv: pip wheel made no wheel with the extension"
  exit 1
fi
echo "python_venv: vkskin $("$root/venv/bin/python" -c "import vkskin; print(vkskin.__version__)") installed in $root/venv"
