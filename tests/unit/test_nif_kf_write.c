/* The .kf writer read back: every key type of the hand-encoded fixture through 20.2.0.7
 * (float and compact B-splines) and 10.1.0.0, the real samples, every cycle, the generator's
 * walk and wave on the generated character, names taken from the skin a track binds to, and
 * what the writer refuses (with a message, writing nothing). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "character.h"
#include "character_clips.h"
#include "test_nif_kf_util.h"
#include "testutil.h"
#include "vkskin/clip.h"

#include "vkskin/clip_sample.h"
#include "vkskin/clip_formats.h"
static const char *const NAMES[KFX_TRACKS] = {"A", "B", "C", "D", "E", "F", "G"};
#define V20 0x14020007u
#define V10 0x0A010000u

static vks_clip_set *read_bytes(const uint8_t *bytes, size_t size, const char *label)
{
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (vks_nif_kf_read(NULL, bytes, size, &set, &err) != VKS_OK) {
        fprintf(stderr, "%s: %s @%lld: %s\n", label, err.path, (long long)err.offset, err.msg);
        vks_test_failures++;
    }
    return set;
}

static uint8_t *write_set(const vks_clip_set *set, const vks_skin *skin, uint32_t version, int compressed, size_t *size)
{
    vks_clip_write_options o = {version, compressed, 0};
    uint8_t *bytes = NULL;
    vks_error err = {0};
    if (vks_nif_kf_write(set, skin, &o, &bytes, size, &err) != VKS_OK) {
        fprintf(stderr, "write 0x%08x: %s: %s\n", version, err.path, err.msg);
        vks_test_failures++;
        return NULL;
    }
    return bytes;
}

/* Largest difference of two curves sampled at 41 times over [-0.1, 1.1] x duration; -1 when
   their kinds differ. */
static double curve_diff(const vks_curve *a, const vks_curve *b, double duration)
{
    if (a->key_count != b->key_count || (a->key_count && (a->interp != b->interp || a->components != b->components)))
        return -1;
    double worst = 0;
    for (int k = 0; k <= 40 && a->key_count; k++) {
        double t = duration * (-0.1 + 1.2 * k / 40.0), va[4], vb[4];
        vks_curve_sample_d(a, t, va);
        vks_curve_sample_d(b, t, vb);
        for (uint32_t i = 0; i < a->components; i++)
            worst = fmax(worst, fabs(va[i] - vb[i]));
    }
    return worst;
}

static double clip_diff(const vks_clip *a, const vks_clip *b)
{
    if (strcmp(a->name, b->name) || a->track_count != b->track_count || a->cycle != b->cycle ||
        a->root_track != b->root_track || a->event_count != b->event_count || fabsf(a->duration - b->duration) > 1e-6f)
        return -1;
    for (uint32_t e = 0; e < a->event_count; e++)
        if (strcmp(a->events[e].name, b->events[e].name) || a->events[e].time != b->events[e].time)
            return -1;
    double worst = 0;
    for (uint32_t t = 0; t < a->track_count; t++) {
        const vks_track *x = &a->tracks[t], *y = &b->tracks[t];
        if (strcmp(x->node_name, y->node_name))
            return -1;
        const vks_curve *cx[6] = {&x->translation, &x->rotation, &x->euler[0], &x->euler[1], &x->euler[2], &x->scale};
        const vks_curve *cy[6] = {&y->translation, &y->rotation, &y->euler[0], &y->euler[1], &y->euler[2], &y->scale};
        for (int k = 0; k < 6; k++) {
            double d = curve_diff(cx[k], cy[k], a->duration);
            if (d < 0) {
                fprintf(stderr, "clip \"%s\" track %u channel %d: %u %d keys against %u %d\n", a->name, t, k,
                        cx[k]->key_count, (int)cx[k]->interp, cy[k]->key_count, (int)cy[k]->interp);
                return -1;
            }
            worst = fmax(worst, d);
        }
    }
    return worst;
}

static double set_diff(const vks_clip_set *a, const vks_clip_set *b)
{
    if (!a || !b || a->clip_count != b->clip_count)
        return -1;
    double worst = 0;
    for (uint32_t c = 0; c < a->clip_count; c++) {
        double d = clip_diff(&a->clips[c], &b->clips[c]);
        if (d < 0)
            return d;
        worst = fmax(worst, d);
    }
    return worst;
}

/* Writes set in a form, reads it back and compares; returns the difference (-1: a mismatch). */
static double round_trip(const vks_clip_set *set, const vks_skin *skin, uint32_t version, int compressed, const char *label)
{
    size_t size = 0;
    uint8_t *bytes = write_set(set, skin, version, compressed, &size);
    if (!bytes)
        return -1;
    vks_clip_set *back = read_bytes(bytes, size, label);
    double d = set_diff(set, back);
    printf("%-40s %6zu bytes, %s: samples differ by %.3g\n", label, size, back ? back->format_detail : "unread", d);
    CHECK(!back || strstr(back->format_detail, version == V10 ? "NIF 10.1.0.0" : "NIF 20.2.0.7 (user 12, bs 83)"));
    vks_clip_set_free(back);
    free(bytes);
    return d;
}

static void test_every_key_type(void)
{
    size_t size = 0;
    uint8_t *bytes = kfx_keys_fixture(NAMES, &size);
    vks_clip_set *set = read_bytes(bytes, size, "fixture");
    free(bytes);
    if (!set)
        return;
    double d = round_trip(set, NULL, V20, 0, "every key type, 20.2.0.7");
    CHECK(d >= 0 && d < 1e-6);
    d = round_trip(set, NULL, V20, 1, "every key type, compact B-splines");
    CHECK(d >= 0 && d < 1e-4); /* control points quantised to 1/32767 of their half range */
    /* 10.1.0.0 has no B-splines: refused, and the rest round-trips */
    vks_clip_write_options o = {V10, 0, 0};
    uint8_t *out = NULL;
    size_t n = 0;
    vks_error err = {0};
    CHECK_EQ_INT(vks_nif_kf_write(set, NULL, &o, &out, &n, &err), VKS_ERR_UNSUPPORTED);
    CHECK(out == NULL && strstr(err.msg, "B-spline") && strstr(err.msg, "\"D\""));
    vks_clip *c = &set->clips[0];
    vks_track keep[KFX_TRACKS];
    memcpy(keep, c->tracks, sizeof keep);
    c->tracks[3] = keep[5], c->tracks[4] = keep[6];
    c->track_count = 5;
    d = round_trip(set, NULL, V10, 0, "keyed types, 10.1.0.0");
    CHECK(d >= 0 && d < 1e-6);
    /* every cycle both ways */
    static const vks_cycle cycles[3] = {VKS_CYCLE_LOOP, VKS_CYCLE_MIRROR, VKS_CYCLE_CLAMP};
    for (int k = 0; k < 3; k++) {
        c->cycle = cycles[k];
        CHECK(round_trip(set, NULL, V20, 0, "cycle, 20.2.0.7") == 0);
        CHECK(round_trip(set, NULL, V10, 0, "cycle, 10.1.0.0") == 0);
    }
    memcpy(c->tracks, keep, sizeof keep);
    c->track_count = KFX_TRACKS;
    vks_clip_set_free(set);
}

static void test_samples(void)
{
    const char *root = getenv("VKSKIN_REAL_DATASETS");
    char probe[512];
    snprintf(probe, sizeof probe, "%s/anim/nif", root ? root : "../shared/datasets");
    if (access(probe, R_OK) != 0) {
        printf("real samples not found at %s: their round trips skipped\n", probe);
        return;
    }
    static const char *const files[] = {"anim/nif/pyffi_test_controllersequence.kf", "anim/nif/nifly_TestNifFile_Sequence_MW.kf",
                                        "anim/nif/pyffi_test_fix_cleanstringpalette.nif", "nif/niftools_bna_4.0.0.2_dance.nif"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t size = 0;
        uint8_t *bytes = vks_test_read_file(vks_test_dataset(files[i]), &size);
        vks_clip_set *set = bytes ? read_bytes(bytes, size, files[i]) : NULL;
        free(bytes);
        if (!set)
            continue;
        CHECK(round_trip(set, NULL, V20, 0, files[i]) == 0);
        CHECK(round_trip(set, NULL, V10, 0, files[i]) == 0);
        vks_clip_set_free(set);
    }
}

static void test_generated(void)
{
    vks_gen_params p = {0};
    p.vertices = 600;
    vks_error err = {0};
    vks_skin *gen = vks_gen_character(&p, &err);
    vks_clip_set *set = NULL;
    CHECK(gen && vks_gen_clips(gen, &set, &err) == VKS_OK);
    if (!set) {
        vks_skin_free(gen);
        return;
    }
    double d = round_trip(set, gen, V20, 0, "generated walk and wave, 20.2.0.7");
    CHECK(d >= 0 && d < 1e-6);
    vks_clip_set walk = *set;
    walk.clip_count = 1; /* the wave nods on a B-spline */
    d = round_trip(&walk, gen, V10, 0, "generated walk, 10.1.0.0");
    CHECK(d >= 0 && d < 1e-6);
    vks_clip_set_free(set);
    vks_skin_free(gen);
}

/* A track bound by tag is written under the name of the node it binds to. */
static void test_names_from_skin(void)
{
    vks_skin *s = vks_skin_create(NULL);
    s->nodes = vks_skin_alloc_array(s, 2, sizeof *s->nodes);
    s->node_count = 2;
    s->nodes[0] = (vks_node){.name = "Root", .parent = -1, .bind_local = vks_affine_identity()};
    s->nodes[1] = (vks_node){.name = "Hips", .parent = 0, .bind_local = vks_affine_identity(), .tag = 7, .has_tag = 1};
    static const float times[2] = {0, 1}, tv[6] = {0, 0, 0, 1, 2, 3};
    vks_track tr = {.node_name = "bone 7", .node_tag = 7, .has_tag = 1};
    tr.translation = (vks_curve){.key_count = 2, .components = 3, .interp = VKS_INTERP_LINEAR, .times = times, .values = tv};
    vks_clip clip = {.name = "tagged", .duration = 1, .tracks = &tr, .track_count = 1, .root_track = -1};
    vks_clip_set set = {.clips = &clip, .clip_count = 1};
    size_t size = 0;
    uint8_t *bytes = write_set(&set, s, V20, 0, &size);
    vks_clip_set *back = bytes ? read_bytes(bytes, size, "tagged") : NULL;
    CHECK(back && back->clips[0].track_count == 1 && !strcmp(back->clips[0].tracks[0].node_name, "Hips"));
    vks_clip_set_free(back);
    free(bytes);
    vks_skin_free(s);
}

static void expect_refusal(const vks_clip_set *set, uint32_t version, vks_result code, const char *part)
{
    vks_clip_write_options o = {version, 0, 0};
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    vks_result r = vks_nif_kf_write(set, NULL, &o, &bytes, &size, &err);
    if (r != code || bytes || !strstr(err.msg, part)) {
        fprintf(stderr, "expected refusal %d \"...%s...\", got %d: %s\n", (int)code, part, (int)r, err.msg);
        vks_test_failures++;
    }
    free(bytes);
}

static void test_refusals(void)
{
    static const float times[2] = {0, 1}, tv[6] = {0, 0, 0, 1, 2, 3}, sv[6] = {1, 1, 1, 1, 2, 1};
    static const float q[16] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, e[4] = {0, 1, 0, 1};
    vks_track tr = {.node_name = "n"};
    vks_clip clip = {.name = "c", .duration = 1, .tracks = &tr, .track_count = 1, .root_track = -1};
    vks_clip_set set = {.clips = &clip, .clip_count = 1};
    tr.scale = (vks_curve){.key_count = 2, .components = 3, .interp = VKS_INTERP_LINEAR, .times = times, .values = sv};
    expect_refusal(&set, V20, VKS_ERR_UNSUPPORTED, "non-uniform scale");
    tr.scale = (vks_curve){0};
    tr.translation = (vks_curve){.key_count = 2, .components = 3, .interp = VKS_INTERP_LINEAR, .times = times, .values = tv};
    tr.rotation = (vks_curve){.key_count = 4, .components = 4, .interp = VKS_INTERP_BSPLINE, .values = q, .start = 0, .stop = 1};
    expect_refusal(&set, V20, VKS_ERR_UNSUPPORTED, "B-spline and keyed channels");
    tr.translation = (vks_curve){0};
    tr.rotation = (vks_curve){0};
    tr.euler[1] = (vks_curve){.key_count = 4, .components = 1, .interp = VKS_INTERP_BSPLINE, .values = e, .start = 0, .stop = 1};
    expect_refusal(&set, V20, VKS_ERR_UNSUPPORTED, "Euler angles on a B-spline");
    tr.euler[1] = (vks_curve){0};
    clip.space = VKS_CLIP_MODEL_DELTA;
    expect_refusal(&set, V20, VKS_ERR_UNSUPPORTED, "deltas");
    clip.space = VKS_CLIP_LOCAL;
    expect_refusal(&set, 0x14000005u, VKS_ERR_UNSUPPORTED, "20.2.0.7");
    clip.duration = 0; /* the set must validate */
    expect_refusal(&set, V20, VKS_ERR_INVALID, "duration");
    vks_error err = {0};
    CHECK_EQ_INT(vks_nif_kf_write(NULL, NULL, NULL, NULL, NULL, &err), VKS_ERR_INVALID);
}

int main(void)
{
    test_every_key_type();
    test_generated();
    test_names_from_skin();
    test_refusals();
    test_samples();
    return vks_test_finish("test_nif_kf_write");
}
