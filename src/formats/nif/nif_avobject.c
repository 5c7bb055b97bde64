/* NiAVObject and the scene-graph blocks built on it (their NiObjectNET start: nif_objectnet.c):
 * the NiNode family (nif.md 4.1-4.3, nif_blocks.md NiSwitchNode/NiLODNode), NiTriShape /
 * NiTriStrips (4.4) and the Skyrim SE BSTriShape with its packed vertex format (4.11). */
#include "nif_internal.h"

#include <math.h>

/* BoundingVolume (4.0.0.2 NiAVObject): a tagged union; unions nest, kept shallow here. */
static int bounding_volume(nif_rd *r, int depth)
{
    uint32_t type;
    if (!nif_u32(r, &type, "bounding_volume/type"))
        return 0;
    switch (type) {
    case 0: return nif_skip(r, 16, 1, "bounding_volume/sphere");
    case 1: return nif_skip(r, 60, 1, "bounding_volume/box");
    case 2: return nif_skip(r, 32, 1, "bounding_volume/capsule");
    case 3: return nif_skip(r, r->f->ver >= NIF_V(4, 2, 1, 0) ? 48 : 40, 1, "bounding_volume/lozenge");
    case 5: return nif_skip(r, 28, 1, "bounding_volume/half_space");
    case 0xFFFFFFFFu: return 1;
    case 4: {
        uint32_t n;
        if (depth >= 4)
            return nif_fail(r, VKS_ERR_FORMAT, "bounding_volume/union", "union volumes nested deeper than 4");
        if (!nif_count32(r, &n, 4, "bounding_volume/union"))
            return 0;
        for (uint32_t i = 0; i < n; i++)
            if (!bounding_volume(r, depth + 1))
                return 0;
        return 1;
    }
    default:
        return nif_fail(r, VKS_ERR_FORMAT, "bounding_volume/type", "unknown bounding volume type %u", type);
    }
}

int nif_read_avobject(nif_rd *r, const char **name, nif_xform *xf, uint32_t *prop_count, const int32_t **props)
{
    nif_file *f = r->f;
    uint32_t n;
    int32_t ref;
    if (!nif_read_objectnet(r, name))
        return 0;
    if (f->bsver > 26) {
        uint32_t flags;
        if (!nif_u32(r, &flags, "flags"))
            return 0;
    } else {
        uint16_t flags;
        if (!nif_u16(r, &flags, "flags"))
            return 0;
    }
    if (!nif_xform_trs(r, xf, "transform"))
        return 0;
    if (f->ver <= NIF_V(4, 2, 2, 0) && !nif_skip(r, 3, 4, "velocity"))
        return 0;
    if (f->bsver <= 34 && !nif_refs(r, prop_count ? prop_count : &n, props, "properties"))
        return 0;
    if (f->ver <= NIF_V(4, 2, 2, 0)) {
        int has;
        if (!nif_bool(r, &has, "has_bounding_volume"))
            return 0;
        if (has && !bounding_volume(r, 0))
            return 0;
    }
    if (f->ver >= NIF_V(10, 0, 1, 0) && !nif_i32(r, &ref, "collision_object"))
        return 0;
    return 1;
}

int nif_read_node(nif_rd *r, nif_block *b)
{
    nif_node *nd = &b->u.node;
    uint32_t n;
    b->kind = NIF_K_NODE;
    if (!nif_read_avobject(r, &nd->name, &nd->xf, NULL, NULL) || !nif_refs(r, &nd->child_count, &nd->children, "children"))
        return 0;
    if (r->f->bsver < 130 && !nif_refs(r, &n, NULL, "effects"))
        return 0;
    return 1;
}

int nif_read_switch_node(nif_rd *r, nif_block *b)
{
    uint16_t flags;
    uint32_t index;
    if (!nif_read_node(r, b))
        return 0;
    if (r->f->ver >= NIF_V(10, 1, 0, 0) && !nif_u16(r, &flags, "switch_flags"))
        return 0;
    return nif_u32(r, &index, "index");
}

int nif_read_lod_node(nif_rd *r, nif_block *b)
{
    if (!nif_read_switch_node(r, b))
        return 0;
    if (r->f->ver <= NIF_V(10, 0, 1, 0)) {
        uint32_t n;
        return nif_skip(r, 3, 4, "lod_center") && nif_count32(r, &n, 8, "lod_levels") &&
               nif_skip(r, n, 8, "lod_levels");
    }
    int32_t ref;
    return nif_i32(r, &ref, "lod_level_data");
}

int nif_read_billboard_node(nif_rd *r, nif_block *b)
{
    uint16_t mode;
    if (!nif_read_node(r, b))
        return 0;
    return r->f->ver < NIF_V(10, 1, 0, 0) || nif_u16(r, &mode, "billboard_mode");
}

int nif_read_tri_geometry(nif_rd *r, nif_block *b)
{
    nif_file *f = r->f;
    nif_shape *s = &b->u.shape;
    b->kind = NIF_K_SHAPE;
    s->strips = b->type[5] == 'S'; /* "NiTriStrips" vs "NiTriShape" */
    s->shader = NIF_NONE;
    if (!nif_read_avobject(r, &s->name, &s->xf, &s->prop_count, &s->props) || !nif_i32(r, &s->data, "data") ||
        !nif_i32(r, &s->skin, "skin_instance"))
        return 0;
    uint32_t v = f->ver;
    if (v >= NIF_V(10, 0, 1, 0) && v <= NIF_V(20, 1, 0, 3)) {
        int has;
        if (!nif_bool(r, &has, "material/has_shader"))
            return 0;
        if (has && (!nif_string(r, NULL, "material/shader_name") || !nif_skip(r, 1, 4, "material/shader_extra")))
            return 0;
    }
    if (v >= NIF_V(20, 2, 0, 5)) {
        uint32_t n;
        if (!nif_count32(r, &n, 8, "material/num_materials") || !nif_skip(r, n, 8, "material/materials") ||
            !nif_skip(r, 1, 4, "material/active"))
            return 0;
    }
    if (v == NIF_V(10, 2, 0, 0) && f->user == 1 && !nif_skip(r, 1, 1, "material/blood_bowl"))
        return 0;
    if (v >= NIF_V(20, 2, 0, 7) && !nif_skip(r, 1, 1, "material/needs_update"))
        return 0;
    if (v == NIF_V(20, 2, 0, 7) && f->bsver > 34 &&
        (!nif_i32(r, &s->shader, "shader_property") || !nif_skip(r, 1, 4, "alpha_property")))
        return 0;
    return 1;
}

int nif_read_sse_vertices(nif_rd *r, uint64_t desc, uint32_t count, uint32_t stride, float (**pos)[3],
                          float (**nrm)[3], uint8_t (**bones)[4], float (**weights)[4])
{
    uint32_t attr = (uint32_t)(desc >> 44) & 0xFFFu;
    if (!(attr & 0x1))
        return nif_fail(r, VKS_ERR_UNSUPPORTED, "vertex_desc", "vertex data without positions (attributes 0x%x)", attr);
    /* position (+ bitangent x or an unused word), uv, normal (+ bitangent y), tangent
       (+ bitangent z), colour, skin weights and indices, eye data */
    uint32_t need = 16 + ((attr & 0x2) ? 4 : 0) + ((attr & 0x8) ? 4 : 0) + ((attr & 0x18) == 0x18 ? 4 : 0) +
                    ((attr & 0x20) ? 4 : 0) + ((attr & 0x40) ? 12 : 0) + ((attr & 0x100) ? 4 : 0);
    if (need != stride || (desc & 15u) * 4u != stride)
        return nif_fail(r, VKS_ERR_FORMAT, "vertex_desc",
                        "attributes 0x%x take %u bytes per vertex, the file says %u (descriptor %u)", attr, need,
                        stride, (unsigned)(desc & 15u) * 4u);
    if (!vks_cur_fits(&r->c, count, stride))
        return nif_fail(r, VKS_ERR_TRUNCATED, "vertex_data", "%u vertices of %u bytes do not fit in %zu bytes", count,
                        stride, vks_cur_left(&r->c));
    float (*p)[3] = nif_alloc(r, count, sizeof *p, "vertex_data");
    float (*n)[3] = (attr & 0x8) ? nif_alloc(r, count, sizeof *n, "vertex_data") : NULL;
    uint8_t (*bi)[4] = (attr & 0x40) ? nif_alloc(r, count, sizeof *bi, "vertex_data") : NULL;
    float (*bw)[4] = (attr & 0x40) ? nif_alloc(r, count, sizeof *bw, "vertex_data") : NULL;
    if (!p || ((attr & 0x8) && !n) || ((attr & 0x40) && (!bi || !bw)))
        return 0;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *q = r->c.p;
        p[i][0] = vks_lef32(q), p[i][1] = vks_lef32(q + 4), p[i][2] = vks_lef32(q + 8);
        q += 16;
        if (attr & 0x2)
            q += 4;
        if (attr & 0x8) {
            for (int k = 0; k < 3; k++)
                n[i][k] = (float)q[k] / 255.0f * 2.0f - 1.0f;
            q += 4;
        }
        if ((attr & 0x18) == 0x18)
            q += 4;
        if (attr & 0x20)
            q += 4;
        if (attr & 0x40)
            for (int k = 0; k < 4; k++) {
                bw[i][k] = nif_half(vks_le16(q + 2 * k));
                bi[i][k] = q[8 + k];
                if (!isfinite(bw[i][k])) { /* a half-float infinity or NaN: refused, not dropped */
                    vks_cur_skip(&r->c, (size_t)(q - r->c.p) + 2u * (unsigned)k); /* offset: the weight's */
                    return nif_fail(r, VKS_ERR_FORMAT, "vertex_data", "vertex %u weight %d is %g, not finite", i, k,
                                    bw[i][k]);
                }
            }
        r->c.p += stride;
    }
    *pos = p, *nrm = n, *bones = bi, *weights = bw;
    return 1;
}

int nif_read_bstrishape(nif_rd *r, nif_block *b)
{
    nif_shape *s = &b->u.shape;
    b->kind = NIF_K_BSTRISHAPE;
    s->data = NIF_NONE;
    uint64_t desc;
    uint16_t nt, nv;
    uint32_t data_size, particle_size;
    if (!nif_read_avobject(r, &s->name, &s->xf, NULL, NULL) || !nif_skip(r, 4, 4, "bounding_sphere") ||
        !nif_i32(r, &s->skin, "skin") || !nif_i32(r, &s->shader, "shader_property") ||
        !nif_skip(r, 1, 4, "alpha_property"))
        return 0;
    if (!vks_cur_u64(&r->c, &desc))
        return nif_fail(r, VKS_ERR_TRUNCATED, "vertex_desc", "needs 8 bytes");
    if (!nif_u16(r, &nt, "num_triangles") || !nif_u16(r, &nv, "num_vertices") ||
        !nif_u32(r, &data_size, "data_size"))
        return 0;
    s->vertex_count = nv;
    s->triangle_count = 0;
    if (data_size > 0) {
        float (*p)[3], (*n)[3], (*w)[4], (*uv)[2];
        uint8_t (*bi)[4];
        vks_cursor at = r->c;
        if (!nif_read_sse_vertices(r, desc, nv, (uint32_t)(desc & 15u) * 4u, &p, &n, &bi, &w) ||
            !nif_read_sse_uvs(r, at, desc, nv, (uint32_t)(desc & 15u) * 4u, &uv))
            return 0;
        s->uv = (const float (*)[2])uv;
        s->positions = (const float (*)[3])p;
        s->normals = (const float (*)[3])n;
        uint32_t (*t)[3] = nif_triangles_u16(r, nt);
        if (!t)
            return 0;
        s->triangles = (const uint32_t (*)[3])t;
        s->triangle_count = nt;
    }
    if (!nif_u32(r, &particle_size, "particle_data_size"))
        return 0;
    if (particle_size > 0 &&
        (!nif_skip(r, (uint64_t)nv * 2, 6, "particle_vertices") || !nif_skip(r, nt, 6, "particle_triangles")))
        return 0;
    return 1;
}
