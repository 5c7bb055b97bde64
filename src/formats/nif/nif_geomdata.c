/* NiGeometryData and its two subclasses NiTriShapeData / NiTriStripsData (nif.md 4.5-4.6):
 * vertices, normals, the fields in between, and triangles (strips converted to a list). */
#include "nif_internal.h"

#include <math.h>

static int vec3s(nif_rd *r, uint32_t n, const float (**out)[3], const char *field)
{
    if (!vks_cur_fits(&r->c, n, 12))
        return nif_fail(r, VKS_ERR_TRUNCATED, field, "%u vectors do not fit in %zu bytes", n, vks_cur_left(&r->c));
    float (*v)[3] = nif_alloc(r, n, sizeof *v, field);
    if (!v)
        return 0;
    vks_cur_f32n(&r->c, &v[0][0], (size_t)n * 3);
    *out = (const float (*)[3])v;
    return 1;
}

/* The NiGeometryData part, up to and including NumTriangles. */
static int geometry_data(nif_rd *r, nif_geomdata *g)
{
    nif_file *f = r->f;
    uint32_t v = f->ver;
    int bs202 = v == NIF_V(20, 2, 0, 7) && f->bsver > 0;
    int has;
    uint16_t flags = 0, nv, nt;
    if (v >= NIF_V(10, 1, 0, 114) && !nif_skip(r, 1, 4, "group_id"))
        return 0;
    if (!nif_u16(r, &nv, "num_vertices"))
        return 0;
    g->vertex_count = nv;
    if (v >= NIF_V(10, 1, 0, 0) && !nif_skip(r, 2, 1, "keep_compress_flags"))
        return 0;
    if (!nif_bool(r, &has, "has_vertices"))
        return 0;
    if (has && !vec3s(r, nv, &g->positions, "vertices"))
        return 0;
    if (v >= NIF_V(10, 0, 1, 0) && !nif_u16(r, &flags, "data_flags"))
        return 0;
    if (v == NIF_V(20, 2, 0, 7) && f->bsver > 34 && !nif_skip(r, 1, 4, "material_crc"))
        return 0;
    if (!nif_bool(r, &has, "has_normals"))
        return 0;
    if (has && !vec3s(r, nv, &g->normals, "normals"))
        return 0;
    if (v >= NIF_V(10, 1, 0, 0) && has && (flags & 0x1000) && !nif_skip(r, (uint64_t)nv * 2, 12, "tangents"))
        return 0;
    if (!nif_skip(r, 4, 4, "bounding_sphere") || !nif_bool(r, &has, "has_vertex_colors"))
        return 0;
    if (has && !nif_skip(r, nv, 16, "vertex_colors"))
        return 0;
    if (v <= NIF_V(4, 2, 2, 0) && !nif_u16(r, &flags, "data_flags"))
        return 0;
    uint32_t uv_sets = bs202 ? (flags & 1u) : (flags & 63u);
    if (v <= NIF_V(4, 0, 0, 2)) {
        /* OpenMW's rule (nif.md 4.5): no UV sets when HasUV is 0 */
        if (!nif_bool(r, &has, "has_uv"))
            return 0;
        if (!has)
            uv_sets = 0;
    }
    if (!vks_cur_fits(&r->c, (uint64_t)uv_sets * nv, 8))
        return nif_skip(r, (uint64_t)uv_sets * nv, 8, "uv_sets"); /* fails with the message */
    for (uint32_t k = 0; k < uv_sets; k++) { /* Gamebryo's v runs from the top, as the model's */
        if (k >= VKS_MAX_UV_SETS) {
            vks_cur_skip(&r->c, (size_t)nv * 8);
            continue;
        }
        float (*uv)[2] = nif_alloc(r, nv, sizeof *uv, "uv_sets");
        if (!uv)
            return 0;
        vks_cursor at = r->c;
        vks_cur_f32n(&r->c, &uv[0][0], (size_t)nv * 2);
        for (uint32_t i = 0; i < nv; i++)
            if (!isfinite(uv[i][0]) || !isfinite(uv[i][1])) { /* refused like a non-finite position */
                r->c = at;
                vks_cur_skip(&r->c, (size_t)i * 8 + (isfinite(uv[i][0]) ? 4 : 0)); /* the error's offset is the UV's */
                return nif_fail(r, VKS_ERR_FORMAT, "uv_sets", "set %u vertex %u UV (%g, %g) is not finite", k, i,
                                uv[i][0], uv[i][1]);
            }
        g->uv[k] = (const float (*)[2])uv;
        g->uv_sets = k + 1;
    }
    if (v >= NIF_V(10, 0, 1, 0) && !nif_skip(r, 1, 2, "consistency_flags"))
        return 0;
    if (v >= NIF_V(20, 0, 0, 4) && !nif_skip(r, 1, 4, "additional_data"))
        return 0;
    if (!nif_u16(r, &nt, "num_triangles"))
        return 0;
    g->stored_triangles = nt;
    return 1;
}

static int check_indices(nif_rd *r, nif_geomdata *g, const char *field)
{
    for (uint32_t i = 0; i < g->triangle_count; i++)
        for (int k = 0; k < 3; k++)
            if (g->triangles[i][k] >= g->vertex_count)
                return nif_fail(r, VKS_ERR_FORMAT, field, "triangle %u uses vertex %u, vertex count %u", i,
                                g->triangles[i][k], g->vertex_count);
    return 1;
}

int nif_read_trishape_data(nif_rd *r, nif_block *b)
{
    nif_geomdata *g = &b->u.geom;
    b->kind = NIF_K_GEOMDATA;
    uint32_t points, nm;
    int has = 1;
    if (!geometry_data(r, g) || !nif_u32(r, &points, "num_triangle_points"))
        return 0;
    if (r->f->ver >= NIF_V(10, 1, 0, 0) && !nif_bool(r, &has, "has_triangles"))
        return 0;
    if (has) {
        uint32_t nt = g->stored_triangles;
        uint32_t (*t)[3] = nif_triangles_u16(r, nt);
        if (!t)
            return 0;
        g->triangles = (const uint32_t (*)[3])t;
        g->triangle_count = nt;
    }
    if (!nif_count16(r, &nm, 2, "num_match_groups"))
        return 0;
    for (uint32_t i = 0; i < nm; i++) {
        uint32_t n;
        if (!nif_count16(r, &n, 2, "match_groups") || !nif_skip(r, n, 2, "match_groups"))
            return 0;
    }
    return check_indices(r, g, "triangles");
}

int nif_read_tristrips_data(nif_rd *r, nif_block *b)
{
    nif_geomdata *g = &b->u.geom;
    b->kind = NIF_K_GEOMDATA;
    uint32_t ns;
    int has = 1;
    if (!geometry_data(r, g) || !nif_count16(r, &ns, 2, "num_strips"))
        return 0;
    uint16_t *len = nif_alloc(r, ns, sizeof *len, "strip_lengths");
    if (!len)
        return 0;
    uint64_t total = 0;
    for (uint32_t i = 0; i < ns; i++) {
        vks_cur_u16(&r->c, &len[i]);
        total += len[i];
    }
    if (r->f->ver >= NIF_V(10, 0, 1, 3) && !nif_bool(r, &has, "has_points"))
        return 0;
    if (has) {
        if (!vks_cur_fits(&r->c, total, 2))
            return nif_fail(r, VKS_ERR_TRUNCATED, "points", "%llu strip points do not fit in %zu bytes",
                            (unsigned long long)total, vks_cur_left(&r->c));
        uint16_t *pts = nif_alloc(r, total, sizeof *pts, "points");
        if (!pts)
            return 0;
        for (uint64_t i = 0; i < total; i++)
            vks_cur_u16(&r->c, &pts[i]);
        uint32_t (*t)[3];
        if (!nif_strips_to_triangles(r, ns, len, pts, &t, &g->triangle_count))
            return 0;
        g->triangles = (const uint32_t (*)[3])t;
    }
    return check_indices(r, g, "points");
}

uint32_t (*nif_triangles_u16(nif_rd *r, uint32_t nt))[3]
{
    if (!vks_cur_fits(&r->c, nt, 6)) {
        nif_fail(r, VKS_ERR_TRUNCATED, "triangles", "%u triangles do not fit in %zu bytes", nt, vks_cur_left(&r->c));
        return NULL;
    }
    uint32_t (*t)[3] = nif_alloc(r, nt, sizeof *t, "triangles");
    if (!t)
        return NULL;
    for (uint32_t i = 0; i < nt; i++)
        for (int k = 0; k < 3; k++) {
            uint16_t x = 0;
            vks_cur_u16(&r->c, &x);
            t[i][k] = x;
        }
    return t;
}
