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
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_crowd.h"
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
    fprintf(f, "usage: vkskin validate FILE... [--instances N --seed S | --pose FILE | --clip FILE[#name]\n"
               "                       --instances N [--stagger] | --crowd FILE] [--frames F --fps R] [--time T]\n"
               "                       [--json] [--device N|NAME] [--validation] [--max-chunk-mb N]\n"
               "                       [--inject-fault remap|weight|matrix] [--allow-bind-mismatch]\n\n"
               "Deforms on the GPU and on the CPU reference and compares, per file and stream, and\n"
               "checks that each model reproduces its stored vertices in its bind pose.\n"
               "  --validation      enable the Khronos validation layer; any message fails\n"
               "  --clip FILE[#name]  play a clip (name or index; default clip 0) on --instances N of each\n"
               "                    FILE (--stagger, --clip-speed S, --clip-cycle C, --clip-duration S,\n"
               "                    --clip-fps R: as in vkskin deform --help)\n"
               "  --crowd FILE      a JSON or CSV crowd file: per instance model, clip, start, speed, cycle, root\n"
               "                    With clips the GPU samples them itself (a crowd per chunk of instances,\n"
               "                    run at each frame's time: --time T + f / --fps) and the CPU reference\n"
               "                    samples the same keys in double\n"
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

/* ---- clips: the GPU samples them in crowds (cli_crowd.h), the reference in double ---- */

/* The largest singular value of a root's 3x3 (power iteration on its Gram matrix): how much
 * it can stretch the error scale. */
static double root_stretch(const vks_affine *r)
{
    double v[3] = {1, 0.7, 0.3}, len = 0;
    for (int it = 0; it < 64; it++) {
        double a[3], g[3];
        for (int i = 0; i < 3; i++)
            a[i] = r->m[i] * v[0] + r->m[3 + i] * v[1] + r->m[6 + i] * v[2];
        for (int j = 0; j < 3; j++)
            g[j] = r->m[3 * j] * a[0] + r->m[3 * j + 1] * a[1] + r->m[3 * j + 2] * a[2];
        len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        if (!(len > 0))
            return 1;
        for (int i = 0; i < 3; i++)
            v[i] = g[i] / len;
    }
    return sqrt(len);
}

/* One thread's share of a frame's instances: locals from the poser (double sampler), the
 * reference, its error scale, the root, and the diff against the GPU's vertices into
 * accumulators of its own (merged into the file's after). */
typedef struct ref_slice {
    const vfile *f;
    uint32_t first, count, frame; /* instances [first, first + count) of the model */
    const float *gp, *gn;         /* the GPU's vertices of these instances */
    vks_affine *locals;           /* count * node_count */
    vks_affine_d *world;          /* node_count */
    float *rp, *rn;               /* count * vertex_count * 3 */
    double *scales;
    vks_diff_acc pos, nrm;
    int failed;
} ref_slice;

/* Adds a thread's accumulator into the file's: sums add, extremes keep the larger (with its
 * vertex and instance). */
static void diff_merge(vks_diff_acc *into, const vks_diff_acc *part)
{
    vks_diff_report *a = &into->r;
    const vks_diff_report *b = &part->r;
    into->sum_sq_diff += part->sum_sq_diff, into->sum_sq_ref += part->sum_sq_ref;
    a->compared += b->compared, a->over += b->over;
    if (b->max_abs > a->max_abs)
        a->max_abs = b->max_abs, a->worst_vertex = b->worst_vertex, a->worst_instance = b->worst_instance;
    if (b->max_rel > a->max_rel)
        a->max_rel = b->max_rel;
    if (b->max_scale > a->max_scale)
        a->max_scale = b->max_scale;
}

static void *ref_run(void *arg)
{
    ref_slice *r = arg;
    const vks_skin *s = r->f->skin;
    for (uint32_t i = 0; i < r->count; i++)
        vks_cli_poser_locals(&r->f->ps, r->first + i, r->frame, r->locals + (size_t)i * s->node_count);
    vks_deform_job job = {s, r->locals, r->count, r->rp, r->rn};
    vks_error err = {0};
    r->failed = vks_cpu_reference_run(&job, &err) != VKS_OK;
    for (uint32_t i = 0; i < r->count; i++) {
        size_t at = (size_t)i * s->vertex_count * 3;
        vks_cpu_world_d(s, r->locals + (size_t)i * s->node_count, r->world);
        r->scales[i] = vks_posed_error_scale(s, r->f->model_scale, r->world, r->rp + at);
        if (r->f->ps.roots) { /* float errors grow with what the root makes of that scale */
            const vks_affine *root = &r->f->ps.roots[r->first + i];
            const float *t = root->m + 9;
            r->scales[i] = r->scales[i] * root_stretch(root) + sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
            vks_cli_poser_apply_root(&r->f->ps, r->first + i, r->rp + at, r->rn + at);
        }
        uint32_t pose = (r->first + i) * r->f->frames + r->frame; /* numbered as the batch path does */
        vks_diff_add_scaled(&r->pos, r->gp + at, r->rp + at, pose, 1, s->vertex_count, &r->scales[i]);
        vks_diff_add(&r->nrm, r->gn + at, r->rn + at, pose, 1, s->vertex_count);
    }
    return NULL;
}

enum { MAX_REF_THREADS = 16 };

static int ref_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_REF_THREADS ? MAX_REF_THREADS : (int)n;
}

/* A frame of a run of one model's instances, as the crowd read them back: the reference of the
 * same instances and the diff, on every core. */
static int crowd_deliver(void *user, uint32_t m, uint32_t first, uint32_t count, uint32_t frame, const float *p,
                         const float *n)
{
    vctx *c = user;
    vfile *f = &c->files[m];
    const vks_skin *s = f->skin;
    int threads = ref_threads();
    if ((uint32_t)threads > count)
        threads = (int)count;
    size_t nodes = s->node_count ? s->node_count : 1;
    size_t nl = (size_t)count * nodes * sizeof *c->locals, nf = (size_t)count * s->vertex_count * 3 * sizeof(float);
    size_t nw = (size_t)threads * nodes * sizeof *c->world, oc = c->out_cap;
    if (!grow((void **)&c->locals, &c->locals_cap, nl) || !grow((void **)&c->rp, &oc, nf) ||
        !grow((void **)&c->rn, &c->out_cap, nf) || !grow((void **)&c->world, &c->world_cap, nw) ||
        !grow((void **)&c->scales, &c->scales_cap, (size_t)count * sizeof *c->scales)) {
        fprintf(stderr, "vkskin validate: out of memory for the reference of a chunk\n");
        return 1;
    }
    ref_slice sl[MAX_REF_THREADS];
    pthread_t th[MAX_REF_THREADS];
    int started[MAX_REF_THREADS] = {0};
    for (int t = 0; t < threads; t++) {
        uint32_t a = (uint32_t)((uint64_t)count * t / threads), b = (uint32_t)((uint64_t)count * (t + 1) / threads);
        size_t v = (size_t)a * s->vertex_count * 3;
        sl[t] = (ref_slice){.f = f, .first = first + a, .count = b - a, .frame = frame, .gp = p + v, .gn = n + v,
                            .locals = c->locals + (size_t)a * nodes, .world = c->world + (size_t)t * nodes,
                            .rp = c->rp + v, .rn = c->rn + v, .scales = c->scales + a};
        vks_diff_begin(&sl[t].pos, f->pos.r.radius, &f->pos.r.tolerance);
        vks_diff_begin(&sl[t].nrm, f->nrm.r.radius, &f->nrm.r.tolerance);
        started[t] = t > 0 && pthread_create(&th[t], NULL, ref_run, &sl[t]) == 0;
    }
    for (int t = 0; t < threads; t++)
        if (!started[t])
            ref_run(&sl[t]); /* the first share here, and any a thread could not take */
    for (int t = 0; t < threads; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        f->ref_failed |= sl[t].failed;
        diff_merge(&f->pos, &sl[t].pos);
        diff_merge(&f->nrm, &sl[t].nrm);
    }
    f->delivered += count;
    return 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
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
    char **paths = calloc((size_t)argc, sizeof *paths);
    vfile *files = NULL; /* the inputs that could be read */
    const vks_skin **skins = NULL;
    const vks_cli_poser **posers = NULL;
    vks_gpu_batch_entry *entries = NULL;
    vks_gpu *gpu = NULL;
    vks_gpu_models *ms = NULL;
    vks_cli_gpu_clips gclips = {0};
    vctx c = {0};
    if (!paths) {
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
            paths[npaths++] = argv[i];
        }
    }
    if (!npaths && !pose.crowd) {
        fprintf(stderr, "vkskin validate: needs at least one FILE (or --crowd FILE)\n");
        help(stderr);
        rc = VKS_EXIT_USAGE;
        goto out;
    }
    if ((rc = vks_cli_pose_check(&pose)) != VKS_EXIT_OK || (rc = vks_cli_anim_load(&pose, paths, npaths, &ropt)) != VKS_EXIT_OK)
        goto out;
    npaths = (int)pose.model_count; /* with --crowd, the models it names too */
    files = calloc((size_t)npaths + 1, sizeof *files);
    skins = calloc((size_t)npaths + 1, sizeof *skins);
    posers = calloc((size_t)npaths + 1, sizeof *posers);
    entries = calloc((size_t)npaths + 1, sizeof *entries);
    if (!files || !skins || !posers || !entries) {
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    /* An input that cannot be read (or posed) is reported and left out; the others are still
       validated, and the exit code is the most severe of all. */
    for (int p = 0; p < npaths; p++) {
        vfile *vf = &files[nfiles];
        vf->path = pose.models[p];
        if (!(vf->skin = vks_cli_load_skin(vf->path, &ropt))) {
            rc = vks_cli_worse_exit(rc, VKS_EXIT_INPUT);
            continue;
        }
        if (!vks_cli_poser_init(&vf->ps, vf->skin, &pose, (uint32_t)p)) {
            vks_cli_poser_free(&vf->ps);
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
        vf->frames = vf->ps.frames;
        uint64_t n = (uint64_t)vf->ps.instances * vf->frames;
        if (n > UINT32_MAX) {
            fprintf(stderr, "vkskin validate: %llu poses is too many\n", (unsigned long long)n);
            rc = VKS_EXIT_USAGE;
            goto out;
        }
        skins[f] = vf->skin;
        posers[f] = &vf->ps;
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
    vks_gpu_stats st = {0};
    vks_result run;
    if (pose.anim) { /* clips: sampled on the GPU by crowds of instances, chunk by chunk */
        double t0 = now_ms();
        vks_cli_crowd_stats cs = {0};
        run = vks_cli_gpu_clips_upload(gpu, ms, posers, (uint32_t)nfiles, &gclips, &err);
        if (run == VKS_OK) {
            vks_cli_crowd_job job = {gpu, ms, &gclips, posers, (uint32_t)nfiles, pose.frames, gopt.max_chunk_bytes,
                                     0, NULL, crowd_deliver, &c};
            job.progress = json ? NULL : "validate";
            run = vks_cli_crowd_run(&job, &cs, &err);
        }
        st.chunks = cs.chunks, st.vertex_instances = cs.vertex_instances;
        st.pose_ms = cs.gpu_ms, st.total_ms = now_ms() - t0;
    } else {
        vks_gpu_batch b = {0};
        b.entries = entries, b.entry_count = (uint32_t)nfiles;
        b.get_locals = get_locals, b.deliver = deliver, b.user = &c;
        b.want_normals = 1;
        b.max_chunk_bytes = gopt.max_chunk_bytes;
        run = vks_gpu_run(gpu, ms, &b, &st, &err);
    }
    if (run != VKS_OK) {
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
        if (pose.anim) { /* a crowd's frame times pose and deform together */
            cJSON_AddStringToObject(root, "gpu_path", "crowd");
            cJSON_AddNumberToObject(root, "gpu_frames_ms", st.pose_ms);
        } else {
            cJSON_AddStringToObject(root, "gpu_path", "batch");
            cJSON_AddNumberToObject(root, "gpu_pose_ms", st.pose_ms);
            cJSON_AddNumberToObject(root, "gpu_deform_ms", st.deform_ms);
        }
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
    } else if (pose.anim) {
        printf("%s: %d file(s), %.0f vertex-instances in %u chunk(s); GPU frames %.2f ms (clips sampled in the crowd's "
               "pose pass), total with the reference %.0f ms%s\n",
               pass && !bind_failed && all_read ? "PASS" : "FAIL", nfiles, vi, st.chunks, st.pose_ms, st.total_ms,
               gopt.validation ? (vmsgs ? ", validation-layer messages" : ", validation layer clean") : "");
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
    vks_cli_gpu_clips_free(&gclips);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    for (int f = 0; files && f < nfiles; f++)
        if (files[f].skin) {
            vks_cli_poser_free(&files[f].ps);
            vks_skin_free(files[f].skin);
        }
    free(c.locals), free(c.rp), free(c.rn), free(c.world), free(c.scales);
    free(files), free(paths), free(skins), free(posers), free(entries);
    vks_cli_anim_free(&pose);
    return rc;
}
