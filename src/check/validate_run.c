/* vks_validate_run (validate.h): the GPU deforms every input's instances in one batch; as each
 * chunk comes back the CPU reference deforms the same poses on the caller's threads and the
 * chunk is compared, mapped per vertex and, where the GPU reduced it, its bytes checked against
 * the GPU's figures: the engine of vkskin validate (validate_engine.h), driven here for one
 * context and one batch, so that a host and the CLI get the same numbers. Only a chunk is held
 * in memory. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/formats.h"
#include "check/validate_state.h"
#include "core/work_pool.h"

/* The context's pool of `workers` threads beside the caller's, started at the first chunk that
 * has work for two and kept for the run (a run delivers a chunk per input of each GPU chunk, and
 * on a machine of 16 cores starting and ending 15 threads for every one of them cost more than
 * the sums); NULL when none could be started (the caller then runs every part itself). */
static vks__work_pool *pool_of(vctx *c, int workers)
{
    if (!c->pool_tried && workers >= 1) {
        c->pool_tried = 1;
        c->pool = vks__work_pool_start((uint32_t)workers, "validate's reference: fewer threads (none: every share "
                                                          "on the calling thread)");
    }
    return c->pool;
}

typedef struct parts_call {
    void *(*fn)(void *);
    void *const *args;
} parts_call;

static void run_part(void *arg, uint32_t i)
{
    const parts_call *p = arg;
    p->fn(p->args[i]);
}

/* vctx.parallel: the parts on the pool's threads and the caller (the result is the same). */
static void parallel(vctx *c, int parts, void *(*fn)(void *), void *const *args)
{
    parts_call p = {fn, args};
    vks__work_pool_share(pool_of(c, vks__validate_threads(c->threads) - 1), (uint32_t)parts, run_part, &p);
}

void vks_validate_options_init(vks_validate_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->tolerance_scale = 1.0;
    opt->nmse = vks_diff_default_tolerance().nmse;
    opt->max_chunk_bytes = (uint64_t)32 << 20;
    opt->sample_seed = 41;
}

/* The options with a zeroed field's default. */
static vks_validate_options options_of(const vks_validate_options *opt)
{
    vks_validate_options o;
    vks_validate_options_init(&o);
    if (opt) {
        vks_validate_options given = *opt;
        o = given;
        if (!(given.tolerance_scale > 0)) /* below 0: zero itself, the strictest */
            o.tolerance_scale = given.tolerance_scale < 0 ? 0 : 1.0;
        if (!(given.nmse > 0))
            o.nmse = given.nmse < 0 ? 0 : vks_diff_default_tolerance().nmse;
        if (!given.max_chunk_bytes)
            o.max_chunk_bytes = (uint64_t)32 << 20;
        if (!given.sample_seed)
            o.sample_seed = 41;
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

/* Meshes whose morph weights a source drives (procedural poses keep the defaults). */
static uint32_t morph_mesh_count(const vks_skin *s, const vks_pose_source *src)
{
    uint32_t n = 0;
    for (uint32_t m = 0; src->kind != VKS_POSE_PROCEDURAL && m < s->mesh_count; m++)
        n += s->meshes[m].target_count != 0;
    return n;
}

/* The tolerances as the run applies them: the derived bounds times tolerance_scale, its NMSE. */
static void tolerances(vfile *v, const vks_validate_options *opt)
{
    v->tp = vks_diff_default_tolerance(), v->tn = vks_diff_default_normal_tolerance();
    v->tp.abs_radius *= opt->tolerance_scale, v->tp.rel *= opt->tolerance_scale, v->tp.nmse = opt->nmse;
    v->tn.abs_radius *= opt->tolerance_scale, v->tn.rel *= opt->tolerance_scale, v->tn.nmse = opt->nmse;
    v->model_scale = vks_skin_error_scale(v->skin);
    vks_diff_begin(&v->pos, v->model_scale, &v->tp);
    vks_diff_begin(&v->nrm, 1.0, &v->tn);
    vks_diff_begin(&v->gpos, v->model_scale, &v->tp);
    vks_diff_begin(&v->gnrm, 1.0, &v->tn);
}

/* Input k's arguments checked: a skin, instances, a pose count that fits, and the route of
 * input 0 (every input takes the same). */
static vks_result check_input(const vks_validate_input *inputs, uint32_t k, vks_error *err)
{
    const vks_validate_input *in = &inputs[k];
    if (!in->skin || !in->instances)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "input %u: %s", k,
                             !in->skin ? "no skin" : "no instances");
    if ((uint64_t)in->instances * (in->frames ? in->frames : 1) > UINT32_MAX)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "input %u: too many poses", k);
    if (!in->gpu_instance != !inputs[0].gpu_instance)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate",
                             "input %u: every input takes the same route (gpu_instance set or not)", k);
    return VKS_OK;
}

/* Checks the arguments and sets every input up as vkskin validate does its files: tolerances,
 * accumulators, maps, golden, its bind-pose check. */
static vks_result prepare(vrun *r, const vks_validate_input *inputs, vks_error *err)
{
    vowned *o = r->o;
    for (uint32_t k = 0; k < r->count; k++) {
        const vks_validate_input *in = &inputs[k];
        vfile *v = &o->inputs[k];
        vks_validate_file *f = &o->files[k];
        v->gold.fd = -1;
        vks_result rc = check_input(inputs, k, err);
        if (rc != VKS_OK)
            return rc;
        v->path = in->name ? in->name : "?", v->skin = (vks_skin *)in->skin;
        v->ps = (vposer){&in->poses, in->roots, morph_mesh_count(in->skin, &in->poses)};
        v->frames = in->frames ? in->frames : 1;
        v->poses = in->instances * v->frames;
        r->total += v->poses;
        const vgold *g = vks__validate_golden_of(r->opt->golden, k);
        if (g) /* the run works on a copy, given back when it ends */
            v->gold = *g;
        r->prepared = k + 1;
        for (int m = 0; m < 3; m++)
            if (vks_error_map_init(&o->maps[3 * k + m], in->skin->vertex_count) != VKS_OK)
                return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory for error maps");
        v->pmap = &o->maps[3 * k], v->nmap = &o->maps[3 * k + 1], v->gmap = &o->maps[3 * k + 2];
        tolerances(v, r->opt);
        double t0 = vks__validate_now_ms();
        if ((rc = vks_cpu_bind_check(in->skin, &f->bind, err)) != VKS_OK)
            return rc;
        v->bind = f->bind, v->bind_ms = vks__validate_now_ms() - t0;
        f->bind_promised = v->bind_promised = bind_promised(in->skin);
        f->bind_failed = !f->bind.pass && f->bind_promised && !r->opt->allow_bind_mismatch;
    }
    if (r->opt->golden) {
        r->c.save_golden = vks__validate_golden_saves(r->opt->golden);
        r->c.against = !r->c.save_golden;
    }
    return VKS_OK;
}

/* Each file's seconds for the JUnit cases: its own checking time, and the rest of the run
 * (the GPU's work, shared by every file's chunks) by its share of the vertex-instances. */
static void file_seconds(vowned *o, double total_ms)
{
    double own = 0, work = 0;
    for (uint32_t k = 0; k < o->count; k++) {
        own += o->inputs[k].check_ms + o->inputs[k].golden_ms;
        work += (double)o->inputs[k].skin->vertex_count * o->inputs[k].poses;
    }
    double rest = total_ms > own ? total_ms - own : 0;
    for (uint32_t k = 0; k < o->count; k++) {
        const vfile *v = &o->inputs[k];
        double share = work > 0 ? rest * ((double)v->skin->vertex_count * v->poses / work) : 0;
        o->reports[k].seconds = (v->check_ms + share) / 1e3;
        o->reports[k].golden_seconds = v->golden_ms / 1e3;
        o->reports[k].bind_seconds = v->bind_ms / 1e3;
    }
}

/* A golden's comparison of input k into its report; whether it passed. */
static int collect_golden(vowned *o, uint32_t k, int against)
{
    vfile *v = &o->inputs[k];
    vks_report_file *rf = &o->reports[k];
    if (!against)
        return 1;
    rf->has_golden = 1;
    vks_diff_end(&v->gpos, &rf->golden_positions);
    vks_diff_end(&v->gnrm, &rf->golden_normals);
    rf->golden_errors = v->gmap;
    char why[320];
    if (v->gold.io_failed && !v->gold.mismatch)
        snprintf(why, sizeof why, "reading the golden's raw failed: %s", strerror(v->gold.io_errno));
    if (v->gold.mismatch || v->gold.io_failed)
        rf->golden_error = o->golden_errors[k] = strdup(v->gold.mismatch ? v->gold.mismatch : why);
    return !v->gold.mismatch && !v->gold.io_failed && rf->golden_positions.pass && rf->golden_normals.pass;
}

/* Each file's verdict into its report (report.h's view), and the device's. */
static void collect(vowned *o, int against)
{
    vks_validate_device *d = &o->device;
    file_seconds(o, d->stats.total_ms);
    for (uint32_t k = 0; k < o->count; k++) {
        vfile *v = &o->inputs[k];
        vks_validate_file *f = &o->files[k];
        vks_report_file *rf = &o->reports[k];
        const vks_skin *s = v->skin;
        rf->path = v->path;
        rf->format = s->format ? s->format : "?";
        rf->vertices = s->vertex_count, rf->poses = v->poses;
        vks_diff_end(&v->pos, &rf->positions);
        vks_diff_end(&v->nrm, &rf->normals);
        rf->position_errors = v->pmap, rf->normal_errors = v->nmap;
        rf->normals_absent = normals_absent(s);
        if (v->delivered != v->poses) {
            snprintf(o->run_errors[k], sizeof o->run_errors[k], "the GPU delivered %u of %u poses", v->delivered,
                     v->poses);
            rf->run_error = o->run_errors[k];
        }
        rf->bind_pass = f->bind.pass, rf->bind_allowed = !f->bind.pass && !f->bind_failed;
        rf->bind_max_error = f->bind.max_error, rf->bind_max_relative = f->bind.max_error_relative;
        rf->bind_tolerance = f->bind.tolerance;
        rf->skin = s;
        f->influences_lost = s->weights.truncated, f->influences_lost_max = s->weights.truncated_max_weight;
        f->rule_dropped = s->weights.rule_dropped, f->rule_dropped_max = s->weights.rule_dropped_max;
        f->instances = v->poses / v->frames, f->delivered = v->delivered;
        int golden_ok = collect_golden(o, k, against);
        int ok = rf->positions.pass && rf->normals.pass && !rf->run_error && golden_ok;
        d->exit_code = worse(d->exit_code, ok ? VKS_VALIDATE_PASS : VKS_VALIDATE_FAILED);
        d->exit_code = worse(d->exit_code, f->bind_failed ? VKS_VALIDATE_BIND : VKS_VALIDATE_PASS);
    }
    if (d->readback_mismatches) /* the data compared is not what the GPU wrote: no verdict on it */
        d->exit_code = worse(d->exit_code, VKS_VALIDATE_RUNTIME);
    if (d->bound_failures) /* sampled: an instance not compared went wrong */
        d->exit_code = worse(d->exit_code, VKS_VALIDATE_FAILED);
    if (d->validation_layer && d->validation_messages)
        d->exit_code = worse(d->exit_code, VKS_VALIDATE_FAILED);
}

/* The batch's reduction: the readback check's rule for what the host recomputes, and for a
 * sampled run every chunk reduced (what vouches for the instances not compared). Whether the
 * GPU reduces, into *reduce; VKS_ERR_UNSUPPORTED where a sampled run needs a reduction the
 * device cannot make. */
static vks_result batch_reduction(vrun *r, vks_gpu *gpu, int *reduce, vks_error *err)
{
    int check = r->opt->readback_check;
    vks_gpu_batch b = {0}; /* what the stream's batch will ask */
    b.max_chunk_bytes = r->opt->max_chunk_bytes, b.want_normals = 1;
    b.reduce = check > 0 ? 1 : check < 0 ? 0 : VKS_GPU_REDUCE_COPIED;
    r->c.reduce = vks_gpu_batch_reduces(gpu, &b); /* the host recomputes only what will come */
    if (r->c.sampled)
        b.reduce = 1;
    *reduce = r->o->device.reduced = vks_gpu_batch_reduces(gpu, &b);
    if (r->c.sampled && !*reduce)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "validate",
                             "sampled validation needs the GPU's reduction of each chunk (subgroup arithmetic), "
                             "which the device lacks");
    return VKS_OK;
}

/* The batch of every input's poses on gpu, through the stream, compared chunk by chunk. */
static vks_result run_batch(vrun *r, vks_gpu *gpu, vks_error *err)
{
    int reduce = 0, weights = 0;
    vks_result rc = batch_reduction(r, gpu, &reduce, err);
    for (uint32_t k = 0; k < r->count; k++)
        weights |= r->o->inputs[k].ps.morph_meshes != 0; /* the poses drive morph weights */
    if (rc == VKS_OK) {
        vks__validate_next_chunk(&r->c);
        vks_gpu_figures_reset(&r->counts.gpu_figures);
        rc = vks__validate_host(r, gpu, reduce, weights, err);
        if (rc != VKS_OK && err->code == VKS_OK) /* a chunk's reference ran out of memory */
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory for a chunk's reference");
    }
    return rc;
}

/* The route the inputs and options ask for, every skin uploaded to gpu first. */
static vks_result run_route(vrun *r, vks_gpu *gpu, vks_error *err)
{
    if (!(r->skins = calloc(r->count, sizeof *r->skins)))
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    for (uint32_t k = 0; k < r->count; k++)
        r->skins[k] = r->o->inputs[k].skin;
    vks_result rc = vks_gpu_upload(gpu, r->skins, r->count, &r->ms, err);
    if (rc != VKS_OK)
        return rc;
    if (r->in[0].gpu_instance) { /* several contexts: the host's run_stream splits the stream */
        if (r->c.sampled)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "validate",
                                 "the GPU-clip route compares every instance (no sample)");
        if (r->opt->more_context_count && !r->opt->run_stream)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "validate",
                                 "the GPU-clip route splits across contexts through options.run_stream only");
        return vks__validate_crowd(r, gpu, err);
    }
    if (r->opt->more_context_count) {
        if (r->c.sampled)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "validate", "a sampled run takes one context");
        if (r->opt->more_context_count >= VKS_VALIDATE_MAX_CONTEXTS)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "more than %u contexts",
                                 (unsigned)VKS_VALIDATE_MAX_CONTEXTS);
        return vks__validate_split_batch(r, gpu, err);
    }
    return run_batch(r, gpu, err);
}
static vks_result prepare_sample(vrun *r, vks_error *err)
{
    const vks_validate_options *opt = r->opt;
    if (!opt->sample_count && !(opt->sample_percent > 0))
        return VKS_OK;
    if (opt->sample_percent > 100)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "sample_percent %g is over 100",
                             opt->sample_percent);
    r->c.sampled = 1;
    if (vks__validate_sample_prepare(opt->sample_count, opt->sample_percent, opt->sample_seed, r->o->inputs,
                                     (int)r->count) >= 0)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory for the sample");
    vks_validate_device *d = &r->o->device;
    d->sampled = 1, d->sample_count = opt->sample_percent > 0 ? 0 : opt->sample_count;
    d->sample_percent = opt->sample_percent > 0 ? opt->sample_percent : 0, d->sample_seed = opt->sample_seed;
    return VKS_OK;
}

static void describe_device(vks_validate_device *d, vks_gpu *gpu, const vks_validate_options *opt)
{
    const vks_gpu_device_info *info = vks_gpu_device(gpu);
    snprintf(d->name, sizeof d->name, "%s", info ? info->name : "");
    snprintf(d->type, sizeof d->type, "%s", info ? info->type : "");
    d->queue_family = info ? info->queue_family : 0, d->queue_index = info ? info->queue_index : 0;
    d->tolerance_scale = opt->tolerance_scale, d->nmse = opt->nmse;
    d->readback_check = opt->readback_check;
    d->validation_layer = opt->validation_layer;
}

/* The run's findings into the device (counts) and its verdict. */
static void finish(vrun *r, vks_gpu *gpu)
{
    vks_validate_device *d = &r->o->device;
    const vcounts *k = &r->counts;
    d->ran = 1;
    d->reduced_chunks = k->reduced_chunks, d->readback_mismatches = k->readback_mismatches;
    d->gpu_figures = k->gpu_figures;
    uint32_t units = d->crowd_path ? k->crowd_deliveries : d->stats.chunks; /* what the check covers */
    d->readback_checked = k->readback_compared == units && units > 0;
    d->bound_checked = k->bound_checked, d->bound_failures = k->bound_failures;
    for (uint32_t f = 0; f < r->count; f++)
        r->o->files[f].sampled = r->o->inputs[f].sampled;
    if (d->sampled)
        vks__validate_reduction_said(k, d->reduction_check, sizeof d->reduction_check);
    d->validation_messages = vks_gpu_validation_messages(gpu);
    for (uint32_t c = 0; c < r->opt->more_context_count; c++)
        d->validation_messages += vks_gpu_validation_messages(r->opt->more_contexts[c]);
    collect(r->o, r->c.against);
}

static vowned *make_owned(uint32_t count)
{
    vowned *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->count = count;
    o->inputs = calloc(count, sizeof *o->inputs);
    o->maps = calloc((size_t)count * 3, sizeof *o->maps);
    o->files = calloc(count, sizeof *o->files);
    o->reports = calloc(count, sizeof *o->reports);
    o->run_errors = calloc(count, sizeof *o->run_errors);
    o->golden_errors = calloc(count, sizeof *o->golden_errors);
    o->device.files = o->files, o->device.reports = o->reports, o->device.file_count = count;
    return o;
}

/* The golden's state back from the run's copies (what was written or read, why not). */
static void give_golden_back(vrun *r)
{
    for (uint32_t k = 0; k < r->prepared; k++) {
        vgold *g = vks__validate_golden_of(r->opt->golden, k);
        if (g)
            *g = r->o->inputs[k].gold;
        r->o->inputs[k].gold = (vgold){.fd = -1};
    }
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
    vowned *o = make_owned(count);
    out->owned = o;
    if (!o || !o->inputs || !o->maps || !o->files || !o->reports || !o->run_errors || !o->golden_errors) {
        vks_validate_result_free(out);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    }
    out->devices = &o->device, out->device_count = 1;
    out->tolerance_scale = opt.tolerance_scale, out->nmse = opt.nmse;
    describe_device(&o->device, gpu, &opt);
    vrun r = {.o = o, .count = count, .in = inputs, .opt = &opt};
    r.c.files = o->inputs, r.c.threads = opt.threads, r.c.parallel = parallel, r.c.counts = &r.counts;
    r.c.say = opt.say, r.c.say_user = opt.say_user;
    double t0 = vks__validate_now_ms();
    vks_result rc = prepare(&r, inputs, err);
    if (rc == VKS_OK)
        rc = prepare_sample(&r, err);
    if (rc == VKS_OK)
        rc = run_route(&r, gpu, err);
    vks__work_pool_finish(r.c.pool);
    r.c.pool = NULL;
    vks__validate_ctx_free(&r.c);
    vks_gpu_models_free(r.ms);
    free(r.skins);
    if (rc != VKS_OK) {
        char msg[480];
        snprintf(o->device.error, sizeof o->device.error, "%s", vks_error_format(err, NULL, msg, sizeof msg));
        o->device.exit_code = VKS_VALIDATE_RUNTIME;
    } else {
        o->device.stats.total_ms = vks__validate_now_ms() - t0;
        finish(&r, gpu);
    }
    give_golden_back(&r);
    out->exit_code = o->device.exit_code;
    out->pass = vks_validate_device_pass(&o->device);
    return rc;
}

void vks_validate_result_free(vks_validate_result *r)
{
    vowned *o = r ? r->owned : NULL;
    if (o) {
        for (uint32_t k = 0; o->maps && k < 3 * o->count; k++)
            vks_error_map_free(&o->maps[k]);
        if (o->inputs)
            vks__validate_sample_free(o->inputs, (int)o->count);
        for (uint32_t k = 0; o->golden_errors && k < o->count; k++)
            free(o->golden_errors[k]);
        free(o->inputs), free(o->files), free(o->reports), free(o->maps), free(o->run_errors), free(o->golden_errors);
        free(o);
    }
    if (r)
        memset(r, 0, sizeof *r);
}
