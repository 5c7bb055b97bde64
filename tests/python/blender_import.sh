#!/bin/sh
# Blender's Python imports vkskin and deforms a bundled character: blender_import.sh SOURCE_DIR
# BUILD_DIR. The extension is the one venv_install.sh built, for the python3 it found; Blender
# loads it when its own Python is the same version (Debian's blender runs the system Python
# 3.11), and the test says so and skips (77) when it is not, or when blender is not installed.
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
venv=$build/python/venv
blender=${BLENDER:-$(command -v blender || true)}
if [ -z "$blender" ]; then
  echo "python_blender: no blender: skipped"
  exit 77
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "python_blender: no virtual environment (python_venv skipped or failed): skipped"
  exit 77
fi
site=$("$venv/bin/python" -c "import vkskin, os; print(os.path.dirname(os.path.dirname(vkskin.__file__)))")
want=$("$venv/bin/python" -c "import sys; print('%d.%d' % sys.version_info[:2])")
model=$src/datasets/char_b24_pl8.dff
expr="import sys
have = '%d.%d' % sys.version_info[:2]
if have != '$want':
    print('BLENDER_SKIP Blender runs Python', have, 'and the extension was built for $want'); sys.exit(0)
sys.path.insert(0, '$site')
import vkskin
m = vkskin.read('$model')
d = vkskin.deform(m, 'cpu', instances=2, frames=2)
assert d.positions.shape == (2, 2, m.vertex_count, 3)
import numpy as np
assert np.isfinite(d.positions).all() and not np.array_equal(d.positions[0, 0], d.positions[1, 0])
print('BLENDER_OK', m.vertex_count, 'vertices x 4 poses deformed in Blender', bpy.app.version_string)"
out=$(PYTHONDONTWRITEBYTECODE=1 "$blender" -b --factory-startup --python-exit-code 1 --python-expr "import bpy
$expr" 2>&1) || { echo "$out"; echo "python_blender: blender failed"; exit 1; }
case $out in
  *BLENDER_OK*) echo "$out" | grep BLENDER_OK ;;
  *BLENDER_SKIP*) echo "$out" | grep BLENDER_SKIP | sed 's/^BLENDER_SKIP/python_blender: skipped:/'; exit 77 ;;
  *) echo "$out"; echo "python_blender: no result from blender"; exit 1 ;;
esac
