/* Honest models (issue 9, points 9-12): a model that is itself wrong must be refused or
 * reported, never passed quietly. Each case is built here from the project's own fixture and
 * writers, byte-patched where the writers (rightly) refuse to write the fault:
 *   - non-finite weights are refused by the readers, with the weight's offset (RW, NIF skin
 *     data and partitions) and by the builder as a last guard;
 *   - weights the builder or a format's rule changes are counted in skin->weights, with the
 *     sums as stored (over one, none positive, negative);
 *   - the bind-pose check has a verdict against the diff's tolerance (a shifted inverse bind
 *     fails it), and a singular inverse bind is refused naming its node;
 *   - bones the float32 deformers cannot use (scale 1e-30, a spread of 1e4) are refused;
 *   - a pose that moves a node by 1e38 is judged at the scale it produces, per instance;
 *   - a node set twice in one pose frame is an error naming both entries.
 *
 *   test_honest_models               run the checks
 *   test_honest_models --dump DIR    also write the crafted files to DIR (tests/cli/cli_honest.sh) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skin_fixture.h"
#include "test_rw_util.h"
#include "testutil.h"
#include "vkskin.h"

static const char *dump_dir;

static void dump(const char *name, const void *bytes, size_t size)
{
    if (!dump_dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dump_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size) {
        fprintf(stderr, "cannot write %s\n", path);
        vks_test_failures++;
    }
    if (f)
        fclose(f);
}

/* The two-bone strip: root, A at the origin, B one unit along x; vertices 0-1 on A, 2 split
 * half and half, 3-4 on B (tests/unit/skin_fixture.c). */
static vks_skin *strip(void)
{
    const float zero[3] = {0, 0, 0};
    vks_skin *s = vks_fixture_two_bones(zero, 0, 0);
    CHECK(s != NULL);
    return s;
}

typedef vks_result (*writer_fn)(const vks_skin *, const vks_write_options *, uint8_t **, size_t *, vks_error *);

static uint8_t *write_with(writer_fn w, const vks_skin *s, size_t *size)
{
    uint8_t *bytes = NULL;
    vks_write_options opt = {0};
    vks_error err = {0};
    if (w(s, &opt, &bytes, size, &err) != VKS_OK) {
        fprintf(stderr, "writer failed: %s: %s\n", err.path, err.msg);
        vks_test_failures++;
        return NULL;
    }
    return bytes;
}

static vks_skin *read_with(vks_reader_fn r, const uint8_t *bytes, size_t size, vks_error *err)
{
    vks_skin *s = NULL;
    vks_read_options opt = {0};
    memset(err, 0, sizeof *err);
    if (r(&opt, bytes, size, &s, err) != VKS_OK)
        return NULL;
    return s;
}

/* Where the strip's DFF keeps its skin data: the weights of vertex v, slot k, and bone b's
 * inverse bind (new layout: header, used bones, 4 index bytes and 4 weights per vertex, then
 * one 4x4 matrix per bone). */
typedef struct rw_skin_at {
    size_t weights, matrices;
} rw_skin_at;

static int rw_skin_offsets(const uint8_t *bytes, size_t size, uint32_t vertices, rw_skin_at *at)
{
    rw_test_chunk c[256];
    size_t n = vks_test_rw_chunks(bytes, size, c, 256);
    size_t i = vks_test_rw_find(c, n, 0x116, 0, 0);
    if (i == (size_t)-1)
        return 0;
    size_t body = c[i].offset + 12;
    uint32_t used = bytes[body + 1];
    at->weights = body + 4 + used + (size_t)vertices * 4;
    at->matrices = at->weights + (size_t)vertices * 16;
    return 1;
}

static void put_float(uint8_t *p, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    vks_test_put32(p, v);
}

/* Offsets of every occurrence of the float f in bytes (at most cap). */
static size_t find_float(const uint8_t *bytes, size_t size, float f, size_t *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i + 4 <= size && n < cap; i++)
        if (memcmp(bytes + i, &f, 4) == 0)
            out[n++] = i;
    return n;
}

/* ---- point 9: non-finite weights ---------------------------------------------------- */

static void test_non_finite_weights(void)
{
    vks_skin *s = strip();
    size_t size = 0;
    uint8_t *dff = write_with(vks_rw_write, s, &size);
    rw_skin_at at;
    CHECK(dff && rw_skin_offsets(dff, size, 5, &at));
    if (dff) {
        dump("clean.dff", dff, size);
        const float bad[2] = {NAN, INFINITY};
        for (int b = 0; b < 2; b++) {
            uint8_t *copy = malloc(size);
            memcpy(copy, dff, size);
            size_t off = at.weights + (2 * 4 + 0) * 4; /* vertex 2, slot 0 */
            put_float(copy + off, bad[b]);
            vks_error err;
            vks_skin *r = read_with(vks_rw_read, copy, size, &err);
            CHECK(r == NULL);
            CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
            CHECK_EQ_INT(err.offset, off); /* the weight itself */
            CHECK(strstr(err.msg, "vertex 2 slot 0") && strstr(err.msg, "not finite"));
            CHECK(strstr(err.path, "skin") != NULL);
            if (b == 0)
                dump("nan_weight.dff", copy, size);
            vks_skin_free(r);
            free(copy);
        }
    }
    free(dff);

    /* NIF: NiSkinData's per-bone weights and the partition's per-vertex ones. Vertex 2's
       weights are made distinctive so that their bytes can be found. */
    s->influences[2].weight[0] = 0.375f, s->influences[2].weight[1] = 0.625f;
    uint8_t *nif = write_with(vks_nif_write, s, &size);
    size_t where[8];
    size_t found = nif ? find_float(nif, size, 0.375f, where, 8) : 0;
    CHECK_EQ_INT(found, 2); /* NiSkinData, then NiSkinPartition */
    const char *expect[2] = {"NiSkinData", "partition"};
    for (size_t i = 0; i < found && i < 2; i++) {
        uint8_t *copy = malloc(size);
        memcpy(copy, nif, size);
        put_float(copy + where[i], NAN);
        vks_error err;
        vks_skin *r = read_with(vks_nif_read, copy, size, &err);
        CHECK(r == NULL);
        CHECK_EQ_INT(err.code, VKS_ERR_FORMAT);
        CHECK_EQ_INT(err.offset, where[i]);
        CHECK(strstr(err.path, expect[i]) && strstr(err.msg, "not finite"));
        if (i == 0)
            dump("nan_weight.nif", copy, size);
        vks_skin_free(r);
        free(copy);
    }
    free(nif);
    vks_skin_free(s);

    /* the builder's own guard, for any path a reader might leave open */
    vks_skin *t = vks_skin_create(NULL);
    vks_node nodes[1] = {{.name = "root", .parent = -1, .bind_local = vks_affine_identity()}};
    t->nodes = nodes, t->node_count = 1;
    float pos[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, w[3][4] = {{1}, {NAN}, {1}};
    uint16_t bone[3][4] = {{0}};
    uint32_t tri[1][3] = {{0, 1, 2}};
    vks_bone bones[1] = {{0, vks_affine_identity()}};
    vks_mesh_source m = {0};
    m.name = "guard", m.vertex_count = 3, m.positions = (const float(*)[3])pos;
    m.bone = (const uint16_t(*)[4])bone, m.weight = (const float(*)[4])w;
    m.triangle_count = 1, m.triangles = (const uint32_t(*)[3])tri, m.bone_count = 1, m.bones = bones;
    m.space_node = -1;
    vks_skin_builder *b = vks_builder_create(t);
    vks_error err = {0};
    CHECK_EQ_INT(vks_builder_add_mesh(b, &m, &err), VKS_ERR_FORMAT);
    CHECK(strstr(err.msg, "vertex 1 slot 0: weight is not finite") != NULL);
    vks_builder_destroy(b);
    t->nodes = NULL, t->node_count = 0;
    vks_skin_free(t);
}

/* ---- point 10: weights repaired or renormalised are counted ---------------------------- */

static void test_weight_report(void)
{
    vks_skin *s = strip();
    size_t size = 0;
    uint8_t *dff = write_with(vks_rw_write, s, &size);
    vks_error err;
    vks_skin *r = dff ? read_with(vks_rw_read, dff, size, &err) : NULL;
    CHECK(r != NULL);
    if (r) { /* a clean file: sums of 1, nothing repaired */
        CHECK_EQ_INT(r->weights.vertices, 5);
        CHECK_NEAR(r->weights.stored_min_sum, 1.0, 1e-6);
        CHECK_NEAR(r->weights.stored_max_sum, 1.0, 1e-6);
        const vks_weight_report *w = &r->weights;
        CHECK_EQ_INT(w->stored_sum_off + w->all_zero + w->negative + w->renormalised, 0);
    }
    vks_skin_free(r);

    rw_skin_at at;
    CHECK(dff && rw_skin_offsets(dff, size, 5, &at));
    if (dff) {
        /* vertex 0 (1 on bone A) with every weight 0: the builder binds it to slot 0 */
        uint8_t *copy = malloc(size);
        memcpy(copy, dff, size);
        put_float(copy + at.weights, 0.0f);
        r = read_with(vks_rw_read, copy, size, &err);
        CHECK(r != NULL);
        if (r) {
            CHECK_EQ_INT(r->weights.all_zero, 1);
            CHECK_NEAR(r->weights.stored_min_sum, 0.0, 0.0);
            CHECK_EQ_INT(r->weights.stored_sum_off, 1);
            vks_skin_stats st; /* after the repair the deformed sums say nothing */
            vks_skin_stats_compute(r, &st);
            CHECK_NEAR(st.min_weight_sum, 1.0, 1e-6);
        }
        dump("all_zero_weight.dff", copy, size);
        vks_skin_free(r);
        /* vertex 0 with a second weight of -0.5: dropped */
        memcpy(copy, dff, size);
        put_float(copy + at.weights + 4, -0.5f);
        r = read_with(vks_rw_read, copy, size, &err);
        CHECK(r != NULL);
        if (r) {
            CHECK_EQ_INT(r->weights.negative, 1);
            CHECK_EQ_INT(r->weights.all_zero, 0);
        }
        dump("negative_weight.dff", copy, size);
        vks_skin_free(r);
        free(copy);
    }
    free(dff);

    /* vertex 2 weighs 2 + 0.5: RenderWare keeps weights as stored (and the bind check then
       fails), NIF's rule renormalises them (and says so) */
    s->influences[2].weight[0] = 2.0f;
    dff = write_with(vks_rw_write, s, &size);
    r = dff ? read_with(vks_rw_read, dff, size, &err) : NULL;
    CHECK(r != NULL);
    if (r) {
        CHECK_NEAR(r->weights.stored_max_sum, 2.5, 1e-6);
        CHECK_EQ_INT(r->weights.stored_sum_off, 1);
        CHECK_EQ_INT(r->weights.renormalised, 0);
        vks_bind_check bc;
        CHECK_EQ_INT(vks_cpu_bind_check(r, &bc, &err), VKS_OK);
        CHECK(!bc.pass);
    }
    dump("over_one_weight.dff", dff, dff ? size : 0);
    vks_skin_free(r);
    free(dff);
    uint8_t *nif = write_with(vks_nif_write, s, &size);
    r = nif ? read_with(vks_nif_read, nif, size, &err) : NULL;
    CHECK(r != NULL);
    if (r) {
        CHECK_NEAR(r->weights.stored_max_sum, 2.5, 1e-6);
        CHECK_EQ_INT(r->weights.renormalised, 1);
        vks_bind_check bc;
        CHECK_EQ_INT(vks_cpu_bind_check(r, &bc, &err), VKS_OK);
        CHECK(bc.pass);
    }
    dump("over_one_weight.nif", nif, nif ? size : 0);
    vks_skin_free(r);
    free(nif);
    vks_skin_free(s);

    /* .cmdl: the hand-made file's vertex 1 weighs 60 + 40 percent; 120 + 80 is renormalised */
    size_t n = 0;
    char *text = (char *)vks_test_read_file(vks_test_source_path("tests/data/cmdl/smooth_rigid_none.cmdl"), &n);
    char *at60 = text ? strstr(text, "100 0  60 40") : NULL;
    CHECK(at60 != NULL);
    if (at60) {
        memcpy(at60, "100 0 120 80", 12);
        r = read_with(vks_cmdl_read, (uint8_t *)text, n, &err);
        CHECK(r != NULL);
        if (r) {
            CHECK_NEAR(r->weights.stored_max_sum, 2.0, 1e-6);
            CHECK_EQ_INT(r->weights.renormalised, 1);
        }
        dump("over_one_weight.cmdl", text, n);
        vks_skin_free(r);
    }
    free(text);
}

/* ---- point 9: the bind-pose check's verdict; singular inverse binds -------------------- */

static void test_bind_verdict(void)
{
    vks_skin *s = strip();
    vks_bind_check bc;
    vks_error err = {0};
    CHECK_EQ_INT(vks_cpu_bind_check(s, &bc, &err), VKS_OK);
    CHECK(bc.pass);
    CHECK_NEAR(bc.tolerance, vks_diff_default_tolerance().abs_radius * vks_skin_error_scale(s), 1e-12);

    /* B's inverse bind shifted by a quarter of a unit: a valid model, not in its bind pose */
    s->bones[1].inverse_bind.m[9] += 0.25f;
    size_t size = 0;
    uint8_t *dff = write_with(vks_rw_write, s, &size);
    vks_skin *r = dff ? read_with(vks_rw_read, dff, size, &err) : NULL;
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_INT(vks_cpu_bind_check(r, &bc, &err), VKS_OK);
        CHECK(!bc.pass);
        CHECK_NEAR(bc.max_error, 0.25, 1e-6);
        CHECK(bc.max_error > bc.tolerance);
    }
    dump("shifted_bind.dff", dff, dff ? size : 0);
    vks_skin_free(r);
    s->bones[1].inverse_bind.m[9] -= 0.25f;
    free(dff);

    /* B's inverse bind all zeros (byte-patched: the writer refuses it) */
    dff = write_with(vks_rw_write, s, &size);
    rw_skin_at at;
    CHECK(dff && rw_skin_offsets(dff, size, 5, &at));
    if (dff) {
        memset(dff + at.matrices + 64, 0, 64);
        r = read_with(vks_rw_read, dff, size, &err);
        CHECK(r == NULL);
        CHECK(strstr(err.msg, "\"B\"") && strstr(err.msg, "singular"));
        dump("zero_inverse_bind.dff", dff, size);
        vks_skin_free(r);
    }
    free(dff);
    vks_skin_free(s);
}

/* ---- point 11: bones float32 cannot deform -------------------------------------------- */

static vks_affine scaled(float x, float y, float z)
{
    vks_affine a = vks_affine_identity();
    a.m[0] = x, a.m[4] = y, a.m[8] = z;
    return a;
}

/* One bone driving a rigid group (identity inverse bind), its node scaled by node_scale. */
static vks_result build_rigid(float node_scale, vks_error *err)
{
    vks_skin *t = vks_skin_create(NULL);
    t->node_count = 2;
    t->nodes = vks_skin_alloc_array(t, 2, sizeof *t->nodes);
    t->nodes[0] = (vks_node){.name = "root", .parent = -1, .bind_local = vks_affine_identity()};
    t->nodes[1] = (vks_node){.name = "hand", .parent = 0, .bind_local = scaled(node_scale, node_scale, node_scale)};
    float pos[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, w[3][4] = {{1}, {1}, {1}};
    uint16_t bone[3][4] = {{0}};
    uint32_t tri[1][3] = {{0, 1, 2}};
    vks_bone bones[1] = {{1, vks_affine_identity()}};
    vks_group_source g = {0};
    g.triangles = (const uint32_t(*)[3])tri, g.triangle_count = 1, g.flags = VKS_GROUP_RIGID;
    vks_mesh_source m = {0};
    m.name = "rigid", m.vertex_count = 3, m.positions = (const float(*)[3])pos;
    m.bone = (const uint16_t(*)[4])bone, m.weight = (const float(*)[4])w;
    m.bone_count = 1, m.bones = bones, m.space_node = -1, m.groups = &g, m.group_count = 1;
    vks_skin_builder *b = vks_builder_create(t);
    vks_result rc = vks_builder_add_mesh(b, &m, err);
    if (rc == VKS_OK)
        rc = vks_builder_finish(b, err);
    else
        vks_builder_destroy(b);
    vks_skin_free(t);
    return rc;
}

static void test_conditioning(void)
{
    double lo, hi;
    vks_affine id = vks_affine_identity(), tiny = scaled(1e-30f, 1e-30f, 1e-30f), zero = scaled(0, 0, 0);
    CHECK(vks_affine_scale_range(&id, &lo, &hi) && vks_float32_scale_ok(lo, hi));
    CHECK_NEAR(lo, 1.0, 1e-12);
    CHECK_NEAR(hi, 1.0, 1e-12);
    CHECK(vks_affine_scale_range(&tiny, &lo, &hi)); /* invertible in double ... */
    CHECK_NEAR(lo / 1e-30, 1.0, 1e-6);
    CHECK(!vks_float32_scale_ok(lo, hi)); /* ... but not in float32 */
    CHECK(!vks_affine_scale_range(&zero, &lo, &hi));
    vks_affine mild = scaled(1e-3f, 1, 1), skewed = scaled(1e-4f, 1, 1), unit = scaled(0.01f, 0.01f, 0.01f);
    CHECK(vks_affine_scale_range(&mild, &lo, &hi) && vks_float32_scale_ok(lo, hi));
    CHECK(vks_affine_scale_range(&skewed, &lo, &hi) && !vks_float32_scale_ok(lo, hi));
    CHECK(vks_affine_scale_range(&unit, &lo, &hi) && vks_float32_scale_ok(lo, hi)); /* cm to m */

    /* .cmdl: the arm bone of the hand-made file scaled by 1e-30 (its inverse bind is 1e30);
       its smooth set binds to it */
    const char *scales[3] = {"X=\"1e-30\" Y=\"1e-30\" Z=\"1e-30\"", "X=\"1e-4\" Y=\"1\" Z=\"1\"",
                             "X=\"1e-3\" Y=\"1\" Z=\"1\""};
    const char *names[3] = {"tiny_bone.cmdl", "skewed_bone.cmdl", "mild_bone.cmdl"};
    for (int i = 0; i < 3; i++) {
        size_t n = 0;
        char *text = (char *)vks_test_read_file(vks_test_source_path("tests/data/cmdl/smooth_rigid_none.cmdl"), &n);
        char *arm = text ? strstr(text, "<Bone Name=\"arm\"") : NULL;
        char *sc = arm ? strstr(arm, "X=\"1\" Y=\"1\" Z=\"1\"") : NULL;
        CHECK(sc != NULL);
        if (!sc) {
            free(text);
            continue;
        }
        size_t head = (size_t)(sc - text), old = strlen("X=\"1\" Y=\"1\" Z=\"1\""), nw = strlen(scales[i]);
        char *out = malloc(n - old + nw);
        memcpy(out, text, head);
        memcpy(out + head, scales[i], nw);
        memcpy(out + head + nw, sc + old, n - head - old);
        size_t m = n - old + nw;
        vks_error err;
        vks_skin *r = read_with(vks_cmdl_read, (uint8_t *)out, m, &err);
        if (i < 2) {
            CHECK(r == NULL);
            CHECK(strstr(err.msg, "\"arm\"") && strstr(err.msg, "float32"));
        } else {
            CHECK(r != NULL);
        }
        dump(names[i], out, m);
        vks_skin_free(r);
        free(out);
        free(text);
    }

    /* a rigid group's bone: its skin matrix at bind is its world, checked the same way */
    vks_error err = {0};
    CHECK_EQ_INT(build_rigid(1.0f, &err), VKS_OK);
    CHECK(build_rigid(1e-30f, &err) != VKS_OK);
    CHECK(strstr(err.msg, "rigid") && strstr(err.msg, "\"hand\""));
}

/* ---- point 12: the error scale of a posed instance; duplicate pose entries ------------ */

static void test_posed_scale(void)
{
    vks_skin *s = strip();
    uint32_t nv = s->vertex_count, nn = s->node_count;
    vks_affine locals[2 * 3];
    vks_pose_bind(s, locals);
    vks_pose_bind(s, locals + nn);
    locals[nn + 1].m[9] = 1e38f; /* instance 1: bone A (and B under it) 1e38 along x */
    float ref[2 * 5 * 3], nrm[2 * 5 * 3], gpu[2 * 5 * 3];
    vks_deform_job j = {s, locals, 2, ref, nrm, NULL};
    vks_error err = {0};
    CHECK_EQ_INT(vks_cpu_reference_run(&j, &err), VKS_OK);
    double model = vks_skin_error_scale(s), scales[2];
    vks_affine_d world[3];
    for (uint32_t i = 0; i < 2; i++) {
        vks_cpu_world_d(s, locals + (size_t)i * nn, world);
        scales[i] = vks_posed_error_scale(s, model, world, ref + (size_t)i * nv * 3);
    }
    CHECK_NEAR(scales[0], model, 0.0);
    CHECK(scales[1] >= 0.99e38);

    /* an engine as good as float32 allows: off by 1e-7 of 1e38 in instance 1 */
    memcpy(gpu, ref, sizeof ref);
    gpu[nv * 3] += 1e31f;
    vks_diff_tolerance tol = vks_diff_default_tolerance();
    vks_diff_report rep;
    vks_diff(gpu, ref, 2, nv, model, &tol, &rep);
    CHECK(!rep.pass); /* the model's scale alone: a false failure */
    vks_diff_acc acc;
    vks_diff_begin(&acc, model, &tol);
    vks_diff_add_scaled(&acc, gpu, ref, 0, 2, nv, scales);
    vks_diff_end(&acc, &rep);
    CHECK(rep.pass);
    CHECK(rep.max_rel < 1e-6);
    CHECK(rep.max_scale >= 0.99e38);

    /* still per instance: a visible fault in instance 0 fails, whatever instance 1's scale */
    gpu[0] += 1e-2f;
    vks_diff_begin(&acc, model, &tol);
    vks_diff_add_scaled(&acc, gpu, ref, 0, 2, nv, scales);
    vks_diff_end(&acc, &rep);
    CHECK(!rep.pass);
    CHECK_EQ_INT(rep.worst_instance, 1); /* the largest absolute error is still instance 1's */
    vks_skin_free(s);
}

static void expect_pose_error(const vks_skin *s, const char *json, const char *path, const char *msg)
{
    vks_pose_set set;
    vks_error err = {0};
    CHECK_EQ_INT(vks_pose_file_parse(s, json, strlen(json), &set, &err), VKS_ERR_FORMAT);
    CHECK(strcmp(err.path, path) == 0);
    CHECK(strcmp(err.msg, msg) == 0);
    if (strcmp(err.path, path) || strcmp(err.msg, msg))
        fprintf(stderr, "  got %s: %s\n", err.path, err.msg);
}

static void test_pose_duplicates(void)
{
    vks_skin *s = strip();
    expect_pose_error(s,
                      "{\"frames\": [{\"nodes\": [{\"index\": 0, \"translation\": [0,0,0]}]},"
                      " {\"nodes\": [{\"index\": 2, \"translation\": [1,0,0]}, {\"name\": \"A\", \"scale\": [1,1,1]},"
                      " {\"index\": 0, \"translation\": [0,0,0]}, {\"index\": 1, \"translation\": [2,0,0]}]}]}",
                      "frames[1].nodes[3]", "node \"A\" already set by frames[1].nodes[1]");
    expect_pose_error(s,
                      "{\"nodes\": [{\"name\": \"B\", \"translation\": [1,0,0]},"
                      " {\"index\": 2, \"scale\": [2,2,2]}]}",
                      "nodes[1]", "node \"B\" already set by nodes[0]");
    /* the same node in two frames is what frames are for */
    const char *ok = "{\"frames\": [{\"nodes\": [{\"index\": 1, \"translation\": [0,0,0]}]},"
                     " {\"nodes\": [{\"index\": 1, \"translation\": [1,0,0]}]}]}";
    vks_pose_set set;
    vks_error err = {0};
    CHECK_EQ_INT(vks_pose_file_parse(s, ok, strlen(ok), &set, &err), VKS_OK);
    vks_pose_set_free(&set);
    vks_skin_free(s);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--dump") == 0)
        dump_dir = argv[2];
    test_non_finite_weights();
    test_weight_report();
    test_bind_verdict();
    test_conditioning();
    test_posed_scale();
    test_pose_duplicates();
    return vks_test_finish("test_honest_models");
}
