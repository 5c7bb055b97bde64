/* The program's side of the rule of every output (the rule is the library's,
 * vkskin/output_plan.h): what a posed run reads, refusals printed and made exit codes; and the
 * signal handlers that remove temporaries when a run is interrupted (a library installs none). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

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

const vks_logger vks_cli_output_log = {vks_log_stderr, NULL};

int vks_cli_output_exit(vks_result r)
{
    return r == VKS_OK ? VKS_EXIT_OK : r == VKS_ERR_INVALID ? VKS_EXIT_USAGE : VKS_EXIT_RUNTIME;
}

void vks_cli_inputs_add_model(vks_output_inputs *in, const char *path, const vks_read_options *ro, const char *label)
{
    vks_read_options find = ro ? *ro : (vks_read_options){0};
    find.file.max_size = vks_cli_max_input_bytes;
    vks_output_inputs_add_model(in, path, &find, label);
}

void vks_cli_inputs_add_run(vks_output_inputs *in, const vks_cli_pose *p, const vks_read_options *ro)
{
    for (uint32_t m = 0; m < p->plan.model_count; m++)
        vks_cli_inputs_add_model(in, p->plan.models[m], ro, "the model");
    if (ro && ro->p3d.model_cfg_name)
        vks_output_inputs_add(in, ro->p3d.model_cfg_name, "the --model-cfg file");
    vks_output_inputs_add(in, p->o.pose_file, "the pose file");
    int n = 0;
    const char **files = vks_pose_plan_inputs(&p->plan, &n); /* the crowd file first, then the clip files */
    if (!files && (p->o.crowd || p->plan.clips))
        in->nomem = 1;
    for (int k = 0; k < n; k++)
        vks_cli_inputs_add_model(in, files[k], ro, k == 0 && p->o.crowd ? "the crowd file" : "the clip file");
    free(files);
}

int vks_cli_refuse_input(const vks_output_inputs *in, const char *option, const char *out)
{
    return vks_cli_output_exit(vks_output_refuse_input(in, option, out, &vks_cli_output_log, NULL));
}

int vks_cli_refuse_input_like(const vks_output_inputs *in, const char *option, const char *dir, const char *prefix,
                              const char *suffix)
{
    return vks_cli_output_exit(vks_output_refuse_input_like(in, option, dir, prefix, suffix, &vks_cli_output_log,
                                                            NULL));
}
