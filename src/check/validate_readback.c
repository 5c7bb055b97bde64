/* validate's readback check, shared by one device's run (validate_run.c) and the split across
 * contexts (validate_split.c): what a chunk names on a mismatch, the GPU's figures against the
 * host's from the same bytes (library-internal: validate_engine.h). Apart, so that neither of
 * the two callers calls into the other for it. */
#include <math.h>
#include <stdio.h>

#include "check/validate_engine.h"

/* What a chunk names: its first file and that file's poses (crowd: instances) in it. */
void vks__validate_note_chunk(vctx *c, vfile *f, uint32_t first, uint32_t count)
{
    if (!c->chunk_file)
        c->chunk_file = f, c->chunk_first = first, c->chunk_poses = count;
    else if (c->chunk_file == f)
        c->chunk_poses += count;
    else
        c->chunk_more_files++;
}

/* The readback check of a chunk (crowd: of a chunk's frame): the GPU reduced its outputs
 * before the copy (compute/reduce.comp), the reference's threads recomputed the same figures
 * from the bytes delivered; the exact ones must agree, or what was compared is not what the
 * GPU wrote. Every mismatch is said on stderr, `what` naming the chunk's poses; the run goes
 * on (the comparison is still made) and ends in exit 5. */
void vks__validate_check_readback(vctx *c, uint32_t chunk, const char *poses, const vks_gpu_figures *g)
{
    vcounts *d = c->counts;
    const vks_gpu_figures *h = &c->chunk_host;
    const char *what = NULL;
    uint32_t gv = 0, hv = 0;
    if (c->sampled) /* --sample: the figures held to the host's bound (validate_bound.c) */
        vks__validate_check_bound(c, chunk, g);
    if (!c->reduce) /* --sample without the readback check: the host did not recompute them */
        ;
    else if (g->sum != h->sum)
        what = "sum", gv = g->sum, hv = h->sum;
    else if (g->xor_words != h->xor_words)
        what = "xor", gv = g->xor_words, hv = h->xor_words;
    else if (g->nonfinite != h->nonfinite)
        what = "count of non-finite components", gv = g->nonfinite, hv = h->nonfinite;
    for (int k = 0; k < 3 && !what && c->reduce; k++)
        if (g->min_key[k] != h->min_key[k] || g->max_key[k] != h->max_key[k]) {
            int lo = g->min_key[k] != h->min_key[k];
            what = lo ? (k == 0 ? "least x" : k == 1 ? "least y" : "least z")
                      : (k == 0 ? "greatest x" : k == 1 ? "greatest y" : "greatest z");
            gv = lo ? g->min_key[k] : g->max_key[k], hv = lo ? h->min_key[k] : h->max_key[k];
        }
    if (what) {
        char more[64] = "", on[48] = "";
        if (c->chunk_more_files)
            snprintf(more, sizeof more, " and %u other file(s)", c->chunk_more_files);
        if (c->contexts > 1) /* a split batch numbers its chunks per context */
            snprintf(on, sizeof on, " on context %d/%d", c->context, c->contexts);
        vks__validate_say(c, "vkskin validate: %s: readback of chunk %u%s (%s %u..%u%s): the GPU's %s 0x%08x but the host "
                        "read 0x%08x\n",
                c->chunk_file ? c->chunk_file->path : "?", chunk, on, poses, c->chunk_first,
                c->chunk_first + c->chunk_poses - (c->chunk_poses > 0), more, what, gv, hv);
        d->readback_mismatches++;
    }
    d->readback_compared += c->reduce != 0;
    vks_gpu_figures_merge(&d->gpu_figures, g);
    d->reduced_chunks++;
}

/* The next chunk's figures start empty, and its poses unnamed. */
void vks__validate_next_chunk(vctx *c)
{
    vks_gpu_figures_reset(&c->chunk_host);
    c->chunk_file = NULL, c->chunk_more_files = 0;
    for (int k = 0; k < 3; k++) /* and its bound (--sample) empty */
        c->bound[k] = INFINITY, c->bound[3 + k] = -INFINITY;
    c->chunk_unit_normals = 1;
}
