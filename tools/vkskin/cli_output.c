/* Where the program's outputs go, decided before any work: one name per model that no other
 * model shares, never one of the inputs (cli_inputs.c), a folder that exists and can be
 * written; and the signal handlers that remove temporaries when a run is interrupted. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static void on_fatal_signal(int sig)
{
    vks_output_discard_temporaries(); /* async-signal-safe: unlink of recorded paths */
    signal(sig, SIG_DFL);
    raise(sig); /* die of the same signal, so the caller sees how the run ended */
}

void vks_cli_install_signal_cleanup(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        /* a signal the parent ignores (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void vks_cli_outputs_free(vks_cli_outputs *o)
{
    for (int i = 0; o->paths && i < o->count; i++)
        free(o->paths[i]);
    free(o->paths);
    o->paths = NULL;
    o->count = 0;
}

/* The output of one input among several: "<folder>/<input's file name>.<format>", keeping the
 * input's extension so a.dff and a.nif do not both become a.csv. */
static char *name_in_folder(const char *folder, const char *input, const char *ext)
{
    size_t n = strlen(folder) + strlen(input) + strlen(ext) + 3;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s.%s", folder, folder[strlen(folder) - 1] == '/' ? "" : "/", base_name(input), ext);
    return p;
}

int vks_cli_plan_outputs(const char *out, const char *ext, const char *const *models, int model_count,
                         const vks_cli_inputs *in, vks_cli_outputs *plan)
{
    memset(plan, 0, sizeof *plan);
    int n = model_count, rc = VKS_EXIT_OK;
    plan->paths = calloc((size_t)n, sizeof *plan->paths);
    if (!plan->paths)
        return VKS_EXIT_RUNTIME;
    plan->count = n;
    struct stat st;
    if (n > 1) {
        if (!strcmp(out, "-")) {
            fprintf(stderr, "vkskin: --out - (standard output) takes one input; give a folder for %d\n", n);
            return VKS_EXIT_USAGE;
        }
        int exists = stat(out, &st) == 0;
        if (!exists || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "vkskin: %s: with %d inputs --out names a folder, and %s\n", out, n,
                    exists ? "this is not one" : "it does not exist");
            return VKS_EXIT_RUNTIME;
        }
    }
    for (int f = 0; f < n; f++) {
        plan->paths[f] = n > 1 ? name_in_folder(out, models[f], ext) : strdup(out);
        if (!plan->paths[f])
            return VKS_EXIT_RUNTIME;
    }
    /* two inputs with one file name (x/a.dff, y/a.dff, or one given twice) would write one output */
    char **sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return VKS_EXIT_RUNTIME;
    memcpy(sorted, plan->paths, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, by_name);
    for (int f = 1; f < n && rc == VKS_EXIT_OK; f++)
        if (!strcmp(sorted[f - 1], sorted[f])) {
            const char *first = NULL, *second = NULL;
            for (int g = 0; g < n; g++)
                if (!strcmp(plan->paths[g], sorted[f])) {
                    if (!first)
                        first = models[g];
                    else if (!second)
                        second = models[g];
                }
            fprintf(stderr, "vkskin: inputs %s and %s would both be written to %s; give them different file names\n",
                    first, second ? second : first, sorted[f]);
            rc = VKS_EXIT_USAGE;
        }
    free(sorted);
    for (int f = 0; f < n && rc == VKS_EXIT_OK; f++)
        rc = vks_cli_refuse_input(in, NULL, plan->paths[f]);
    for (int f = 0; f < n && rc == VKS_EXIT_OK; f++) {
        vks_error err = {0};
        if (vks_output_check(plan->paths[f], 0, &err) != VKS_OK) {
            char msg[512];
            /* the hint belongs to this command's --out, not to the library's check */
            if (n == 1 && stat(plan->paths[f], &st) == 0 && S_ISDIR(st.st_mode))
                fprintf(stderr, "vkskin: %s: is a folder; name the output file (--out takes a folder with several "
                                "inputs)\n", plan->paths[f]);
            else
                fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
            rc = VKS_EXIT_RUNTIME;
        }
    }
    return rc;
}
