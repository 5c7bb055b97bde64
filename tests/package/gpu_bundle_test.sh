#!/usr/bin/env bash
# The GPU test bundle end to end (issue 22): gpu_bundle_test.sh SOURCE_DIR BUILD_DIR
# tools/scripts/gpu_bundle.sh packs this build; the archive is unpacked into a fresh folder
# elsewhere and its run.sh runs there with --quick on the device found (lavapipe in CI).
# The build's own ctest already ran every GPU test in its tree, so the bundle runs a sample of
# them (run.sh --tests, below: one of each way a test reaches its files) while the bundle is
# still checked whole: every GPU test of the build has its command in gpu-tests/, every file
# those commands name is in the bundle (a build path only where the build has it: the others
# are outputs the tests make), a --tests that selects nothing is a usage error (exit 2).
# run.sh must exit 0 with every sampled test passing (cli_report_browser may skip where
# Chromium is not installed, as it does in the build tree) and the others skipped as not
# selected, and leave junit.xml (valid against tests/data/junit.xsd, one case per GPU test, no
# failure), bench.json (the four bench runs, the last at its own vertex count),
# bench/crowd.log and run.log. Nothing the runner reads may name this build's folders, nor
# its real-sample folder (VKSKIN_REAL_DATASETS, which the bundle does not carry: the tests
# given it as an argument get the caller's VKSKIN_REAL_DATASETS instead).
# Skipped (77) without a Vulkan device.
set -uo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
"$build/vkskin" devices > /dev/null 2>&1
[ $? -eq 4 ] && { echo "no Vulkan device: skipped"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/vkskin-bundle-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

"$src/tools/scripts/gpu_bundle.sh" "$work/vkskin-gpu.tar.xz" "$build" || { echo "FAIL: gpu_bundle.sh"; exit 1; }
mkdir "$work/elsewhere"
tar -C "$work/elsewhere" -xJf "$work/vkskin-gpu.tar.xz" || { echo "FAIL: the archive does not unpack"; exit 1; }
b=$work/elsewhere/vkskin-gpu
[ -x "$b/run.sh" ] || { echo "FAIL: no run.sh in the bundle"; exit 1; }
if grep -rlsF -e "$build" -e "$src/" "$b/run.sh" "$b/gpu-tests" "$b/BUNDLE.txt" "$b/layers"; then
  no "the files above name the build's folders"
fi
# the build's real-sample folder, as its tests' environments name it
real=$(find "$build" -name CTestTestfile.cmake -exec grep -oh 'VKSKIN_REAL_DATASETS=[^;"]*' {} + | head -n 1 |
  cut -d= -f2-)
real=${real%/}
[ -n "$real" ] || no "no test of the build names VKSKIN_REAL_DATASETS"
if [ -n "$real" ] && grep -rlsF -e "$real" "$b/run.sh" "$b/gpu-tests" "$b/BUNDLE.txt" "$b/layers"; then
  no "the files above name this machine's real-sample folder $real (the GPU machine has its own)"
fi
grep -qF '"${VKSKIN_REAL_DATASETS:-$VKSKIN_BUNDLE/no-real-datasets}"' "$b/gpu-tests/cli_crowd_layers_fox.sh" ||
  no "cli_crowd_layers_fox is not given the caller's real-sample folder: $(tail -n 1 "$b/gpu-tests/cli_crowd_layers_fox.sh")"

# The sample: a test that reads tests/data (cli_crowd_step_key), one given the source tree's
# root (cli_crowd_layers: the bundled characters), one given the real-sample folder
# (cli_crowd_layers_fox: the caller's, here through a link of another name; it skips where this
# machine has no Fox.glb), helper programs with environment settings (test_gpu_clip_nif,
# test_gpu_crowd_readback_apart), a pass expression (test_bench_crowd), the examples on a
# bundled dataset, one writing into a build folder the bundle does not carry (example_bake_vat),
# check_png and the JUnit schema (cli_report_gaps), the report in a browser with the bundle's
# three.js (cli_report_browser).
sample='^(cli_crowd_step_key|cli_crowd_layers|cli_crowd_layers_fox|test_gpu_clip_nif|test_gpu_crowd_readback_apart|test_bench_crowd|example_crowd_embed|example_bake_vat|cli_report_gaps|cli_report_browser)$'

# every file a test's command names (written "$VKSKIN_BUNDLE"/src'...' or /build'...') is there
for t in "$b"/gpu-tests/*.sh; do
  grep -v '^mkdir -p ' "$t" | grep -o '"\$VKSKIN_BUNDLE"/\(src\|build\)'"'"'[^'"'"']*'"'" | tr -d "'" |
    sed 's|^"\$VKSKIN_BUNDLE"/||' | while read -r f; do
      case $f in build/*) [ -e "$build/${f#build/}" ] || continue ;; esac
      [ -e "$b/$f" ] || echo "FAIL: $(basename "$t" .sh) names $f, which the bundle lacks"
    done
done > "$work/missing"
[ -s "$work/missing" ] && { cat "$work/missing"; fail=1; }

(cd "$work" && "$b/run.sh" --quick --tests 'no_such_test' "$work/none") > "$work/none.out" 2>&1
rc=$?
[ $rc -eq 2 ] || no "run.sh --tests selecting no test: exit $rc, expected 2 ($(tail -1 "$work/none.out"))"

out=$work/results
fox=0
if [ -n "$real" ] && [ -f "$real/gltf/Fox/Fox.glb" ]; then
  ln -s "$real" "$work/real-samples" && fox=1
fi
(cd "$work" && VKSKIN_REAL_DATASETS="$work/real-samples" "$b/run.sh" --quick -j2 --tests "$sample" "$out") \
  > "$work/run.out" 2>&1
rc=$?
[ $rc -eq 0 ] || no "run.sh exit $rc: $(grep -E '^(failure|== )' "$work/run.out" | tail -8)"
for f in junit.xml bench.json run.log validate.xml; do
  [ -s "$out/$f" ] || no "run.sh left no $f"
done
cmp -s "$work/run.out" "$out/run.log" || no "run.log is not what run.sh printed"

# one test case per GPU test of this build (read from its test files: ctest run in the build
# would write the log of the ctest running this test), each passed
expected=$(find "$build" -name CTestTestfile.cmake -exec cat {} + |
  sed -n 's/^set_tests_properties(\[=\[\([^]]*\)\]=\] PROPERTIES .* LABELS "\([^"]*\)".*/\1 \2/p' |
  awk '{ n = split($2, l, ";"); for (i = 1; i <= n; i++) if (l[i] == "gpu") print $1 }' | sort)
got=$(sed -n 's/.*classname="gpu_bundle.ctest" name="\([^"]*\)".*/\1/p' "$out/junit.xml" | sort)
[ -n "$expected" ] && [ "$expected" = "$got" ] ||
  no "the bundle's GPU tests ($(tr '\n' ' ' <<< "$got")) are not the build's ($(tr '\n' ' ' <<< "$expected"))"
# the sample is what it says: each of its names a GPU test of the build (a renamed test would
# leave it smaller unnoticed)
for name in $(sed 's/^\^(//; s/)\$$//; s/|/ /g' <<< "$sample"); do
  grep -qx "$name" <<< "$expected" || no "the sample names $name, which is no GPU test of this build"
  [ -f "$b/gpu-tests/$name.sh" ] || no "the bundle has no gpu-tests/$name.sh"
done
browser=$(command -v chromium || command -v chromium-browser || true)
for r in "$out"/tests/*.result; do
  name=$(basename "$r" .result)
  status=$(cut -f1 "$r")
  if [ "$status" = skipped ] && [ "$name" = cli_report_browser ] && [ -z "$browser" ]; then
    continue
  fi
  if [ "$status" = skipped ] && [ "$name" = cli_crowd_layers_fox ] && [ $fox -eq 0 ]; then
    continue
  fi
  if ! grep -Eq -e "$sample" <<< "$name"; then
    [ "$status" = skipped ] && grep -q "not selected by --tests" "$r" || no "$name, not in the sample: $(cat "$r")"
    continue
  fi
  [ "$status" = pass ] || no "$name: $status ($(cut -f3 "$r")); its log: $(tail -n 5 "$out/tests/$name.log")"
done

if command -v xmllint > /dev/null; then
  xmllint --noout --schema "$src/tests/data/junit.xsd" "$out/junit.xml" 2> "$work/xerr" ||
    no "junit.xml against the JUnit schema: $(head -5 "$work/xerr")"
  [ "$(xmllint --xpath 'count(//failure | //error)' "$out/junit.xml")" = 0 ] || no "junit.xml has failures or errors"
  # validate's own cases are in it, named by the bundled files
  [ "$(xmllint --xpath 'count(//testcase[contains(@classname, ".datasets/char_b24_pl8_dff") and @name="positions"])' \
    "$out/junit.xml")" = 1 ] || no "junit.xml: no validate case for datasets/char_b24_pl8.dff"
  [ "$(xmllint --xpath 'count(//testcase[@name="validation layer"])' "$out/junit.xml")" = 1 ] ||
    no "junit.xml: validate did not run with the validation layer"
  [ "$(xmllint --xpath 'count(//testcase) = /testsuites/@tests' "$out/junit.xml")" = true ] ||
    no "junit.xml: the root's tests= does not count its cases"
fi
[ "$(grep -c '"vertex_instances_per_second"' "$out/bench.json")" = 4 ] || no "bench.json does not hold four bench runs"
if command -v python3 > /dev/null; then
  # --quick's sizes "8 32 128 500x64": the last at 500 vertices (the generator rounds to a grid)
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert [x['instances'] for x in r] == [8, 32, 128, 64], r; \
assert r[3]['vertices'] < 1000 < r[0]['vertices'], [x['vertices'] for x in r]" \
    "$out/bench.json" 2> "$work/jerr" || no "bench.json: $(tail -1 "$work/jerr")"
fi
grep -q 'pose pass, 4 layers / 1' "$out/bench/crowd.log" || no "bench --crowd did not run: $(tail -3 "$out/bench/crowd.log")"
# and again with the frame's passes in turn (small.slices=1), to set the stagger's gain beside it
grep -q 'launch shape: .*(forced' "$out/bench/crowd_in_turn.log" ||
  no "bench --crowd with the passes in turn did not run forced: $(head -4 "$out/bench/crowd_in_turn.log")"
[ "$(xmllint --xpath 'count(//testcase[@name="bench_crowd_in_turn"])' "$out/junit.xml")" = 1 ] ||
  no "junit.xml: no bench_crowd_in_turn case"
# step 6: the CPU engine with its crowd loops and without, --quick's 2000x64
for m in crowd off; do
  grep -q '"cpu_fast"' "$out/bench/cpu_2000x64_$m.json" 2> /dev/null || no "bench/cpu_2000x64_$m.json has no cpu_fast figure"
done
# tune: every built-in candidate timed, one chosen, the skipping shapes among them
if command -v python3 > /dev/null; then
  python3 -c "import json,sys; t=json.load(open(sys.argv[1])); c=t['candidates']; \
assert len(c) >= 12 and sum(x['chosen'] for x in c) == 1, c; \
assert any('zeros=skip' in x['shape'] for x in c), c" "$out/tune.json" 2> "$work/jerr" || no "tune.json: $(tail -1 "$work/jerr")"
  # and a small model's: the small-model class's candidates beside the built-in ones
  python3 -c "import json,sys; t=json.load(open(sys.argv[1])); c=t['candidates']; \
assert len(c) >= 15 and sum(x['chosen'] for x in c) == 1, c; \
assert any(x['shape'].startswith('wg=1024,') for x in c), c" "$out/tune_small.json" 2> "$work/jerr" ||
    no "tune_small.json: $(tail -1 "$work/jerr")"
fi
if command -v xmllint > /dev/null; then
  [ "$(xmllint --xpath 'count(//testcase[@name="bench_crowd"])' "$out/junit.xml")" = 1 ] || no "junit.xml: no bench_crowd case"
  [ "$(xmllint --xpath 'count(//testcase[starts-with(@name, "bench_cpu_2000x64_")])' "$out/junit.xml")" = 2 ] ||
    no "junit.xml: no bench_cpu cases"
fi
# host_targets.sh: the host's timings of the GPU machine (BENCHMARKS.md), at lavapipe's sizes:
# every run passes, validate's metrics agree over threads and contexts, deform's bytes over
# contexts, and the summary names each part
(cd "$work" && "$b/host_targets.sh" --quick "$work/host") > "$work/host.out" 2>&1
rc=$?
[ $rc -eq 0 ] || no "host_targets.sh --quick: exit $rc ($(grep -e FAIL -e exit "$work/host.out" | grep -v 'exit 0' | head -3))"
for want in "validate 16 characters x 8, every core (3)" "host / GPU" "bake --jobs 4" "| gpu |" "| cpu-fast |" \
  "the same raw, --device 0,0" "PASS:"; do
  grep -qF -e "$want" "$work/host/host_targets.md" 2> /dev/null || no "host_targets.md has no '$want'"
done
[ $fail -eq 0 ] && echo "gpu_bundle: the bundle ran from $b: $(tail -n 2 "$out/run.log" | head -1)"
exit $fail
