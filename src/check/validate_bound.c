/* A sampled run's bound (vkskin validate --sample; library-internal: validate_engine.h): the
 * instances not compared with the reference are vouched for by the GPU's reduction of each
 * chunk, held to a box the host computes for every instance of the chunk from its skin
 * matrices, each bone's bind box and its morph targets' delta boxes.
 *
 * The bound: a vertex blended from bones j with weights w_j is sum w_j K_j v. Each K_j v lies in
 * K_j applied to the bind-space box of the vertices bone j moves, so with weights >= 0 summing
 * to s the vertex lies in s times the convex hull of those boxes, inside the box around them
 * all scaled by s in [wsum_lo, wsum_hi]. Morph targets move a vertex before skinning by
 * sum_t w_t dp_t: each bone's box grows by w_t times the box of target t's deltas over the
 * bone's vertices, with that instance's weights. Per instance that is a box per bone (a few dozen
 * 3x3 products), against the reference's vertex-count of them: cheap enough for every instance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/validate_engine.h"

/* splitmix64: a small generator whose stream depends on the seed alone, on every host. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Exactly n of the file's instances, each set of n as likely as any other (selection sampling,
 * Knuth's algorithm S), in one pass; file k's stream is its own, so adding a file after it
 * changes nothing of its sample. */
static void choose(vfile *f, uint32_t instances, uint32_t n, uint64_t seed, int k)
{
    uint64_t state = seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(k + 1));
    uint32_t need = n;
    for (uint32_t i = 0; i < instances; i++) {
        double u = (double)(next_random(&state) >> 11) * 0x1p-53; /* [0, 1) */
        f->sampled[i] = u * (instances - i) < need;
        need -= f->sampled[i];
    }
    f->sampled_count = n;
}

static void widen(double *box, const float *p)
{
    for (int k = 0; k < 3; k++)
        box[k] = fmin(box[k], p[k]), box[3 + k] = fmax(box[3 + k], p[k]);
}

/* Per bone the bind-space box of the vertices it moves with a positive weight, and per bone and
 * morph target the box of the target's deltas of those vertices; the range of the weight sums;
 * whether the GPU's normals have length 1. */
static void bone_boxes(vfile *f)
{
    const vks_skin *s = f->skin;
    size_t T = s->target_count;
    for (uint32_t b = 0; b < s->bone_count; b++)
        for (int k = 0; k < 3; k++)
            f->bone_box[b][k] = INFINITY, f->bone_box[b][3 + k] = -INFINITY;
    for (size_t b = 0; b < s->bone_count * T; b++)
        for (int k = 0; k < 3; k++)
            f->target_box[b][k] = INFINITY, f->target_box[b][3 + k] = -INFINITY;
    f->wsum_lo = INFINITY, f->wsum_hi = -INFINITY;
    for (uint32_t g = 0; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        for (uint32_t v = gr->first_vertex; v < gr->first_vertex + gr->vertex_count; v++) {
            const vks_influence *in = &s->influences[v];
            double sum = 0;
            for (int j = 0; j < VKS_MAX_INFLUENCES; j++) {
                if (!(in->weight[j] > 0) || in->index[j] >= gr->palette_count)
                    continue;
                uint32_t bone = s->palette[gr->first_palette + in->index[j]];
                const vks_mesh *m = &s->meshes[gr->mesh];
                sum += in->weight[j];
                widen(f->bone_box[bone], s->positions[v]);
                for (uint32_t t = m->first_target; t < m->first_target + m->target_count; t++)
                    widen(f->target_box[bone * T + t], s->targets[t].position[v - m->first_vertex]);
            }
            f->wsum_lo = fmin(f->wsum_lo, sum), f->wsum_hi = fmax(f->wsum_hi, sum);
        }
    }
    f->unit_normals = s->normals && s->mesh_count > 0;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        uint32_t need = VKS_MESH_HAS_NORMALS | VKS_MESH_RENORMALIZE;
        f->unit_normals &= (s->meshes[m].flags & need) == need;
    }
}

int vks__validate_sample_prepare(uint32_t count, double percent, uint64_t seed, vfile *files, int nfiles)
{
    for (int k = 0; k < nfiles; k++) {
        vfile *f = &files[k];
        uint32_t instances = f->frames ? f->poses / f->frames : f->poses;
        double want = percent > 0 ? ceil(instances * percent / 100.0) : count;
        uint32_t n = want < instances ? (uint32_t)want : instances;
        f->sampled = calloc(instances ? instances : 1, 1);
        f->bone_box = calloc(f->skin->bone_count ? f->skin->bone_count : 1, sizeof *f->bone_box);
        f->target_box = calloc((size_t)f->skin->bone_count * f->skin->target_count + 1, sizeof *f->target_box);
        if (!f->sampled || !f->bone_box || !f->target_box)
            return k;
        choose(f, instances, n, seed, k);
        bone_boxes(f);
    }
    return -1;
}

void vks__validate_sample_free(vfile *files, int nfiles)
{
    for (int k = 0; k < nfiles; k++) {
        free(files[k].sampled), free(files[k].bone_box), free(files[k].target_box);
        files[k].sampled = NULL, files[k].bone_box = NULL, files[k].target_box = NULL;
    }
}

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


void vks__validate_reduction_said(const vcounts *d, char *out, size_t size)
{
    if (d->bound_failures)
        snprintf(out, size, "%u of %u chunk(s) outside the host's bound; first %s", d->bound_failures,
                 d->bound_checked, d->reduction_said);
    else
        snprintf(out, size, "%u chunk(s): no non-finite component, positions inside the host's bound",
                 d->bound_checked);
}
