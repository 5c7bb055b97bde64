/* Affine math and poses: products, inverses, TRS round trips; the procedural pose is
 * deterministic and leaves roots alone; pose sources give each kind's locals; the JSON pose file contract of DESIGN.md section 6,
 * including every error it must name. */
#include <math.h>
#include <string.h>

#include "skin_fixture.h"
#include "testutil.h"

static double max_diff(const vks_affine *a, const vks_affine *b)
{
    double d = 0;
    for (int i = 0; i < 12; i++)
        d = fmax(d, fabs((double)a->m[i] - b->m[i]));
    return d;
}

static vks_result parse(const vks_skin *s, const char *json, vks_pose_set *set, vks_error *err)
{
    memset(err, 0, sizeof *err);
    return vks_pose_file_parse(s, json, strlen(json), set, err);
}

int main(void)
{
    /* math */
    float t[3] = {1, 2, 3}, q[4] = {0.2f, -0.4f, 0.1f, 0.9f}, sc[3] = {2, 2, 2};
    vks_affine a = vks_affine_from_trs(t, q, sc), inv, id = vks_affine_identity();
    CHECK(vks_affine_inverse(&a, &inv));
    vks_affine prod = vks_affine_mul(&a, &inv);
    CHECK(max_diff(&prod, &id) < 1e-6);
    float t2[3], q2[4], s2[3];
    vks_affine_to_trs(&a, t2, q2, s2);
    vks_affine b = vks_affine_from_trs(t2, q2, s2);
    CHECK(max_diff(&a, &b) < 1e-5);
    CHECK_NEAR(s2[0], 2.0, 1e-6);
    vks_affine singular = {{0}};
    CHECK(!vks_affine_inverse(&singular, &inv));
    /* column-major, column vectors: translation applied after the 3x3 */
    float p[3] = {1, 0, 0}, out[3];
    vks_affine r = vks_affine_from_trs(t, (float[4]){0, 0, (float)sin(M_PI / 4), (float)cos(M_PI / 4)},
                                       (float[3]){1, 1, 1});
    vks_affine_apply(&r, p, out);
    CHECK_NEAR(out[0], 1.0, 1e-6);
    CHECK_NEAR(out[1], 3.0, 1e-6);

    /* procedural pose */
    const float zero[3] = {0, 0, 0};
    vks_skin *s = vks_fixture_two_bones(zero, 0, 0);
    vks_affine p1[3], p2[3], p3[3];
    vks_pose_procedural(s, 42, 3, 0.5f, 0, p1);
    vks_pose_procedural(s, 42, 3, 0.5f, 0, p2);
    CHECK(memcmp(p1, p2, sizeof p1) == 0);
    CHECK(max_diff(&p1[0], &s->nodes[0].bind_local) == 0); /* the root stays */
    vks_pose_procedural(s, 42, 4, 0.5f, 0, p3);
    CHECK(max_diff(&p1[2], &p3[2]) > 1e-4); /* instances differ */
    vks_pose_procedural(s, 43, 3, 0.5f, 0, p3);
    CHECK(max_diff(&p1[2], &p3[2]) > 1e-4); /* seeds differ */
    /* a rotation about the node's own origin: translation column kept, 3x3 orthonormal */
    CHECK_NEAR(p1[2].m[9], 1.0, 1e-7);
    double c0 = p1[2].m[0] * p1[2].m[0] + p1[2].m[1] * p1[2].m[1] + p1[2].m[2] * p1[2].m[2];
    CHECK_NEAR(c0, 1.0, 1e-6);

    /* pose sources: procedural at frame / fps, bind, a set's frames modulo its count */
    vks_pose_source src = {0};
    src.seed = 42, src.fps = 2.0f;
    vks_pose_source_locals(&src, s, 3, 1, p2); /* frame 1 at 2 fps: time 0.5 */
    CHECK(memcmp(p1, p2, sizeof p1) == 0);
    src.kind = VKS_POSE_BIND;
    vks_pose_source_locals(&src, s, 3, 1, p2);
    CHECK(max_diff(&p2[2], &s->nodes[2].bind_local) == 0);

    /* pose files */
    vks_pose_set set;
    vks_error err;
    CHECK(parse(s, "{\"nodes\": [{\"name\": \"B\", \"translation\": [0, 2, 0]}]}", &set, &err) == VKS_OK);
    CHECK_EQ_INT(set.frame_count, 1);
    CHECK_NEAR(set.locals[2].m[10], 2.0, 0);
    CHECK_NEAR(set.locals[2].m[9], 0.0, 0);
    CHECK_NEAR(set.locals[2].m[0], 1.0, 1e-7); /* rotation and scale kept from bind */
    CHECK(max_diff(&set.locals[1], &s->nodes[1].bind_local) == 0); /* unlisted: bind */
    src.kind = VKS_POSE_FRAMES, src.frames = &set;
    vks_pose_source_locals(&src, s, 9, 5, p2); /* one frame: every frame and instance is it */
    CHECK(memcmp(p2, set.locals, sizeof p2) == 0);
    vks_pose_set_free(&set);
    CHECK(parse(s, "{\"frames\": [{\"nodes\": [{\"index\": 1, \"matrix\": [1,0,0,0, 0,1,0,0, 0,0,1,0, 7,8,9,1]}]},"
                   "{\"nodes\": [{\"index\": 2, \"rotation\": [0, 0, 1, 0], \"scale\": [2, 2, 2]}]}]}",
                &set, &err) == VKS_OK);
    CHECK_EQ_INT(set.frame_count, 2);
    CHECK_NEAR(set.locals[1].m[9], 7.0, 0);
    CHECK_NEAR(set.locals[1].m[11], 9.0, 0);
    CHECK_NEAR(set.locals[3 + 2].m[0], -2.0, 1e-6); /* 180 degrees about z, scale 2 */
    CHECK_NEAR(set.locals[3 + 2].m[9], 1.0, 0);     /* bind translation kept */
    CHECK(max_diff(&set.locals[3 + 1], &s->nodes[1].bind_local) == 0); /* frame 2 starts from bind */
    vks_pose_set_free(&set);

    struct {
        const char *json, *path;
    } bad[] = {
        {"{\"nodes\": [{\"name\": \"nope\", \"translation\": [0,0,0]}]}", "nodes[0]"},
        {"{\"nodes\": [{\"index\": 3, \"translation\": [0,0,0]}]}", "nodes[0]"},
        {"{\"nodes\": [{\"index\": 1, \"translation\": [0,0]}]}", "nodes[0]"},
        {"{\"nodes\": [{\"index\": 1, \"translation\": [0,\"x\",0]}]}", "nodes[0]"},
        {"{\"nodes\": [{\"index\": 1, \"translation\": [0,1e999,0]}]}", "nodes[0]"},
        {"{\"nodes\": [{\"index\": 1}]}", "nodes[0]"},
        {"{\"nodes\": [{\"index\": 1, \"rotation\": [0,0,0,0]}]}", "nodes[0]"},
        {"{\"nodes\": [{\"index\": 1.5, \"translation\": [0,0,0]}]}", "nodes[0]"},
        {"{\"frames\": [{\"nodes\": []}, {\"nodes\": [{\"name\": \"Q\", \"scale\": [1,1,1]}]}]}", "frames[1].nodes[0]"},
        {"{\"nodes\": [{\"index\": 1, \"translation\": [0,0,0]} ", ""},
        {"[1,2]", ""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        vks_result rr = parse(s, bad[i].json, &set, &err);
        CHECK(rr == VKS_ERR_FORMAT);
        CHECK(err.msg[0] != 0);
        if (bad[i].path[0] && strcmp(err.path, bad[i].path) != 0) {
            fprintf(stderr, "case %zu: path '%s', expected '%s' (%s)\n", i, err.path, bad[i].path, err.msg);
            vks_test_failures++;
        }
        CHECK(set.locals == NULL);
    }
    vks_skin_free(s);
    return vks_test_finish("test_math_pose");
}
