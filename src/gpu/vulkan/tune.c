/* vks_gpu_tune: the calibration of launch shapes on the device at hand (gpu.h), and the same
 * calibration at first use (tuning_start.h says when; vks_gpu_run asks). Each candidate
 * rebuilds the shape-dependent pipelines, runs the same batch of procedural poses once (buffers
 * made, pages touched) and then `repeats` times with readback off, and is scored by the median
 * of its deform-pass timestamps: the pass the shape changes. The pose pass's shape (pose_wg)
 * is measured with it where a candidate sets one. */
#include "gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gpu/calibration_once.h"
#include "gpu/tuning_start.h"

/* The built-in candidates this context's device can run (tuning.h), into list; says at info
 * level how many it left out, so a tune on a small device shows why it times fewer. */
static uint32_t builtin_for(vks_gpu *gpu, const char **list, int say)
{
    vks__device_facts f = vks__gpu_facts(gpu);
    uint32_t left = 0, count = vks__tuning_candidates(&f, list, VKS_GPU_TUNE_MAX, &left);
    if (left && say)
        vks__log(&gpu->opt.logger, VKS_LOG_INFO,
                 "launch shape: %u built-in candidate(s) left out: over this device's workgroup or shared-memory "
                 "limits", left);
    return count;
}

static void small_take(vks_gpu *gpu, const vks__launch_shape *w, const char *reason);

typedef struct tune_poses {
    const vks_skin *skin;
} tune_poses;

static void procedural_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    (void)entry;
    const tune_poses *t = user;
    vks_pose_procedural(t->skin, 1, instance, 0.25f, 0.0f, out);
}


/* Median deform-pass time of the batch on the current shape. */
static vks_result time_shape(vks_gpu *gpu, const vks_gpu_models *ms, const vks_gpu_batch *b, uint32_t repeats,
                             double *deform_ms, vks_error *err)
{
    double t[64];
    vks_gpu_stats st;
    vks_result res = vks_gpu_run(gpu, ms, b, &st, err); /* the first run: buffers made, pages touched */
    for (uint32_t i = 0; i < repeats && res == VKS_OK; i++) {
        res = vks_gpu_run(gpu, ms, b, &st, err);
        t[i] = st.deform_ms;
    }
    if (res != VKS_OK)
        return res;
    *deform_ms = vks__median(t, repeats);
    return VKS_OK;
}

/* Switches the context to shape s: the kept batch buffers go first, once the queue is idle
 * (their work tables are sized for the old workgroup and run). */
static vks_result reshape(vks_gpu *gpu, const vks__launch_shape *s, vks_error *err)
{
    gpu->vk.vkQueueWaitIdle(gpu->queue);
    vks__batch_cache_free(gpu);
    return vks__pipelines_reshape(gpu, s, err);
}

/* Times the candidates cand[count] on batch b (one entry of `instances` instances of a model of
 * `vertices` vertices) and switches the context to the fastest (source "calibration", with
 * reason); fills out's candidates and best. On failure the context keeps the shape it had. */
static vks_result calibrate(vks_gpu *gpu, const vks_gpu_models *ms, const vks_gpu_batch *b, uint32_t vertices,
                            uint32_t instances, const char *const *cand, uint32_t count, uint32_t repeats,
                            const char *reason, vks_gpu_tune_result *out, vks_error *err)
{
    /* Every candidate is checked against the device before anything is timed. */
    vks__device_facts f = vks__gpu_facts(gpu);
    vks__launch_shape base = vks__tuning_pick(&f), *shapes = calloc(count, sizeof *shapes);
    if (!shapes)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/tune", "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        char why[256];
        shapes[i] = base;
        if (!vks__launch_shape_apply(cand[i], &f, &shapes[i], why, sizeof why)) {
            free(shapes);
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/tune", "candidate %u: %s", i, why);
        }
    }
    vks__launch_shape before = gpu->shape;
    vks_result res = VKS_OK;
    double best = 0;
    gpu->calibrating = 1;
    for (uint32_t i = 0; i < count && res == VKS_OK; i++) {
        res = reshape(gpu, &shapes[i], err);
        double ms_deform = 0;
        if (res == VKS_OK)
            res = time_shape(gpu, ms, b, repeats, &ms_deform, err);
        if (res != VKS_OK)
            break;
        vks__launch_shape_format(&shapes[i], out->candidate[i].shape, sizeof out->candidate[i].shape);
        out->candidate[i].deform_ms = ms_deform;
        out->candidate[i].vertex_instances_per_second =
            ms_deform > 0 ? (double)vertices * instances / (ms_deform * 1e-3) : 0;
        if (i == 0 || out->candidate[i].vertex_instances_per_second > best)
            best = out->candidate[i].vertex_instances_per_second, out->best = i;
        out->count = i + 1;
    }
    gpu->calibrating = 0;
    if (res != VKS_OK) {
        vks_error keep = err ? *err : (vks_error){0};
        reshape(gpu, &before, NULL); /* the context as it was */
        if (err)
            *err = keep;
        free(shapes);
        return res;
    }
    vks__launch_shape won = shapes[out->best];
    won.source = "calibration";
    won.reason = reason;
    free(shapes);
    return reshape(gpu, &won, err);
}

/* Stores the winner in the cache under key (where there is one), warning where it cannot. */
static void store_as(vks_gpu *gpu, const vks__cache_key *key, vks_gpu_tune_result *out)
{
    if (!gpu->cache_dir[0])
        return;
    vks__cache_path(gpu->cache_dir, key, vks__cache_shape_entry(key), out->cache_path, sizeof out->cache_path);
    char why[512];
    out->stored = vks__cache_write_shape(gpu->cache_dir, key, out->candidate[out->best].shape,
                                         out->candidate[out->best].vertex_instances_per_second, why, sizeof why);
    if (!out->stored)
        vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "%s", why);
}

static void store(vks_gpu *gpu, vks_gpu_tune_result *out)
{
    store_as(gpu, &gpu->cache_key, out);
}

vks_result vks_gpu_tune(vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                        vks_gpu_tune_result *out, vks_error *err)
{
    vks_gpu_tune_options o = {0};
    if (opt)
        o = *opt;
    if (!gpu || !skin || !out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/tune", "NULL context, skin or result");
    memset(out, 0, sizeof *out);
    if (!gpu->timestamps)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "gpu/tune",
                             "the context's queue has no timestamps: nothing to time the shapes with");
    if (gpu->live_crowds) /* their work lists are cut for the shape they were made with */
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/tune",
                             "%u crowd(s) of this context alive: their work lists fit the current launch shape; "
                             "tune before making crowds, or destroy them first", gpu->live_crowds);
    /* a small model's measurement is the small-model class's (tuning.h): its candidates, its
       regime of instances, its shape and cache entry; the context's shape is left as it was */
    int small = vks__small_model(skin->vertex_count);
    const char *builtin[VKS_GPU_TUNE_MAX];
    const char *const *cand = o.candidates ? o.candidates : builtin;
    vks__device_facts f = vks__gpu_facts(gpu);
    uint32_t count = o.candidates ? o.candidate_count
                     : small      ? vks__tuning_small_candidates(&f, builtin, VKS_GPU_TUNE_MAX, NULL)
                                  : builtin_for(gpu, builtin, 1);
    if (count == 0 || count > VKS_GPU_TUNE_MAX)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/tune", "%u candidates (1 to %u)", count,
                             VKS_GPU_TUNE_MAX);
    uint32_t instances = o.instances ? o.instances : small ? vks__small_calibration_instances(skin->vertex_count) : 64;
    uint32_t repeats = o.repeats ? (o.repeats > 63 ? 63 : o.repeats) : 3;
    const vks_skin *one[1] = {skin};
    vks_gpu_models *ms = NULL;
    vks_result res = vks_gpu_upload(gpu, one, 1, &ms, err);
    tune_poses poses = {skin};
    vks_gpu_batch_entry e = {0, instances, NULL};
    vks_gpu_batch b = {0};
    b.entries = &e, b.entry_count = 1, b.get_locals = procedural_locals, b.user = &poses;
    b.want_normals = 1, b.kernel_only = 1;
    vks__launch_shape context = gpu->shape;
    const char *reason = small ? "the fastest of the candidates vks_gpu_tune timed on this device with a small model"
                               : "the fastest of the candidates vks_gpu_tune timed on this device";
    if (res == VKS_OK)
        res = calibrate(gpu, ms, &b, skin->vertex_count, instances, cand, count, repeats, reason, out, err);
    vks_gpu_models_free(ms);
    vks__cache_key key = gpu->cache_key;
    key.size_class = (uint32_t)small;
    if (res == VKS_OK && small) { /* the winner is the class's; the context's shape back */
        vks__launch_shape won = gpu->shape;
        res = reshape(gpu, &context, err);
        if (res == VKS_OK)
            small_take(gpu, &won, reason);
    }
    if (res == VKS_OK && o.store)
        store_as(gpu, &key, out);
    else if (res == VKS_OK && gpu->cache_dir[0])
        vks__cache_path(gpu->cache_dir, &key, vks__cache_shape_entry(&key), out->cache_path, sizeof out->cache_path);
    return res;
}

/* The bind pose for every instance: the deform pass's cost does not depend on the pose, and a
 * host's get_locals is not called for work it did not ask for. */
typedef struct bind_poses {
    const vks_gpu_models *ms;
    uint32_t model;
} bind_poses;

static void bind_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    (void)entry, (void)instance;
    const bind_poses *p = user;
    const vks__gpu_model *m = &p->ms->models[p->model];
    memcpy(out, p->ms->bind_locals + m->node_base, m->node_count * sizeof *out);
}

/* 1 while the small-model class may still calibrate at first use (the context's conditions,
 * on the class's shape). */
static int small_first_use_open(const vks_gpu *gpu)
{
    vks_gpu_shape_info s;
    vks__small_launch_shape(gpu, &s);
    return s.calibrates_at_first_use;
}

/* The calibration's run: `instances` instances of poses->model at the bind pose, kernel only
 * (e is its one entry). */
static vks_gpu_batch bind_batch(bind_poses *poses, vks_gpu_batch_entry *e, uint32_t instances)
{
    *e = (vks_gpu_batch_entry){poses->model, instances, NULL};
    vks_gpu_batch cb = {0};
    cb.entries = e, cb.entry_count = 1, cb.get_locals = bind_locals, cb.user = poses;
    cb.want_normals = 1, cb.kernel_only = 1;
    return cb;
}

int vks__first_use_open(const vks_gpu *gpu)
{
    return vks__gpu_first_use_open(gpu) || small_first_use_open(gpu);
}

/* The shape another context of this process measured on this device at first use (NULL: its
 * calibration failed, the table's shape stays): taken without timing the candidates again. */
static void take_process_shape(vks_gpu *gpu, const vks__launch_shape *s)
{
    if (!s) {
        vks__log(&gpu->opt.logger, VKS_LOG_INFO, "launch shape: the calibration at first use of another context of "
                 "this process on this device failed; the table's shape runs");
        return;
    }
    vks__launch_shape won = *s, before = gpu->shape;
    won.reason = "calibrated at first use by another context of this process on this device";
    char text[128], msg[512];
    vks__launch_shape_format(&won, text, sizeof text);
    vks_error err = {0};
    if (reshape(gpu, &won, &err) == VKS_OK) {
        vks__log(&gpu->opt.logger, VKS_LOG_INFO, "launch shape: %s, calibrated at first use by another context of "
                 "this process on this device", text);
        return;
    }
    reshape(gpu, &before, NULL); /* the context as it was */
    vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "launch shape: %s, calibrated by another context of this process, "
             "cannot run here; the table's shape runs: %s", text, vks_error_format(&err, NULL, msg, sizeof msg));
}

void vks__calibrate_work_at_first_use(vks_gpu *gpu, const vks_gpu_models *ms, uint32_t model, uint64_t work,
                                      const char *what)
{
    if (!vks__gpu_first_use_open(gpu))
        return;
    const char *builtin[VKS_GPU_TUNE_MAX];
    uint32_t count = builtin_for(gpu, builtin, 0), vertices = ms->models[model].vertex_count;
    uint64_t cost = vks__calibration_cost(count, vertices), threshold = vks__calibration_threshold(cost);
    if (vertices == 0 || work == 0 || work < threshold)
        return; /* small work: the table's shape; later, larger work may still calibrate */
    gpu->first_use_calibrated = 1;
    vks__launch_shape shared;
    int have = 0;
    if (!vks__calibration_once_claim(&gpu->cache_key, &shared, &have)) { /* measured (or being measured) */
        take_process_shape(gpu, have ? &shared : NULL);
        return;
    }
    builtin_for(gpu, builtin, 1); /* says what it left out, now that the calibration runs */
    vks__log(&gpu->opt.logger, VKS_LOG_INFO,
             "launch shape: calibrating at first use: the tuning table does not know this device and %s of %llu "
             "vertex-instances is at least %llu (the calibration runs %llu; VKSKIN_NO_CALIBRATE=1 turns it off)",
             what, (unsigned long long)work, (unsigned long long)threshold, (unsigned long long)cost);
    bind_poses poses = {ms, model};
    vks_gpu_batch_entry e;
    vks_gpu_batch cb = bind_batch(&poses, &e, VKS__CALIBRATION_INSTANCES);
    vks_gpu_tune_result *out = calloc(1, sizeof *out);
    vks_error err = {0};
    vks_result res = out ? calibrate(gpu, ms, &cb, vertices, VKS__CALIBRATION_INSTANCES, builtin, count,
                                     VKS__CALIBRATION_REPEATS,
                                     "calibrated at first use: the tuning table does not know this device and no "
                                     "shape was measured on it before",
                                     out, &err)
                         : VKS_ERR_NOMEM;
    if (res != VKS_OK) {
        char msg[512];
        vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "launch shape: calibration at first use failed, the table's "
                 "shape runs: %s", out ? vks_error_format(&err, NULL, msg, sizeof msg) : "out of memory");
    } else {
        store(gpu, out);
        vks__log(&gpu->opt.logger, VKS_LOG_INFO, "launch shape: %s chosen at first use%s%s",
                 out->candidate[out->best].shape, out->stored ? ", stored in " : " (not stored)",
                 out->stored ? out->cache_path : "");
    }
    vks__calibration_once_done(&gpu->cache_key, res == VKS_OK ? &gpu->shape : NULL); /* wakes the others */
    free(out);
}

void vks_gpu_calibrate_for_batch(vks_gpu *gpu, const vks_gpu_models *ms, const vks_gpu_batch *b)
{
    if (!gpu || !ms || !b)
        return;
    /* The batch's work, and its largest model: the one the calibration times. */
    uint64_t work = 0, largest = 0;
    uint32_t model = 0;
    for (uint32_t i = 0; i < b->entry_count; i++) {
        uint64_t vi = (uint64_t)b->entries[i].instance_count * ms->models[b->entries[i].model].vertex_count;
        work += vi;
        if (vi > largest)
            largest = vi, model = b->entries[i].model;
    }
    if (!largest)
        return;
    if (vks__batch_class_vertices(gpu, ms, b)) /* the run takes its size class's shape */
        vks__calibrate_class_at_first_use(gpu, ms, model, work, "a run");
    else
        vks__calibrate_work_at_first_use(gpu, ms, model, work, "a run");
}

/* The small-model class's winner w (its pose fields the context's) in place of its shape. */
static void small_take(vks_gpu *gpu, const vks__launch_shape *w, const char *reason)
{
    vks__launch_shape s = *w;
    s.source = "calibration", s.reason = reason;
    s.pose_wg = gpu->shape.pose_wg, s.pose_nodes = gpu->shape.pose_nodes;
    s.slices = gpu->shape.slices, s.slice_min = gpu->shape.slice_min;
    vks__small_set_replace(gpu, &s);
}

/* Times the small candidates on `instances` instances of model (the context switched to each
 * and back: calibrate), and the winner becomes the class's shape; 0 when it failed. */
static int calibrate_small(vks_gpu *gpu, const vks_gpu_models *ms, uint32_t model, uint32_t instances,
                           const char *const *cand, uint32_t count, vks__cache_key *key)
{
    bind_poses poses = {ms, model};
    vks_gpu_batch_entry e;
    vks_gpu_batch cb = bind_batch(&poses, &e, instances);
    vks_gpu_tune_result *out = calloc(1, sizeof *out);
    vks__launch_shape context = gpu->shape;
    vks_error err = {0};
    const char *reason = "calibrated at first use for small models: the tuning table's row was measured on larger "
                         "ones";
    vks_result res = out ? calibrate(gpu, ms, &cb, ms->models[model].vertex_count, instances, cand, count,
                                     VKS__CALIBRATION_REPEATS, reason, out, &err)
                         : VKS_ERR_NOMEM;
    vks__launch_shape won = gpu->shape;
    if (res == VKS_OK) /* the context's own shape back: the class runs beside it */
        res = reshape(gpu, &context, &err);
    char msg[512];
    if (res != VKS_OK) {
        vks__log(&gpu->opt.logger, VKS_LOG_WARNING, "launch shape: the small-model calibration at first use failed, "
                 "small models run with the context's shape: %s",
                 out ? vks_error_format(&err, NULL, msg, sizeof msg) : "out of memory");
    } else {
        small_take(gpu, &won, reason);
        store_as(gpu, key, out);
        vks__log(&gpu->opt.logger, VKS_LOG_INFO, "launch shape: %s chosen at first use for small models%s%s",
                 out->candidate[out->best].shape, out->stored ? ", stored in " : " (not stored)",
                 out->stored ? out->cache_path : "");
    }
    free(out);
    return res == VKS_OK;
}

void vks__calibrate_class_at_first_use(vks_gpu *gpu, const vks_gpu_models *ms, uint32_t model, uint64_t work,
                                       const char *what)
{
    uint32_t vertices = ms->models[model].vertex_count;
    if (!vks__small_model(vertices)) {
        vks__calibrate_work_at_first_use(gpu, ms, model, work, what);
        return;
    }
    if (!small_first_use_open(gpu))
        return;
    vks__device_facts f = vks__gpu_facts(gpu);
    const char *cand[VKS_GPU_TUNE_MAX];
    uint32_t count = vks__tuning_small_candidates(&f, cand, VKS_GPU_TUNE_MAX, NULL);
    uint32_t instances = vks__small_calibration_instances(vertices);
    uint64_t cost = vks__small_calibration_cost(count, vertices), threshold = vks__calibration_threshold(cost);
    if (work == 0 || work < threshold)
        return; /* small work: the class's shape as it is; later, larger work may still calibrate */
    gpu->small_calibrated = 1;
    vks__cache_key key = gpu->cache_key;
    key.size_class = 1;
    vks__launch_shape shared;
    int have = 0;
    if (!vks__calibration_once_claim(&key, &shared, &have)) { /* measured (or being measured) here */
        if (have) {
            small_take(gpu, &shared, "calibrated at first use for small models by another context of this process "
                                     "on this device");
            char text[128];
            vks__launch_shape_format(&gpu->small.shape, text, sizeof text);
            vks__log(&gpu->opt.logger, VKS_LOG_INFO, "launch shape: %s, calibrated at first use by another context "
                     "of this process on this device, for small models", text);
        }
        return;
    }
    vks__log(&gpu->opt.logger, VKS_LOG_INFO,
             "launch shape: calibrating at first use: small models (the tuning table's row for this device was "
             "measured on larger ones), and %s of %llu vertex-instances of a %u-vertex model is at least %llu (the "
             "calibration runs %llu; VKSKIN_NO_CALIBRATE=1 turns it off)",
             what, (unsigned long long)work, vertices, (unsigned long long)threshold, (unsigned long long)cost);
    int ok = calibrate_small(gpu, ms, model, instances, cand, count, &key);
    vks__calibration_once_done(&key, ok ? &gpu->small.shape : NULL); /* wakes the others */
}
