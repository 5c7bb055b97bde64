/* How a split run shared its work, said on stderr and in JSON (cli_shares.h). */
#include "cli_shares.h"

#include <stdio.h>
#include <string.h>

#include "cli_progress.h"

static double rate(const vks_cli_share *s)
{
    return s->seconds > 0 ? (double)s->count / s->seconds : 0;
}

/* "chunks" or "groups": said in the singular by leaving off the s. */
static const char *parts(const vks_cli_shares *sh)
{
    return sh->parts ? sh->parts : "chunks";
}

void vks_cli_shares_print(const vks_cli_shares *sh, const char *command)
{
    if (!sh || sh->contexts < 2 || vks_cli_progress_is_quiet())
        return;
    for (int k = 0; k < sh->contexts && k < VKS_CLI_SHARES_MAX; k++) {
        const vks_cli_share *s = &sh->s[k];
        fprintf(stderr, "vkskin %s: context %d/%d on %s: %llu %s in %llu %.*s, %.3f s, %.0f %s/s\n", command, k + 1,
                sh->contexts, s->device[0] ? s->device : "?", (unsigned long long)s->count, sh->unit,
                (unsigned long long)s->chunks, (int)strlen(parts(sh)) - (s->chunks == 1), parts(sh), s->seconds,
                rate(s), sh->unit);
    }
}

void vks_cli_crowd_split_said(const vks_poser_split_stats *said, char *out, size_t cap)
{
    size_t n = 0;
    if (cap)
        out[0] = 0;
    if (said->contexts < 2 || !cap)
        return;
    n += (size_t)snprintf(out, cap, " (%d contexts: ", said->contexts);
    for (int k = 0; k < said->contexts && n < cap; k++)
        n += (size_t)snprintf(out + n, cap - n, "%s%llu", k ? " + " : "", (unsigned long long)said->instances[k]);
    if (n < cap)
        snprintf(out + n, cap - n, " instances)");
}
