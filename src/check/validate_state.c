/* What every route of vks_validate_run shares (validate_state.h): the progress it counts, and a
 * stream delivery compared input by input (the host-posed and the GPU-clip routes). */
#include "check/validate_state.h"

void vks__validate_progress(vrun *r, uint32_t poses)
{
    r->done += poses;
    if (r->opt->progress)
        r->opt->progress(r->opt->progress_user, r->done, r->total);
}

uint32_t vks__validate_input_of(const vrun *r, const uint64_t *base, uint64_t g)
{
    uint32_t m = 0;
    while (m + 1 < r->count && g >= base[m + 1])
        m++;
    return m;
}

int vks__validate_compare_delivery(vrun *r, const uint64_t *base, const vks_stream_delivery *d, int crowd)
{
    uint64_t g0 = d->first;
    uint32_t n = d->count, m = vks__validate_input_of(r, base, g0);
    size_t at = 0;
    while (n) {
        vfile *f = &r->o->inputs[m];
        uint32_t span = crowd ? f->poses / f->frames : f->poses; /* the input's stream indices */
        uint32_t first = (uint32_t)(g0 - base[m]), count = span - first < n ? span - first : n;
        vref_chunk ch = {f, first, count, crowd ? d->frame : 0, crowd, d->positions + at,
                         d->normals ? d->normals + at : NULL};
        vks__validate_note_chunk(&r->c, f, first, count); /* what the readback check names */
        if (vks__validate_ref_chunk(&r->c, &ch))
            return 1; /* out of memory: the run fails */
        vks__validate_progress(r, count);
        at += (size_t)count * f->skin->vertex_count * 3;
        g0 += count, n -= count, m++;
    }
    return 0;
}
