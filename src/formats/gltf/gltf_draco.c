/* KHR_draco_mesh_compression: a primitive whose attributes and indices are stored as one
 * Draco mesh in a bufferView. The primitive's own accessors keep their count, componentType
 * and type (and usually have no bufferView); the extension maps attribute names to Draco
 * attribute ids. Decoded with libdraco (gltf_draco_shim.cc) when one of its accessors is first
 * read, into that accessor's own component type, so the accessor code decodes it as if it
 * were stored plainly (normalization, KHR_mesh_quantization's types and all).
 *
 * Decoded sizes are the accessors' counts x element sizes, checked against the read options'
 * max input size before the decoder runs, and the counts the Draco header claims (which
 * libdraco allocates for, from its own heap) are held against those accessors first
 * (gltf_draco_header.c); the decoded mesh must then have exactly that many points (and faces x
 * 3 indices), or the primitive is refused, naming it. An accessor that
 * several Draco primitives list is decoded from the first one. */
#include <stdio.h>
#include <string.h>

#include "gltf_draco_shim.h"
#include "gltf_internal.h"

typedef struct gltf_draco_prim {
    uint32_t mesh, prim;
    const cJSON *obj, *ext;
    int decoded;
} gltf_draco_prim;

static const char *ext_name = "KHR_draco_mesh_compression";

static const cJSON *draco_ext(const cJSON *prim)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(prim, "extensions"), ext_name);
}

/* Marks accessor index (a member's number, unchecked here: the reader checks it when it reads
 * the member) as owned by Draco primitive k, where no earlier primitive owns it. */
static void own(gltf_doc *d, const cJSON *index, int32_t k)
{
    double x = cJSON_IsNumber(index) ? index->valuedouble : -1;
    if (x >= 0 && x < d->accessor_count && x == (double)(uint32_t)x && d->draco_owner[(uint32_t)x] < 0)
        d->draco_owner[(uint32_t)x] = k;
}

/* Every primitive with the extension, and which accessors each supplies: the attributes the
 * extension names and the indices. */
static vks_result scan(gltf_doc *d)
{
    uint32_t n = 0;
    for (uint32_t m = 0; m < d->mesh_count; m++) {
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(d->mesh_at[m], "primitives");
        for (const cJSON *p = cJSON_IsArray(prims) ? prims->child : NULL; p; p = p->next)
            n += draco_ext(p) != NULL;
    }
    d->draco_owner = vks__gltfr_alloc(d, d->accessor_count, sizeof *d->draco_owner);
    d->accessor_decoded = vks__gltfr_alloc(d, d->accessor_count, sizeof *d->accessor_decoded);
    d->draco_prims = vks__gltfr_alloc(d, n, sizeof *d->draco_prims);
    if (!d->draco_owner || !d->accessor_decoded || !d->draco_prims)
        return vks__gltfr_nomem(d, "meshes");
    for (uint32_t a = 0; a < d->accessor_count; a++)
        d->draco_owner[a] = -1;
    for (uint32_t m = 0; m < d->mesh_count; m++) {
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(d->mesh_at[m], "primitives");
        uint32_t i = 0;
        for (const cJSON *p = cJSON_IsArray(prims) ? prims->child : NULL; p; p = p->next, i++) {
            const cJSON *ext = draco_ext(p);
            if (!ext)
                continue;
            int32_t k = (int32_t)d->draco_prim_count++;
            d->draco_prims[k] = (gltf_draco_prim){m, i, p, ext, 0};
            const cJSON *names = cJSON_GetObjectItemCaseSensitive(ext, "attributes");
            const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(p, "attributes");
            for (const cJSON *a = cJSON_IsObject(names) ? names->child : NULL; a; a = a->next)
                own(d, cJSON_GetObjectItemCaseSensitive(attrs, a->string), k);
            own(d, cJSON_GetObjectItemCaseSensitive(p, "indices"), k);
        }
    }
    return VKS_OK;
}

/* One accessor's shape: count elements of comps components of ctype (csize bytes). */
typedef struct target {
    int32_t accessor;
    uint32_t draco_id; /* UINT32_MAX: the indices */
    uint64_t count;
    uint32_t comps, csize;
    int ctype;
} target;

static uint32_t csize_of(uint64_t t)
{
    return t == 5120 || t == 5121 ? 1 : t == 5122 || t == 5123 ? 2 : t == 5125 || t == 5126 ? 4 : 0;
}

static vks_result target_shape(gltf_doc *d, const char *path, target *t)
{
    char ap[40];
    snprintf(ap, sizeof ap, "accessors[%d]", t->accessor);
    const cJSON *o = d->accessor_at[t->accessor];
    uint64_t ctype = 0;
    vks_result r = vks__gltfr_get_uint(d, o, ap, "componentType", 1, 0xFFFF, &ctype);
    if (r == VKS_OK)
        r = vks__gltfr_get_uint(d, o, ap, "count", 1, UINT32_MAX, &t->count);
    if (r != VKS_OK)
        return r;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(o, "type");
    const char *s = cJSON_IsString(type) ? type->valuestring : "";
    t->comps = !strcmp(s, "SCALAR") ? 1 : !strcmp(s, "VEC2") ? 2 : !strcmp(s, "VEC3") ? 3 : !strcmp(s, "VEC4") ? 4 : 0;
    t->ctype = (int)ctype;
    t->csize = csize_of(ctype);
    if (!t->comps || !t->csize)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d (%.8s of componentType %llu) cannot hold Draco data: "
                               "SCALAR or VEC2..VEC4 of the specification's component types", t->accessor, s,
                               (unsigned long long)ctype);
    return VKS_OK;
}

/* The targets of primitive P: each attribute the extension names (its accessor in the
 * primitive's attributes), then the indices when the primitive has them. */
static vks_result targets(gltf_doc *d, const gltf_draco_prim *P, const char *path, target *t, uint32_t cap,
                          uint32_t *n)
{
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(P->ext, "attributes");
    const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(P->obj, "attributes");
    if (!cJSON_IsObject(names))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "attributes must be an object of Draco attribute ids");
    char ppath[160];
    snprintf(ppath, sizeof ppath, "meshes[%u].primitives[%u].attributes", P->mesh, P->prim);
    *n = 0;
    vks_result r = VKS_OK;
    for (const cJSON *a = names->child; a && r == VKS_OK; a = a->next) {
        uint64_t id = 0;
        if (*n + 1 >= cap)
            return vks__gltfr_fail(d, VKS_ERR_LIMIT, path, "more than %u attributes", cap - 1);
        t[*n] = (target){-1, 0, 0, 0, 0, 0};
        r = vks__gltfr_get_uint(d, names, path, a->string, 1, UINT32_MAX - 1, &id);
        if (r == VKS_OK)
            r = vks__gltfr_get_index(d, attrs, ppath, a->string, 1, d->accessor_count, "accessors", &t[*n].accessor);
        t[*n].draco_id = (uint32_t)id;
        if (r == VKS_OK && d->draco_owner[t[*n].accessor] == (int32_t)(P - d->draco_prims))
            r = target_shape(d, path, &t[(*n)++]);
    }
    int32_t ind = -1;
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, P->obj, ppath, "indices", 0, d->accessor_count, "accessors", &ind);
    if (r == VKS_OK && ind >= 0 && d->draco_owner[ind] == (int32_t)(P - d->draco_prims)) {
        t[*n] = (target){ind, UINT32_MAX, 0, 0, 0, 0};
        if ((r = target_shape(d, path, &t[*n])) == VKS_OK && t[*n].comps != 1)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "indices accessor %d must be SCALAR", ind);
        (*n)++;
    }
    return r;
}

/* The faces as the indices accessor's type; each index must fit it. */
static vks_result put_indices(gltf_doc *d, const char *path, const vks_draco_mesh *m, const target *t, uint8_t *out)
{
    uint32_t *faces = vks__gltfr_alloc(d, (size_t)t->count, sizeof *faces);
    if (!faces)
        return vks__gltfr_nomem(d, path);
    vks__draco_faces(m, faces);
    uint64_t max = t->csize == 1 ? 0xFF : t->csize == 2 ? 0xFFFF : 0xFFFFFFFFu;
    for (uint64_t i = 0; i < t->count; i++) {
        uint32_t v = faces[i];
        if (v > max || (t->ctype != 5121 && t->ctype != 5123 && t->ctype != 5125))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "decoded index %llu is %u: it does not fit indices accessor "
                                   "%d (componentType %d)", (unsigned long long)i, v, t->accessor, t->ctype);
        for (uint32_t b = 0; b < t->csize; b++)
            out[i * t->csize + b] = (uint8_t)(v >> (8 * b)); /* little-endian, as glTF stores it */
    }
    return VKS_OK;
}

/* The decoded mesh into each target's bytes, its counts checked first. */
static vks_result fill(gltf_doc *d, const char *path, const vks_draco_mesh *m, const target *t, uint32_t n)
{
    uint32_t points = vks__draco_point_count(m);
    uint64_t indices = 3ull * vks__draco_face_count(m);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t want = t[i].draco_id == UINT32_MAX ? indices : points;
        if (t[i].count != want)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d has count %llu, but the Draco mesh decodes to "
                                   "%llu %s", t[i].accessor, (unsigned long long)t[i].count, (unsigned long long)want,
                                   t[i].draco_id == UINT32_MAX ? "indices" : "points");
    }
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *out = vks__gltfr_alloc(d, (size_t)t[i].count * t[i].comps, t[i].csize);
        if (!out)
            return vks__gltfr_nomem(d, path);
        char msg[128] = "";
        if (t[i].draco_id == UINT32_MAX) {
            vks_result r = put_indices(d, path, m, &t[i], out);
            if (r != VKS_OK)
                return r;
        } else if (vks__draco_attribute(m, t[i].draco_id, t[i].ctype, t[i].comps, out, msg, sizeof msg)) {
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "Draco attribute %u for accessor %d: %s", t[i].draco_id,
                                   t[i].accessor, msg);
        }
        d->accessor_decoded[t[i].accessor] = out;
    }
    return VKS_OK;
}

/* The header's claims held against the accessors before the decoder allocates for them: the
 * triangles must be the indices accessor's count / 3 (or, without one, fit the budget) and the
 * points the attributes' count (edgebreaker: its encoded vertices at most that). */
static vks_result check_claims(gltf_doc *d, const char *path, const gltf_draco_claims *c, const target *t, uint32_t n)
{
    int indexed = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t count = t[i].count;
        if (t[i].draco_id == UINT32_MAX) {
            indexed = 1;
            if (3ull * c->faces != count)
                return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "the Draco data claims %u triangles, but indices accessor "
                                       "%d has count %llu", c->faces, t[i].accessor, (unsigned long long)count);
        } else if (c->method == 0 ? c->points != count : c->points > count) {
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "the Draco data claims %u %s, but accessor %d has count %llu",
                                   c->points, c->method == 0 ? "points" : "encoded vertices", t[i].accessor,
                                   (unsigned long long)count);
        }
    }
    return indexed ? VKS_OK : vks__gltfr_decoded_budget(d, path, 12ull * c->faces);
}

static vks_result decode_prim(gltf_doc *d, gltf_draco_prim *P)
{
    char path[128];
    snprintf(path, sizeof path, "meshes[%u].primitives[%u].extensions.%s", P->mesh, P->prim, ext_name);
    uint64_t mode = 4;
    vks_result r = vks__gltfr_get_uint(d, P->obj, path, "mode", 0, 6, &mode);
    if (r != VKS_OK)
        return r;
    if (mode != 4)
        return vks__gltfr_fail(d, VKS_ERR_UNSUPPORTED, path, "a Draco primitive of mode %llu (vkskin decodes TRIANGLES)",
                               (unsigned long long)mode);
    target t[33];
    uint32_t n = 0;
    if ((r = targets(d, P, path, t, 33, &n)) != VKS_OK)
        return r;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += t[i].count * t[i].comps * t[i].csize + (t[i].draco_id == UINT32_MAX ? t[i].count * 4 : 0);
    if ((r = vks__gltfr_decoded_budget(d, path, total)) != VKS_OK)
        return r;
    int32_t view = -1;
    const uint8_t *bytes = NULL;
    uint64_t len = 0, stride = 0, off = 0;
    if ((r = vks__gltfr_get_index(d, P->ext, path, "bufferView", 1, d->view_count, "bufferViews", &view)) != VKS_OK ||
        (r = vks__gltfr_view_bytes(d, view, &bytes, &len, &stride, &off)) != VKS_OK)
        return r;
    gltf_draco_claims claims;
    if ((r = vks__gltfr_draco_claims(d, path, bytes, (size_t)len, &claims)) != VKS_OK ||
        (r = check_claims(d, path, &claims, t, n)) != VKS_OK)
        return r;
    vks_draco_mesh *m = NULL;
    char msg[160] = "";
    if (vks__draco_decode(bytes, (size_t)len, &m, msg, sizeof msg))
        return vks__gltfr_fail_at(d, VKS_ERR_FORMAT, bytes, path, "bufferViews[%d] (%llu bytes): malformed Draco data: %s",
                                  view, (unsigned long long)len, msg);
    r = fill(d, path, m, t, n);
    vks__draco_free(m);
    P->decoded = r == VKS_OK;
    return r;
}

vks_result vks__gltfr_draco_accessor(gltf_doc *d, int32_t index, const uint8_t **bytes)
{
    *bytes = NULL;
    if (!d->draco)
        return VKS_OK;
    vks_result r;
    if (!d->draco_owner && (r = scan(d)) != VKS_OK)
        return r;
    int32_t k = d->draco_owner[index];
    if (k < 0)
        return VKS_OK;
    if (!d->draco_prims[k].decoded && (r = decode_prim(d, &d->draco_prims[k])) != VKS_OK)
        return r;
    *bytes = d->accessor_decoded[index]; /* count x element bytes, from this accessor's own members */
    return VKS_OK;
}
