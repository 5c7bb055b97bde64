/* The builder on real-sized input: generated characters under palette limits 5..40 against
 * the same character in one group (limit 0, where model vertex i is file vertex i). Every
 * group stays under the limit, every triangle stays inside one group, every duplicated vertex
 * maps back to its file vertex with the same position, normal, bones and weights, and the
 * triangles are the same. Also builds 100k vertices under a limit of 20. */
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "testutil.h"

static int cmp_tri(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

static void compare(const vks_skin *one, const vks_skin *s, uint32_t limit)
{
    vks_error err = {0};
    CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
    CHECK_EQ_INT(s->meshes[0].source_vertex_count, one->vertex_count);
    CHECK(s->vertex_count >= one->vertex_count);
    uint8_t *seen = calloc(one->vertex_count, 1);
    uint32_t bad = 0;
    for (uint32_t gi = 0; gi < s->group_count; gi++) {
        const vks_group *g = &s->groups[gi];
        CHECK(g->palette_count <= limit);
        for (uint32_t t = g->first_triangle; t < g->first_triangle + g->triangle_count; t++)
            for (int k = 0; k < 3; k++)
                bad += s->triangles[t][k] < g->first_vertex || s->triangles[t][k] >= g->first_vertex + g->vertex_count;
        for (uint32_t v = g->first_vertex; v < g->first_vertex + g->vertex_count; v++) {
            uint32_t sv = s->source_vertex[v];
            if (sv >= one->vertex_count) {
                bad++;
                continue;
            }
            seen[sv] = 1;
            bad += memcmp(s->positions[v], one->positions[sv], 12) != 0;
            bad += memcmp(s->normals[v], one->normals[sv], 12) != 0;
            for (int k = 0; k < 4; k++) {
                bad += s->influences[v].weight[k] != one->influences[sv].weight[k];
                if (one->influences[sv].weight[k] > 0)
                    bad += s->palette[g->first_palette + s->influences[v].index[k]] !=
                           one->palette[one->influences[sv].index[k]];
            }
        }
    }
    for (uint32_t v = 0; v < one->vertex_count; v++)
        bad += !seen[v];
    CHECK_EQ_INT(bad, 0);
    free(seen);

    CHECK_EQ_INT(s->triangle_count, one->triangle_count);
    uint32_t n = one->triangle_count;
    uint32_t(*a)[3] = malloc(n * sizeof *a), (*b)[3] = malloc(n * sizeof *b);
    for (uint32_t t = 0; t < n; t++)
        for (int k = 0; k < 3; k++) {
            a[t][k] = s->source_vertex[s->triangles[t][k]];
            b[t][k] = one->triangles[t][k];
        }
    qsort(a, n, sizeof *a, cmp_tri);
    qsort(b, n, sizeof *b, cmp_tri);
    CHECK(!memcmp(a, b, n * sizeof *a));
    free(a);
    free(b);

    vks_bind_check bc;
    CHECK_EQ_INT(vks_cpu_bind_check(s, &bc, &err), VKS_OK);
    CHECK(bc.max_error_relative <= 1e-5);
}

int main(void)
{
    static const uint32_t limits[] = {5, 6, 8, 12, 20, 40};
    static const uint32_t bone_counts[] = {24, 48, 64};
    for (size_t bi = 0; bi < 3; bi++) {
        vks_error err = {0};
        vks_gen_params p = {.bones = bone_counts[bi], .vertices = 3000, .seed = 11 + bi};
        vks_skin *one = vks_gen_character(&p, &err);
        CHECK(one && one->group_count == 1);
        if (!one)
            continue;
        for (size_t li = 0; li < sizeof limits / sizeof *limits; li++) {
            p.palette_limit = limits[li];
            err = (vks_error){0};
            vks_skin *s = vks_gen_character(&p, &err);
            CHECK(s != NULL);
            if (!s) {
                fprintf(stderr, "  bones %u limit %u: %s\n", p.bones, p.palette_limit, err.msg);
                continue;
            }
            compare(one, s, limits[li]);
            printf("bones %u limit %2u: %2u groups, %u vertices from %u\n", p.bones, limits[li], s->group_count,
                   s->vertex_count, one->vertex_count);
            vks_skin_free(s);
        }
        vks_skin_free(one);
    }

    /* a benchmark-sized character builds and validates (speed belongs to vkskin bench) */
    vks_error err = {0};
    vks_skin *big = vks_gen_character(&(vks_gen_params){.bones = 64, .vertices = 100000, .palette_limit = 20}, &err);
    CHECK(big != NULL);
    if (big) {
        CHECK(vks_skin_validate(big, &err) == VKS_OK);
        printf("100k vertices, limit 20: %u groups, %u vertices\n", big->group_count, big->vertex_count);
    }
    vks_skin_free(big);
    return vks_test_finish("test_build_character");
}
