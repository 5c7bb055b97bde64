/* How a run split across several contexts (--device all or a list) shared its work
 * (cli_shares.c prints them): what each context took, in how long, at what rate. deform, validate and
 * bake fill one, for their batches and for clips and crowds alike, print it on stderr after
 * the run (one line a context, silenced by --quiet, never on stdout: that is the results) and
 * put it in their JSON (validate --json, bake --report) as "context_shares".
 *
 *   vkskin validate: context 1/2 on llvmpipe (LLVM 15.0.7, 256 bits): 37 poses in 2 chunks, 0.214 s, 173 poses/s
 *   vkskin bake: context 2/2 on llvmpipe (LLVM 15.0.7, 256 bits): 8 jobs in 3 groups, 1.207 s, 7 jobs/s
 */
#ifndef VKSKIN_CLI_SHARES_H
#define VKSKIN_CLI_SHARES_H

#include <stdint.h>


#include "vkskin/deform_run.h"
#include "vkskin/poser_stream.h"

/* The shares themselves are the library's (deform_run.h: vks_context_shares, filled by the
 * split runs); the program keeps its names for them and prints them. */
enum { VKS_CLI_SHARES_MAX = VKS_SHARES_MAX };
typedef vks_context_share vks_cli_share;
typedef vks_context_shares vks_cli_shares;

static inline void vks_cli_shares_begin(vks_cli_shares *sh, int n, const char *unit, const char *parts)
{
    vks_context_shares_begin(sh, n, unit, parts);
}
static inline void vks_cli_shares_set(vks_cli_shares *sh, int k, const char *device, uint64_t count, uint64_t chunks,
                                      double seconds)
{
    vks_context_shares_set(sh, k, device, count, chunks, seconds);
}

/* One line a context on stderr, "vkskin COMMAND: context k/n on DEVICE: ...", unless --quiet
 * (vks_cli_progress_quiet) or there was no split. */
void vks_cli_shares_print(const vks_cli_shares *sh, const char *command);
/* " (2 contexts: 12 + 11 instances)" for the run summaries; "" for one context. */
void vks_cli_crowd_split_said(const vks_poser_split_stats *split, char *out, size_t cap);

#endif
