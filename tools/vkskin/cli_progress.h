/* Progress of a long run on stderr (cli_progress.c), for validate, bake, deform and render:
 * done/total, the rate and the time left. Lines go to stderr whether or not it is a terminal
 * (CI logs read them too); on a terminal one line is redrawn in place with a bar. Nothing is
 * printed for work that ends within the first interval (2 s; $VKSKIN_PROGRESS_INTERVAL_MS
 * sets it, which is how the tests see lines without a long run), nor with --quiet. Never on
 * stdout: that is the commands' results.
 *
 *   vks_cli_progress p;
 *   vks_cli_progress_begin(&p, "validate", "poses", total);
 *   ... vks_cli_progress_add(&p, n) as work completes (any thread) ...
 *   vks_cli_progress_end(&p);   a last line (100 %) when any was printed
 */
#ifndef VKSKIN_CLI_PROGRESS_H
#define VKSKIN_CLI_PROGRESS_H

#include <pthread.h>
#include <stdint.h>

typedef struct vks_cli_progress {
    const char *what, *unit;
    uint64_t total, done;
    double start, last;    /* seconds (monotonic): the begin, the last line */
    double interval;       /* seconds between lines (a terminal's bar: redrawn more often) */
    int on, tty, printed;
    char detail[160];      /* said after the figures (bake: frames, the job at hand) */
    pthread_mutex_t lock;
} vks_cli_progress;

/* --quiet: no progress from any command of this process. */
void vks_cli_progress_quiet(int quiet);
/* The --quiet row of a command's option table (cli_options.h). */
struct vks_cli_option;
int vks_cli_set_quiet(void *field, const struct vks_cli_option *o, const char *value);
#define VKS_CLI_QUIET_OPTION                                                                                          \
    {"--quiet", 0, NULL, vks_cli_set_quiet, 0, 0, 0,                                                                  \
     "no progress lines (otherwise one on stderr every 2 s of a long run)", NULL}
/* Whether --quiet was given (the split's shares are silenced with the progress). */
int vks_cli_progress_is_quiet(void);
void vks_cli_progress_begin(vks_cli_progress *p, const char *what, const char *unit, uint64_t total);
void vks_cli_progress_add(vks_cli_progress *p, uint64_t n);
/* done so far (not less than before), and what to say after the figures (NULL: as it was). */
void vks_cli_progress_set(vks_cli_progress *p, uint64_t done, const char *detail);
void vks_cli_progress_end(vks_cli_progress *p);

#endif
