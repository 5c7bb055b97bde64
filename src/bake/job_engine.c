/* What a bake job deforms: its model and clips read (vks_bake_load), every frame of every
 * clip deformed by the GPU crowd or a CPU engine (vks_bake_deform), and the bones' skin
 * matrices for the atlas from the reference pose. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake/job_internal.h"

const char *vks_bake_engine_name(vks_bake_engine e)
{
    return e == VKS_BAKE_GPU ? "gpu" : e == VKS_BAKE_CPU ? "cpu-reference" : "cpu-fast";
}

/* The clip's name, or the one convert gives a clip without one, so that a bake's and a
 * convert's names for a clip agree and no two unnamed clips are all "0". */
static char *label_of(const vks_clip *c, const char *path, uint32_t index, uint32_t clips)
{
    return c->name[0] ? strdup(c->name) : vks_clip_unnamed_name(path, index, clips);
}

/* "jobs[0].clips[1]: FILE has no clip named "x" (it has 3: "a" "b" "c")", the first 8 named. */
static void say_missing_clip(const vks_bake_job *job, const vks_bake_clip_spec *spec, const vks_clip_set *set)
{
    char names[800] = "";
    size_t n = 0;
    for (uint32_t c = 0; c < set->clip_count && c < 8 && n < sizeof names; c++) {
        int w = snprintf(names + n, sizeof names - n, " \"%s\"", set->clips[c].name);
        n += w > 0 ? (size_t)w : 0;
    }
    vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %s has no clip named \"%s\" (it has %u:%s)", spec->where,
             spec->file_given, spec->name, set->clip_count, names);
}

int vks__bake_load(const vks_bake_job *job, vks_bake_loaded *l)
{
    memset(l, 0, sizeof *l);
    l->skin = vks__bake_load_skin(job->host, job->model, &job->ropt);
    if (!l->skin) {
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: the model %s could not be read (above)", job->where, job->model_given);
        return 0;
    }
    if (job->layers)
        return vks__bake_load_layers(job, l);
    l->sets = calloc(job->clip_count, sizeof *l->sets);
    if (!l->sets)
        return 0;
    l->set_count = job->clip_count;
    uint32_t total = 0;
    for (uint32_t s = 0; s < job->clip_count; s++) {
        if (!(l->sets[s] = vks__bake_read_clips(&job->clips[s], l->skin)))
            return 0;
        if (job->clips[s].name && vks_clip_set_find(l->sets[s], job->clips[s].name) < 0) {
            say_missing_clip(job, &job->clips[s], l->sets[s]);
            return 0;
        }
        total += job->clips[s].name ? 1 : l->sets[s]->clip_count;
    }
    l->clips = calloc(total, sizeof *l->clips);
    if (!l->clips)
        return 0;
    uint64_t frames = 0;
    for (uint32_t s = 0; s < job->clip_count; s++) {
        const vks_clip_set *set = l->sets[s];
        uint32_t first = 0, count = set->clip_count;
        if (job->clips[s].name)
            first = (uint32_t)vks_clip_set_find(set, job->clips[s].name), count = 1;
        for (uint32_t k = first; k < first + count; k++) {
            vks_bake_clip *c = &l->clips[l->clip_count++];
            const vks_clip *clip = &set->clips[k];
            vks_clip_binding b;
            vks_error err = {0};
            if (vks_clip_bind(clip, l->skin, &b, &err) != VKS_OK || !b.bound_tracks) {
                vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: clip \"%s\" of %s drives no node of %s", job->clips[s].where,
                        clip->name, job->clips[s].file_given, job->model_given);
                if (err.code == VKS_OK)
                    vks_clip_binding_free(&b);
                return 0;
            }
            char label[600];
            if (clip->name[0])
                snprintf(label, sizeof label, "\"%s\" of %s", clip->name, job->clips[s].file_given);
            else
                snprintf(label, sizeof label, "%s", job->clips[s].file_given);
            vks__bake_note_untouched(job->host, job->clips[s].where, job->model_given, label, &b);
            vks_clip_binding_free(&b);
            c->clip = clip;
            c->file = job->clips[s].file_given;
            c->label = label_of(clip, job->clips[s].file_given, k, set->clip_count);
            c->index = k;
            c->t0 = job->has_range ? job->range[0] : 0.0f;
            c->t1 = job->has_range ? job->range[1] : clip->duration;
            if (c->t1 > clip->duration)
                c->t1 = clip->duration;
            if (c->t0 > c->t1) {
                vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: \"range\" starts at %g s, past clip \"%s\"'s %g s", job->where,
                        (double)c->t0, clip->name, (double)clip->duration);
                return 0;
            }
            /* both ends included: 1 s at 30 fps is 31 frames, the last one the clip's end */
            double n = floor(((double)c->t1 - c->t0) * job->fps + 1e-3) + 1.0;
            if (n > 1e6) {
                vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: clip \"%s\" would make %.0f frames (limit 1000000)", job->where,
                        clip->name, n);
                return 0;
            }
            c->frames = (uint32_t)n;
            c->first_frame = (uint32_t)frames;
            frames += c->frames;
        }
    }
    if (frames > (1u << 24)) {
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %llu frames in all (limit %u)", job->where, (unsigned long long)frames, 1u << 24);
        return 0;
    }
    l->frames = (uint32_t)frames;
    return 1;
}

void vks__bake_loaded_free(vks_bake_loaded *l)
{
    for (uint32_t c = 0; l->clips && c < l->clip_count; c++)
        free(l->clips[c].label);
    free(l->clips);
    for (uint32_t s = 0; l->bindings && s < l->set_count; s++)
        vks_clip_binding_free(&l->bindings[s]);
    free(l->bindings);
    free(l->layers);
    for (uint32_t s = 0; l->sets && s < l->set_count; s++)
        vks_clip_set_free(l->sets[s]);
    free(l->sets);
    vks_skin_free(l->skin);
    memset(l, 0, sizeof *l);
}

/* Every frame's locals, clip by clip, sampled in double (reference) or float (fast). */
static int frame_locals(const vks_bake_job *job, const vks_bake_loaded *l, int fast, vks_affine *out,
                        float *matrices)
{
    const vks_skin *s = l->skin;
    vks_affine *tmp = malloc(sizeof *tmp * s->node_count);
    vks_affine_d *world = malloc(sizeof *world * s->node_count), *k = malloc(sizeof *k * (s->bone_count + 1));
    int ok = tmp && world && k;
    for (uint32_t c = 0; ok && c < l->clip_count; c++) {
        const vks_bake_clip *bc = &l->clips[c];
        vks_clip_binding b = {0};
        vks_error err = {0};
        if (!l->layers && vks_clip_bind(bc->clip, s, &b, &err) != VKS_OK) {
            ok = 0;
            break;
        }
        for (uint32_t f = 0; f < bc->frames; f++) {
            uint32_t g = bc->first_frame + f;
            double t = vks__bake_frame_time(job, bc, f);
            /* the atlas and the reference engine use the double sampler; layers have only the
               double one (pose.h), which the fast engine then deforms too */
            if (l->layers)
                vks_clip_layers_locals_d(l->layers, s, (float)t, tmp);
            else
                vks_clip_sample_locals_d(bc->clip, &b, s, t, tmp);
            if (matrices) {
                vks_cpu_world_d(s, tmp, world);
                vks_cpu_skin_matrices_d(s, world, k);
                for (uint32_t bone = 0; bone < s->bone_count; bone++)
                    for (int r = 0; r < 3; r++)
                        for (int col = 0; col < 4; col++)
                            matrices[((size_t)g * s->bone_count + bone) * 12 + (size_t)r * 4 + (size_t)col] =
                                (float)k[bone].m[col * 3 + r];
            }
            if (out) {
                if (fast && !l->layers)
                    vks_clip_sample_locals(bc->clip, &b, s, (float)t, out + (size_t)g * s->node_count);
                else
                    memcpy(out + (size_t)g * s->node_count, tmp, sizeof *tmp * s->node_count);
            }
        }
        vks_clip_binding_free(&b);
    }
    free(tmp);
    free(world);
    free(k);
    return ok;
}

/* a model without normals: its frames' normals from the deformed triangles (job_normals.c) */
static int normals_or_say(const vks_bake_job *job, const vks_bake_loaded *l, vks_bake_frames *fr)
{
    if (vks__bake_fill_normals(l, fr))
        return 1;
    vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: no memory for the normals of %u frames", job->where, l->frames);
    return 0;
}

/* Every frame's morph weights (skin.h, MORPH TARGETS), clip by clip in double, as the GPU's
 * crowd samples them from the clips' weights channels (the layer rule for a layered job); NULL
 * for a model without targets (the defaults) and when out of memory (*ok = 0). */
static float *frame_weights(const vks_bake_job *job, const vks_bake_loaded *l, int *ok)
{
    const vks_skin *s = l->skin;
    if (!s->target_count)
        return NULL;
    float *w = malloc(sizeof *w * s->target_count * (size_t)l->frames);
    *ok = w != NULL;
    for (uint32_t c = 0; w && c < l->clip_count; c++) {
        const vks_bake_clip *bc = &l->clips[c];
        for (uint32_t f = 0; f < bc->frames; f++) {
            double t = vks__bake_frame_time(job, bc, f);
            float *out = w + (size_t)(bc->first_frame + f) * s->target_count;
            if (l->layers)
                vks_clip_layers_weights_d(l->layers, s, (float)t, out);
            else
                vks_clip_sample_weights_d(bc->clip, s, t, out);
        }
    }
    return w;
}

static int deform_cpu(const vks_bake_job *job, const vks_bake_loaded *l, int fast, vks_bake_frames *fr)
{
    const vks_skin *s = l->skin;
    vks_affine *locals = malloc(sizeof *locals * s->node_count * (size_t)l->frames);
    int ok = 1;
    float *weights = locals ? frame_weights(job, l, &ok) : NULL;
    if (!locals || !ok || !frame_locals(job, l, fast, locals, NULL)) {
        free(locals), free(weights);
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: no memory for %u frames' poses", job->where, l->frames);
        return 0;
    }
    vks_deform_job dj = {s, locals, l->frames, fr->positions, fr->normals, weights};
    vks_error err = {0};
    vks_result r = fast ? vks_cpu_fast_run(&dj, 0, &err) : vks_cpu_reference_run(&dj, &err);
    free(locals), free(weights);
    if (r != VKS_OK) {
        char msg[512];
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %s", job->where, vks_error_format(&err, job->model_given, msg, sizeof msg));
        return 0;
    }
    return normals_or_say(job, l, fr);
}

/* Where stream instance i of a group comes from: its job, and the job's frame. */
typedef struct group_map {
    uint32_t *job_of, *frame_of;
    const vks_bake_loaded *const *ls;
    vks_bake_frames *const *frs;
    vks__work_pool *pool; /* copies a delivery's pieces at once (NULL: here) */
} group_map;

/* Instances [i0, i1) of a delivery, the first at float `at` of it, into their jobs' frames. */
static void take_range(const group_map *gm, const vks_stream_delivery *d, uint32_t i0, uint32_t i1, size_t at)
{
    for (uint32_t i = i0; i < i1; i++) {
        uint32_t j = gm->job_of[i];
        size_t per = (size_t)gm->ls[j]->skin->vertex_count * 3, off = (size_t)gm->frame_of[i] * per;
        memcpy(gm->frs[j]->positions + off, d->positions + at, per * sizeof(float));
        if (gm->frs[j]->normals && d->normals)
            memcpy(gm->frs[j]->normals + off, d->normals + at, per * sizeof(float));
        at += per;
    }
}

typedef struct take_pieces {
    const group_map *gm;
    const vks_stream_delivery *d;
    uint32_t pieces;
} take_pieces;

/* Piece p of a delivery (vks__work_pool_share): its instances, found by their sizes. */
static void take_piece(void *arg, uint32_t p)
{
    const take_pieces *t = arg;
    const vks_stream_delivery *d = t->d;
    uint32_t i0 = d->first + (uint32_t)((uint64_t)d->count * p / t->pieces);
    uint32_t i1 = d->first + (uint32_t)((uint64_t)d->count * (p + 1) / t->pieces);
    size_t at = 0;
    for (uint32_t i = d->first; i < i0; i++)
        at += (size_t)t->gm->ls[t->gm->job_of[i]]->skin->vertex_count * 3;
    take_range(t->gm, d, i0, i1, at);
}

/* Each instance's vertices into its job's frame: the group's whole readback (tens of MB, into
 * pages touched for the first time) copied in pieces of a few MB on the pool's idle threads. */
static int group_take(void *user, const vks_stream_delivery *d)
{
    const group_map *gm = user;
    size_t floats = 0;
    for (uint32_t i = d->first; i < d->first + d->count; i++)
        floats += (size_t)gm->ls[gm->job_of[i]]->skin->vertex_count * 3;
    uint64_t pieces = (uint64_t)floats * sizeof(float) * (d->normals ? 2 : 1) / (4u << 20) + 1;
    uint32_t most = vks__work_pool_threads(gm->pool) + 1;
    if (pieces > most)
        pieces = most;
    if (pieces > d->count)
        pieces = d->count;
    take_pieces t = {gm, d, (uint32_t)pieces};
    vks__work_pool_share(gm->pool, t.pieces, take_piece, &t);
    return 0;
}

/* The clip of a layered job's spec k (bound for its layers, or as a reference pose). */
static const vks_clip *layer_clip(const vks_bake_loaded *l, uint32_t k)
{
    for (uint32_t y = 0; y < l->layers->count; y++) {
        const vks_clip_layer *c = &l->layers->layer[y];
        if (c->play.binding == &l->bindings[k])
            return c->play.clip;
        if (c->ref_clip && c->ref_binding == &l->bindings[k])
            return c->ref_clip;
    }
    return l->clips[0].clip; /* a spec no layer uses: cannot happen, any clip will do */
}

/* A layered job's frames as stream instances from at on: the stream plays every instance at
 * time 0, so frame time T moves into each layer's start (start + speed T, in float as the
 * GPU's clip time) and into the transition's start (fade_start - T). Returns the next at. */
static uint32_t layered_instances(const vks_bake_job *job, const vks_bake_loaded *l, uint32_t j, uint32_t ca,
                                  uint32_t at, vks_instance *inst, group_map *gm)
{
    const vks_clip_layers *ly = l->layers;
    const vks_bake_clip *bc = &l->clips[0];
    for (uint32_t f = 0; f < bc->frames; f++, at++) {
        vks_instance *si = &inst[at];
        float T = (float)vks__bake_frame_time(job, bc, f);
        gm->job_of[at] = j, gm->frame_of[at] = bc->first_frame + f;
        si->model = j;
        si->pose = VKS_POSE_LAYERS;
        si->layer_count = ly->count;
        si->fade_start = ly->fade_start - T;
        si->fade_duration = ly->fade_duration;
        si->root_motion = ly->root_motion;
        for (uint32_t k = 0; k < ly->count; k++) {
            const vks_clip_layer *y = &ly->layer[k];
            vks_instance_layer *o = &si->layers[k];
            o->clip = ca + (uint32_t)(y->play.binding - l->bindings);
            o->start = y->play.start + y->play.speed * T;
            o->speed = y->play.speed;
            o->cycle = (vks_cycle)y->play.cycle;
            o->weight = y->weight;
            o->mode = (vks_layer_mode)y->mode;
            o->fade = (vks_layer_fade)y->fade;
            o->mask = y->mask;
            if (y->ref_clip) /* the job's clips are uploaded in the order of its bindings */
                o->reference = ca + (uint32_t)(y->ref_binding - l->bindings) + 1;
            o->ref_time = y->ref_time;
        }
    }
    return at;
}

/* One stream instance per frame: instance i plays its clip from the frame's time at speed 0, so
 * the stream's one frame (time 0) is every frame of every job of the group: all the group's
 * models and clips in one submission. A group of several jobs is one chunk (the caller keeps
 * its outputs under VKS_BAKE_GROUP_BYTES); a single job larger than that goes in chunks of
 * instances of that size (vks_stream_run). */
int vks__bake_deform_gpu_group(const vks_bake_job *const *jobs, const vks_bake_loaded *const *ls, uint32_t count,
                              vks_gpu *gpu, vks__work_pool *pool, vks_bake_frames *const *frs)
{
    vks_error err = {0};
    vks_gpu_models *models = NULL;
    uint32_t total = 0, clip_total = 0;
    int normals = 0, layered = 0;
    for (uint32_t j = 0; j < count; j++) {
        total += ls[j]->frames;
        /* a layered job's clips are its layer clips, one per spec */
        clip_total += ls[j]->layers ? ls[j]->set_count : ls[j]->clip_count;
        normals |= frs[j]->normals != NULL;
        layered |= ls[j]->layers != NULL;
    }
    const vks_skin **skins = malloc(sizeof *skins * count);
    const vks_clip **clips = malloc(sizeof *clips * (clip_total ? clip_total : 1));
    vks_instance *inst = calloc(total ? total : 1, sizeof *inst);
    group_map gm = {malloc(sizeof(uint32_t) * (total ? total : 1)), malloc(sizeof(uint32_t) * (total ? total : 1)),
                    ls, frs, pool};
    vks_result r = skins && clips && inst && gm.job_of && gm.frame_of
                       ? VKS_OK
                       : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory for %u frames", total);
    for (uint32_t j = 0, at = 0, ca = 0; r == VKS_OK && j < count; j++) {
        const vks_bake_loaded *l = ls[j];
        skins[j] = l->skin;
        if (l->layers) {
            at = layered_instances(jobs[j], l, j, ca, at, inst, &gm);
            for (uint32_t k = 0; k < l->set_count; k++)
                clips[ca + k] = layer_clip(l, k);
            ca += l->set_count;
            continue;
        }
        for (uint32_t c = 0; c < l->clip_count; c++) {
            clips[ca + c] = l->clips[c].clip;
            for (uint32_t f = 0; f < l->clips[c].frames; f++, at++) {
                vks_instance *si = &inst[at];
                gm.job_of[at] = j, gm.frame_of[at] = l->clips[c].first_frame + f;
                si->model = j;
                si->pose = VKS_POSE_CLIP;
                si->clip = ca + c;
                si->clip_start = (float)vks__bake_frame_time(jobs[j], &l->clips[c], f);
                si->clip_speed = 0.0f;
                si->clip_cycle = VKS_CYCLE_CLAMP;
            }
        }
        ca += l->clip_count;
    }
    if (r == VKS_OK)
        r = vks_gpu_upload(gpu, skins, count, &models, &err);
    if (r == VKS_OK && total) {
        static const float time0 = 0.0f;
        vks_stream_desc d = {0};
        d.models = models, d.skins = skins, d.model_count = count;
        d.clips = clips, d.clip_count = clip_total;
        d.instances = inst, d.instance_count = total;
        d.times = &time0, d.frame_count = 1;
        d.no_normals = !normals;
        d.layers = layered;
        d.chunk_bytes = count == 1 ? VKS_BAKE_GROUP_BYTES : UINT64_MAX;
        d.deliver = group_take, d.user = &gm;
        r = vks_stream_run(gpu, &d, NULL, &err);
    }
    vks_gpu_models_free(models);
    free(skins);
    free(clips);
    free(inst);
    free(gm.job_of);
    free(gm.frame_of);
    if (r != VKS_OK) {
        char msg[512];
        if (!err.msg[0])
            vks_error_set(&err, r, VKS_NO_OFFSET, NULL, "%s", vks_result_str(r));
        for (uint32_t j = 0; j < count; j++)
            vks__log(vks__bake_log(jobs[j]->host), VKS_LOG_ERROR, "%s: GPU: %s", jobs[j]->where, vks_error_format(&err, jobs[j]->model_given, msg, sizeof msg));
        return 0;
    }
    for (uint32_t j = 0; j < count; j++)
        if (!normals_or_say(jobs[j], ls[j], frs[j]))
            return 0;
    return 1;
}

int vks__bake_frames_alloc(const vks_bake_job *job, const vks_bake_loaded *l, vks_bake_frames *out)
{
    memset(out, 0, sizeof *out);
    size_t n = (size_t)l->frames * l->skin->vertex_count * 3;
    out->positions = malloc(sizeof(float) * n);
    out->normals = job->normals ? malloc(sizeof(float) * n) : NULL;
    if (job->outputs & VKS_BAKE_OUT_ATLAS)
        out->matrices = malloc(sizeof(float) * 12 * (size_t)l->frames * (l->skin->bone_count + 1));
    if (!out->positions || (job->normals && !out->normals) || ((job->outputs & VKS_BAKE_OUT_ATLAS) && !out->matrices)) {
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: no memory for %u frames of %u vertices", job->where, l->frames,
                l->skin->vertex_count);
        return 0;
    }
    /* the atlas: skin matrices from the reference pose, whatever engine deforms */
    return !out->matrices || frame_locals(job, l, 0, NULL, out->matrices);
}

int vks__bake_deform_cpu(const vks_bake_job *job, const vks_bake_loaded *l, int fast, vks_bake_frames *fr)
{
    return deform_cpu(job, l, fast, fr);
}

int vks__bake_needs_vertices(const vks_bake_job *job)
{
    return (job->outputs & ~(uint32_t)VKS_BAKE_OUT_ATLAS) != 0 || job->contact_sheet;
}

int vks__bake_deform(const vks_bake_job *job, const vks_bake_loaded *l, vks_bake_engine e, vks_gpu *gpu,
                    vks_bake_frames *out)
{
    if (!vks__bake_frames_alloc(job, l, out))
        return 0;
    if (!vks__bake_needs_vertices(job))
        return 1;
    if (e == VKS_BAKE_GPU) {
        vks_bake_frames *f = out;
        return vks__bake_deform_gpu_group(&job, &l, 1, gpu, NULL, &f);
    }
    return deform_cpu(job, l, e == VKS_BAKE_CPU_FAST, out);
}

void vks__bake_frames_free(vks_bake_frames *f)
{
    free(f->positions);
    free(f->normals);
    free(f->matrices);
    memset(f, 0, sizeof *f);
}
