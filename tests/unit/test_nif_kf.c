/* The NIF clip reader on the real samples (datasets README, anim/nif and nif/dance.nif), each
 * against what its bytes say:
 *   pyffi test_controllersequence.kf (20.0.0.4, NiStringPalette) and its _fo3 twin (20.2.0.7,
 *     string table): "TestAction", 0.7667 s, clamp, tracks Bip01, Bip01 Pelvis, Bip01 Spine,
 *     no interpolators; the accumulation root Bip01 is the root track
 *   pyffi test_fix_cleanstringpalette.nif (20.0.0.5): an NiControllerManager's two sequences
 *     "Scared" and "Death" with QUADRATIC XYZ keys, poses with the unset marker, text keys
 *   nifly TestNifFile_Sequence_MW.kf (4.0.0.2): NiSequenceStreamHelper, Box01, LINEAR keys,
 *     Morrowind's packed text keys
 *   dance.nif (4.0.0.2): 35 NiKeyframeControllers on its own nodes. Its nodes are stored at
 *     the animation's first frame, so the clip at 0 s must pose the model exactly as stored;
 *     later it must move the mesh. */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "vkskin/clip.h"

#include "vkskin/clip_sample.h"
#include "vkskin/clip_formats.h"
static vks_clip_set *read_sample(const char *rel, uint8_t **bytes_out, size_t *size_out)
{
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(vks_test_dataset(rel), &size);
    CHECK(bytes != NULL);
    if (!bytes)
        return NULL;
    const char *fmt = NULL;
    CHECK(vks_detect_clip_format(bytes, size, rel, &fmt) == vks_nif_kf_read && !strcmp(fmt, "nif"));
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r = vks_nif_kf_read(NULL, bytes, size, &set, &err);
    if (r != VKS_OK)
        fprintf(stderr, "%s: %s @%lld: %s\n", rel, err.path, (long long)err.offset, err.msg);
    CHECK(r == VKS_OK);
    if (bytes_out)
        *bytes_out = bytes, *size_out = size;
    else
        free(bytes);
    return set;
}

static int no_keys(const vks_track *t)
{
    return !t->translation.key_count && !t->rotation.key_count && !t->scale.key_count && !t->euler[0].key_count &&
           !t->euler[1].key_count && !t->euler[2].key_count;
}

static void test_pyffi_sequence(const char *file, const char *version)
{
    vks_clip_set *set = read_sample(file, NULL, NULL);
    if (!set)
        return;
    printf("%s: %s\n", file, set->format_detail);
    CHECK(strstr(set->format_detail, version) && strstr(set->format_detail, "NiControllerSequence"));
    CHECK_EQ_INT(set->clip_count, 1);
    const vks_clip *c = &set->clips[0];
    CHECK(!strcmp(c->name, "TestAction"));
    CHECK_NEAR(c->duration, 0.766666710f, 0); /* stop 0x3F444445, start 0 */
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_CLAMP);  /* cycle type 2 */
    CHECK_EQ_INT(c->event_count, 0);
    CHECK_EQ_INT(c->track_count, 3);
    static const char *const names[3] = {"Bip01", "Bip01 Pelvis", "Bip01 Spine"};
    for (uint32_t t = 0; t < c->track_count && t < 3; t++) {
        CHECK(!strcmp(c->tracks[t].node_name, names[t]));
        CHECK(no_keys(&c->tracks[t])); /* every interpolator link is -1 */
    }
    CHECK_EQ_INT(c->root_track, 0);
    vks_clip_set_free(set);
}

static void test_clean_string_palette(void)
{
    vks_clip_set *set = read_sample("anim/nif/pyffi_test_fix_cleanstringpalette.nif", NULL, NULL);
    if (!set)
        return;
    CHECK(strstr(set->format_detail, "20.0.0.5 (user 11, bs 11)"));
    CHECK_EQ_INT(set->clip_count, 2);
    if (set->clip_count != 2) {
        vks_clip_set_free(set);
        return;
    }
    const vks_clip *s = &set->clips[0], *d = &set->clips[1];
    CHECK(!strcmp(s->name, "Scared") && !strcmp(d->name, "Death"));
    CHECK_NEAR(s->duration, 1.76667666f, 0);
    CHECK_NEAR(d->duration, 1.83334327f, 0);
    CHECK(s->cycle == VKS_CYCLE_CLAMP && d->cycle == VKS_CYCLE_CLAMP);
    static const char *const sev[4] = {"start", "Sound: Shout", "Sound: Run", "end"};
    static const float sevt[4] = {0, 9.99999975e-06f, 1.76666665f, 1.76667666f};
    CHECK_EQ_INT(s->event_count, 4);
    for (uint32_t e = 0; e < s->event_count && e < 4; e++)
        CHECK(!strcmp(s->events[e].name, sev[e]) && s->events[e].time == sevt[e]);
    CHECK(d->event_count == 4 && !strcmp(d->events[1].name, "Sound: Scream") && d->events[1].time == 0.5f);
    for (int ci = 0; ci < 2; ci++) {
        const vks_clip *c = &set->clips[ci];
        CHECK_EQ_INT(c->track_count, 2);
        if (c->track_count != 2)
            continue;
        const vks_track *a = &c->tracks[0], *b = &c->tracks[1];
        CHECK(!strcmp(a->node_name, "Test") && !strcmp(b->node_name, "Test NonAccum"));
        CHECK_EQ_INT(c->root_track, 0); /* accumulation root "Test" */
        /* "Test": a pose only (no data): T 0, q identity, s 1 */
        CHECK(a->translation.key_count == 1 && a->rotation.key_count == 1 && a->scale.key_count == 1);
        CHECK(a->rotation.values[3] == 1.0f && a->scale.values[0] == 1.0f);
        /* "Test NonAccum": its pose's quaternion is the -FLT_MAX marker, its keys XYZ QUADRATIC */
        CHECK(b->rotation.key_count == 0);
        CHECK(b->euler[2].interp == VKS_INTERP_HERMITE && b->euler[2].key_count == 4);
        CHECK(b->translation.key_count == 1 && b->scale.key_count == 1);
    }
    /* Scared z: keys 0 @ 0 and 1.71193349 @ 1.5, both tangents 0: halfway is the mean */
    double z = 0;
    vks_curve_sample_d(&s->tracks[1].euler[2], 0.75, &z);
    CHECK_NEAR(z, 0.5 * 1.71193349, 1e-7);
    /* Death z: 1.61783922 @ 0 leaving with 0.0405506492 per segment, 1.71193349 @ 0.266666651
       entering with 0: per-unit Hermite at u = 0.5 */
    double u = 0.5, h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u, h01 = 1 - h00;
    double want = h00 * 1.61783922 + h10 * 0.0405506492 + h01 * 1.71193349;
    vks_curve_sample_d(&d->tracks[1].euler[2], 0.266666651 / 2, &z);
    CHECK_NEAR(z, want, 1e-6);
    vks_clip_set_free(set);
}

static void test_morrowind_kf(void)
{
    vks_clip_set *set = read_sample("anim/nif/nifly_TestNifFile_Sequence_MW.kf", NULL, NULL);
    if (!set)
        return;
    CHECK(!strcmp(set->format_detail, "NIF 4.0.0.2, NiSequenceStreamHelper"));
    CHECK_EQ_INT(set->clip_count, 1);
    const vks_clip *c = &set->clips[0];
    CHECK_NEAR(c->duration, 3.33333349f, 0); /* the controller's stop */
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_CLAMP); /* flags 0x0C: bits 1-2 = 2 */
    /* "Idle: Start\r\nIdle: Stop\r\n" at 0, then "Idle2: Start" and "Idle2: Stop" */
    static const char *const ev[4] = {"Idle: Start", "Idle: Stop", "Idle2: Start", "Idle2: Stop"};
    static const float evt[4] = {0, 0, 0.0333333351f, 3.33333349f};
    CHECK_EQ_INT(c->event_count, 4);
    for (uint32_t e = 0; e < c->event_count && e < 4; e++)
        CHECK(!strcmp(c->events[e].name, ev[e]) && c->events[e].time == evt[e]);
    CHECK_EQ_INT(c->track_count, 1);
    if (c->track_count == 1) {
        const vks_track *t = &c->tracks[0];
        CHECK(!strcmp(t->node_name, "Box01"));
        CHECK(t->rotation.key_count == 2 && t->rotation.interp == VKS_INTERP_LINEAR);
        CHECK(t->translation.key_count == 2 && t->scale.key_count == 2);
        CHECK(t->rotation.values[3] == 1.0f && t->rotation.values[4 + 3] == 1.0f);
        CHECK(t->translation.values[0] == 0.0f && t->scale.values[0] == 1.0f);
        CHECK(t->rotation.times[1] == 3.33333349f);
    }
    vks_clip_set_free(set);
}

static float *deform(const vks_skin *s, const vks_affine *locals)
{
    float *pos = calloc((size_t)s->vertex_count * 3 + 3, sizeof(float)), *nrm = calloc((size_t)s->vertex_count * 3 + 3, sizeof(float));
    vks_deform_job j = {s, locals, 1, pos, nrm, NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    free(nrm);
    return pos;
}

static double max_diff(const float *a, const float *b, size_t n)
{
    double w = 0;
    for (size_t i = 0; i < n; i++)
        w = fmax(w, fabs((double)a[i] - b[i]));
    return w;
}

static void test_dance(void)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_clip_set *set = read_sample("nif/niftools_bna_4.0.0.2_dance.nif", &bytes, &size);
    if (!set)
        return;
    vks_skin *skin = NULL;
    vks_error err = {0};
    CHECK(vks_nif_read(NULL, bytes, size, &skin, &err) == VKS_OK); /* the same bytes: a model too */
    free(bytes);
    CHECK(!strcmp(set->format_detail, "NIF 4.0.0.2, keyframe controllers"));
    CHECK_EQ_INT(set->clip_count, 1);
    const vks_clip *c = &set->clips[0];
    printf("dance.nif: clip \"%s\", %.6g s, %u tracks, %u events\n", c->name, (double)c->duration, c->track_count,
           c->event_count);
    CHECK(!strcmp(c->name, "Dance")); /* the root node */
    CHECK_NEAR(c->duration, 1.53333342f, 0);
    CHECK_EQ_INT(c->track_count, 35);
    CHECK(c->event_count == 2 && !strcmp(c->events[0].name, "Idle9: Start") && !strcmp(c->events[1].name, "Idle9: Stop"));
    if (!skin) {
        vks_clip_set_free(set);
        return;
    }
    vks_clip_binding b;
    CHECK(vks_clip_bind(c, skin, &b, &err) == VKS_OK);
    CHECK_EQ_INT(b.bound_tracks, 35);
    CHECK_EQ_INT(b.unmatched_tracks, 0);
    vks_affine *bind = malloc(skin->node_count * sizeof *bind), *l = malloc(skin->node_count * sizeof *l);
    for (uint32_t n = 0; n < skin->node_count; n++)
        bind[n] = skin->nodes[n].bind_local;
    /* at 0 s: every animated node's local is the stored one (rotation to 1e-6, translation
       relative to the figure's ~100 units) */
    vks_clip_sample_locals_d(c, &b, skin, 0.0, l);
    double worst = 0;
    for (uint32_t n = 0; n < skin->node_count; n++)
        for (int i = 0; i < 12; i++)
            worst = fmax(worst, fabs(l[n].m[i] - bind[n].m[i]) / (i >= 9 ? 100.0 : 1.0));
    printf("dance.nif at 0 s: locals differ from the stored nodes by %.3g\n", worst);
    CHECK(worst < 2e-6);
    float *rest = deform(skin, bind), *at0 = deform(skin, l);
    size_t nf = (size_t)skin->vertex_count * 3;
    double d0 = max_diff(rest, at0, nf);
    printf("dance.nif at 0 s: vertices %.3g from the stored pose\n", d0);
    CHECK(d0 < 1e-3);
    /* later frames move the mesh, by more than a hand's width somewhere */
    static const double times[3] = {0.4, 0.8, 1.2};
    float *prev = at0;
    for (int k = 0; k < 3; k++) {
        vks_clip_sample_locals_d(c, &b, skin, times[k], l);
        float *p = deform(skin, l);
        double moved = max_diff(rest, p, nf), step = max_diff(prev, p, nf);
        printf("dance.nif at %.1f s: vertices up to %.3g from the stored pose, %.3g from the last time\n", times[k],
               moved, step);
        CHECK(moved > 5 && step > 1);
        if (prev != at0)
            free(prev);
        prev = p;
    }
    free(prev), free(rest), free(at0), free(bind), free(l);
    vks_clip_binding_free(&b);
    vks_skin_free(skin);
    vks_clip_set_free(set);
}

int main(void)
{
    test_pyffi_sequence("anim/nif/pyffi_test_controllersequence.kf", "NIF 20.0.0.4 (user 11, bs 11)");
    test_pyffi_sequence("anim/nif/pyffi_test_controllersequence_fo3.kf", "NIF 20.2.0.7 (user 11, bs 34)");
    test_clean_string_palette();
    test_morrowind_kf();
    test_dance();
    /* detection: ".kf" by name without the header text too */
    CHECK(vks_detect_clip_format("x", 1, "walk.KF", NULL) == vks_nif_kf_read);
    return vks_test_finish("test_nif_kf");
}
