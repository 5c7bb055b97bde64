/* vkskin bake's own parts (cmd_bake.c calls the library's bake_job.h for the rest): the
 * allocator's reuse (bake_malloc.c), the progress line, the summary table and the JSON report
 * (bake_progress.c). They read the engine's manifest and results (src/bake/job_internal.h). Private to the program. */
#ifndef VKSKIN_BAKE_CLI_H
#define VKSKIN_BAKE_CLI_H

#include <stdio.h>

#include "bake/job_internal.h"
#include "cli.h"
#include "cli_progress.h"

/* Makes the process's allocator reuse the bake's freed blocks rather than map fresh pages for
 * each (bake_malloc.c); called once, before any thread starts. */
void vks_cli_bake_malloc_reuse(void);

/* The progress line (cli_progress.h: lines on stderr over a long run, a bar on a terminal),
 * fed by the run's progress callback (user: a vks_cli_bake_progress). */
typedef struct vks_cli_bake_progress {
    double start;
    vks_cli_progress line; /* begun at the first update, ended by the final one */
    int line_begun;
} vks_cli_bake_progress;
void vks_cli_bake_progress_update(void *user, const vks_bake_progress_info *p);

/* The summary table of the run's jobs (this shard's). */
void vks_cli_bake_summary(FILE *f, const vks_bake_manifest *m, double seconds);
/* Writes the report JSON (through vks_output); an exit code. shares (may be NULL): what each
 * device of a split took, as "context_shares" (left out without a split); stages (may be
 * NULL) as "stages". */
struct vks_context_shares; /* vks_cli_shares (cli_shares.h) */
int vks_cli_bake_report(const char *path, const vks_bake_manifest *m, const char *engine, const char *shard,
                        double seconds, const struct vks_context_shares *shares, const vks_bake_stages *stages);

#endif
