/* bench_host: a host (a CI job's program) measuring this machine's engines through the library
 * alone, as `vkskin bench --json` does, and writing the same JSON report.
 *
 * It reads a model (vks_read_file), opens a GPU context with the validation layer on (timing its
 * creation, which the report gives as the context's), and calls vks_bench_run: the CPU
 * reference, the fast CPU engine on every core and on one core with each kernel this CPU has,
 * then the GPU's kernels, end to end and the device's ceilings. The report goes to OUT.json
 * (through a temporary name and a rename); the lines `vkskin bench` prints go to stdout
 * (vks_bench_write_text), and the run fails
 * where a figure is missing (a rate of 0, no per-core baseline line, nothing consumed).
 * Usage: bench_host OUT.json MODEL [--instances N] [--repeats R] [--no-gpu]
 * Exit: 0 measured, 1 an error or a figure missing, 77 no Vulkan device (without --no-gpu). */
#include <vkskin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned layer_messages;

/* The context's log: validation messages, printed (the test fails on them) and counted. */
static void log_line(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (level <= VKS_LOG_WARNING) {
        fprintf(stderr, "bench_host: %s\n", msg);
        layer_messages++;
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The report to path through a temporary name. */
static int write_report(const vks_bench_result *res, const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    vks_error err = {0};
    int ok = f && vks_bench_write_json(res, f, &err) == VKS_OK;
    ok = f && fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "bench_host: %s: the report could not be written %s\n", path, err.msg);
        remove(tmp);
        return 0;
    }
    return 1;
}

/* The lines `vkskin bench` prints, written by the library; 0 where a figure the run promises is
 * missing. */
static int report(const vks_bench_result *r)
{
    vks_error err = {0};
    int ok = r->ref_rate > 0 && r->fast_rate > 0 && r->per_core[0] > 0;
    if (vks_bench_write_text(r, stdout, &err) != VKS_OK) {
        fprintf(stderr, "bench_host: the text could not be written: %s\n", err.msg);
        return 0;
    }
    if (!r->gpu_ran)
        return ok;
    const vks_bench_gpu_result *g = &r->gpu;
    return ok && g->kernel.steady_ms > 0 && g->plain.steady_ms > 0 && g->end_to_end.steady_ms > 0 &&
           g->consumed_sum != 0;
}

/* The context, or NULL (*rc says why: 77 no device, 1 another failure). */
static vks_gpu *open_gpu(double *ms, int *rc)
{
    vks_gpu_options gopt = {0};
    gopt.validation = 1;
    gopt.logger.func = log_line;
    vks_gpu *gpu = NULL;
    vks_error err = {0};
    double t0 = now_ms();
    vks_result r = vks_gpu_create(&gopt, &gpu, &err);
    *ms = now_ms() - t0;
    if (r != VKS_OK) {
        fprintf(stderr, "bench_host: %s: %s\n", r == VKS_ERR_NO_DEVICE ? "no Vulkan device (skipped)" : "vks_gpu_create",
                err.msg);
        *rc = r == VKS_ERR_NO_DEVICE ? 77 : 1;
    }
    return gpu;
}

int main(int argc, char **argv)
{
    vks_bench_options opt;
    vks_bench_options_init(&opt);
    opt.instances = 16, opt.repeats = 2;
    int no_gpu = 0;
    for (int i = 3; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--instances"))
            opt.instances = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--repeats"))
            opt.repeats = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--no-gpu"))
            no_gpu = 1;
        else
            argc = 0; /* usage */
    }
    if (argc < 3) {
        fprintf(stderr, "usage: bench_host OUT.json MODEL [--instances N] [--repeats R] [--no-gpu]\n");
        return 1;
    }
    vks_error err = {0};
    vks_skin *skin = NULL;
    if (vks_read_file(NULL, argv[2], &skin, &err) != VKS_OK || vks_skin_validate(skin, &err) != VKS_OK) {
        fprintf(stderr, "bench_host: %s: %s\n", argv[2], err.msg);
        vks_skin_free(skin);
        return 1;
    }
    int rc = 0;
    vks_gpu *gpu = no_gpu ? NULL : open_gpu(&opt.context_ms, &rc);
    vks_bench_result *res = rc ? NULL : malloc(sizeof *res);
    if (res && vks_bench_run(gpu, skin, &opt, res, &err) != VKS_OK) {
        fprintf(stderr, "bench_host: vks_bench_run (%s): %s\n", res->failed_step, err.msg);
        rc = 1;
    } else if (res) {
        rc = report(res) && write_report(res, argv[1]) && layer_messages == 0 ? 0 : 1;
    }
    printf("%s (exit %d)\n", rc == 0 ? "MEASURED" : "FAIL", rc);
    free(res);
    vks_gpu_destroy(gpu);
    vks_skin_free(skin);
    return rc;
}
