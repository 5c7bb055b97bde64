/* Poses deformed chunk by chunk and written to a bake output (deform_chunks.c): the path of
 * vkskin deform, and of vkskin bench --end-to-end, which times it. */
#ifndef VKSKIN_DEFORM_CHUNKS_H
#define VKSKIN_DEFORM_CHUNKS_H

#include "cli.h"

typedef struct vks_cli_chunks {
    const vks_skin *skin;
    vks_bake *bake;
    uint32_t frames; /* pose p is instance p / frames, frame p % frames */
    uint64_t total;  /* poses */
    /* Fills the node_count locals of each pose of [first, first + n) into out. */
    void (*locals)(void *user, uint64_t first, uint32_t n, vks_affine *out);
    /* Deforms the chunk whose first pose is first into the job's outputs. */
    vks_result (*deform)(void *user, uint64_t first, const vks_deform_job *job, vks_error *err);
    void *user;
    const char *progress; /* non-NULL: "vkskin: PROGRESS: P of T poses" on stderr every 2 s */
    double engine_s;      /* out: seconds spent in deform */
} vks_cli_chunks;

/* Chunks of poses whose outputs fit in about 64 MiB, two buffer sets made (and their pages
 * touched) once: the engine deforms chunk k + 1 into one while a thread of its own writes
 * chunk k from the other, so the engine and the disk overlap. Does not close the bake. */
vks_result vks_cli_chunks_run(vks_cli_chunks *c, vks_error *err);

#endif
