/* vkskin tune [FILE] [--vertices V --bones B --influences K --instances N --repeats P]
 *             [--candidate SPEC ...] [--no-store] [--json] [--device N|NAME] [--validation]
 * The calibration of launch shapes (vks_gpu_tune): times each candidate's deform pass on the
 * device at hand, prints the table of candidates with their rates, and stores the fastest in
 * the cache so later contexts on this device and driver start with it (README: Launch shapes). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "cli.h"
#include "cli_gpu.h"

#define MAX_CANDIDATES VKS_GPU_TUNE_MAX

static void help(FILE *f)
{
    fprintf(f, "usage: vkskin tune [FILE] [--vertices V] [--bones B] [--influences K] [--instances N]\n"
               "                   [--repeats P] [--candidate SPEC]... [--no-store] [--json]\n"
               "                   [--device N|NAME] [--validation]\n\n"
               "Times the deform pass of each candidate launch shape on the device (timestamp queries,\n"
               "median of P runs after a first one; default 3) on FILE or a generated character (default\n"
               "10000 vertices, 32 bones, 4 influences) with N instances (default 256), prints the\n"
               "candidates with their rates, and stores the fastest in the cache\n"
               "($XDG_CACHE_HOME/vkskin, else ~/.cache/vkskin), keyed by device, driver and vkskin\n"
               "version: later runs on this device and driver start with it (bench and devices --json say\n"
               "so: source \"cache\"). --no-store only prints. --candidate SPEC (repeatable; up to %d)\n"
               "replaces the built-in list: the table's shapes and the GPU shapes (SPEC as\n"
               "--launch-shape, README: Launch shapes).\n"
               "On a device the tuning table does not know, deform, validate and bench run the same\n"
               "calibration by themselves before a first batch large enough to repay it (at least 16x\n"
               "the calibration's own vertex-instances and 2^26) and store the winner the same way;\n"
               "VKSKIN_NO_CALIBRATE=1 turns that off. vkskin devices says which shape a run starts with.\n",
            MAX_CANDIDATES);
}

typedef struct tune_opts {
    vks_gen_params gp;
    uint32_t instances, repeats;
    const char *candidates[MAX_CANDIDATES];
    uint32_t candidate_count;
    int json, no_store;
    const char *file;
    vks_cli_gpu_opts gopt;
    vks_read_options ropt;
} tune_opts;

enum { TUNE_GO_ON = -1 };

static int parse(int argc, char **argv, tune_opts *o)
{
    memset(o, 0, sizeof *o);
    o->gp.vertices = 10000, o->gp.bones = 32, o->gp.max_influences = 4;
    o->instances = 256, o->repeats = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int t;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return VKS_EXIT_OK;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--no-store")) {
            o->no_store = 1;
        } else if (!strcmp(a, "--candidate") && i + 1 < argc) {
            if (o->candidate_count == MAX_CANDIDATES) {
                fprintf(stderr, "vkskin tune: at most %d --candidate\n", MAX_CANDIDATES);
                return VKS_EXIT_USAGE;
            }
            o->candidates[o->candidate_count++] = argv[++i];
        } else if (i + 1 < argc && (!strcmp(a, "--vertices") || !strcmp(a, "--bones") || !strcmp(a, "--instances") ||
                                    !strcmp(a, "--influences") || !strcmp(a, "--repeats"))) {
            uint32_t v;
            if (!vks_cli_parse_u32(a, argv[++i], &v))
                return VKS_EXIT_USAGE;
            if (v == 0) {
                fprintf(stderr, "vkskin tune: %s must be at least 1\n", a);
                return VKS_EXIT_USAGE;
            }
            if (!strcmp(a, "--vertices"))
                o->gp.vertices = v;
            else if (!strcmp(a, "--bones"))
                o->gp.bones = v;
            else if (!strcmp(a, "--instances"))
                o->instances = v;
            else if (!strcmp(a, "--influences"))
                o->gp.max_influences = v;
            else
                o->repeats = v;
        } else if ((t = vks_cli_gpu_option(&o->gopt, argc, argv, &i)) != 0 ||
                   (t = vks_cli_read_option(&o->ropt, argc, argv, &i)) != 0) {
            if (t < 0)
                return VKS_EXIT_USAGE;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vkskin tune: unknown option or missing value '%s'\n", a);
            return VKS_EXIT_USAGE;
        } else if (o->file) {
            fprintf(stderr, "vkskin tune: one model at most ('%s' and '%s')\n", o->file, a);
            return VKS_EXIT_USAGE;
        } else {
            o->file = a;
        }
    }
    if (o->gopt.launch_shape) {
        fprintf(stderr, "vkskin tune: --launch-shape forces one shape; give candidates with --candidate\n");
        return VKS_EXIT_USAGE;
    }
    return TUNE_GO_ON;
}

static void print_json(const vks_gpu *gpu, const vks_skin *s, const tune_opts *o, const vks_gpu_tune_result *r)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "device", vks_gpu_device(gpu)->name);
    cJSON_AddStringToObject(j, "device_type", vks_gpu_device(gpu)->type);
    cJSON_AddNumberToObject(j, "vertices", s->vertex_count);
    cJSON_AddNumberToObject(j, "instances", o->instances);
    cJSON_AddNumberToObject(j, "repeats", o->repeats);
    cJSON *c = cJSON_AddArrayToObject(j, "candidates");
    for (uint32_t i = 0; i < r->count; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "shape", r->candidate[i].shape);
        cJSON_AddNumberToObject(e, "deform_ms", r->candidate[i].deform_ms);
        cJSON_AddNumberToObject(e, "vertex_instances_per_second", r->candidate[i].vertex_instances_per_second);
        cJSON_AddBoolToObject(e, "chosen", i == r->best);
        cJSON_AddItemToArray(c, e);
    }
    cJSON_AddStringToObject(j, "chosen", r->candidate[r->best].shape);
    cJSON_AddBoolToObject(j, "stored", r->stored);
    cJSON_AddStringToObject(j, "cache", r->cache_path);
    char *text = cJSON_Print(j);
    if (text)
        printf("%s\n", text);
    free(text);
    cJSON_Delete(j);
}

static void print_text(const vks_gpu *gpu, const vks_skin *s, const tune_opts *o, const vks_gpu_tune_result *r)
{
    printf("device: %s (%s)\n", vks_gpu_device(gpu)->name, vks_gpu_device(gpu)->type);
    printf("workload: %u vertices x %u instances, deform pass median of %u runs\n", s->vertex_count, o->instances,
           o->repeats);
    double best = r->candidate[r->best].vertex_instances_per_second;
    for (uint32_t i = 0; i < r->count; i++)
        printf("  %c %-48s %10.3f M vertex-instances/s  %9.3f ms  x%.2f\n", i == r->best ? '*' : ' ',
               r->candidate[i].shape, r->candidate[i].vertex_instances_per_second / 1e6, r->candidate[i].deform_ms,
               best > 0 ? r->candidate[i].vertex_instances_per_second / best : 0);
    printf("chosen: %s\n", r->candidate[r->best].shape);
    if (r->stored)
        printf("stored in %s: later runs on this device and driver start with it\n", r->cache_path);
    else if (o->no_store)
        printf("not stored (--no-store)\n");
    else
        printf("not stored: %s\n", r->cache_path[0] ? "the cache could not be written" : "no cache folder");
}

int vks_cmd_tune(int argc, char **argv)
{
    tune_opts o;
    int rc = parse(argc, argv, &o);
    if (rc != TUNE_GO_ON)
        return rc;
    vks_error err = {0};
    vks_skin *s = o.file ? vks_cli_load_skin(o.file, &o.ropt) : vks_gen_character(&o.gp, &err);
    if (!s) {
        if (!o.file) {
            char msg[512];
            fprintf(stderr, "vkskin tune: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
            return vks_cli_exit_code(err.code);
        }
        return VKS_EXIT_INPUT;
    }
    vks_gpu *gpu = NULL;
    rc = vks_cli_gpu_open(&o.gopt, &gpu);
    if (rc != VKS_EXIT_OK) {
        vks_skin_free(s);
        return rc;
    }
    vks_gpu_tune_options t = {o.candidate_count ? o.candidates : NULL, o.candidate_count, o.instances, o.repeats,
                              !o.no_store};
    vks_gpu_tune_result r;
    vks_result res = vks_gpu_tune(gpu, s, &t, &r, &err);
    if (res == VKS_OK) {
        if (o.json)
            print_json(gpu, s, &o, &r);
        else
            print_text(gpu, s, &o, &r);
        rc = VKS_EXIT_OK;
    } else {
        char msg[512];
        fprintf(stderr, "vkskin tune: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = res == VKS_ERR_INVALID ? VKS_EXIT_USAGE : vks_cli_exit_code(res);
    }
    if (rc == VKS_EXIT_OK && vks_gpu_validation_messages(gpu))
        rc = VKS_EXIT_RUNTIME;
    vks_gpu_destroy(gpu);
    vks_skin_free(s);
    return rc;
}
