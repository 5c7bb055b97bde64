/* MLOD (editable P3D): header, P3DM and legacy SP3X LODs (notes sections 2 and 7).
 * p3d_mlod_scan walks every LOD once to check its structure and record its resolution;
 * p3d_mlod_lod reads one LOD in full: points, face corners merged into render vertices by
 * (point, normal, u, v), faces split into triangles (quads as (0,1,2),(0,2,3)) and reversed
 * with normals negated (see p3d_internal.h), and named selections with decoded weights. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p3d_internal.h"

#define MLOD_VERSION 0x101u

typedef struct lod_head {
    int sp3x;
    uint32_t major, minor, points, normals, faces, flags;
} lod_head;

static vks_result failc(const vks_cursor *c, vks_error *err, vks_result code, const char *path,
                        const char *msg)
{
    return vks_error_set(err, code, vks_cur_offset(c), path, "%s", msg);
}

static vks_result read_head(vks_cursor *c, uint32_t i, const vks_read_options *opt, lod_head *h, char *path,
                            vks_error *err)
{
    char magic[4];
    snprintf(path, 64, "mlod/lod[%u]", i);
    uint64_t at = vks_cur_offset(c);
    if (!vks_cur_bytes(c, magic, 4))
        return failc(c, err, VKS_ERR_TRUNCATED, path, "LOD magic expected, the file ends");
    if (!memcmp(magic, "P3DM", 4))
        h->sp3x = 0;
    else if (!memcmp(magic, "SP3X", 4))
        h->sp3x = 1;
    else
        return vks_error_set(err, VKS_ERR_FORMAT, at, path, "LOD magic P3DM or SP3X expected, found %02x %02x %02x %02x",
                             (uint8_t)magic[0], (uint8_t)magic[1], (uint8_t)magic[2], (uint8_t)magic[3]);
    if (!vks_cur_u32(c, &h->major) || !vks_cur_u32(c, &h->minor) || !vks_cur_u32(c, &h->points) ||
        !vks_cur_u32(c, &h->normals) || !vks_cur_u32(c, &h->faces) || !vks_cur_u32(c, &h->flags))
        return failc(c, err, VKS_ERR_TRUNCATED, path, "LOD header (versions, counts) cut short");
    if (h->points > opt->max_vertices)
        return vks_error_set(err, VKS_ERR_LIMIT, vks_cur_offset(c) - 16, path, "point count %u over the limit %u",
                             h->points, opt->max_vertices);
    if (h->faces > opt->max_triangles / 2)
        return vks_error_set(err, VKS_ERR_LIMIT, vks_cur_offset(c) - 8, path, "face count %u over the limit %u",
                             h->faces, opt->max_triangles / 2);
    if (!vks_cur_fits(c, h->points, 16))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c) - 16, path,
                             "%u points of 16 bytes do not fit in the %zu bytes left", h->points, vks_cur_left(c));
    return VKS_OK;
}

typedef struct corner {
    uint32_t point, normal;
    float u, v;
} corner;

/* Reads the face records; fills corners (4 per face) and counts when out != NULL. */
static vks_result read_faces(vks_cursor *c, const lod_head *h, const char *lpath, corner *corners, uint8_t *nverts,
                             const char **tex, const char **mat, vks_error *err)
{
    char path[96];
    for (uint32_t f = 0; f < h->faces; f++) {
        snprintf(path, sizeof path, "%s/face[%u]", lpath, f);
        const char *t = "", *m = "";
        size_t tl, ml;
        if (h->sp3x) {
            if (!vks_cur_fits(c, 1, 32))
                return failc(c, err, VKS_ERR_TRUNCATED, path, "texture name (32 bytes) cut short");
            t = (const char *)c->p;
            vks_cur_skip(c, 32);
        }
        uint32_t n;
        if (!vks_cur_u32(c, &n))
            return failc(c, err, VKS_ERR_TRUNCATED, path, "corner count cut short");
        if (n != 3 && n != 4)
            return vks_error_set(err, VKS_ERR_FORMAT, vks_cur_offset(c) - 4, path,
                                 "corner count must be 3 or 4, found %u", n);
        if (!vks_cur_fits(c, 1, 4 * 16 + 4))
            return failc(c, err, VKS_ERR_TRUNCATED, path, "4 corner slots and flags cut short");
        for (uint32_t k = 0; k < 4; k++) {
            corner cr;
            uint64_t at = vks_cur_offset(c);
            vks_cur_u32(c, &cr.point);
            vks_cur_u32(c, &cr.normal);
            vks_cur_f32(c, &cr.u);
            vks_cur_f32(c, &cr.v);
            if (k < n && cr.point >= h->points)
                return vks_error_set(err, VKS_ERR_FORMAT, at, path, "corner %u: point %u of %u points", k, cr.point,
                                     h->points);
            if (k < n && cr.normal >= h->normals)
                return vks_error_set(err, VKS_ERR_FORMAT, at + 4, path, "corner %u: normal %u of %u normals", k,
                                     cr.normal, h->normals);
            if (k < n && (!isfinite(cr.u) || !isfinite(cr.v))) /* refused like a non-finite position */
                return vks_error_set(err, VKS_ERR_FORMAT, at + (isfinite(cr.u) ? 12 : 8), path,
                                     "corner %u: UV (%g, %g) is not finite", k, (double)cr.u, (double)cr.v);
            if (corners)
                corners[(size_t)f * 4 + k] = cr;
        }
        vks_cur_skip(c, 4); /* face flags */
        if (!h->sp3x) {
            if (!p3d_cur_asciiz(c, &t, &tl, P3D_MAX_NAME))
                return failc(c, err, VKS_ERR_TRUNCATED, path, "texture name not terminated");
            if (!p3d_cur_asciiz(c, &m, &ml, P3D_MAX_NAME))
                return failc(c, err, VKS_ERR_TRUNCATED, path, "material name not terminated");
        }
        if (nverts)
            nverts[f] = (uint8_t)n;
        if (tex)
            tex[f] = t;
        if (mat)
            mat[f] = m;
    }
    return VKS_OK;
}

static int is_special(const char *name, size_t n) { return n >= 2 && name[0] == '#' && name[n - 1] == '#'; }

/* Walks the taggs; with lod != NULL keeps the named selections. */
static vks_result read_taggs(p3d_pool *pool, vks_cursor *c, const lod_head *h, const char *lpath, p3d_lod *lod,
                             vks_error *err)
{
    char path[160];
    char magic[4];
    snprintf(path, sizeof path, "%s/taggs", lpath);
    if (h->sp3x) { /* legacy LODs: the magic is optional [unverified] */
        if (vks_cur_left(c) >= 4 && !memcmp(c->p, "TAGG", 4))
            vks_cur_skip(c, 4);
    } else {
        if (!vks_cur_bytes(c, magic, 4))
            return failc(c, err, VKS_ERR_TRUNCATED, path, "TAGG magic cut short");
        if (memcmp(magic, "TAGG", 4))
            return vks_error_set(err, VKS_ERR_FORMAT, vks_cur_offset(c) - 4, path, "TAGG magic expected");
    }
    size_t cap = 0; /* of lod->sels */
    vks_allocator pool_alloc = p3d_pool_allocator(pool);
    for (uint32_t t = 0;; t++) {
        snprintf(path, sizeof path, "%s/tagg[%u]", lpath, t);
        const char *name;
        size_t nl;
        if (h->sp3x) {
            if (!vks_cur_fits(c, 1, 64))
                return failc(c, err, VKS_ERR_TRUNCATED, path, "tagg name (64 bytes) cut short");
            name = (const char *)c->p;
            const char *z = memchr(name, 0, 64);
            nl = z ? (size_t)(z - name) : 64;
            vks_cur_skip(c, 64);
        } else {
            uint8_t active;
            if (!vks_cur_u8(c, &active))
                return failc(c, err, VKS_ERR_TRUNCATED, path, "tagg active byte cut short");
            if (!p3d_cur_asciiz(c, &name, &nl, P3D_MAX_NAME))
                return failc(c, err, VKS_ERR_TRUNCATED, path, "tagg name not terminated");
        }
        uint32_t len;
        if (!vks_cur_u32(c, &len))
            return failc(c, err, VKS_ERR_TRUNCATED, path, "tagg data length cut short");
        uint64_t data_at = vks_cur_offset(c);
        if (vks_cur_left(c) < len)
            return vks_error_set(err, VKS_ERR_TRUNCATED, data_at - 4, path,
                                 "tagg '%.40s' of %u bytes, %zu bytes left", name, len, vks_cur_left(c));
        if (nl == 11 && !memcmp(name, "#EndOfFile#", 11))
            break;
        if (!is_special(name, nl)) {
            uint64_t want = (uint64_t)h->points + h->faces;
            if (len != want)
                return vks_error_set(err, VKS_ERR_FORMAT, data_at - 4, path,
                                     "selection '%.40s': %u bytes, expected points + faces = %llu", name, len,
                                     (unsigned long long)want);
            if (lod) {
                p3d_sel *sels = vks__grow_array(&pool_alloc, lod->sels, lod->sel_count, &cap, 1, sizeof *sels, 16);
                if (!sels)
                    return failc(c, err, VKS_ERR_NOMEM, path, "out of memory");
                lod->sels = sels;
                p3d_sel *s = &lod->sels[lod->sel_count++];
                s->name = p3d_strndup(pool, name, nl);
                s->weight = p3d_alloc(pool, h->points, sizeof *s->weight);
                s->faces = p3d_alloc(pool, h->faces, 1);
                if (!s->name || !s->weight || !s->faces)
                    return failc(c, err, VKS_ERR_NOMEM, path, "out of memory");
                for (uint32_t i = 0; i < h->points; i++)
                    s->weight[i] = p3d_weight_from_byte(c->p[i]);
                memcpy(s->faces, c->p + h->points, h->faces);
            }
        }
        vks_cur_skip(c, len);
    }
    snprintf(path, sizeof path, "%s/resolution", lpath);
    float res;
    if (!vks_cur_f32(c, &res))
        return failc(c, err, VKS_ERR_TRUNCATED, path, "resolution float after #EndOfFile# cut short");
    if (res != res)
        return failc(c, err, VKS_ERR_FORMAT, path, "resolution is not a number");
    if (lod)
        lod->resolution = res;
    return VKS_OK;
}

/* The LOD's render vertices: one per unique (point, normal, u, v) corner of its faces, found
   through a hash table; face_vert gives each face corner its vertex. */
static vks_result lod_vertices(p3d_pool *pool, vks_cursor *c, const lod_head *h, const char *lpath, const corner *corners,
                               const uint8_t *nverts, const uint8_t *normals, p3d_lod *lod, uint32_t (**face_vert_out)[4],
                               vks_error *err)
{
    size_t ncorner = 0;
    for (uint32_t f = 0; f < h->faces; f++)
        ncorner += nverts[f];
    size_t hcap = 16;
    while (hcap < ncorner * 2)
        hcap *= 2;
    uint32_t *table = p3d_alloc(pool, hcap, sizeof *table); /* vertex + 1, 0 empty */
    corner *vkey = p3d_alloc(pool, ncorner, sizeof *vkey);
    uint32_t (*face_vert)[4] = *face_vert_out = p3d_alloc(pool, h->faces, sizeof *face_vert);
    if (!table || !vkey || !face_vert)
        return failc(c, err, VKS_ERR_NOMEM, lpath, "out of memory");
    uint32_t nv = 0;
    for (uint32_t f = 0; f < h->faces; f++) {
        for (uint32_t k = 0; k < nverts[f]; k++) {
            corner cr = corners[(size_t)f * 4 + k];
            uint32_t ub, vb;
            memcpy(&ub, &cr.u, 4);
            memcpy(&vb, &cr.v, 4);
            uint64_t hash = cr.point * 0x9E3779B97F4A7C15ull ^ cr.normal * 0xC2B2AE3D27D4EB4Full ^
                            ub * 0x165667B19E3779F9ull ^ (uint64_t)vb * 0x27D4EB2F165667C5ull;
            size_t slot = (size_t)(hash ^ (hash >> 29)) & (hcap - 1);
            for (;;) {
                uint32_t e = table[slot];
                if (!e) {
                    vkey[nv] = cr;
                    table[slot] = ++nv;
                    face_vert[f][k] = nv - 1;
                    break;
                }
                corner *o = &vkey[e - 1];
                if (o->point == cr.point && o->normal == cr.normal && !memcmp(&o->u, &cr.u, 4) &&
                    !memcmp(&o->v, &cr.v, 4)) {
                    face_vert[f][k] = e - 1;
                    break;
                }
                slot = (slot + 1) & (hcap - 1);
            }
        }
    }
    lod->vertex_count = nv;
    lod->vertex_point = p3d_alloc(pool, nv, sizeof *lod->vertex_point);
    lod->vertex_normal = p3d_alloc(pool, nv, sizeof *lod->vertex_normal);
    lod->vertex_uv = p3d_alloc(pool, nv, sizeof *lod->vertex_uv);
    if (!lod->vertex_point || !lod->vertex_normal || !lod->vertex_uv)
        return failc(c, err, VKS_ERR_NOMEM, lpath, "out of memory");
    for (uint32_t v = 0; v < nv; v++) {
        /* render vertices are already split by corner UV: a face's own UVs, exactly */
        lod->vertex_uv[v][0] = vkey[v].u, lod->vertex_uv[v][1] = vkey[v].v;
        lod->vertex_point[v] = vkey[v].point;
        for (int k = 0; k < 3; k++) /* stored normals point inward: negate */
            lod->vertex_normal[v][k] = -vks_lef32(normals + (size_t)vkey[v].normal * 12 + 4 * k);
    }
    return VKS_OK;
}

/* The LOD's materials: one per distinct (texture, material) pair in order of first use (SP3X:
   the texture alone); face_mat gives each face its material. */
static vks_result lod_materials(p3d_pool *pool, vks_cursor *c, const lod_head *h, const char *lpath, const char **tex,
                                const char **mat, uint32_t *face_mat, uint32_t *mat_first, p3d_lod *lod, vks_error *err)
{
    uint32_t nmat = 0;
    for (uint32_t f = 0; f < h->faces; f++) {
        uint32_t m = 0;
        /* few materials per LOD: a linear search over the distinct ones is enough, capped */
        for (m = 0; m < nmat; m++) {
            uint32_t g = mat_first[m];
            int same = h->sp3x ? !strncmp(tex[g], tex[f], 32) : (!strcmp(tex[g], tex[f]) && !strcmp(mat[g], mat[f]));
            if (same)
                break;
        }
        if (m == nmat) {
            if (nmat < 65535)
                mat_first[nmat++] = f;
            else
                m = 65534;
        }
        face_mat[f] = m;
    }
    lod->material_count = nmat;
    lod->mat_texture = p3d_alloc(pool, nmat, sizeof *lod->mat_texture);
    lod->mat_name = p3d_alloc(pool, nmat, sizeof *lod->mat_name);
    if (!lod->mat_texture || !lod->mat_name)
        return failc(c, err, VKS_ERR_NOMEM, lpath, "out of memory");
    for (uint32_t m = 0; m < nmat; m++) { /* SP3X: a fixed 32-byte texture name, no material */
        const char *tx = tex[mat_first[m]], *mt = h->sp3x ? "" : mat[mat_first[m]];
        size_t tl = 0;
        while (tl < (h->sp3x ? 32u : (size_t)-1) && tx[tl])
            tl++;
        lod->mat_texture[m] = p3d_strndup(pool, tx, tl);
        lod->mat_name[m] = p3d_strndup(pool, mt, strlen(mt));
        if (!lod->mat_texture[m] || !lod->mat_name[m])
            return failc(c, err, VKS_ERR_NOMEM, lpath, "out of memory");
    }
    return VKS_OK;
}

/* Structure walk of one LOD; with lod != NULL also extracts it. */
static vks_result read_lod(p3d_pool *pool, vks_cursor *c, uint32_t index, const vks_read_options *opt,
                           p3d_lod_info *info, p3d_lod *lod, vks_error *err)
{
    char lpath[64];
    lod_head h = {0};
    uint64_t start = vks_cur_offset(c);
    vks_result r = read_head(c, index, opt, &h, lpath, err);
    if (r)
        return r;
    const uint8_t *points = c->p;
    vks_cur_skip(c, (size_t)h.points * 16);
    if (!vks_cur_fits(c, h.normals, 12))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), lpath,
                             "%u normals of 12 bytes do not fit in the %zu bytes left", h.normals, vks_cur_left(c));
    const uint8_t *normals = c->p;
    vks_cur_skip(c, (size_t)h.normals * 12);
    if (!vks_cur_fits(c, h.faces, h.sp3x ? 32 + 72 : 72))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(c), lpath,
                             "%u faces of at least 72 bytes do not fit in the %zu bytes left", h.faces,
                             vks_cur_left(c));

    corner *corners = NULL;
    uint8_t *nverts = NULL;
    const char **tex = NULL, **mat = NULL;
    if (lod) {
        corners = p3d_alloc(pool, (size_t)h.faces * 4, sizeof *corners);
        nverts = p3d_alloc(pool, h.faces, 1);
        tex = p3d_alloc(pool, h.faces, sizeof *tex);
        mat = p3d_alloc(pool, h.faces, sizeof *mat);
        if (!corners || !nverts || !tex || !mat)
            return failc(c, err, VKS_ERR_NOMEM, lpath, "out of memory");
    }
    r = read_faces(c, &h, lpath, corners, nverts, tex, mat, err);
    if (r)
        return r;
    r = read_taggs(pool, c, &h, lpath, lod, err);
    if (r)
        return r;
    if (info) {
        info->offset = start;
        info->points = h.points;
        info->faces = h.faces;
        vks_cursor back = *c;
        back.p -= 4;
        float res;
        vks_cur_f32(&back, &res);
        info->resolution = res;
    }
    if (!lod)
        return VKS_OK;

    /* points and normals */
    lod->point_count = h.points;
    lod->face_count = h.faces;
    lod->points = p3d_alloc(pool, h.points, sizeof *lod->points);
    if (!lod->points)
        return failc(c, err, VKS_ERR_NOMEM, lpath, "out of memory");
    for (uint32_t i = 0; i < h.points; i++)
        for (int k = 0; k < 3; k++)
            lod->points[i][k] = vks_lef32(points + (size_t)i * 16 + 4 * k);

    /* render vertices: one per unique (point, normal, u, v) corner, through a hash table */
    uint32_t (*face_vert)[4];
    r = lod_vertices(pool, c, &h, lpath, corners, nverts, normals, lod, &face_vert, err);
    if (r)
        return r;

    /* triangles, reversed; materials by distinct (texture, material) pair in order of use */
    size_t ntri = 0;
    for (uint32_t f = 0; f < h.faces; f++)
        ntri += nverts[f] - 2;
    lod->tris = p3d_alloc(pool, ntri, sizeof *lod->tris);
    lod->tri_face = p3d_alloc(pool, ntri, sizeof *lod->tri_face);
    lod->tri_material = p3d_alloc(pool, ntri, sizeof *lod->tri_material);
    uint32_t *face_mat = p3d_alloc(pool, h.faces, sizeof *face_mat);
    uint32_t *mat_first = p3d_alloc(pool, h.faces, sizeof *mat_first); /* a face using each material */
    if (!lod->tris || !lod->tri_face || !lod->tri_material || !face_mat || !mat_first)
        return failc(c, err, VKS_ERR_NOMEM, lpath, "out of memory");
    r = lod_materials(pool, c, &h, lpath, tex, mat, face_mat, mat_first, lod, err);
    if (r)
        return r;
    uint32_t t = 0;
    for (uint32_t f = 0; f < h.faces; f++) {
        const uint32_t *fv = face_vert[f];
        lod->tris[t][0] = fv[0], lod->tris[t][1] = fv[2], lod->tris[t][2] = fv[1];
        lod->tri_face[t] = f;
        lod->tri_material[t++] = (uint16_t)face_mat[f];
        if (nverts[f] == 4) {
            lod->tris[t][0] = fv[0], lod->tris[t][1] = fv[3], lod->tris[t][2] = fv[2];
            lod->tri_face[t] = f;
            lod->tri_material[t++] = (uint16_t)face_mat[f];
        }
    }
    lod->tri_count = t;
    return VKS_OK;
}

vks_result p3d_mlod_scan(p3d_pool *pool, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                         p3d_file *file, vks_error *err)
{
    vks_cursor c = vks_cur_make(bytes, size);
    uint32_t version, count;
    if (!vks_cur_skip(&c, 4) || !vks_cur_u32(&c, &version) || !vks_cur_u32(&c, &count))
        return failc(&c, err, VKS_ERR_TRUNCATED, "mlod", "header (MLOD, version, LOD count) cut short");
    if (version != MLOD_VERSION)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, 4, "mlod", "MLOD version 0x%x, only 0x101 is read", version);
    if (count == 0)
        return vks_error_set(err, VKS_ERR_FORMAT, 8, "mlod", "the file has no LODs");
    if (count > P3D_MAX_LODS || !vks_cur_fits(&c, count, 28))
        return vks_error_set(err, count > P3D_MAX_LODS ? VKS_ERR_LIMIT : VKS_ERR_TRUNCATED, 8, "mlod",
                             "LOD count %u does not fit in the file", count);
    file->odol = 0;
    file->version = version;
    file->bytes = bytes;
    file->size = size;
    file->lod_count = count;
    file->lods = p3d_alloc(pool, count, sizeof *file->lods);
    if (!file->lods)
        return failc(&c, err, VKS_ERR_NOMEM, "mlod", "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        vks_result r = read_lod(pool, &c, i, opt, &file->lods[i], NULL, err);
        if (r)
            return r;
    }
    return VKS_OK;
}

vks_result p3d_mlod_lod(p3d_pool *pool, const p3d_file *file, uint32_t index, const vks_read_options *opt,
                        p3d_lod *lod, vks_error *err)
{
    vks_cursor c = vks_cur_make(file->bytes, file->size);
    vks_cur_skip(&c, (size_t)file->lods[index].offset);
    memset(lod, 0, sizeof *lod);
    return read_lod(pool, &c, index, opt, NULL, lod, err);
}
