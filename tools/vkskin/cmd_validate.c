/* vkskin validate FILE... [pose options] [--json] [--device D] [--validation]
 *                 [--inject-fault remap|weight|matrix] [--max-chunk-mb N]
 * Deforms every file's instances on the GPU in one heterogeneous batch and, chunk by chunk as
 * the outputs come back, the same instances on the CPU reference; prints per file and stream
 * (positions, normals) the max absolute error, the max error relative to the error scale,
 * NMSE, the count over tolerance and the worst vertex and instance. Only a chunk is ever held
 * in memory, so the instance count is bounded by time, not memory.
 *
 * Tolerances (src/check/tolerance.c has the derivation from float32 error bounds):
 * positions |gpu - ref| <= 3e-5 * scale per component, scale = vks_skin_error_scale (bounding
 * radius or the largest bind translation), and NMSE <= 1e-9; normals 1e-4 absolute + 1e-5
 * relative. Exit 3 when any stream of any file is over tolerance (or the validation layer
 * reported anything with --validation). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli_gpu.h"

typedef struct vfile {
    const char *path;
    vks_skin *skin;
    vks_cli_poser ps;
    uint32_t frames;
    vks_diff_acc pos, nrm;
    uint32_t delivered;
    int ref_failed;
} vfile;

typedef struct vctx {
    vfile *files;
    vks_affine *locals; /* scratch for the reference */
    float *rp, *rn;
    size_t locals_cap, out_cap;
} vctx;

static void help(FILE *f)
{
    fprintf(f, "usage: vkskin validate FILE... [--instances N --frames F --seed S --fps R | --pose FILE]\n"
               "                       [--json] [--device N|NAME] [--validation] [--max-chunk-mb N]\n"
               "                       [--inject-fault remap|weight|matrix]\n\n"
               "Deforms on the GPU and on the CPU reference and compares, per file and stream.\n"
               "  --validation      enable the Khronos validation layer; any message fails\n"
               "  --max-chunk-mb N  cap one chunk's output (forces several chunks)\n"
               "  --inject-fault K  testing: corrupt the GPU copy of a remap entry, a weight or a skin\n"
               "                    matrix; validate must then fail (exit 3)\n"
               "Tolerances: positions 3e-5 x error scale per component and NMSE <= 1e-9; normals 1e-4\n"
               "absolute + 1e-5 relative (reasoning in src/check/tolerance.c).\n"
               "exit codes: 0 pass, 1 bad input, 2 usage, 3 validation failed, 4 no Vulkan device, 5 runtime\n");
}

static void get_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    vfile *f = &((vctx *)user)->files[entry];
    vks_cli_poser_locals(&f->ps, instance / f->frames, instance % f->frames, out);
}

static int grow(void **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 1;
    void *q = realloc(*p, need);
    if (!q)
        return 0;
    *p = q, *cap = need;
    return 1;
}

static int deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    vctx *c = user;
    vfile *f = &c->files[entry];
    const vks_skin *s = f->skin;
    size_t nl = (size_t)count * (s->node_count ? s->node_count : 1) * sizeof *c->locals;
    size_t nf = (size_t)count * s->vertex_count * 3 * sizeof(float);
    size_t oc = c->out_cap;
    if (!grow((void **)&c->locals, &c->locals_cap, nl) || !grow((void **)&c->rp, &oc, nf) ||
        !grow((void **)&c->rn, &c->out_cap, nf)) {
        fprintf(stderr, "vkskin validate: out of memory for the reference of a chunk\n");
        return 1;
    }
    for (uint32_t i = 0; i < count; i++)
        get_locals(user, entry, first + i, c->locals + (size_t)i * s->node_count);
    vks_deform_job job = {s, c->locals, count, c->rp, c->rn};
    vks_error err = {0};
    if (vks_cpu_reference_run(&job, &err) != VKS_OK)
        f->ref_failed = 1;
    vks_diff_add(&f->pos, p, c->rp, first, count, s->vertex_count);
    vks_diff_add(&f->nrm, n, c->rn, first, count, s->vertex_count);
    f->delivered += count;
    return 0;
}

static void print_stream(const char *name, const vks_diff_report *r)
{
    printf("  %-9s max abs %.3g  max rel %.3g  NMSE %.3g  over tolerance %llu of %llu  worst vertex %u "
           "instance %u  %s\n",
           name, r->max_abs, r->max_rel, r->nmse, (unsigned long long)r->over, (unsigned long long)r->compared,
           r->worst_vertex, r->worst_instance, r->pass ? "PASS" : "FAIL");
}

static cJSON *stream_json(const vks_diff_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "max_abs", r->max_abs);
    cJSON_AddNumberToObject(o, "max_rel", r->max_rel);
    cJSON_AddNumberToObject(o, "nmse", r->nmse);
    cJSON_AddNumberToObject(o, "over", (double)r->over);
    cJSON_AddNumberToObject(o, "compared", (double)r->compared);
    cJSON_AddNumberToObject(o, "worst_vertex", r->worst_vertex);
    cJSON_AddNumberToObject(o, "worst_instance", r->worst_instance);
    cJSON_AddNumberToObject(o, "scale", r->radius);
    cJSON_AddNumberToObject(o, "tolerance_abs", r->tolerance.abs_radius);
    cJSON_AddNumberToObject(o, "tolerance_rel", r->tolerance.rel);
    cJSON_AddNumberToObject(o, "tolerance_nmse", r->tolerance.nmse);
    cJSON_AddBoolToObject(o, "pass", r->pass);
    return o;
}

int vks_cmd_validate(int argc, char **argv)
{
    vks_cli_pose pose;
    vks_cli_pose_defaults(&pose);
    vks_read_options ropt = {0};
    vks_cli_gpu_opts gopt = {0};
    char *cfg = NULL;
    int json = 0, nfiles = 0, rc = VKS_EXIT_OK;
    vfile *files = calloc((size_t)argc, sizeof *files);
    const vks_skin **skins = calloc((size_t)argc, sizeof *skins);
    vks_gpu_batch_entry *entries = calloc((size_t)argc, sizeof *entries);
    vks_gpu *gpu = NULL;
    vks_gpu_models *ms = NULL;
    vctx c = {0};
    if (!files || !skins || !entries) {
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int t;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            goto out;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if ((t = vks_cli_pose_option(&pose, argc, argv, &i)) != 0 ||
                   (t = vks_cli_gpu_option(&gopt, argc, argv, &i)) != 0 ||
                   (t = vks_cli_read_option(&ropt, &cfg, argc, argv, &i)) != 0) {
            if (t < 0) {
                rc = VKS_EXIT_USAGE;
                goto out;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vkskin validate: unknown option or missing value '%s'\n", a);
            rc = VKS_EXIT_USAGE;
            goto out;
        } else {
            files[nfiles++].path = a;
        }
    }
    if (!nfiles) {
        fprintf(stderr, "vkskin validate: needs at least one FILE\n");
        help(stderr);
        rc = VKS_EXIT_USAGE;
        goto out;
    }
    for (int f = 0; f < nfiles; f++) {
        vfile *vf = &files[f];
        if (!(vf->skin = vks_cli_load_skin(vf->path, &ropt))) {
            rc = VKS_EXIT_INPUT;
            goto out;
        }
        if (!vks_cli_poser_init(&vf->ps, vf->skin, &pose)) {
            vks_skin_free(vf->skin);
            vf->skin = NULL;
            rc = VKS_EXIT_INPUT;
            goto out;
        }
        vf->frames = pose.frames;
        if (pose.pose_file && vf->frames == 1)
            vf->frames = vf->ps.set.frame_count;
        uint64_t n = (uint64_t)pose.instances * vf->frames;
        if (n > UINT32_MAX) {
            fprintf(stderr, "vkskin validate: %llu poses is too many\n", (unsigned long long)n);
            rc = VKS_EXIT_USAGE;
            goto out;
        }
        skins[f] = vf->skin;
        entries[f] = (vks_gpu_batch_entry){(uint32_t)f, (uint32_t)n, NULL};
        vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
        vks_diff_begin(&vf->pos, vks_skin_error_scale(vf->skin), &tp);
        vks_diff_begin(&vf->nrm, 1.0, &tn);
    }
    if ((rc = vks_cli_gpu_open(&gopt, &gpu)) != VKS_EXIT_OK)
        goto out;
    vks_error err = {0};
    char msg[512];
    if (vks_gpu_upload(gpu, skins, (uint32_t)nfiles, &ms, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = vks_cli_exit_code(err.code);
        goto out;
    }
    c.files = files;
    vks_gpu_batch b = {0};
    b.entries = entries, b.entry_count = (uint32_t)nfiles;
    b.get_locals = get_locals, b.deliver = deliver, b.user = &c;
    b.want_normals = 1;
    b.max_chunk_bytes = gopt.max_chunk_bytes;
    vks_gpu_stats st;
    if (vks_gpu_run(gpu, ms, &b, &st, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = err.code == VKS_ERR_INVALID ? VKS_EXIT_RUNTIME : vks_cli_exit_code(err.code);
        goto out;
    }
    int pass = 1;
    uint32_t vmsgs = vks_gpu_validation_messages(gpu);
    cJSON *root = json ? cJSON_CreateObject() : NULL, *jfiles = NULL;
    if (json) {
        cJSON_AddStringToObject(root, "device", vks_gpu_device(gpu)->name);
        cJSON_AddStringToObject(root, "device_type", vks_gpu_device(gpu)->type);
        jfiles = cJSON_AddArrayToObject(root, "files");
    }
    for (int f = 0; f < nfiles; f++) {
        vfile *vf = &files[f];
        vks_diff_report rp, rn;
        vks_diff_end(&vf->pos, &rp);
        vks_diff_end(&vf->nrm, &rn);
        int ok = rp.pass && rn.pass && !vf->ref_failed && vf->delivered == entries[f].instance_count;
        pass &= ok;
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "file", vf->path);
            cJSON_AddStringToObject(o, "format", vf->skin->format ? vf->skin->format : "");
            cJSON_AddNumberToObject(o, "vertices", vf->skin->vertex_count);
            cJSON_AddNumberToObject(o, "instances", entries[f].instance_count);
            cJSON_AddItemToObject(o, "positions", stream_json(&rp));
            cJSON_AddItemToObject(o, "normals", stream_json(&rn));
            cJSON_AddBoolToObject(o, "pass", ok);
            cJSON_AddItemToArray(jfiles, o);
        } else {
            printf("%s: %s, %u vertices x %u poses on %s\n", vf->path, vf->skin->format ? vf->skin->format : "?",
                   vf->skin->vertex_count, entries[f].instance_count, vks_gpu_device(gpu)->name);
            print_stream("positions", &rp);
            print_stream("normals", &rn);
        }
    }
    if (gopt.validation && vmsgs)
        pass = 0;
    double vi = (double)st.vertex_instances;
    if (json) {
        cJSON_AddNumberToObject(root, "chunks", st.chunks);
        cJSON_AddNumberToObject(root, "vertex_instances", vi);
        cJSON_AddNumberToObject(root, "gpu_pose_ms", st.pose_ms);
        cJSON_AddNumberToObject(root, "gpu_deform_ms", st.deform_ms);
        cJSON_AddNumberToObject(root, "total_ms", st.total_ms);
        cJSON_AddNumberToObject(root, "validation_messages", vmsgs);
        cJSON_AddBoolToObject(root, "pass", pass);
        char *s = cJSON_Print(root);
        if (s)
            printf("%s\n", s);
        free(s);
        cJSON_Delete(root);
    } else {
        printf("%s: %d file(s), %.0f vertex-instances in %u chunk(s); GPU passes %.2f ms (pose %.2f, deform %.2f), "
               "total with the reference %.0f ms%s\n",
               pass ? "PASS" : "FAIL", nfiles, vi, st.chunks, st.pose_ms + st.deform_ms, st.pose_ms, st.deform_ms,
               st.total_ms, gopt.validation ? (vmsgs ? ", validation-layer messages" : ", validation layer clean") : "");
    }
    if (!pass)
        rc = VKS_EXIT_VALIDATION;
out:
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    for (int f = 0; f < nfiles; f++)
        if (files[f].skin) {
            vks_cli_poser_free(&files[f].ps);
            vks_skin_free(files[f].skin);
        }
    free(c.locals), free(c.rp), free(c.rn);
    free(files), free(skins), free(entries), free(cfg);
    return rc;
}
