/* The skin model's ownership: one arena of blocks over the model's allocator, so a reader can
 * allocate as it parses and a single vks_skin_free releases everything, on success or failure. */
#include "vkskin/skin.h"

#include "arena.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

vks_skin *vks_skin_create(const vks_allocator *allocator)
{
    vks_allocator a;
    vks_skin_arena *arena;
    vks_skin *s = vks__arena_owner_create(allocator, sizeof *s, &a, &arena);
    if (!s)
        return NULL;
    s->allocator = a;
    s->arena = arena;
    s->format = "";
    s->format_detail = "";
    return s;
}

void vks_skin_free(vks_skin *skin)
{
    if (skin)
        vks__arena_owner_free(skin, &skin->allocator, skin->arena);
}

void *vks_skin_alloc(vks_skin *skin, size_t size)
{
    return skin ? vks__arena_alloc(skin->arena, &skin->allocator, size) : NULL;
}

void *vks_skin_alloc_array(vks_skin *skin, size_t count, size_t elem)
{
    return vks__arena_alloc_array(skin->arena, &skin->allocator, count, elem);
}

const char *vks_skin_strndup(vks_skin *skin, const char *s, size_t len)
{
    return vks__arena_strndup(skin->arena, &skin->allocator, s, len);
}

const vks_material *vks_skin_triangle_material(const vks_skin *skin, uint32_t m, uint32_t t)
{
    if (m >= skin->mesh_count)
        return NULL;
    const vks_mesh *me = &skin->meshes[m];
    uint32_t local = skin->triangle_material && t < skin->triangle_count ? skin->triangle_material[t] : 0;
    if (!skin->materials || local >= me->material_count)
        return NULL;
    return &skin->materials[me->first_material + local];
}

vks_material vks_material_default(void)
{
    vks_material m = {"", {1, 1, 1, 1}, "", -1, -1, 0};
    return m;
}

int32_t vks_skin_find_node(const vks_skin *skin, const char *name)
{
    for (uint32_t i = 0; i < skin->node_count; i++)
        if (strcmp(skin->nodes[i].name, name) == 0)
            return (int32_t)i;
    for (uint32_t i = 0; i < skin->node_count; i++) {
        const char *a = skin->nodes[i].name, *b = name;
        while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
            a++, b++;
        if (*a == 0 && *b == 0)
            return (int32_t)i;
    }
    return -1;
}

double vks_skin_bounding_radius(const vks_skin *skin)
{
    double r = 0;
    for (uint32_t v = 0; v < skin->vertex_count; v++) {
        const float *p = skin->positions[v];
        double d = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2]);
        if (d > r)
            r = d;
    }
    return r > 1e-6 ? r : 1e-6;
}

void vks_skin_stats_compute(const vks_skin *skin, vks_skin_stats *out)
{
    memset(out, 0, sizeof *out);
    out->min_weight_sum = skin->vertex_count ? 1e300 : 0;
    for (uint32_t v = 0; v < skin->vertex_count; v++) {
        const vks_influence *in = &skin->influences[v];
        unsigned used = 0;
        double sum = 0;
        for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
            if (in->weight[k] > 0) {
                used++;
                sum += in->weight[k];
            }
        out->influence_histogram[used]++;
        if (fabs(sum - 1.0) > 1e-3)
            out->weight_sum_off++;
        if (sum < out->min_weight_sum)
            out->min_weight_sum = sum;
        if (sum > out->max_weight_sum)
            out->max_weight_sum = sum;
    }
    for (uint32_t g = 0; g < skin->group_count; g++)
        if (skin->groups[g].palette_count > out->max_palette)
            out->max_palette = skin->groups[g].palette_count;
}

uint32_t vks_skin_vertices_over(const vks_skin *skin, uint32_t k)
{
    uint32_t n = 0;
    for (uint32_t v = 0; skin && skin->influences && v < skin->vertex_count; v++) {
        uint32_t used = 0;
        for (int s = 0; s < VKS_MAX_INFLUENCES; s++)
            used += skin->influences[v].weight[s] > 0;
        n += used > k;
    }
    return n;
}
