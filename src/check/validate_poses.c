/* The poses validate hands the GPU (the batch's get_locals), a block ahead. The batch asks for
 * one instance's locals at a time, on the thread that also compares the chunks, and a
 * procedural pose costs microseconds: on the H100 host, the 16 characters x 1000 instances
 * spent about a third of validate's time that 16 threads did not shorten asking for them one
 * by one. A miss computes the file's next block of poses on the reference's threads; the batch
 * asks in order, so the rest of the block are hits. The locals are vks_pose_source_locals's,
 * whichever thread computes them, so the GPU gets the same poses. */
#include <stdlib.h>
#include <string.h>

#include "check/validate_engine.h"

/* Poses a block: enough for every thread to take a share worth starting, at most 16 MiB. */
enum { BLOCK_POSES = 4096, BLOCK_BYTES = 16 << 20, SHARE_POSES = 64 };

typedef struct poses_share {
    const vfile *f;
    uint32_t first, count;
    vks_affine *out;
} poses_share;

static void *run_share(void *arg)
{
    const poses_share *s = arg;
    size_t nodes = s->f->skin->node_count;
    for (uint32_t i = 0; i < s->count; i++) {
        uint32_t pose = s->first + i;
        vks_pose_source_locals(s->f->ps.source, s->f->skin, pose / s->f->frames, pose % s->f->frames,
                               s->out + (size_t)i * nodes);
    }
    return NULL;
}

/* Fills c->ahead with poses [pose, pose + n) of f; 0 without memory. */
static int fill(vctx *c, const vfile *f, uint32_t pose)
{
    size_t nodes = f->skin->node_count;
    uint32_t left = f->poses > pose ? f->poses - pose : 1;
    uint32_t n = left < BLOCK_POSES ? left : BLOCK_POSES;
    if ((size_t)n * nodes * sizeof(vks_affine) > BLOCK_BYTES)
        n = (uint32_t)(BLOCK_BYTES / (nodes * sizeof(vks_affine)));
    if (n < 1)
        n = 1;
    vposes_ahead *a = &c->ahead;
    if ((size_t)n * nodes > a->cap) {
        vks_affine *q = realloc(a->locals, (size_t)n * nodes * sizeof *q);
        if (!q)
            return 0;
        a->locals = q, a->cap = (size_t)n * nodes;
    }
    int parts = vks__validate_threads(c->threads);
    if ((uint32_t)parts * SHARE_POSES > n)
        parts = (int)(n / SHARE_POSES) + 1;
    poses_share sh[MAX_REF_THREADS];
    void *args[MAX_REF_THREADS];
    for (int t = 0; t < parts; t++) {
        uint32_t lo = (uint32_t)((uint64_t)n * t / parts), hi = (uint32_t)((uint64_t)n * (t + 1) / parts);
        sh[t] = (poses_share){f, pose + lo, hi - lo, a->locals + (size_t)lo * nodes};
        args[t] = &sh[t];
    }
    vks__validate_parallel(c, parts, run_share, args);
    a->file = f, a->first = pose, a->count = n;
    return 1;
}

void vks__validate_pose_locals(vctx *c, const vfile *f, uint32_t pose, vks_affine *out)
{
    vposes_ahead *a = &c->ahead;
    size_t nodes = f->skin->node_count;
    int hit = a->file == f && pose >= a->first && pose - a->first < a->count;
    if (!hit && !fill(c, f, pose)) { /* no memory for a block: this pose alone, here */
        vks_pose_source_locals(f->ps.source, f->skin, pose / f->frames, pose % f->frames, out);
        return;
    }
    memcpy(out, a->locals + (size_t)(pose - a->first) * nodes, nodes * sizeof *out);
}
