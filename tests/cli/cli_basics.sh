#!/usr/bin/env bash
# The vkskin program as a user runs it: help and exit codes, one clear error line for bad
# input, inspect and deform on a real sample (skipped without ../shared/datasets).
set -u
vk=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }

"$vk" --help >/dev/null; check "--help exits 0" "[ $? -eq 0 ]"
"$vk" nosuchcommand 2>/dev/null; check "unknown command exits 2" "[ $? -eq 2 ]"
for c in inspect deform validate bench devices generate; do
  "$vk" $c --help >/dev/null; check "$c --help exits 0" "[ $? -eq 0 ]"
done
"$vk" inspect --bogus 2>/dev/null; check "unknown option exits 2" "[ $? -eq 2 ]"

head -c 300 /dev/urandom > "$tmp/garbage.dff"
printf '\x10\x00\x00\x00\xff\xff\xff\x7f\xff\xff\x03\x18' > "$tmp/huge.dff"
for f in "$tmp/garbage.dff" "$tmp/huge.dff" "$tmp/missing.dff"; do
  "$vk" inspect "$f" > /dev/null 2> "$tmp/err"; rc=$?
  check "inspect $(basename "$f") exits 1" "[ $rc -eq 1 ]"
  check "one error line for $(basename "$f")" "[ \$(wc -l < '$tmp/err') -eq 1 ]"
  check "the error names the file" "grep -q '$(basename "$f")' '$tmp/err'"
done
"$vk" deform "$tmp/garbage.dff" --cpu --out "$tmp/out.csv" 2>/dev/null
check "deform on garbage exits 1" "[ $? -eq 1 ]"
check "no output for a failed deform" "[ ! -e '$tmp/out.csv' ] && [ -z \"\$(ls '$tmp' | grep tmp)\" ]"

data=${VKSKIN_REAL_DATASETS:-../shared/datasets}/renderware/tube_rw36003.dff
if [ ! -f "$data" ]; then echo "sample not found: rest skipped"; [ $fail -eq 0 ] && exit 77 || exit 1; fi
"$vk" inspect "$data" > "$tmp/inspect.txt"; check "inspect tube exits 0" "[ $? -eq 0 ]"
check "inspect shows the tube's counts" "grep -q '130 vertices, 240 triangles' '$tmp/inspect.txt'"
"$vk" inspect --json "$data" > "$tmp/inspect.json"; check "inspect --json exits 0" "[ $? -eq 0 ]"
check "json has 6 nodes" "grep -q '\"nodes\":[[:space:]]*6' '$tmp/inspect.json'"
"$vk" deform "$data" --cpu --procedural --instances 2 --frames 3 --out "$tmp/tube.csv" 2>/dev/null
check "deform csv exits 0" "[ $? -eq 0 ]"
check "csv has header + 2*3*130 rows" "[ \$(wc -l < '$tmp/tube.csv') -eq 781 ]"
check "csv header" "head -1 '$tmp/tube.csv' | grep -qx 'instance,frame,mesh,vertex,x,y,z,nx,ny,nz'"
"$vk" deform "$data" --cpu --instances 2 --frames 3 --out "$tmp/tube.pc2" 2>/dev/null
check "pc2 size" "[ \$(stat -c %s '$tmp/tube.pc2') -eq \$((32 + 6 * 130 * 12)) ]"
echo '{"nodes": [{"name": "tube_b1", "rotation": [0, 0.7071068, 0, 0.7071068]}]}' > "$tmp/pose.json"
"$vk" deform "$data" --cpu --pose "$tmp/pose.json" --out "$tmp/posed.obj" 2>/dev/null
check "deform with a pose file exits 0" "[ $? -eq 0 ]"
check "obj has 130 vertices" "[ \$(grep -c '^v ' '$tmp/posed.obj') -eq 130 ]"
echo '{"nodes": [{"name": "nope", "rotation": [0, 0, 0, 1]}]}' > "$tmp/bad.json"
"$vk" deform "$data" --cpu --pose "$tmp/bad.json" --out "$tmp/bad.csv" 2> "$tmp/err"
check "unknown node in a pose file exits 1" "[ $? -eq 1 ]"
check "the error names the entry" "grep -q 'nodes\[0\]' '$tmp/err'"
exit $fail
