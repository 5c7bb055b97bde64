/* Following a bake: progress lines (cli_progress.c: jobs done, the rate and the time left, the
 * frames and the job at hand; a bar on a terminal, plain lines in a log, none for a bake of a
 * few seconds), fed by the library's progress callback (bake_job.h). */
#include <stdio.h>

#include "bake_cli.h"

void vks_cli_bake_progress_update(void *user, const vks_bake_progress_info *info)
{
    vks_cli_bake_progress *p = user;
    const char *current = info->current;
    int final = info->final;
    if (!p->line_begun) { /* frames are known only as jobs load: the time left goes by jobs */
        vks_cli_progress_begin(&p->line, "bake", "jobs", info->jobs);
        p->line_begun = 1;
    }
    double el = info->seconds;
    char detail[160];
    snprintf(detail, sizeof detail, "%llu frames, %.0f frames/s%s%.100s", (unsigned long long)info->frames_done,
             el > 0 ? (double)info->frames_done / el : 0, current && *current && !final ? "; " : "",
             final ? "" : current);
    vks_cli_progress_set(&p->line, info->jobs_done, detail);
    if (final) {
        vks_cli_progress_end(&p->line);
        p->line_begun = 0;
    }
}
