/* vks_render_sheet, vks_render_write_png, vks_render_sheet_png (render.h): a contact sheet of
 * many cells drawn a part at a time, through the public crowd and renderer only, so it is built
 * with or without the GPU (a -DVKSKIN_GPU=OFF build's stubs fail its calls as without a device). */
#include <stdlib.h>
#include <string.h>

#include "vkskin/render.h"
#include "vkskin/vat_write.h"

#define PART_BYTES (32ull << 20)
#define PART_CELLS 4096u

/* The crowd of the part being drawn and what it was made for. */
typedef struct sheet_parts {
    const vks_render_cells *c;
    vks_gpu *gpu;
    vks_crowd *crowd;
    uint32_t crowd_n;       /* its instance count */
    uint32_t *crowd_models; /* its instances' models: a part with the same ones re-aims it */
    vks_instance *inst;     /* the part's instances */
    vks_affine *locals;     /* one instance's locals */
} sheet_parts;

/* Model m's instance j as the caller poses it (procedural by default). */
static void cell_instance(const vks_render_cells *c, uint32_t m, uint32_t j, vks_instance *in)
{
    if (c->instance) {
        c->instance(c->user, m, j, in);
        return;
    }
    memset(in, 0, sizeof *in);
    in->model = m;
    in->pose = VKS_POSE_PROCEDURAL;
    in->seed = c->seed;
    in->pose_instance = j;
}

/* The crowd of cells from (m0, j0) on, n of them: the last part's crowd re-aimed when its
 * instances have the same models (no new buffers), else a new one; locals set from the host. */
static vks_result part_crowd(sheet_parts *s, uint32_t m0, uint32_t j0, uint32_t n, vks_error *err)
{
    const vks_render_cells *c = s->c;
    for (uint32_t k = 0, m = m0, j = j0; k < n; k++, j++) {
        while (j >= c->counts[m])
            m++, j = 0;
        cell_instance(c, m, j, &s->inst[k]);
    }
    int reuse = s->crowd && s->crowd_n == n;
    for (uint32_t k = 0; reuse && k < n; k++)
        reuse = s->crowd_models[k] == s->inst[k].model;
    vks_result r = VKS_OK;
    for (uint32_t k = 0; reuse && r == VKS_OK && k < n; k++)
        r = vks_crowd_set_instance(s->crowd, k, &s->inst[k], err);
    if (!reuse) {
        vks_crowd_destroy(s->crowd);
        s->crowd = NULL;
        vks_crowd_desc d = {.models = c->models, .instances = s->inst, .instance_count = n, .clips = c->clips};
        r = vks_crowd_create(s->gpu, &d, &s->crowd, err);
        s->crowd_n = r == VKS_OK ? n : 0;
        for (uint32_t k = 0; k < n; k++)
            s->crowd_models[k] = s->inst[k].model;
    }
    for (uint32_t k = 0, m = m0, j = j0; r == VKS_OK && c->locals && k < n; k++, j++) {
        while (j >= c->counts[m])
            m++, j = 0;
        if (s->inst[k].pose != VKS_POSE_LOCALS)
            continue;
        c->locals(c->user, m, j, s->locals);
        r = vks_crowd_set_locals(s->crowd, k, s->locals, err);
    }
    return r;
}

/* The cell count and the most nodes of a model with cells; VKS_ERR_INVALID past the limit. */
static vks_result count_cells(const vks_render_cells *c, uint32_t *cells, uint32_t *nodes, vks_error *err)
{
    uint64_t total = 0;
    *nodes = 1;
    if (!c || !c->skins || !c->counts || !c->models)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "render", "the sheet needs skins, counts and models");
    for (uint32_t m = 0; m < c->skin_count; m++) {
        total += c->counts[m];
        if (c->counts[m] && c->skins[m]->node_count > *nodes)
            *nodes = c->skins[m]->node_count;
    }
    if (total > VKS_RENDER_MAX_CELLS)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "render", "at most %u cells (asked for %llu)",
                             VKS_RENDER_MAX_CELLS, (unsigned long long)total);
    *cells = (uint32_t)total;
    return VKS_OK;
}

/* How many cells from (*m, *j) on make the next part (at most cap, and part_bytes of outputs
 * unless it is one instance); *m, *j step past them. */
static uint32_t next_part(const vks_render_cells *c, uint32_t left, uint32_t cap, uint32_t *m,
                          uint32_t *j)
{
    uint64_t most = c->part_bytes ? c->part_bytes : PART_BYTES;
    uint32_t n = 0, pm = *m, pj = *j;
    for (uint64_t bytes = 0; n < left && n < cap; n++, pj++) {
        while (pj >= c->counts[pm])
            pm++, pj = 0;
        uint64_t b = (uint64_t)c->skins[pm]->vertex_count * 24;
        if (n && bytes + b > most)
            break;
        bytes += b;
    }
    *m = pm, *j = pj;
    return n;
}

vks_result vks_render_sheet(vks_render *r, vks_gpu *gpu, const vks_render_cells *c, vks_error *err)
{
    uint32_t cells = 0, nodes = 1;
    vks_result res = count_cells(c, &cells, &nodes, err);
    if (res != VKS_OK)
        return res;
    uint32_t cap = cells < PART_CELLS ? cells : PART_CELLS;
    sheet_parts s = {.c = c, .gpu = gpu};
    s.inst = malloc((size_t)(cap ? cap : 1) * sizeof *s.inst);
    s.crowd_models = malloc((size_t)(cap ? cap : 1) * sizeof *s.crowd_models);
    s.locals = c->locals ? malloc((size_t)nodes * sizeof *s.locals) : NULL;
    if (!s.inst || !s.crowd_models || (c->locals && !s.locals))
        res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "render", "out of memory for the crowd");
    uint32_t m = 0, j = 0; /* the part's first cell */
    for (uint32_t g0 = 0; res == VKS_OK && g0 < cells;) {
        uint32_t pm = m, pj = j, n = next_part(c, cells - g0, cap, &pm, &pj);
        res = part_crowd(&s, m, j, n, err);
        if (res == VKS_OK)
            res = vks_render_crowd_part(r, s.crowd, c->time, g0, cells, err);
        g0 += n, m = pm, j = pj;
        if (c->progress)
            c->progress(c->user, g0, cells);
    }
    vks_crowd_destroy(s.crowd);
    free(s.inst), free(s.crowd_models), free(s.locals);
    return res;
}

vks_result vks_render_write_png(const vks_render *r, const char *path, vks_error *err)
{
    uint32_t w = 0, h = 0;
    const uint8_t *px = r ? vks_render_pixels(r, &w, &h) : NULL;
    if (!px)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "render", "nothing drawn yet");
    vks_png_image im = {px, w, h, 8, 4, 0, 0};
    return vks_png_write(path, &im, err);
}

vks_result vks_render_sheet_png(vks_gpu *gpu, const vks_render_sheet_job *job, vks_error *err)
{
    if (!gpu || !job || !job->skins || !job->skin_count || !job->png)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "render", "a job needs a context, skins and a png");
    uint32_t per = job->instances ? job->instances : 1;
    uint32_t *counts = malloc(job->skin_count * sizeof *counts);
    if (!counts)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "render", "out of memory");
    for (uint32_t m = 0; m < job->skin_count; m++)
        counts[m] = per;
    vks_gpu_models *models = NULL;
    vks_render *r = NULL;
    vks_render_desc d = {.skins = job->skins, .skin_count = job->skin_count, .width = job->width,
                         .height = job->height, .background = job->background,
                         .columns = job->columns ? job->columns : job->skin_count > 1 ? per : 0};
    vks_result res = vks_gpu_upload(gpu, job->skins, job->skin_count, &models, err);
    if (res == VKS_OK)
        res = vks_render_create(gpu, &d, &r, err);
    if (res == VKS_OK) {
        vks_render_cells c = {.skins = job->skins, .skin_count = job->skin_count, .counts = counts,
                              .models = models, .time = job->time, .seed = job->seed};
        res = vks_render_sheet(r, gpu, &c, err);
    }
    if (res == VKS_OK)
        res = vks_render_write_png(r, job->png, err);
    vks_render_destroy(r);
    vks_gpu_models_free(models);
    free(counts);
    return res;
}
