/* Clip keys the float32 engines can use (issue 21, point 3; src/core/clip_float32.c). A clip
 * file's keys may be finite and still beyond what --cpu-fast and the GPU compute in float32:
 * those engines then disagree with the double reference, or write inf and NaN. Each case is
 * either conditioned at load in double, so that every engine agrees, or refused, naming the
 * clip, the track, the channel and the key:
 *   - quaternion keys of (1e30, 1e30, 1e30, 1e30) are normalised; (1e-40, 0, 0, 0) is refused;
 *   - Hermite rotations far from unit length are scaled by a power of two (same rotations);
 *   - Euler angles of 1e30 are reduced to -pi..pi; a winding curve keeps its turns;
 *   - translations of 3e38 (and scales, tangents, root motion beyond 2^48) are refused;
 *   - keys of ordinary size are left bit for bit.
 * Through the readers: a RenderWare .anm and an NW4C .cskla written by the project's writers
 * and patched, then played by the CPU reference and --cpu-fast's engine, which must agree.
 *
 *   test_clip_float32               run the checks
 *   test_clip_float32 --dump DIR    also write the models and patched clips to DIR
 *                                   (tests/cli/cli_clip_float32.sh plays them on every engine) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "character_clips.h"
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

/* ---- the clip model: conditioning and bounds on hand-made sets ------------------------- */

static float *floats(vks_clip_set *set, size_t n, const float *v)
{
    float *f = vks_clip_set_alloc(set, n, sizeof *f);
    memcpy(f, v, n * sizeof *f);
    return f;
}

/* A set of one 1 s clip with one track on node "A", its curves to be filled in. */
static vks_clip_set *one_track(vks_track **tr)
{
    vks_clip_set *set = vks_clip_set_create(NULL);
    vks_clip *c = vks_clip_set_alloc(set, 1, sizeof *c);
    set->clips = c;
    set->clip_count = 1;
    set->format = "test";
    set->format_detail = "";
    c->name = "far";
    c->duration = 1;
    c->root_track = -1;
    c->tracks = vks_clip_set_alloc(set, 1, sizeof *c->tracks);
    c->track_count = 1;
    *tr = c->tracks;
    (*tr)->node_name = "A";
    return set;
}

static vks_curve curve(vks_clip_set *set, vks_interp interp, uint32_t dim, uint32_t n, const float *t, const float *v)
{
    vks_curve c = {n, dim, interp, floats(set, n, t), floats(set, (size_t)n * dim, v), NULL, NULL, 0, 0};
    return c;
}

static const float times3[3] = {0, 0.5f, 1};

/* finish must fail with a message naming channel (in the path) and starting with msg. */
static void expect_refused(vks_clip_set *set, const char *channel, const char *msg)
{
    vks_error err = {0};
    CHECK_EQ_INT(vks_clip_set_finish(set, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.path, "clip[0] \"far\"/track[0] \"A\"/") != NULL);
    CHECK(strstr(err.path, channel) != NULL);
    CHECK(strncmp(err.msg, msg, strlen(msg)) == 0);
    if (!strstr(err.path, channel) || strncmp(err.msg, msg, strlen(msg)))
        fprintf(stderr, "  expected %s: %s..., got %s: %s\n", channel, msg, err.path, err.msg);
    vks_clip_set_free(set);
}

static void test_quaternions(void)
{
    vks_track *tr;
    vks_clip_set *set = one_track(&tr);
    const float q[12] = {1e30f, 1e30f, 1e30f, 1e30f, 0, 0, 0, 2, 0.6f, 0, 0, 0.8f};
    tr->rotation = curve(set, VKS_INTERP_LINEAR, 4, 3, times3, q);
    vks_error err = {0};
    CHECK_EQ_INT(vks_clip_set_validate(set, &err), VKS_ERR_INVALID); /* as made: float32 overflows its squares */
    CHECK(strstr(err.msg, "key 0: quaternion (1e+30, 1e+30, 1e+30, 1e+30) has norm 2e+30") != NULL);
    CHECK_EQ_INT(vks_clip_set_finish(set, &err), VKS_OK);
    const float *v = tr->rotation.values;
    for (int i = 0; i < 4; i++)
        CHECK(v[i] == 0.5f);
    CHECK(v[4] == 0 && v[7] == 2); /* within 2^-8..2^8: as stored */
    CHECK(v[8] == 0.6f && v[11] == 0.8f);
    vks_clip_set_free(set);

    const float tiny[12] = {1e-40f, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1};
    set = one_track(&tr);
    tr->rotation = curve(set, VKS_INTERP_LINEAR, 4, 3, times3, tiny);
    expect_refused(set, "/rotation", "key 0: quaternion (9.99995e-41, 0, 0, 0) has norm 9.99995e-41, outside");

    /* Hermite: normalised after interpolation, so the whole curve is scaled, tangents too */
    set = one_track(&tr);
    const float big[12] = {0, 0, 3e20f, 4e20f, 0, 3e20f, 0, 4e20f, 5e20f, 0, 0, 0};
    const float tin[12] = {1e20f, 0, 0, 0, 0, 0, 1e20f, 0, 0, 1e20f, 0, 0};
    tr->rotation = curve(set, VKS_INTERP_HERMITE, 4, 3, times3, big);
    tr->rotation.in_tangents = floats(set, 12, tin);
    tr->rotation.out_tangents = floats(set, 12, tin);
    double before[5][4]; /* in double: float32 overflows on these keys */
    for (int s = 0; s < 5; s++)
        vks_curve_sample_d(&tr->rotation, s * 0.25, before[s]);
    CHECK_EQ_INT(vks_clip_set_finish(set, &err), VKS_OK);
    double top = 0;
    for (int k = 0; k < 3; k++) {
        const float *p = tr->rotation.values + 4 * k;
        double n = sqrt((double)p[0] * p[0] + (double)p[1] * p[1] + (double)p[2] * p[2] + (double)p[3] * p[3]);
        top = n > top ? n : top;
    }
    CHECK(top >= 1 && top < 2);
    CHECK(tr->rotation.values[2] == ldexpf(3e20f, -ilogb(5e20)));
    for (int s = 0; s < 5; s++) { /* the same rotations (the float sampler normalises them) */
        float after[4];
        vks_curve_sample(&tr->rotation, s * 0.25f, after);
        for (int i = 0; i < 4; i++)
            CHECK_NEAR(after[i], before[s][i], 1e-6);
    }
    vks_clip_set_free(set);
}

static double reduced(double a)
{
    return atan2(sin(a), cos(a));
}

static void test_euler(void)
{
    vks_track *tr;
    vks_clip_set *set = one_track(&tr);
    const float far[3] = {1e30f, 0.5f, -1e30f};
    tr->euler[0] = curve(set, VKS_INTERP_LINEAR, 1, 3, times3, far);
    const float mild[3] = {-3, 12, 100}; /* within +-128 rad: as stored */
    tr->euler[1] = curve(set, VKS_INTERP_LINEAR, 1, 3, times3, mild);
    vks_error err = {0};
    CHECK_EQ_INT(vks_clip_set_validate(set, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.path, "euler x") && strstr(err.msg, "key 0: angle 1e+30 rad"));
    CHECK_EQ_INT(vks_clip_set_finish(set, &err), VKS_OK);
    const float *x = tr->euler[0].values;
    CHECK(x[0] == (float)reduced(1e30f) && x[2] == (float)reduced(-1e30f));
    CHECK(fabsf(x[0]) <= 3.1415927f && fabsf(x[2]) <= 3.1415927f);
    CHECK(x[1] == 0.5f); /* its step from key 0 is garbage in float32: reduced on its own */
    for (int k = 0; k < 3; k++)
        CHECK(tr->euler[1].values[k] == mild[k]);
    vks_clip_set_free(set);

    /* a wheel: 201 keys a radian apart, 200 rad in all. Each key keeps its rotation, and every
       step but the few where the curve is brought back within +-128 keeps its turn */
    set = one_track(&tr);
    float t[201], v[201];
    for (int k = 0; k <= 200; k++)
        t[k] = k / 200.0f, v[k] = (float)k;
    tr->euler[2] = curve(set, VKS_INTERP_LINEAR, 1, 201, t, v);
    CHECK_EQ_INT(vks_clip_set_finish(set, &err), VKS_OK);
    const float *z = tr->euler[2].values;
    int kept = 0;
    for (int k = 0; k <= 200; k++) {
        CHECK(fabsf(z[k]) <= 128);
        CHECK_NEAR(cos(z[k]), cos((double)k), 1e-5);
        CHECK_NEAR(sin(z[k]), sin((double)k), 1e-5);
        kept += k && fabsf(z[k] - z[k - 1] - 1) < 1e-4f;
    }
    CHECK(kept >= 198);
    vks_clip_set_free(set);
}

static void test_magnitudes(void)
{
    vks_track *tr;
    vks_clip_set *set = one_track(&tr);
    const float t[9] = {0, 0, 0, 3e38f, 0, 0, 1, 2, 3};
    tr->translation = curve(set, VKS_INTERP_LINEAR, 3, 3, times3, t);
    expect_refused(set, "/translation", "key 1: 3e+38, beyond the +-2^48");

    set = one_track(&tr);
    const float s[9] = {1, 1, 1, 1, 1, 1, 1, 1, -1e20f};
    tr->scale = curve(set, VKS_INTERP_STEP, 3, 3, times3, s);
    expect_refused(set, "/scale", "key 2: -1e+20, beyond the +-2^48");

    set = one_track(&tr);
    const float ok[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, tan[9] = {0, 0, 0, 0, 1e20f, 0, 0, 0, 0};
    tr->translation = curve(set, VKS_INTERP_HERMITE, 3, 3, times3, ok);
    tr->translation.in_tangents = floats(set, 9, tan);
    tr->translation.out_tangents = floats(set, 9, ok);
    expect_refused(set, "/translation", "key 1: tangent 1e+20 per second");

    set = one_track(&tr);
    set->clips[0].motion[1] = 1e20f;
    vks_error err = {0};
    CHECK_EQ_INT(vks_clip_set_finish(set, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "motion 1e+20") != NULL);
    vks_clip_set_free(set);

    /* the bounds themselves pass: 2^48 and zero scales (a hidden part) */
    set = one_track(&tr);
    const float edge[9] = {0x1p48f, -0x1p48f, 0, 0, 0, 0, 0, 0, 0}, zero[9] = {0};
    tr->translation = curve(set, VKS_INTERP_LINEAR, 3, 3, times3, edge);
    tr->scale = curve(set, VKS_INTERP_LINEAR, 3, 3, times3, zero);
    CHECK_EQ_INT(vks_clip_set_finish(set, &err), VKS_OK);
    vks_clip_set_free(set);
}

/* ---- through the readers: the engines agree, or the key is refused ------------------- */

/* The CPU reference (double sampling) against --cpu-fast's path (float sampling, the fast
   engine) at times between keys and on them: within the diff's default tolerance, finite. */
static void engines_agree(const vks_clip *clip, const vks_skin *s, const char *what)
{
    enum { TIMES = 7 };
    vks_clip_binding b;
    vks_error err = {0};
    CHECK_EQ_INT(vks_clip_bind(clip, s, &b, &err), VKS_OK);
    size_t nn = s->node_count, nv = (size_t)s->vertex_count * 3;
    vks_affine *ld = malloc(sizeof *ld * nn * TIMES), *lf = malloc(sizeof *lf * nn * TIMES);
    float *ref = malloc(sizeof *ref * nv * TIMES), *fast = malloc(sizeof *fast * nv * TIMES);
    float *rn = malloc(sizeof *rn * nv * TIMES), *fn = malloc(sizeof *fn * nv * TIMES);
    for (int i = 0; i < TIMES; i++) {
        double t = clip->duration * (i == 0 ? 0.0 : i == 1 ? 0.004 : i / (double)(TIMES - 1) - 0.011);
        vks_clip_sample_locals_d(clip, &b, s, t, ld + i * nn);
        vks_clip_sample_locals(clip, &b, s, (float)t, lf + i * nn);
    }
    vks_deform_job jr = {s, ld, TIMES, ref, rn, NULL}, jf = {s, lf, TIMES, fast, fn, NULL};
    CHECK_EQ_INT(vks_cpu_reference_run(&jr, &err), VKS_OK);
    CHECK_EQ_INT(vks_cpu_fast_run(&jf, 1, &err), VKS_OK);
    int finite = 1;
    for (size_t i = 0; i < nv * TIMES; i++)
        finite &= isfinite(ref[i]) && isfinite(fast[i]) && isfinite(rn[i]) && isfinite(fn[i]);
    CHECK(finite);
    vks_diff_tolerance tol = vks_diff_default_tolerance(), ntol = vks_diff_default_normal_tolerance();
    vks_diff_report rp, rnr;
    vks_diff(fast, ref, TIMES, s->vertex_count, vks_skin_error_scale(s), &tol, &rp);
    vks_diff(fn, rn, TIMES, s->vertex_count, 1.0, &ntol, &rnr);
    CHECK(rp.pass && rnr.pass);
    if (!finite || !rp.pass || !rnr.pass)
        fprintf(stderr, "  %s: --cpu-fast off the reference by %g (positions), %g (normals)\n", what, rp.max_abs,
                rnr.max_abs);
    free(ld), free(lf), free(ref), free(fast), free(rn), free(fn);
    vks_clip_binding_free(&b);
}

static void put4(uint8_t *p, float f)
{
    memcpy(p, &f, 4); /* the formats are little-endian, as is every machine the tests run on */
}

/* A RenderWare character (DFF written and read back) and the generator's walk as standard
   .anm keys: key k of the file at 32 + 36 k (time, quaternion x y z w, translation, prev).
   Keys 0..n-1 are the nodes' first keys, in the skin's animation order. */
static void test_anm(void)
{
    vks_gen_params p = {0};
    p.bones = 24;
    p.vertices = 600;
    vks_error err = {0};
    vks_skin *gen = vks_gen_character(&p, &err), *s = NULL;
    uint8_t *dff = NULL, *anm = NULL;
    size_t dff_size = 0, anm_size = 0;
    vks_clip_set *clips = NULL;
    CHECK(gen && vks_rw_write(gen, NULL, &dff, &dff_size, &err) == VKS_OK);
    CHECK(dff && vks_rw_read(NULL, dff, dff_size, &s, &err) == VKS_OK);
    CHECK(s && vks_gen_clips(s, &clips, &err) == VKS_OK);
    vks_clip_write_options wo = {0};
    CHECK(clips && vks_rw_anm_write(&clips->clips[0], s, &wo, &anm, &anm_size, &err) == VKS_OK);
    if (!anm) {
        fprintf(stderr, "anm fixture: %s: %s\n", err.path, err.msg);
        vks_test_failures++;
        return;
    }
    dump("clip_char.dff", dff, dff_size);
    uint8_t *x = malloc(anm_size);
    vks_clip_set *set = NULL;
    const size_t key1 = 32 + 36;

    /* (1e30, 1e30, 1e30, 1e30): normalised at load, every engine agrees */
    memcpy(x, anm, anm_size);
    for (int i = 0; i < 4; i++)
        put4(x + key1 + 4 + 4 * i, 1e30f);
    dump("quat_1e30.anm", x, anm_size);
    CHECK_EQ_INT(vks_rw_anm_read(NULL, x, anm_size, &set, &err), VKS_OK);
    if (set) {
        const float *q = set->clips[0].tracks[1].rotation.values;
        CHECK(q[0] == 0.5f && q[1] == 0.5f && q[2] == 0.5f && q[3] == 0.5f);
        engines_agree(&set->clips[0], s, ".anm, quaternion (1e30, 1e30, 1e30, 1e30)");
        vks_clip_set_free(set);
        set = NULL;
    }

    /* (1e-40, 0, 0, 0): no direction float32 can hold; refused, naming the key */
    memcpy(x, anm, anm_size);
    put4(x + key1 + 4, 1e-40f);
    for (int i = 1; i < 4; i++)
        put4(x + key1 + 4 + 4 * i, 0);
    dump("quat_1e-40.anm", x, anm_size);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_rw_anm_read(NULL, x, anm_size, &set, &err), VKS_ERR_INVALID);
    CHECK(set == NULL);
    CHECK(strstr(err.path, "track[1]") && strstr(err.path, "/rotation"));
    CHECK(strstr(err.msg, "key 0: quaternion (9.99995e-41, 0, 0, 0) has norm 9.99995e-41, outside") != NULL);

    /* a translation of 3e38 on the first three nodes: refused, naming the key */
    memcpy(x, anm, anm_size);
    for (size_t k = 0; k < 3; k++)
        put4(x + 32 + 36 * k + 20, 3e38f);
    dump("translation_3e38.anm", x, anm_size);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_rw_anm_read(NULL, x, anm_size, &set, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.path, "track[0]") && strstr(err.path, "/translation"));
    CHECK(strstr(err.msg, "key 0: 3e+38, beyond the +-2^48") != NULL);

    /* the file as written: keys as stored, the engines agree */
    CHECK_EQ_INT(vks_rw_anm_read(NULL, anm, anm_size, &set, &err), VKS_OK);
    if (set) {
        engines_agree(&set->clips[0], s, ".anm as written");
        vks_clip_set_free(set);
    }
    free(x);
    free(anm);
    free(dff);
    vks_clip_set_free(clips);
    vks_skin_free(s);
    vks_skin_free(gen);
}

/* The generated character as a .cmdl read back, and the generator's wave as .cskla (its
   forearm on Hermite Euler keys): the text's first rotation key set to 1e30 rad. */
static void test_cskla(void)
{
    vks_gen_params p = {0};
    p.vertices = 600;
    p.palette_limit = 20;
    vks_error err = {0};
    vks_skin *gen = vks_gen_character(&p, &err), *s = NULL;
    uint8_t *cmdl = NULL, *text = NULL;
    size_t cmdl_size = 0, text_size = 0;
    vks_clip_set *clips = NULL;
    CHECK(gen && vks_cmdl_write(gen, NULL, &cmdl, &cmdl_size, &err) == VKS_OK);
    CHECK(cmdl && vks_cmdl_read(NULL, cmdl, cmdl_size, &s, &err) == VKS_OK);
    CHECK(s && vks_gen_clips(s, &clips, &err) == VKS_OK);
    vks_clip_set one = {.format = "generated", .format_detail = "", .clips = clips ? &clips->clips[1] : NULL,
                        .clip_count = 1};
    vks_clip_write_options wo = {0};
    CHECK(clips && vks_cskla_write(&one, s, &wo, &text, &text_size, &err) == VKS_OK);
    if (!text) {
        fprintf(stderr, "cskla fixture: %s: %s\n", err.path, err.msg);
        vks_test_failures++;
        return;
    }
    dump("clip_char.cmdl", cmdl, cmdl_size);
    /* the first Value="..." of the first rotation curve becomes 1e30 */
    char *rot = strstr((char *)text, "<RotateVector3Animation>"), *val = rot ? strstr(rot, " Value=\"") : NULL;
    char *end = val ? strchr(val + 8, '"') : NULL;
    CHECK(end != NULL);
    if (!end) {
        free(text);
        return;
    }
    size_t head = (size_t)(val + 8 - (char *)text), tail = text_size - (size_t)(end - (char *)text);
    char *x = malloc(text_size + 8);
    memcpy(x, text, head);
    memcpy(x + head, "1e30", 4);
    memcpy(x + head + 4, end, tail);
    size_t x_size = head + 4 + tail;
    dump("euler_1e30.cskla", x, x_size);

    vks_read_options ro = {0};
    ro.clip.fps = 30;
    vks_clip_set *set = NULL;
    CHECK_EQ_INT(vks_cskla_read(&ro, x, x_size, &set, &err), VKS_OK);
    if (set) {
        int found = 0; /* the key came back reduced, every other as written */
        for (uint32_t t = 0; t < set->clips[0].track_count; t++)
            for (int k = 0; k < 3; k++) {
                const vks_curve *c = &set->clips[0].tracks[t].euler[k];
                for (uint32_t i = 0; i < c->key_count; i++) {
                    CHECK(fabsf(c->values[i]) <= 128);
                    found += c->values[i] == (float)reduced(1e30f);
                }
            }
        CHECK(found >= 1);
        engines_agree(&set->clips[0], s, ".cskla, Euler angle 1e30");
        vks_clip_set_free(set);
    } else {
        fprintf(stderr, "  euler_1e30.cskla: %s: %s\n", err.path, err.msg);
    }
    free(x);
    free(text);
    free(cmdl);
    vks_clip_set_free(clips);
    vks_skin_free(s);
    vks_skin_free(gen);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--dump") == 0)
        dump_dir = argv[2];
    test_quaternions();
    test_euler();
    test_magnitudes();
    test_anm();
    test_cskla();
    return vks_test_finish("test_clip_float32");
}
