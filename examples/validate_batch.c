/* validate_batch: a host program that validates a batch of instances of its characters through
 * the library alone and writes the JSON report (the document `vkskin validate --json` prints).
 *
 * It reads each model (vks_read_file), gives it N instances of F frames of procedural poses
 * (seed S, as `vkskin validate --seed S` gives them), and calls vks_validate_run: the GPU deforms the whole batch, the CPU
 * reference deforms the same poses chunk by chunk as they come back, and every position and
 * normal is compared with the derived tolerances, each model's bind pose checked too. The
 * report goes to OUT.json (written beside it under a temporary name, then renamed, so that a
 * failed run never leaves half a report); the text report `vkskin validate` prints goes to stdout
 * and the JUnit XML (--junit) to its file, both through the library's writers.
 * Usage: validate_batch OUT.json MODEL... [--instances N] [--frames F] [--seed S] [--tolerance-scale K]
 *                      [--sample N] [--readback-check on|off|auto] [--junit FILE]
 * Exit: 0 the batch passed, 3 it failed validation, 1 an error, 77 no Vulkan device. */
#include <vkskin.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The context's log: validation messages, printed so that the test shows them. */
static void log_line(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (level <= VKS_LOG_WARNING)
        fprintf(stderr, "validate_batch: %s\n", msg);
}

/* Progress, as a host would show it: here one line at the end of the run. */
static void progress(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    if (done == total)
        fprintf(stderr, "validate_batch: %llu poses compared\n", (unsigned long long)done);
}

static vks_result write_json(const vks_validate_result *res, FILE *f, vks_error *err)
{
    return vks_validate_write_json(res, f, err);
}

/* Writes a report to path through a temporary name. */
static int write_report(const vks_validate_result *res, const char *path,
                        vks_result (*writer)(const vks_validate_result *, FILE *, vks_error *))
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    vks_error err = {0};
    int ok = f && writer(res, f, &err) == VKS_OK;
    ok = f && fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stderr, "validate_batch: %s: the report could not be written %s\n", path, err.msg);
        remove(tmp);
        return 0;
    }
    return 1;
}

/* What the command line asks; 0 on a bad option. */
typedef struct args {
    uint32_t instances, frames;
    uint64_t seed;
    double scale;
    const char *junit; /* --junit FILE: the JUnit XML too (NULL: none) */
    uint32_t sample;   /* --sample N: the reference compares N instances of each model (0: all) */
    int readback;      /* --readback-check on|off|auto: 1, -1, 0 (vks_validate_options.readback_check) */
} args;

static int parse(int argc, char **argv, args *a, const char **models, int *nmodels)
{
    for (int i = 2; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--instances"))
            a->instances = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--frames"))
            a->frames = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--seed"))
            a->seed = strtoull(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--sample"))
            a->sample = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--readback-check"))
            a->readback = !strcmp(argv[++i], "on") ? 1 : !strcmp(argv[i], "off") ? -1 : 0;
        else if (i + 1 < argc && !strcmp(argv[i], "--junit"))
            a->junit = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--tolerance-scale"))
            a->scale = strtod(argv[++i], NULL);
        else if (argv[i][0] == '-')
            return 0;
        else
            models[(*nmodels)++] = argv[i];
    }
    return *nmodels > 0 && a->instances > 0 && a->frames > 0;
}

int main(int argc, char **argv)
{
    args a = {64, 1, 1, 1.0, NULL, 0, 0};
    int n = 0, rc = 1;
    const char **models = calloc((size_t)argc, sizeof *models);
    if (argc < 3 || !models || !parse(argc, argv, &a, models, &n)) {
        fprintf(stderr, "usage: validate_batch OUT.json MODEL... [--instances N] [--frames F] [--seed S]\n"
                        "                      [--tolerance-scale K] [--sample N]\n"
                        "                      [--readback-check on|off|auto] [--junit FILE]\n");
        return 1;
    }
    /* 1. The models, each with its batch of procedural poses. */
    vks_error err = {0};
    vks_skin **skins = calloc((size_t)n, sizeof *skins);
    vks_validate_input *in = calloc((size_t)n, sizeof *in);
    for (int k = 0; k < n && skins && in; k++) {
        if (vks_read_file(NULL, models[k], &skins[k], &err) != VKS_OK || vks_skin_validate(skins[k], &err) != VKS_OK) {
            fprintf(stderr, "validate_batch: %s: %s\n", models[k], err.msg);
            goto out;
        }
        in[k] = (vks_validate_input){.skin = skins[k], .name = models[k], .instances = a.instances, .frames = a.frames};
        in[k].poses.kind = VKS_POSE_PROCEDURAL, in[k].poses.seed = a.seed;
    }

    /* 2. A GPU context with the validation layer on: its messages fail the run. */
    vks_gpu_options gopt = {0};
    gopt.validation = 1;
    gopt.logger.func = log_line;
    vks_gpu *gpu = NULL;
    vks_result r = vks_gpu_create(&gopt, &gpu, &err);
    if (r == VKS_ERR_NO_DEVICE) {
        fprintf(stderr, "validate_batch: no Vulkan device (skipped): %s\n", err.msg);
        rc = 77;
        goto out;
    }
    if (r != VKS_OK) {
        fprintf(stderr, "validate_batch: vks_gpu_create: %s\n", err.msg);
        goto out;
    }

    /* 3. The validation, and its report. */
    vks_validate_options opt;
    vks_validate_options_init(&opt);
    opt.tolerance_scale = a.scale;
    opt.sample_count = a.sample; /* the rest vouched for by the GPU's reduction of each chunk */
    opt.readback_check = a.readback;
    opt.validation_layer = 1; /* as the context was made: its messages fail the run */
    opt.progress = progress;
    vks_validate_result res;
    r = vks_validate_run(gpu, in, (uint32_t)n, &opt, &res, &err);
    if (r != VKS_OK)
        fprintf(stderr, "validate_batch: vks_validate_run: %s\n", err.msg);
    if (r == VKS_OK) /* what `vkskin validate` prints: per model its streams and bind pose, the verdict */
        vks_validate_write_text(&res, NULL, stdout, stderr, &err);
    vks_validate_report_options said = {.command = "validate_batch"};
    if (r == VKS_OK && write_report(&res, argv[1], write_json) &&
        (!a.junit || vks_validate_write_junit(&res, &said, a.junit, &err) == VKS_OK))
        rc = res.pass ? 0 : res.exit_code ? res.exit_code : 3;
    else if (r == VKS_OK && a.junit && err.code != VKS_OK)
        fprintf(stderr, "validate_batch: %s: the JUnit file could not be written: %s\n", a.junit, err.msg);
    printf("%s (exit %d)\n", rc == 0 ? "PASS" : "FAIL", rc);
    vks_validate_result_free(&res);
    vks_gpu_destroy(gpu);
out:
    for (int k = 0; skins && k < n; k++)
        vks_skin_free(skins[k]);
    free(skins), free(in), free(models);
    return rc;
}
