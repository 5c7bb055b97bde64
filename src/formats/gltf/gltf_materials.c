/* glTF materials as the skin model keeps them (skin.h): every material's name, base colour and
 * base-colour texture (pbrMetallicRoughness), resolved through textures[] to the image and
 * sampler it uses, and every image and sampler of the file, so that a converted character
 * keeps what it is painted with. Texture coordinates (TEXCOORD_n) are read per primitive.
 *
 * Images: bytes in a bufferView (a .glb's) or a base64 data: URI are copied into the skin; any
 * other URI is kept as the reference it is (not read: vkskin deforms, it does not draw, and
 * a viewer finds the file beside the converted one). Every index is checked like the rest of
 * the reader's: a material naming a texture that does not exist is a format error. */
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

static const cJSON *member(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

static const char *string_member(const cJSON *o, const char *name)
{
    const cJSON *v = member(o, name);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* An array member of the document (absent: none); an element that is not an object is refused. */
static vks_result top_array(gltf_doc *d, const char *name, const cJSON **out, uint32_t *count)
{
    const cJSON *a = member(d->json, name);
    *out = a, *count = 0;
    if (!a)
        return VKS_OK;
    if (!cJSON_IsArray(a))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, name, "must be an array");
    uint32_t i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++)
        if (!cJSON_IsObject(e))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, name, "[%u] must be an object", i);
    *count = i;
    return VKS_OK;
}

static vks_result read_samplers(gltf_doc *d, vks_skin *skin)
{
    const cJSON *arr;
    uint32_t n;
    vks_result r = top_array(d, "samplers", &arr, &n);
    if (r != VKS_OK || !n)
        return r;
    skin->samplers = vks_skin_alloc_array(skin, n, sizeof *skin->samplers);
    if (!skin->samplers)
        return vks__gltfr_nomem(d, "samplers");
    uint32_t i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++) {
        char path[32];
        snprintf(path, sizeof path, "samplers[%u]", i);
        uint64_t v[4] = {0, 0, 0, 0};
        static const char *const names[4] = {"magFilter", "minFilter", "wrapS", "wrapT"};
        for (int k = 0; k < 4; k++)
            if ((r = vks__gltfr_get_uint(d, o, path, names[k], 0, 65535, &v[k])) != VKS_OK)
                return r;
        skin->samplers[i] = (vks_sampler){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], (uint32_t)v[3]};
    }
    skin->sampler_count = n;
    return VKS_OK;
}

/* A copy of the bytes into the skin (they outlive the document). */
static vks_result keep_bytes(gltf_doc *d, vks_skin *skin, vks_image *im, const uint8_t *bytes, size_t size,
                             const char *path)
{
    uint8_t *copy = vks_skin_alloc(skin, size ? size : 1);
    if (!copy)
        return vks__gltfr_nomem(d, path);
    memcpy(copy, bytes, size);
    im->data = copy;
    im->size = size;
    return VKS_OK;
}

/* "data:image/png;base64,...": the bytes, and the media type when the image gives none. */
static vks_result data_uri_image(gltf_doc *d, vks_skin *skin, vks_image *im, const char *uri, const char *path,
                                 char *mime, size_t mime_cap)
{
    const char *comma = strchr(uri, ',');
    if (!comma || comma - uri < 12 || memcmp(comma - 7, ";base64", 7))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "data URI is not base64 (\"%.40s\")", uri);
    snprintf(mime, mime_cap, "%.*s", (int)(comma - 7 - (uri + 5)), uri + 5);
    size_t len = strlen(comma + 1), cap = len / 4 * 3 + 3;
    uint8_t *bytes = vks__gltfr_alloc(d, cap, 1);
    if (!bytes)
        return vks__gltfr_nomem(d, path);
    int64_t n = vks__gltfr_base64_decode(comma + 1, len, bytes, cap);
    if (n < 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "data URI: malformed base64");
    return keep_bytes(d, skin, im, bytes, (size_t)n, path);
}

static vks_result read_image(gltf_doc *d, vks_skin *skin, const cJSON *o, uint32_t i, vks_image *im)
{
    char path[32], mime[64] = "";
    snprintf(path, sizeof path, "images[%u]", i);
    const cJSON *uri = member(o, "uri");
    int32_t view = -1;
    vks_result r = vks__gltfr_get_index(d, o, path, "bufferView", 0, d->view_count, "bufferViews", &view);
    if (r != VKS_OK)
        return r;
    if (uri && !cJSON_IsString(uri))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "uri must be a string");
    if (!uri == (view < 0)) /* the specification: exactly one of the two */
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must have either a uri or a bufferView");
    im->uri = "";
    if (view >= 0) {
        const uint8_t *bytes;
        uint64_t len, stride, off;
        if ((r = vks__gltfr_view_bytes(d, view, &bytes, &len, &stride, &off)) != VKS_OK)
            return r;
        if (!member(o, "mimeType"))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "an image in a bufferView needs a mimeType");
        if (len > SIZE_MAX / 2)
            return vks__gltfr_fail(d, VKS_ERR_LIMIT, path, "image of %llu bytes", (unsigned long long)len);
        r = keep_bytes(d, skin, im, bytes, (size_t)len, path);
    } else if (!strncmp(uri->valuestring, "data:", 5)) {
        r = data_uri_image(d, skin, im, uri->valuestring, path, mime, sizeof mime);
    } else {
        im->uri = vks_skin_strndup(skin, uri->valuestring, strlen(uri->valuestring));
        r = im->uri ? VKS_OK : vks__gltfr_nomem(d, path);
    }
    if (r != VKS_OK)
        return r;
    const char *mt = member(o, "mimeType") ? string_member(o, "mimeType") : mime;
    const char *name = string_member(o, "name");
    im->mime_type = vks_skin_strndup(skin, mt, strlen(mt));
    im->name = vks_skin_strndup(skin, name, strlen(name));
    return im->mime_type && im->name ? VKS_OK : vks__gltfr_nomem(d, path);
}

static vks_result read_images(gltf_doc *d, vks_skin *skin)
{
    const cJSON *arr;
    uint32_t n;
    vks_result r = top_array(d, "images", &arr, &n);
    if (r != VKS_OK || !n)
        return r;
    skin->images = vks_skin_alloc_array(skin, n, sizeof *skin->images);
    if (!skin->images)
        return vks__gltfr_nomem(d, "images");
    uint32_t i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++)
        if ((r = read_image(d, skin, o, i, &skin->images[i])) != VKS_OK)
            return r;
    skin->image_count = n;
    return VKS_OK;
}

/* textures[t] as (image, sampler): -1 where the texture has none (an extension's source). */
typedef struct texture_ref {
    int32_t image, sampler;
} texture_ref;

static vks_result read_textures(gltf_doc *d, vks_skin *skin, texture_ref **out, uint32_t *count)
{
    const cJSON *arr;
    vks_result r = top_array(d, "textures", &arr, count);
    if (r != VKS_OK)
        return r;
    texture_ref *t = vks__gltfr_alloc(d, *count, sizeof *t);
    if (!t)
        return vks__gltfr_nomem(d, "textures");
    uint32_t i = 0;
    for (const cJSON *o = arr ? arr->child : NULL; o; o = o->next, i++) {
        char path[32];
        snprintf(path, sizeof path, "textures[%u]", i);
        t[i].image = t[i].sampler = -1;
        if ((r = vks__gltfr_get_index(d, o, path, "source", 0, skin->image_count, "images", &t[i].image)) != VKS_OK ||
            (r = vks__gltfr_get_index(d, o, path, "sampler", 0, skin->sampler_count, "samplers", &t[i].sampler)) !=
                VKS_OK)
            return r;
    }
    *out = t;
    return VKS_OK;
}

static vks_result read_material(gltf_doc *d, vks_skin *skin, const cJSON *o, uint32_t i, const texture_ref *tex,
                                uint32_t tex_count, vks_material *m)
{
    char path[64];
    snprintf(path, sizeof path, "materials[%u]", i);
    *m = vks_material_default();
    const char *name = string_member(o, "name");
    m->name = vks_skin_strndup(skin, name, strlen(name));
    if (!m->name)
        return vks__gltfr_nomem(d, path);
    const cJSON *pbr = member(o, "pbrMetallicRoughness");
    if (!pbr)
        return VKS_OK;
    snprintf(path, sizeof path, "materials[%u].pbrMetallicRoughness", i);
    if (!cJSON_IsObject(pbr))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be an object");
    vks_result r = vks__gltfr_get_floats(d, pbr, path, "baseColorFactor", 4, m->base_color);
    if (r != VKS_OK)
        return r;
    const cJSON *bt = member(pbr, "baseColorTexture");
    if (!bt)
        return VKS_OK;
    snprintf(path, sizeof path, "materials[%u].pbrMetallicRoughness.baseColorTexture", i);
    if (!cJSON_IsObject(bt))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be an object");
    int32_t t = -1;
    uint64_t set = 0;
    if ((r = vks__gltfr_get_index(d, bt, path, "index", 1, tex_count, "textures", &t)) != VKS_OK ||
        (r = vks__gltfr_get_uint(d, bt, path, "texCoord", 0, VKS_MAX_UV_SETS - 1, &set)) != VKS_OK)
        return r;
    m->base_image = tex[t].image;
    m->base_sampler = tex[t].sampler;
    m->base_uv_set = (uint32_t)set;
    if (m->base_image >= 0) { /* the texture's name: the image's URI, else its name */
        const vks_image *im = &skin->images[m->base_image];
        m->base_texture = im->uri[0] ? im->uri : im->name;
    }
    return VKS_OK;
}

vks_result vks__gltfr_materials(gltf_doc *d, vks_skin *skin)
{
    texture_ref *tex = NULL;
    uint32_t tex_count = 0, n = 0;
    const cJSON *arr;
    vks_result r = read_samplers(d, skin);
    if (r == VKS_OK)
        r = read_images(d, skin);
    if (r == VKS_OK)
        r = read_textures(d, skin, &tex, &tex_count);
    if (r == VKS_OK)
        r = top_array(d, "materials", &arr, &n);
    if (r != VKS_OK || !n)
        return r;
    skin->materials = vks_skin_alloc_array(skin, n, sizeof *skin->materials);
    if (!skin->materials)
        return vks__gltfr_nomem(d, "materials");
    uint32_t i = 0;
    for (const cJSON *o = arr->child; o; o = o->next, i++)
        if ((r = read_material(d, skin, o, i, tex, tex_count, &skin->materials[i])) != VKS_OK)
            return r;
    skin->material_count = n;
    return VKS_OK;
}

vks_result vks__gltfr_texcoords(gltf_doc *d, const char *ppath, const cJSON *attrs, uint32_t vcount,
                                float (*uv[VKS_MAX_UV_SETS])[2], uint32_t *sets)
{
    *sets = 0;
    for (uint32_t k = 0; k < VKS_MAX_UV_SETS; k++) {
        char name[16], path[192];
        snprintf(name, sizeof name, "TEXCOORD_%u", k);
        snprintf(path, sizeof path, "%s.attributes", ppath);
        int32_t acc = -1;
        vks_result r = vks__gltfr_get_index(d, attrs, path, name, 0, d->accessor_count, "accessors", &acc);
        if (r != VKS_OK)
            return r;
        if (acc < 0)
            return VKS_OK; /* sets are numbered without gaps */
        snprintf(path, sizeof path, "%s.attributes.%s", ppath, name);
        /* the specification: float, or normalized unsigned byte or short */
        gltf_accessor_want w = {"VEC2", GLTF_BIT(GLTF_FLOAT) | GLTF_BIT(GLTF_UNSIGNED_BYTE) | GLTF_BIT(GLTF_UNSIGNED_SHORT),
                                1, 0, 1};
        if (d->quantized) /* KHR_mesh_quantization adds signed and unnormalized integers */
            w.types |= GLTF_BIT(GLTF_BYTE) | GLTF_BIT(GLTF_SHORT), w.normalized = -1;
        gltf_values info;
        float *f = NULL;
        if ((r = vks__gltfr_accessor_floats(d, acc, path, &w, &info, &f)) != VKS_OK)
            return r;
        if (info.count != vcount)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "accessor %d has %u elements, POSITION %u", acc, info.count,
                                   vcount);
        uv[k] = (float(*)[2])f;
        *sets = k + 1;
    }
    return VKS_OK;
}
