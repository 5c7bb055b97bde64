/* validate --sample N|P%: the CPU reference compares a seeded sample of each file's instances in
 * full, and every chunk's GPU reduction (compute/reduce.comp) is held to what the host can
 * vouch for cheaply about the instances it did not compare: no component NaN or infinite, every
 * position inside a bound of the chunk's instances, and unit normals where the model's engine
 * renormalises them.
 *
 * The bound: a vertex blended from bones j with weights w_j is sum w_j K_j v. Each K_j v lies in
 * K_j applied to the bind-space box of the vertices bone j moves, so with weights >= 0 summing
 * to s the vertex lies in s times the convex hull of those boxes, inside the box around them
 * all scaled by s in [wsum_lo, wsum_hi]. Morph targets move a vertex before skinning by
 * sum_t w_t dp_t: each bone's box grows by w_t times the box of target t's deltas over the
 * bone's vertices, with that instance's weights. Per instance that is a box per bone (a few dozen
 * 3x3 products), against the reference's vertex-count of them: cheap enough for every instance. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate.h"

int vks_validate_sample_set(void *field, const vks_cli_option *opt, const char *v)
{
    vsample *o = field;
    char *end = NULL;
    if (!strcmp(opt->name, "--sample-seed")) {
        unsigned long long s = strtoull(v, &end, 10);
        if (!*v || *end || v[0] == '-') {
            fprintf(stderr, "vkskin validate: --sample-seed needs a whole number, got '%s'\n", v);
            return 0;
        }
        o->seed = s;
        return 1;
    }
    double x = strtod(v, &end);
    int percent = end && *end == '%' && !end[1];
    if (end == v || (*end && !percent) || !(x > 0) || (percent && x > 100) ||
        (!percent && (x != floor(x) || x > UINT32_MAX))) {
        fprintf(stderr, "vkskin validate: --sample needs a count of instances N >= 1 or a percentage P%% "
                        "(0 < P <= 100), got '%s'\n", v);
        return 0;
    }
    o->on = 1;
    o->percent = percent ? x : 0, o->count = percent ? 0 : (uint32_t)x;
    return 1;
}

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

int vks_validate_sample_prepare(const vsample *o, vfile *files, int nfiles)
{
    for (int k = 0; k < nfiles; k++) {
        vfile *f = &files[k];
        uint32_t instances = f->frames ? f->poses / f->frames : f->poses;
        double want = o->percent > 0 ? ceil(instances * o->percent / 100.0) : o->count;
        uint32_t n = want < instances ? (uint32_t)want : instances;
        f->sampled = calloc(instances ? instances : 1, 1);
        f->bone_box = calloc(f->skin->bone_count ? f->skin->bone_count : 1, sizeof *f->bone_box);
        f->target_box = calloc((size_t)f->skin->bone_count * f->skin->target_count + 1, sizeof *f->target_box);
        if (!f->sampled || !f->bone_box || !f->target_box) {
            fprintf(stderr, "vkskin validate: out of memory for the sample of %s\n", f->path);
            return 0;
        }
        choose(f, instances, n, o->seed, k);
        bone_boxes(f);
    }
    return 1;
}

void vks_validate_sample_free(vfile *files, int nfiles)
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

void vks_validate_sample_bound(const vfile *f, const vks_affine_d *K, const float *w, double box[6])
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

void vks_validate_check_bound(vctx *c, uint32_t chunk, const vks_gpu_figures *g)
{
    vdevice *d = c->device;
    char why[256];
    bound_finding(c, g, why, sizeof why);
    d->bound_checked++;
    if (why[0]) {
        fprintf(stderr, "vkskin validate: %s: the GPU's reduction of chunk %u (poses %u..%u): %s\n",
                c->chunk_file ? c->chunk_file->path : "?", chunk, c->chunk_first,
                c->chunk_first + c->chunk_poses - (c->chunk_poses > 0), why);
        if (!d->bound_failures++)
            snprintf(d->reduction_said, sizeof d->reduction_said, "chunk %u: %s", chunk, why);
    }
}

void vks_validate_sample_said(const vsample *o, const vfile *files, int nfiles, char *out, size_t size)
{
    uint64_t compared = 0, all = 0;
    for (int k = 0; k < nfiles; k++)
        compared += files[k].sampled_count, all += files[k].frames ? files[k].poses / files[k].frames : 0;
    char asked[48];
    if (o->percent > 0)
        snprintf(asked, sizeof asked, "%g%%", o->percent);
    else
        snprintf(asked, sizeof asked, "%u", o->count);
    snprintf(out, size, "%llu of %llu instances compared with the reference (--sample %s, seed %llu); the GPU's "
             "reduction of every chunk checked", (unsigned long long)compared, (unsigned long long)all, asked,
             (unsigned long long)o->seed);
}

/* The device's reduction check as the reports say it. */
void vks_validate_reduction_said(const vdevice *d, char *out, size_t size)
{
    if (d->bound_failures)
        snprintf(out, size, "%u of %u chunk(s) outside the host's bound; first %s", d->bound_failures,
                 d->bound_checked, d->reduction_said);
    else
        snprintf(out, size, "%u chunk(s): no non-finite component, positions inside the host's bound",
                 d->bound_checked);
}

static cJSON *sample_json(const vsample *o, const vfile *files, int nfiles, const vdevice *d)
{
    cJSON *j = cJSON_CreateObject();
    if (o->percent > 0)
        cJSON_AddNumberToObject(j, "percent", o->percent);
    else
        cJSON_AddNumberToObject(j, "count", o->count);
    cJSON_AddNumberToObject(j, "seed", (double)o->seed);
    cJSON *jf = cJSON_AddArrayToObject(j, "files");
    for (int k = 0; k < nfiles; k++) {
        const vfile *f = &files[k];
        uint32_t instances = f->frames ? f->poses / f->frames : 0;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "file", f->path);
        cJSON_AddNumberToObject(e, "instances", instances);
        cJSON *a = cJSON_AddArrayToObject(e, "sampled");
        for (uint32_t i = 0; f->sampled && i < instances; i++)
            if (f->sampled[i])
                cJSON_AddItemToArray(a, cJSON_CreateNumber(i));
        cJSON_AddItemToArray(jf, e);
    }
    cJSON_AddNumberToObject(j, "chunks_checked", d->bound_checked);
    cJSON_AddNumberToObject(j, "chunks_outside_bound", d->bound_failures);
    char said[320];
    vks_validate_reduction_said(d, said, sizeof said);
    cJSON_AddStringToObject(j, "reduction_check", said);
    cJSON_AddBoolToObject(j, "reduction_pass", d->bound_failures == 0 && d->bound_checked > 0);
    return j;
}

static void sample_print(const vsample *o, const vfile *files, int nfiles, const vdevice *d)
{
    char said[400];
    vks_validate_sample_said(o, files, nfiles, said, sizeof said);
    printf("sampled: %s\n", said);
    for (int k = 0; k < nfiles; k++) {
        const vfile *f = &files[k];
        uint32_t instances = f->frames ? f->poses / f->frames : 0, shown = 0;
        printf("  %s: instances", f->path);
        for (uint32_t i = 0; f->sampled && i < instances && shown < 12; i++)
            if (f->sampled[i])
                printf("%s %u", shown++ ? "," : "", i);
        printf("%s\n", f->sampled_count > shown ? ", ..." : "");
    }
    vks_validate_reduction_said(d, said, sizeof said);
    printf("  gpu reduction: %s  %s\n", said, d->bound_failures == 0 && d->bound_checked > 0 ? "PASS" : "FAIL");
}

void vks_validate_sample_report(const vsample *o, const vfile *files, int nfiles, const vdevice *d, cJSON *root)
{
    if (root)
        cJSON_AddItemToObject(root, "sample", sample_json(o, files, nfiles, d));
    else
        sample_print(o, files, nfiles, d);
}
