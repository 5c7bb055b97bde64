/* RenderWare DFF reader: the first top-level Clump (trailing padding ignored), its struct,
 * Frame List, Geometry List and Atomics, assembled into the canonical model through the
 * builder. Each skinned atomic becomes one mesh, in atomic order, then each atomic without a
 * Skin PLG (a rigid part: a weapon or a head attached to a frame) one mesh on its frame, in
 * the first skinned atomic's space (add_rigid_atomic). A skinned atomic:
 *   nodes      = frames in frame order, bind_local = the frame matrix (right, up, at, pos)
 *   bones      = HAnim nodes in node order (bone i -> the frame attached to node i),
 *                inverse_bind = the Skin PLG matrix S_i with the 4th column dropped
 *   space_node = the atomic's frame (LOCALSPACEMATRICES: the hierarchy frame's parent)
 * so K_i = inverse(W(A)) * W(H_i) * G(S_i), librw's palette (renderware.md 8.1).
 * Split data gives one group per Bin Mesh mesh, its palette from the mesh's RLE runs. */
#include "core/skin_morph.h"
#include "rw_internal.h"
#include "vkskin/build.h"

#include <stdio.h>
#include <string.h>

/* how many times over the vertices the geometries hold the skinned meshes may draw them */
#define RW_MAX_SHARING 16u

typedef struct rw_clump {
    uint32_t version;
    int32_t num_atomics;
    rw_frames frames;
    int have_frames;
    uint32_t geometry_count;
    rw_chunk *geometry_chunks;
    rw_geometry **geometries; /* parsed on first use */
    rw_chunk *atomics;
    uint32_t atomic_count;
    int32_t skin_space;       /* the first skinned atomic's skin-space node; -1 before one */
    uint32_t rigid_count;     /* atomics without a Skin PLG, added after the skinned ones */
    uint32_t *rigid_atomic;
    int32_t *rigid_frame;
    rw_geometry **rigid_geometry;
    uint32_t mesh_added;      /* meshes the builder holds */
    vks__morph_source *morphs; /* the meshes with morph targets, in mesh order */
    uint32_t morph_meshes;
} rw_clump;

static vks_result read_clump_struct(rw_ctx *ctx, const rw_chunk *st, rw_clump *cl)
{
    vks_cursor c = st->body;
    int32_t lights = 0, cameras = 0;
    if (!vks_cur_i32(&c, &cl->num_atomics))
        return vks__rw_truncated(ctx, &c, "clump/struct", "atomic count");
    /* numLights and numCameras follow after 3.3.0.0 */
    if (st->version > 0x33000 && (!vks_cur_i32(&c, &lights) || !vks_cur_i32(&c, &cameras)))
        return vks__rw_truncated(ctx, &c, "clump/struct", "light and camera counts");
    if (cl->num_atomics < 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, st->body.p - st->body.base, "clump/struct",
                             "atomic count %d is negative", cl->num_atomics);
    return VKS_OK;
}

static vks_result read_geometry_list(rw_ctx *ctx, const rw_chunk *gl, rw_clump *cl)
{
    vks_cursor c = gl->body;
    rw_chunk st;
    int found = vks__rw_find_child(ctx, &c, RW_STRUCT, &st, "clump/geometry_list");
    if (found < 0)
        return ctx->err->code;
    if (found == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, gl->offset, "clump/geometry_list",
                             "geometry list without a struct");
    vks_cursor s = st.body;
    uint32_t n;
    if (!vks_cur_u32(&s, &n))
        return vks__rw_truncated(ctx, &s, "clump/geometry_list/struct", "geometry count");
    if (!vks_cur_fits(&c, n, 12)) /* each geometry is at least a chunk header */
        return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, st.body.p - st.body.base, "clump/geometry_list/struct",
                             "%u geometries, only %zu bytes left in the list", n, vks_cur_left(&c));
    cl->geometry_count = n;
    cl->geometry_chunks = vks__rw_tmp(ctx, n, sizeof(rw_chunk));
    cl->geometries = vks__rw_tmp(ctx, n, sizeof(rw_geometry *));
    if (!cl->geometry_chunks || !cl->geometries)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clump/geometry_list", "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        char path[RW_PATH_MAX];
        snprintf(path, sizeof path, "clump/geometry_list/geometry[%u]", i);
        found = vks__rw_find_child(ctx, &c, RW_GEOMETRY, &cl->geometry_chunks[i], path);
        if (found < 0)
            return ctx->err->code;
        if (found == 0)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, gl->offset, path,
                                 "geometry list declares %u geometries, found %u", n, i);
    }
    return VKS_OK;
}

/* The triangles a mesh of g draws: its triangle array, or its Bin Mesh meshes' when larger. */
static uint64_t geometry_triangles(const rw_geometry *g)
{
    uint64_t bin = 0;
    for (uint32_t mi = 0; mi < g->bin_mesh_count; mi++)
        bin += g->bin_meshes[mi].triangle_count;
    return g->triangle_count > bin ? g->triangle_count : bin;
}

static vks_result get_geometry(rw_ctx *ctx, rw_clump *cl, uint32_t index, rw_geometry **out)
{
    if (!cl->geometries[index]) {
        char path[RW_PATH_MAX];
        snprintf(path, sizeof path, "clump/geometry_list/geometry[%u]", index);
        rw_geometry *g = vks__rw_tmp(ctx, 1, sizeof *g);
        if (!g)
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
        vks_result r = vks__rw_read_geometry(ctx, &cl->geometry_chunks[index], g, path);
        if (r != VKS_OK)
            return r;
        ctx->total_vertices += g->vertex_count;
        ctx->total_triangles += g->triangle_count;
        ctx->file_triangles += geometry_triangles(g);
        cl->geometries[index] = g;
    }
    *out = cl->geometries[index];
    return VKS_OK;
}

/* The bones of a skinned atomic, in the skin's order, and the node whose space the skin is in:
   a legacy atomic skin names its bones by HAnim ID (each goes to the first free frame with
   it), a current one follows the HAnim hierarchy node by node. */
static vks_result atomic_bones(rw_ctx *ctx, rw_clump *cl, const rw_skin_plg *s, int32_t frame, const char *path,
                               uint64_t offset, vks_bone *bones, int32_t *space_out)
{
    rw_frames *f = &cl->frames;
    uint32_t nb = s->bone_count;
    int32_t space = frame;
    if (s->legacy) {
        /* legacy atomic skin: bones carry HAnim IDs; attach each to the first free frame with it */
        uint8_t *taken = vks__rw_tmp(ctx, f->count, 1);
        if (!taken)
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
        for (uint32_t i = 0; i < nb; i++) {
            int32_t fr = -1;
            for (uint32_t j = 0; j < f->count && fr < 0; j++)
                if (!taken[j] && f->has_hanim[j] && f->hanim_id[j] == s->legacy_id[i])
                    fr = (int32_t)j;
            if (fr < 0)
                return vks_error_set(ctx->err, VKS_ERR_UNSUPPORTED, offset, path,
                                     "legacy skin bone %u (ID %d) matches no frame's HAnim ID", i, s->legacy_id[i]);
            taken[fr] = 1;
            bones[i].node = (uint32_t)fr;
            bones[i].inverse_bind = s->inverse[i];
        }
    } else {
        if (f->hier_frame < 0)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                                 "skinned atomic, but no frame carries an HAnim hierarchy");
        if (nb != f->node_count)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                                 "skin has %u bones, the HAnim hierarchy %u nodes", nb, f->node_count);
        for (uint32_t i = 0; i < nb; i++) {
            bones[i].node = (uint32_t)f->node_frame[i];
            bones[i].inverse_bind = s->inverse[i];
        }
        if (f->hier_flags & RW_HANIM_LOCAL_SPACE)
            space = f->parent[f->hier_frame];
    }

    *space_out = space;
    return VKS_OK;
}

/* The groups of a skin with split data (one per Bin Mesh mesh): each with its triangles and a
   palette of the bones of its runs. */
static vks_result split_groups(rw_ctx *ctx, const rw_geometry *g, const rw_skin_plg *s, const char *path,
                               uint64_t offset, vks_group_source **out)
{
    uint32_t nb = s->bone_count;
    if (!g->has_bin_mesh || g->bin_mesh_count != s->split_meshes)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                             "skin split data names %u meshes, the bin mesh has %u", s->split_meshes,
                             g->has_bin_mesh ? g->bin_mesh_count : 0);
    vks_group_source *gs = vks__rw_tmp(ctx, s->split_meshes, sizeof *gs);
    if (!gs)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    for (uint32_t mi = 0; mi < s->split_meshes; mi++) {
        const rw_bin_mesh *bm = &g->bin_meshes[mi];
        uint32_t first = s->rle_count[2 * mi], runs = s->rle_count[2 * mi + 1];
        if (first + runs > s->split_rle)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                                 "split mesh %u: runs %u..%u past the %u RLE entries", mi, first, first + runs,
                                 s->split_rle);
        /* palette: the bones of the mesh's runs (global bone indices), ordered by their
           remapped matrix slot, then by bone */
        uint16_t *pal = vks__rw_tmp(ctx, nb, sizeof *pal);
        uint8_t *in = vks__rw_tmp(ctx, nb, 1);
        uint16_t *tm = vks__rw_tmp(ctx, bm->triangle_count, sizeof *tm);
        if (!pal || !in || !tm)
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
        for (uint32_t r = first; r < first + runs; r++) {
            uint32_t start = s->rle[2 * r], n = s->rle[2 * r + 1];
            if (start + n > nb)
                return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path,
                                     "split RLE run %u covers bones %u..%u, %u bones", r, start, start + n, nb);
            for (uint32_t k = start; k < start + n; k++)
                in[k] = 1;
        }
        /* a counting sort by slot (stable in bone order): O(bones), not 256 x bones */
        uint32_t np = 0, at[257] = {0};
        for (uint32_t k = 0; k < nb; k++)
            at[s->remap[k] + 1u] += in[k];
        for (uint32_t slot = 0; slot < 256; slot++)
            at[slot + 1] += at[slot];
        for (uint32_t k = 0; k < nb; k++)
            if (in[k]) {
                pal[at[s->remap[k]]++] = (uint16_t)k;
                np++;
            }
        if (np == 0)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, offset, path, "split mesh %u has no bones", mi);
        for (uint32_t t = 0; t < bm->triangle_count; t++)
            tm[t] = (uint16_t)(bm->material > 0 ? bm->material : 0);
        gs[mi].triangles = (const uint32_t (*)[3])bm->triangles;
        gs[mi].triangle_count = bm->triangle_count;
        gs[mi].triangle_material = g->material_count ? tm : NULL;
        gs[mi].palette = pal;
        gs[mi].palette_count = np;
    }
    *out = gs;
    return VKS_OK;
}

/* The geometry's triangles into m (with their materials): its triangle array, or, where it has
   none, its Bin Mesh meshes' triangles. */
static vks_result geometry_triangles_of(rw_ctx *ctx, const rw_geometry *g, const char *path, vks_mesh_source *m)
{
    if (!(g->triangle_count == 0 && g->has_bin_mesh)) {
        m->triangles = (const uint32_t (*)[3])g->triangles;
        m->triangle_count = g->triangle_count;
        m->triangle_material = g->material_count ? g->triangle_material : NULL;
        return VKS_OK;
    }
    uint64_t total = 0;
    for (uint32_t mi = 0; mi < g->bin_mesh_count; mi++)
        total += g->bin_meshes[mi].triangle_count;
    uint32_t (*tris)[3] = vks__rw_tmp(ctx, total, sizeof *tris);
    uint16_t *tm = vks__rw_tmp(ctx, total, sizeof *tm);
    if (!tris || !tm)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    uint32_t t = 0;
    for (uint32_t mi = 0; mi < g->bin_mesh_count; mi++)
        for (uint32_t k = 0; k < g->bin_meshes[mi].triangle_count; k++, t++) {
            memcpy(tris[t], g->bin_meshes[mi].triangles[k], sizeof tris[t]);
            tm[t] = (uint16_t)(g->bin_meshes[mi].material > 0 ? g->bin_meshes[mi].material : 0);
        }
    m->triangles = (const uint32_t (*)[3])tris;
    m->triangle_count = t;
    m->triangle_material = g->material_count ? tm : NULL;
    return VKS_OK;
}

/* One more mesh for the builder; geometry g's morph targets 1..N-1 (rw_morph.c) kept for it,
   to be placed once the builder has laid its vertices out (finish_model). */
static vks_result add_mesh(rw_ctx *ctx, rw_clump *cl, vks_skin_builder *b, const vks_mesh_source *m,
                           const rw_geometry *g)
{
    vks_result r = vks_builder_add_mesh(b, m, ctx->err);
    uint32_t mesh = cl->mesh_added++, n = g->morph_count > 1 ? g->morph_count - 1 : 0;
    if (r != VKS_OK || n == 0)
        return r;
    ctx->mesh_target_vertices += (uint64_t)n * g->vertex_count; /* each mesh holds its own copy */
    if (ctx->mesh_target_vertices > ctx->opt.max_vertices)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, m->name,
                             "%u morph targets of %u vertices: %llu morph target vertices over the meshes, limit %u", n,
                             g->vertex_count, (unsigned long long)ctx->mesh_target_vertices, ctx->opt.max_vertices);
    const float **pos = vks__rw_tmp(ctx, n, sizeof *pos), **nrm = vks__rw_tmp(ctx, n, sizeof *nrm);
    const char **names = vks__rw_tmp(ctx, n, sizeof *names);
    char *text = vks__rw_tmp(ctx, n, 16);
    if (!pos || !nrm || !names || !text)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, m->name, "out of memory");
    for (uint32_t t = 0; t < n; t++) {
        pos[t] = g->morph_pos[t + 1] ? g->morph_pos[t + 1][0] : NULL;
        nrm[t] = g->morph_nrm[t + 1] ? g->morph_nrm[t + 1][0] : NULL;
        snprintf(text + 16 * (size_t)t, 16, "morph%u", t + 1); /* RW targets have no names */
        names[t] = text + 16 * (size_t)t;
    }
    vks__morph_source *ms = &cl->morphs[cl->morph_meshes++];
    memset(ms, 0, sizeof *ms);
    ms->mesh = mesh, ms->file_vertex_count = g->vertex_count, ms->target_count = n;
    ms->pos = pos, ms->nrm = nrm, ms->names = names; /* default weights 0: RpMorph starts at target 0 */
    return VKS_OK;
}

/* The built model with its meshes' morph targets. */
static vks_result finish_model(rw_ctx *ctx, rw_clump *cl, vks_skin_builder *b)
{
    vks_result r = vks_builder_finish(b, ctx->err);
    return r == VKS_OK ? vks__skin_attach_morphs(ctx->skin, cl->morphs, cl->morph_meshes, ctx->err) : r;
}

/* Builds the mesh of one skinned atomic. */
static vks_result add_skinned_atomic(rw_ctx *ctx, rw_clump *cl, vks_skin_builder *b, uint32_t ai, int32_t frame,
                                     const rw_geometry *g, const rw_skin_plg *s, uint64_t offset)
{
    char path[RW_PATH_MAX];
    snprintf(path, sizeof path, "clump/atomic[%u]", ai);
    uint32_t nb = s->bone_count;
    vks_bone *bones = vks__rw_tmp(ctx, nb, sizeof *bones);
    if (!bones)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    int32_t space = frame;
    vks_result r = atomic_bones(ctx, cl, s, frame, path, offset, bones, &space);
    if (r)
        return r;
    if (cl->skin_space < 0)
        cl->skin_space = space;
    vks_mesh_source m;
    memset(&m, 0, sizeof m);
    m.name = path;
    m.vertex_count = g->vertex_count;
    m.positions = (const float (*)[3])g->positions;
    m.normals = (const float (*)[3])g->normals;
    m.bone = (const uint16_t (*)[4])s->bone;
    m.weight = (const float (*)[4])s->weight;
    m.bone_count = nb;
    m.bones = bones;
    m.space_node = space;
    m.space_pre = vks_affine_identity();
    m.flags = 0; /* RW does not renormalise skinned normals */
    for (uint32_t k = 0; k < g->uv_sets; k++)
        m.uv[k] = (const float (*)[2])g->uv[k];
    m.uv_set_count = g->uv_sets;
    m.first_material = g->first_material;
    m.material_count = g->material_count;

    if (s->split_meshes > 0) {
        vks_group_source *gs = NULL;
        if ((r = split_groups(ctx, g, s, path, offset, &gs)) != VKS_OK)
            return r;
        m.groups = gs;
        m.group_count = s->split_meshes;
    } else if ((r = geometry_triangles_of(ctx, g, path, &m)) != VKS_OK) {
        return r;
    }
    m.palette_limit = 0; /* no split data: one group with all bones in order */
    return add_mesh(ctx, cl, b, &m, g);
}

/* A rigid atomic (no Skin PLG: a weapon or a head attached to a frame): one group on the
   atomic's frame, weight 1, inverse bind identity, vertices frame-local as stored and flagged
   rigid, in the skin space of the clump's skinned atomics (cl->skin_space; -1: the world's). */
static vks_result add_rigid_atomic(rw_ctx *ctx, rw_clump *cl, vks_skin_builder *b, uint32_t ai, int32_t frame,
                                   const rw_geometry *g)
{
    char path[RW_PATH_MAX];
    snprintf(path, sizeof path, "clump/atomic[%u]", ai);
    uint32_t n = g->vertex_count;
    uint16_t (*bone)[4] = vks__rw_tmp(ctx, n ? n : 1, sizeof *bone);
    float (*weight)[4] = vks__rw_tmp(ctx, n ? n : 1, sizeof *weight);
    vks_bone *node = vks__rw_tmp(ctx, 1, sizeof *node);
    vks_group_source *gs = vks__rw_tmp(ctx, 1, sizeof *gs);
    static const uint16_t node_slot = 0;
    if (!bone || !weight || !node || !gs)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    memset(bone, 0, (size_t)(n ? n : 1) * sizeof *bone);
    memset(weight, 0, (size_t)(n ? n : 1) * sizeof *weight);
    for (uint32_t v = 0; v < n; v++)
        weight[v][0] = 1.0f;
    node->node = (uint32_t)frame;
    node->inverse_bind = vks_affine_identity();
    vks_mesh_source m;
    memset(&m, 0, sizeof m);
    m.name = path;
    m.vertex_count = n;
    m.positions = (const float (*)[3])g->positions;
    m.normals = (const float (*)[3])g->normals;
    m.bone = (const uint16_t (*)[4])bone;
    m.weight = (const float (*)[4])weight;
    m.bone_count = 1;
    m.bones = node;
    m.space_node = cl->skin_space;
    m.space_pre = vks_affine_identity();
    for (uint32_t k = 0; k < g->uv_sets; k++)
        m.uv[k] = (const float (*)[2])g->uv[k];
    m.uv_set_count = g->uv_sets;
    m.first_material = g->first_material;
    m.material_count = g->material_count;
    vks_result r = geometry_triangles_of(ctx, g, path, &m);
    if (r != VKS_OK || m.triangle_count == 0)
        return r; /* nothing to draw: no mesh */
    gs->triangles = m.triangles, gs->triangle_count = m.triangle_count, gs->triangle_material = m.triangle_material;
    gs->palette = &node_slot, gs->palette_count = 1, gs->flags = VKS_GROUP_RIGID;
    m.groups = gs, m.group_count = 1;
    return add_mesh(ctx, cl, b, &m, g);
}

/* One more mesh of geometry g against the limits: meshes, vertices and triangles, and the
   copies of shared geometries (each mesh holds its own copy of its geometry's vertices). */
static vks_result count_mesh(rw_ctx *ctx, const rw_geometry *g, const rw_chunk *at, const char *path,
                             uint32_t *meshes)
{
    if (++*meshes > ctx->opt.max_meshes)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, at->offset, path, "more than %u atomics with geometry",
                             ctx->opt.max_meshes);
    if (ctx->total_vertices > ctx->opt.max_vertices || ctx->total_triangles > ctx->opt.max_triangles)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, at->offset, path, "vertex or triangle limit exceeded");
    /* Atomics may share a geometry, and each skinned one becomes a mesh with its own copy of
       the vertices: the copies count against the limits too, and may not outgrow what the
       file holds by more than RW_MAX_SHARING (a 50-byte atomic must not buy a whole mesh). */
    ctx->mesh_vertices += g->vertex_count;
    ctx->mesh_triangles += geometry_triangles(g);
    if (ctx->mesh_vertices > ctx->opt.max_vertices || ctx->mesh_triangles > ctx->opt.max_triangles)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, at->offset, path,
                             "skinned atomics hold %llu vertices and %llu triangles, limits %u and %u",
                             (unsigned long long)ctx->mesh_vertices, (unsigned long long)ctx->mesh_triangles,
                             ctx->opt.max_vertices, ctx->opt.max_triangles);
    if (ctx->mesh_vertices > RW_MAX_SHARING * ctx->total_vertices + 65536u)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, at->offset, path,
                             "skinned atomics draw %llu vertices, more than %u times the %llu the file's "
                             "geometries hold (a geometry shared by too many atomics)",
                             (unsigned long long)ctx->mesh_vertices, RW_MAX_SHARING,
                             (unsigned long long)ctx->total_vertices);
    if (ctx->mesh_triangles > RW_MAX_SHARING * ctx->file_triangles + 65536u)
        return vks_error_set(ctx->err, VKS_ERR_LIMIT, at->offset, path,
                             "skinned atomics draw %llu triangles, more than %u times the %llu the file's "
                             "geometries hold (a geometry shared by too many atomics)",
                             (unsigned long long)ctx->mesh_triangles, RW_MAX_SHARING,
                             (unsigned long long)ctx->file_triangles);
    return VKS_OK;
}

static vks_result read_atomic(rw_ctx *ctx, rw_clump *cl, vks_skin_builder *b, uint32_t ai, uint32_t *meshes)
{
    char path[RW_PATH_MAX];
    snprintf(path, sizeof path, "clump/atomic[%u]", ai);
    const rw_chunk *at = &cl->atomics[ai];
    vks_cursor c = at->body;
    rw_chunk st;
    int found = vks__rw_find_child(ctx, &c, RW_STRUCT, &st, path);
    if (found < 0)
        return ctx->err->code;
    if (found == 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, at->offset, path, "atomic without a struct");
    vks_cursor s = st.body;
    int32_t frame, geo_index = -1;
    uint32_t flags;
    int embedded = st.version < 0x30400;
    /* frame, geometry index (unused before 3.4), flags [, unused from 3.4] */
    if (!vks_cur_i32(&s, &frame) || !vks_cur_i32(&s, &geo_index) || !vks_cur_u32(&s, &flags))
        return vks__rw_truncated(ctx, &s, path, "atomic struct (frame, geometry, flags)");
    if (frame < 0 || (uint32_t)frame >= cl->frames.count)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, st.body.p - st.body.base, path,
                             "frame index %d, %u frames", frame, cl->frames.count);
    rw_geometry *g = NULL;
    rw_chunk gch;
    if (embedded) {
        /* before 3.4 the Geometry sits inside the Atomic, after its struct */
        char gp[RW_PATH_MAX];
        snprintf(gp, sizeof gp, "clump/atomic[%u]/geometry", ai);
        found = vks__rw_find_child(ctx, &c, RW_GEOMETRY, &gch, gp);
        if (found < 0)
            return ctx->err->code;
        if (found == 0)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, at->offset, gp, "atomic without its embedded geometry");
        g = vks__rw_tmp(ctx, 1, sizeof *g);
        if (!g)
            return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, gp, "out of memory");
        vks_result r = vks__rw_read_geometry(ctx, &gch, g, gp);
        if (r != VKS_OK)
            return r;
        ctx->total_vertices += g->vertex_count;
        ctx->total_triangles += g->triangle_count;
        ctx->file_triangles += geometry_triangles(g);
    } else {
        if (geo_index < 0 || (uint32_t)geo_index >= cl->geometry_count)
            return vks_error_set(ctx->err, VKS_ERR_FORMAT, st.body.p - st.body.base + 4, path,
                                 "geometry index %d, %u geometries", geo_index, cl->geometry_count);
        vks_result r = get_geometry(ctx, cl, (uint32_t)geo_index, &g);
        if (r != VKS_OK)
            return r;
    }
    /* a legacy Skin PLG in the atomic's Extension (very old files) */
    const rw_skin_plg *skin = &g->skin;
    rw_skin_plg legacy;
    memset(&legacy, 0, sizeof legacy);
    rw_chunk ext;
    found = vks__rw_find_child(ctx, &c, RW_EXTENSION, &ext, path);
    if (found < 0)
        return ctx->err->code;
    if (found == 1 && !skin->present) {
        vks_cursor e = ext.body;
        rw_chunk x;
        char sp[RW_PATH_MAX];
        snprintf(sp, sizeof sp, "clump/atomic[%u]/extension/skin", ai);
        found = vks__rw_find_child(ctx, &e, RW_SKIN, &x, sp);
        if (found < 0)
            return ctx->err->code;
        if (found == 1) {
            vks_result r = vks__rw_read_skin_legacy(ctx, &x, g->vertex_count, &legacy, sp);
            if (r != VKS_OK)
                return r;
            skin = &legacy;
        }
    }
    if (!skin->present) { /* a rigid attachment: a mesh on its frame, added after the skinned ones */
        cl->rigid_atomic[cl->rigid_count] = ai;
        cl->rigid_frame[cl->rigid_count] = frame;
        cl->rigid_geometry[cl->rigid_count++] = g;
        return VKS_OK;
    }
    vks_result lr = count_mesh(ctx, g, at, path, meshes);
    if (lr != VKS_OK)
        return lr;
    return add_skinned_atomic(ctx, cl, b, ai, frame, g, skin, at->offset);
}

/* The skin's nodes from the clump's frames: names, parents, bind locals, HAnim IDs (clips
 * bind by them) and each hierarchy node's place in the HAnim node list (the order .anm keys
 * follow). */
static vks_result clump_nodes(rw_ctx *ctx, const rw_frames *fr)
{
    vks_skin *skin = ctx->skin;
    skin->node_count = fr->count;
    skin->nodes = vks_skin_alloc_array(skin, fr->count ? fr->count : 1, sizeof *skin->nodes);
    if (!skin->nodes)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clump", "out of memory");
    for (uint32_t i = 0; i < fr->count; i++) {
        skin->nodes[i].name = fr->name[i];
        skin->nodes[i].parent = fr->parent[i];
        skin->nodes[i].bind_local = fr->local[i];
        skin->nodes[i].tag = fr->hanim_id[i]; /* clips bind by HAnim node ID */
        skin->nodes[i].has_tag = fr->has_hanim[i];
    }
    /* each hierarchy node's place in the HAnim node list: the order .anm keys follow */
    for (uint32_t i = 0; fr->hier_frame >= 0 && i < fr->node_count; i++) {
        skin->nodes[fr->node_frame[i]].anim_index = (int32_t)i;
        skin->nodes[fr->node_frame[i]].has_anim_index = 1;
    }
    return VKS_OK;
}

static vks_result read_clump(rw_ctx *ctx, const rw_chunk *clump)
{
    rw_clump cl;
    memset(&cl, 0, sizeof cl);
    cl.version = clump->version;
    cl.num_atomics = -1;
    cl.skin_space = -1;
    vks_cursor c = clump->body;
    while (vks_cur_left(&c) > 0) {
        rw_chunk ch;
        if (vks__rw_chunk_next(ctx, &c, &ch, "clump") != VKS_OK)
            return ctx->err->code;
        vks_result r = VKS_OK;
        if (ch.type == RW_STRUCT && cl.num_atomics < 0) {
            r = read_clump_struct(ctx, &ch, &cl);
            if (r == VKS_OK) {
                if (!vks_cur_fits(&c, (uint32_t)cl.num_atomics, 12))
                    return vks_error_set(ctx->err, VKS_ERR_TRUNCATED, ch.body.p - ch.body.base, "clump/struct",
                                         "%d atomics, only %zu bytes left in the clump", cl.num_atomics,
                                         vks_cur_left(&c));
                uint32_t na = (uint32_t)cl.num_atomics;
                cl.atomics = vks__rw_tmp(ctx, na, sizeof(rw_chunk));
                cl.rigid_atomic = vks__rw_tmp(ctx, na ? na : 1, sizeof *cl.rigid_atomic);
                cl.rigid_frame = vks__rw_tmp(ctx, na ? na : 1, sizeof *cl.rigid_frame);
                cl.rigid_geometry = vks__rw_tmp(ctx, na ? na : 1, sizeof *cl.rigid_geometry);
                cl.morphs = vks__rw_tmp(ctx, na ? na : 1, sizeof *cl.morphs);
                if (!cl.atomics || !cl.rigid_atomic || !cl.rigid_frame || !cl.rigid_geometry || !cl.morphs)
                    return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clump", "out of memory");
            }
        } else if (ch.type == RW_FRAME_LIST && !cl.have_frames) {
            r = vks__rw_read_frame_list(ctx, &ch, &cl.frames);
            cl.have_frames = 1;
        } else if (ch.type == RW_GEOMETRY_LIST && !cl.geometries) {
            r = read_geometry_list(ctx, &ch, &cl);
        } else if (ch.type == RW_ATOMIC && cl.num_atomics >= 0 && cl.atomic_count < (uint32_t)cl.num_atomics) {
            cl.atomics[cl.atomic_count++] = ch;
        }
        if (r != VKS_OK)
            return r;
    }
    if (cl.num_atomics < 0)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, clump->offset, "clump", "clump without a struct chunk");
    if (!cl.have_frames)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, clump->offset, "clump", "clump without a frame list");
    if (cl.atomic_count < (uint32_t)cl.num_atomics)
        return vks_error_set(ctx->err, VKS_ERR_FORMAT, clump->offset, "clump",
                             "clump declares %d atomics, found %u", cl.num_atomics, cl.atomic_count);
    if (cl.frames.hier_frame >= 0) {
        vks_result r = vks__rw_attach_hierarchy(ctx, &cl.frames, clump->offset);
        if (r != VKS_OK)
            return r;
    }

    vks_skin *skin = ctx->skin;
    if (clump_nodes(ctx, &cl.frames) != VKS_OK)
        return ctx->err->code;

    vks_skin_builder *b = vks_builder_create(skin);
    if (!b)
        return vks_error_set(ctx->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clump", "out of memory");
    uint32_t meshes = 0;
    for (uint32_t ai = 0; ai < cl.atomic_count; ai++) {
        vks_result r = read_atomic(ctx, &cl, b, ai, &meshes);
        if (r != VKS_OK) {
            vks_builder_destroy(b);
            return r;
        }
    }
    /* the rigid atomics in the skinned ones' skin space (a clump of rigid atomics only: the
       world's), after them, in atomic order */
    for (uint32_t k = 0; k < cl.rigid_count; k++) {
        char path[RW_PATH_MAX];
        snprintf(path, sizeof path, "clump/atomic[%u]", cl.rigid_atomic[k]);
        const rw_geometry *g = cl.rigid_geometry[k];
        if (g->vertex_count == 0)
            continue;
        vks_result r = count_mesh(ctx, g, &cl.atomics[cl.rigid_atomic[k]], path, &meshes);
        if (r == VKS_OK)
            r = add_rigid_atomic(ctx, &cl, b, cl.rigid_atomic[k], cl.rigid_frame[k], g);
        if (r != VKS_OK) {
            vks_builder_destroy(b);
            return r;
        }
    }
    if (meshes == 0) {
        vks_builder_destroy(b);
        return vks_error_set(ctx->err, VKS_ERR_UNSUPPORTED, clump->offset, "clump",
                             "no atomic with geometry among the clump's %u atomics", cl.atomic_count);
    }
    return finish_model(ctx, &cl, b);
}

vks_result vks_rw_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out, vks_error *err)
{
    vks_error local;
    memset(&local, 0, sizeof local);
    rw_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.opt = vks_read_options_defaults(opt);
    ctx.err = err ? err : &local;
    if (!bytes && size)
        return vks_error_set(ctx.err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rw", "bytes is NULL");
    vks_cursor c = vks_cur_make(bytes, size);
    rw_chunk clump;
    if (size < 12)
        return vks_error_set(ctx.err, VKS_ERR_TRUNCATED, 0, "clump",
                             "a RenderWare stream starts with a 12-byte chunk header, the input has %zu byte(s)", size);
    uint32_t type = vks_le32(c.p);
    if (type != RW_CLUMP)
        return vks_error_set(ctx.err, VKS_ERR_FORMAT, 0, "clump",
                             "first chunk type is 0x%x, expected a Clump (0x10): not a RenderWare DFF", type);
    if (vks__rw_chunk_next(&ctx, &c, &clump, "clump") != VKS_OK)
        return ctx.err->code; /* bytes after the first Clump (IMG padding) are ignored */
    /* RW 3.x only (3.0.x streams, with the Geometry inside the Atomic, are read too) */
    if (clump.version < 0x30000 || clump.version > 0x3FFFF)
        return vks_error_set(ctx.err, VKS_ERR_UNSUPPORTED, 8, "clump",
                             "library ID stamp 0x%08x decodes to version 0x%x, outside RW 3.x", clump.stamp,
                             clump.version);

    ctx.skin = vks_skin_create(&ctx.opt.allocator);
    ctx.scratch = vks_skin_create(&ctx.opt.allocator);
    if (!ctx.skin || !ctx.scratch) {
        vks_skin_free(ctx.skin);
        vks_skin_free(ctx.scratch);
        return vks_error_set(ctx.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rw", "out of memory");
    }
    ctx.materials = (vks_vec)VKS_VEC_INIT(sizeof(vks_material), 16);
    vks_result r = read_clump(&ctx, &clump);
    vks_skin_free(ctx.scratch);
    if (r == VKS_OK && ctx.materials.count) { /* every geometry's materials, meshes hold ranges */
        ctx.skin->materials = vks_skin_alloc_array(ctx.skin, ctx.materials.count, sizeof(vks_material));
        if (ctx.skin->materials) {
            memcpy(ctx.skin->materials, ctx.materials.data, ctx.materials.count * sizeof(vks_material));
            ctx.skin->material_count = (uint32_t)ctx.materials.count;
        } else {
            r = vks_error_set(ctx.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rw", "out of memory");
        }
    }
    vks__vec_free(&ctx.materials, &ctx.opt.allocator);
    if (r == VKS_OK) {
        char detail[128];
        uint32_t v = clump.version;
        int len = snprintf(detail, sizeof detail, "RW %u.%u.%u.%u", (v >> 16) & 0xF, (v >> 12) & 0xF, (v >> 8) & 0xF,
                           v & 0xFF);
        if (ctx.morph_plugins && len > 0 && (size_t)len < sizeof detail) /* said in --json too (rw_morph.c) */
            snprintf(detail + len, sizeof detail - (size_t)len, ", %u Morph PLG(s) not read (morph target animation)",
                     ctx.morph_plugins);
        ctx.skin->format = "renderware";
        ctx.skin->format_detail = vks_skin_strndup(ctx.skin, detail, strlen(detail));
        if (!ctx.skin->format_detail)
            r = vks_error_set(ctx.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rw", "out of memory");
    }
    /* a returned model always validates (weights, matrices, finite values) */
    if (r == VKS_OK)
        r = vks_skin_validate(ctx.skin, ctx.err);
    if (r != VKS_OK) {
        if (ctx.err->code == VKS_OK)
            vks_error_set(ctx.err, r, VKS_NO_OFFSET, "rw", "read failed");
        vks_skin_free(ctx.skin);
        return r;
    }
    *out = ctx.skin;
    return VKS_OK;
}
