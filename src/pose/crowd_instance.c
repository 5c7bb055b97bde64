/* A crowd file's entry as an instance (crowd_file.h, instance.h): what the entry's model, clip,
 * start, speed, cycle, layers (masks by node name, additive references), transition, root
 * motion and root mean to the crowd and the stream, given where the host put the files. The
 * one place an entry's fields are copied into an instance. */
#include "vkskin/crowd_file.h"
#include "vkskin/skin.h"

#include <stdio.h>
#include <string.h>

static vks_result fail(const vks_crowd_spec *spec, uint32_t i, vks_error *err, const char *what)
{
    char where[256];
    vks_crowd_spec_where(spec, i, where, sizeof where);
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "crowd", "%s: %s", where, what);
}

/* The crowd's (stream's) index of spec clip c, or -1 when the host did not load it. */
static int32_t clip_at(const vks_crowd_spec *spec, const vks_crowd_binding *b, int32_t c)
{
    return c >= 0 && (uint32_t)c < spec->clip_count ? b->clips[c] : -1;
}

static vks_cycle cycle_of(const vks_crowd_binding *b, int32_t given, int32_t c)
{
    return given >= 0 ? (vks_cycle)given : b->clip_cycles ? b->clip_cycles[c] : VKS_CYCLE_LOOP;
}

/* Layer k (0-based) of entry i; model is the instance's uploaded model. */
static vks_result put_layer(const vks_crowd_spec *spec, uint32_t i, const vks_crowd_binding *b, uint32_t k,
                            uint32_t model, vks_instance_layer *o, vks_error *err)
{
    const vks_crowd_entry_layer *y = &spec->layers[spec->instances[i].first_layer + k];
    char msg[512];
    int32_t clip = clip_at(spec, b, y->clip), ref = y->reference >= 0 ? clip_at(spec, b, y->reference) : 0;
    if (clip < 0 || ref < 0)
        return fail(spec, i, err, "a layer's clip or reference clip was not loaded");
    o->clip = (uint32_t)clip;
    o->start = y->start, o->speed = y->speed, o->cycle = cycle_of(b, y->cycle, y->clip);
    o->weight = y->weight, o->mode = (vks_layer_mode)y->mode, o->fade = (vks_layer_fade)y->fade;
    o->reference = y->reference >= 0 ? (uint32_t)ref + 1 : 0;
    o->ref_time = y->ref_time;
    o->mask = 0;
    if (y->mask) {
        const vks_skin *skin = b->skins ? b->skins[model] : NULL;
        int32_t node = skin ? vks_skin_find_node(skin, y->mask) : -1;
        if (node < 0) {
            const char *name = b->model_names ? b->model_names[model] : NULL;
            snprintf(msg, sizeof msg, "layer %u: mask: the model%s%s has no node \"%s\"", k + 1, name ? " " : "",
                     name ? name : "", y->mask);
            return fail(spec, i, err, msg);
        }
        o->mask = (uint32_t)node + 1;
    }
    return VKS_OK;
}

vks_result vks_crowd_spec_instance(const vks_crowd_spec *spec, uint32_t i, const vks_crowd_binding *b,
                                   vks_instance *out, vks_error *err)
{
    if (!spec || !b || !out || i >= spec->instance_count || (spec->model_count && !b->models) ||
        (spec->clip_count && !b->clips))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "crowd",
                             "expected a spec, an entry of it and where its models and clips went");
    const vks_crowd_entry *e = &spec->instances[i];
    memset(out, 0, sizeof *out);
    out->model = e->model < 0 ? b->default_model : b->models[e->model];
    out->root = e->root;
    out->pose = VKS_POSE_BIND; /* no clip */
    if (e->layer_count) {
        out->pose = VKS_POSE_LAYERS;
        out->layer_count = e->layer_count;
        out->fade_start = e->fade_start, out->fade_duration = e->fade_duration;
        out->root_motion = e->root_motion;
        for (uint32_t k = 0; k < e->layer_count; k++) {
            vks_result r = put_layer(spec, i, b, k, out->model, &out->layers[k], err);
            if (r != VKS_OK)
                return r;
        }
    } else if (e->clip >= 0) {
        int32_t clip = clip_at(spec, b, e->clip);
        if (clip < 0)
            return fail(spec, i, err, "its clip was not loaded");
        out->pose = VKS_POSE_CLIP;
        out->clip = (uint32_t)clip;
        out->clip_start = e->start, out->clip_speed = e->speed;
        out->clip_cycle = cycle_of(b, e->cycle, e->clip);
    }
    return VKS_OK;
}
