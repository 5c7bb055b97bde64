/* The skinning blocks (nif.md 4.7-4.10): NiSkinInstance, BSDismemberSkinInstance, NiSkinData
 * with its per-bone skin-to-bone transforms and weights, NiSkinPartition with partitions
 * (palette, vertex map, weights, bone indices, triangles or strips) and, in Skyrim SE, the
 * shared vertex buffer. Cross-block checks (bone counts, refs) happen in nif_model.c. */
#include "nif_internal.h"

#include <math.h>

int nif_read_skin_instance(nif_rd *r, nif_block *b)
{
    nif_skininst *s = &b->u.inst;
    b->kind = NIF_K_SKININST;
    s->partition = NIF_NONE;
    if (!nif_i32(r, &s->data, "data"))
        return 0;
    if (r->f->ver >= NIF_V(10, 1, 0, 101) && !nif_i32(r, &s->partition, "skin_partition"))
        return 0;
    return nif_i32(r, &s->root, "skeleton_root") && nif_refs(r, &s->bone_count, &s->bones, "bones");
}

int nif_read_dismember_instance(nif_rd *r, nif_block *b)
{
    uint32_t n;
    return nif_read_skin_instance(r, b) && nif_count32(r, &n, 4, "num_partitions") &&
           nif_skip(r, n, 4, "partitions");
}

int nif_read_skin_data(nif_rd *r, nif_block *b)
{
    nif_skindata *d = &b->u.data;
    uint32_t v = r->f->ver;
    b->kind = NIF_K_SKINDATA;
    d->partition = NIF_NONE;
    d->has_weights = 1;
    if (!nif_xform_rts(r, &d->overall, "skin_transform") || !nif_count32(r, &d->bone_count, 70, "num_bones"))
        return 0;
    if (v >= NIF_V(4, 0, 0, 2) && v <= NIF_V(10, 1, 0, 0) && !nif_i32(r, &d->partition, "skin_partition"))
        return 0;
    if (v >= NIF_V(4, 2, 1, 0) && !nif_bool(r, &d->has_weights, "has_vertex_weights"))
        return 0;
    int read_weights = v <= NIF_V(4, 2, 1, 0) || d->has_weights;
    nif_bonedata *bones = nif_alloc(r, d->bone_count, sizeof *bones, "bone_list");
    if (!bones)
        return 0;
    for (uint32_t i = 0; i < d->bone_count; i++) {
        nif_bonedata *bd = &bones[i];
        uint32_t n;
        if (!nif_xform_rts(r, &bd->s2b, "bone_list/skin_transform") || !nif_skip(r, 4, 4, "bone_list/bounding_sphere") ||
            !nif_count16(r, &n, 0, "bone_list/num_vertices"))
            return 0;
        if (!read_weights)
            continue;
        if (!vks_cur_fits(&r->c, n, 6))
            return nif_fail(r, VKS_ERR_TRUNCATED, "bone_list/vertex_weights",
                            "bone %u: %u weights do not fit in %zu bytes", i, n, vks_cur_left(&r->c));
        uint16_t *vi = nif_alloc(r, n, sizeof *vi, "bone_list/vertex_weights");
        float *w = nif_alloc(r, n, sizeof *w, "bone_list/vertex_weights");
        if (!vi || !w)
            return 0;
        for (uint32_t k = 0; k < n; k++) {
            vks_cur_u16(&r->c, &vi[k]);
            vks_cursor at = r->c;
            vks_cur_f32(&r->c, &w[k]);
            if (!isfinite(w[k])) { /* refused like a non-finite position, not dropped */
                r->c = at;         /* so that the error's offset is the weight's */
                return nif_fail(r, VKS_ERR_FORMAT, "bone_list/vertex_weights",
                                "bone %u weight %u (vertex %u) is %g, not finite", i, k, vi[k], w[k]);
            }
        }
        bd->weight_count = n, bd->vertex = vi, bd->weight = w;
    }
    d->bones = bones;
    return 1;
}

static int u16_array(nif_rd *r, uint32_t n, uint16_t **out, const char *field)
{
    if (!vks_cur_fits(&r->c, n, 2))
        return nif_fail(r, VKS_ERR_TRUNCATED, field, "%u values do not fit in %zu bytes", n, vks_cur_left(&r->c));
    uint16_t *a = nif_alloc(r, n, sizeof *a, field);
    if (!a)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        vks_cur_u16(&r->c, &a[i]);
    *out = a;
    return 1;
}

/* The partition's nv x nw vertex weights, each finite (a non-finite weight is refused like a
 * non-finite position, not dropped; the error's offset is the weight's). */
static int vertex_weights(nif_rd *r, nif_partition *p, uint16_t nv, uint16_t nw)
{
    uint64_t n = (uint64_t)nv * nw;
    if (!vks_cur_fits(&r->c, n, 4))
        return nif_fail(r, VKS_ERR_TRUNCATED, "partition/vertex_weights", "%u x %u weights do not fit", nv, nw);
    float *w = nif_alloc(r, n, sizeof *w, "partition/vertex_weights");
    if (!w)
        return 0;
    vks_cursor at = r->c;
    vks_cur_f32n(&r->c, w, (size_t)n);
    for (uint64_t i = 0; i < n; i++)
        if (!isfinite(w[i])) {
            r->c = at;
            vks_cur_skip(&r->c, (size_t)i * 4);
            return nif_fail(r, VKS_ERR_FORMAT, "partition/vertex_weights", "vertex %u weight %u is %g, not finite",
                            (unsigned)(i / nw), (unsigned)(i % nw), w[i]);
        }
    p->weights = w;
    return 1;
}

static int partition(nif_rd *r, nif_partition *p)
{
    nif_file *f = r->f;
    uint32_t v = f->ver;
    int old = v <= NIF_V(10, 0, 1, 2); /* no presence flags: everything always stored */
    uint16_t nv, nt, nb, ns, nw;
    int has = 1;
    if (!nif_u16(r, &nv, "partition/num_vertices") || !nif_u16(r, &nt, "partition/num_triangles") ||
        !nif_u16(r, &nb, "partition/num_bones") || !nif_u16(r, &ns, "partition/num_strips") ||
        !nif_u16(r, &nw, "partition/num_weights_per_vertex"))
        return 0;
    p->vertex_count = nv, p->bone_count = nb, p->weights_per_vertex = nw;
    uint16_t *bones, *vmap = NULL, *lens = NULL;
    if (!u16_array(r, nb, &bones, "partition/bones"))
        return 0;
    p->bones = bones;
    if (!old && !nif_bool(r, &has, "partition/has_vertex_map"))
        return 0;
    if (has) {
        if (!u16_array(r, nv, &vmap, "partition/vertex_map"))
            return 0;
        p->vertex_map = vmap;
    }
    has = 1;
    if (!old && !nif_bool(r, &has, "partition/has_vertex_weights"))
        return 0;
    if (has && !vertex_weights(r, p, nv, nw))
        return 0;
    if (!u16_array(r, ns, &lens, "partition/strip_lengths"))
        return 0;
    has = 1;
    if (!old && !nif_bool(r, &has, "partition/has_faces"))
        return 0;
    if (has && ns) {
        uint64_t total = 0;
        for (uint32_t i = 0; i < ns; i++)
            total += lens[i];
        if (total > UINT32_MAX)
            return nif_fail(r, VKS_ERR_LIMIT, "partition/strips", "too many strip points");
        uint16_t *pts;
        uint32_t (*t)[3];
        if (!u16_array(r, (uint32_t)total, &pts, "partition/strips") ||
            !nif_strips_to_triangles(r, ns, lens, pts, &t, &p->triangle_count))
            return 0;
        p->triangles = (const uint32_t (*)[3])t;
    } else if (has) {
        uint16_t *idx;
        if (!u16_array(r, (uint32_t)nt * 3, &idx, "partition/triangles"))
            return 0;
        uint32_t (*t)[3] = nif_alloc(r, nt, sizeof *t, "partition/triangles");
        if (!t)
            return 0;
        for (uint32_t i = 0; i < nt; i++)
            for (int k = 0; k < 3; k++)
                t[i][k] = idx[3 * i + k];
        p->triangles = (const uint32_t (*)[3])t;
        p->triangle_count = nt;
    }
    for (uint32_t i = 0; i < p->triangle_count; i++)
        for (int k = 0; k < 3; k++)
            if (p->triangles[i][k] >= nv)
                return nif_fail(r, VKS_ERR_FORMAT, "partition/triangles",
                                "triangle %u uses partition vertex %u, vertex count %u", i, p->triangles[i][k], nv);
    /* HasBoneIndices is one byte even at 4.0.0.2 (nif.md 4.10) */
    uint8_t hb;
    if (!nif_u8(r, &hb, "partition/has_bone_indices"))
        return 0;
    if (hb) {
        uint64_t n = (uint64_t)nv * nw;
        if (!vks_cur_fits(&r->c, n, 1))
            return nif_fail(r, VKS_ERR_TRUNCATED, "partition/bone_indices", "%u x %u indices do not fit", nv, nw);
        uint8_t *bi = nif_alloc(r, n, 1, "partition/bone_indices");
        if (!bi)
            return 0;
        vks_cur_bytes(&r->c, bi, (size_t)n);
        for (uint64_t i = 0; i < n; i++)
            if (bi[i] >= nb && (!p->weights || p->weights[i] > 0))
                return nif_fail(r, VKS_ERR_FORMAT, "partition/bone_indices",
                                "vertex %u slot %u uses palette entry %u, palette size %u", (unsigned)(i / nw),
                                (unsigned)(i % nw), bi[i], nb);
        p->bone_indices = bi;
    }
    if (v == NIF_V(20, 2, 0, 7) && f->bsver > 34 && !nif_skip(r, 2, 1, "partition/lod_level_global_vb"))
        return 0;
    if (f->bsver == 100 && (!nif_skip(r, 1, 8, "partition/vertex_desc") || !nif_skip(r, nt, 6, "partition/triangles_copy")))
        return 0;
    return 1;
}

int nif_read_skin_partition(nif_rd *r, nif_block *b)
{
    nif_skinpart *sp = &b->u.part;
    b->kind = NIF_K_SKINPART;
    if (!nif_count32(r, &sp->part_count, 10, "num_partitions"))
        return 0;
    if (r->f->bsver == 100) {
        uint32_t data_size, vertex_size;
        uint64_t desc;
        if (!nif_u32(r, &data_size, "data_size") || !nif_u32(r, &vertex_size, "vertex_size"))
            return 0;
        if (!vks_cur_u64(&r->c, &desc))
            return nif_fail(r, VKS_ERR_TRUNCATED, "vertex_desc", "needs 8 bytes");
        if (data_size > 0) {
            if (vertex_size == 0 || data_size % vertex_size)
                return nif_fail(r, VKS_ERR_FORMAT, "data_size", "data size %u is not a multiple of vertex size %u",
                                data_size, vertex_size);
            float (*p)[3], (*n)[3], (*w)[4], (*uv)[2];
            uint8_t (*bi)[4];
            sp->vertex_count = data_size / vertex_size;
            vks_cursor at = r->c;
            if (!nif_read_sse_vertices(r, desc, sp->vertex_count, vertex_size, &p, &n, &bi, &w) ||
                !nif_read_sse_uvs(r, at, desc, sp->vertex_count, vertex_size, &uv))
                return 0;
            sp->uv = (const float (*)[2])uv;
            sp->positions = (const float (*)[3])p, sp->normals = (const float (*)[3])n;
            sp->sse_bones = (const uint8_t (*)[4])bi, sp->sse_weights = (const float (*)[4])w;
        }
    }
    nif_partition *parts = nif_alloc(r, sp->part_count, sizeof *parts, "partitions");
    if (!parts)
        return 0;
    for (uint32_t i = 0; i < sp->part_count; i++)
        if (!partition(r, &parts[i]))
            return 0;
    sp->parts = parts;
    return 1;
}
