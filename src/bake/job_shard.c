/* --shard I/N: a deterministic share of the manifest's jobs, balanced by estimated work
 * (vertices x frames) rather than by count, so that one big character does not land on a
 * task that also has many small ones. Every task computes the same assignment from the same
 * manifest and files, so the shards together cover every job exactly once. */
#include <stdlib.h>

#include "bake/job_internal.h"

static const vks_bake_manifest *sort_m;

static int by_work(const void *a, const void *b)
{
    const vks_bake_job *x = &sort_m->jobs[*(const uint32_t *)a], *y = &sort_m->jobs[*(const uint32_t *)b];
    if (x->work != y->work)
        return x->work > y->work ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

void vks__bake_shard(vks_bake_manifest *m, uint32_t i, uint32_t n, uint8_t *mine)
{
    for (uint32_t j = 0; j < m->job_count; j++) {
        vks_bake_loaded l;
        /* an unreadable job still goes somewhere (its failure is reported where it runs) */
        m->jobs[j].work = 1;
        if (vks__bake_load(&m->jobs[j], &l))
            m->jobs[j].work = (uint64_t)l.skin->vertex_count * l.frames + 1;
        vks__bake_loaded_free(&l);
        mine[j] = 0;
    }
    uint32_t *order = malloc(sizeof *order * m->job_count);
    uint64_t *load = calloc(n, sizeof *load);
    if (!order || !load) { /* no memory: fall back to round robin, still the same on every task */
        for (uint32_t j = 0; j < m->job_count; j++)
            mine[j] = j % n == i;
        free(order);
        free(load);
        return;
    }
    for (uint32_t j = 0; j < m->job_count; j++)
        order[j] = j;
    sort_m = m;
    qsort(order, m->job_count, sizeof *order, by_work);
    for (uint32_t k = 0; k < m->job_count; k++) {
        uint32_t best = 0;
        for (uint32_t s = 1; s < n; s++)
            if (load[s] < load[best])
                best = s;
        load[best] += m->jobs[order[k]].work;
        mine[order[k]] = best == i;
    }
    free(order);
    free(load);
}
