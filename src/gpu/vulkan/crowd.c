/* The persistent crowd (crowd.h): everything a frame needs is made here once, for the shape of
 * the instance table, through the pass core (passes.c): the instances are cut into parts whose
 * tables each fit one storage binding, and each part gets its buffers, descriptor sets and
 * deform work list, filled once. A frame then only records (crowd_frame.c). */
#include "crowd_internal.h"
#include "gpu/tuning_start.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_zero(const vks_affine *a)
{
    for (int k = 0; k < 12; k++)
        if (a->m[k] != 0.0f)
            return 0;
    return 1;
}

/* A layered instance's table entry: normal layers first, then the additive ones, each kind in
 * the given order (the blend applies every normal layer before any additive one; the pose pass
 * walks the layers once). */
static void layered_of(const vks_crowd *c, const vks_instance *in, const vks__gpu_pose_param *base,
                       vks__gpu_layered_param *out)
{
    memset(out, 0, sizeof *out);
    out->base = *base;
    out->base.source = VKS__SOURCE_LAYERS;
    uint32_t n = in->layer_count, k = 0;
    out->count = n | (uint32_t)in->root_motion << 8;
    out->fade_start = in->fade_start, out->fade_duration = in->fade_duration;
    size_t row = (size_t)in->model * c->clips->clip_count;
    out->motion_node = in->root_motion ? c->clips->motion[row + in->layers[0].clip] : -1;
    out->motion[3] = NAN; /* no frame has written the motion yet (the pose pass writes a yaw) */
    for (int additive = 0; additive < 2; additive++)
        for (uint32_t j = 0; j < n; j++) {
            const vks_instance_layer *y = &in->layers[j];
            if ((y->mode == VKS_LAYER_ADDITIVE) != additive)
                continue;
            vks__gpu_layer_param *g = &out->layer[k++];
            g->entry = c->clips->entry[row + y->clip];
            g->flags = (uint32_t)y->cycle | (uint32_t)y->mode << 8 | (uint32_t)y->fade << 10;
            g->start = y->start, g->speed = y->speed, g->weight = y->weight;
            g->mask_node = (int32_t)y->mask - 1;
            g->ref_entry = y->reference ? c->clips->entry[row + y->reference - 1] : g->entry;
            g->ref_time = y->ref_time;
        }
}

static vks__gpu_pose_param param_of(const vks_crowd *c, const vks_instance *in)
{
    vks__gpu_pose_param p;
    memset(&p, 0, sizeof p);
    p.source = in->pose == VKS_POSE_PROCEDURAL ? VKS__SOURCE_PROCEDURAL : VKS__SOURCE_LOCALS;
    if (in->pose == VKS_POSE_CLIP) {
        p.source = VKS__SOURCE_CLIP | (uint32_t)in->clip_cycle << 8;
        p.clip_entry = c->clips->entry[(size_t)in->model * c->clips->clip_count + in->clip];
        p.clip_start = in->clip_start, p.clip_speed = in->clip_speed;
    }
    p.seed_lo = (uint32_t)in->seed, p.seed_hi = (uint32_t)(in->seed >> 32);
    p.pose_instance = in->pose_instance;
    p.max_angle = in->max_angle;
    vks_affine root = is_zero(&in->root) ? vks_affine_identity() : in->root;
    memcpy(p.root, root.m, sizeof p.root);
    return p;
}

static vks_result check_instance(const vks_instance *in, const vks_gpu_models *ms, const vks_gpu_clips *clips,
                                 uint32_t i, vks_error *err)
{
    if (in->model >= ms->count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "instance %u: model %u of %u", i,
                             in->model, ms->count);
    if (in->pose != VKS_POSE_PROCEDURAL && in->pose != VKS_POSE_BIND && in->pose != VKS_POSE_LOCALS &&
        in->pose != VKS_POSE_CLIP && in->pose != VKS_POSE_LAYERS)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "instance %u: unknown pose source %d",
                             i, (int)in->pose);
    if (in->pose == VKS_POSE_CLIP &&
        (!clips || in->clip >= clips->clip_count || !isfinite(in->clip_start) || !isfinite(in->clip_speed) ||
         (unsigned)in->clip_cycle > VKS_CYCLE_RESET))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                             "instance %u: clip %u of %u, or a non-finite start or speed, or an unknown cycle", i,
                             in->clip, clips ? clips->clip_count : 0);
    if (in->pose == VKS_POSE_LAYERS) {
        if (!clips || in->layer_count < 1 || in->layer_count > VKS_MAX_LAYERS || !isfinite(in->fade_start) ||
            !isfinite(in->fade_duration) || !VKS_ROOT_MOTION_VALID(in->root_motion))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                                 "instance %u: %u layers (1..%d), no clips, a non-finite transition or an unknown "
                                 "root motion", i, in->layer_count, VKS_MAX_LAYERS);
        uint64_t loops = 0;
        for (uint32_t k = 0; k < in->layer_count; k++) {
            const vks_instance_layer *y = &in->layers[k];
            if (y->clip >= clips->clip_count || !isfinite(y->start) || !isfinite(y->speed) ||
                (unsigned)y->cycle > VKS_CYCLE_RESET || !isfinite(y->weight) || y->weight < 0 ||
                (unsigned)y->mode > VKS_LAYER_ADDITIVE || (unsigned)y->fade > VKS_FADE_IN ||
                y->mask > ms->models[in->model].node_count)
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                                     "instance %u: layer %u: clip %u of %u, a non-finite start, speed or weight, a "
                                     "negative weight, an unknown cycle, mode or fade, or a mask past the nodes",
                                     i, k, y->clip, clips->clip_count);
            if (y->reference > clips->clip_count || !isfinite(y->ref_time) || y->ref_time < 0 ||
                ((y->reference || y->ref_time != 0) && y->mode != VKS_LAYER_ADDITIVE))
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                                     "instance %u: layer %u: reference clip %u of %u, a negative or non-finite "
                                     "reference time, or a reference on a normal layer",
                                     i, k, y->reference, clips->clip_count);
            /* each layer samples its keys at its time (and its reference pose when additive;
               loops[] counts a model-delta clip's parent), compute/layers.glsl */
            size_t row = (size_t)in->model * clips->clip_count;
            loops += clips->loops[row + y->clip] + 8;
            if (y->mode == VKS_LAYER_ADDITIVE)
                loops += clips->loops[row + (y->reference ? y->reference - 1 : y->clip)];
        }
        const vks__gpu_model *m = &ms->models[in->model];
        loops += (uint64_t)m->node_count * (2 * in->layer_count + 2) + (uint64_t)m->node_count * m->levels;
        vks_result lr = vks__check_pose_loops(clips->gpu, "a layered instance", m->node_count, m->bone_count, 0,
                                              m->levels, loops, err);
        if (lr != VKS_OK)
            return lr;
    }
    if (!vks_affine_is_finite(&in->root) || !isfinite(in->max_angle))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                             "instance %u: non-finite root transform or max_angle", i);
    return VKS_OK;
}

/* Who reads the outputs after a frame, when the desc does not say (crowd.h). */
static void consumers(vks_crowd *c, const vks_crowd_desc *d)
{
    VkPipelineStageFlags st = d->consumer_stages;
    if (!st) {
        st = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
        if (c->gpu->queue_flags & VK_QUEUE_GRAPHICS_BIT)
            st |= VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT;
    }
    VkAccessFlags ac = d->consumer_stages ? d->consumer_access : 0;
    if (!ac) { /* the reads those stages can make */
        const VkPipelineStageFlags shaders =
            VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT |
            VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT | VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT |
            VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        if (st & (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT))
            ac = VK_ACCESS_MEMORY_READ_BIT;
        if (st & VK_PIPELINE_STAGE_VERTEX_INPUT_BIT)
            ac |= VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT;
        if (st & shaders)
            ac |= VK_ACCESS_SHADER_READ_BIT;
        if (st & VK_PIPELINE_STAGE_TRANSFER_BIT)
            ac |= VK_ACCESS_TRANSFER_READ_BIT;
    }
    c->consumer_stages = st, c->consumer_access = ac;
}

/* Instance in's parameters into slot j of part ps's table (not flushed). */
static void write_param(const vks_crowd *c, vks__passes *ps, uint32_t j, const vks_instance *in)
{
    vks__gpu_pose_param pp = param_of(c, in);
    if (!c->layered) {
        vks__buf_write(c->gpu, &ps->params, (VkDeviceSize)j * sizeof pp, &pp, sizeof pp);
        return;
    }
    vks__gpu_layered_param lp;
    memset(&lp, 0, sizeof lp);
    if (in->pose == VKS_POSE_LAYERS)
        layered_of(c, in, &pp, &lp);
    else
        lp.base = pp;
    vks__buf_write(c->gpu, &ps->params, (VkDeviceSize)j * sizeof lp, &lp, sizeof lp);
}

/* The stagger of a part of n instances in `slices` slices of about equal size (passes.c
 * records them; gpu_internal.h). */
static void slice_bounds(vks__passes *ps, uint32_t slices, uint32_t n)
{
    ps->slices = slices;
    for (uint32_t s = 0; s <= slices; s++)
        ps->slice_first[s] = (uint32_t)((uint64_t)n * s / slices);
}

/* Work items a part of n instances gains from its runs cut at its slices' bounds: at most one
 * instance's blocks of the set's largest model at each bound. */
static uint64_t slice_works(const vks__launch_shape *shape, const vks_gpu_models *ms, uint32_t n)
{
    uint32_t slices = vks__crowd_slices(shape, n);
    uint64_t most = 0;
    for (uint32_t m = 0; slices > 1 && m < ms->count; m++) {
        uint64_t b = vks__blocks_of(vks__plan_of(ms), m, shape->deform_wg);
        most = b > most ? b : most;
    }
    return (uint64_t)(slices - 1) * most;
}

/* Fills part p (instances [first, first + n)): instance table, pose parameters, locals (the
 * bind pose), work list, cut at its slices' bounds (vks__crowd_slices). */
static vks_result fill_part(vks_crowd *c, uint32_t p, uint32_t first, uint32_t n, const vks__caps *cap,
                            vks_error *err)
{
    vks_gpu *gpu = c->gpu;
    const vks_gpu_models *ms = c->ms;
    vks__passes *ps = &c->parts[p];
    vks__gpu_work *wl[VKS__DEFORM_VARIANTS] = {0};
    uint32_t wn[VKS__DEFORM_VARIANTS] = {0};
    for (int k = 0; k < VKS__DEFORM_VARIANTS; k++)
        if (!(wl[k] = malloc((cap->works ? cap->works : 1) * sizeof *wl[k]))) {
            for (int j = 0; j < k; j++)
                free(wl[j]);
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/crowd", "out of memory for work lists");
        }
    const vks__launch_shape *shape = vks__shape_of_set(gpu, c->set);
    uint32_t mat = 0, vert = 0, run_first = 0, slice = 0;
    ps->set = c->set;
    slice_bounds(ps, vks__crowd_slices(shape, n), n);
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = first + j;
        if (ps->slices > 1 && j == ps->slice_first[slice]) /* slice `slice` starts: its work items next */
            memcpy(ps->slice_work[slice++], wn, sizeof wn);
        const vks__gpu_model *m = &ms->models[c->inst[i].model];
        c->part_of[i] = p, c->slot_of[i] = j;
        /* the morph weight slots first, as a batch lays them (models_morph.c): the pose pass
           writes them (compute/clip_morph.glsl) */
        uint32_t at = mat + m->morph_slots;
        c->where[i] = (vks__gpu_inst){c->inst[i].model, at, at, vert};
        ((vks__gpu_inst *)ps->insts.mapped)[j] = c->where[i];
        write_param(c, ps, j, &c->inst[i]);
        memcpy((vks_affine *)ps->locals.mapped + at, ms->bind_locals + m->node_base, m->node_count * sizeof(vks_affine));
        mat += (uint32_t)vks__mats_of(m), vert += m->vertex_count;
        int slice_ends = ps->slices > 1 && j + 1 == ps->slice_first[slice];
        if (j + 1 == n || c->inst[i + 1].model != c->inst[i].model || slice_ends) { /* a run of one model ends */
            vks__works_append(vks__plan_of(ms), shape->deform_wg, shape->instance_run, c->inst[i].model, run_first,
                              j + 1 - run_first, wl, wn);
            run_first = j + 1;
        }
    }
    ps->instance_count = n;
    if (ps->slices > 1)
        memcpy(ps->slice_work[ps->slices], wn, sizeof wn);
    vks__works_commit(gpu, ps, wl, wn);
    vks__buf_flush(gpu, &ps->insts), vks__buf_flush(gpu, &ps->params), vks__buf_flush(gpu, &ps->locals);
    for (int k = 0; k < VKS__DEFORM_VARIANTS; k++)
        free(wl[k]);
    return VKS_OK;
}

/* Zeroes every output once, so a frame never finds untouched pages (the first write to fresh
 * memory is what costs on CPU devices) and a draw before the first frame reads zeros. */
static vks_result clear_outputs(vks_crowd *c, vks_error *err)
{
    vks_gpu *gpu = c->gpu;
    vks__oneshot_begin(gpu, &c->own);
    for (uint32_t p = 0; p < c->part_count; p++) {
        gpu->vk.vkCmdFillBuffer(c->own.cmd, c->parts[p].out_pos.buffer, 0, VK_WHOLE_SIZE, 0);
        gpu->vk.vkCmdFillBuffer(c->own.cmd, c->parts[p].out_nrm.buffer, 0, VK_WHOLE_SIZE, 0);
    }
    /* the fills before the first frame's passes (and before the host's reads) */
    vks__barrier(gpu, c->own.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | c->consumer_stages,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | c->consumer_access);
    return vks__oneshot_submit(gpu, &c->own, err);
}

/* Calibration at first use (tuning_start.h) for the crowd about to be made: before its parts,
 * whose work lists are cut for the shape. Its work is its vertex-instances per frame times the
 * frames the desc names (else the assumed count); the model with the largest share is timed,
 * and names the crowd's size class: a small model's crowd calibrates the small-model class
 * (and runs with its shape), the others the context's. Returns that model's vertex count. */
static uint32_t calibrate_for(vks_gpu *gpu, const vks_crowd_desc *d)
{
    const vks_gpu_models *ms = d->models;
    uint64_t *per_model = calloc(ms->count, sizeof *per_model), per_frame = 0;
    if (!per_model)
        return 0; /* the context's shape: calibration is never required */
    uint32_t model = 0;
    for (uint32_t i = 0; i < d->instance_count; i++) {
        uint32_t m = d->instances[i].model;
        per_model[m] += ms->models[m].vertex_count;
        per_frame += ms->models[m].vertex_count;
        if (per_model[m] > per_model[model])
            model = m;
    }
    free(per_model);
    char what[128];
    snprintf(what, sizeof what, "a crowd (%u instances over %u frames%s)", d->instance_count,
             d->frames ? d->frames : (unsigned)VKS__CROWD_ASSUMED_FRAMES, d->frames ? "" : ", assumed");
    vks__calibrate_class_at_first_use(gpu, ms, model, vks__crowd_work(per_frame, d->frames), what);
    return ms->models[model].vertex_count;
}

static vks_result create_parts(vks_crowd *c, vks_error *err)
{
    vks_gpu *gpu = c->gpu;
    uint32_t *starts = malloc(c->count * sizeof *starts);
    vks__caps *caps = malloc(c->count * sizeof *caps);
    vks_result res = starts && caps ? VKS_OK
                                    : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/crowd", "out of memory");
    const vks__launch_shape *shape = vks__shape_of_set(gpu, c->set);
    if (res == VKS_OK)
        res = vks__crowd_layout(vks__plan_of(c->ms), c->inst, c->count, gpu->props.limits.maxStorageBufferRange,
                               c->layered ? sizeof(vks__gpu_layered_param) : sizeof(vks__gpu_pose_param),
                               shape->deform_wg, shape->instance_run, starts, caps, &c->part_count, err);
    if (res == VKS_OK && !(c->parts = calloc(c->part_count, sizeof *c->parts)))
        res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/crowd", "out of memory");
    if (res == VKS_OK)
        res = vks__passes_pool(gpu, c->part_count, &c->dpool, err);
    vks__passes_desc pd = {0};
    pd.out_kind = VKS__MEM_DEVICE;
    pd.out_usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    pd.shared_outputs = gpu->readback_apart; /* vks_crowd_read copies them on the readback queue */
    pd.params = c->layered ? 2 : 1;
    pd.normals = c->normals;
    pd.clip_words = c->clips ? &c->clips->words : NULL;
    for (uint32_t p = 0; p < c->part_count && res == VKS_OK; p++) {
        uint32_t end = p + 1 < c->part_count ? starts[p + 1] : c->count;
        pd.cap = caps[p];
        pd.cap.works += slice_works(shape, c->ms, end - starts[p]);
        res = vks__passes_create(gpu, c->ms, &pd, c->dpool, &c->parts[p], err);
        /* clips that drive morph weights: the deform pass applies what the pose pass samples */
        c->parts[p].morph = c->clips && c->clips->morph && c->ms->morph_any;
        if (res == VKS_OK)
            res = fill_part(c, p, starts[p], end - starts[p], &pd.cap, err);
    }
    free(starts), free(caps);
    return res;
}

vks_result vks_crowd_create(vks_gpu *gpu, const vks_crowd_desc *d, vks_crowd **out, vks_error *err)
{
    *out = NULL;
    if (!gpu || !d || !d->models || !d->instances || d->instance_count == 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                             "a crowd needs a context, uploaded models and at least one instance");
    if (d->models->gpu != gpu)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                             "the models were uploaded to another context");
    if (!d->models->binds.buffer)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/crowd",
                             "the models' bind locals together exceed maxStorageBufferRange %u: upload fewer "
                             "models for a crowd", gpu->props.limits.maxStorageBufferRange);
    if (d->clips && (d->clips->gpu != gpu || d->clips->ms != d->models))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                             "the clips were uploaded for another context or model set");
    for (uint32_t i = 0; i < d->instance_count; i++) {
        vks_result r = check_instance(&d->instances[i], d->models, d->clips, i, err);
        if (r != VKS_OK)
            return r;
    }
    uint32_t dominant = calibrate_for(gpu, d);
    const vks__shape_set *set = NULL;
    vks_result sr = vks__shape_set_for(gpu, dominant, &set, err);
    if (sr != VKS_OK)
        return sr;
    vks_crowd *c = calloc(1, sizeof *c);
    if (!c)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/crowd", "out of memory");
    c->set = set;
    c->gpu = gpu, c->ms = d->models, c->clips = d->clips, c->count = d->instance_count, c->normals = !d->no_normals;
    c->alive = 1, gpu->live_crowds++;
    c->layered = d->layers != 0;
    for (uint32_t i = 0; i < c->count && !c->layered; i++)
        c->layered = d->instances[i].pose == VKS_POSE_LAYERS;
    consumers(c, d);
    c->inst = malloc(c->count * sizeof *c->inst);
    c->host_locals = calloc(c->count, 1);
    c->part_of = malloc(c->count * sizeof *c->part_of);
    c->slot_of = malloc(c->count * sizeof *c->slot_of);
    c->where = malloc(c->count * sizeof *c->where);
    vks_result res = c->inst && c->host_locals && c->part_of && c->slot_of && c->where
                         ? VKS_OK
                         : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/crowd", "out of memory");
    if (res == VKS_OK) {
        memcpy(c->inst, d->instances, c->count * sizeof *c->inst);
        for (uint32_t i = 0; i < c->count; i++)
            c->inst[i].locals = NULL; /* not owned: written below, never read again */
        res = vks__oneshot_create(gpu, &c->own, err);
    }
    if (res == VKS_OK && gpu->timestamps) {
        VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = 5; /* around the frames, and part 0's passes of the last (pose_gpu_ms) */
        VkResult r = gpu->vk.vkCreateQueryPool(gpu->device, &qi, VKS_VK_ALLOC(gpu), &c->qpool);
        if (r != VK_SUCCESS)
            res = vks__vk_fail(err, r, "vkCreateQueryPool");
    }
    if (res == VKS_OK)
        res = create_parts(c, err);
    if (res == VKS_OK)
        res = clear_outputs(c, err);
    for (uint32_t i = 0; res == VKS_OK && i < c->count; i++) /* the tables start at the bind pose */
        if (d->instances[i].pose == VKS_POSE_LOCALS && d->instances[i].locals)
            res = vks_crowd_set_locals(c, i, d->instances[i].locals, err);
    if (res != VKS_OK) {
        vks_crowd_destroy(c);
        return res;
    }
    *out = c;
    return VKS_OK;
}

void vks_crowd_destroy(vks_crowd *c)
{
    if (!c)
        return;
    vks_gpu *gpu = c->gpu;
    for (uint32_t p = 0; c->parts && p < c->part_count; p++)
        vks__passes_destroy(gpu, &c->parts[p]);
    if (c->dpool)
        gpu->vk.vkDestroyDescriptorPool(gpu->device, c->dpool, VKS_VK_ALLOC(gpu));
    if (c->qpool)
        gpu->vk.vkDestroyQueryPool(gpu->device, c->qpool, VKS_VK_ALLOC(gpu));
    vks__oneshot_destroy(gpu, &c->own);
    vks__oneshot_destroy(gpu, &c->copy);
    if (c->handed)
        gpu->vk.vkDestroySemaphore(gpu->device, c->handed, VKS_VK_ALLOC(gpu));
    vks__buf_destroy(gpu, &c->stage);
    if (c->alive)
        gpu->live_crowds--;
    free(c->parts), free(c->inst), free(c->host_locals), free(c->part_of), free(c->slot_of), free(c->where);
    free(c);
}

uint32_t vks_crowd_instance_count(const vks_crowd *c)
{
    return c ? c->count : 0;
}

static void put_locals(vks_crowd *c, uint32_t i, const vks_affine *locals, uint32_t nodes)
{
    vks__passes *ps = &c->parts[c->part_of[i]];
    vks__buf_write(c->gpu, &ps->locals, (VkDeviceSize)c->where[i].locals_off * sizeof *locals, locals,
                   nodes * sizeof *locals);
    vks__buf_flush(c->gpu, &ps->locals);
}

vks_result vks_crowd_set_instance(vks_crowd *c, uint32_t i, const vks_instance *in, vks_error *err)
{
    if (!c || !in || i >= c->count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "instance %u of %u", i,
                             c ? c->count : 0);
    vks_result r = check_instance(in, c->ms, c->clips, i, err);
    if (r != VKS_OK)
        return r;
    if (in->model != c->inst[i].model)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                             "instance %u: its model is fixed at creation (%u), not %u: the buffers are sized for it",
                             i, c->inst[i].model, in->model);
    if (in->pose == VKS_POSE_LAYERS && !c->layered)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                             "instance %u: layered, in a crowd made without layers (vks_crowd_desc.layers)", i);
    c->inst[i] = *in;
    c->inst[i].locals = NULL;
    vks__passes *ps = &c->parts[c->part_of[i]];
    write_param(c, ps, c->slot_of[i], in);
    vks__buf_flush(c->gpu, &ps->params);
    if (in->pose == VKS_POSE_LOCALS && in->locals)
        return vks_crowd_set_locals(c, i, in->locals, err);
    if (in->pose == VKS_POSE_BIND && c->host_locals[i]) { /* the bind pose back where host locals were */
        const vks__gpu_model *m = &c->ms->models[in->model];
        put_locals(c, i, c->ms->bind_locals + m->node_base, m->node_count);
        c->host_locals[i] = 0;
    }
    return VKS_OK;
}

vks_result vks_crowd_set_locals(vks_crowd *c, uint32_t i, const vks_affine *locals, vks_error *err)
{
    if (!c || !locals || i >= c->count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "instance %u of %u, or no locals", i,
                             c ? c->count : 0);
    uint32_t nodes = c->ms->models[c->inst[i].model].node_count;
    for (uint32_t n = 0; n < nodes; n++)
        if (!vks_affine_is_finite(&locals[n]))
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd",
                                 "instance %u: local of node %u is not finite", i, n);
    put_locals(c, i, locals, nodes);
    c->host_locals[i] = 1;
    return VKS_OK;
}

vks_result vks_crowd_get_output(const vks_crowd *c, uint32_t i, vks_crowd_output *out, vks_error *err)
{
    if (!c || !out || i >= c->count)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/crowd", "instance %u of %u", i,
                             c ? c->count : 0);
    const vks__passes *ps = &c->parts[c->part_of[i]];
    VkDeviceSize at = (VkDeviceSize)c->where[i].out_off * 12;
    memset(out, 0, sizeof *out);
    out->vertex_count = c->ms->models[c->inst[i].model].vertex_count;
    out->position = (vks_crowd_stream){ps->out_pos.buffer, at, 12, VK_FORMAT_R32G32B32_SFLOAT};
    if (c->normals)
        out->normal = (vks_crowd_stream){ps->out_nrm.buffer, at, 12, VK_FORMAT_R32G32B32_SFLOAT};
    return VKS_OK;
}

vks_gpu *vks__crowd_gpu(const vks_crowd *c)
{
    return c->gpu;
}

uint32_t vks__crowd_model_of(const vks_crowd *c, uint32_t i)
{
    return c->inst[i].model;
}

int vks__crowd_own_shape(const vks_crowd *c)
{
    return c->set && c->set->own;
}

uint32_t vks__crowd_slice_count(const vks_crowd *c)
{
    uint32_t most = 1;
    for (uint32_t p = 0; p < c->part_count; p++)
        most = c->parts[p].slices > most ? c->parts[p].slices : most;
    return most;
}

VkPipelineStageFlags vks__crowd_consumer_stages(const vks_crowd *c)
{
    return c->consumer_stages;
}
