/* The bake's blocks reused instead of faulted in again (vks_bake_reuse_memory, bake_job.h). A
 * bake allocates and frees blocks of megabytes per job and per output (frames, texels, half
 * floats, the glTF buffer, the output rooms, the GPU's buffers on lavapipe), from several
 * threads. glibc maps every block over its mmap threshold on its own and unmaps it on free, and
 * each thread allocates from an arena of its own: a freed block came back only as fresh pages,
 * each a page fault (one in six of the all-characters bake's CPU samples were in the kernel's
 * fault path). One arena and no mmap under 32 MiB (glibc's largest threshold) make a freed
 * block the next one; the top of the heap is kept for the next job rather than given back. The
 * peak is what it was: the same blocks are live at once (BENCHMARKS.md, "bake's CPU per byte").
 * A process-wide setting, so the host's choice: `vkskin bake` makes it, the run does not. */
#include "vkskin/bake_job.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void vks_bake_reuse_memory(void)
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}
