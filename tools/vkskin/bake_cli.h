/* vkskin bake's own parts (cmd_bake.c calls the library's bake_job.h for the rest, the summary
 * table and the JSON report included): the outputs refused when they are inputs (bake_inputs.c,
 * which reads the engine's manifest, src/bake/job_internal.h) and the progress line
 * (bake_progress.c). Private to the program. */
#ifndef VKSKIN_BAKE_CLI_H
#define VKSKIN_BAKE_CLI_H

#include <stdio.h>

#include "bake/job_internal.h"
#include "cli.h"
#include "cli_progress.h"

/* Before any work: refuses (vks_cli_refuse_input, exit 2) every output the run would write
 * in dir (each job's files, sidecars and contact sheets; none with check) and the report, when
 * it is one of the inputs: the manifest, each job's model, model.cfg and clip files, and the
 * shard reports in merge_dir. report and merge_dir may be NULL. */
int vks_cli_bake_refuse_inputs(const vks_bake_manifest *m, const char *dir, const char *report, const char *merge_dir,
                               int check);

/* The progress line (cli_progress.h: lines on stderr over a long run, a bar on a terminal),
 * fed by the run's progress callback (user: a vks_cli_bake_progress). */
typedef struct vks_cli_bake_progress {
    vks_cli_progress line; /* begun at the first update, ended by the final one */
    int line_begun;
} vks_cli_bake_progress;
void vks_cli_bake_progress_update(void *user, const vks_bake_progress_info *p);

#endif
