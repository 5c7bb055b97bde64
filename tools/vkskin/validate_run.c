/* vkskin validate on one device: the GPU deforms every file's instances in one batch (or, with
 * clips, in crowds that sample them), and as each chunk comes back the CPU reference deforms the
 * same instances and the chunk is diffed, mapped per vertex (report.h), and stored into or
 * compared with a golden. Only a chunk is ever held in memory. */
#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "validate.h"

double vks_validate_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
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
    double t0 = vks_validate_now_ms();
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
    vks_error_map_add(f->pmap, &f->tp, f->pos.r.radius, p, c->rp, first, count, c->scales, c->rp, c->rn);
    vks_error_map_add(f->nmap, &f->tn, f->nrm.r.radius, n, c->rn, first, count, NULL, NULL, NULL);
    double t1 = vks_validate_now_ms();
    vks_golden_chunk(c, f, first, count, p, n, c->scales);
    double t2 = vks_validate_now_ms();
    f->check_ms += t1 - t0, f->golden_ms += t2 - t1;
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
    vks_error_map *pmap, *nmap;   /* this thread's, merged into the file's after */
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
        vks_error_map_add(r->pmap, &r->f->tp, r->pos.r.radius, r->gp + at, r->rp + at, pose, 1, &r->scales[i],
                          r->rp + at, r->rn + at);
        vks_error_map_add(r->nmap, &r->f->tn, r->nrm.r.radius, r->gn + at, r->rn + at, pose, 1, NULL, NULL, NULL);
    }
    return NULL;
}


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
    double t0 = vks_validate_now_ms();
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
    for (int t = 0; t < threads * 2; t++) { /* each thread's maps, sized for this model */
        vks_error_map *tm = &c->thread_maps[t];
        if (tm->vertices == s->vertex_count && tm->error) {
            vks_error_map_reset(tm);
            continue;
        }
        vks_error_map_free(tm);
        if (vks_error_map_init(tm, s->vertex_count) != VKS_OK) {
            fprintf(stderr, "vkskin validate: out of memory for the error maps of a chunk\n");
            return 1;
        }
    }
    ref_slice sl[MAX_REF_THREADS];
    pthread_t th[MAX_REF_THREADS];
    int started[MAX_REF_THREADS] = {0};
    for (int t = 0; t < threads; t++) {
        uint32_t a = (uint32_t)((uint64_t)count * t / threads), b = (uint32_t)((uint64_t)count * (t + 1) / threads);
        size_t v = (size_t)a * s->vertex_count * 3;
        sl[t] = (ref_slice){.f = f, .first = first + a, .count = b - a, .frame = frame, .gp = p + v, .gn = n + v,
                            .locals = c->locals + (size_t)a * nodes, .world = c->world + (size_t)t * nodes,
                            .rp = c->rp + v, .rn = c->rn + v, .scales = c->scales + a,
                            .pmap = &c->thread_maps[2 * t], .nmap = &c->thread_maps[2 * t + 1]};
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
        vks_error_map_merge(f->pmap, sl[t].pmap);
        vks_error_map_merge(f->nmap, sl[t].nmap);
    }
    /* the golden on this thread (file offsets, in pose order), from the buffers the slices filled */
    double t1 = vks_validate_now_ms();
    for (uint32_t i = 0; i < count && (c->save_golden || c->against); i++) {
        size_t at = (size_t)i * s->vertex_count * 3;
        uint32_t pose = (first + i) * f->frames + frame;
        vks_golden_chunk(c, f, pose, 1, p + at, n + at, &c->scales[i]);
    }
    double t2 = vks_validate_now_ms();
    f->check_ms += t1 - t0, f->golden_ms += t2 - t1;
    f->delivered += count;
    return 0;
}

/* Empties every file's accumulators and points them at this device's maps. */
static int begin_device(vrun *r, vdevice *d)
{
    size_t n = (size_t)r->nfiles;
    d->files = calloc(n, sizeof *d->files);
    d->maps = calloc(n * 3, sizeof *d->maps);
    d->heatmaps = calloc(n, sizeof *d->heatmaps);
    d->heatmap_missing = calloc(n, sizeof *d->heatmap_missing);
    d->run_errors = calloc(n, sizeof *d->run_errors);
    d->golden_errors = calloc(n, sizeof *d->golden_errors);
    if (!d->files || !d->maps || !d->heatmaps || !d->heatmap_missing || !d->run_errors || !d->golden_errors)
        return 0;
    for (int f = 0; f < r->nfiles; f++) {
        vfile *vf = &r->files[f];
        for (int k = 0; k < 3; k++)
            if (vks_error_map_init(&d->maps[f * 3 + k], vf->skin->vertex_count) != VKS_OK)
                return 0;
        vf->pmap = &d->maps[f * 3], vf->nmap = &d->maps[f * 3 + 1], vf->gmap = &d->maps[f * 3 + 2];
        vks_diff_begin(&vf->pos, vf->model_scale, &vf->tp);
        vks_diff_begin(&vf->nrm, 1.0, &vf->tn);
        vks_diff_begin(&vf->gpos, vf->model_scale, &vf->tp);
        vks_diff_begin(&vf->gnrm, 1.0, &vf->tn);
        vf->delivered = 0, vf->ref_failed = 0;
        vf->check_ms = 0, vf->golden_ms = 0;
    }
    return 1;
}

static char *dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dup_printf(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}

/* Why the model has no normals stream, or NULL when a mesh has normals: the engines then
 * write zeros that trivially match, which must read as absent, not as a pass. */
static const char *normals_absent(const vks_skin *s)
{
    for (uint32_t m = 0; s->normals && m < s->mesh_count; m++)
        if (s->meshes[m].flags & VKS_MESH_HAS_NORMALS)
            return NULL;
    return "the model has no normals";
}

/* Each file's seconds for the JUnit cases: its own checking time, and the rest of the device's
 * run (the GPU's work, shared by every file's chunks) by its share of the vertex-instances. */
static void file_seconds(vrun *r, vdevice *d)
{
    double own = 0, work = 0;
    for (int f = 0; f < r->nfiles; f++) {
        own += r->files[f].check_ms + r->files[f].golden_ms;
        work += (double)r->files[f].skin->vertex_count * r->files[f].poses;
    }
    double rest = d->st.total_ms > own ? d->st.total_ms - own : 0;
    for (int f = 0; f < r->nfiles; f++) {
        const vfile *vf = &r->files[f];
        double share = work > 0 ? rest * ((double)vf->skin->vertex_count * vf->poses / work) : 0;
        d->files[f].seconds = (vf->check_ms + share) / 1e3;
        d->files[f].golden_seconds = vf->golden_ms / 1e3;
        d->files[f].bind_seconds = vf->bind_ms / 1e3;
    }
}

/* The device's verdict per file, into d->files (the report's view of it). */
static int collect(vrun *r, vdevice *d)
{
    int rc = VKS_EXIT_OK;
    file_seconds(r, d);
    for (int f = 0; f < r->nfiles; f++) {
        vfile *vf = &r->files[f];
        vks_report_file *o = &d->files[f];
        o->path = vf->path;
        o->format = vf->skin->format ? vf->skin->format : "?";
        o->vertices = vf->skin->vertex_count, o->poses = vf->poses;
        vks_diff_end(&vf->pos, &o->positions);
        vks_diff_end(&vf->nrm, &o->normals);
        o->position_errors = vf->pmap, o->normal_errors = vf->nmap;
        o->normals_absent = normals_absent(vf->skin);
        if (vf->ref_failed)
            d->run_errors[f] = dup_printf("the CPU reference could not deform a chunk");
        else if (vf->delivered != vf->poses)
            d->run_errors[f] = dup_printf("the GPU delivered %u of %u poses", vf->delivered, vf->poses);
        o->run_error = d->run_errors[f];
        o->bind_pass = vf->bind.pass, o->bind_allowed = !vf->bind.pass && vf->bind_exit == VKS_EXIT_OK;
        o->bind_max_error = vf->bind.max_error, o->bind_max_relative = vf->bind.max_error_relative;
        o->bind_tolerance = vf->bind.tolerance;
        if (r->c.against) {
            o->has_golden = 1;
            vks_diff_end(&vf->gpos, &o->golden_positions);
            vks_diff_end(&vf->gnrm, &o->golden_normals);
            o->golden_errors = vf->gmap;
            if (vf->gold.mismatch)
                d->golden_errors[f] = dup_printf("%s", vf->gold.mismatch);
            else if (vf->gold.io_failed)
                d->golden_errors[f] = dup_printf("reading the golden's raw failed: %s", strerror(vf->gold.io_errno));
            o->golden_error = d->golden_errors[f];
        }
        o->skin = vf->skin;
        int engines_ok = o->positions.pass && o->normals.pass && !o->run_error;
        int golden_ok = !o->has_golden || (!o->golden_error && o->golden_positions.pass && o->golden_normals.pass);
        if (!engines_ok || !golden_ok)
            rc = vks_cli_worse_exit(rc, VKS_EXIT_VALIDATION);
        rc = vks_cli_worse_exit(rc, vf->bind_exit);
    }
    return rc;
}

int vks_validate_device(vrun *r, vdevice *d)
{
    vks_gpu *gpu = NULL;
    vks_gpu_models *ms = NULL;
    vks_cli_gpu_clips gclips = {0};
    const vks_skin **skins = calloc((size_t)r->nfiles, sizeof *skins);
    const vks_cli_poser **posers = calloc((size_t)r->nfiles, sizeof *posers);
    vks_gpu_batch_entry *entries = calloc((size_t)r->nfiles, sizeof *entries);
    int rc = VKS_EXIT_OK;
    vks_error err = {0};
    char msg[512];
    if (!skins || !posers || !entries || !begin_device(r, d)) {
        snprintf(d->error, sizeof d->error, "out of memory");
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    for (int f = 0; f < r->nfiles; f++) {
        skins[f] = r->files[f].skin, posers[f] = &r->files[f].ps;
        entries[f] = (vks_gpu_batch_entry){(uint32_t)f, r->files[f].poses, NULL};
    }
    if ((rc = vks_cli_gpu_open(&r->gopt, &gpu)) != VKS_EXIT_OK) {
        snprintf(d->error, sizeof d->error, "the Vulkan device could not be opened (exit %d)", rc);
        goto out;
    }
    snprintf(d->name, sizeof d->name, "%s", vks_gpu_device(gpu)->name);
    snprintf(d->type, sizeof d->type, "%s", vks_gpu_device(gpu)->type);
    d->queue_family = vks_gpu_device(gpu)->queue_family, d->queue_index = vks_gpu_device(gpu)->queue_index;
    if (vks_gpu_upload(gpu, skins, (uint32_t)r->nfiles, &ms, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        snprintf(d->error, sizeof d->error, "upload: %.480s", msg);
        rc = vks_cli_exit_code(err.code);
        goto out;
    }
    r->c.files = r->files;
    vks_result run;
    if (r->pose->anim) { /* clips: sampled on the GPU by crowds of instances, chunk by chunk */
        double t0 = vks_validate_now_ms();
        vks_cli_crowd_stats cs = {0};
        run = vks_cli_gpu_clips_upload(gpu, ms, posers, (uint32_t)r->nfiles, &gclips, &err);
        if (run == VKS_OK) {
            vks_cli_crowd_job job = {gpu, ms, &gclips, posers, (uint32_t)r->nfiles, r->pose->frames,
                                     r->gopt.max_chunk_bytes, 0, NULL, crowd_deliver, &r->c};
            job.progress = r->json ? NULL : "validate";
            run = vks_cli_crowd_run(&job, &cs, &err);
        }
        d->st.chunks = cs.chunks, d->st.vertex_instances = cs.vertex_instances;
        d->st.pose_ms = cs.gpu_ms, d->st.total_ms = vks_validate_now_ms() - t0;
        d->crowd_path = 1;
    } else {
        vks_gpu_batch b = {0};
        b.entries = entries, b.entry_count = (uint32_t)r->nfiles;
        b.get_locals = get_locals, b.deliver = deliver, b.user = &r->c;
        b.want_normals = 1;
        b.max_chunk_bytes = r->gopt.max_chunk_bytes;
        run = vks_gpu_run(gpu, ms, &b, &d->st, &err);
    }
    if (run != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        snprintf(d->error, sizeof d->error, "%s", msg);
        rc = err.code == VKS_ERR_INVALID ? VKS_EXIT_RUNTIME : vks_cli_exit_code(err.code);
        goto out;
    }
    d->ran = 1;
    d->validation_layer = r->gopt.validation;
    d->validation_messages = vks_gpu_validation_messages(gpu);
    rc = collect(r, d);
    if (r->gopt.validation && d->validation_messages)
        rc = vks_cli_worse_exit(rc, VKS_EXIT_VALIDATION);
    if (r->report_dir)
        for (int f = 0; f < r->nfiles; f++)
            vks_validate_heatmap(r, gpu, d, f);
out:
    d->exit_code = rc;
    vks_cli_gpu_clips_free(&gclips);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    free(skins), free(posers), free(entries);
    return rc;
}

void vks_validate_device_free(vdevice *d, int nfiles)
{
    for (int f = 0; f < nfiles; f++) {
        if (d->maps)
            for (int k = 0; k < 3; k++)
                vks_error_map_free(&d->maps[f * 3 + k]);
        if (d->heatmaps)
            free(d->heatmaps[f]);
        if (d->heatmap_missing)
            free(d->heatmap_missing[f]);
        if (d->run_errors)
            free(d->run_errors[f]);
        if (d->golden_errors)
            free(d->golden_errors[f]);
    }
    free(d->files), free(d->maps), free(d->heatmaps), free(d->heatmap_missing), free(d->run_errors),
        free(d->golden_errors);
}
