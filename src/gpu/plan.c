/* The GPU engine's planning (plan.h): chunk capacities and budgets of a batch, the parts of a
 * crowd, deform work items, medians. Pure arithmetic over the host's tables: no backend. */
#include "gpu/plan.h"

#include <stdlib.h>

uint64_t vks__chunk_budget(uint64_t storage_range, uint64_t device_heap, uint32_t ring, uint64_t cap)
{
    uint64_t budget = storage_range;
    /* per slot about 2 output streams + tables of similar size: leave half the heap free */
    if (device_heap && device_heap / (8ull * ring) < budget)
        budget = device_heap / (8ull * ring);
    if (VKS__HOST_BUDGET / (2ull * ring) < budget)
        budget = VKS__HOST_BUDGET / (2ull * ring);
    if (cap && cap < budget)
        budget = cap;
    return budget;
}

vks__caps vks__batch_caps(vks__plan_models pm, const vks_gpu_batch_entry *entries, uint32_t n_entries,
                          uint64_t bytes, uint32_t wg, uint32_t tile)
{
    vks__caps c = {0};
    uint64_t tv = 0, tm = 0, ti = 0, tw = 0, max_v = 1, max_m = 1, max_w = 1;
    for (uint32_t i = 0; i < n_entries; i++) {
        const vks__gpu_model *m = &pm.models[entries[i].model];
        uint64_t n = entries[i].instance_count;
        uint64_t mats = vks__mats_of(m);
        uint64_t blocks = vks__blocks_of(pm, entries[i].model, wg);
        tv += n * m->vertex_count, tm += n * (mats ? mats : 1), ti += n;
        tw += (n + tile - 1) / tile * blocks; /* an entry has at most one segment per chunk */
        if (m->vertex_count > max_v)
            max_v = m->vertex_count;
        if (mats > max_m)
            max_m = mats;
        if (blocks > max_w)
            max_w = blocks;
    }
    c.vertices = bytes / 12;
    c.matrices = bytes / 48;
    c.instances = bytes / 16;
    c.works = bytes / 32;
    /* never below one instance of the biggest model, never above the whole batch */
    if (c.vertices < max_v)
        c.vertices = max_v;
    if (c.matrices < max_m)
        c.matrices = max_m;
    if (c.works < max_w)
        c.works = max_w;
    if (c.instances < 1)
        c.instances = 1;
    if (c.vertices > tv)
        c.vertices = tv ? tv : 1;
    if (c.matrices > tm)
        c.matrices = tm ? tm : 1;
    if (c.instances > ti)
        c.instances = ti ? ti : 1;
    if (c.works > tw)
        c.works = tw ? tw : 1;
    if (c.instances > 65535ull * 64)
        c.instances = 65535ull * 64;
    return c;
}

int vks__caps_equal(const vks__caps *a, const vks__caps *b)
{
    return a->vertices == b->vertices && a->matrices == b->matrices && a->instances == b->instances &&
           a->works == b->works;
}

uint64_t vks__caps_bytes(const vks__caps *c)
{
    uint64_t v[4] = {c->vertices * 12, c->matrices * 48, c->instances * sizeof(vks__gpu_inst),
                     c->works * sizeof(vks__gpu_work)}, m = 0;
    for (int k = 0; k < 4; k++)
        m = v[k] > m ? v[k] : m;
    return m;
}

uint32_t vks__blocks_of(vks__plan_models pm, uint32_t model, uint32_t wg)
{
    const vks__gpu_model *m = &pm.models[model];
    uint32_t n = 0;
    for (uint32_t g = 0; g < m->group_count; g++)
        n += (pm.groups[m->first_group + g].vertex_count + wg - 1) / wg;
    return n;
}

uint32_t vks__works_append(vks__plan_models pm, uint32_t wg, uint32_t tile, uint32_t model, uint32_t inst_first,
                           uint32_t count, vks__gpu_work *const wl[VKS__DEFORM_VARIANTS],
                           uint32_t wn[VKS__DEFORM_VARIANTS])
{
    const vks__gpu_model *m = &pm.models[model];
    uint32_t added = 0;
    for (uint32_t g = 0; g < m->group_count; g++) {
        uint32_t gi = m->first_group + g;
        const vks__gpu_group *gr = &pm.groups[gi];
        uint32_t var = vks__deform_variant(pm.group_influences[gi]);
        for (uint32_t v0 = 0; v0 < gr->vertex_count; v0 += wg)
            for (uint32_t t = 0; t < count; t += tile) {
                uint32_t vc = gr->vertex_count - v0 < wg ? gr->vertex_count - v0 : wg;
                uint32_t ic = count - t < tile ? count - t : tile;
                wl[var][wn[var]++] = (vks__gpu_work){gi, v0, vc, inst_first + t, ic, 0, 0, 0};
                added++;
            }
    }
    return added;
}

uint64_t vks__mats_of(const vks__gpu_model *m)
{
    uint64_t n = m->node_count > m->bone_count ? m->node_count : m->bone_count;
    return (n ? n : 1) + m->morph_slots;
}

vks_result vks__crowd_layout(vks__plan_models pm, const vks_instance *inst, uint32_t count, uint64_t budget,
                             uint64_t param_bytes, uint32_t wg, uint32_t tile, uint32_t *starts, vks__caps *caps, uint32_t *part_count,
                             vks_error *err)
{
    uint32_t run = 0, parts = 0;
    vks__caps cur = {0};
    for (uint32_t i = 0; i < count; i++) {
        const vks__gpu_model *m = &pm.models[inst[i].model];
        int same_run = cur.instances > 0 && inst[i - 1].model == inst[i].model;
        uint64_t blocks = vks__blocks_of(pm, inst[i].model, wg);
        uint64_t add_w = same_run && run % tile != 0 ? 0 : blocks;
        vks__caps next = {cur.vertices + m->vertex_count, cur.matrices + vks__mats_of(m), cur.instances + 1,
                          cur.works + add_w};
        int fits = next.vertices * 12 <= budget && next.matrices * 48 <= budget &&
                   next.instances * param_bytes <= budget && next.works * 32 <= budget;
        if (!fits && cur.instances > 0) { /* close the part, start the next with this instance */
            caps[parts++] = cur;
            cur = (vks__caps){0};
            same_run = 0;
            next = (vks__caps){m->vertex_count, vks__mats_of(m), 1, blocks};
            fits = next.vertices * 12 <= budget && next.matrices * 48 <= budget &&
                   next.instances * param_bytes <= budget && next.works * 32 <= budget;
        }
        if (!fits)
            return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/crowd",
                                 "instance %u: one instance of model %u needs more than maxStorageBufferRange %llu "
                                 "in a table (%u vertices, %llu matrices, %llu work items)",
                                 i, inst[i].model, (unsigned long long)budget, m->vertex_count,
                                 (unsigned long long)vks__mats_of(m), (unsigned long long)blocks);
        if (cur.instances == 0)
            starts[parts] = i;
        run = same_run ? run + 1 : 1;
        cur = next;
    }
    caps[parts++] = cur;
    *part_count = parts;
    return VKS_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double vks__median(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return v[n / 2];
}
