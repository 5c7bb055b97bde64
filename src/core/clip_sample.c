/* Clip sampling (clip.h): cycle rules, the curve sampler in float and in double, and the
 * composition of a clip's tracks into the skin's locals for every clip space. */
#include <math.h>
#include <string.h>

#include "vkskin/clip.h"
#include "vkskin/clip_sample.h"
#include "clip_layers_internal.h"

#define REAL float
#define SFX(name) name##_f
#include "clip_sample_impl.h"
#undef REAL
#undef SFX
#define REAL double
#define SFX(name) name##_d
#include "clip_sample_impl.h"
#undef REAL
#undef SFX

double vks_clip_local_time(const vks_clip *clip, vks_cycle cycle, double t)
{
    double d = clip->duration;
    if (!(d > 0) || !isfinite(t))
        return 0;
    switch (cycle) {
    case VKS_CYCLE_CLAMP:
        return t < 0 ? 0 : t > d ? d : t;
    case VKS_CYCLE_RESET:
        return t < 0 || t > d ? 0 : t;
    case VKS_CYCLE_MIRROR: {
        double p = fmod(t, 2 * d);
        if (p < 0)
            p += 2 * d;
        return p > d ? 2 * d - p : p;
    }
    default: {
        double p = fmod(t, d);
        if (p < 0)
            p += d;
        return p;
    }
    }
}

void vks_curve_sample(const vks_curve *c, float t, float *out)
{
    if (c->key_count)
        curve_f(c, t, out);
}

void vks_curve_sample_d(const vks_curve *c, double t, double *out)
{
    if (c->key_count)
        curve_d(c, t, out);
}

static vks_affine round_affine(const vks_affine_d *a)
{
    vks_affine r;
    for (int i = 0; i < 12; i++)
        r.m[i] = (float)a->m[i];
    return r;
}

/* The track's transform in double: its sampled channels over the bind local's (delta spaces:
 * over identity, which is what a delta without that channel means). */
static vks_affine_d track_transform(const vks_clip *clip, const vks_clip_binding *b, uint32_t node, int precise,
                                    double t)
{
    static const float identity_trs[10] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    const vks_track *tr = &clip->tracks[b->track_of_node[node]];
    const float *base = clip->space == VKS_CLIP_LOCAL ? b->bind_trs[node] : identity_trs;
    if (precise) {
        double trs[10];
        track_trs_d(tr, base, t, trs);
        return compose_d(trs);
    }
    float trs[10];
    track_trs_f(tr, base, (float)t, trs);
    return compose_f(trs);
}

/* D(n) of a delta clip: the node's own track (MODEL_DELTA); identity without one. */
static vks_affine_d model_delta(const vks_clip *clip, const vks_clip_binding *b, uint32_t node, int precise, double t)
{
    if (b->track_of_node[node] < 0)
        return vks_affine_d_identity();
    return track_transform(clip, b, node, precise, t);
}

/* Node n's local at clip time t, unrounded: what sample_locals rounds, and what the layer
 * blend (clip_layers.c) splits into T, R, S. */
static vks_affine_d node_local(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin, uint32_t n,
                               double t, int precise)
{
    int32_t p = skin->nodes[n].parent;
    if (clip->space == VKS_CLIP_LOCAL) {
        if (b->track_of_node[n] < 0)
            return vks_affine_d_from(&skin->nodes[n].bind_local);
        return track_transform(clip, b, n, precise, t);
    }
    /* With Wb the bind worlds in skin space (S_b Wb) and W(n) = S_b^-1 D(n) Wb(n):
       local(n) = W(p)^-1 W(n); MODEL_DELTA: = Wb(p)^-1 D(p)^-1 D(n) Wb(n);
       PARENT_DELTA: D(n) = D(p) L(n), so local(n) = Wb(p)^-1 L(n) Wb(n); a root: S_b^-1 D Wb. */
    vks_affine_d m;
    if (clip->space == VKS_CLIP_PARENT_DELTA)
        m = model_delta(clip, b, n, precise, t); /* L(n): same lookup */
    else {
        vks_affine_d dn = model_delta(clip, b, n, precise, t);
        if (p >= 0) {
            vks_affine_d dp = model_delta(clip, b, (uint32_t)p, precise, t), dpi;
            if (!vks_affine_d_inverse(&dp, &dpi))
                dpi = vks_affine_d_identity();
            m = vks_affine_d_mul(&dpi, &dn);
        } else
            m = dn;
    }
    vks_affine_d w = vks_affine_d_mul(&m, &b->bind_world[n]);
    return vks_affine_d_mul(p >= 0 ? &b->bind_world_inv[p] : &b->skin_space_inv, &w);
}

vks_affine_d vks__clip_node_local_d(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin,
                                    uint32_t n, double t)
{
    return node_local(clip, b, skin, n, t, 1);
}

void vks__clip_node_trs_d(const vks_clip *clip, const vks_clip_binding *b, uint32_t n, double t, double trs[10])
{
    if (b->track_of_node[n] < 0) {
        for (int i = 0; i < 10; i++)
            trs[i] = b->bind_trs[n][i];
        return;
    }
    track_trs_d(&clip->tracks[b->track_of_node[n]], b->bind_trs[n], t, trs);
}

static void sample_locals(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin, double t,
                          int precise, vks_affine *out)
{
    for (uint32_t n = 0; n < skin->node_count; n++) {
        if (clip->space == VKS_CLIP_LOCAL && b->track_of_node[n] < 0) {
            out[n] = skin->nodes[n].bind_local;
            continue;
        }
        vks_affine_d l = node_local(clip, b, skin, n, t, precise);
        out[n] = round_affine(&l);
    }
}

void vks_clip_sample_locals(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin, float t,
                            vks_affine *out)
{
    sample_locals(clip, b, skin, t, 0, out);
}

void vks_clip_sample_locals_d(const vks_clip *clip, const vks_clip_binding *b, const vks_skin *skin, double t,
                              vks_affine *out)
{
    sample_locals(clip, b, skin, t, 1, out);
}
