/* vks_posed_error_scale against its rule, the loop it was (copied here): the largest of the
 * model's scale, the posed bone and skin-space translations and the longest finite deformed
 * position. The library takes the longest position four vertices a vector where the CPU has
 * AVX2; the scale must be the same bits for every vertex count (the vectors' tails), with the
 * longest position in any lane and non-finite positions (NaN, infinities, squares that
 * overflow) anywhere. */
#include "testutil.h"

#include "character.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double length3(const double *t)
{
    double d = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    return isfinite(d) ? d : 0.0;
}

static double rule(const vks_skin *s, uint32_t nv, double model_scale, const vks_affine_d *world, const float *pos)
{
    double scale = model_scale;
    for (uint32_t b = 0; b < s->bone_count; b++) {
        double t = length3(&world[s->bones[b].node].m[9]);
        if (t > scale)
            scale = t;
    }
    for (uint32_t m = 0; m < s->mesh_count; m++)
        if (s->meshes[m].space_node >= 0) {
            double t = length3(&world[s->meshes[m].space_node].m[9]);
            if (t > scale)
                scale = t;
        }
    double longest_sq = 0;
    for (uint32_t v = 0; v < nv; v++) {
        const float *p = pos + (size_t)v * 3;
        double x = p[0], y = p[1], z = p[2], sq = x * x + y * y + z * z;
        longest_sq = isfinite(sq) && sq > longest_sq ? sq : longest_sq;
    }
    double d = sqrt(longest_sq);
    return d > scale ? d : scale;
}

int main(void)
{
    vks_gen_params p = {0};
    p.vertices = 64;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    if (!s)
        return vks_test_finish("test_error_scale_rule");
    vks_affine *locals = malloc(s->node_count * sizeof *locals);
    vks_affine_d *world = malloc(s->node_count * sizeof *world);
    uint32_t all = s->vertex_count;
    float *pos = malloc((size_t)all * 3 * sizeof *pos);
    CHECK(locals && world && pos);
    vks_pose_bind(s, locals);
    vks_cpu_world_d(s, locals, world);
    uint64_t r = 99;
    int cases = 0;
    for (int trial = 0; trial < 200; trial++) {
        for (uint32_t j = 0; j < all * 3; j++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            pos[j] = (float)ldexp((double)(r >> 40) / (double)(1u << 24) - 0.5, (int)(r % 8) + (trial % 3) * 3);
        }
        uint32_t far = (uint32_t)(r >> 20) % all; /* the longest in any lane */
        pos[far * 3 + (trial % 3)] = (float)(1000 + trial);
        if (trial % 4 == 1) { /* non-finite and overflowing vertices, in any lane, the longest among them */
            static const float bad[4] = {NAN, INFINITY, -INFINITY, FLT_MAX};
            for (uint32_t k = 0; k < 5; k++)
                pos[((far + 1 + k * 7) % all) * 3 + k % 3] = bad[(trial / 4 + k) % 4];
        }
        for (uint32_t nv = 0; nv <= all; nv += nv < 12 ? 1 : 5) {
            s->vertex_count = nv; /* the scale's count of vertices */
            double model = trial % 2 ? 0.5 : 5000.0;
            double want = rule(s, nv, model, world, pos), got = vks_posed_error_scale(s, model, world, pos);
            if (memcmp(&want, &got, sizeof want)) {
                fprintf(stderr, "FAIL trial %d, %u vertices: %a, the rule %a\n", trial, nv, got, want);
                CHECK(0);
            }
            cases++;
        }
        s->vertex_count = all;
    }
    fprintf(stderr, "%d cases the same bits\n", cases);
    free(locals), free(world), free(pos);
    vks_skin_free(s);
    return vks_test_finish("test_error_scale_rule");
}
