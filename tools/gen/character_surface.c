/* The generated character's surface (character.h, "Surface"): one UV set projected from the
 * bind pose and a material per region slot with a base colour and a texture name. Only
 * + - * / and sqrt, so the UVs are the same bits on every machine. */
#if defined(__clang__) /* gcc in ISO C mode (-std=c11) already contracts nothing */
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "character_internal.h"

void vks__gen_uvs(const float (*pos)[3], uint32_t n, float (*uv)[2])
{
    if (!n)
        return;
    double lo[3], hi[3];
    for (int c = 0; c < 3; c++)
        lo[c] = hi[c] = pos[0][c];
    for (uint32_t v = 1; v < n; v++)
        for (int c = 0; c < 3; c++) {
            if (pos[v][c] < lo[c])
                lo[c] = pos[v][c];
            if (pos[v][c] > hi[c])
                hi[c] = pos[v][c];
        }
    /* the vertical axis through the middle of the bounds; u mirrors left and right so that
       the projection has no seam (a wrapping u would need split vertices along the back) */
    const double cx = 0.5 * (lo[0] + hi[0]), cz = 0.5 * (lo[2] + hi[2]);
    const double height = hi[1] > lo[1] ? hi[1] - lo[1] : 1.0;
    for (uint32_t v = 0; v < n; v++) {
        double x = pos[v][0] - cx, z = pos[v][2] - cz, r = sqrt(x * x + z * z);
        double cos_a = r > 0 ? z / r : 1.0;
        uv[v][0] = (float)(0.5 * (1.0 - cos_a));
        uv[v][1] = (float)((hi[1] - pos[v][1]) / height);
    }
}

/* Base colours by material slot (linear RGBA): skin, shirt, trousers, shoes, then accents. */
static const float slot_colour[8][4] = {
    {0.80f, 0.56f, 0.44f, 1.0f}, {0.20f, 0.35f, 0.60f, 1.0f}, {0.25f, 0.22f, 0.20f, 1.0f},
    {0.10f, 0.08f, 0.07f, 1.0f}, {0.60f, 0.15f, 0.12f, 1.0f}, {0.30f, 0.50f, 0.25f, 1.0f},
    {0.85f, 0.75f, 0.30f, 1.0f}, {0.50f, 0.50f, 0.50f, 1.0f},
};

int vks__gen_materials(vks_skin *s, uint32_t count, const char *texture, const char *suffix)
{
    s->materials = vks_skin_alloc_array(s, count, sizeof *s->materials);
    const char *tex = vks_skin_strndup(s, texture, strlen(texture));
    if (!s->materials || !tex)
        return 0;
    s->material_count = count;
    for (uint32_t m = 0; m < count; m++) {
        char name[64];
        int len = snprintf(name, sizeof name, "char_skin_%u%.32s", m, suffix);
        vks_material *mat = &s->materials[m];
        *mat = vks_material_default();
        mat->name = vks_skin_strndup(s, name, (size_t)len);
        if (!mat->name)
            return 0;
        memcpy(mat->base_color, slot_colour[m % 8], sizeof mat->base_color);
        mat->base_texture = tex;
    }
    for (uint32_t i = 0; i < s->mesh_count; i++) /* every mesh (split parts too) shares them */
        s->meshes[i].first_material = 0, s->meshes[i].material_count = count;
    return 1;
}
