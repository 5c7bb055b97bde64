/* The skin model's ownership: one arena of blocks over the model's allocator, so a reader can
 * allocate as it parses and a single vks_skin_free releases everything, on success or failure. */
#include "vkskin/skin.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct vks_arena_block {
    struct vks_arena_block *next;
    size_t size, used;
    max_align_t data[]; /* keeps every allocation aligned for any type */
} vks_arena_block;

struct vks_skin_arena {
    vks_arena_block *head;
};

static void *default_alloc(void *user, size_t size)
{
    (void)user;
    return malloc(size);
}
static void default_free(void *user, void *ptr)
{
    (void)user;
    free(ptr);
}

vks_allocator vks_allocator_or_default(const vks_allocator *allocator)
{
    vks_allocator a = allocator ? *allocator : (vks_allocator){0};
    if (!a.alloc || !a.free) {
        a.alloc = default_alloc;
        a.free = default_free;
        a.user = NULL;
    }
    return a;
}

vks_skin *vks_skin_create(const vks_allocator *allocator)
{
    vks_allocator a = vks_allocator_or_default(allocator);
    vks_skin *s = a.alloc(a.user, sizeof *s);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->allocator = a;
    s->arena = a.alloc(a.user, sizeof *s->arena);
    if (!s->arena) {
        a.free(a.user, s);
        return NULL;
    }
    s->arena->head = NULL;
    s->format = "";
    s->format_detail = "";
    return s;
}

void vks_skin_free(vks_skin *skin)
{
    if (!skin)
        return;
    vks_allocator a = skin->allocator;
    if (skin->arena) {
        vks_arena_block *b = skin->arena->head;
        while (b) {
            vks_arena_block *next = b->next;
            a.free(a.user, b);
            b = next;
        }
        a.free(a.user, skin->arena);
    }
    a.free(a.user, skin);
}

void *vks_skin_alloc(vks_skin *skin, size_t size)
{
    const size_t align = sizeof(max_align_t);
    if (!skin || size > SIZE_MAX / 2)
        return NULL;
    size_t need = (size + align - 1) / align * align;
    if (need == 0)
        need = align;
    vks_arena_block *b = skin->arena->head;
    if (!b || b->size - b->used < need) {
        /* Small requests share 64 KiB blocks; large ones get a block of their own. */
        size_t cap = need > 65536 ? need : 65536;
        if (cap > SIZE_MAX - sizeof *b)
            return NULL;
        vks_arena_block *nb = skin->allocator.alloc(skin->allocator.user, sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->size = cap;
        nb->used = 0;
        if (b && need > 65536) {
            /* keep the partly used block at the head for later small requests */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            skin->arena->head = nb;
        }
        b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    memset(p, 0, size);
    return p;
}

void *vks_skin_alloc_array(vks_skin *skin, size_t count, size_t elem)
{
    if (elem && count > SIZE_MAX / 2 / elem)
        return NULL;
    return vks_skin_alloc(skin, count * elem);
}

const char *vks_skin_strndup(vks_skin *skin, const char *s, size_t len)
{
    char *p = vks_skin_alloc(skin, len + 1);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, s, len);
    p[len] = 0;
    return p;
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
