/* vkskin bake's own part (cmd_bake.c calls the library's bake_job.h for the rest: the refusal
 * of outputs that are inputs, the summary table, the JSON report, the allocator's reuse): the
 * progress line (bake_progress.c). Private to the program. */
#ifndef VKSKIN_BAKE_CLI_H
#define VKSKIN_BAKE_CLI_H

#include <stdio.h>

#include "bake/job_internal.h"
#include "cli.h"
#include "cli_progress.h"

/* The progress line (cli_progress.h: lines on stderr over a long run, a bar on a terminal),
 * fed by the run's progress callback (user: a vks_cli_bake_progress). */
typedef struct vks_cli_bake_progress {
    vks_cli_progress line; /* begun at the first update, ended by the final one */
    int line_begun;
} vks_cli_bake_progress;
void vks_cli_bake_progress_update(void *user, const vks_bake_progress_info *p);

#endif
