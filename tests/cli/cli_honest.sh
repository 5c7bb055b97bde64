#!/usr/bin/env bash
# vkskin on models that are themselves wrong (issue 9, points 9-12): each is refused with the
# offset or the bone that is wrong (exit 1), or reported as a finding with its own exit code
# (6: bind-pose check failed), and every exit says why on stderr. With several inputs the exit
# code is the most severe. The crafted files come from test_honest_models --dump; checks that
# need a Vulkan device are skipped without one (exit 4), real samples without the datasets.
#   cli_honest.sh VKSKIN TEST_HONEST_MODELS
set -u
vk=$1
craft=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; fi; }
src=${VKSKIN_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
"$craft" --dump "$tmp" > /dev/null || { echo "FAIL: test_honest_models --dump"; exit 1; }
gpu=1
"$vk" devices > /dev/null 2>&1
[ $? -eq 4 ] && { gpu=0; echo "no Vulkan device: validate checks skipped"; }

# run WANT ARGS...: runs vkskin with stdout in $tmp/out and stderr in $tmp/err; checks the exit
# code and that a failing exit said why.
run() {
  local want=$1
  shift
  "$vk" "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  check "vkskin $* exits $want (got $rc)" "[ $rc -eq $want ]"
  [ "$want" -ne 0 ] && check "vkskin $* says why on stderr" "[ -s '$tmp/err' ]"
  return 0
}
out_has() { check "$1: stdout has '$2'" "grep -Eq -- '$2' '$tmp/out'"; }
err_has() { check "$1: stderr has '$2'" "grep -Eq -- '$2' '$tmp/err'"; }
one_line() { check "$1: one error line" "[ \$(wc -l < '$tmp/err') -eq 1 ]"; }

# ---- point 9: non-finite weights are refused where they are read, with their offset
run 1 inspect "$tmp/nan_weight.dff"
one_line "NaN weight (DFF)"
err_has "NaN weight (DFF)" 'nan_weight.dff:0x[0-9a-f]+: clump/.*/skin: vertex 2 slot 0: weight nan is not finite'
run 1 inspect "$tmp/nan_weight.nif"
err_has "NaN weight (NIF)" 'nan_weight.nif:0x[0-9a-f]+: nif/block\[[0-9]+\] NiSkinData/bone_list/vertex_weights: .* not finite'
run 1 validate "$tmp/nan_weight.dff"

# ---- point 9: a failed bind-pose check is a finding: FAILED, exit 6, unless allowed
run 0 inspect "$tmp/clean.dff"
out_has "clean model" 'bind-pose check: passed'
run 6 inspect "$tmp/shifted_bind.dff"
out_has "shifted inverse bind" 'bind-pose check: FAILED, max error 0.25'
err_has "shifted inverse bind" 'shifted_bind.dff: bind-pose check failed: max error 0.25 .* over the tolerance'
one_line "shifted inverse bind"
run 6 inspect --json "$tmp/shifted_bind.dff"
out_has "inspect --json" '"status":[[:space:]]*"FAILED"'
out_has "inspect --json" '"pass":[[:space:]]*false'
run 0 inspect --allow-bind-mismatch "$tmp/shifted_bind.dff"
out_has "--allow-bind-mismatch" 'bind-pose check: FAILED \(allowed by --allow-bind-mismatch\)'
run 1 inspect "$tmp/zero_inverse_bind.dff"
err_has "all-zero inverse bind" 'bones\[1\]: node "B": inverse bind matrix is singular'
if [ $gpu -eq 1 ]; then
  run 6 validate "$tmp/shifted_bind.dff" --instances 3
  err_has "validate, shifted inverse bind" 'bind-pose check failed: '
  out_has "validate, shifted inverse bind" '^FAIL: '
  run 6 validate "$tmp/shifted_bind.dff" --instances 3 --json
  out_has "validate --json" '"bind_check_failed":[[:space:]]*true'
  run 0 validate "$tmp/shifted_bind.dff" --instances 3 --allow-bind-mismatch
  run 0 validate "$tmp/clean.dff" --instances 3
  out_has "validate, clean" 'bind pose .* PASS'
fi

# ---- point 10: weights as stored and what was repaired
run 0 inspect "$tmp/clean.dff"
out_has "clean weights" 'stored weights: sums 1..1, 0 of 5 vertices off 1 by > 1e-3; repaired: none'
run 0 inspect "$tmp/over_one_weight.nif"
out_has "over-one (NIF)" 'stored weights: sums 1..2.5, 1 of 5 .*repaired: 1 renormalised to sum 1'
run 0 inspect --json "$tmp/over_one_weight.nif"
out_has "over-one (NIF) --json" '"max_sum":[[:space:]]*2.5'
out_has "over-one (NIF) --json" '"renormalised":[[:space:]]*1'
run 6 inspect "$tmp/over_one_weight.dff" # RW keeps weights as stored: the bind pose shows it
out_has "over-one (DFF)" 'stored weights: sums 1..2.5, 1 of 5 .*repaired: none'
run 0 inspect "$tmp/over_one_weight.cmdl"
out_has "over-one (.cmdl)" 'sums 1..2, .*repaired: 1 renormalised'
run 0 inspect "$tmp/all_zero_weight.dff"
out_has "all-zero weights" 'sums 0..1, 1 of 5 .*repaired: 1 with no positive weight \(bound to'
run 0 inspect --json "$tmp/all_zero_weight.dff"
out_has "all-zero weights --json" '"all_zero":[[:space:]]*1'
run 0 inspect "$tmp/negative_weight.dff"
out_has "negative weight" 'repaired: 1 with a negative weight \(dropped\)'

# ---- point 11: bones float32 cannot deform are refused, naming the bone
run 1 inspect "$tmp/tiny_bone.cmdl"
err_has "scale 1e-30" 'bones\[[0-9]+\]: node "arm": inverse bind matrix scales by 1e\+30..1e\+30: float32'
one_line "scale 1e-30"
run 1 inspect "$tmp/skewed_bone.cmdl"
err_has "scale (1e-4, 1, 1)" 'node "arm": .*at most 2\^9 apart'
run 0 inspect "$tmp/mild_bone.cmdl"

# ---- point 12: a pose far out is judged at its own scale; a node set twice is an error
char=$src/datasets/char_b24_pl8.dff
echo '{"nodes": [{"index": 1, "translation": [1e38, 0, 0]}]}' > "$tmp/far.json"
if [ $gpu -eq 1 ]; then
  run 0 validate "$char" --pose "$tmp/far.json" --json
  out_has "pose at 1e38" '"scale_max":[[:space:]]*[0-9.]+e\+3[78]'
fi
echo '{"frames": [{"nodes": [{"index": 1, "translation": [1, 0, 0]}, {"index": 1, "scale": [2, 2, 2]}]}]}' > "$tmp/dup.json"
run 1 validate "$char" --pose "$tmp/dup.json"
err_has "duplicate pose entry" 'dup.json:frames\[0\]\.nodes\[1\]: node "[^"]+" already set by frames\[0\]\.nodes\[0\]'

# ---- the most severe exit code of several inputs, whatever their order
run 6 inspect "$tmp/nan_weight.dff" "$tmp/shifted_bind.dff"
run 6 inspect "$tmp/shifted_bind.dff" "$tmp/nan_weight.dff"
run 1 inspect "$tmp/clean.dff" "$tmp/nan_weight.dff"

# ---- help names the code and the flag
run 0 --help
out_has "vkskin --help" '6 bind-pose check failed'
for c in inspect validate; do
  run 0 $c --help
  out_has "$c --help" '--allow-bind-mismatch'
done

# ---- the project's own datasets pass (the README's examples), real samples where present
for f in "$src"/datasets/*.dff "$src"/datasets/*.nif "$src"/datasets/*.cmdl "$src"/datasets/*.p3d; do
  run 0 inspect "$f"
done
if [ $gpu -eq 1 ]; then
  run 0 validate "$src"/datasets/*.dff "$src"/datasets/*.nif --instances 1000 --validation --json
fi
data=${VKSKIN_REAL_DATASETS:-$src/../shared/datasets}
if [ ! -d "$data" ]; then echo "real samples not found: rest skipped"; exit $fail; fi
run 0 inspect "$data/renderware/tube_rw36003.dff"
for f in "$data"/nif/*.nif "$data"/p3d/*.p3d "$data"/p3d/odol/*.p3d; do
  case $(basename "$f") in
  pyffi_20.0.0.5_test_fix_mergeskeletonroots.nif | niftools_bna_4.0.0.2_dance.nif)
    # stored in another pose than their bind pose (tests/unit/test_nif_samples.c)
    run 6 inspect "$f"
    run 0 inspect --allow-bind-mismatch "$f" ;;
  *) run 0 inspect "$f" ;;
  esac
done
[ $fail -eq 0 ] && echo "cli_honest: all checks passed"
exit $fail
