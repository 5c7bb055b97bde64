/* Clips and crowds across several contexts (--device all or a list): a crowd job (cli_crowd.h)
 * run by the library's split behind the stream (stream.h, SPLIT: vks_stream_run_split,
 * vks_stream_to_bake_split; cli_crowd.c makes the job into its desc), each context running a
 * stream of its own on a thread of its own, with what they deliver reaching the consumer or the
 * bake in the order one context gives, so the results are one device's, bit for bit. */
#ifndef VKSKIN_CLI_CROWD_SPLIT_H
#define VKSKIN_CLI_CROWD_SPLIT_H

#include "cli_crowd.h"
#include "cli_shares.h"

/* What each context did: its instances (delivered, every frame of them). */
enum { VKS_CLI_CROWD_MAX_CONTEXTS = 16 };
typedef struct vks_cli_crowd_split_stats {
    int contexts; /* the contexts the instances were split across (1: the first alone) */
    uint64_t instances[VKS_CLI_CROWD_MAX_CONTEXTS];
    vks_cli_shares shares; /* the same with each context's device, chunks and time */
} vks_cli_crowd_split_stats;

/* " (2 contexts: 12 + 11 instances)" for the run summaries; "" for one context. */
void vks_cli_crowd_split_said(const vks_cli_crowd_split_stats *split, char *out, size_t cap);

/* vks_cli_crowd_run across gpus[k] (models[k] the job's models uploaded there; the job's gpu, ms
 * and clips are ignored: the clips are uploaded on every context here). job->consume is called
 * with the very instances and frames, in the very order, one context's run gives (validate's
 * sums are bound to that order), though a chunk that contexts' runs end inside comes as consecutive pieces, on the thread of whichever context delivered them, one call at a
 * time. st gets the contexts' summed stats, split (may be NULL) what each did. count 1: one context, still on this thread. */
vks_result vks_cli_crowd_run_split(const vks_cli_crowd_job *job, vks_gpu *const *gpus,
                                   const vks_gpu_models *const *models, int count, vks_cli_crowd_stats *st,
                                   vks_cli_crowd_split_stats *split, vks_error *err);

/* vks_cli_crowd_to_bake across the contexts: the bake gets the writes one context makes, so its
 * bytes are the same; memory_bytes (0: 64 MiB) is shared by the contexts' held frames; progress
 * (job->progress) counts every context's poses. */
vks_result vks_cli_crowd_to_bake_split(const vks_cli_crowd_job *job, vks_gpu *const *gpus,
                                       const vks_gpu_models *const *models, int count, vks_bake *bake,
                                       uint64_t memory_bytes, vks_cli_crowd_split_stats *split, vks_error *err);

#endif
