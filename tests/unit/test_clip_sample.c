/* The clip model against hand-computed samples: every interpolation kind, every cycle type,
 * Euler rotations, binding by tag / index / name, missing channels keeping the bind local, and
 * the two delta spaces. Float and double samplers must agree. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "skin_fixture.h"
#include "testutil.h"

static float times2[2] = {0, 2};

static vks_curve curve(uint32_t n, uint32_t comps, vks_interp interp, const float *times, const float *values)
{
    vks_curve c = {0};
    c.key_count = n, c.components = comps, c.interp = interp, c.times = times, c.values = values;
    return c;
}

static void check_both(const vks_curve *c, double t, const double *want, double tol)
{
    float f[4] = {0};
    double d[4] = {0};
    vks_curve_sample(c, (float)t, f);
    vks_curve_sample_d(c, t, d);
    for (uint32_t i = 0; i < c->components; i++) {
        CHECK_NEAR(d[i], want[i], tol);
        CHECK_NEAR(f[i], want[i], tol + 2e-6);
    }
}

static void test_linear_step_hold(void)
{
    float v[6] = {0, 0, 0, 2, 4, 6};
    vks_curve c = curve(2, 3, VKS_INTERP_LINEAR, times2, v);
    check_both(&c, 0.5, (double[]){0.5, 1, 1.5}, 1e-12);
    check_both(&c, -1, (double[]){0, 0, 0}, 0);     /* before the first key: held */
    check_both(&c, 3, (double[]){2, 4, 6}, 0);      /* after the last */
    c.interp = VKS_INTERP_STEP;
    check_both(&c, 1.999, (double[]){0, 0, 0}, 0);
    check_both(&c, 2, (double[]){2, 4, 6}, 0);
}

static void test_slerp(void)
{
    double s = sin(M_PI / 4), co = cos(M_PI / 4); /* 90 degrees about z */
    float v[8] = {0, 0, 0, 1, 0, 0, (float)s, (float)co};
    vks_curve c = curve(2, 4, VKS_INTERP_LINEAR, times2, v);
    check_both(&c, 1, (double[]){0, 0, sin(M_PI / 8), cos(M_PI / 8)}, 1e-7);
    check_both(&c, 0.5, (double[]){0, 0, sin(M_PI / 16), cos(M_PI / 16)}, 1e-7);
    /* the same end rotation stored negated: still the shorter arc, result in the first key's hemisphere */
    float w[8] = {0, 0, 0, 1, 0, 0, (float)-s, (float)-co};
    c.values = w;
    check_both(&c, 1, (double[]){0, 0, sin(M_PI / 8), cos(M_PI / 8)}, 1e-7);
}

static void test_hermite(void)
{
    float v[2] = {0, 1}, out[2] = {2, 0}, in[2] = {0, 0};
    vks_curve c = curve(2, 1, VKS_INTERP_HERMITE, times2, v);
    c.in_tangents = in, c.out_tangents = out;
    /* u = 1/2: h00 = h01 = 1/2, h10 = 1/8, h11 = -1/8; p = 0.5 + (1/8) * dt(2) * 2 = 1 */
    check_both(&c, 1, (double[]){1}, 1e-12);
    /* u = 1/4: h01 = 5/32, h10 = 9/64: p = 5/32 + 9/64 * 4 = 0.71875 */
    check_both(&c, 0.5, (double[]){0.71875}, 1e-12);
    out[0] = 0;
    check_both(&c, 0.5, (double[]){5.0 / 32}, 1e-12);
}

/* Cox-de Boor recursion, independent of the sampler's de Boor: basis i of degree p. */
static double basis(int i, int p, double u, const double *knots, int last_span)
{
    if (p == 0) {
        if (i == last_span)
            return knots[i] <= u && u <= knots[i + 1];
        return knots[i] <= u && u < knots[i + 1];
    }
    double a = 0, b = 0;
    if (knots[i + p] > knots[i])
        a = (u - knots[i]) / (knots[i + p] - knots[i]) * basis(i, p - 1, u, knots, last_span);
    if (knots[i + p + 1] > knots[i + 1])
        b = (knots[i + p + 1] - u) / (knots[i + p + 1] - knots[i + 1]) * basis(i + 1, p - 1, u, knots, last_span);
    return a + b;
}

static void test_bspline(void)
{
    enum { N = 7 };
    float cp[N] = {0, 1, 4, 2, -3, 5, 1};
    vks_curve c = curve(N, 1, VKS_INTERP_BSPLINE, NULL, cp);
    c.start = 1, c.stop = 3;
    double knots[N + 4];
    for (int j = 0; j < N + 4; j++)
        knots[j] = j < 4 ? 0 : j > N - 1 ? N - 3 : j - 3;
    for (int s = 0; s <= 40; s++) {
        double t = 1 + 2.0 * s / 40, u = (t - 1) / 2 * (N - 3), want = 0;
        for (int i = 0; i < N; i++)
            want += basis(i, 3, u, knots, N - 1) * cp[i];
        check_both(&c, t, &want, 1e-9);
    }
    check_both(&c, 0, (double[]){0}, 0);  /* clamped: the first control point */
    check_both(&c, 9, (double[]){1}, 0);  /* and the last */
}

static void test_cycles(void)
{
    vks_clip clip = {.name = "", .duration = 2};
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_LOOP, 2.5), 0.5, 1e-12);
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_LOOP, -0.5), 1.5, 1e-12);
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_CLAMP, 2.5), 2, 0);
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_CLAMP, -1), 0, 0);
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_MIRROR, 2.5), 1.5, 1e-12);
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_MIRROR, 4.5), 0.5, 1e-12);
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_RESET, 2.5), 0, 0);
    CHECK_NEAR(vks_clip_local_time(&clip, VKS_CYCLE_RESET, 1.25), 1.25, 0);
}

/* Locals of the fixture skin (root, A, B) for a one-track clip. */
static void sample(const vks_skin *skin, vks_clip *clip, double t, vks_affine *locals, vks_clip_binding *b)
{
    vks_error err = {0};
    CHECK(vks_clip_bind(clip, skin, b, &err) == VKS_OK);
    vks_affine lf[8];
    vks_clip_sample_locals(clip, b, skin, (float)t, lf);
    vks_clip_sample_locals_d(clip, b, skin, t, locals);
    for (uint32_t n = 0; n < skin->node_count; n++)
        for (int i = 0; i < 12; i++)
            CHECK_NEAR(lf[n].m[i], locals[n].m[i], 2e-6);
}

static void test_binding_and_spaces(void)
{
    vks_skin *skin = vks_fixture_two_bones((const float[3]){0, 0, 0}, 0, 0);
    CHECK(skin && skin->node_count == 3);
    if (!skin || skin->node_count != 3)
        return;
    int32_t nb = vks_skin_find_node(skin, skin->nodes[2].name);
    CHECK(nb == 2);
    double s = sin(M_PI / 4), co = cos(M_PI / 4);
    float rot[8] = {0, 0, 0, 1, 0, 0, (float)s, (float)co}; /* 0 -> 90 degrees about z */
    vks_track tracks[2] = {{0}, {0}};
    char upper[64];
    snprintf(upper, sizeof upper, "%s", skin->nodes[2].name);
    for (char *p = upper; *p; p++)
        *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    tracks[0].node_name = upper; /* other case: still binds */
    tracks[0].rotation = curve(2, 4, VKS_INTERP_LINEAR, times2, rot);
    tracks[1].node_name = "no such bone";
    vks_clip clip = {.name = "c", .duration = 2, .tracks = tracks, .track_count = 2, .root_track = -1};
    vks_clip_binding b;
    vks_affine l[3];
    sample(skin, &clip, 2, l, &b);
    CHECK_EQ_INT(b.bound_tracks, 1);
    CHECK_EQ_INT(b.unmatched_tracks, 1);
    CHECK_EQ_INT(b.unmatched[0], 1);
    CHECK_EQ_INT(b.untouched_nodes, 2);
    CHECK_EQ_INT(b.track_of_node[2], 0);
    /* untouched nodes keep the bind local bit for bit; B keeps its bind translation */
    CHECK(memcmp(&l[0], &skin->nodes[0].bind_local, sizeof l[0]) == 0);
    CHECK(memcmp(&l[1], &skin->nodes[1].bind_local, sizeof l[1]) == 0);
    for (int k = 9; k < 12; k++)
        CHECK_NEAR(l[2].m[k], skin->nodes[2].bind_local.m[k], 1e-7);
    CHECK_NEAR(l[2].m[0], 0, 1e-7); /* x axis -> +y */
    CHECK_NEAR(l[2].m[1], 1, 1e-7);
    vks_clip_binding_free(&b);

    /* tags win over names */
    tracks[1].has_tag = 1, tracks[1].node_tag = 77;
    skin->nodes[1].has_tag = 1, skin->nodes[1].tag = 77;
    vks_error err = {0};
    CHECK(vks_clip_bind(&clip, skin, &b, &err) == VKS_OK);
    CHECK_EQ_INT(b.track_of_node[1], 1);
    vks_clip_binding_free(&b);
    tracks[1].has_tag = 0;
    tracks[1].has_index = 1, tracks[1].node_index = 0;
    skin->nodes[0].has_anim_index = 1, skin->nodes[0].anim_index = 0;
    CHECK(vks_clip_bind(&clip, skin, &b, &err) == VKS_OK);
    CHECK_EQ_INT(b.track_of_node[0], 1);
    vks_clip_binding_free(&b);
    tracks[1].has_index = 0;

    /* MODEL_DELTA: W(B) = D * Wb(B), and B's child-free sibling rule: A untracked keeps Wb(A) */
    clip.space = VKS_CLIP_MODEL_DELTA;
    clip.track_count = 1;
    sample(skin, &clip, 2, l, &b);
    vks_affine_d w[3], wb[3];
    vks_affine bind[3];
    vks_pose_bind(skin, bind);
    vks_cpu_world_d(skin, l, w);
    vks_cpu_world_d(skin, bind, wb);
    float zero[3] = {0, 0, 0}, one[3] = {1, 1, 1};
    vks_affine dz = vks_affine_from_trs(zero, rot + 4, one);
    vks_affine_d dzd = vks_affine_d_from(&dz);
    vks_affine_d want = vks_affine_d_mul(&dzd, &wb[2]);
    CHECK(vks_affine_d_max_diff(&w[2], &want) < 1e-6);
    CHECK(vks_affine_d_max_diff(&w[1], &wb[1]) < 1e-6);
    vks_clip_binding_free(&b);

    /* PARENT_DELTA on A: B follows, W(B) = L(A) * Wb(B) */
    snprintf(upper, sizeof upper, "%s", skin->nodes[1].name);
    clip.space = VKS_CLIP_PARENT_DELTA;
    sample(skin, &clip, 2, l, &b);
    vks_cpu_world_d(skin, l, w);
    want = vks_affine_d_mul(&dzd, &wb[2]);
    CHECK(vks_affine_d_max_diff(&w[2], &want) < 1e-6);
    want = vks_affine_d_mul(&dzd, &wb[1]);
    CHECK(vks_affine_d_max_diff(&w[1], &want) < 1e-6);
    vks_clip_binding_free(&b);
    vks_skin_free(skin);
}

static void test_euler(void)
{
    float ez[2] = {0, (float)(M_PI / 2)};
    vks_track tr = {0};
    tr.node_name = "x";
    tr.euler[2] = curve(2, 1, VKS_INTERP_LINEAR, times2, ez);
    float ex[2] = {0, (float)(M_PI / 2)};
    tr.euler[0] = curve(2, 1, VKS_INTERP_LINEAR, times2, ex);
    /* Rz(90) Rx(90): x axis -> +y; y axis -> Rz(Rx y = z) = z; z axis -> Rz(-y) = x */
    vks_skin *skin = vks_fixture_two_bones((const float[3]){0, 0, 0}, 0, 0);
    if (!skin)
        return;
    tr.node_name = skin->nodes[1].name;
    vks_clip clip = {.name = "e", .duration = 2, .tracks = &tr, .track_count = 1, .root_track = -1};
    vks_clip_binding b;
    vks_affine l[3];
    sample(skin, &clip, 2, l, &b);
    double want[9] = {0, 1, 0, 0, 0, 1, 1, 0, 0};
    for (int i = 0; i < 9; i++)
        CHECK_NEAR(l[1].m[i], want[i], 1e-6);
    vks_clip_binding_free(&b);
    vks_skin_free(skin);
}

static void test_validate(void)
{
    float v[6] = {0, 0, 0, 1, 1, 1}, bad_t[2] = {1, 0.5f};
    vks_track tr = {0};
    tr.node_name = "n";
    tr.translation = curve(2, 3, VKS_INTERP_LINEAR, bad_t, v);
    vks_clip clip = {.name = "v", .duration = 2, .tracks = &tr, .track_count = 1, .root_track = -1};
    vks_clip_set set = {.clips = &clip, .clip_count = 1};
    vks_error err = {0};
    CHECK(vks_clip_set_validate(&set, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "comes before") != NULL);
    tr.translation.times = times2;
    err = (vks_error){0};
    CHECK(vks_clip_set_validate(&set, &err) == VKS_OK);
    clip.duration = 1; /* key at 2 s is past the end */
    CHECK(vks_clip_set_validate(&set, &err) == VKS_ERR_INVALID);
    CHECK_EQ_INT(vks_clip_set_find(&set, "V"), 0);
    CHECK_EQ_INT(vks_clip_set_find(&set, "0"), 0);
    CHECK_EQ_INT(vks_clip_set_find(&set, "1"), -1);
}

/* The words hosts share about clips (clip_names.c): an unnamed clip's name from its file, the
 * note on nodes a binding leaves in bind pose, none when it drives them all. */
static void test_clip_words(void)
{
    char *a = vks_clip_unnamed_name("anims/walk.v2.rtm", 0, 1), *b = vks_clip_unnamed_name("moves.glb", 2, 3);
    CHECK(a && !strcmp(a, "walk.v2") && b && !strcmp(b, "moves 2"));
    free(a), free(b);
    vks_clip_binding bd;
    memset(&bd, 0, sizeof bd);
    bd.node_count = 25, bd.untouched_nodes = 1;
    char note[200] = "";
    CHECK(vks_clip_binding_note(&bd, "w.anm", note, sizeof note) == note);
    CHECK(!strcmp(note, "note: the clip w.anm animates 24 of the model's 25 nodes; the other 1 keeps its bind pose"));
    bd.untouched_nodes = 3;
    CHECK(vks_clip_binding_note(&bd, "w.anm", note, sizeof note) && strstr(note, "the other 3 keep their bind pose"));
    bd.untouched_nodes = 0;
    CHECK(vks_clip_binding_note(&bd, "w.anm", note, sizeof note) == NULL);
}

/* The loaders' one-line messages (load.c): bytes no clip reader takes name the formats the
 * registry lists, a file that cannot be read is said plainly (with the host's hint past a
 * limit), a reader's own error keeps its place in the file. */
static void test_load_messages(void)
{
    vks_error err;
    memset(&err, 0, sizeof err);
    vks_clip_set *set = NULL;
    char line[400], list[200];
    CHECK(vks_read_clip_bytes(NULL, "notes.txt", "hello", 5, NULL, &set, &err) == VKS_ERR_FORMAT && !set);
    vks_clip_format_list(list, sizeof list);
    CHECK(strstr(list, "RenderWare .anm .ska .ifp") && strstr(list, "glTF"));
    char want[400];
    snprintf(want, sizeof want, "notes.txt: not a clip file vkskin reads (%s, or pose JSON named .json)", list);
    CHECK(!strcmp(vks_load_error_format(&err, "notes.txt", "(--max-input-mb N)", line, sizeof line), want));
    memset(&err, 0, sizeof err);
    vks_skin *skin = NULL;
    CHECK(vks_load_model(NULL, "no/such/model.dff", &skin, &err) == VKS_ERR_IO && !skin);
    CHECK(!strncmp(vks_load_error_format(&err, "no/such/model.dff", NULL, line, sizeof line),
                   "no/such/model.dff: cannot open: ", 32));
    memset(&err, 0, sizeof err);
    vks_error_set(&err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "file", "over the input limit of 1 MB");
    CHECK(!strcmp(vks_load_error_format(&err, "big.dff", "(--max-input-mb N)", line, sizeof line),
                  "big.dff: over the input limit of 1 MB (--max-input-mb N)"));
    memset(&err, 0, sizeof err);
    vks_error_set(&err, VKS_ERR_FORMAT, 0x10, "clump", "bad chunk");
    CHECK(!strcmp(vks_load_error_format(&err, "a.dff", NULL, line, sizeof line), "a.dff:0x10: clump: bad chunk (format error)"));
}

int main(void)
{
    test_clip_words();
    test_load_messages();
    test_linear_step_hold();
    test_slerp();
    test_hermite();
    test_bspline();
    test_cycles();
    test_binding_and_spaces();
    test_euler();
    test_validate();
    return vks_test_finish("test_clip_sample");
}
