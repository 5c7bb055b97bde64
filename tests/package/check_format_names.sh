#!/bin/sh
# Format knowledge ends at the reader (issue 39): no C file of src/ outside src/formats/ names
# a format ("renderware", "nif", "p3d", "nw4c"); what a format means elsewhere (its axes, its
# extensions, its title) comes from its record in the registry (src/formats/registry.c).
# Usage: check_format_names.sh SOURCE_DIR
src=${1:?usage: check_format_names.sh SOURCE_DIR}
cd "$src" || exit 2
found=$(grep -rnE '"(renderware|nif|p3d|nw4c)"' src --include=*.c | grep -v '^src/formats/')
if [ -n "$found" ]; then
  echo "check_format_names: format names outside src/formats/ (use the registry's record):"
  echo "$found"
  exit 1
fi
echo "check_format_names: no format named outside src/formats/"
