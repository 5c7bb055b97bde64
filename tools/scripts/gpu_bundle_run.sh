#!/usr/bin/env bash
# run.sh of a vkskin GPU test bundle (made by tools/scripts/gpu_bundle.sh; docs/validation.md, "Testing a
# build on GPU machines"). From the folder the bundle was unpacked in, wherever that is:
#   ./run.sh [--quick] [-j N] [--tests REGEX] OUTDIR
# runs, with the bundle's libraries (lib/) and validation layer (layers/, VK_ADD_LAYER_PATH):
#   1. vkskin devices
#   2. the GPU-labelled CTest tests (gpu-tests/: each test's command, judged as CTest judges
#      it: its skip exit code, pass and fail expressions and timeout), N at a time
#   3. vkskin validate of every bundled character (src/datasets) with the validation layer
#   4. vkskin bench --crowd at each crowd size, as the table gives it and with the frame's
#      pose and deform passes in turn (small.slices=1: the stagger's gain), then vkskin bench
#      --json at the issue's sizes (instances of a generated character; a small model's with
#      the small-model class's shape where the crowd calibrated it)
#   5. vkskin tune --no-store --json: every built-in launch shape timed on this device (tune.json),
#      and a small model's candidates, for the small-model class (tune_small.json)
#   6. vkskin bench --json --no-gpu with the fast CPU engine's crowd loops and without them
#      (VKSKIN_CPU_CROWD=off) on every core of the host: a unit writes 2 output streams per
#      lane, and hosts with many cores and outputs past their caches are what the 2-core CI
#      machine cannot show (docs/performance.md, "Crowds")
# and writes into OUTDIR: junit.xml (every step a test case, validate's own cases included;
# validate.xml is validate's JUnit alone), bench.json (the bench runs, an array), crowd.log,
# bench/cpu_VxN_crowd.json and bench/cpu_VxN_off.json (step 6), run.log (everything printed)
# and tests/NAME.log (each test's output).
# --tests REGEX: step 2 runs only the GPU tests whose names match REGEX (grep -E, whole name:
#   '^(a|b)$' or 'cli_'); the others are reported skipped ("not selected by --tests REGEX") in
#   junit.xml and the summary. Default: every GPU test. A REGEX that selects none is a usage
#   error (exit 2). CI's own run of the bundle (test gpu_bundle) takes a sample this way, after
#   the same build ran every GPU test in its tree; a GPU machine runs them all.
# --quick: sizes for a CPU Vulkan driver (lavapipe in CI). The sizes can be set with
#   VKSKIN_BUNDLE_INSTANCES   validate's instances per character (default 100; --quick 8)
#   VKSKIN_BUNDLE_BENCH       bench's sizes: N instances of the default 10000-vertex character,
#                             or VxN (V vertices, N instances) (default "100 1000 10000
#                             100000x1000 1000x100000"; --quick "8 32 128 500x64")
#   VKSKIN_BUNDLE_CROWD       bench --crowd's instances of a 1000-vertex, 32-bone character, one
#                             run each (default "100000 1000000": the million-instance crowd
#                             playing clips is issue 41's headline; --quick 64; 0: no crowd
#                             run); the first writes bench/crowd.log, the others crowd_N.log,
#                             and with the passes in turn crowd_in_turn.log, crowd_N_in_turn.log
#   VKSKIN_BUNDLE_TUNE_SMALL  the small model's tune (default "--vertices 1000 --bones 32";
#                             --quick "--vertices 300 --instances 4 --repeats 1")
#   VKSKIN_BUNDLE_TUNE        vkskin tune's options (default "--instances 1000"; --quick
#                             "--vertices 5000 --instances 2 --repeats 1")
#   VKSKIN_BUNDLE_BENCH_ARGS  more bench options (default "--ref-instances 20 --repeats 5";
#                             --quick "--vertices 2000 --ref-instances 8 --repeats 1")
#   VKSKIN_BUNDLE_CPU         step 6's sizes, VxN (default "100000x64 1000x2000"; --quick
#                             "2000x64"; 0: no CPU runs)
# VKSKIN_REAL_DATASETS names the real samples for the tests that read them (they skip
# without). Exit: 0 every step passed (tests may skip), 1 one failed, 2 usage.
set -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  sed -n '2,/^set -o pipefail/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit "$1"
}
quick=0
selected=""
jobs=$(nproc 2>/dev/null || echo 2)
outdir=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    -j) [ $# -ge 2 ] || usage 2; jobs=$2; shift ;;
    -j*) jobs=${1#-j} ;;
    --tests) [ $# -ge 2 ] || usage 2 >&2; selected=$2; shift ;;
    --tests=*) selected=${1#--tests=} ;;
    -h | --help) usage 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; usage 2 >&2 ;;
    *) [ -z "$outdir" ] || usage 2 >&2; outdir=$1 ;;
  esac
  shift
done
[ -n "$outdir" ] || { echo "run.sh: OUTDIR missing" >&2; usage 2 >&2; }
case $jobs in '' | *[!0-9]* | 0) echo "run.sh: -j takes a whole number >= 1" >&2; exit 2 ;; esac
if [ -n "$selected" ]; then
  # grep's own status 2 (a regex it cannot read) is a usage error too
  grep -Eq -e "$selected" "$here/gpu-tests/list" 2> /dev/null ||
    { echo "run.sh: --tests '$selected' selects no GPU test of this bundle (its names: gpu-tests/list)" >&2; exit 2; }
fi
mkdir -p "$outdir/tests" "$outdir/bench" || exit 2
out=$(cd "$outdir" && pwd)

export VKSKIN_BUNDLE=$here
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -d "$here/layers" ]; then
  export VK_ADD_LAYER_PATH="$here/layers${VK_ADD_LAYER_PATH:+:$VK_ADD_LAYER_PATH}"
fi
# validate --report's three.js: the bundle's copy (vkskin would name the build tree's)
if [ -z "${VKSKIN_THREE_JS+set}" ]; then
  if [ -f "$here/assets/three.min.js" ]; then export VKSKIN_THREE_JS=$here/assets/three.min.js; else export VKSKIN_THREE_JS=; fi
fi
if [ $quick = 1 ]; then
  instances=${VKSKIN_BUNDLE_INSTANCES:-8}
  bench_sizes=${VKSKIN_BUNDLE_BENCH:-8 32 128 500x64}
  crowd_instances=${VKSKIN_BUNDLE_CROWD:-64}
  tune_args=${VKSKIN_BUNDLE_TUNE:---vertices 5000 --instances 2 --repeats 1}
  tune_small_args=${VKSKIN_BUNDLE_TUNE_SMALL:---vertices 300 --instances 4 --repeats 1}
  bench_args=${VKSKIN_BUNDLE_BENCH_ARGS:---vertices 2000 --ref-instances 8 --repeats 1}
  cpu_sizes=${VKSKIN_BUNDLE_CPU:-2000x64}
else
  instances=${VKSKIN_BUNDLE_INSTANCES:-100}
  bench_sizes=${VKSKIN_BUNDLE_BENCH:-100 1000 10000 100000x1000 1000x100000}
  crowd_instances=${VKSKIN_BUNDLE_CROWD:-100000 1000000}
  tune_args=${VKSKIN_BUNDLE_TUNE:---instances 1000}
  tune_small_args=${VKSKIN_BUNDLE_TUNE_SMALL:---vertices 1000 --bones 32}
  bench_args=${VKSKIN_BUNDLE_BENCH_ARGS:---ref-instances 20 --repeats 5}
  cpu_sizes=${VKSKIN_BUNDLE_CPU:-100000x64 1000x2000}
fi
[ "$cpu_sizes" != 0 ] || cpu_sizes=
vk=$here/build/vkskin

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
# text for an XML attribute or element: no control characters, valid UTF-8, escaped
xml_text() {
  LC_ALL=C tr -d '\000-\010\013\014\016-\037' | iconv -c -f UTF-8 -t UTF-8 2>/dev/null |
    sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e "s/'/\&#39;/g"
}

# run_test NAME: the test's command, judged as CTest judges it; its verdict into
# tests/NAME.result as "status<TAB>seconds<TAB>message" (status pass, failure or skipped)
run_test() {
  local name=$1 timeout=1500 line re rc secs status=pass msg t0
  local log=$out/tests/$name.log skips=() pass=() fail=()
  while IFS= read -r line; do
    case $line in
      "timeout "*) timeout=${line#timeout } ;;
      "skip "*) skips+=("${line#skip }") ;;
      "pass "*) pass+=("${line#pass }") ;;
      "fail "*) fail+=("${line#fail }") ;;
    esac
  done < "$here/gpu-tests/$name.props"
  if [ -n "$selected" ] && ! grep -Eq -e "$selected" <<< "$name"; then
    : > "$log" # unselected: a verdict without a run, so that junit.xml still names every GPU test
    printf '%s\t%s\t%s\n' skipped 0 "not selected by --tests $selected" > "$out/tests/$name.result"
    return
  fi
  t0=$(now)
  timeout -k 10 "$timeout" bash "$here/gpu-tests/$name.sh" > "$log" 2>&1 < /dev/null
  rc=$?
  secs=$(since "$t0")
  msg="exit $rc"
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    status=failure msg="timed out after $timeout s"
  elif [ ${#skips[@]} -gt 0 ] && printf '%s\n' "${skips[@]}" | grep -qx "$rc"; then
    status=skipped msg="skipped (exit $rc): $(tail -n 1 "$log")"
  else
    for re in "${fail[@]}"; do
      if grep -Eq -e "$re" "$log"; then status=failure msg="exit $rc; the output matches /$re/"; break; fi
    done
    if [ $status = pass ] && [ ${#pass[@]} -gt 0 ]; then
      status=failure msg="exit $rc; the output matches none of /${pass[*]}/"
      for re in "${pass[@]}"; do
        if grep -Eq -e "$re" "$log"; then status=pass msg="exit $rc; the output matches /$re/"; break; fi
      done
    elif [ $status = pass ] && [ $rc -ne 0 ]; then
      status=failure
    fi
  fi
  printf '%s\t%s\t%s\n' "$status" "$secs" "$msg" > "$out/tests/$name.result"
  printf '%-8s %s (%s s): %s\n' "$status" "$name" "$secs" "$msg"
}

# case_xml CLASS NAME STATUS SECONDS MESSAGE [LOG]: one <testcase>, the log's last lines as its output
case_xml() {
  printf '    <testcase classname="%s" name="%s" time="%s">\n' "$1" "$(printf '%s' "$2" | xml_text)" "$4"
  local m
  m=$(printf '%s' "$5" | xml_text)
  case $3 in
    failure) printf '      <failure message="%s" type="%s">%s</failure>\n' "$m" "$1" "$m" ;;
    skipped) printf '      <skipped message="%s"/>\n' "$m" ;;
  esac
  if [ -n "${6:-}" ] && [ -f "$6" ]; then
    printf '      <system-out>'
    tail -n 200 "$6" | xml_text
    printf '</system-out>\n'
  fi
  printf '    </testcase>\n'
}

main() {
  local started t0 rc secs status name n failed=0
  started=$(now)
  echo "== vkskin GPU bundle: $(sed -n 's/^version: //p' "$here/BUNDLE.txt"), in $here"
  echo "== results into $out ($([ $quick = 1 ] && echo quick sizes || echo full sizes), $jobs test(s) at a time)"
  [ -d "$here/layers" ] && echo "== validation layer: the bundle's ($here/layers)"

  echo "== vkskin devices"
  t0=$(now)
  "$vk" devices 2>&1 | tee "$out/devices.txt"
  rc=${PIPESTATUS[0]}
  secs=$(since "$t0")
  if [ "$rc" -eq 0 ]; then status=pass; else status=failure failed=1; fi
  printf '%s\t%s\t%s\n' "$status" "$secs" "vkskin devices: exit $rc" > "$out/devices.result"

  if [ -n "$selected" ]; then
    echo "== GPU tests ($(grep -Ec -e "$selected" "$here/gpu-tests/list") of $(wc -l < "$here/gpu-tests/list"): those --tests $selected selects"
  else
    echo "== GPU tests ($(wc -l < "$here/gpu-tests/list"))"
  fi
  while read -r name; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run_test "$name" &
  done < "$here/gpu-tests/list"
  wait

  echo "== vkskin validate of every bundled character ($instances instances each, validation layer on)"
  t0=$(now)
  (cd "$here/src" && "$vk" validate datasets/*.dff datasets/*.nif datasets/*.cmdl datasets/*.p3d \
    --instances "$instances" --validation --junit "$out/validate.xml") > "$out/validate.log" 2>&1
  rc=$?
  secs=$(since "$t0")
  tail -n 3 "$out/validate.log"
  if [ $rc -eq 0 ]; then status=pass; else status=failure failed=1; fi
  printf '%s\t%s\t%s\n' "$status" "$secs" "vkskin validate: exit $rc" > "$out/validate.result"

  local parts=() n size
  # bench --crowd first: its million-instance crowd calibrates the small-model class at first use
  # and stores it, so the bench sizes of a small model below run with the class's shape
  if [ "$crowd_instances" != 0 ]; then # the pose pass of a crowd: issue 24's 100,000 instances of 32 bones
    for n in $crowd_instances; do
      # as the table gives it (a GPU staggers the frames' pose and deform passes; the
      # 1k-vertex character is of the small-model class, which a large enough crowd calibrates
      # at first use and stores), then with the passes in turn: small.slices=1 over that
      # stored shape, so that only the stagger differs (docs/performance.md)
      for way in "" _in_turn; do
        shape_env=()
        [ -n "$way" ] && shape_env=(VKSKIN_LAUNCH_SHAPE="${VKSKIN_LAUNCH_SHAPE:+$VKSKIN_LAUNCH_SHAPE,}small.slices=1")
        t0=$(now)
        env "${shape_env[@]}" "$vk" bench --crowd --instances "$n" --vertices 1000 --bones 32 \
          --frames 10 > "$out/bench/$(crowd_name "$n")$way.log" 2>&1
        rc=$?
        secs=$(since "$t0")
        if [ $rc -eq 0 ]; then status=pass; else status=failure failed=1; fi
        printf '%s\t%s\t%s\n' "$status" "$secs" "vkskin bench --crowd --instances $n${way:+ (small.slices=1)}: exit $rc" \
          > "$out/bench/$(crowd_name "$n")$way.result"
        printf '%-8s bench --crowd, %s instances%s (%s s)\n' "$status" "$n" "${way:+, passes in turn}" "$secs"
      done
    done
  fi
  echo "== vkskin bench --json at sizes $bench_sizes ($bench_args)"
  for size in $bench_sizes; do
    case $size in
      *x*) n=${size#*x} size_args=(--vertices "${size%%x*}") ;; # after bench_args: it wins
      *) n=$size size_args=() ;;
    esac
    t0=$(now)
    # shellcheck disable=SC2086 # bench_args is a list of options
    "$vk" bench --json --instances "$n" $bench_args "${size_args[@]}" > "$out/bench/instances_$size.json" \
      2> "$out/bench/instances_$size.log"
    rc=$?
    secs=$(since "$t0")
    if [ $rc -eq 0 ] && [ -s "$out/bench/instances_$size.json" ]; then
      status=pass
      parts+=("$out/bench/instances_$size.json")
    else
      status=failure failed=1
    fi
    printf '%s\t%s\t%s\n' "$status" "$secs" "vkskin bench --json --instances $n $bench_args ${size_args[*]}: exit $rc" \
      > "$out/bench/instances_$size.result"
    printf '%-8s bench, %s (%s s)\n' "$status" "$size" "$secs"
  done
  # Every candidate shape on this device, the table's beside the others (nothing stored, so
  # the cache of the machine is left as it was); then a small model's (the small-model class:
  # its own candidates and regime of instances)
  local name args
  for name in tune tune_small; do
    args=$tune_args
    [ $name = tune_small ] && args=$tune_small_args
    t0=$(now)
    # shellcheck disable=SC2086 # args is a list of options
    "$vk" tune --no-store --json $args > "$out/$name.json" 2> "$out/bench/$name.log"
    rc=$?
    secs=$(since "$t0")
    if [ $rc -eq 0 ] && [ -s "$out/$name.json" ]; then status=pass; else status=failure failed=1; fi
    printf '%s\t%s\t%s\n' "$status" "$secs" "vkskin tune --no-store --json $args: exit $rc" > "$out/bench/$name.result"
    printf '%-8s %s (%s s)\n' "$status" "${name/_/ (small model)}" "$secs"
  done

  local mode
  for size in $cpu_sizes; do # step 6: the CPU engine's crowd loops, and one instance at a time
    for mode in crowd off; do
      t0=$(now)
      if [ $mode = off ]; then export VKSKIN_CPU_CROWD=off; else unset VKSKIN_CPU_CROWD; fi
      "$vk" bench --json --no-gpu --vertices "${size%%x*}" --instances "${size#*x}" --ref-instances 4 \
        > "$out/bench/cpu_${size}_$mode.json" 2> "$out/bench/cpu_${size}_$mode.log"
      rc=$?
      unset VKSKIN_CPU_CROWD
      secs=$(since "$t0")
      if [ $rc -eq 0 ] && [ -s "$out/bench/cpu_${size}_$mode.json" ]; then status=pass; else status=failure failed=1; fi
      printf '%s\t%s\t%s\n' "$status" "$secs" "vkskin bench --json --no-gpu $size, crowd loops ${mode/crowd/on}: exit $rc" \
        > "$out/bench/cpu_${size}_$mode.result"
      printf '%-8s bench --no-gpu, %s, crowd loops %s (%s s)\n' "$status" "$size" "${mode/crowd/on}" "$secs"
    done
  done

  { # the runs that completed, as one JSON array
    echo "["
    local first=1 f
    for f in "${parts[@]}"; do
      [ $first = 1 ] || echo ","
      first=0
      cat "$f"
    done
    echo "]"
  } > "$out/bench.json.tmp" && mv "$out/bench.json.tmp" "$out/bench.json"

  write_junit "$(since "$started")" > "$out/junit.xml.tmp" && mv "$out/junit.xml.tmp" "$out/junit.xml"
  local t=0 f=0 s=0 steps=("$out/devices.result" "$out/validate.result")
  while read -r name; do
    t=$((t + 1))
    case $(cut -f1 "$out/tests/$name.result") in failure) f=$((f + 1)) ;; skipped) s=$((s + 1)) ;; esac
  done < "$here/gpu-tests/list"
  for n in $bench_sizes; do steps+=("$out/bench/instances_$n.result"); done
  if [ "$crowd_instances" != 0 ]; then
    for n in $crowd_instances; do steps+=("$out/bench/$(crowd_name "$n").result" "$out/bench/$(crowd_name "$n")_in_turn.result"); done
  fi
  steps+=("$out/bench/tune.result" "$out/bench/tune_small.result")
  for n in $cpu_sizes; do steps+=("$out/bench/cpu_${n}_crowd.result" "$out/bench/cpu_${n}_off.result"); done
  [ $f -eq 0 ] || failed=1
  echo "== $t GPU tests: $((t - f - s)) passed, $f failed, $s skipped; devices, validate and bench:$(
    cut -f1 "${steps[@]}" | sort | uniq -c | tr -s ' \n' ' ')"
  echo "== $([ $failed = 0 ] && echo PASS || echo FAIL): $out/junit.xml, $out/bench.json, $out/run.log"
  return $failed
}

# crowd_name N: the file name of bench --crowd's run of N instances (the first size: crowd)
crowd_name() { [ "$1" = "${crowd_instances%% *}" ] && echo crowd || echo "crowd_$1"; }

# read_result FILE: sets r_status, r_secs, r_msg
read_result() { IFS=$'\t' read -r r_status r_secs r_msg < "$1"; }

write_junit() {
  local total=$1 name r_status r_secs r_msg tests=0 failures=0 skipped=0 secs=0 vt=0 vf=0 ve=0 n
  local body
  body=$(
    while read -r name; do
      read_result "$out/tests/$name.result"
      case_xml gpu_bundle.ctest "$name" "$r_status" "$r_secs" "$r_msg" "$out/tests/$name.log"
    done < "$here/gpu-tests/list"
  )
  while read -r name; do
    read_result "$out/tests/$name.result"
    tests=$((tests + 1))
    case $r_status in failure) failures=$((failures + 1)) ;; skipped) skipped=$((skipped + 1)) ;; esac
    secs=$(awk -v a="$secs" -v b="$r_secs" 'BEGIN { printf "%.3f", a + b }')
  done < "$here/gpu-tests/list"
  local steps=("$out/devices.result" "$out/validate.result")
  for n in $bench_sizes; do steps+=("$out/bench/instances_$n.result"); done
  if [ "$crowd_instances" != 0 ]; then
    for n in $crowd_instances; do steps+=("$out/bench/$(crowd_name "$n").result" "$out/bench/$(crowd_name "$n")_in_turn.result"); done
  fi
  steps+=("$out/bench/tune.result" "$out/bench/tune_small.result")
  for n in $cpu_sizes; do steps+=("$out/bench/cpu_${n}_crowd.result" "$out/bench/cpu_${n}_off.result"); done
  local sbody stests=0 sfail=0 ssecs=0 r m
  sbody=$(
    read_result "$out/devices.result"
    case_xml gpu_bundle.vkskin devices "$r_status" "$r_secs" "$r_msg" "$out/devices.txt"
    read_result "$out/validate.result"
    case_xml gpu_bundle.vkskin validate "$r_status" "$r_secs" "$r_msg" "$out/validate.log"
    for n in $bench_sizes; do
      read_result "$out/bench/instances_$n.result"
      case_xml gpu_bundle.vkskin "bench_instances_$n" "$r_status" "$r_secs" "$r_msg" "$out/bench/instances_$n.log"
    done
    if [ "$crowd_instances" != 0 ]; then
      for n in $crowd_instances; do
        for way in "" _in_turn; do
          read_result "$out/bench/$(crowd_name "$n")$way.result"
          case_xml gpu_bundle.vkskin "bench_$(crowd_name "$n")$way" "$r_status" "$r_secs" "$r_msg" \
            "$out/bench/$(crowd_name "$n")$way.log"
        done
      done
    fi
    for m in tune tune_small; do
      read_result "$out/bench/$m.result"
      case_xml gpu_bundle.vkskin "$m" "$r_status" "$r_secs" "$r_msg" "$out/bench/$m.log"
    done
    for n in $cpu_sizes; do
      for m in crowd off; do
        read_result "$out/bench/cpu_${n}_$m.result"
        case_xml gpu_bundle.vkskin "bench_cpu_${n}_$m" "$r_status" "$r_secs" "$r_msg" "$out/bench/cpu_${n}_$m.log"
      done
    done
  )
  for r in "${steps[@]}"; do
    read_result "$r"
    stests=$((stests + 1))
    [ "$r_status" = failure ] && sfail=$((sfail + 1))
    ssecs=$(awk -v a="$ssecs" -v b="$r_secs" 'BEGIN { printf "%.3f", a + b }')
  done
  # validate's own suites (its JUnit, tests/data/junit.xsd's shape): every line but the
  # declaration and the <testsuites> element around them
  local vbody=""
  if [ -s "$out/validate.xml" ]; then
    read -r vt vf ve < <(sed -n '2s/.* tests="\([0-9]*\)" failures="\([0-9]*\)" errors="\([0-9]*\)".*/\1 \2 \3/p' "$out/validate.xml")
    vbody=$(sed '1,2d;$d' "$out/validate.xml")
  fi
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  printf '<testsuites name="vkskin GPU bundle" tests="%s" failures="%s" errors="%s" time="%s">\n' \
    $((tests + stests + ${vt:-0})) $((failures + sfail + ${vf:-0})) "${ve:-0}" "$total"
  printf '  <testsuite name="GPU tests (CTest label gpu)" tests="%s" failures="%s" errors="0" skipped="%s" time="%s">\n' \
    "$tests" "$failures" "$skipped" "$secs"
  printf '    <properties>\n      <property name="bundle" value="%s"/>\n    </properties>\n' \
    "$(sed -n 's/^version: //p; s/^commit: / commit /p' "$here/BUNDLE.txt" | tr -d '\n' | xml_text)"
  [ -z "$body" ] || printf '%s\n' "$body"
  echo '  </testsuite>'
  printf '  <testsuite name="vkskin devices, validate and bench" tests="%s" failures="%s" errors="0" skipped="0" time="%s">\n' \
    "$stests" "$sfail" "$ssecs"
  printf '%s\n' "$sbody"
  echo '  </testsuite>'
  [ -z "$vbody" ] || printf '%s\n' "$vbody"
  echo '</testsuites>'
}

main 2>&1 | tee "$out/run.log"
exit "${PIPESTATUS[0]}"
