/* Upload of a set of models as static device buffers: model table, parents, bones (node,
 * mesh, inverse bind), mesh spaces, group table, palettes (the remaps), bind positions and
 * normals, packed influences, bind locals (the procedural pose starts from them). Also where test faults are injected (vks_gpu_fault): the GPU
 * copy is corrupted, never the caller's skin. */
#include "gpu_internal.h"
#include "core/skin_morph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Creates a device buffer holding size bytes of data: written in place when the memory is
 * host-visible (unified memory, lavapipe), else through a staging buffer and a copy. */
vks_result vks__check_pose_loops(const vks_gpu *gpu, const char *what, uint32_t nodes, uint32_t bones,
                                 uint32_t meshes, uint32_t levels, uint64_t extra, vks_error *err)
{
    /* the node loop, the bone loop run by run of a mesh's bones (a run's last step meets the
     * next mesh; a model's bones past its meshes' ranges take mesh 0: one more run), exits */
    uint64_t runs = (uint64_t)meshes + 1;
    uint64_t loops = (uint64_t)nodes + bones + 2 * runs + extra + 3;
    if (gpu->shape.pose_nodes) {
        /* an invocation's share of the nodes and bones (a subgroup shares an instance), and the
         * level loop: each level's share of its nodes (at most nodes / sg + 1 a level), exits */
        uint64_t wg = gpu->info.subgroup_size ? gpu->info.subgroup_size : 1;
        loops = 2 * ((nodes + wg - 1) / wg) + (bones + wg - 1) / wg + 2 * runs + 3 * (uint64_t)levels + extra + 4;
    }
    if (!gpu->loop_limit || loops <= gpu->loop_limit)
        return VKS_OK;
    return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/upload",
                         "%s: %llu pose-pass loop iterations per instance (%u nodes, %u bones, %llu clip key "
                         "steps) exceed the %u llvmpipe runs per invocation (it would stop early: wrong poses)",
                         what, (unsigned long long)loops, nodes, bones, (unsigned long long)extra, gpu->loop_limit);
}

/* Each node's depth into depth[] (parents come before their children: one pass); returns the
 * skeleton's level count. */
static uint32_t depths_of(const vks_skin *s, uint32_t *depth)
{
    uint32_t levels = 0;
    for (uint32_t i = 0; i < s->node_count; i++) {
        int32_t p = s->nodes[i].parent;
        depth[i] = p >= 0 && (uint32_t)p < i ? depth[p] + 1 : 0;
        if (depth[i] + 1 > levels)
            levels = depth[i] + 1;
    }
    return levels;
}

/* The levels table of compute/pose.comp's nodes variant for one model at w: the level count
 * L, L + 1 starts into the order, then the nodes sorted by depth (stable: a level keeps the
 * nodes' order). depth is scratch of node_count words. Returns the words written. */
static uint32_t put_levels(const vks_skin *s, uint32_t *w, uint32_t *depth)
{
    uint32_t n = s->node_count, levels = depths_of(s, depth);
    uint32_t *start = w + 1, *order = w + levels + 2;
    memset(start, 0, (levels + 1) * sizeof *start);
    for (uint32_t i = 0; i < n; i++)
        start[depth[i] + 1]++;
    for (uint32_t l = 0; l < levels; l++)
        start[l + 1] += start[l];
    for (uint32_t i = 0; i < n; i++) /* moves each level's start to its end */
        order[start[depth[i]]++] = i;
    for (uint32_t l = levels; l > 0; l--)
        start[l] = start[l - 1];
    start[0] = 0;
    w[0] = levels;
    return levels + 2 + n;
}

static uint32_t mesh_of_bone(const vks_skin *s, uint32_t b)
{
    for (uint32_t m = 0; m < s->mesh_count; m++)
        if (b >= s->meshes[m].first_bone && b < s->meshes[m].first_bone + s->meshes[m].bone_count)
            return m;
    return 0;
}

/* The vertex with the largest |position| that has a positive first weight: a fault there
 * moves it the most. */
static uint32_t fault_vertex(const vks_skin *s)
{
    uint32_t best = 0;
    double far = -1;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        const float *p = s->positions[v];
        double d = (double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2];
        if (s->influences[v].weight[0] > 0 && d > far)
            far = d, best = v;
    }
    return best;
}

static uint32_t group_of_vertex(const vks_skin *s, uint32_t v)
{
    for (uint32_t g = 0; g < s->group_count; g++)
        if (v >= s->groups[g].first_vertex && v < s->groups[g].first_vertex + s->groups[g].vertex_count)
            return g;
    return 0;
}

typedef struct tables {
    vks__gpu_model_info *models;
    int32_t *parents;
    vks__gpu_bone *bones;
    vks__gpu_mesh *meshes;
    vks__gpu_group *groups;
    uint32_t *palette;
    float *pos, *nrm;
    vks__gpu_infl *infl; /* verts records of slots 0..3, then infl_more of slots 4..7 */
    vks_affine *binds;
    uint32_t *levels; /* compute/pose.comp's Levels: per model a word offset, then the blocks */
    uint64_t nodes, bones_n, meshes_n, groups_n, palette_n, verts;
    uint64_t infl_more; /* vertices of groups with more than 4 influences */
} tables;

/* Vertices of s whose groups use more than four slots: their slots 4..7 get a second record. */
static uint64_t more_vertices(const vks_skin *s)
{
    uint64_t n = 0;
    for (uint32_t g = 0; g < s->group_count; g++)
        n += s->groups[g].max_influences > 4 ? s->groups[g].vertex_count : 0;
    return n;
}

static void tables_free(tables *t)
{
    free(t->models), free(t->parents), free(t->bones), free(t->meshes), free(t->groups);
    free(t->palette), free(t->pos), free(t->nrm), free(t->infl), free(t->binds), free(t->levels);
}

static void inject(const vks_skin *s, tables *t, vks_gpu_fault fault)
{
    if (fault == VKS_GPU_FAULT_NONE || s->vertex_count == 0)
        return;
    uint32_t v = fault_vertex(s), g = group_of_vertex(s, v);
    const vks_group *gr = &s->groups[g];
    uint32_t slot = s->influences[v].index[0];
    uint32_t bone = s->palette[gr->first_palette + slot];
    if (fault == VKS_GPU_FAULT_WEIGHT) {
        t->infl[v].w[0] += 0.25f;
    } else if (fault == VKS_GPU_FAULT_MATRIX) {
        double r = vks_skin_bounding_radius(s);
        t->bones[bone].ib[9] += (float)(0.05 * r);
    } else if (fault == VKS_GPU_FAULT_REMAP) {
        const vks_mesh *me = &s->meshes[gr->mesh];
        uint32_t other = bone;
        for (uint32_t k = 1; k < gr->palette_count && other == bone; k++)
            other = s->palette[gr->first_palette + (slot + k) % gr->palette_count];
        if (other == bone && me->bone_count > 1)
            other = me->first_bone + (bone - me->first_bone + 1) % me->bone_count;
        t->palette[gr->first_palette + slot] = other;
    }
}

/* Counts what the tables need (t's counts, per model its depth levels into levels[], the level
 * words into *level_words) and checks every model against the pose pass's loop limit and the
 * shaders' 32-bit indices. depth: room for the most nodes of any skin. */
static vks_result count_tables(const vks_gpu *gpu, const vks_skin *const *skins, uint32_t count, uint32_t *depth,
                               uint32_t *levels, uint64_t *level_words, tables *t, vks_error *err)
{
    *level_words = count;
    for (uint32_t i = 0; i < count; i++) {
        const vks_skin *s = skins[i];
        char what[32];
        snprintf(what, sizeof what, "model %u", i);
        levels[i] = depths_of(s, depth);
        *level_words += (uint64_t)levels[i] + 2 + s->node_count;
        vks_result lr = vks__check_pose_loops(gpu, what, s->node_count, s->bone_count, s->mesh_count, levels[i], 0,
                                              err);
        if (lr != VKS_OK)
            return lr;
        t->nodes += s->node_count, t->bones_n += s->bone_count, t->meshes_n += s->mesh_count;
        t->groups_n += s->group_count, t->palette_n += s->palette_count, t->verts += s->vertex_count;
        t->infl_more += more_vertices(s);
    }
    if (t->verts + t->infl_more > UINT32_MAX / 4 || t->nodes > UINT32_MAX / 16 || t->bones_n > UINT32_MAX / 16)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "gpu/upload", "models too large for 32-bit indices");
    return VKS_OK;
}

/* The host tables for t's counts and the set's own host copies; 0 when out of memory. */
static int alloc_tables(vks_gpu_models *ms, uint32_t count, uint64_t level_words, tables *t)
{
    ms->models = calloc(count ? count : 1, sizeof *ms->models);
    ms->groups = calloc(t->groups_n ? t->groups_n : 1, sizeof *ms->groups);
    ms->group_influences = calloc(t->groups_n ? t->groups_n : 1, sizeof *ms->group_influences);
    t->models = calloc(count ? count : 1, sizeof *t->models);
    t->parents = calloc(t->nodes + 1, sizeof *t->parents);
    t->bones = calloc(t->bones_n + 1, sizeof *t->bones);
    t->meshes = calloc(t->meshes_n + 1, sizeof *t->meshes);
    t->palette = calloc(t->palette_n + 1, sizeof *t->palette);
    t->pos = calloc(t->verts * 3 + 1, sizeof *t->pos);
    t->nrm = calloc(t->verts * 3 + 1, sizeof *t->nrm);
    t->infl = calloc(t->verts + t->infl_more + 1, sizeof *t->infl);
    t->binds = calloc(t->nodes + 1, sizeof *t->binds);
    t->levels = calloc(level_words + 1, sizeof *t->levels);
    return ms->models && ms->groups && ms->group_influences && t->models && t->parents && t->bones && t->meshes &&
           t->palette && t->pos && t->nrm && t->infl && t->binds && t->levels;
}

/* Where the next model starts in each table. */
typedef struct table_bases {
    uint32_t nb, bb, mb, gb, pb, vb, lw;
    uint32_t xb; /* the next record of slots 4..7 in the influence table (after every vertex's) */
} table_bases;

/* Vertex v's slots k0..k0+3 as a device record. */
static vks__gpu_infl infl_record(const vks_influence *in, int k0)
{
    vks__gpu_infl o;
    o.idx01 = in->index[k0] | (uint32_t)in->index[k0 + 1] << 16;
    o.idx23 = in->index[k0 + 2] | (uint32_t)in->index[k0 + 3] << 16;
    memcpy(o.w, in->weight + k0, sizeof o.w);
    return o;
}

/* Writes model i (skin s, its depth levels) into the tables at bases b; moves b.lw past its
 * level words (advance moves the rest). depth: scratch room for its nodes' depths. */
static void fill_model(vks_gpu_models *ms, tables *t, uint32_t i, const vks_skin *s, uint32_t levels,
                       uint32_t *depth, table_bases *b)
{
    t->models[i] = (vks__gpu_model_info){b->nb, s->node_count, b->bb, s->bone_count, b->mb, s->mesh_count, b->vb,
                                         s->vertex_count};
    ms->models[i] = (vks__gpu_model){s->node_count, s->bone_count, s->vertex_count, b->gb, s->group_count, b->nb, levels,
                                     0 /* morph_slots: vks__upload_morph */};
    t->levels[i] = b->lw;
    b->lw += put_levels(s, t->levels + b->lw, depth);
    for (uint32_t n = 0; n < s->node_count; n++) {
        t->parents[b->nb + n] = s->nodes[n].parent;
        t->binds[b->nb + n] = s->nodes[n].bind_local;
    }
    for (uint32_t k = 0; k < s->bone_count; k++) {
        vks__gpu_bone *o = &t->bones[b->bb + k];
        o->node = s->bones[k].node;
        o->mesh = b->mb + mesh_of_bone(s, k);
        memcpy(o->ib, s->bones[k].inverse_bind.m, sizeof o->ib);
    }
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        t->meshes[b->mb + m].space_node = s->meshes[m].space_node;
        if (s->meshes[m].target_count) { /* the slots of models_morph.c's layout (morph_slots) */
            t->meshes[b->mb + m].morph_count = s->meshes[m].target_count;
            t->meshes[b->mb + m].morph_back = (s->target_count + 11) / 12 * 12 - s->meshes[m].first_target;
        }
        memcpy(t->meshes[b->mb + m].pre, s->meshes[m].space_pre.m, sizeof t->meshes[b->mb + m].pre);
    }
    for (uint32_t g = 0; g < s->group_count; g++) {
        const vks_group *gr = &s->groups[g];
        uint32_t mf = s->meshes[gr->mesh].flags, flags = 0;
        if (mf & VKS_MESH_HAS_NORMALS)
            flags |= VKS__GROUP_HAS_NORMALS;
        if (mf & VKS_MESH_RENORMALIZE)
            flags |= VKS__GROUP_RENORMALIZE;
        uint32_t k = gr->max_influences;
        k = k < 1 ? 1 : k > VKS_MAX_INFLUENCES ? VKS_MAX_INFLUENCES : k;
        ms->groups[b->gb + g] = (vks__gpu_group){b->vb + gr->first_vertex, gr->vertex_count, b->pb + gr->first_palette,
                                                 gr->palette_count, flags, b->vb, k > 4 ? b->xb : 0, 0,
                                                 0, 0, 0, 0 /* morph fields: vks__upload_morph */};
        ms->group_influences[b->gb + g] = k;
        for (uint32_t v = 0; k > 4 && v < gr->vertex_count; v++)
            t->infl[b->xb++] = infl_record(&s->influences[gr->first_vertex + v], 4);
    }
    for (uint32_t p = 0; p < s->palette_count; p++)
        t->palette[b->pb + p] = s->palette[p];
    memcpy(t->pos + (size_t)b->vb * 3, s->positions, (size_t)s->vertex_count * 12);
    if (s->normals)
        memcpy(t->nrm + (size_t)b->vb * 3, s->normals, (size_t)s->vertex_count * 12);
    if (vks__morph_defaults_active(s)) /* the rest at the morph targets' default weights */
        vks__morph_rest_into(s, t->pos + (size_t)b->vb * 3, s->normals ? t->nrm + (size_t)b->vb * 3 : NULL);
    for (uint32_t v = 0; v < s->vertex_count; v++)
        t->infl[b->vb + v] = infl_record(&s->influences[v], 0);
}

/* Moves b past a model of skin s (its levels words were counted by fill_model). */
static void advance(table_bases *b, const vks_skin *s)
{
    b->nb += s->node_count, b->bb += s->bone_count, b->mb += s->mesh_count;
    b->gb += s->group_count, b->pb += s->palette_count, b->vb += s->vertex_count;
}

/* The device copies of the tables (level_words: the levels table's length). */
static vks_result upload_tables(vks_gpu *gpu, vks_gpu_models *ms, const tables *t, uint32_t count,
                                uint64_t level_words, vks_error *err)
{
    vks__oneshot once = {0}; /* made by the first staged upload, if any */
    vks_result res = vks__upload_table(gpu, &once, "model", t->models, count * sizeof *t->models, &ms->models_buf, err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "parent", t->parents, t->nodes * sizeof *t->parents, &ms->parents, err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "bone", t->bones, t->bones_n * sizeof *t->bones, &ms->bones, err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "mesh", t->meshes, t->meshes_n * sizeof *t->meshes, &ms->meshes, err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "group", ms->groups, t->groups_n * sizeof *ms->groups, &ms->groups_buf,
                                err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "palette", t->palette, t->palette_n * sizeof *t->palette, &ms->palette,
                                err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "position", t->pos, t->verts * 12, &ms->pos, err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "normal", t->nrm, t->verts * 12, &ms->nrm, err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "influence", t->infl, (t->verts + t->infl_more) * sizeof *t->infl,
                                &ms->infl, err);
    /* Only crowds read the bind locals (the procedural pose starts from them): a table over
     * the storage range is left out here, and refused by vks_crowd_create, so batches of the
     * same models still run. */
    if (res == VKS_OK && t->nodes * sizeof *t->binds <= gpu->props.limits.maxStorageBufferRange)
        res = vks__upload_table(gpu, &once, "bind local", t->binds, t->nodes * sizeof *t->binds, &ms->binds, err);
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "level", t->levels, level_words * sizeof *t->levels, &ms->levels, err);
    vks__oneshot_destroy(gpu, &once);
    return res;
}

vks_result vks_gpu_upload(vks_gpu *gpu, const vks_skin *const *skins, uint32_t count, vks_gpu_models **out,
                          vks_error *err)
{
    tables t = {0};
    vks_gpu_models *ms = calloc(1, sizeof *ms);
    if (!ms)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/upload", "out of memory");
    ms->gpu = gpu;
    ms->count = count;
    uint32_t most_nodes = 0;
    for (uint32_t i = 0; i < count; i++)
        most_nodes = skins[i]->node_count > most_nodes ? skins[i]->node_count : most_nodes;
    uint32_t *depth = malloc(((size_t)most_nodes + 1) * sizeof *depth);
    uint32_t *levels = malloc(((size_t)count + 1) * sizeof *levels);
    if (!depth || !levels) {
        free(depth), free(levels), free(ms);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/upload", "out of memory");
    }
    uint64_t level_words = 0;
    vks_result res = count_tables(gpu, skins, count, depth, levels, &level_words, &t, err);
    if (res != VKS_OK) {
        free(depth), free(levels), free(ms);
        return res;
    }
    if (!alloc_tables(ms, count, level_words, &t)) {
        res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/upload", "out of memory");
        goto done;
    }
    table_bases b = {0, 0, 0, 0, 0, 0, count, (uint32_t)t.verts};
    for (uint32_t i = 0; i < count; i++) {
        table_bases at = b;
        fill_model(ms, &t, i, skins[i], levels[i], depth, &b);
        if (i == 0) {
            /* Faults are injected in model 0, in its own slice of the tables. */
            tables local = t;
            local.bones = t.bones + at.bb, local.palette = t.palette + at.pb, local.infl = t.infl + at.vb;
            inject(skins[i], &local, gpu->test.inject_fault);
        }
        advance(&b, skins[i]);
    }
    ms->group_count = b.gb;

    uint32_t variants = 0; /* the deform kernels these groups need: compiled now, if not yet */
    for (uint32_t g = 0; g < b.gb; g++)
        variants |= 1u << vks__deform_variant(ms->group_influences[g]);
    for (uint32_t i = 0; i < count; i++) /* morph targets: the kernels with the morph stage too */
        ms->morph_any |= skins[i]->target_count != 0;
    if (ms->morph_any)
        variants |= VKS__MORPH_KERNELS;
    res = vks__deform_pipelines(gpu, variants, err);
    if (res == VKS_OK)
        res = vks__upload_morph(gpu, ms, skins, count, err);
    if (res == VKS_OK)
        res = upload_tables(gpu, ms, &t, count, b.lw, err);
    if (res == VKS_OK) { /* kept on the host: a crowd's locals start as the bind pose */
        ms->bind_locals = t.binds;
        t.binds = NULL;
    }
done:
    tables_free(&t);
    free(depth), free(levels);
    if (res != VKS_OK) {
        vks_gpu_models_free(ms);
        return res;
    }
    *out = ms;
    return VKS_OK;
}

void vks_gpu_models_free(vks_gpu_models *ms)
{
    if (!ms)
        return;
    vks_gpu *gpu = ms->gpu;
    vks__buf *bufs[] = {&ms->models_buf, &ms->parents, &ms->bones, &ms->meshes, &ms->groups_buf,
                        &ms->palette, &ms->pos, &ms->nrm, &ms->infl, &ms->binds, &ms->levels, &ms->morph};
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++)
        vks__buf_destroy(gpu, bufs[i]);
    free(ms->models), free(ms->groups), free(ms->group_influences), free(ms->bind_locals);
    free(ms->morph_defaults), free(ms->morph_first);
    free(ms);
}

int vks__model_counts(const vks_gpu_models *ms, uint32_t model, uint32_t *vertex_count, uint32_t *node_count)
{
    if (!ms || model >= ms->count)
        return 0;
    *vertex_count = ms->models[model].vertex_count, *node_count = ms->models[model].node_count;
    return 1;
}
