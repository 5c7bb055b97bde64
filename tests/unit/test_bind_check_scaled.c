/* The bind check's placement with a uniform scale (src/cpu/bind_check.c): gltfpack stores a
 * skinned mesh's positions quantised, p_q = (p - o) / s, and folds the dequantization
 * Q = (s I | o) into every inverse bind, so every bone's bind skin matrix is Q. The two-bone
 * fixture so rewritten must pass, placed, with the placement's scale s and the tolerance in
 * its units; the same with a scale that differs per axis (not one placement of the whole
 * mesh) must fail; and a Q whose vertices were not divided (a wrong file) must fail too. */
#include <math.h>

#include "skin_fixture.h"
#include "testutil.h"

/* The fixture with its stored positions p -> (p - o) / scale[axis] and its inverse binds
 * IB -> IB Q, Q = diag(scale) | o; divide 0 leaves the positions as stored. */
static vks_skin *quantised(const float scale[3], const float o[3], int divide)
{
    const float zero[3] = {0, 0, 0};
    vks_skin *s = vks_fixture_two_bones(zero, 0, 0);
    vks_affine q = vks_affine_identity();
    for (int i = 0; i < 3; i++)
        q.m[4 * i] = scale[i], q.m[9 + i] = o[i];
    for (uint32_t v = 0; divide && v < s->vertex_count; v++)
        for (int i = 0; i < 3; i++)
            s->positions[v][i] = (s->positions[v][i] - o[i]) / scale[i];
    for (uint32_t b = 0; b < s->bone_count; b++)
        s->bones[b].inverse_bind = vks_affine_mul(&s->bones[b].inverse_bind, &q);
    return s;
}

int main(void)
{
    const float o[3] = {-0.8f, 0.25f, 0.125f}, uniform[3] = {1.0f / 4096, 1.0f / 4096, 1.0f / 4096};
    const float uneven[3] = {1.0f / 4096, 1.0f / 2048, 1.0f / 4096};
    vks_error err = {0};
    vks_bind_check bc;

    vks_skin *s = quantised(uniform, o, 1);
    CHECK(vks_skin_validate(s, &err) == VKS_OK);
    CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
    CHECK(bc.pass && bc.placed);
    CHECK_NEAR(bc.placement.m[0], 1.0 / 4096, 1e-9);
    CHECK_NEAR(bc.placement.m[9], -0.8, 1e-6);
    /* the tolerance follows the placement into world units: well under the fixture's size */
    CHECK(bc.tolerance < 1e-3);
    CHECK(bc.max_error <= bc.tolerance);
    vks_skin_free(s);

    s = quantised(uneven, o, 1);
    CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
    CHECK(!bc.pass && !bc.placed);
    vks_skin_free(s);

    s = quantised(uniform, o, 0);
    CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
    CHECK(!bc.pass);
    vks_skin_free(s);
    return vks_test_finish("test_bind_check_scaled");
}
