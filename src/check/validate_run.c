/* vks_validate_run (validate.h): the GPU deforms every input's instances in one batch; as each
 * chunk comes back, on the calling thread, the CPU reference (double, no contraction) deforms
 * the same poses, and the chunk is compared (check.h: extremes with the error maps in one pass,
 * NMSE's sums in the components' order) and, where the GPU reduced it, its bytes are checked
 * against the GPU's figures. Only a chunk is held in memory. The comparison is the one vkskin
 * validate runs over its threads (bit-identical for any thread count, so for one thread too). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vkskin/formats.h"
#include "vkskin/validate.h"
#include "check/compare.h"          /* vks__diff_add_sums_pair */
#include "cpu/reference_internal.h" /* vks__cpu_reference_instance */

/* One input's state over the run. */
typedef struct vin {
    const vks_validate_input *in;
    uint32_t frames, poses, delivered;
    vks_diff_tolerance tp, tn;
    double model_scale;
    vks_diff_acc pos, nrm;
    double check_ms;
    char run_error[96];
} vin;

/* What vks_validate_result.owned holds. */
typedef struct vowned {
    vks_validate_device device;
    vin *inputs;
    vks_error_map *maps; /* 2 per input: positions, normals */
    vks_validate_file *files;
    vks_report_file *reports;
    uint32_t count;
} vowned;

typedef struct vrun {
    vowned *o;
    uint32_t count;
    const vks_validate_options *opt;
    /* the reference's room for one instance, sized for the largest model */
    vks_affine *locals;
    vks_affine_d *world, *K;
    vks__ref_cols *cols; /* NULL: the scalar loop */
    float *weights, *rp, *rn;
    uint64_t done, total;
    int reduce;              /* the host recomputes each chunk's figures */
    vks_gpu_figures host;    /* the current chunk's, from the bytes handed over */
    uint32_t readback_compared; /* chunks whose figures the host recomputed */
} vrun;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static void get_locals(void *user, uint32_t entry, uint32_t pose, vks_affine *out)
{
    const vrun *r = user;
    const vin *v = &r->o->inputs[entry];
    vks_pose_source_locals(&v->in->poses, v->in->skin, pose / v->frames, pose % v->frames, out);
}

static void get_weights(void *user, uint32_t entry, uint32_t pose, float *out)
{
    const vrun *r = user;
    const vin *v = &r->o->inputs[entry];
    vks_pose_source_weights(&v->in->poses, v->in->skin, pose / v->frames, pose % v->frames, out);
}

/* One pose: the reference, the instance's error scale, the comparison and the sums. */
static void check_pose(vrun *r, uint32_t entry, uint32_t pose, const float *gp, const float *gn)
{
    vin *v = &r->o->inputs[entry];
    const vks_skin *s = v->in->skin;
    size_t per = (size_t)s->vertex_count * 3;
    vks_error_map *pmap = &r->o->maps[2 * entry], *nmap = &r->o->maps[2 * entry + 1];
    get_locals(r, entry, pose, r->locals);
    vks_cpu_world_d(s, r->locals, r->world);
    const float *w = NULL;
    if (s->target_count) {
        get_weights(r, entry, pose, r->weights);
        w = r->weights;
    }
    vks__cpu_reference_instance(s, r->world, r->K, r->cols, w, r->rp, r->rn);
    double scale = vks_posed_error_scale(s, v->model_scale, r->world, r->rp);
    vks_diff_and_map_add(&v->pos, pmap, &v->tp, v->pos.r.radius, gp, r->rp, pose, 1, s->vertex_count, &scale, r->rp,
                         r->rn);
    vks_diff_and_map_add(&v->nrm, nmap, &v->tn, v->nrm.r.radius, gn, r->rn, pose, 1, s->vertex_count, NULL, NULL,
                         NULL);
    vks__diff_add_sums_pair(&v->pos, gp, r->rp, &v->nrm, gn, r->rn, per);
}

/* A chunk of one input's poses [first, first + count), as the GPU delivered it. */
static int deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    vrun *r = user;
    vin *v = &r->o->inputs[entry];
    size_t per = (size_t)v->in->skin->vertex_count * 3;
    double t0 = now_ms();
    if (r->reduce)
        vks_gpu_figures_add(&r->host, p, n, (size_t)count * v->in->skin->vertex_count);
    for (uint32_t i = 0; i < count; i++)
        check_pose(r, entry, first + i, p + i * per, n + i * per);
    v->delivered += count;
    v->check_ms += now_ms() - t0;
    r->done += count;
    if (r->opt->progress)
        r->opt->progress(r->opt->progress_user, r->done, r->total);
    return 0;
}

/* A chunk done: the GPU's figures against the host's from the same bytes (the exact ones:
 * normal_deviation is float work, for the report only). */
static int chunk_done(void *user, uint32_t chunk, const vks_gpu_figures *g)
{
    vrun *r = user;
    vks_validate_device *d = &r->o->device;
    const vks_gpu_figures *h = &r->host;
    (void)chunk;
    int same = g->sum == h->sum && g->xor_words == h->xor_words && g->nonfinite == h->nonfinite;
    for (int k = 0; k < 3; k++)
        same &= g->min_key[k] == h->min_key[k] && g->max_key[k] == h->max_key[k];
    if (r->reduce) {
        d->readback_mismatches += !same;
        r->readback_compared++;
    }
    vks_gpu_figures_merge(&d->gpu_figures, g);
    d->reduced_chunks++;
    vks_gpu_figures_reset(&r->host);
    return 0;
}

void vks_validate_options_init(vks_validate_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->tolerance_scale = 1.0;
    opt->nmse = vks_diff_default_tolerance().nmse;
    opt->max_chunk_bytes = (uint64_t)32 << 20;
}

/* The options with a zeroed field's default. */
static vks_validate_options options_of(const vks_validate_options *opt)
{
    vks_validate_options o;
    vks_validate_options_init(&o);
    if (opt) {
        vks_validate_options given = *opt;
        o = given;
        if (!(given.tolerance_scale > 0))
            o.tolerance_scale = 1.0;
        if (!(given.nmse > 0))
            o.nmse = vks_diff_default_tolerance().nmse;
        if (!given.max_chunk_bytes)
            o.max_chunk_bytes = (uint64_t)32 << 20;
    }
    return o;
}

/* The worse of two verdicts (least severe first: pass, bind, failed, runtime). */
static int worse(int a, int b)
{
    static const int order[] = {VKS_VALIDATE_PASS, VKS_VALIDATE_BIND, VKS_VALIDATE_FAILED, VKS_VALIDATE_RUNTIME};
    int ra = 0, rb = 0;
    for (int i = 0; i < 4; i++)
        ra = order[i] == a ? i : ra, rb = order[i] == b ? i : rb;
    return rb > ra ? b : a;
}

static int bind_promised(const vks_skin *s)
{
    const vks_format_info *fi = s->format ? vks_format_find(s->format) : NULL;
    return !fi || !fi->bind_not_promised;
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

/* Checks the arguments and sets every input up: tolerances, accumulators, maps, its bind-pose
 * check. */
static vks_result prepare(vrun *r, const vks_validate_input *inputs, vks_error *err)
{
    vowned *o = r->o;
    for (uint32_t k = 0; k < r->count; k++) {
        const vks_validate_input *in = &inputs[k];
        vin *v = &o->inputs[k];
        vks_validate_file *f = &o->files[k];
        if (!in->skin || !in->instances)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "input %u: %s", k,
                                 !in->skin ? "no skin" : "no instances");
        v->in = in, v->frames = in->frames ? in->frames : 1;
        if ((uint64_t)in->instances * v->frames > UINT32_MAX)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "input %u: too many poses", k);
        v->poses = in->instances * v->frames;
        r->total += v->poses;
        v->tp = vks_diff_default_tolerance(), v->tn = vks_diff_default_normal_tolerance();
        v->tp.abs_radius *= r->opt->tolerance_scale, v->tp.rel *= r->opt->tolerance_scale, v->tp.nmse = r->opt->nmse;
        v->tn.abs_radius *= r->opt->tolerance_scale, v->tn.rel *= r->opt->tolerance_scale, v->tn.nmse = r->opt->nmse;
        v->model_scale = vks_skin_error_scale(in->skin);
        vks_diff_begin(&v->pos, v->model_scale, &v->tp);
        vks_diff_begin(&v->nrm, 1.0, &v->tn);
        for (int m = 0; m < 2; m++)
            if (vks_error_map_init(&o->maps[2 * k + m], in->skin->vertex_count) != VKS_OK)
                return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory for error maps");
        double t0 = now_ms();
        vks_result rc = vks_cpu_bind_check(in->skin, &f->bind, err);
        if (rc != VKS_OK)
            return rc;
        o->reports[k].bind_seconds = (now_ms() - t0) / 1e3;
        f->bind_promised = bind_promised(in->skin);
        f->bind_failed = !f->bind.pass && f->bind_promised && !r->opt->allow_bind_mismatch;
    }
    return VKS_OK;
}

/* The reference's room for one instance of the largest model. */
static vks_result make_room(vrun *r)
{
    size_t nodes = 1, bones = 1, verts = 1, targets = 1;
    for (uint32_t k = 0; k < r->count; k++) {
        const vks_skin *s = r->o->inputs[k].in->skin;
        nodes = s->node_count > nodes ? s->node_count : nodes;
        bones = s->bone_count > bones ? s->bone_count : bones;
        verts = s->vertex_count > verts ? s->vertex_count : verts;
        targets = s->target_count > targets ? s->target_count : targets;
    }
    r->locals = malloc(nodes * sizeof *r->locals);
    r->world = malloc(nodes * sizeof *r->world);
    r->K = malloc(bones * sizeof *r->K);
    r->cols = vks__cpu_reference_has_simd() ? malloc(bones * sizeof *r->cols) : NULL;
    r->weights = malloc(targets * sizeof *r->weights);
    r->rp = malloc(verts * 3 * sizeof *r->rp);
    r->rn = malloc(verts * 3 * sizeof *r->rn);
    int ok = r->locals && r->world && r->K && r->weights && r->rp && r->rn;
    return ok && (r->cols || !vks__cpu_reference_has_simd()) ? VKS_OK : VKS_ERR_NOMEM;
}

static void free_room(vrun *r)
{
    free(r->locals), free(r->world), free(r->K), free(r->cols), free(r->weights), free(r->rp), free(r->rn);
}

/* Each file's verdict into its report (report.h's view), and the device's. */
static void collect(vrun *r, double total_ms)
{
    vowned *o = r->o;
    vks_validate_device *d = &o->device;
    double own = 0;
    for (uint32_t k = 0; k < r->count; k++)
        own += o->inputs[k].check_ms;
    for (uint32_t k = 0; k < r->count; k++) {
        vin *v = &o->inputs[k];
        vks_validate_file *f = &o->files[k];
        vks_report_file *rf = &o->reports[k];
        const vks_skin *s = v->in->skin;
        rf->path = v->in->name ? v->in->name : "?";
        rf->format = s->format ? s->format : "?";
        rf->vertices = s->vertex_count, rf->poses = v->poses;
        vks_diff_end(&v->pos, &rf->positions);
        vks_diff_end(&v->nrm, &rf->normals);
        rf->position_errors = &o->maps[2 * k], rf->normal_errors = &o->maps[2 * k + 1];
        rf->normals_absent = normals_absent(s);
        if (v->delivered != v->poses) {
            snprintf(v->run_error, sizeof v->run_error, "the GPU delivered %u of %u poses", v->delivered, v->poses);
            rf->run_error = v->run_error;
        }
        rf->bind_pass = f->bind.pass, rf->bind_allowed = !f->bind.pass && !f->bind_failed;
        rf->bind_max_error = f->bind.max_error, rf->bind_max_relative = f->bind.max_error_relative;
        rf->bind_tolerance = f->bind.tolerance;
        rf->skin = s;
        rf->seconds = (v->check_ms + (total_ms > own ? (total_ms - own) / r->count : 0)) / 1e3;
        f->influences_lost = s->weights.truncated, f->influences_lost_max = s->weights.truncated_max_weight;
        f->rule_dropped = s->weights.rule_dropped, f->rule_dropped_max = s->weights.rule_dropped_max;
        f->instances = v->in->instances;
        int ok = rf->positions.pass && rf->normals.pass && !rf->run_error;
        d->exit_code = worse(d->exit_code, ok ? VKS_VALIDATE_PASS : VKS_VALIDATE_FAILED);
        d->exit_code = worse(d->exit_code, f->bind_failed ? VKS_VALIDATE_BIND : VKS_VALIDATE_PASS);
    }
    if (d->readback_mismatches) /* the data compared is not what the GPU wrote: no verdict on it */
        d->exit_code = worse(d->exit_code, VKS_VALIDATE_RUNTIME);
    if (d->validation_layer && d->validation_messages)
        d->exit_code = worse(d->exit_code, VKS_VALIDATE_FAILED);
}

/* The batch: every input's poses, the readback check as asked, on gpu. */
static vks_result run_batch(vrun *r, vks_gpu *gpu, vks_error *err)
{
    vowned *o = r->o;
    vks_validate_device *d = &o->device;
    const vks_skin **skins = calloc(r->count, sizeof *skins);
    vks_gpu_batch_entry *entries = calloc(r->count, sizeof *entries);
    vks_gpu_models *ms = NULL;
    vks_result rc = skins && entries ? VKS_OK : VKS_ERR_NOMEM;
    for (uint32_t k = 0; rc == VKS_OK && k < r->count; k++) {
        skins[k] = o->inputs[k].in->skin;
        entries[k] = (vks_gpu_batch_entry){k, o->inputs[k].poses, NULL};
    }
    if (rc == VKS_OK)
        rc = vks_gpu_upload(gpu, skins, r->count, &ms, err);
    if (rc == VKS_OK) {
        vks_gpu_batch b = {0};
        b.entries = entries, b.entry_count = r->count;
        b.get_locals = get_locals, b.deliver = deliver, b.user = r;
        for (uint32_t k = 0; k < r->count; k++)
            if (skins[k]->target_count)
                b.get_weights = get_weights;
        b.want_normals = 1, b.max_chunk_bytes = r->opt->max_chunk_bytes;
        b.reduce = r->opt->readback_check > 0 ? 1 : r->opt->readback_check < 0 ? 0 : VKS_GPU_REDUCE_COPIED;
        b.chunk_done = chunk_done;
        r->reduce = d->reduced = vks_gpu_batch_reduces(gpu, &b);
        vks_gpu_figures_reset(&r->host);
        vks_gpu_figures_reset(&d->gpu_figures);
        rc = vks_gpu_run(gpu, ms, &b, &d->stats, err);
    }
    if (rc == VKS_ERR_NOMEM && !skins)
        vks_error_set(err, rc, VKS_NO_OFFSET, "validate", "out of memory");
    vks_gpu_models_free(ms);
    free(skins), free(entries);
    return rc;
}

static void describe_device(vks_validate_device *d, vks_gpu *gpu, const vks_validate_options *opt)
{
    const vks_gpu_device_info *info = vks_gpu_device(gpu);
    snprintf(d->name, sizeof d->name, "%s", info->name);
    snprintf(d->type, sizeof d->type, "%s", info->type);
    d->queue_family = info->queue_family, d->queue_index = info->queue_index;
    d->tolerance_scale = opt->tolerance_scale, d->nmse = opt->nmse;
    d->readback_check = opt->readback_check;
}

vks_result vks_validate_run(vks_gpu *gpu, const vks_validate_input *inputs, uint32_t count,
                            const vks_validate_options *options, vks_validate_result *out, vks_error *err)
{
    vks_error local = {0};
    if (!err)
        err = &local;
    memset(out, 0, sizeof *out);
    if (!gpu || !inputs || !count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "needs a GPU context and inputs");
    vks_validate_options opt = options_of(options);
    vowned *o = calloc(1, sizeof *o);
    if (o) {
        o->inputs = calloc(count, sizeof *o->inputs);
        o->maps = calloc((size_t)count * 2, sizeof *o->maps);
        o->files = calloc(count, sizeof *o->files);
        o->reports = calloc(count, sizeof *o->reports);
        o->device.files = o->files, o->device.reports = o->reports;
        o->count = count;
    }
    if (!o || !o->inputs || !o->maps || !o->files || !o->reports) {
        out->owned = o, out->devices = o ? &o->device : NULL;
        vks_validate_result_free(out);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    }
    vks_validate_device *d = &o->device;
    out->owned = o, out->devices = d, out->device_count = 1;
    out->tolerance_scale = opt.tolerance_scale, out->nmse = opt.nmse;
    d->file_count = count;
    describe_device(d, gpu, &opt);
    vrun r = {.o = o, .count = count, .opt = &opt};
    double t0 = now_ms();
    vks_result rc = prepare(&r, inputs, err);
    if (rc == VKS_OK)
        rc = make_room(&r) == VKS_OK ? VKS_OK
                                     : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    if (rc == VKS_OK)
        rc = run_batch(&r, gpu, err);
    free_room(&r);
    if (rc != VKS_OK) {
        char msg[480];
        snprintf(d->error, sizeof d->error, "%s", vks_error_format(err, NULL, msg, sizeof msg));
        d->exit_code = VKS_VALIDATE_RUNTIME;
    } else {
        d->ran = 1;
        d->stats.total_ms = now_ms() - t0;
        d->readback_checked = r.readback_compared == d->stats.chunks && d->stats.chunks > 0;
        d->validation_layer = opt.validation_layer;
        d->validation_messages = vks_gpu_validation_messages(gpu);
        collect(&r, d->stats.total_ms);
    }
    out->exit_code = d->exit_code;
    out->pass = vks_validate_device_pass(d);
    return rc;
}

void vks_validate_result_free(vks_validate_result *r)
{
    vowned *o = r ? r->owned : NULL;
    if (o) {
        for (uint32_t k = 0; o->maps && k < 2 * o->count; k++)
            vks_error_map_free(&o->maps[k]);
        free(o->inputs), free(o->files), free(o->reports), free(o->maps);
        free(o);
    }
    if (r)
        memset(r, 0, sizeof *r);
}
