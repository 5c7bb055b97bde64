/* vkskin inspect: what a character is painted with, as the model keeps it (skin.h): UV sets
 * with the range each covers (a set outside 0..1 tiles or was flipped), materials with their
 * base colour and base-colour texture, images (embedded bytes or a reference) and samplers. */
#include "inspect/surface.h"
#include "core/text_name.h"

#include <float.h>

/* The smallest and largest u and v of set k. */
static void uv_range(const vks_skin *s, uint32_t k, float lo[2], float hi[2])
{
    lo[0] = lo[1] = FLT_MAX, hi[0] = hi[1] = -FLT_MAX;
    for (uint32_t v = 0; v < s->vertex_count; v++)
        for (int c = 0; c < 2; c++) {
            float x = s->uv[k][v][c];
            lo[c] = x < lo[c] ? x : lo[c];
            hi[c] = x > hi[c] ? x : hi[c];
        }
    if (!s->vertex_count)
        lo[0] = lo[1] = hi[0] = hi[1] = 0;
}

void vks__mesh_surface_text(FILE *f, const vks_skin *s, uint32_t m)
{
    const vks_mesh *me = &s->meshes[m];
    if (!me->uv_set_count && !me->material_count)
        return;
    fprintf(f, "    %u UV set%s", me->uv_set_count, me->uv_set_count == 1 ? "" : "s");
    if (me->material_count == 1)
        fprintf(f, ", material %u\n", me->first_material);
    else if (me->material_count)
        fprintf(f, ", materials %u..%u\n", me->first_material, me->first_material + me->material_count - 1);
    else
        fprintf(f, ", no materials\n");
}

void vks__surface_text(FILE *f, const vks_skin *s)
{
    fprintf(f, "  UV sets: %u\n", s->uv_set_count);
    for (uint32_t k = 0; k < s->uv_set_count; k++) {
        float lo[2], hi[2];
        uv_range(s, k, lo, hi);
        fprintf(f, "    [%u] u %.4g..%.4g, v %.4g..%.4g\n", k, lo[0], hi[0], lo[1], hi[1]);
    }
    fprintf(f, "  materials: %u\n", s->material_count);
    char a[VKS__NAME_MAX], b[VKS__NAME_MAX]; /* names as data: escaped (cli_text.h) */
    for (uint32_t i = 0; i < s->material_count; i++) {
        const vks_material *m = &s->materials[i];
        fprintf(f, "    [%u] \"%s\": base colour (%.4g, %.4g, %.4g, %.4g)", i, vks__text_name(m->name, a, sizeof a),
                m->base_color[0], m->base_color[1], m->base_color[2], m->base_color[3]);
        if (m->base_texture[0] || m->base_image >= 0)
            fprintf(f, ", texture");
        if (m->base_texture[0])
            fprintf(f, " \"%s\"", vks__text_name(m->base_texture, a, sizeof a));
        if (m->base_image >= 0)
            fprintf(f, " image %d", m->base_image);
        if (m->base_image >= 0 && m->base_sampler >= 0)
            fprintf(f, ", sampler %d", m->base_sampler);
        if (m->base_texture[0] || m->base_image >= 0)
            fprintf(f, " on UV set %u", m->base_uv_set);
        fputc('\n', f);
    }
    if (s->image_count)
        fprintf(f, "  images: %u\n", s->image_count);
    for (uint32_t i = 0; i < s->image_count; i++) {
        const vks_image *im = &s->images[i];
        fprintf(f, "    [%u] \"%s\" %s", i, vks__text_name(im->name, a, sizeof a),
                im->mime_type[0] ? vks__text_name(im->mime_type, b, sizeof b) : "(type not given)");
        if (im->data)
            fprintf(f, ", %zu bytes embedded\n", im->size);
        else
            fprintf(f, ", referenced as \"%s\"\n", vks__text_name(im->uri, a, sizeof a));
    }
    if (s->sampler_count)
        fprintf(f, "  samplers: %u\n", s->sampler_count);
    for (uint32_t i = 0; i < s->sampler_count; i++) {
        const vks_sampler *sa = &s->samplers[i];
        fprintf(f, "    [%u] mag %u, min %u, wrap %u %u (0: not given)\n", i, sa->mag_filter, sa->min_filter,
                sa->wrap_s, sa->wrap_t);
    }
}

void vks__mesh_surface_json(cJSON *jm, const vks_skin *s, uint32_t m)
{
    const vks_mesh *me = &s->meshes[m];
    cJSON_AddNumberToObject(jm, "uv_sets", me->uv_set_count);
    cJSON *mats = cJSON_AddArrayToObject(jm, "materials");
    for (uint32_t i = 0; i < me->material_count; i++)
        cJSON_AddItemToArray(mats, cJSON_CreateNumber(me->first_material + i));
}

void vks__surface_json(cJSON *o, const vks_skin *s)
{
    cJSON *uvs = cJSON_AddArrayToObject(o, "uv_sets");
    for (uint32_t k = 0; k < s->uv_set_count; k++) {
        float lo[2], hi[2];
        uv_range(s, k, lo, hi);
        cJSON *u = cJSON_CreateObject();
        cJSON_AddNumberToObject(u, "set", k);
        cJSON_AddItemToObject(u, "min", cJSON_CreateFloatArray(lo, 2));
        cJSON_AddItemToObject(u, "max", cJSON_CreateFloatArray(hi, 2));
        cJSON_AddItemToArray(uvs, u);
    }
    cJSON *mats = cJSON_AddArrayToObject(o, "materials");
    for (uint32_t i = 0; i < s->material_count; i++) {
        const vks_material *m = &s->materials[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", m->name);
        cJSON_AddItemToObject(j, "base_color", cJSON_CreateFloatArray(m->base_color, 4));
        cJSON_AddStringToObject(j, "base_texture", m->base_texture);
        cJSON_AddNumberToObject(j, "image", m->base_image);
        cJSON_AddNumberToObject(j, "sampler", m->base_sampler);
        cJSON_AddNumberToObject(j, "uv_set", m->base_uv_set);
        cJSON_AddItemToArray(mats, j);
    }
    cJSON *ims = cJSON_AddArrayToObject(o, "images");
    for (uint32_t i = 0; i < s->image_count; i++) {
        const vks_image *im = &s->images[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "name", im->name);
        cJSON_AddStringToObject(j, "uri", im->uri);
        cJSON_AddStringToObject(j, "mime_type", im->mime_type);
        cJSON_AddBoolToObject(j, "embedded", im->data != NULL);
        cJSON_AddNumberToObject(j, "bytes", (double)im->size);
        cJSON_AddItemToArray(ims, j);
    }
    cJSON *sams = cJSON_AddArrayToObject(o, "samplers");
    for (uint32_t i = 0; i < s->sampler_count; i++) {
        const vks_sampler *sa = &s->samplers[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddNumberToObject(j, "mag_filter", sa->mag_filter);
        cJSON_AddNumberToObject(j, "min_filter", sa->min_filter);
        cJSON_AddNumberToObject(j, "wrap_s", sa->wrap_s);
        cJSON_AddNumberToObject(j, "wrap_t", sa->wrap_t);
        cJSON_AddItemToArray(sams, j);
    }
}
