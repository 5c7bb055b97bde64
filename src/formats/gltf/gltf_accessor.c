/* glTF accessors: typed views of buffer bytes. Checked as the specification requires: the
 * component type and element type the referring member allows, byteOffset aligned to the
 * component size, byteStride 4..252 and a multiple of 4 and no smaller than an element, the
 * last element inside the bufferView and the bufferView inside its buffer, matrix columns
 * starting on 4-byte boundaries, vertex attribute elements too, sparse indices strictly increasing below count. Normalized
 * integers decode by the specification's formulas (signed: max(c / (2^(b-1) - 1), -1),
 * unsigned: c / (2^b - 1)); min and max are not read, so nothing trusts them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "gltf_internal.h"

typedef struct layout {
    const uint8_t *base; /* first element; NULL: every element zero (no bufferView) */
    uint64_t stride, col_stride;
    uint32_t count, comps, rows, csize;
    int ctype, normalized;
} layout;

static uint32_t comp_size(int t)
{
    switch (t) {
    case GLTF_BYTE:
    case GLTF_UNSIGNED_BYTE: return 1;
    case GLTF_SHORT:
    case GLTF_UNSIGNED_SHORT: return 2;
    case GLTF_UNSIGNED_INT:
    case GLTF_FLOAT: return 4;
    default: return 0;
    }
}

static double comp_value(const uint8_t *p, int t, int norm)
{
    switch (t) {
    case GLTF_BYTE: {
        double v = (int8_t)p[0];
        return norm ? fmax(v / 127.0, -1.0) : v;
    }
    case GLTF_UNSIGNED_BYTE: return norm ? p[0] / 255.0 : p[0];
    case GLTF_SHORT: {
        double v = (int16_t)(uint16_t)(p[0] | p[1] << 8);
        return norm ? fmax(v / 32767.0, -1.0) : v;
    }
    case GLTF_UNSIGNED_SHORT: {
        double v = (uint16_t)(p[0] | p[1] << 8);
        return norm ? v / 65535.0 : v;
    }
    case GLTF_UNSIGNED_INT: return (double)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    default: {
        uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    }
}

static uint32_t type_comps(const char *s, uint32_t *rows)
{
    static const struct {
        const char *name;
        uint32_t comps, rows;
    } types[] = {{"SCALAR", 1, 1}, {"VEC2", 2, 2}, {"VEC3", 3, 3}, {"VEC4", 4, 4},
                 {"MAT2", 4, 2},   {"MAT3", 9, 3}, {"MAT4", 16, 4}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(s, types[i].name)) {
            *rows = types[i].rows;
            return types[i].comps;
        }
    return 0;
}

static int type_allowed(const gltf_accessor_want *w, int t)
{
    return t >= GLTF_BYTE && t <= GLTF_FLOAT && (w->types & GLTF_BIT(t));
}

static void type_list(const gltf_accessor_want *w, char *out, size_t cap)
{
    static const char *names[] = {"byte", "unsigned byte", "short", "unsigned short", "", "unsigned int", "float"};
    size_t at = 0;
    out[0] = 0;
    for (int t = GLTF_BYTE; t <= GLTF_FLOAT; t++)
        if (type_allowed(w, t) && at < cap)
            at += (size_t)snprintf(out + at, cap - at, "%s%s", at ? ", " : "", names[t - GLTF_BYTE]);
}

/* The accessor's layout, every rule checked. */
static vks_result accessor_layout(gltf_doc *d, int32_t index, const char *path, const gltf_accessor_want *want,
                                  layout *L, const cJSON **sparse)
{
    char ap[40];
    snprintf(ap, sizeof ap, "accessors[%d]", index);
    const cJSON *o = d->accessor_at[index];
    uint64_t ctype = 0, count = 0, off = 0;
    int32_t view = -1;
    vks_result r = vks__gltfr_get_uint(d, o, ap, "componentType", 1, 0xFFFF, &ctype);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, o, ap, "count", 1, UINT32_MAX, &count);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, o, ap, "byteOffset", 0, UINT64_MAX / 4, &off);
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, o, ap, "bufferView", 0, d->view_count, "bufferViews", &view);
    if (r != VKS_OK)
        return r;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    const cJSON *norm = cJSON_GetObjectItemCaseSensitive(o, "normalized");
    memset(L, 0, sizeof *L);
    L->ctype = (int)ctype;
    L->csize = comp_size(L->ctype);
    L->normalized = cJSON_IsTrue(norm);
    if (!cJSON_IsString(type) || !(L->comps = type_comps(type->valuestring, &L->rows)))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "type must be SCALAR, VEC2..VEC4 or MAT2..MAT4");
    if (!L->csize)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "componentType %d is not one of the specification's", L->ctype);
    if (norm && !cJSON_IsBool(norm))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "normalized must be a boolean");
    if (L->normalized && (L->ctype == GLTF_FLOAT || L->ctype == GLTF_UNSIGNED_INT))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "normalized is only for byte and short components");
    if (count == 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "count must be at least 1");
    L->count = (uint32_t)count;
    /* what the referring member allows */
    char allowed[96];
    type_list(want, allowed, sizeof allowed);
    if (want->type && strcmp(want->type, type->valuestring))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d has type %.8s, expected %s", index,
                         type->valuestring, want->type);
    if (!type_allowed(want, L->ctype))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d has componentType %d, expected %s", index, L->ctype,
                         allowed);
    if (L->ctype != GLTF_FLOAT && want->normalized >= 0 && L->normalized != want->normalized)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d: integer components must %sbe normalized", index,
                         want->normalized ? "" : "not ");
    if ((uint64_t)L->count * L->comps > (view >= 0 ? UINT32_MAX : (uint64_t)d->opt.max_vertices))
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, ap, "count %u is over the reader's limit", L->count);
    uint32_t cols = L->comps / L->rows;
    L->col_stride = cols > 1 ? ((uint64_t)L->rows * L->csize + 3) / 4 * 4 : (uint64_t)L->rows * L->csize;
    uint64_t elem = L->col_stride * cols;
    if (view >= 0) {
        uint64_t len = 0, st = 0, voff = 0;
        const uint8_t *bytes = NULL;
        if ((r = vks__gltfr_view_bytes(d, view, &bytes, &len, &st, &voff)) != VKS_OK)
            return r;
        if (st && want->no_stride)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d: bufferViews[%d] has a byteStride, which index "
                             "and animation data must not", index, view);
        if (st && st < elem)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "byteStride %llu of bufferViews[%d] is less than an element (%llu bytes)",
                             (unsigned long long)st, view, (unsigned long long)elem);
        L->stride = st ? st : elem;
        if ((voff + off) % L->csize || L->stride % L->csize)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "byteOffset %llu (+ bufferViews[%d].byteOffset %llu) or stride %llu is "
                             "not a multiple of the component size %u", (unsigned long long)off, view,
                             (unsigned long long)voff, (unsigned long long)L->stride, L->csize);
        if (want->attribute && ((voff + off) % 4 || L->stride % 4))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d: byteOffset %llu (+ bufferViews[%d].byteOffset "
                                   "%llu) or stride %llu is not a multiple of 4, as vertex attributes must be", index,
                                   (unsigned long long)off, view, (unsigned long long)voff,
                                   (unsigned long long)L->stride);
        if (off > len || elem > len - off || (uint64_t)(L->count - 1) > (len - off - elem) / L->stride)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "%u elements of %llu bytes (stride %llu) from byteOffset %llu pass "
                             "the end of bufferViews[%d] (byteLength %llu)", L->count, (unsigned long long)elem,
                             (unsigned long long)L->stride, (unsigned long long)off, view, (unsigned long long)len);
        L->base = bytes + off;
    } else if (off) {
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ap, "byteOffset without a bufferView");
    } else {
        /* no bufferView: a Draco primitive's accessor is its decoded data, packed */
        if ((r = vks__gltfr_draco_accessor(d, index, &L->base)) != VKS_OK)
            return r;
        L->stride = elem;
    }
    *sparse = cJSON_GetObjectItemCaseSensitive(o, "sparse");
    if (!L->base && !*sparse)
        vks__log(&d->opt.logger, VKS_LOG_INFO, "%s: accessor %d has no bufferView: all zeros", path, index);
    return VKS_OK;
}

/* Writes element i's components from p (the element's first byte) into f or u. */
static vks_result put(gltf_doc *d, const layout *L, const uint8_t *p, uint32_t i, float *f, uint32_t *u,
                      int32_t index, const char *path)
{
    for (uint32_t k = 0; k < L->comps; k++) {
        const uint8_t *q = p ? p + (k / L->rows) * L->col_stride + (k % L->rows) * L->csize : NULL;
        double v = q ? comp_value(q, L->ctype, L->normalized) : 0.0;
        size_t at = (size_t)i * L->comps + k;
        if (f) {
            f[at] = (float)v;
            if (!isfinite(f[at]))
                return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d element %u component %u is not finite", index,
                                 i, k);
        } else {
            u[at] = (uint32_t)v;
        }
    }
    return VKS_OK;
}

static vks_result apply_sparse(gltf_doc *d, const layout *L, const cJSON *s, int32_t index, const char *path, float *f,
                               uint32_t *u)
{
    char sp[48], ip[56], vp[56];
    snprintf(sp, sizeof sp, "accessors[%d].sparse", index);
    snprintf(ip, sizeof ip, "%s.indices", sp);
    snprintf(vp, sizeof vp, "%s.values", sp);
    const cJSON *si = cJSON_GetObjectItemCaseSensitive(s, "indices"), *sv = cJSON_GetObjectItemCaseSensitive(s, "values");
    uint64_t n = 0, it = 0, ioff = 0, voff = 0;
    int32_t iview = -1, vview = -1;
    uint32_t views = d->view_count;
    if (!cJSON_IsObject(s) || !cJSON_IsObject(si) || !cJSON_IsObject(sv))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, sp, "must be an object with indices and values objects");
    vks_result r = vks__gltfr_get_uint(d, s, sp, "count", 1, L->count, &n);
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, si, ip, "bufferView", 1, views, "bufferViews", &iview);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, si, ip, "byteOffset", 0, UINT64_MAX / 4, &ioff);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, si, ip, "componentType", 1, 0xFFFF, &it);
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, sv, vp, "bufferView", 1, views, "bufferViews", &vview);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, sv, vp, "byteOffset", 0, UINT64_MAX / 4, &voff);
    if (r != VKS_OK)
        return r;
    if (n == 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, sp, "count must be at least 1");
    if (it != GLTF_UNSIGNED_BYTE && it != GLTF_UNSIGNED_SHORT && it != GLTF_UNSIGNED_INT)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ip, "componentType %llu must be an unsigned byte, short or int",
                         (unsigned long long)it);
    uint32_t isz = comp_size((int)it);
    uint64_t elem = L->col_stride * (L->comps / L->rows);
    const uint8_t *ib = NULL, *vb = NULL;
    uint64_t ilen = 0, vlen = 0, st = 0, vo = 0;
    if ((r = vks__gltfr_view_bytes(d, iview, &ib, &ilen, &st, &vo)) != VKS_OK ||
        (r = vks__gltfr_view_bytes(d, vview, &vb, &vlen, &st, &vo)) != VKS_OK)
        return r;
    if (ioff > ilen || n > (ilen - ioff) / isz)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, ip, "%llu indices pass the end of bufferViews[%d]", (unsigned long long)n,
                         iview);
    if (voff > vlen || n > (vlen - voff) / elem)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, vp, "%llu values pass the end of bufferViews[%d]", (unsigned long long)n,
                         vview);
    int64_t last = -1;
    for (uint64_t k = 0; k < n; k++) {
        uint32_t at = (uint32_t)comp_value(ib + ioff + k * isz, (int)it, 0);
        if ((int64_t)at <= last || at >= L->count)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, ip, "index %llu is %u: indices must increase strictly and stay below "
                             "count %u", (unsigned long long)k, at, L->count);
        last = at;
        if ((r = put(d, L, vb + voff + k * elem, at, f, u, index, path)) != VKS_OK)
            return r;
    }
    return VKS_OK;
}

static vks_result decode(gltf_doc *d, int32_t index, const char *path, const gltf_accessor_want *want,
                         gltf_values *info, float **fo, uint32_t **uo)
{
    if (index < 0 || (uint32_t)index >= d->accessor_count)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d is out of range (the file has %u accessors)", index,
                         d->accessor_count);
    layout L;
    const cJSON *sparse = NULL;
    vks_result r = accessor_layout(d, index, path, want, &L, &sparse);
    if (r != VKS_OK)
        return r;
    void *out = vks__gltfr_alloc(d, (size_t)L.count * L.comps, 4);
    if (!out)
        return vks__gltfr_nomem(d, path);
    float *f = fo ? out : NULL;
    uint32_t *u = fo ? NULL : out;
    for (uint32_t i = 0; i < L.count; i++)
        if ((r = put(d, &L, L.base ? L.base + (size_t)i * L.stride : NULL, i, f, u, index, path)) != VKS_OK)
            return r;
    if (sparse && (r = apply_sparse(d, &L, sparse, index, path, f, u)) != VKS_OK)
        return r;
    info->count = L.count;
    info->comps = L.comps;
    info->type = L.ctype;
    info->normalized = L.normalized;
    if (fo)
        *fo = f;
    else
        *uo = u;
    return VKS_OK;
}

vks_result vks__gltfr_accessor_floats(gltf_doc *d, int32_t index, const char *path, const gltf_accessor_want *want,
                                gltf_values *info, float **out)
{
    return decode(d, index, path, want, info, out, NULL);
}

vks_result vks__gltfr_accessor_uints(gltf_doc *d, int32_t index, const char *path, const gltf_accessor_want *want,
                               gltf_values *info, uint32_t **out)
{
    return decode(d, index, path, want, info, NULL, out);
}
