/* vkskin validate FILE... [pose options] [--json] [--device D] [--validation]
 *                 [--inject-fault remap|weight|matrix] [--max-chunk-mb N] [--allow-bind-mismatch]
 * Deforms every file's instances on the GPU in one heterogeneous batch and, chunk by chunk as
 * the outputs come back, the same instances on the CPU reference; prints per file and stream
 * (positions, normals) the max absolute error, the max error relative to the error scale,
 * NMSE, the count over tolerance and the worst vertex and instance. Only a chunk is ever held
 * in memory, so the instance count is bounded by time, not memory.
 *
 * Tolerances (src/check/tolerance.c has the derivation from float32 error bounds):
 * positions |gpu - ref| <= 3e-5 * scale per component, scale = vks_skin_error_scale (bounding
 * radius or the largest bind translation) or, per instance, the larger vks_posed_error_scale
 * (a pose that moves nodes far out makes the engines work with larger numbers), and NMSE <=
 * 1e-9; normals 1e-4 absolute + 1e-5 relative. Exit 3 when any stream of any file is over
 * tolerance (or the validation layer reported anything with --validation).
 *
 * The GPU is compared with the reference, so a model that is itself wrong would pass: each
 * file's bind-pose check is a finding too (exit 6, "bind-pose check failed: ..."), unless
 * --allow-bind-mismatch. With several findings the exit code is the most severe. */
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
    double model_scale; /* vks_skin_error_scale: the floor of every instance's scale */
    uint32_t delivered;
    int ref_failed;
    vks_bind_check bind;
    int bind_exit; /* VKS_EXIT_OK or VKS_EXIT_BIND */
} vfile;

typedef struct vctx {
    vfile *files;
    vks_affine *locals; /* scratch for the reference */
    float *rp, *rn;
    vks_affine_d *world; /* one instance's world transforms, for its error scale */
    double *scales;      /* per instance of a chunk */
    size_t locals_cap, out_cap, world_cap, scales_cap;
} vctx;

static void help(FILE *f)
{
    fprintf(f, "usage: vkskin validate FILE... [--instances N --frames F --seed S --fps R | --pose FILE]\n"
               "                       [--json] [--device N|NAME] [--validation] [--max-chunk-mb N]\n"
               "                       [--inject-fault remap|weight|matrix] [--allow-bind-mismatch]\n\n"
               "Deforms on the GPU and on the CPU reference and compares, per file and stream, and\n"
               "checks that each model reproduces its stored vertices in its bind pose.\n"
               "  --validation      enable the Khronos validation layer; any message fails\n"
               "  --allow-bind-mismatch  report a failed bind-pose check without failing (files known\n"
               "                    not to be stored in their bind pose)\n"
               "  --max-chunk-mb N  cap one chunk's output (forces several chunks)\n"
               "  --inject-fault K  testing: corrupt the GPU copy of a remap entry, a weight or a skin\n"
               "                    matrix; validate must then fail (exit 3)\n"
               "Tolerances: positions 3e-5 x error scale per component (the model's scale, or the posed\n"
               "instance's when larger) and NMSE <= 1e-9; normals 1e-4 absolute + 1e-5 relative\n"
               "(reasoning in src/check/tolerance.c). The bind-pose check uses the position tolerance.\n"
               "exit codes: 0 pass, 1 bad input, 2 usage, 3 validation failed, 4 no Vulkan device, 5 runtime,\n"
               "            6 bind-pose check failed; with several findings, the most severe\n");
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
    size_t nw = (s->node_count ? s->node_count : 1) * sizeof *c->world;
    size_t oc = c->out_cap;
    if (!grow((void **)&c->locals, &c->locals_cap, nl) || !grow((void **)&c->rp, &oc, nf) ||
        !grow((void **)&c->rn, &c->out_cap, nf) || !grow((void **)&c->world, &c->world_cap, nw) ||
        !grow((void **)&c->scales, &c->scales_cap, (size_t)count * sizeof *c->scales)) {
        fprintf(stderr, "vkskin validate: out of memory for the reference of a chunk\n");
        return 1;
    }
    for (uint32_t i = 0; i < count; i++)
        get_locals(user, entry, first + i, c->locals + (size_t)i * s->node_count);
    vks_deform_job job = {s, c->locals, count, c->rp, c->rn};
    vks_error err = {0};
    if (vks_cpu_reference_run(&job, &err) != VKS_OK)
        f->ref_failed = 1;
    for (uint32_t i = 0; i < count; i++) { /* each instance's scale, from its pose and the reference */
        vks_cpu_world_d(s, c->locals + (size_t)i * s->node_count, c->world);
        c->scales[i] = vks_posed_error_scale(s, f->model_scale, c->world, c->rp + (size_t)i * s->vertex_count * 3);
    }
    vks_diff_add_scaled(&f->pos, p, c->rp, first, count, s->vertex_count, c->scales);
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

/* One stderr line per way a file failed, so that exit 3 always says why. */
static void say_why(const vfile *vf, const vks_diff_report *rp, const vks_diff_report *rn, uint32_t instances)
{
    const vks_diff_report *r[2] = {rp, rn};
    const char *name[2] = {"positions", "normals"};
    for (int k = 0; k < 2; k++)
        if (!r[k]->pass)
            fprintf(stderr,
                    "vkskin: %s: validation failed: GPU %s off the CPU reference by up to %.3g (%.3g of the "
                    "scale), %llu of %llu components over tolerance, NMSE %.3g (at most %.3g); worst vertex %u "
                    "of instance %u\n",
                    vf->path, name[k], r[k]->max_abs, r[k]->max_rel, (unsigned long long)r[k]->over,
                    (unsigned long long)r[k]->compared, r[k]->nmse, r[k]->tolerance.nmse, r[k]->worst_vertex,
                    r[k]->worst_instance);
    if (vf->ref_failed)
        fprintf(stderr, "vkskin: %s: validation failed: the CPU reference could not deform a chunk\n", vf->path);
    if (vf->delivered != instances)
        fprintf(stderr, "vkskin: %s: validation failed: the GPU delivered %u of %u instances\n", vf->path,
                vf->delivered, instances);
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
    cJSON_AddNumberToObject(o, "scale_max", r->max_scale); /* the largest instance's, >= scale */
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
    int json = 0, nfiles = 0, npaths = 0, rc = VKS_EXIT_OK, allow_mismatch = 0;
    vfile *files = calloc((size_t)argc, sizeof *files); /* the inputs that could be read */
    const char **paths = calloc((size_t)argc, sizeof *paths);
    const vks_skin **skins = calloc((size_t)argc, sizeof *skins);
    vks_gpu_batch_entry *entries = calloc((size_t)argc, sizeof *entries);
    vks_gpu *gpu = NULL;
    vks_gpu_models *ms = NULL;
    vctx c = {0};
    if (!files || !paths || !skins || !entries) {
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
        } else if (!strcmp(a, "--allow-bind-mismatch")) {
            allow_mismatch = 1;
        } else if ((t = vks_cli_run_option(&pose, &gopt, &ropt, argc, argv, &i)) != 0) {
            if (t < 0) {
                rc = VKS_EXIT_USAGE;
                goto out;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vkskin validate: unknown option or missing value '%s'\n", a);
            rc = VKS_EXIT_USAGE;
            goto out;
        } else {
            paths[npaths++] = a;
        }
    }
    if (!npaths) {
        fprintf(stderr, "vkskin validate: needs at least one FILE\n");
        help(stderr);
        rc = VKS_EXIT_USAGE;
        goto out;
    }
    /* An input that cannot be read (or posed) is reported and left out; the others are still
       validated, and the exit code is the most severe of all. */
    for (int p = 0; p < npaths; p++) {
        vfile *vf = &files[nfiles];
        vf->path = paths[p];
        if (!(vf->skin = vks_cli_load_skin(vf->path, &ropt))) {
            rc = vks_cli_worse_exit(rc, VKS_EXIT_INPUT);
            continue;
        }
        if (!vks_cli_poser_init(&vf->ps, vf->skin, &pose)) {
            vks_skin_free(vf->skin);
            vf->skin = NULL;
            rc = vks_cli_worse_exit(rc, VKS_EXIT_INPUT);
            continue;
        }
        int f = nfiles++;
        vf->bind_exit = vks_cli_bind_check(vf->path, vf->skin, allow_mismatch, &vf->bind);
        if (vf->bind_exit == VKS_EXIT_RUNTIME) {
            rc = VKS_EXIT_RUNTIME;
            goto out;
        }
        rc = vks_cli_worse_exit(rc, vf->bind_exit);
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
        vf->model_scale = vks_skin_error_scale(vf->skin);
        vks_diff_begin(&vf->pos, vf->model_scale, &tp);
        vks_diff_begin(&vf->nrm, 1.0, &tn);
    }
    if (!nfiles)
        goto out; /* nothing could be read: each input's error is printed */
    int opened = vks_cli_gpu_open(&gopt, &gpu);
    if (opened != VKS_EXIT_OK) {
        rc = vks_cli_worse_exit(rc, opened);
        goto out;
    }
    vks_error err = {0};
    char msg[512];
    if (vks_gpu_upload(gpu, skins, (uint32_t)nfiles, &ms, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = vks_cli_worse_exit(rc, vks_cli_exit_code(err.code));
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
        rc = vks_cli_worse_exit(rc, err.code == VKS_ERR_INVALID ? VKS_EXIT_RUNTIME : vks_cli_exit_code(err.code));
        goto out;
    }
    int pass = 1, bind_failed = 0, all_read = nfiles == npaths;
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
        int engines_ok = rp.pass && rn.pass && !vf->ref_failed && vf->delivered == entries[f].instance_count;
        int ok = engines_ok && vf->bind_exit == VKS_EXIT_OK;
        pass &= engines_ok;
        if (!engines_ok)
            say_why(vf, &rp, &rn, entries[f].instance_count);
        bind_failed |= vf->bind_exit != VKS_EXIT_OK;
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "file", vf->path);
            cJSON_AddStringToObject(o, "format", vf->skin->format ? vf->skin->format : "");
            cJSON_AddNumberToObject(o, "vertices", vf->skin->vertex_count);
            cJSON_AddNumberToObject(o, "instances", entries[f].instance_count);
            cJSON_AddItemToObject(o, "positions", stream_json(&rp));
            cJSON_AddItemToObject(o, "normals", stream_json(&rn));
            vks_cli_bind_json(cJSON_AddObjectToObject(o, "bind_check"), &vf->bind, allow_mismatch);
            cJSON_AddBoolToObject(o, "pass", ok);
            cJSON_AddItemToArray(jfiles, o);
        } else {
            printf("%s: %s, %u vertices x %u poses on %s\n", vf->path, vf->skin->format ? vf->skin->format : "?",
                   vf->skin->vertex_count, entries[f].instance_count, vks_gpu_device(gpu)->name);
            print_stream("positions", &rp);
            print_stream("normals", &rn);
            printf("  bind pose max abs %.3g  max rel %.3g  tolerance %.3g  %s\n", vf->bind.max_error,
                   vf->bind.max_error_relative, vf->bind.tolerance,
                   vf->bind.pass ? "PASS" : allow_mismatch ? "FAIL (allowed by --allow-bind-mismatch)" : "FAIL");
        }
    }
    if (gopt.validation && vmsgs) {
        fprintf(stderr, "vkskin: validation failed: the Vulkan validation layer reported %u message(s)\n", vmsgs);
        pass = 0;
    }
    double vi = (double)st.vertex_instances;
    if (json) {
        cJSON_AddNumberToObject(root, "chunks", st.chunks);
        cJSON_AddNumberToObject(root, "vertex_instances", vi);
        cJSON_AddNumberToObject(root, "gpu_pose_ms", st.pose_ms);
        cJSON_AddNumberToObject(root, "gpu_deform_ms", st.deform_ms);
        cJSON_AddNumberToObject(root, "total_ms", st.total_ms);
        cJSON_AddNumberToObject(root, "validation_messages", vmsgs);
        cJSON_AddBoolToObject(root, "bind_check_failed", bind_failed);
        cJSON_AddNumberToObject(root, "inputs_not_read", npaths - nfiles);
        cJSON_AddBoolToObject(root, "pass", pass && !bind_failed && all_read);
        char *s = cJSON_Print(root);
        if (s)
            printf("%s\n", s);
        free(s);
        cJSON_Delete(root);
    } else {
        printf("%s: %d file(s), %.0f vertex-instances in %u chunk(s); GPU passes %.2f ms (pose %.2f, deform %.2f), "
               "total with the reference %.0f ms%s\n",
               pass && !bind_failed && all_read ? "PASS" : "FAIL", nfiles, vi, st.chunks,
               st.pose_ms + st.deform_ms, st.pose_ms, st.deform_ms,
               st.total_ms, gopt.validation ? (vmsgs ? ", validation-layer messages" : ", validation layer clean") : "");
    }
    if (!pass)
        rc = vks_cli_worse_exit(rc, VKS_EXIT_VALIDATION);
out:
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    for (int f = 0; f < nfiles; f++)
        if (files[f].skin) {
            vks_cli_poser_free(&files[f].ps);
            vks_skin_free(files[f].skin);
        }
    free(c.locals), free(c.rp), free(c.rn), free(c.world), free(c.scales);
    free(files), free(paths), free(skins), free(entries);
    return rc;
}
