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

int vks_validate_sample_option(vsample *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strcmp(a, "--sample") && strcmp(a, "--sample-seed"))
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "vkskin validate: %s needs a value\n", a);
        return -1;
    }
    const char *v = argv[++*i];
    char *end = NULL;
    if (!strcmp(a, "--sample-seed")) {
        unsigned long long s = strtoull(v, &end, 10);
        if (!*v || *end || v[0] == '-') {
            fprintf(stderr, "vkskin validate: --sample-seed needs a whole number, got '%s'\n", v);
            return -1;
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
        return -1;
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
    if (d->chk.bound_failures)
        snprintf(out, size, "%u of %u chunk(s) outside the host's bound; first %s", d->chk.bound_failures,
                 d->chk.bound_checked, d->chk.reduction_said);
    else
        snprintf(out, size, "%u chunk(s): no non-finite component, positions inside the host's bound",
                 d->chk.bound_checked);
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
    cJSON_AddNumberToObject(j, "chunks_checked", d->chk.bound_checked);
    cJSON_AddNumberToObject(j, "chunks_outside_bound", d->chk.bound_failures);
    char said[320];
    vks_validate_reduction_said(d, said, sizeof said);
    cJSON_AddStringToObject(j, "reduction_check", said);
    cJSON_AddBoolToObject(j, "reduction_pass", d->chk.bound_failures == 0 && d->chk.bound_checked > 0);
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
    printf("  gpu reduction: %s  %s\n", said, d->chk.bound_failures == 0 && d->chk.bound_checked > 0 ? "PASS" : "FAIL");
}

void vks_validate_sample_report(const vsample *o, const vfile *files, int nfiles, const vdevice *d, cJSON *root)
{
    if (root)
        cJSON_AddItemToObject(root, "sample", sample_json(o, files, nfiles, d));
    else
        sample_print(o, files, nfiles, d);
}
