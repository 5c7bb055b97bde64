/* Runs of vertices by the influence slots they use (fast_runs.h). */
#include "fast_runs.h"

#include <math.h>

uint64_t vks__fast_runs_capacity(const vks_skin *s)
{
    return (uint64_t)s->vertex_count + s->group_count + 1;
}

/* The slots vertex v needs of the first k_max: its last slot of weight > 0, plus one (at least 1). */
static uint32_t vertex_slots(const vks_influence *in, uint32_t k_max)
{
    uint32_t k = 1;
    for (uint32_t i = 0; i < k_max; i++)
        if (in->weight[i] > 0)
            k = i + 1;
    return k;
}

int vks__fast_weights_normalised(const vks_influence *in, uint32_t k_max)
{
    double sum = 0;
    for (uint32_t i = 0; i < k_max && i < VKS_MAX_INFLUENCES; i++)
        if (in->weight[i] > 0) /* the slots the records keep (NaN and <= 0 are empty) */
            sum += in->weight[i];
    return fabs(sum - 1.0) <= VKS__FAST_AFFINE_SUM_BOUND; /* an infinite sum is not */
}

/* Appends group gr's runs to r->runs[*n ...]: equal counts and marks (vertices of at most
 * affine_max_k slots) first, then short runs merged into the one before (or, for the group's
 * first, the one after), taking the larger count and affine only where both were (a run over
 * affine_max_k slots never is). */
static void group_runs(const vks_skin *s, const vks_group *gr, uint32_t k_max, uint32_t affine_max_k,
                       vks__fast_run *out, uint32_t *n)
{
    uint32_t start = *n, end = gr->first_vertex + gr->vertex_count;
    for (uint32_t v = gr->first_vertex; v < end; v++) {
        uint16_t k = (uint16_t)vertex_slots(&s->influences[v], k_max);
        uint16_t a = (uint16_t)(k <= affine_max_k && vks__fast_weights_normalised(&s->influences[v], k_max));
        if (*n > start && out[*n - 1].k == k && out[*n - 1].affine == a)
            continue;
        out[(*n)++] = (vks__fast_run){v, k, a};
    }
    /* merge: walk the raw runs, growing the current one while it or the next is short */
    uint32_t w = start;
    for (uint32_t i = start; i < *n; i++) {
        uint32_t next = i + 1 < *n ? out[i + 1].first : end;
        if (w > start) {
            vks__fast_run *cur = &out[w - 1];
            uint32_t cur_len = out[i].first - cur->first, len = next - out[i].first;
            if (cur_len < VKS__FAST_RUN_MIN || len < VKS__FAST_RUN_MIN) {
                if (out[i].k > cur->k)
                    cur->k = out[i].k;
                cur->affine &= out[i].affine;
                continue;
            }
        }
        out[w++] = out[i];
    }
    *n = w;
}

void vks__fast_runs_make(const vks_skin *s, uint32_t (*slots)(const vks_group *), uint32_t affine_max_k,
                         vks__fast_runs *r)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        r->group_first[g] = n;
        uint32_t k_max = slots(gr);
        if (gr->vertex_count && gr->palette_count && k_max <= 4)
            group_runs(s, gr, k_max, affine_max_k, r->runs, &n);
    }
    r->group_first[s->group_count] = n;
}

uint32_t vks__fast_run_at(const vks__fast_runs *r, uint32_t g, uint32_t v)
{
    uint32_t lo = r->group_first[g], hi = r->group_first[g + 1]; /* the run: last with first <= v */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->runs[mid].first <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
