/* A sampled run's bound (vkskin validate --sample; library-internal: validate_engine.h): the
 * instances not compared with the reference are vouched for by the GPU's reduction of each
 * chunk, held to a box the host computes for every instance of the chunk from its skin
 * matrices, each bone's bind box and its morph targets' delta boxes (the boxes are the
 * caller's: vfile.bone_box, target_box, wsum_lo/hi, unit_normals). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check/validate_engine.h"

/* Bone b's bind box moved by the morph targets at weights w (NULL: their defaults): a
 * target's deltas at weight w_t lie in w_t times its delta box (Minkowski sums). */
static void morphed_box(const vfile *f, uint32_t b, const float *w, double *bb)
{
    const vks_skin *s = f->skin;
    memcpy(bb, f->bone_box[b], 6 * sizeof *bb);
    for (uint32_t t = 0; t < s->target_count; t++) {
        const double *d = f->target_box[(size_t)b * s->target_count + t];
        double wt = w ? w[t] : s->targets[t].default_weight;
        if (wt == 0 || d[0] > d[3])
            continue; /* no weight, or moves none of the bone's vertices */
        for (int k = 0; k < 3; k++) {
            double a = wt * d[k], c = wt * d[3 + k];
            bb[k] += fmin(a, c), bb[3 + k] += fmax(a, c);
        }
    }
}

void vks__validate_sample_bound(const vfile *f, const vks_affine_d *K, const float *w, double box[6])
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t b = 0; b < f->skin->bone_count; b++) {
        double bb[6];
        if (f->bone_box[b][0] > f->bone_box[b][3])
            continue; /* moves no vertex */
        morphed_box(f, b, w, bb);
        const double *m = K[b].m;
        for (int i = 0; i < 3; i++) { /* the box's centre through K, its half sizes through |K| */
            double c = m[9 + i], h = 0;
            for (int j = 0; j < 3; j++) {
                c += m[3 * j + i] * 0.5 * (bb[j] + bb[3 + j]);
                h += fabs(m[3 * j + i]) * 0.5 * (bb[3 + j] - bb[j]);
            }
            lo[i] = fmin(lo[i], c - h), hi[i] = fmax(hi[i], c + h);
        }
    }
    for (int i = 0; i < 3; i++) { /* s x in the box for s in [wsum_lo, wsum_hi]: the ends' boxes */
        if (!(lo[i] <= hi[i]))
            continue;
        double a = fmin(lo[i] * f->wsum_lo, lo[i] * f->wsum_hi), b = fmax(hi[i] * f->wsum_lo, hi[i] * f->wsum_hi);
        /* float rounding on the GPU: relative to the magnitudes the sums went through */
        double slack = 1e-4 * (fabs(a) + fabs(b) + f->model_scale);
        box[i] = fmin(box[i], a - slack), box[3 + i] = fmax(box[3 + i], b + slack);
    }
}

/* What failed of one chunk's figures against the bound ("" when nothing), into why. */
static void bound_finding(const vctx *c, const vks_gpu_figures *g, char *why, size_t size)
{
    static const char *axis[3] = {"x", "y", "z"};
    why[0] = 0;
    if (g->nonfinite) {
        snprintf(why, size, "%u component(s) NaN or infinite", g->nonfinite);
        return;
    }
    for (int k = 0; k < 3; k++) {
        if (g->min_key[k] == 0xffffffffu)
            continue; /* no finite position: said by the count above */
        double lo = vks_gpu_figures_float(g->min_key[k]), hi = vks_gpu_figures_float(g->max_key[k]);
        if (lo < c->bound[k] || hi > c->bound[3 + k]) {
            snprintf(why, size, "positions' %s from %g to %g, outside the bound %g to %g of its instances' skin "
                     "matrices", axis[k], lo, hi, c->bound[k], c->bound[3 + k]);
            return;
        }
    }
    if (c->chunk_unit_normals && g->normal_deviation > 1e-3f)
        snprintf(why, size, "a normal's length off 1 by %g (the model renormalises)", (double)g->normal_deviation);
}

void vks__validate_check_bound(vctx *c, uint32_t chunk, const vks_gpu_figures *g)
{
    vcounts *d = c->counts;
    char why[256];
    bound_finding(c, g, why, sizeof why);
    d->bound_checked++;
    if (why[0]) {
        vks__validate_say(c, "vkskin validate: %s: the GPU's reduction of chunk %u (poses %u..%u): %s\n",
                c->chunk_file ? c->chunk_file->path : "?", chunk, c->chunk_first,
                c->chunk_first + c->chunk_poses - (c->chunk_poses > 0), why);
        if (!d->bound_failures++)
            snprintf(d->reduction_said, sizeof d->reduction_said, "chunk %u: %s", chunk, why);
    }
}

