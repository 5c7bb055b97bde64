#!/usr/bin/env bash
# A bake touches each page of its memory about once (vks_bake_reuse_memory, src/bake/job_malloc.c): the blocks it
# frees per job and per output (frames, texels, half floats, the glTF buffer, the output rooms)
# are the next ones it allocates, not unmapped and faulted in again. The all-characters
# manifest on the fast CPU engine: its minor page faults, in pages of 4 KiB, stay under 1.25 x
# its peak resident size (it was 1.5 x, 32,000 faults for an 86 MB peak; 0.98 x after). A count
# of the kernel's, not a time: the same on a loaded machine. The bytes are cli_bake's business.
set -u
vk=$1
pf=$2
src=${VKSKIN_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -r kb faults < <("$pf" --faults "$vk" bake "$src/tools/slurm/all_characters.json" --cpu-fast --out "$tmp/o" --quiet \
    2> "$tmp/err.txt")
rc=${PIPESTATUS[0]}
if ! grep -q 'bake: 16 baked, 0 up to date, 0 failed' "$tmp/err.txt"; then
    echo "FAIL: the bake did not finish its 16 jobs:"; cat "$tmp/err.txt"; exit 1
fi
pages=$(( ${faults:-0} * 4 ))
echo "peak resident size ${kb:-?} KiB, ${faults:-?} minor faults (${pages} KiB faulted in)"
if [ "${kb:-0}" -le 0 ] || [ "$pages" -gt $(( kb * 5 / 4 )) ]; then
    echo "FAIL: ${faults:-?} page faults (${pages} KiB) for a peak of ${kb:-?} KiB: freed blocks are faulted in again"
    exit 1
fi
echo "cli_bake_faults: ok"
