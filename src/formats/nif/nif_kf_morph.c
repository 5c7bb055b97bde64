/* NIF morph weights as a clip's weights channels (vks_morph_track): the model's own
 * NiGeomMorpherControllers, played in the clip made of the file's own controllers
 * (nif_kf_clip.c, "controllers on the file's own nodes"). One track per controller whose
 * weights change, named by its shape (the mesh's node name), one component per target (morphs
 * 1..n-1 of its NiMorphData, nif_morph_model.c): the weight keys of every morph (the morphs'
 * own until 10.1.0.0, else their NiFloatInterpolators' NiFloatData) merged on one time line,
 * each morph's weight at each of those times, played LINEAR. That is exact for LINEAR and
 * CONSTANT keys at every time (a constant key is held up to the next key's time, where the
 * merged line steps); QUADRATIC and TBC keys are exact at the keys and linear between them,
 * said with a warning naming the controller. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "nif_kf_internal.h"

/* Morph i's key group, or NULL (its weight is then constant: *constant). */
static const nif_keygroup *morph_keys(const nif_file *f, const nif_morpher *mc, const nif_morphdata *d, uint32_t i,
                                      float *constant)
{
    *constant = 0.0f;
    if (f->ver <= NIF_V(10, 1, 0, 0))
        return d->morphs[i].keys.count ? &d->morphs[i].keys : NULL;
    const nif_finterp *fi = mc->interps && i < mc->interp_count ? nif_anim_get(f, mc->interps[i], NIF_A_FINTERP) : NULL;
    const nif_keygroup *g = fi ? nif_anim_get(f, fi->data, NIF_A_FDATA) : NULL;
    if (fi && !(g && g->count) && fi->value != -FLT_MAX && fi->value != FLT_MAX)
        *constant = fi->value;
    return g && g->count ? g : NULL;
}

/* g at file time t: the keys' LINEAR lerp, a CONSTANT key held, clamped at the ends. */
static float keys_at(const nif_keygroup *g, double t)
{
    uint32_t lo = 0, hi = g->count - 1;
    if (t <= g->times[0])
        return g->values[0];
    if (t >= g->times[hi])
        return g->values[hi];
    while (hi - lo > 1) { /* times non-decreasing (the clip reader checks them) */
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    double t0 = g->times[lo], t1 = g->times[hi];
    if (g->type == NIF_KEY_CONST || !(t1 > t0))
        return g->values[lo];
    return (float)(g->values[lo] + (t - t0) / (t1 - t0) * ((double)g->values[hi] - g->values[lo]));
}

static int by_value(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Whether controller block j's weights change over time: it then gets a track. */
static int animated(const nif_file *f, uint32_t j)
{
    const nif_morpher *mc = nif_anim_get(f, (int32_t)j, NIF_A_MORPHER);
    const nif_morphdata *d = mc ? nif_anim_get(f, mc->data, NIF_A_MORPHDATA) : NULL;
    const nif_block *t = mc && mc->ctrl.target >= 0 && (uint32_t)mc->ctrl.target < f->block_count
                             ? &f->blocks[mc->ctrl.target] : NULL;
    if (!d || d->morph_count < 2 || !t || (t->kind != NIF_K_SHAPE && t->kind != NIF_K_BSTRISHAPE))
        return 0;
    for (uint32_t i = 1; i < d->morph_count; i++) {
        float c;
        const nif_keygroup *g = morph_keys(f, mc, d, i, &c);
        for (uint32_t k = 1; g && k < g->count; k++)
            if (g->values[k] != g->values[0])
                return 1;
    }
    return 0;
}

uint32_t kf_morph_count(const nif_file *f)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < f->block_count; j++)
        n += animated(f, j);
    return n;
}

const nif_ctrl *kf_morph_controller(const nif_file *f, uint32_t j)
{
    const nif_morpher *mc = animated(f, j) ? nif_anim_get(f, (int32_t)j, NIF_A_MORPHER) : NULL;
    return mc ? &mc->ctrl : NULL;
}

/* The track of controller block j: times merged, weights sampled (see the top). */
static vks_result morph_track(kf_ctx *k, uint32_t j, const kf_clock *clk, vks_morph_track *tr)
{
    const nif_file *f = k->f;
    const nif_morpher *mc = nif_anim_get(f, (int32_t)j, NIF_A_MORPHER);
    const nif_morphdata *d = nif_anim_get(f, mc->data, NIF_A_MORPHDATA);
    uint32_t n = d->morph_count - 1, total = 0;
    int approximate = 0;
    for (uint32_t i = 1; i <= n; i++) {
        float c;
        const nif_keygroup *g = morph_keys(f, mc, d, i, &c);
        total += g ? g->count : 0; /* the keys were counted against max_keys as they were read */
        approximate |= g && g->type != NIF_KEY_LINEAR && g->type != NIF_KEY_CONST;
    }
    if ((uint64_t)total * n > f->opt.clip.max_keys)
        return vks_error_set(k->err, VKS_ERR_LIMIT, f->blocks[j].offset, "nif/NiGeomMorpherController",
                             "block %u: %u weight keys of %u morphs on one time line pass the key limit %u", j, total,
                             n, f->opt.clip.max_keys);
    float *times = vks_clip_set_alloc(k->set, total, sizeof *times);
    float *values = vks_clip_set_alloc(k->set, (size_t)total * n, sizeof *values);
    const char *name = f->blocks[mc->ctrl.target].u.shape.name;
    tr->node_name = vks_clip_set_strndup(k->set, name ? name : "", name ? strlen(name) : 0);
    if (!times || !values || !tr->node_name)
        return vks_error_set(k->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/clip", "out of memory");
    uint32_t m = 0;
    for (uint32_t i = 1; i <= n; i++) {
        float c;
        const nif_keygroup *g = morph_keys(f, mc, d, i, &c);
        for (uint32_t q = 0; g && q < g->count; q++)
            times[m++] = (float)((g->times[q] - clk->start) / clk->frequency);
    }
    qsort(times, m, sizeof *times, by_value);
    uint32_t u = 0;
    for (uint32_t q = 0; q < m; q++)
        if (u == 0 || times[q] != times[u - 1])
            times[u++] = times[q];
    for (uint32_t q = 0; q < u; q++)
        for (uint32_t i = 1; i <= n; i++) {
            float c;
            const nif_keygroup *g = morph_keys(f, mc, d, i, &c);
            values[(size_t)q * n + (i - 1)] = g ? keys_at(g, clk->start + (double)times[q] * clk->frequency) : c;
        }
    tr->weights = (vks_curve){u, n, VKS_INTERP_LINEAR, times, values, NULL, NULL, 0, 0};
    if (approximate)
        vks__log(&f->opt.logger, VKS_LOG_WARNING,
                 "warning: nif block %u NiGeomMorpherController at offset %llu: quadratic or TBC weight keys played "
                 "linearly between the keys (exact at the keys)",
                 j, (unsigned long long)f->blocks[j].offset);
    return VKS_OK;
}

vks_result kf_morph_tracks(kf_ctx *k, const kf_clock *clk, vks_clip *clip)
{
    const nif_file *f = k->f;
    uint32_t n = kf_morph_count(f);
    if (!n)
        return VKS_OK;
    clip->morph_tracks = vks_clip_set_alloc(k->set, n, sizeof *clip->morph_tracks);
    if (!clip->morph_tracks)
        return vks_error_set(k->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/clip", "out of memory");
    for (uint32_t j = 0; j < f->block_count; j++) {
        if (!animated(f, j))
            continue;
        vks_result r = morph_track(k, j, clk, &clip->morph_tracks[clip->morph_track_count++]);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}
