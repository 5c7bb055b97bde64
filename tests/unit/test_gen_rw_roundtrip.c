/* Generated characters through vks_rw_write + vks_rw_read: the skeleton (names, parents, bind
 * locals), every vertex (matched by its exact position bits) with the same bones (by node)
 * and weights, the same triangles, groups under the same palette limit, and the bind-pose
 * check of the model read back. */
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "testutil.h"

typedef struct key {
    uint32_t bits[3];
    uint32_t index;
} key;

static int cmp_key(const void *a, const void *b)
{
    const key *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x->bits[k] != y->bits[k])
            return x->bits[k] < y->bits[k] ? -1 : 1;
    return 0;
}

static key *sorted_keys(const vks_skin *s)
{
    key *k = malloc((s->vertex_count + 1) * sizeof *k);
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        memcpy(k[v].bits, s->positions[v], 12);
        k[v].index = v;
    }
    qsort(k, s->vertex_count, sizeof *k, cmp_key);
    return k;
}

/* The generated vertex at the same position (any duplicate: they share the source vertex). */
static int64_t find(const key *keys, uint32_t n, const float p[3])
{
    key probe;
    memcpy(probe.bits, p, 12);
    const key *hit = bsearch(&probe, keys, n, sizeof *keys, cmp_key);
    return hit ? (int64_t)hit->index : -1;
}

static int group_of(const vks_skin *s, uint32_t v)
{
    for (uint32_t g = 0; g < s->group_count; g++)
        if (v >= s->groups[g].first_vertex && v - s->groups[g].first_vertex < s->groups[g].vertex_count)
            return (int)g;
    return -1;
}

/* Weight of node n in vertex v (0 when absent). */
static double weight_of_node(const vks_skin *s, uint32_t v, uint32_t node)
{
    int g = group_of(s, v);
    if (g < 0)
        return -1;
    double w = 0;
    for (int k = 0; k < 4; k++)
        if (s->influences[v].weight[k] > 0) {
            uint32_t b = s->palette[s->groups[g].first_palette + s->influences[v].index[k]];
            if (s->bones[b].node == node)
                w += s->influences[v].weight[k];
        }
    return w;
}

static int cmp_tri(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

static void roundtrip(vks_gen_params p, int strips)
{
    vks_error err = {0};
    vks_skin *g = vks_gen_character(&p, &err);
    CHECK(g != NULL);
    if (!g)
        return;
    vks_write_options wo = {0};
    wo.triangle_strips = strips;
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_result wr = vks_rw_write(g, &wo, &bytes, &size, &err);
    if (wr == VKS_ERR_UNSUPPORTED) {
        printf("skip: the RW writer is not available (%s)\n", err.msg);
        vks_skin_free(g);
        exit(77);
    }
    CHECK_EQ_INT(wr, VKS_OK);
    vks_skin *r = NULL;
    err = (vks_error){0};
    CHECK_EQ_INT(vks_rw_read(NULL, bytes, size, &r, &err), VKS_OK);
    if (!r) {
        fprintf(stderr, "  read back: %s: %s\n", err.path, err.msg);
        free(bytes);
        vks_skin_free(g);
        return;
    }
    CHECK_EQ_INT(vks_skin_validate(r, &err), VKS_OK);

    /* skeleton */
    CHECK_EQ_INT(r->node_count, g->node_count);
    for (uint32_t i = 0; i < r->node_count && i < g->node_count; i++) {
        CHECK(!strcmp(r->nodes[i].name, g->nodes[i].name));
        CHECK_EQ_INT(r->nodes[i].parent, g->nodes[i].parent);
        vks_affine_d a = vks_affine_d_from(&r->nodes[i].bind_local), b = vks_affine_d_from(&g->nodes[i].bind_local);
        CHECK(vks_affine_d_max_diff(&a, &b) <= 1e-6);
    }
    CHECK_EQ_INT(r->mesh_count, 1);
    CHECK_EQ_INT(r->bone_count, g->bone_count);
    if (p.palette_limit)
        for (uint32_t gi = 0; gi < r->group_count; gi++)
            CHECK(r->groups[gi].palette_count <= p.palette_limit);

    /* vertices: each read vertex is a generated one with the same influences */
    key *keys = sorted_keys(g);
    uint32_t missing = 0, wrong = 0;
    uint32_t *canon = malloc((r->vertex_count + 1) * sizeof *canon);
    for (uint32_t v = 0; v < r->vertex_count; v++) {
        int64_t gv = find(keys, g->vertex_count, r->positions[v]);
        if (gv < 0) {
            missing++;
            canon[v] = UINT32_MAX;
            continue;
        }
        canon[v] = g->source_vertex[gv];
        if (r->normals && memcmp(r->normals[v], g->normals[gv], 12))
            wrong++;
        int rg = group_of(r, v);
        for (int k = 0; rg >= 0 && k < 4; k++)
            if (r->influences[v].weight[k] > 0) {
                uint32_t node = r->bones[r->palette[r->groups[rg].first_palette + r->influences[v].index[k]]].node;
                double a = weight_of_node(r, v, node), b = weight_of_node(g, (uint32_t)gv, node);
                if (!(a - b <= 1e-6 && b - a <= 1e-6))
                    wrong++;
            }
        for (int k = 0; k < 4; k++) /* and no generated bone is lost */
            if (g->influences[gv].weight[k] > 0) {
                int gg = group_of(g, (uint32_t)gv);
                uint32_t node = g->bones[g->palette[g->groups[gg].first_palette + g->influences[gv].index[k]]].node;
                if (weight_of_node(r, v, node) <= 0)
                    wrong++;
            }
    }
    CHECK_EQ_INT(missing, 0);
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(r->meshes[0].source_vertex_count >= g->meshes[0].source_vertex_count, 1);

    /* triangles, as source-vertex triples (rotated so the smallest index comes first) */
    CHECK_EQ_INT(r->triangle_count, g->triangle_count);
    if (r->triangle_count == g->triangle_count && !missing) {
        uint32_t n = g->triangle_count;
        uint32_t(*a)[3] = malloc((n + 1) * sizeof *a), (*b)[3] = malloc((n + 1) * sizeof *b);
        for (uint32_t t = 0; t < n; t++) {
            uint32_t ta[3], tb[3];
            for (int k = 0; k < 3; k++) {
                ta[k] = canon[r->triangles[t][k]];
                tb[k] = g->source_vertex[g->triangles[t][k]];
            }
            int ra = ta[1] < ta[0] ? (ta[2] < ta[1] ? 2 : 1) : (ta[2] < ta[0] ? 2 : 0);
            int rb = tb[1] < tb[0] ? (tb[2] < tb[1] ? 2 : 1) : (tb[2] < tb[0] ? 2 : 0);
            for (int k = 0; k < 3; k++) {
                a[t][k] = ta[(ra + k) % 3];
                b[t][k] = tb[(rb + k) % 3];
            }
        }
        qsort(a, n, sizeof *a, cmp_tri);
        qsort(b, n, sizeof *b, cmp_tri);
        CHECK(!memcmp(a, b, n * sizeof *a));
        free(a);
        free(b);
    }

    vks_bind_check bc;
    CHECK_EQ_INT(vks_cpu_bind_check(r, &bc, &err), VKS_OK);
    CHECK(bc.max_error_relative <= 1e-5);
    printf("rw round trip: bones %u, %u -> %u vertices, %u groups -> %u, %zu bytes, bind error rel %.3g\n",
           g->bone_count, g->vertex_count, r->vertex_count, g->group_count, r->group_count, size,
           bc.max_error_relative);
    free(canon);
    free(keys);
    free(bytes);
    vks_skin_free(r);
    vks_skin_free(g);
}

int main(void)
{
    roundtrip((vks_gen_params){0}, 0);
    roundtrip((vks_gen_params){.bones = 24, .vertices = 1500, .palette_limit = 8}, 0);
    roundtrip((vks_gen_params){.bones = 48, .vertices = 2000, .palette_limit = 20, .seed = 2}, 1);
    roundtrip((vks_gen_params){.bones = 64, .vertices = 3000, .seed = 3}, 0);
    roundtrip((vks_gen_params){.bones = 32, .vertices = 1500, .max_influences = 1, .seed = 4}, 0);
    return vks_test_finish("test_gen_rw_roundtrip");
}
