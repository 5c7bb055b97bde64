#!/bin/sh
# The pytest suite (python/tests) in the virtual environment venv_install.sh made:
# run_pytest.sh SOURCE_DIR BUILD_DIR VKSKIN_PROGRAM. Its temporaries stay in the build folder,
# and nothing is written into the source tree (no bytecode, no pytest cache).
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
venv=$build/python/venv
if [ ! -x "$venv/bin/python" ]; then
  echo "python_pytest: no virtual environment (python_venv skipped or failed): skipped"
  exit 77
fi
export VKSKIN_CLI="$3" VKSKIN_SOURCE_DIR="$src" PYTHONDONTWRITEBYTECODE=1
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider --basetemp="$build/python/tmp" "$src/python/tests"
