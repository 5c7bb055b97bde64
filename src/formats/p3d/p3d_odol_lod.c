/* One ODOL LOD (p3d_odol.c reads the file's header, model info and LOD table): proxies,
 * sub-skeleton maps, textures, embedded materials, vertex maps, polygons, sections, named
 * selections, properties, keyframes, UV sets, positions, packed normals and vertex bone
 * references, parsed in file order and then built into the intermediate p3d_lod. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odol_reader.h"

/* ---- embedded materials ---- */

static int stage_texture(odol_rd *r, uint32_t mv)
{
    if (mv >= 5 && !rd_skip(r, 4, "stage texture filter"))
        return 0;
    if (!rd_str(r, NULL, "stage texture name"))
        return 0;
    if (mv >= 8 && !rd_skip(r, 4, "stage id"))
        return 0;
    if (mv >= 11 && !rd_skip(r, 1, "world env map flag"))
        return 0;
    return 1;
}

static int embedded_material(odol_rd *r, const char **name)
{
    uint32_t mv, nstages = 0, ntexgens;
    if (!rd_str(r, name, "material name") || !rd_u32(r, &mv, "material version"))
        return 0;
    if (mv > 64)
        return rfail(r, VKS_ERR_FORMAT, "material version over 64");
    if (!rd_skip(r, 6 * 16 + 4 + 16, "material colours and shaders"))
        return 0;
    if (mv == 3 && !rd_skip(r, 1, "material flag"))
        return 0;
    if (mv >= 6 && !rd_str(r, NULL, "surface file"))
        return 0;
    if (mv >= 4 && !rd_skip(r, 8, "render flags"))
        return 0;
    if (mv > 6 && !rd_u32(r, &nstages, "stage count"))
        return 0;
    ntexgens = nstages;
    if (mv > 8 && !rd_u32(r, &ntexgens, "texgen count"))
        return 0;
    if (nstages > 1024 || ntexgens > 1024)
        return rfail(r, VKS_ERR_LIMIT, "more than 1024 material stages");
    if (mv < 8) {
        for (uint32_t i = 0; i < nstages; i++)
            if (!rd_skip(r, 4 + 48, "stage transform") || !stage_texture(r, mv))
                return 0;
    } else {
        for (uint32_t i = 0; i < nstages; i++)
            if (!stage_texture(r, mv))
                return 0;
        for (uint32_t i = 0; i < ntexgens; i++)
            if (!rd_skip(r, 4 + 48, "stage transform"))
                return 0;
    }
    if (mv >= 10 && !stage_texture(r, mv))
        return 0;
    return 1;
}


/* ---- one LOD ---- */

typedef struct sel_entry {
    uint32_t index, order;
    float weight;
} sel_entry;

static int cmp_sel_entry(const void *pa, const void *pb)
{
    const sel_entry *a = pa, *b = pb;
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* The material of each face: the first section (lowest index, below 65535) whose range of
 * allocation units holds the face's unit. Units only grow from face to face, so a sweep
 * over the sections sorted by start, with a min-heap of the started ones by index, answers
 * every face in O(log sections) instead of a scan of all sections per face. */
typedef struct section_start {
    int32_t start;
    uint32_t index;
} section_start;

typedef struct section_sweep {
    const int32_t (*range)[2];
    section_start *by_start; /* by start, then index */
    uint32_t *heap;          /* min-heap of section indexes */
    uint32_t count, next, heap_n;
} section_sweep;

static int cmp_section(const void *pa, const void *pb)
{
    const section_start *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void heap_push(section_sweep *w, uint32_t s)
{
    uint32_t i = w->heap_n++;
    while (i > 0 && w->heap[(i - 1) / 2] > s) {
        w->heap[i] = w->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->heap[i] = s;
}

static void heap_pop(section_sweep *w)
{
    uint32_t s = w->heap[--w->heap_n], i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= w->heap_n)
            break;
        if (c + 1 < w->heap_n && w->heap[c + 1] < w->heap[c])
            c++;
        if (w->heap[c] >= s)
            break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (w->heap_n)
        w->heap[i] = s;
}

/* The section of unit (units asked in ascending order), 0 when none holds it. */
static uint16_t section_of(section_sweep *w, int64_t unit)
{
    while (w->next < w->count && w->by_start[w->next].start <= unit)
        heap_push(w, w->by_start[w->next++].index);
    while (w->heap_n && w->range[w->heap[0]][1] <= unit)
        heap_pop(w); /* ended: units only grow, so it never holds one again */
    return w->heap_n ? (uint16_t)w->heap[0] : 0;
}

static uint32_t vidx(const uint8_t *d, uint32_t i, int wide) { return wide ? vks_le32(d + 4 * (size_t)i) : vks_le16(d + 2 * (size_t)i); }

/* A UV set as stored (section 4.3), kept for set 0: v45+ packs each (u, v) as two s16 over the
   set's range, older files store two f32. */
typedef struct odol_uvset {
    float min[2], max[2]; /* v45+ */
    uint32_t count;
    int fill;          /* one element stands for every vertex */
    const uint8_t *data; /* count elements, or the one default */
} odol_uvset;

static int uvset(odol_rd *r, odol_uvset *keep)
{
    odol_uvset u = {{0, 0}, {1, 1}, 0, 0, NULL};
    uint8_t fill;
    if (r->v >= 45 && (!rd_f32(r, &u.min[0], "UV range") || !rd_f32(r, &u.min[1], "UV range") ||
                       !rd_f32(r, &u.max[0], "UV range") || !rd_f32(r, &u.max[1], "UV range")))
        return 0;
    if (!rd_u32(r, &u.count, "UV count") || !rd_u8(r, &fill, "UV default fill"))
        return 0;
    size_t elem = r->v >= 45 ? 4 : 8;
    u.fill = fill != 0;
    u.data = r->c.p;
    if (fill) {
        if (!rd_skip(r, elem, "UV default"))
            return 0;
    } else {
        if (over_count_at(r, u.count, 1, "UV count"))
            return 0;
        if (p3d_read_compressed(r->pool, &r->c, r->v, (size_t)u.count * elem, &u.data, r->path, r->err) != VKS_OK)
            return 0;
    }
    if (keep)
        *keep = u;
    return 1;
}


/* ---- one LOD: parsed in file order into an odol_lod_raw, then built into the p3d_lod ---- */

/* In the LOD steps: a read that failed has set r->err; pass its code on. */
#define TRY(x)                                                                                               \
    do {                                                                                                     \
        if (!(x))                                                                                            \
            return r->err->code ? r->err->code : VKS_ERR_FORMAT;                                             \
    } while (0)

/* rfail for the LOD steps, which return a vks_result. */
static vks_result lod_fail(odol_rd *r, vks_result code, const char *what)
{
    rfail(r, code, what);
    return r->err->code;
}

/* Whether n elements of at least elem bytes can still be in the LOD (else what is truncated). */
static int rd_fits(odol_rd *r, uint32_t n, size_t elem, const char *what)
{
    return vks_cur_fits(&r->c, n, elem) ? 1 : rfail(r, VKS_ERR_TRUNCATED, what);
}

typedef struct raw_sel {
    const char *name;
    const uint8_t *faces, *verts, *weights;
    uint32_t nf, nv, nw;
} raw_sel;

/* What parsing one LOD found, for the build steps: pointers into the file or into blocks
   decompressed into the pool, with their counts. Nothing is decoded until the whole LOD has
   parsed and ended where the LOD table says. */
typedef struct odol_lod_raw {
    uint32_t index; /* in the LOD table, for paths */
    int wide;       /* v69+: 32-bit vertex indexes */
    size_t isz;     /* bytes per vertex index */
    const uint8_t *sub; /* sub-skeleton -> stored bone, nsub x i32 */
    uint32_t nsub;
    uint32_t vcount; /* the vertex count the LOD declares (v50+) */
    uint64_t vcount_at;
    const uint8_t *faces; /* nfaces x (u8 corner count, 3 or 4 vertex indexes) */
    uint32_t nfaces;
    size_t ntri;
    int32_t (*secr)[2]; /* each section's face range in allocation units */
    uint32_t nsec;
    raw_sel *rs;
    uint32_t nsel;
    const uint8_t *pos, *nrm, *ref; /* positions, normals (one when nfill), bone references */
    uint32_t np, nref;
    int nfill;
    odol_uvset uv0; /* UV set 0 as stored */
    const char **tex, **emat; /* the LOD's texture names, its embedded materials' names */
    uint32_t ntex, nemat;
    int32_t *sec_tex;         /* per section: its texture index (-1 none) */
    const char **sec_mat;     /* per section: its material's name ("" none) */
} odol_lod_raw;

static void lod_path(odol_rd *r, const odol_lod_raw *x, const char *part)
{
    snprintf(r->path, sizeof r->path, "odol/lod[%u]%s", x->index, part);
}

/* The LOD's head: proxies (skipped), the sub-skeleton map (kept: vertex bone references go
   through it), the declared vertex count, textures, embedded materials, point/vertex maps. */
static vks_result lod_head(odol_rd *r, const p3d_file *file, odol_lod_raw *x)
{
    uint32_t v = r->v, n;
    TRY(rd_u32(r, &n, "proxy count"));
    TRY(rd_fits(r, n, 61, "proxies do not fit"));
    for (uint32_t i = 0; i < n; i++)
        TRY(rd_str(r, NULL, "proxy model") && rd_skip(r, 48 + 12 + (v >= 40 ? 4 : 0), "proxy"));
    TRY(rd_u32(r, &x->nsub, "sub-skeleton count"));
    TRY(rd_fits(r, x->nsub, 4, "sub-skeleton map does not fit"));
    x->sub = r->c.p;
    vks_cur_skip(&r->c, (size_t)x->nsub * 4);
    for (uint32_t i = 0; i < x->nsub; i++) {
        int32_t b = (int32_t)vks_le32(x->sub + 4 * (size_t)i);
        if (b < 0 || (uint32_t)b >= file->stored_bones)
            return vks_error_set(r->err, VKS_ERR_FORMAT, (uint64_t)(x->sub - r->c.base) + 4 * i, r->path,
                                 "sub-skeleton %u maps to bone %d of %u", i, b, file->stored_bones);
    }
    TRY(rd_u32(r, &n, "skeleton to sub-skeleton count"));
    TRY(rd_fits(r, n, 4, "skeleton to sub-skeleton sets do not fit"));
    for (uint32_t i = 0; i < n; i++)
        TRY(rd_array_skip(r, 4, NULL, "sub-skeleton index set"));
    x->vcount_at = vks_cur_offset(&r->c);
    if (v >= 50) {
        TRY(rd_u32(r, &x->vcount, "vertex count"));
    } else {
        const uint8_t *d;
        int fill;
        TRY(rd_condensed(r, 4, &n, &d, &fill, "clip flags"));
    }
    if (v >= 51)
        TRY(rd_skip(r, 4, "face area"));
    TRY(rd_skip(r, 8 + 36 + 4, "hints and bounds"));
    TRY(rd_u32(r, &x->ntex, "texture count"));
    TRY(rd_fits(r, x->ntex, 1, "textures do not fit"));
    x->tex = p3d_alloc(r->pool, x->ntex, sizeof *x->tex);
    if (!x->tex)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < x->ntex; i++)
        TRY(rd_str(r, &x->tex[i], "texture name"));
    TRY(rd_u32(r, &x->nemat, "material count"));
    TRY(rd_fits(r, x->nemat, 100, "materials do not fit"));
    x->emat = p3d_alloc(r->pool, x->nemat, sizeof *x->emat);
    if (!x->emat)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < x->nemat; i++) {
        snprintf(r->path, sizeof r->path, "odol/lod[%u]/material[%u]", x->index, i);
        TRY(embedded_material(r, &x->emat[i]));
    }
    lod_path(r, x, "");
    const uint8_t *d;
    TRY(rd_compressed(r, x->isz, &n, &d, "point to vertex map"));
    TRY(rd_compressed(r, x->isz, &n, &d, "vertex to point map"));
    return VKS_OK;
}

/* The polygons: walked here for their corner counts (so the triangle count is known),
   decoded by lod_triangles. */
static vks_result lod_polygons(odol_rd *r, const vks_read_options *opt, odol_lod_raw *x)
{
    lod_path(r, x, "/polygons");
    TRY(rd_u32(r, &x->nfaces, "face count") && rd_skip(r, 6, "allocation size"));
    if (x->nfaces > opt->max_triangles / 2 || !vks_cur_fits(&r->c, x->nfaces, 1 + 3 * x->isz))
        return lod_fail(r, VKS_ERR_TRUNCATED, "faces do not fit");
    x->faces = r->c.p;
    for (uint32_t f = 0; f < x->nfaces; f++) {
        uint8_t k;
        TRY(rd_u8(r, &k, "face corner count"));
        if (k != 3 && k != 4)
            return vks_error_set(r->err, VKS_ERR_FORMAT, vks_cur_offset(&r->c) - 1, r->path,
                                 "face %u has %u corners, 3 or 4 expected", f, k);
        TRY(rd_skip(r, k * x->isz, "face corners"));
        x->ntri += k - 2u;
    }
    return VKS_OK;
}

/* The sections: face ranges in allocation units (a face's material is its section's). */
static vks_result lod_sections(odol_rd *r, odol_lod_raw *x)
{
    uint32_t v = r->v;
    lod_path(r, x, "/sections");
    TRY(rd_u32(r, &x->nsec, "section count"));
    TRY(rd_fits(r, x->nsec, 30, "sections do not fit"));
    x->secr = p3d_alloc(r->pool, x->nsec, sizeof *x->secr);
    x->sec_tex = p3d_alloc(r->pool, x->nsec, sizeof *x->sec_tex);
    x->sec_mat = p3d_alloc(r->pool, x->nsec, sizeof *x->sec_mat);
    if (!x->secr || !x->sec_tex || !x->sec_mat)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < x->nsec; i++) {
        int32_t mat;
        uint8_t tex[2];
        TRY(rd_i32(r, &x->secr[i][0], "face lower") && rd_i32(r, &x->secr[i][1], "face upper"));
        TRY(rd_skip(r, 4 + 4 + 4, "bones") && rd_u8(r, &tex[0], "texture index") && rd_u8(r, &tex[1], "texture index"));
        x->sec_tex[i] = (int16_t)(tex[0] | tex[1] << 8);
        TRY(rd_skip(r, 4, "face flags") && rd_i32(r, &mat, "material index"));
        x->sec_mat[i] = mat >= 0 && (uint32_t)mat < x->nemat ? x->emat[mat] : "";
        if (mat == -1)
            TRY(rd_str(r, &x->sec_mat[i], "material name"));
        if (v >= 36) {
            TRY(rd_array_skip(r, 4, NULL, "area over texture"));
            if (v >= 67) {
                int32_t flag;
                TRY(rd_i32(r, &flag, "section flag"));
                if (flag >= 1)
                    TRY(rd_skip(r, 44, "section extra"));
            }
        } else {
            TRY(rd_skip(r, 4, "area over texture"));
        }
    }
    return VKS_OK;
}

/* The named selections as stored (faces, vertices, weight bytes); lod_selection decodes them. */
static vks_result lod_selections(odol_rd *r, odol_lod_raw *x)
{
    lod_path(r, x, "/selections");
    TRY(rd_u32(r, &x->nsel, "selection count"));
    TRY(rd_fits(r, x->nsel, 20, "selections do not fit"));
    x->rs = p3d_alloc(r->pool, x->nsel, sizeof *x->rs);
    if (!x->rs)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < x->nsel; i++) {
        raw_sel *s = &x->rs[i];
        snprintf(r->path, sizeof r->path, "odol/lod[%u]/selection[%u]", x->index, i);
        uint8_t sectional;
        uint32_t ns;
        const uint8_t *d;
        TRY(rd_str(r, &s->name, "name"));
        TRY(rd_compressed(r, x->isz, &s->nf, &s->faces, "selected faces"));
        TRY(rd_skip(r, 4, "unused") && rd_u8(r, &sectional, "sectional flag"));
        TRY(rd_compressed(r, 4, &ns, &d, "sections"));
        TRY(rd_compressed(r, x->isz, &s->nv, &s->verts, "selected vertices"));
        TRY(rd_u32(r, &s->nw, "weight count"));
        if (over_count(r, s->nw, "weight count"))
            return r->err->code;
        if (p3d_read_compressed(r->pool, &r->c, r->v, s->nw, &s->weights, r->path, r->err))
            return r->err->code;
    }
    lod_path(r, x, "");
    return VKS_OK;
}

/* Properties and keyframes (skipped) up to the "size of rest" word; from there on every
   array has one element per vertex, so the count limit tightens to what the LOD's size can
   hold. LZO lets a few bytes stand for millions of vertices, each costing some 200 bytes
   once read: a LOD must hold at least ODOL_MIN_VERTEX_BYTES per vertex (the real files seen
   take 14 or more). */
static vks_result lod_rest_limits(odol_rd *r, const p3d_file *file, const vks_read_options *opt,
                                  const odol_lod_raw *x, uint32_t *rest, uint64_t *rest_at)
{
    uint32_t n;
    TRY(rd_u32(r, &n, "property count"));
    TRY(rd_fits(r, n, 2, "properties do not fit"));
    for (uint32_t i = 0; i < n; i++)
        TRY(rd_str(r, NULL, "property name") && rd_str(r, NULL, "property value"));
    TRY(rd_u32(r, &n, "keyframe count"));
    TRY(rd_fits(r, n, 8, "keyframes do not fit"));
    for (uint32_t i = 0; i < n; i++)
        TRY(rd_skip(r, 4, "keyframe time") && rd_array_skip(r, 12, NULL, "keyframe points"));
    TRY(rd_skip(r, 12, "colours and flags"));
    TRY(rd_skip(r, 1, "simple bone reference flag"));
    TRY(rd_u32(r, rest, "size of rest"));
    *rest_at = vks_cur_offset(&r->c);
    uint64_t lod_bytes = file->lods[x->index].end - file->lods[x->index].offset;
    uint64_t by_size = lod_bytes / ODOL_MIN_VERTEX_BYTES;
    if (r->v >= 50 && x->vcount > by_size)
        return vks_error_set(r->err, VKS_ERR_LIMIT, x->vcount_at, r->path,
                             "a LOD of %llu bytes declares %u vertices: fewer than %u bytes per vertex",
                             (unsigned long long)lod_bytes, x->vcount, ODOL_MIN_VERTEX_BYTES);
    if (opt->max_vertices && opt->max_vertices < r->max_count)
        r->max_count = opt->max_vertices;
    if (by_size < r->max_count)
        r->max_count = by_size ? (uint32_t)by_size : 1;
    return VKS_OK;
}

/* The per-vertex arrays after "size of rest": clip flags and UV sets (skipped), positions,
   normals, ST coordinates (skipped), bone references; they must fill exactly the size of
   rest, and the LOD must end where its table entry says. */
static vks_result lod_vertex_arrays(odol_rd *r, const p3d_file *file, const vks_read_options *opt,
                                    odol_lod_raw *x, uint32_t rest, uint64_t rest_at)
{
    uint32_t v = r->v, n;
    const uint8_t *d;
    if (v >= 50) {
        int fill;
        TRY(rd_condensed(r, 4, &n, &d, &fill, "clip flags"));
    }
    lod_path(r, x, "/uv");
    TRY(uvset(r, &x->uv0));
    uint32_t nuv;
    TRY(rd_u32(r, &nuv, "UV set count"));
    if (nuv > 64)
        return lod_fail(r, VKS_ERR_LIMIT, "more than 64 UV sets");
    for (uint32_t i = 1; i < nuv; i++)
        TRY(uvset(r, NULL));
    lod_path(r, x, "/vertices");
    TRY(rd_compressed(r, 12, &x->np, &x->pos, "positions"));
    if (x->np > opt->max_vertices)
        return lod_fail(r, VKS_ERR_LIMIT, "vertex count over the limit");
    if (v >= 50 && x->np != x->vcount)
        return vks_error_set(r->err, VKS_ERR_FORMAT, rest_at, r->path, "%u positions, the LOD says %u vertices",
                             x->np, x->vcount);
    uint32_t nn;
    TRY(rd_condensed(r, v >= 45 ? 4 : 12, &nn, &x->nrm, &x->nfill, "normals"));
    if (nn != x->np)
        return lod_fail(r, VKS_ERR_FORMAT, "normal count differs from the position count");
    TRY(rd_compressed(r, v >= 45 ? 8 : 24, &n, &d, "ST coordinates"));
    TRY(rd_compressed(r, 12, &x->nref, &x->ref, "vertex bone references"));
    if (x->nref && x->nref != x->np)
        return lod_fail(r, VKS_ERR_FORMAT, "bone reference count differs from the vertex count");
    TRY(rd_compressed(r, 32, &n, &d, "neighbour bone references"));
    if (v >= 67)
        TRY(rd_skip(r, 4, "unknown"));
    if (vks_cur_offset(&r->c) - rest_at != rest)
        return vks_error_set(r->err, VKS_ERR_FORMAT, rest_at - 4, r->path, "size of rest %u, the data took %llu",
                             rest, (unsigned long long)(vks_cur_offset(&r->c) - rest_at));
    if (v >= 68)
        TRY(rd_skip(r, 1, "unknown byte"));
    if (vks_cur_offset(&r->c) != file->lods[x->index].end)
        return vks_error_set(r->err, VKS_ERR_FORMAT, vks_cur_offset(&r->c), r->path,
                             "LOD data ends here, the LOD table says 0x%llx",
                             (unsigned long long)file->lods[x->index].end);
    return VKS_OK;
}

/* Points (one per vertex, moved by the BoundingCenter the binariser took off) and outward
   normals. */
static void lod_vertices(const odol_rd *r, const p3d_file *file, const odol_lod_raw *x, p3d_lod *lod)
{
    uint32_t v = r->v;
    for (uint32_t i = 0; i < x->np; i++) {
        lod->vertex_point[i] = i;
        for (int k = 0; k < 3; k++)
            lod->points[i][k] = vks_lef32(x->pos + 12 * (size_t)i + 4 * k) + file->bounding_center[k];
        const uint8_t *nd = x->nrm + (x->nfill ? 0 : (v >= 45 ? 4 : 12) * (size_t)i);
        if (v >= 45) {
            /* 10:10:10 signed fields, x lowest; stored = -511 * inward normal, so outward = field / 511 */
            uint32_t w = vks_le32(nd);
            for (int k = 0; k < 3; k++) {
                int32_t fld = (int32_t)((w >> (10 * k)) & 0x3FF);
                if (fld > 511)
                    fld -= 1024;
                lod->vertex_normal[i][k] = (float)fld / 511.0f;
            }
        } else {
            for (int k = 0; k < 3; k++)
                lod->vertex_normal[i][k] = -vks_lef32(nd + 4 * k);
        }
    }
}

/* Faces into triangles (a quad as two), each with its face and its section as material. The
   stored order is already reversed from MLOD (section 4.5), i.e. outward. */
static vks_result lod_triangles(odol_rd *r, const odol_lod_raw *x, p3d_lod *lod)
{
    size_t t = 0, unit = 0;
    const uint8_t *fp = x->faces;
    section_sweep sweep = {(const int32_t(*)[2])x->secr, NULL, NULL, x->nsec < 65535 ? x->nsec : 65535, 0, 0};
    sweep.by_start = p3d_alloc(r->pool, sweep.count, sizeof *sweep.by_start);
    sweep.heap = p3d_alloc(r->pool, sweep.count, sizeof *sweep.heap);
    if (!sweep.by_start || !sweep.heap)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t s = 0; s < sweep.count; s++) {
        sweep.by_start[s].start = x->secr[s][0];
        sweep.by_start[s].index = s;
    }
    qsort(sweep.by_start, sweep.count, sizeof *sweep.by_start, cmp_section);
    for (uint32_t f = 0; f < x->nfaces; f++) {
        uint8_t k = *fp++;
        uint32_t c[4];
        for (int j = 0; j < k; j++) {
            c[j] = vidx(fp, (uint32_t)j, x->wide);
            if (c[j] >= x->np)
                return vks_error_set(r->err, VKS_ERR_FORMAT, (uint64_t)(fp - r->c.base), r->path,
                                     "face %u corner %d: vertex %u of %u", f, j, c[j], x->np);
        }
        fp += k * x->isz;
        uint16_t m = section_of(&sweep, (int64_t)unit);
        unit += (x->wide ? 4 : 2) + k * x->isz;
        lod->tris[t][0] = c[0], lod->tris[t][1] = c[1], lod->tris[t][2] = c[2];
        lod->tri_face[t] = f;
        lod->tri_material[t++] = m;
        if (k == 4) {
            lod->tris[t][0] = c[0], lod->tris[t][1] = c[2], lod->tris[t][2] = c[3];
            lod->tri_face[t] = f;
            lod->tri_material[t++] = m;
        }
    }
    lod->tri_count = (uint32_t)t;
    lod->material_count = x->nsec > 65535 ? 65535 : x->nsec;
    return VKS_OK;
}

/* One selection, kept sparse: its points sorted, each once with its last weight, and its
   faces sorted and distinct. Spread over every point, a 20-byte selection of one vertex of
   a 200000-point LOD cost 800 KB, and the skin pass then visited every point once per bone. */
static vks_result lod_selection(odol_rd *r, const odol_lod_raw *x, const raw_sel *rs, p3d_sel *s)
{
    s->name = rs->name;
    uint32_t nv = rs->nv, nf = rs->nf;
    sel_entry *e = p3d_alloc(r->pool, nv, sizeof *e);
    uint32_t *pt = p3d_alloc(r->pool, nv, sizeof *pt);
    float *pw = p3d_alloc(r->pool, nv, sizeof *pw);
    uint32_t *fl = p3d_alloc(r->pool, nf, sizeof *fl);
    if (!e || !pt || !pw || !fl)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t j = 0; j < nv; j++) {
        uint32_t vi = vidx(rs->verts, j, x->wide);
        if (vi >= x->np)
            return vks_error_set(r->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, r->path,
                                 "selection '%.40s' names vertex %u of %u", s->name, vi, x->np);
        uint8_t w8 = rs->nw == rs->nv ? rs->weights[j] : 255;
        e[j].index = vi;
        e[j].order = j;
        e[j].weight = w8 ? (float)w8 / 255.0f : 1.0f;
    }
    if (nv > 1)
        qsort(e, nv, sizeof *e, cmp_sel_entry);
    uint32_t k = 0;
    for (uint32_t j = 0; j < nv; j++) {
        if (j + 1 < nv && e[j + 1].index == e[j].index)
            continue; /* a later entry for the same point wins */
        pt[k] = e[j].index;
        pw[k++] = e[j].weight;
    }
    s->point = pt;
    s->point_weight = pw;
    s->sparse_points = k;
    k = 0;
    for (uint32_t j = 0; j < nf; j++) {
        uint32_t fi = vidx(rs->faces, j, x->wide);
        if (fi < x->nfaces)
            fl[k++] = fi;
    }
    if (k > 1)
        qsort(fl, k, sizeof *fl, cmp_u32);
    uint32_t m = 0;
    for (uint32_t j = 0; j < k; j++)
        if (m == 0 || fl[m - 1] != fl[j])
            fl[m++] = fl[j];
    s->face = fl;
    s->sparse_faces = m;
    return VKS_OK;
}

/* Each vertex's up to four bone references (sub-skeleton bone, weight byte) as skeleton
   bones through the sub-skeleton map and the stored bone order. */
static vks_result lod_bone_refs(odol_rd *r, const p3d_file *file, const odol_lod_raw *x, p3d_lod *lod)
{
    lod->inf_bone = p3d_alloc(r->pool, x->np, sizeof *lod->inf_bone);
    lod->inf_weight = p3d_alloc(r->pool, x->np, sizeof *lod->inf_weight);
    if (!lod->inf_bone || !lod->inf_weight)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < x->np; i++) {
        const uint8_t *e = x->ref + 12 * (size_t)i;
        int32_t cnt = (int32_t)vks_le32(e);
        if (cnt < 0 || cnt > 4)
            return vks_error_set(r->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, r->path,
                                 "vertex %u has %d bone references, 0..4 expected", i, cnt);
        for (int k = 0; k < 4; k++) {
            lod->inf_bone[i][k] = -1;
            if (k >= cnt)
                continue;
            uint8_t si = e[4 + 2 * k], w8 = e[5 + 2 * k];
            if (si >= x->nsub)
                return vks_error_set(r->err, VKS_ERR_FORMAT, VKS_NO_OFFSET, r->path,
                                     "vertex %u references sub-skeleton bone %u of %u", i, si, x->nsub);
            int32_t stored = (int32_t)vks_le32(x->sub + 4 * (size_t)si);
            lod->inf_bone[i][k] = file->bone_order[stored];
            lod->inf_weight[i][k] = (float)w8 / 255.0f;
        }
    }
    return VKS_OK;
}

/* The intermediate LOD from the parsed parts: vertices, triangles, selections and, when the
   file has them, per-vertex bone references. */
/* UV set 0 per vertex (top-left origin, as MLOD's and the skin model's): u = min + (s + 32767)
   / 65534 * (max - min) for v45+ (armake's writer), two f32 before. A set whose count is not
   the vertex count is left out (the model then has no UVs). */
static vks_result lod_uvs(odol_rd *r, const odol_uvset *u, uint32_t np, p3d_lod *lod)
{
    if (!u->data || np == 0 || (!u->fill && u->count != np))
        return VKS_OK;
    float (*t)[2] = p3d_alloc(r->pool, np, sizeof *t);
    if (!t)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < np; i++) {
        const uint8_t *e = u->data + (u->fill ? 0 : (size_t)i * (r->v >= 45 ? 4 : 8));
        for (int k = 0; k < 2; k++)
            t[i][k] = r->v >= 45 ? u->min[k] + ((float)(int16_t)vks_le16(e + 2 * k) + 32767.0f) / 65534.0f *
                                                   (u->max[k] - u->min[k])
                                 : vks_lef32(e + 4 * k);
        if (!isfinite(t[i][0]) || !isfinite(t[i][1]))
            return lod_fail(r, VKS_ERR_FORMAT, "a UV is not finite");
    }
    lod->vertex_uv = t;
    return VKS_OK;
}

/* Per material (one per section, as lod_triangles assigns them): the section's texture (an
   index into the LOD's texture names; -1 or out of range: none) and its material (.rvmat),
   embedded or named, as MLOD's faces give them. */
static vks_result lod_face_textures(odol_rd *r, const odol_lod_raw *x, p3d_lod *lod)
{
    uint32_t n = lod->material_count;
    if (n == 0)
        return VKS_OK;
    lod->mat_texture = p3d_alloc(r->pool, n, sizeof *lod->mat_texture);
    lod->mat_name = p3d_alloc(r->pool, n, sizeof *lod->mat_name);
    if (!lod->mat_texture || !lod->mat_name)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; k < n; k++) {
        int32_t t = x->sec_tex[k];
        lod->mat_texture[k] = t >= 0 && (uint32_t)t < x->ntex ? x->tex[t] : "";
        lod->mat_name[k] = x->sec_mat[k] ? x->sec_mat[k] : "";
    }
    return VKS_OK;
}

static vks_result lod_build(odol_rd *r, const p3d_file *file, const odol_lod_raw *x, p3d_lod *lod)
{
    lod_path(r, x, "");
    lod->point_count = lod->vertex_count = x->np;
    lod->face_count = x->nfaces;
    lod->points = p3d_alloc(r->pool, x->np, sizeof *lod->points);
    lod->vertex_point = p3d_alloc(r->pool, x->np, sizeof *lod->vertex_point);
    lod->vertex_normal = p3d_alloc(r->pool, x->np, sizeof *lod->vertex_normal);
    lod->tris = p3d_alloc(r->pool, x->ntri, sizeof *lod->tris);
    lod->tri_face = p3d_alloc(r->pool, x->ntri, sizeof *lod->tri_face);
    lod->tri_material = p3d_alloc(r->pool, x->ntri, sizeof *lod->tri_material);
    lod->sels = p3d_alloc(r->pool, x->nsel, sizeof *lod->sels);
    if (!lod->points || !lod->vertex_point || !lod->vertex_normal || !lod->tris || !lod->tri_face ||
        !lod->tri_material || !lod->sels)
        return lod_fail(r, VKS_ERR_NOMEM, "out of memory");
    lod_vertices(r, file, x, lod);
    vks_result rc = lod_triangles(r, x, lod);
    for (uint32_t i = 0; rc == VKS_OK && i < x->nsel; i++)
        rc = lod_selection(r, x, &x->rs[i], &lod->sels[lod->sel_count++]);
    if (rc == VKS_OK && x->nref)
        rc = lod_bone_refs(r, file, x, lod);
    if (rc == VKS_OK)
        rc = lod_uvs(r, &x->uv0, x->np, lod);
    if (rc == VKS_OK)
        rc = lod_face_textures(r, x, lod);
    return rc;
}

vks_result p3d_odol_lod(p3d_pool *pool, const p3d_file *file, uint32_t index, const vks_read_options *opt,
                        p3d_lod *lod, vks_error *err)
{
    odol_rd rd = {vks_cur_make(file->bytes, file->size), file->version, pool, err, "", 0};
    rd.max_count = opt->max_vertices > opt->max_triangles ? opt->max_vertices : opt->max_triangles;
    if (rd.max_count > ODOL_MAX_COUNT)
        rd.max_count = ODOL_MAX_COUNT;
    odol_rd *r = &rd;
    odol_lod_raw x = {0};
    x.index = index;
    x.wide = file->version >= 69;
    x.isz = x.wide ? 4 : 2;
    memset(lod, 0, sizeof *lod);
    lod->resolution = file->lods[index].resolution;
    vks_cur_skip(&r->c, (size_t)file->lods[index].offset);
    r->c.end = r->c.base + file->lods[index].end; /* a LOD never reads past its recorded end */
    lod_path(r, &x, "");
    uint32_t rest = 0;
    uint64_t rest_at = 0;
    vks_result rc = lod_head(r, file, &x);
    if (rc == VKS_OK)
        rc = lod_polygons(r, opt, &x);
    if (rc == VKS_OK)
        rc = lod_sections(r, &x);
    if (rc == VKS_OK)
        rc = lod_selections(r, &x);
    if (rc == VKS_OK)
        rc = lod_rest_limits(r, file, opt, &x, &rest, &rest_at);
    if (rc == VKS_OK)
        rc = lod_vertex_arrays(r, file, opt, &x, rest, rest_at);
    if (rc == VKS_OK)
        rc = lod_build(r, file, &x, lod);
    return rc;
}
#undef TRY
