/* NIF keys of every kind against values worked out by hand (test_nif_kf_util.c): LINEAR
 * quaternions stored w,x,y,z, QUADRATIC translations (per-segment tangents), TBC scales on
 * uneven times, XYZ Euler rotations (LINEAR, QUADRATIC, TBC angle groups), CONST
 * translations and quaternions, QUADRATIC quaternions, the unset marker, compact and float
 * B-splines, text keys, and the sequence's frequency and start. Each curve is sampled by the
 * float sampler (the fast engines') and the double one (the reference), and the whole clip
 * through vks_clip_sample_locals and _d on a skin whose bind pose shows in the channels the
 * file leaves unset; and the sequence cut shorter than its keys, whose cut keys become
 * boundary keys. */
#include <math.h>
#include <string.h>

#include "formats/nif/nif_kf_internal.h"
#include "test_nif_kf_util.h"
#include "testutil.h"
#include "vkskin/clip.h"

#include "vkskin/clip_sample.h"
#include "vkskin/clip_formats.h"
static const char *const NAMES[KFX_TRACKS] = {"A", "B", "C", "D", "E", "F", "G"};
static const float TIMES[] = {-0.2f, 0, 0.1f, 0.25f, 0.37f, 0.5f, 0.61f, 0.75f, 0.9f, 0.999f, 1.0f, 1.3f};
#define NT (sizeof TIMES / sizeof TIMES[0])

/* A skin of KFX_TRACKS root nodes named after the tracks, each bound at t (1+i, 2, 3),
   turned 10 degrees about y, scaled 1: what the unset channels must keep. */
static vks_skin *node_skin(void)
{
    vks_skin *s = vks_skin_create(NULL);
    s->nodes = vks_skin_alloc_array(s, KFX_TRACKS, sizeof *s->nodes);
    s->node_count = KFX_TRACKS;
    for (int i = 0; i < KFX_TRACKS; i++) {
        float t[3] = {1.0f + (float)i, 2, 3}, q[4] = {0, sinf(0.0872664626f), 0, cosf(0.0872664626f)}, sc[3] = {1, 1, 1};
        s->nodes[i].name = vks_skin_strndup(s, NAMES[i], strlen(NAMES[i]));
        s->nodes[i].parent = -1;
        s->nodes[i].bind_local = vks_affine_from_trs(t, q, sc);
    }
    return s;
}

static double quat_diff(const double *a, const double *b) /* sign free */
{
    double d = 0, e = 0;
    for (int i = 0; i < 4; i++)
        d = fmax(d, fabs(a[i] - b[i])), e = fmax(e, fabs(a[i] + b[i]));
    return fmin(d, e);
}

static void check_curve(const vks_curve *c, const double *want, uint32_t n, int quat, double t, double tol,
                        const char *what, int track)
{
    double vd[4] = {0};
    float vf[4] = {0};
    vks_curve_sample_d(c, t, vd);
    vks_curve_sample(c, (float)t, vf);
    double df = 0, dd = 0, f[4];
    for (uint32_t i = 0; i < n; i++)
        f[i] = vf[i];
    if (quat) {
        dd = quat_diff(vd, want), df = quat_diff(f, want);
    } else {
        for (uint32_t i = 0; i < n; i++)
            dd = fmax(dd, fabs(vd[i] - want[i])), df = fmax(df, fabs(f[i] - want[i]));
    }
    if (dd > tol || df > 20 * tol) {
        fprintf(stderr, "track %d %s at %g: double off by %.3g, float by %.3g (want %g %g %g %g, got %g %g %g %g)\n",
                track, what, t, dd, df, want[0], want[1], want[2], n > 3 ? want[3] : 0, vd[0], vd[1], vd[2],
                n > 3 ? vd[3] : 0);
        vks_test_failures++;
    }
}

static void check_structure(const vks_clip_set *set)
{
    CHECK(!strcmp(set->format, "nif"));
    CHECK(strstr(set->format_detail, "20.2.0.7") && strstr(set->format_detail, "NiControllerSequence"));
    CHECK_EQ_INT(set->clip_count, 1);
    const vks_clip *c = &set->clips[0];
    CHECK(!strcmp(c->name, "keys"));
    CHECK_NEAR(c->duration, 1.0, 1e-7); /* (2.5 - 0.5) / frequency 2 */
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_LOOP);
    CHECK_EQ_INT(c->space, VKS_CLIP_LOCAL);
    CHECK_EQ_INT(c->root_track, 0); /* the accumulation root names track 0's node */
    CHECK_EQ_INT(c->track_count, KFX_TRACKS);
    static const char *const ev[4] = {"start", "Sound: Step", "mid", "end"};
    static const float evt[4] = {0, 0.5f, 0.5f, 1};
    CHECK_EQ_INT(c->event_count, 4);
    for (uint32_t e = 0; e < c->event_count && e < 4; e++) {
        CHECK(!strcmp(c->events[e].name, ev[e]) && !strcmp(c->events[e].value, ""));
        CHECK_NEAR(c->events[e].time, evt[e], 1e-7);
    }
    if (c->track_count != KFX_TRACKS)
        return;
    const vks_track *t = c->tracks;
    for (int i = 0; i < KFX_TRACKS; i++)
        CHECK(!strcmp(t[i].node_name, NAMES[i]));
    CHECK(t[0].rotation.key_count == 3 && t[0].rotation.interp == VKS_INTERP_LINEAR);
    CHECK(t[0].rotation.times[0] == 0.0f && t[0].rotation.times[1] == 0.5f && t[0].rotation.times[2] == 1.0f);
    CHECK(t[0].translation.key_count == 3 && t[0].translation.interp == VKS_INTERP_HERMITE);
    CHECK(t[0].scale.key_count == 3 && t[0].scale.interp == VKS_INTERP_HERMITE && t[0].scale.components == 3);
    CHECK_NEAR(t[0].scale.times[1], 0.25, 0); /* file 1.0 */
    CHECK(t[1].rotation.key_count == 0 && t[1].euler[0].interp == VKS_INTERP_LINEAR && t[1].euler[0].key_count == 2);
    CHECK(t[1].euler[1].interp == VKS_INTERP_HERMITE && t[1].euler[2].interp == VKS_INTERP_HERMITE);
    CHECK(t[1].translation.interp == VKS_INTERP_STEP && t[1].translation.key_count == 3 && t[1].scale.key_count == 0);
    CHECK(t[2].rotation.key_count == 1 && t[2].translation.key_count == 0 && t[2].scale.key_count == 0);
    CHECK(t[3].rotation.interp == VKS_INTERP_BSPLINE && t[3].rotation.key_count == 5 && t[3].rotation.times == NULL);
    CHECK(t[3].translation.interp == VKS_INTERP_BSPLINE && t[3].scale.key_count == 0);
    CHECK(t[3].rotation.start == 0.0f && t[3].rotation.stop == 1.0f);
    CHECK(t[4].translation.interp == VKS_INTERP_BSPLINE && t[4].translation.key_count == 4 && t[4].rotation.key_count == 0);
    CHECK(t[5].rotation.interp == VKS_INTERP_STEP && t[5].rotation.key_count == 2);
    CHECK(t[6].rotation.interp == VKS_INTERP_HERMITE && t[6].rotation.key_count == 3);
    /* the compact control points by the formula: short / 32767 x half range + offset */
    CHECK_NEAR(t[3].translation.values[3], 16384 / 32767.0 * 2 + 1, 1e-6);
    CHECK_NEAR(t[3].rotation.values[7], 30000 / 32767.0, 1e-6); /* w comes first in the file */
}

static void check_curves(const vks_clip *c)
{
    for (int tr = 0; tr < KFX_TRACKS; tr++) {
        if (tr == 1)
            continue; /* Euler angles: checked composed, through the locals */
        const vks_track *t = &c->tracks[tr];
        for (size_t k = 0; k < NT; k++) {
            kfx_expect e;
            kfx_keys_expected(tr, TIMES[k], &e);
            if (e.has_t)
                check_curve(&t->translation, e.t, 3, 0, TIMES[k], 2e-6, "translation", tr);
            if (e.has_q)
                check_curve(&t->rotation, e.q, 4, 1, TIMES[k], 2e-6, "rotation", tr);
            if (e.has_s)
                check_curve(&t->scale, e.s, 3, 0, TIMES[k], 2e-6, "scale", tr);
            CHECK(!!e.has_t == !!t->translation.key_count && !!e.has_s == !!t->scale.key_count);
        }
    }
}

/* The whole clip through the skin: unset channels keep the bind's. */
static void check_locals(const vks_clip *c, const vks_skin *skin)
{
    vks_clip_binding b;
    vks_error err = {0};
    CHECK(vks_clip_bind(c, skin, &b, &err) == VKS_OK);
    CHECK_EQ_INT(b.bound_tracks, KFX_TRACKS);
    vks_affine lf[KFX_TRACKS], ld[KFX_TRACKS];
    double worst_f = 0, worst_d = 0;
    for (size_t k = 0; k < NT; k++) {
        vks_clip_sample_locals(c, &b, skin, TIMES[k], lf);
        vks_clip_sample_locals_d(c, &b, skin, TIMES[k], ld);
        for (int tr = 0; tr < KFX_TRACKS; tr++) {
            kfx_expect e;
            kfx_keys_expected(tr, TIMES[k], &e);
            float bt[3], bq[4], bs[3], t[3], q[4], s[3];
            vks_affine_to_trs(&skin->nodes[tr].bind_local, bt, bq, bs);
            for (int i = 0; i < 3; i++) {
                t[i] = e.has_t ? (float)e.t[i] : bt[i];
                s[i] = e.has_s ? (float)e.s[i] : bs[i];
            }
            for (int i = 0; i < 4; i++)
                q[i] = e.has_q ? (float)e.q[i] : bq[i];
            vks_affine want = vks_affine_from_trs(t, q, s);
            for (int i = 0; i < 12; i++) {
                worst_f = fmax(worst_f, fabs(lf[tr].m[i] - want.m[i]));
                worst_d = fmax(worst_d, fabs(ld[tr].m[i] - want.m[i]));
            }
        }
    }
    printf("locals against the hand values: float %.3g, double %.3g\n", worst_f, worst_d);
    CHECK(worst_d < 1e-5);
    CHECK(worst_f < 5e-5);
    vks_clip_binding_free(&b);
}

/* The sequence cut to 1.0 .. 2.0 s of file time: keys before and after become boundary keys
   holding the curves' values and slopes there, so the shorter clip plays exactly the middle
   of the long one (clip time u is the fixture's 0.25 + u). */
static void check_trimmed(const uint8_t *bytes, size_t size, const vks_skin *skin)
{
    nif_file f;
    vks_error err = {0};
    CHECK(nif_open(&f, NULL, 1, bytes, size, &err) == VKS_OK);
    uint64_t seq = f.block_count ? f.blocks[0].offset : 0;
    nif_close(&f);
    uint8_t *cut = malloc(size);
    memcpy(cut, bytes, size);
    float start = 1.0f, stop = 2.0f;
    memcpy(cut + seq + 224, &start, 4);
    memcpy(cut + seq + 228, &stop, 4);
    vks_clip_set *set = NULL;
    CHECK(vks_nif_kf_read(NULL, cut, size, &set, &err) == VKS_OK);
    free(cut);
    if (!set)
        return;
    const vks_clip *c = &set->clips[0];
    CHECK_NEAR(c->duration, 0.5, 0);
    const vks_track *t0 = &c->tracks[0];
    /* rotation keys at file 1.5 inside, 0.5 and 2.5 cut: boundary keys at 0 and 0.5 */
    CHECK(t0->rotation.key_count == 3 && t0->rotation.times[0] == 0.0f && t0->rotation.times[1] == 0.25f &&
          t0->rotation.times[2] == 0.5f);
    CHECK(t0->scale.key_count == 3 && t0->scale.times[1] == 0.0f); /* the scale key at file 1.0 is the start */
    vks_clip_binding b;
    CHECK(vks_clip_bind(c, skin, &b, &err) == VKS_OK);
    vks_affine l[KFX_TRACKS];
    double worst = 0;
    for (int k = 0; k <= 20; k++) {
        double u = 0.5 * k / 20;
        vks_clip_sample_locals_d(c, &b, skin, u, l);
        for (int tr = 0; tr < KFX_TRACKS; tr++) {
            kfx_expect e;
            kfx_keys_expected(tr, 0.25 + u, &e);
            float bt[3], bq[4], bs[3], t[3], q[4], sc[3];
            vks_affine_to_trs(&skin->nodes[tr].bind_local, bt, bq, bs);
            for (int i = 0; i < 3; i++)
                t[i] = e.has_t ? (float)e.t[i] : bt[i], sc[i] = e.has_s ? (float)e.s[i] : bs[i];
            for (int i = 0; i < 4; i++)
                q[i] = e.has_q ? (float)e.q[i] : bq[i];
            vks_affine want = vks_affine_from_trs(t, q, sc);
            for (int i = 0; i < 12; i++)
                worst = fmax(worst, fabs(l[tr].m[i] - want.m[i]));
        }
    }
    printf("cut to 1.0 .. 2.0 s: locals against the hand values %.3g\n", worst);
    CHECK(worst < 1e-5);
    vks_clip_binding_free(&b);
    vks_clip_set_free(set);
}

int main(void)
{
    size_t size = 0;
    uint8_t *bytes = kfx_keys_fixture(NAMES, &size);
    CHECK(vks_detect_clip_format(bytes, size, "any.name", NULL) == vks_nif_kf_read);
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r = vks_nif_kf_read(NULL, bytes, size, &set, &err);
    if (r != VKS_OK)
        fprintf(stderr, "%s @%lld: %s\n", err.path, (long long)err.offset, err.msg);
    CHECK(r == VKS_OK);
    if (set) {
        check_structure(set);
        if (set->clip_count == 1 && set->clips[0].track_count == KFX_TRACKS) {
            vks_skin *skin = node_skin();
            check_curves(&set->clips[0]);
            check_locals(&set->clips[0], skin);
            check_trimmed(bytes, size, skin);
            vks_skin_free(skin);
        }
    }
    vks_clip_set_free(set);
    free(bytes);
    return vks_test_finish("test_nif_kf_keys");
}
