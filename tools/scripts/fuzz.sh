#!/usr/bin/env bash
# Runs every reader's libFuzzer target (clang, ASan + UBSan) for SECONDS each, one after the
# other, starting from the same seeds its replay test reads in the plain build:
#   tools/scripts/fuzz.sh [SECONDS (default 180)] [REGEX of target names]
# Builds build-fuzz (-DVKSKIN_FUZZ=ON) and build (for the seed lists). New inputs go to a
# scratch corpus under build-fuzz/corpus/NAME (the seed folders are never written); a crash,
# leak, sanitizer report or timeout leaves its input in build-fuzz/findings/NAME and makes the
# script exit 1 after the other targets have run. Needs python3 (reads CTest's JSON).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-180}
only=${2:-.}
"$root/tools/scripts/setup.sh"
"$root/tools/scripts/build.sh" build >/dev/null
CC=clang CXX=clang++ "$root/tools/scripts/build.sh" build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DVKSKIN_FUZZ=ON >/dev/null
# name <TAB> seed arguments, from the replay tests of the plain build
list=$(cd "$root/build" && ctest --show-only=json-v1 -R '^fuzz_.*_replay$' | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    cmd = t["command"]
    print(t["name"][: -len("_replay")] + "\t" + "\t".join(cmd[1:]))
')
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/tests/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
while IFS=$'\t' read -r name seeds_line; do
  [[ $name =~ $only ]] || continue
  IFS=$'\t' read -r -a seeds <<<"$seeds_line"
  exe=$(find "$root/build-fuzz" -type f -name "$name" -perm -u+x | head -1)
  [ -n "$exe" ] || { echo "fuzz: $name: no libFuzzer target built" >&2; failed+=("$name"); continue; }
  corpus="$root/build-fuzz/corpus/$name" findings="$root/build-fuzz/findings/$name"
  mkdir -p "$corpus" "$findings"
  dict=()
  short=${name#fuzz_}
  [ -f "$root/tests/fuzz/$short.dict" ] && dict=(-dict="$root/tests/fuzz/$short.dict")
  existing=()
  for s in "${seeds[@]}"; do [ -e "$s" ] && existing+=("$s"); done
  echo "== $name: ${seconds} s from ${#existing[@]} seed folder(s)"
  if ! "$exe" "${dict[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$findings/" "$corpus" "${existing[@]}" >"$root/build-fuzz/$name.log" 2>&1; then
    echo "fuzz: $name: FINDING (log build-fuzz/$name.log, input in build-fuzz/findings/$name)" >&2
    failed+=("$name")
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$root/build-fuzz/$name.log" | tr '\n' ' '
  echo
done <<<"$list"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no finding"
