/* The CPU reference against hand-computed results: bind pose, a single rotated bone, a
 * translated root (with and without a skin space that follows it), a 50/50 blend, and
 * normal renormalisation. */
#include <math.h>
#include <string.h>

#include "skin_fixture.h"
#include "testutil.h"

static vks_affine rot_z(float angle, float tx, float ty, float tz)
{
    float q[4] = {0, 0, sinf(angle / 2), cosf(angle / 2)}, t[3] = {tx, ty, tz}, s[3] = {1, 1, 1};
    return vks_affine_from_trs(t, q, s);
}

/* Deforms one pose; out arrays hold skin->vertex_count vec3. */
static void deform(const vks_skin *s, const vks_affine *locals, float *pos, float *nrm)
{
    vks_deform_job j = {s, locals, 1, pos, nrm, NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
}

/* Position of the model vertex that came from file vertex fv. */
static const float *at(const vks_skin *s, const float *pos, uint32_t fv)
{
    for (uint32_t v = 0; v < s->vertex_count; v++)
        if (s->source_vertex[v] == fv)
            return pos + v * 3;
    return NULL;
}

int main(void)
{
    const float zero[3] = {0, 0, 0}, off[3] = {10, -2, 3};
    float pos[5 * 3], nrm[5 * 3];
    vks_affine L[3];

    /* 1. bind pose reproduces the stored vertices, in both skin-space setups */
    for (int root = 0; root < 2; root++) {
        vks_skin *s = vks_fixture_two_bones(off, root, 0);
        CHECK(s != NULL);
        vks_error err = {0};
        CHECK(vks_skin_validate(s, &err) == VKS_OK);
        vks_bind_check bc;
        CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
        CHECK(bc.max_error < 1e-6);
        vks_skin_free(s);
    }

    /* 2. B turned 90 degrees about z: a vertex fully on B at (2, .25) relative to A's origin
     *    is 1 unit along B's x and .25 along its y; after the turn it lies at A + (1,0) +
     *    R90 * (1, .25) = (1 - .25, 1) = (0.75, 1.0). Normals (0,1,0) turn to (-1,0,0). */
    vks_skin *s = vks_fixture_two_bones(zero, 0, 0);
    vks_pose_bind(s, L);
    L[2] = rot_z((float)M_PI / 2, 1, 0, 0);
    deform(s, L, pos, nrm);
    const float *p4 = at(s, pos, 4), *p0 = at(s, pos, 0), *p2 = at(s, pos, 2);
    CHECK_NEAR(p4[0], 0.75, 1e-6);
    CHECK_NEAR(p4[1], 1.0, 1e-6);
    CHECK_NEAR(p4[2], 0.0, 1e-6);
    CHECK_NEAR(p0[0], 0.0, 1e-7); /* fully on A: unmoved */
    CHECK_NEAR(p0[1], 0.25, 1e-7);
    /* file vertex 2 (x = 1) is 50/50: A keeps (1, .25); B maps it to (1,0) + R90 (0,.25) =
     * (0.75, 0); the blend is (0.875, 0.125) */
    CHECK_NEAR(p2[0], 0.875, 1e-6);
    CHECK_NEAR(p2[1], 0.125, 1e-6);
    const float *n4 = at(s, nrm, 4), *n2 = at(s, nrm, 2);
    CHECK_NEAR(n4[0], -1.0, 1e-6);
    CHECK_NEAR(n4[1], 0.0, 1e-6);
    /* not renormalised: the 50/50 blend of (0,1,0) and (-1,0,0) has length sqrt(.5) */
    CHECK_NEAR(sqrtf(n2[0] * n2[0] + n2[1] * n2[1]), sqrt(0.5), 1e-6);
    vks_skin_free(s);

    /* 3. with renormalisation the blended normal is unit length */
    s = vks_fixture_two_bones(zero, 0, 1);
    vks_pose_bind(s, L);
    L[2] = rot_z((float)M_PI / 2, 1, 0, 0);
    deform(s, L, pos, nrm);
    n2 = at(s, nrm, 2);
    CHECK_NEAR(n2[0], -sqrt(0.5), 1e-6);
    CHECK_NEAR(n2[1], sqrt(0.5), 1e-6);
    vks_skin_free(s);

    /* 4. a translated root moves model-space vertices by the translation ... */
    s = vks_fixture_two_bones(off, 0, 0);
    vks_pose_bind(s, L);
    L[0] = rot_z(0, off[0] + 5, off[1], off[2]);
    deform(s, L, pos, nrm);
    for (uint32_t fv = 0; fv < 5; fv++) {
        const float *p = at(s, pos, fv);
        CHECK_NEAR(p[0], 0.5 * fv + off[0] + 5, 1e-5);
        CHECK_NEAR(p[1], 0.25 + off[1], 1e-5);
    }
    vks_skin_free(s);
    /* ... and nothing when the skin space follows the root (RW atomic frame, NIF root) */
    s = vks_fixture_two_bones(off, 1, 0);
    vks_pose_bind(s, L);
    L[0] = rot_z(1.0f, off[0] + 5, off[1], off[2]);
    deform(s, L, pos, nrm);
    for (uint32_t fv = 0; fv < 5; fv++) {
        const float *p = at(s, pos, fv);
        CHECK_NEAR(p[0], 0.5 * fv, 1e-5);
        CHECK_NEAR(p[1], 0.25, 1e-5);
    }
    vks_skin_free(s);

    /* 5. skin matrices of a rotated A carry B along: world(B) = world(A) * local(B) */
    s = vks_fixture_two_bones(zero, 0, 0);
    vks_pose_bind(s, L);
    L[1] = rot_z((float)M_PI, 0, 0, 0);
    deform(s, L, pos, nrm);
    p4 = at(s, pos, 4);
    CHECK_NEAR(p4[0], -2.0, 1e-6);
    CHECK_NEAR(p4[1], -0.25, 1e-6);
    vks_skin_free(s);

    /* 6. a zeroed job is invalid */
    vks_deform_job j = {0};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_ERR_INVALID);
    CHECK(err.msg[0] != 0);
    return vks_test_finish("test_cpu_reference");
}
