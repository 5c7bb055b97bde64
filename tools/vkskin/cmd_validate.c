/* vkskin validate FILE... [pose options] [--json] [--device D|all] [--validation]
 *                 [--junit FILE] [--report DIR] [--save-golden DIR | --against DIR]
 *                 [--tolerance-scale K] [--nmse X] [--sample N|P% [--sample-seed S]]
 *                 [--inject-fault remap|weight|matrix|instance[:K]|scale[:K]] [--max-chunk-mb N]
 *                 [--allow-bind-mismatch]
 * Deforms every file's instances on the GPU in one heterogeneous batch and, chunk by chunk as
 * the outputs come back, the same instances on the CPU reference (validate_run.c); prints per
 * file and stream (positions, normals) the max absolute error, the max error relative to the
 * error scale, NMSE, the count over tolerance and the worst vertex and instance. Only a chunk
 * is ever held in memory, so the instance count is bounded by time, not memory.
 *
 * Tolerances (src/check/tolerance.c has the derivation from float32 error bounds):
 * positions |gpu - ref| <= 3e-5 * scale per component, scale = vks_skin_error_scale (bounding
 * radius or the largest bind translation) or, per instance, the larger vks_posed_error_scale
 * (a pose that moves nodes far out makes the engines work with larger numbers), and NMSE <=
 * 1e-9; normals 1e-4 absolute + 1e-5 relative. --tolerance-scale K multiplies the position
 * and normal bounds, --nmse X replaces the NMSE bound; both are printed in every report, and a
 * run that loosens them says so on stderr. Exit 3 when any stream of any file is over
 * tolerance (or the validation layer reported anything with --validation, or a file moved
 * against its golden).
 *
 * The GPU is compared with the reference, so a model that is itself wrong would pass: each
 * file's bind-pose check is a finding too (exit 6, "bind-pose check failed: ..."), unless
 * --allow-bind-mismatch. With several findings (and with --device all, several devices) the
 * exit code is the most severe. The reports (--junit, --report) are written whatever the
 * verdict. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_progress.h"
#include "validate.h"
#include "vkskin/validate.h"

enum { VALIDATE_MAX_THREADS = 64 }; /* the reference's threads (the library's limit) */

/* A bound for --tolerance-scale or --nmse: a finite number >= 0, anything else refused, so that
 * no typo can loosen (or disable) a tolerance. */
static int parse_bound(const char *opt, const char *text, double *out)
{
    char *end = NULL;
    double v = vks_cli_decimal_text(text) ? strtod(text, &end) : NAN;
    if (!end || end == text || *end || !isfinite(v) || v < 0) {
        fprintf(stderr, "vkskin validate: %s: expected a finite number >= 0, got '%s'\n", opt, text);
        return 0;
    }
    *out = v;
    return 1;
}

/* The golden's model hash of a file's bytes (vks_validate_model_hash). */
static int hash_file(const char *path, uint64_t *out)
{
    size_t n = 0;
    uint8_t *b = vks_cli_read_file(path, &n);
    if (!b)
        return 0;
    *out = vks_validate_model_hash(b, n);
    free(b);
    return 1;
}

/* Appends words to a bounded string (the pose spec, the command line). */
static void append_word(char *buf, size_t cap, const char *w)
{
    size_t at = strlen(buf);
    if (at + strlen(w) + 2 < cap)
        snprintf(buf + at, cap - at, "%s%s", at ? " " : "", w);
}

typedef struct vopts {
    int json, allow_mismatch, all_read, nfiles;
    const char *against;
    double tolerance_scale, nmse;
    const vsample *sample; /* --sample (on: a part of the instances compared) */
} vopts;

/* One device's run as the library's JSON writer takes it: the library's device with what only
 * the command knows (inputs it could not read, the heat maps' names are in d->files). */
static void device_result(const vopts *o, vdevice *d, vks_validate_device *out)
{
    *out = d->lib;
    out->tolerance_scale = o->tolerance_scale, out->nmse = o->nmse;
    out->file_count = d->lib.ran ? (uint32_t)o->nfiles : 0;
    for (uint32_t f = 0; f < out->file_count; f++)
        d->files[f].heatmap = d->heatmaps[f], d->files[f].heatmap_missing = d->heatmap_missing[f];
    out->inputs_not_read = !o->all_read;
    out->sampled = o->sample->on, out->sample_percent = o->sample->percent;
    out->sample_count = o->sample->count, out->sample_seed = o->sample->seed;
    out->share_unit = d->shares.unit, out->share_count = d->shares.contexts > 0 ? (uint32_t)d->shares.contexts : 0;
    for (int k = 0; k < d->shares.contexts && k < VKS_VALIDATE_MAX_CONTEXTS && k < VKS_CLI_SHARES_MAX; k++) {
        memcpy(out->shares[k].device, d->shares.s[k].device, sizeof out->shares[k].device);
        out->shares[k].count = d->shares.s[k].count, out->shares[k].chunks = d->shares.s[k].chunks;
        out->shares[k].seconds = d->shares.s[k].seconds;
    }
}

/* One device's results into jd (what the library's writers take), and why it failed on stderr
 * as it ends; the text on stdout comes with the verdict over every device (print_text). */
static void report_device(const vopts *o, vdevice *d, vks_validate_device *jd)
{
    device_result(o, d, jd);
    if (!d->lib.ran)
        return;
    vks_validate_write_device_text(jd, o->against, NULL, stderr, NULL);
    vks_cli_shares_print(&d->shares, "validate"); /* stderr: what each context of a split took */
}

/* What vkskin validate's command line says. */
typedef struct vcmd {
    vks_cli_pose pose;
    vks_read_options ropt;
    vks_cli_gpu_opts gopt;
    vopts vo;
    vreport_opts ro;
    const char *save_golden;
    char **paths;
    int npaths, threads;
    int each; /* --each: every device of the list validates all the work, reported apart */
    vsample sample; /* --sample N|P%, --sample-seed S */
    int readback_check; /* --readback-check: 0 auto, 1 on, -1 off */
    vks_validate_golden *golden; /* --save-golden or --against */
    char spec[2048], command[4096];
} vcmd;

static int set_bound(void *field, const vks_cli_option *o, const char *v)
{
    return parse_bound(o->name, v, field);
}

static int set_readback_check(void *field, const vks_cli_option *o, const char *m)
{
    (void)o;
    if (strcmp(m, "auto") && strcmp(m, "on") && strcmp(m, "off")) {
        fprintf(stderr, "vkskin validate: --readback-check needs auto, on or off\n");
        return 0;
    }
    *(int *)field = !strcmp(m, "on") ? 1 : !strcmp(m, "off") ? -1 : 0;
    return 1;
}

static int set_threads(void *field, const vks_cli_option *o, const char *v)
{
    uint32_t n = 0;
    if (!vks_cli_store_u32(&n, o, v))
        return 0;
    *(int *)field = (int)n;
    return 1;
}

#define AT(field) offsetof(vcmd, field)
static const vks_cli_option validate_options[] = {
    {"--json", 0, NULL, vks_cli_store_flag, AT(vo.json), 0, 0, "machine-readable output on stdout", NULL},
    {"--each", 0, NULL, vks_cli_store_flag, AT(each), 0, 0,
     "with --device all or a list: validate the same work on each device in turn, each reported on its own",
     "the exit code is the worst. Without --each, a list splits the instances across the devices (a context each, "
     "a number may repeat), clips and crowds too; one verdict, identical to one device's"},
    {"--allow-bind-mismatch", 0, NULL, vks_cli_store_flag, AT(vo.allow_mismatch), 0, 0,
     "report a failed bind-pose check without failing", "files known not to be stored in their bind pose"},
    {"--threads", 0, "N", set_threads, AT(threads), 1, VALIDATE_MAX_THREADS,
     "the CPU reference and the comparison on N threads (default: every core)",
     "the results are the same, bit for bit, for any N"},
    VKS_CLI_QUIET_OPTION,
    {"--readback-check", 0, "M", set_readback_check, AT(readback_check), 0, 0,
     "the GPU reduces each chunk and the host checks what it read back against it (exit 5 on a difference)",
     "auto (default) where chunks come through a copy, not where they are read in place (CPU devices, integrated "
     "GPUs); on: always; off: never"},
    {"--junit", 0, "FILE", vks_cli_store_string, AT(ro.junit), 0, 0,
     "JUnit XML (Jenkins, GitLab): a test case per file x stream x device and per file's bind-pose check",
     "metrics in the messages"},
    {"--report", 0, "DIR", vks_cli_store_string, AT(ro.report_dir), 0, 0,
     "an HTML report DIR/index.html: summary per device and file, error histograms, a heat map of each file's "
     "worst instance and a three.js view of it",
     "three.min.js beside the page; $VKSKIN_THREE_JS names it"},
    {"--save-golden", 0, "DIR", vks_cli_store_string, AT(save_golden), 0, 0,
     "store the GPU results (DIR/<k>.raw) and what made them (golden.json)", NULL},
    {"--against", 0, "DIR", vks_cli_store_string, AT(vo.against), 0, 0,
     "deform again and compare with a stored golden by the same metrics and tolerances; names the vertices that "
     "moved",
     NULL},
    {"--tolerance-scale", 0, "K", set_bound, AT(vo.tolerance_scale), 0, 0,
     "multiply the position and normal tolerances by K >= 0 (default 1)", NULL},
    {"--nmse", 0, "X", set_bound, AT(vo.nmse), 0, 0, "the NMSE bound of every stream (default 1e-9)", NULL},
    {"--sample", 0, "N|P%", vks_validate_sample_set, AT(sample), 0, 0,
     "compare N (or P percent) of each file's instances with the reference, chosen by --sample-seed and named in "
     "the reports",
     "the GPU reduces every chunk and each is held to a bound the host computes for all its instances (no NaN or "
     "Inf, positions inside their bones' boxes, unit normals where renormalised). Default: every instance"},
    {"--sample-seed", 0, "S", vks_validate_sample_set, AT(sample), 0, 0, "the seed of --sample's choice (default 41)",
     NULL},
};
#undef AT
static const vks_cli_group validate_group = VKS_CLI_GROUP("options", validate_options);
/* the pose and read options (groups 1 and 2) make the poses: a golden must match them */
enum { VALIDATE_POSE_GROUP = 1, VALIDATE_READ_GROUP = 2 };
static const vks_cli_group *const validate_groups[] = {&validate_group, &vks_cli_pose_options, &vks_cli_read_options,
                                                       &vks_cli_gpu_options, NULL};

const vks_cli_command vks_cli_cmd_validate = {
    .name = "validate",
    .summary = "deform on the GPU and the CPU reference and compare",
    .synopsis = "FILE... [--instances N --seed S | --pose FILE | --clip FILE[#name]\n"
                "--instances N [--stagger] | --crowd FILE] [--frames F --fps R] [--time T]\n"
                "[--json] [--device N|NAME|all|N,M,...] [--each] [--validation] [--max-chunk-mb N]\n"
                "[--threads N] [--quiet] [--readback-check auto|on|off]\n"
                "[--junit FILE] [--report DIR] [--save-golden DIR | --against DIR]\n"
                "[--tolerance-scale K] [--nmse X] [--sample N|P% [--sample-seed S]]\n"
                "[--inject-fault remap|weight|matrix|instance[:K]|scale[:K]] [--allow-bind-mismatch]",
    .description =
        "Deforms on the GPU and on the CPU reference and compares, per file and stream, and checks that each model "
        "reproduces its stored vertices in its bind pose. With clips the GPU samples them itself (a crowd per chunk "
        "of instances, run at each frame's time: --time T + f / --fps) and the CPU reference samples the same keys "
        "in double. --validation enables the Khronos validation layer: any message fails.",
    .epilogue =
        "Tolerances: positions 3e-5 x error scale per component (the model's scale, or the posed instance's when "
        "larger) and NMSE <= 1e-9; normals 1e-4 absolute + 1e-5 relative (reasoning in src/check/tolerance.c). The "
        "bind-pose check uses the position tolerance.\nexit codes: 0 pass, 1 bad input, 2 usage, 3 validation "
        "failed, 4 no Vulkan device, 5 runtime, 6 bind-pose check failed; with several findings, the most severe",
    .groups = validate_groups,
    .run = vks_cmd_validate,
};

/* Keeps the command line (the reports say it) and the words that make the poses (a golden
 * holds them and --against compares them). */
static void remember_words(void *user, int group, char **words, int count)
{
    vcmd *v = user;
    for (int k = 0; k < count; k++) {
        append_word(v->command, sizeof v->command, words[k]);
        if (group == VALIDATE_POSE_GROUP || group == VALIDATE_READ_GROUP)
            append_word(v->spec, sizeof v->spec, words[k]);
    }
}

/* Fills v from argv; returns -1 to go on, else the exit code (--help, a usage error). */
static int parse_args(vcmd *v, int argc, char **argv)
{
    int parsed = vks_cli_parse(&vks_cli_cmd_validate, (void *[]){v, &v->pose, &v->ropt, &v->gopt}, argc, argv,
                               &v->npaths, remember_words, v);
    for (int k = 0; k < v->npaths; k++) /* the operands, moved to argv[1..] */
        v->paths[k] = argv[1 + k];
    return parsed;
}

/* The options that do not go together; VKS_EXIT_OK when none. */
static int check_args(const vcmd *v)
{
    if (!v->npaths && !v->pose.o.crowd) {
        fprintf(stderr, "vkskin validate: needs at least one FILE (or --crowd FILE)\n");
        vks_cli_help(stderr, &vks_cli_cmd_validate);
        return VKS_EXIT_USAGE;
    }
    if (v->save_golden && v->vo.against) {
        fprintf(stderr, "vkskin validate: --save-golden and --against: one run stores a golden or compares with one\n");
        return VKS_EXIT_USAGE;
    }
    if (v->sample.on && (v->save_golden || v->pose.o.clip || v->pose.o.crowd ||
                         (!v->each && vks_device_spec_is_list(v->gopt.device)))) {
        fprintf(stderr, "vkskin validate: --sample compares a part of the instances of one device's batch: not "
                        "with --save-golden (a golden holds every instance), clips or crowds, or a device list "
                        "without --each (not yet)\n");
        return VKS_EXIT_USAGE;
    }
    if (v->save_golden && v->each && vks_device_spec_is_list(v->gopt.device)) {
        fprintf(stderr, "vkskin validate: --save-golden stores one run's results: not with --each\n");
        return VKS_EXIT_USAGE;
    }
    return VKS_EXIT_OK;
}

/* Reads, poses and bind-checks the models into files (an input that cannot be read or posed is
 * reported and left out; *nfiles counts those read). Returns the worst exit so far; *stop is
 * set when the run cannot go on. */
static int read_files(const vcmd *v, vinput *files, vks_poser *posers, int *nfiles, int rc, int *stop)
{
    for (int p = 0; p < v->npaths; p++) {
        vinput *vf = &files[*nfiles];
        vks_poser *ps = &posers[*nfiles];
        vf->path = v->pose.plan.models[p];
        if (!(vf->skin = vks_cli_load_skin(vf->path, &v->ropt))) {
            rc = vks_cli_worse_exit(rc, VKS_EXIT_INPUT);
            continue;
        }
        vks_cli_pose po = v->pose; /* the batch and the reference take a pose file's morph
                                      weights, the crowd (sampled on the GPU) and the reference
                                      the clips' */
        po.plan.options.plays_morph_weights = 1;
        if (vks_poser_init(ps, vf->skin, &po.plan, (uint32_t)p, NULL) != VKS_OK || !hash_file(vf->path, &vf->hash)) {
            vks_poser_free(ps);
            vks_skin_free(vf->skin);
            vf->skin = NULL;
            rc = vks_cli_worse_exit(rc, VKS_EXIT_INPUT);
            continue;
        }
        (*nfiles)++;
        vf->bind_exit = vks_cli_bind_check(vf->path, vf->skin, v->vo.allow_mismatch, &vf->bind);
        vf->bind_promised = vks_bind_promised(vf->skin);
        if (vf->bind_exit == VKS_EXIT_RUNTIME) {
            *stop = 1;
            return VKS_EXIT_RUNTIME;
        }
        rc = vks_cli_worse_exit(rc, vf->bind_exit);
        vf->frames = ps->frames;
        uint64_t n = (uint64_t)ps->instances * vf->frames;
        if (n > UINT32_MAX) {
            fprintf(stderr, "vkskin validate: %llu poses is too many\n", (unsigned long long)n);
            *stop = 1;
            return VKS_EXIT_USAGE;
        }
        vf->poses = (uint32_t)n;
    }
    return rc;
}

/* Prints the JSON report of devices [0, n) on stdout (the library's writer); rc the run's verdict. */
static void print_json(const vopts *vo, vks_validate_device *devs, uint32_t n, int rc)
{
    vks_validate_result r = {devs, n, vo->tolerance_scale, vo->nmse, rc, rc == VKS_EXIT_OK, NULL};
    vks_error err = {0};
    char msg[512];
    if (vks_validate_write_json(&r, stdout, &err) != VKS_OK)
        fprintf(stderr, "vkskin validate: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
}

/* Prints the text report of devices [0, n) on stdout (the library's words); rc the verdict. */
static void print_text(const vopts *vo, vks_validate_device *devs, uint32_t n, int rc)
{
    vks_validate_result r = {devs, n, vo->tolerance_scale, vo->nmse, rc, rc == VKS_EXIT_OK, NULL};
    vks_validate_write_text(&r, vo->against, stdout, NULL, NULL);
}

/* The library's options as the command line gives them. An explicit 0 (the strictest bound)
 * goes as -1: the library reads 0 as "the default", below 0 as zero. */
static vks_validate_options run_options(const vcmd *v)
{
    vks_validate_options o;
    vks_validate_options_init(&o);
    o.tolerance_scale = v->vo.tolerance_scale > 0 ? v->vo.tolerance_scale : -1;
    o.nmse = v->vo.nmse > 0 ? v->vo.nmse : -1;
    o.allow_bind_mismatch = v->vo.allow_mismatch;
    o.readback_check = v->readback_check;
    o.threads = v->threads;
    o.validation_layer = v->gopt.validation;
    o.golden = v->golden;
    if (v->sample.on) {
        o.sample_count = v->sample.percent > 0 ? 0 : v->sample.count;
        o.sample_percent = v->sample.percent, o.sample_seed = v->sample.seed;
    }
    /* Chunks of at most 32 MiB a stream unless --max-chunk-mb says: the host compares chunk k
       while the GPU deforms chunk k + 1, which overlaps only over several chunks (a run of two
       waits for the first whole), and progress comes a chunk at a time. The results do not
       depend on the chunks. */
    o.max_chunk_bytes = v->gopt.max_chunk_bytes ? v->gopt.max_chunk_bytes : (uint64_t)32 << 20;
    return o;
}

/* Validates on each of the ndev devices (dev_ids; nsplit > 1: one run split across the
 * contexts of the list) into devs and jd (each one's results as the library's writers take
 * them) and prints them, then the verdict over all of them. Returns rc made worse by the runs. */
static int run_devices(const vcmd *v, const vopts *vo, vinput *files, vks_poser *posers, int nfiles, vdevice *devs,
                       vks_validate_device *jd, int ndev, char dev_ids[][16], int nsplit, int rc)
{
    int worst = VKS_EXIT_OK;
    for (int k = 0; k < ndev; k++) {
        vrun run = {0};
        run.files = files, run.posers = posers, run.nfiles = nfiles, run.pose = &v->pose, run.gopt = v->gopt;
        run.gopt.render = v->ro.report_dir != NULL; /* the heat maps are drawn on the device that ran */
        if (dev_ids[k][0])
            run.gopt.device = dev_ids[k];
        run.split = (const char(*)[16])dev_ids, run.nsplit = nsplit;
        run.opt = run_options(v);
        run.report_dir = v->ro.report_dir, run.device_number = k;
        worst = vks_cli_worse_exit(worst, vks_validate_on_device(&run, &devs[k]));
        report_device(vo, &devs[k], &jd[k]);
        if (vo->json && ndev == 1)
            print_json(vo, &jd[k], 1, rc);
    }
    rc = vks_cli_worse_exit(rc, worst);
    if (vo->json && ndev > 1)
        print_json(vo, jd, (uint32_t)ndev, rc);
    else if (!vo->json)
        print_text(vo, jd, (uint32_t)ndev, rc);
    return rc;
}

/* No report or golden file may be one of the inputs: checked before any model is read. */
static int refuse_inputs(vcmd *v)
{
    vks_output_inputs in = {0};
    vks_cli_inputs_add_run(&in, &v->pose, &v->ropt);
    if (v->vo.against)
        vks_golden_add_inputs(v->vo.against, &in);
    int rc = vks_validate_reports_refuse_inputs(&v->ro, &in);
    if (rc == VKS_EXIT_OK && v->save_golden)
        rc = vks_golden_refuse_inputs(v->save_golden, v->npaths, &in);
    vks_output_inputs_free(&in);
    return rc;
}

/* The devices --device names: ndev runs (each one's id in dev_ids, "" for --device as given),
 * or with a list and no --each one run split across *nsplit contexts. VKS_EXIT_OK or the code. */
static int plan_devices(const vcmd *v, char dev_ids[][16], int *ndev, int *nsplit)
{
    const char *single = NULL;
    int planned = vks_cli_gpu_devices(v->gopt.device, dev_ids, &single, ndev);
    if (planned == VKS_EXIT_OK && single)
        dev_ids[0][0] = 0; /* "": --device as given (NULL: the best) */
    *nsplit = 0; /* without --each the list is one run split across its contexts */
    if (planned == VKS_EXIT_OK && !single && !v->each)
        *nsplit = *ndev, *ndev = 1;
    return planned;
}

/* The golden the run stores into or compares with (--save-golden, --against). */
static int begin_golden(vcmd *v, const vinput *files, int nfiles)
{
    if (v->save_golden)
        return vks_golden_begin_save(v->save_golden, files, nfiles, &v->golden);
    if (v->vo.against)
        return vks_golden_begin_against(v->vo.against, files, nfiles, v->spec, &v->golden);
    return VKS_EXIT_OK;
}

/* After the devices: the golden stored, the reports written (whatever the verdict). */
static int finish_run(vcmd *v, vks_validate_device *jd, int ndev, int rc)
{
    if (v->save_golden) {
        const char *engine = v->pose.plan.clips ? "gpu crowd (clips sampled in the pose pass)" : "gpu batch";
        rc = vks_cli_worse_exit(rc, vks_golden_finish_save(v->save_golden, v->golden, v->spec, engine, jd[0].name,
                                                           jd[0].ran));
    }
    if (v->ro.junit || v->ro.report_dir) {
        v->ro.against = v->vo.against, v->ro.command = v->command;
        vks_validate_result r = {jd, (uint32_t)ndev, v->vo.tolerance_scale, v->vo.nmse, rc, rc == VKS_EXIT_OK, NULL};
        rc = vks_cli_worse_exit(rc, vks_validate_reports(&v->ro, &r));
    }
    return rc;
}

/* Parses, checks and loads what the command line names; -1 to go on, else the exit code. */
static int begin_command(vcmd *v, int argc, char **argv)
{
    int parsed = parse_args(v, argc, argv), rc;
    if (parsed >= 0)
        return parsed;
    if ((rc = check_args(v)) != VKS_EXIT_OK || (rc = vks_cli_pose_check(&v->pose)) != VKS_EXIT_OK ||
        (rc = vks_cli_anim_load(&v->pose, v->paths, v->npaths, &v->ropt)) != VKS_EXIT_OK)
        return rc;
    if (v->vo.tolerance_scale > 1.0 || v->vo.nmse > vks_diff_default_tolerance().nmse)
        fprintf(stderr, "vkskin validate: note: tolerances loosened: %g x the derived bounds, NMSE <= %g (default 1, "
                        "1e-9)\n",
                v->vo.tolerance_scale, v->vo.nmse);
    v->npaths = (int)v->pose.plan.model_count; /* with --crowd, the models it names too */
    rc = refuse_inputs(v);
    return rc != VKS_EXIT_OK ? rc : -1;
}

int vks_cmd_validate(int argc, char **argv)
{
    vcmd cmd = {0}, *v = &cmd;
    vks_cli_pose_defaults(&v->pose);
    v->sample.seed = VKS_SAMPLE_DEFAULT_SEED;
    v->vo.tolerance_scale = 1.0, v->vo.nmse = vks_diff_default_tolerance().nmse;
    snprintf(v->command, sizeof v->command, "vkskin validate");
    vopts *vo = &v->vo;
    int nfiles = 0, rc = VKS_EXIT_OK, ndev = 0, nsplit = 0, stop = 0;
    v->paths = calloc((size_t)argc, sizeof *v->paths);
    vinput *files = NULL;         /* the inputs that could be read */
    vks_poser *posers = NULL; /* their poses */
    vdevice *devs = NULL;
    vks_validate_device *jd = NULL; /* each device's results as the library's writers take them */
    char dev_ids[VKS_CLI_MAX_DEVICES][16];
    if (!v->paths || (rc = begin_command(v, argc, argv)) >= 0) {
        rc = v->paths ? rc : VKS_EXIT_RUNTIME;
        goto out;
    }
    rc = VKS_EXIT_OK;
    files = calloc((size_t)v->npaths + 1, sizeof *files);
    posers = calloc((size_t)v->npaths + 1, sizeof *posers);
    if (!files || !posers) {
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    /* An input that cannot be read (or posed) is reported and left out; the others are still
       validated, and the exit code is the most severe of all. */
    rc = read_files(v, files, posers, &nfiles, rc, &stop);
    vo->nfiles = nfiles, vo->all_read = nfiles == v->npaths, vo->sample = &v->sample;
    if (stop || !nfiles)
        goto out; /* nothing could be read: each input's error is printed */
    int planned = VKS_EXIT_OK;
    if ((v->ro.report_dir && vks_validate_make_dir("--report", v->ro.report_dir) != VKS_EXIT_OK) ||
        (planned = plan_devices(v, dev_ids, &ndev, &nsplit)) != VKS_EXIT_OK ||
        (planned = begin_golden(v, files, nfiles)) != VKS_EXIT_OK || !(devs = calloc((size_t)ndev, sizeof *devs)) ||
        !(jd = calloc((size_t)ndev, sizeof *jd))) {
        rc = vks_cli_worse_exit(rc, planned != VKS_EXIT_OK ? planned : VKS_EXIT_RUNTIME);
        goto out;
    }
    rc = run_devices(v, vo, files, posers, nfiles, devs, jd, ndev, dev_ids, nsplit, rc);
    rc = finish_run(v, jd, ndev, rc);
out:
    for (int k = 0; devs && k < ndev; k++)
        vks_validate_device_free(&devs[k], nfiles);
    free(devs), free(jd);
    vks_validate_golden_free(v->golden);
    for (int f = 0; files && f < nfiles; f++)
        if (files[f].skin) {
            vks_poser_free(&posers[f]);
            vks_skin_free(files[f].skin);
        }
    free(files), free(posers), free(v->paths);
    vks_pose_plan_free(&v->pose.plan);
    return rc;
}
