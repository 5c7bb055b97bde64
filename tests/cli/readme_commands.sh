#!/usr/bin/env bash
# The commands of README.md and docs/*.md run as written (issue 26, item 6; issue 43): every
# fenced shell block (```sh) is run, page by page in README then docs/ order, from a temporary copy of the repository root (datasets/, examples/ and
# tools/ copied, so nothing a command writes lands in the source tree) with the built program as
# build/vkskin and on PATH, and the real samples as ../shared/datasets beside it. Any non-zero
# exit fails, naming the block's line. The files README shows as examples/crowd.json,
# examples/crowd.csv and examples/bake.json must be those files, verbatim. Before, README's
# `validate --crowd crowd.csv` failed: no crowd file shipped.
#   readme_commands.sh VKSKIN SOURCE_DIR
set -uo pipefail
vk=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
real=${VKSKIN_REAL_DATASETS:-$src/../shared/datasets}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

# The blocks not run: a block whose text holds PATTERN is skipped, for the reason given.
skips=(
  "tools/scripts/demo.sh|installs Debian packages as root (network) and builds; test.sh also runs every test, this one included"
  "tools/scripts/gpu_bundle.sh|its run is on another machine, one with a GPU (gpu_bundle runs the bundle here on lavapipe)"
  "sbatch|needs a Slurm cluster (cli_bake_slurm brings up a one-node one)"
  "cmake --install build-lib|a second build of the library, installed into /opt as root (package_install does the same into a temporary prefix)"
  "blender|opens Blender's window: interactive, and Blender is no test dependency"
  "--no-build-isolation ./python|builds the Python package from python/, which the copy lacks (python_venv runs the install)"
)

mkdir -p "$work/repo/build" "$work/shared" "$work/blocks"
cp -r "$src/datasets" "$src/examples" "$src/tools" "$work/repo/" || exit 1
ln -s "$vk" "$work/repo/build/vkskin"
[ -d "$real" ] && ln -s "$(cd "$real" && pwd)" "$work/shared/datasets"
export PATH="$work/repo/build:$PATH"

# each ```sh block into blocks/PAGE-NN_PAGE_LINE.sh (LINE: the fence's line in the page; the
# page's path after the line, / as @); the example files the pages show compared with the files
python3 - "$src" "$work/blocks" <<'PY' || fail=1
import os, sys
src, out = sys.argv[1], sys.argv[2]
pages = ['README.md'] + sorted('docs/' + f for f in os.listdir(os.path.join(src, 'docs')) if f.endswith('.md'))
blocks = []
for p, page in enumerate(pages):
    lines = open(os.path.join(src, page), encoding='utf-8').read().split('\n')
    cur, start, shell = None, 0, False
    for n, line in enumerate(lines, 1):
        if line.startswith('```'):
            if cur is None:
                cur, start, shell = [], n, line[3:].strip() in ('sh', 'bash', 'shell')
            else:
                blocks.append((page, p, start, shell, '\n'.join(cur) + '\n'))
                cur = None
        elif cur is not None:
            cur.append(line)
    if cur is not None:
        sys.exit('%s: the block opened at line %d is never closed' % (page, start))
for page, p, start, shell, text in blocks:
    if shell:
        open(os.path.join(out, '%02d_%05d_%s.sh' % (p, start, page.replace('/', '@'))), 'w').write(text)
bad = 0
for name in ('crowd.json', 'crowd.csv', 'bake.json'):
    text = open(os.path.join(src, 'examples', name), encoding='utf-8').read()
    if not any(t == text for _, _, _, _, t in blocks):
        print('FAIL: no page shows a block equal to examples/%s' % name)
        bad = 1
sys.exit(bad)
PY

"$vk" devices >/dev/null 2>&1
[ $? -eq 4 ] && no_device=1 || no_device=0
ran=0 found=0
for block in "$work"/blocks/*.sh; do
  found=$((found + 1))
  name=$(basename "$block" .sh)           # NN_LINE_PAGE
  page=${name#*_}; line=$((10#${page%%_*})); page=${page#*_}; page=${page//@//}
  why=""
  for s in "${skips[@]}"; do
    grep -qF -- "${s%%|*}" "$block" && { why=${s#*|}; break; }
  done
  if [ -z "$why" ] && grep -qF "../shared/datasets" "$block" && [ ! -d "$work/shared/datasets" ]; then
    why="the real samples (../shared/datasets) are not on this machine"
  fi
  if [ -n "$why" ]; then
    echo "skipped: $page:$line: $why"
    continue
  fi
  (cd "$work/repo" && bash -e -o pipefail "$block") >"$work/log" 2>&1
  rc=$?
  if [ $rc -eq 4 ] && [ $no_device -eq 1 ]; then
    echo "skipped: $page:$line: no Vulkan device on this machine"
  elif [ $rc -ne 0 ]; then
    no "$page:$line: exit $rc from"
    sed 's/^/    /' "$block"
    tail -n 5 "$work/log" | sed 's/^/  > /'
  else
    echo "ran: $page:$line"
    ran=$((ran + 1))
  fi
done
# the extraction found README's blocks (skipped ones count: without a device most are)
[ $found -ge 8 ] || no "only $found shell blocks found: the pages' shell blocks were not found"
[ $ran -ge 1 ] || [ $no_device -eq 1 ] || no "no block ran"
[ $fail -eq 0 ] && echo "readme_commands: $ran blocks ran, every one exited 0"
exit $fail
