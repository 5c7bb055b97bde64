/* The skin's materials as glTF materials (gltf_internal.h, gltf.h): base colour and
 * base-colour texture, with the textures, images and samplers they use, and TEXCOORD_n.
 *
 * glTF core holds PNG and JPEG images only, embedded or by URI. An image of another kind, and
 * a texture the source names without an image (RenderWare, NIF, NW4C and P3D name a .tga, a
 * .dds, an .paa or a texture dictionary entry), stays named in the material's
 * extras.vkskin.base_texture: a viewer shows the base colour, a pipeline finds the name. The
 * CLI warns for each (vks_gltf_material_texture). Materials carry metallicFactor 0: the skin
 * model keeps no metal, and glTF's default (1) would draw every character as bare metal. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[n - k + i]) != suffix[i])
            return 0;
    return 1;
}

/* The media type of a name glTF core can reference by URI, else NULL. */
static const char *uri_mime(const char *name)
{
    if (!name[0] || strchr(name, ':') || strchr(name, '\\') || name[0] == '/')
        return NULL; /* absolute, a drive letter or a Windows path: not a relative URI */
    for (const char *p = name; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == '%' || *p == '#' || *p == '?' || (unsigned char)*p >= 0x7f)
            return NULL; /* would need percent-encoding: kept by name instead */
    if (ends_with(name, ".png"))
        return "image/png";
    if (ends_with(name, ".jpg") || ends_with(name, ".jpeg"))
        return "image/jpeg";
    return NULL;
}

/* The media type of an image glTF core can hold, from its bytes (their signature first: a
 * stated type can be wrong) or its URI; NULL when it cannot. */
static const char *image_mime(const vks_image *im)
{
    if (im->data) {
        if (im->size >= 8 && !memcmp(im->data, "\x89PNG\r\n\x1a\n", 8))
            return "image/png";
        if (im->size >= 3 && im->data[0] == 0xff && im->data[1] == 0xd8 && im->data[2] == 0xff)
            return "image/jpeg";
        return NULL;
    }
    return uri_mime(im->uri);
}

/* Whether every mesh that uses material i has the UV set its texture reads. */
static int uv_set_present(const vks_skin *s, uint32_t i, uint32_t set)
{
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        if (i >= me->first_material && i < me->first_material + me->material_count && set >= me->uv_set_count)
            return 0;
    }
    return 1;
}

vks_gltf_texture_kept vks_gltf_material_texture(const vks_skin *s, uint32_t i, char *name, size_t cap)
{
    if (name && cap)
        name[0] = 0;
    if (i >= s->material_count)
        return VKS_GLTF_TEXTURE_NONE;
    const vks_material *m = &s->materials[i];
    if (m->base_image < 0 && !m->base_texture[0])
        return VKS_GLTF_TEXTURE_NONE;
    if (name && cap && m->base_texture[0])
        snprintf(name, cap, "%s", m->base_texture);
    else if (name && cap) { /* an embedded image without a name */
        const vks_image *im = &s->images[m->base_image];
        snprintf(name, cap, "image %d (%.40s)", m->base_image, im->mime_type[0] ? im->mime_type : "type unknown");
    }
    int holds = m->base_image >= 0 ? image_mime(&s->images[m->base_image]) != NULL : uri_mime(m->base_texture) != NULL;
    return holds && uv_set_present(s, i, m->base_uv_set) ? VKS_GLTF_TEXTURE_IMAGE : VKS_GLTF_TEXTURE_BY_NAME;
}

static int32_t write_sampler(vks__gltf *g, const vks_skin *s, int32_t i, int32_t *done)
{
    if (i < 0 || (uint32_t)i >= s->sampler_count)
        return -1;
    if (done[i] >= 0)
        return done[i];
    const vks_sampler *sa = &s->samplers[i];
    cJSON *o = cJSON_CreateObject();
    if (o && sa->mag_filter)
        cJSON_AddNumberToObject(o, "magFilter", sa->mag_filter);
    if (o && sa->min_filter)
        cJSON_AddNumberToObject(o, "minFilter", sa->min_filter);
    if (o && sa->wrap_s)
        cJSON_AddNumberToObject(o, "wrapS", sa->wrap_s);
    if (o && sa->wrap_t)
        cJSON_AddNumberToObject(o, "wrapT", sa->wrap_t);
    return done[i] = (int32_t)vks__gltf_push(g, g->samplers, o);
}

/* The image of material i (its own, or its texture name as a URI); done caches the former. */
static int32_t write_image(vks__gltf *g, const vks_skin *s, const vks_material *m, int32_t *done)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) {
        g->failed = 1;
        return 0;
    }
    if (m->base_image < 0) {
        cJSON_AddStringToObject(o, "uri", m->base_texture);
        return (int32_t)vks__gltf_push(g, g->images, o);
    }
    if (done[m->base_image] >= 0) {
        cJSON_Delete(o);
        return done[m->base_image];
    }
    const vks_image *im = &s->images[m->base_image];
    if (im->name[0])
        cJSON_AddStringToObject(o, "name", im->name);
    if (im->data) {
        cJSON_AddNumberToObject(o, "bufferView", vks__gltf_bytes(g, im->data, im->size));
        cJSON_AddStringToObject(o, "mimeType", image_mime(im));
    } else {
        cJSON_AddStringToObject(o, "uri", im->uri);
    }
    return done[m->base_image] = (int32_t)vks__gltf_push(g, g->images, o);
}

void vks__gltf_materials(vks__gltf *g, const vks_skin *s)
{
    vks__gltf_materials_shifted(g, s, UINT32_MAX);
}

void vks__gltf_materials_shifted(vks__gltf *g, const vks_skin *s, uint32_t shift_from)
{
    int32_t *image_done = malloc(((size_t)s->image_count + 1) * sizeof *image_done);
    int32_t *sampler_done = malloc(((size_t)s->sampler_count + 1) * sizeof *sampler_done);
    if (!image_done || !sampler_done) {
        free(image_done), free(sampler_done);
        g->failed = 1;
        return;
    }
    for (uint32_t i = 0; i < s->image_count; i++)
        image_done[i] = -1;
    for (uint32_t i = 0; i < s->sampler_count; i++)
        sampler_done[i] = -1;
    for (uint32_t i = 0; i < s->material_count; i++) {
        const vks_material *m = &s->materials[i];
        cJSON *o = cJSON_CreateObject(), *pbr = o ? cJSON_AddObjectToObject(o, "pbrMetallicRoughness") : NULL;
        if (!pbr) {
            cJSON_Delete(o);
            g->failed = 1;
            break;
        }
        if (m->name[0])
            cJSON_AddStringToObject(o, "name", m->name);
        float c[4];
        int white = 1;
        for (int k = 0; k < 4; k++) { /* the schema: 0..1 */
            c[k] = m->base_color[k] < 0 ? 0.0f : m->base_color[k] > 1 ? 1.0f : m->base_color[k];
            white &= c[k] == 1.0f;
        }
        if (!white)
            cJSON_AddItemToObject(pbr, "baseColorFactor", vks__gltf_numbers(c, 4));
        cJSON_AddNumberToObject(pbr, "metallicFactor", 0);
        char name[512];
        vks_gltf_texture_kept kept = vks_gltf_material_texture(s, i, name, sizeof name);
        if (kept == VKS_GLTF_TEXTURE_IMAGE) {
            cJSON *t = cJSON_CreateObject();
            if (t) {
                cJSON_AddNumberToObject(t, "source", write_image(g, s, m, image_done));
                int32_t sampler = write_sampler(g, s, m->base_sampler, sampler_done);
                if (sampler >= 0)
                    cJSON_AddNumberToObject(t, "sampler", sampler);
            }
            cJSON *ref = cJSON_AddObjectToObject(pbr, "baseColorTexture");
            if (ref) {
                cJSON_AddNumberToObject(ref, "index", vks__gltf_push(g, g->textures, t));
                uint32_t set = m->base_uv_set + (m->base_uv_set >= shift_from);
                if (set)
                    cJSON_AddNumberToObject(ref, "texCoord", set);
            } else {
                cJSON_Delete(t);
                g->failed = 1;
            }
        } else if (kept == VKS_GLTF_TEXTURE_BY_NAME) {
            cJSON *ex = cJSON_AddObjectToObject(o, "extras"), *vk = ex ? cJSON_AddObjectToObject(ex, "vkskin") : NULL;
            if (!vk || !cJSON_AddStringToObject(vk, "base_texture", name) ||
                !cJSON_AddNumberToObject(vk, "base_uv_set", m->base_uv_set))
                g->failed = 1;
        }
        vks__gltf_push(g, g->materials, o);
    }
    free(image_done), free(sampler_done);
}

void vks__gltf_texcoords(vks__gltf *g, cJSON *attr, const vks_skin *s, const uint32_t *file_to_model, uint32_t nv,
                         uint32_t first, uint32_t count, uint32_t at)
{
    float (*uv)[2] = malloc(((size_t)nv + 1) * sizeof *uv);
    if (!uv) {
        g->failed = 1;
        return;
    }
    for (uint32_t k = 0; k < count && first + k < s->uv_set_count; k++) {
        for (uint32_t j = 0; j < nv; j++) {
            uint32_t v = file_to_model ? file_to_model[j] : j;
            uv[j][0] = v == UINT32_MAX ? 0.0f : s->uv[first + k][v][0];
            uv[j][1] = v == UINT32_MAX ? 0.0f : s->uv[first + k][v][1];
        }
        char name[16];
        snprintf(name, sizeof name, "TEXCOORD_%u", at + k);
        if (!cJSON_AddNumberToObject(attr, name, vks__gltf_floats(g, &uv[0][0], nv, 2, VKS__GL_ARRAY_BUFFER, 0)))
            g->failed = 1;
    }
    free(uv);
}
