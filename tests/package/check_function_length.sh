#!/bin/sh
# No function too long to read in one sitting (issues 23 and 39): none in src/ or in the
# shaders of compute/ (GLSL, *.comp and *.glsl) over 100 lines, none in tools/, tests/ or
# examples/ over 150. A function is counted from the first line of its signature to its
# closing brace, as the tree writes functions (the signature, the opening and the closing brace
# in column 0; a declaration ending in ';' is none). tools/ozz is C++ and is not measured.
# Usage: check_function_length.sh SOURCE_DIR
src=${1:?usage: check_function_length.sh SOURCE_DIR}
fail=0
measure() { # LIMIT DIR...: prints "file:line: name: N lines (limit LIMIT)" for each function over LIMIT
  limit=$1
  shift
  for dir in "$@"; do
    [ -d "$dir" ] || continue
    find "$dir" \( -name '*.[ch]' -o -name '*.comp' -o -name '*.glsl' \) | LC_ALL=C sort | while read -r f; do
      awk -v file="${f#$src/}" -v limit="$limit" '
        /^[A-Za-z_]/ && /\(/ { sig = FNR; text = $0 }
        !body && /;[ \t]*$/ { sig = 0 }  # a declaration, not a definition
        /^\{/ && sig && !body { start = sig; name = text; body = 1 }
        /^\}/ && body {
          n = FNR - start + 1
          if (n > limit) {
            sub(/\(.*/, "", name); k = split(name, w, /[ *]+/)
            printf "%s:%d: %s: %d lines (limit %d)\n", file, start, w[k], n, limit
          }
          body = 0; sig = 0
        }' "$f"
    done
  done
}
long=$( { measure 100 "$src/src" "$src/compute"; measure 150 "$src/tools" "$src/tests" "$src/examples"; } )
if [ -n "$long" ]; then
  echo "check_function_length: functions over the limit (split them into named steps):"
  echo "$long"
  fail=1
fi
[ $fail = 0 ] && echo "check_function_length: no function in src/ or compute/ over 100 lines, none elsewhere over 150"
exit $fail
