/* Arma RTM: the armaio sample pair (plain RTM_0101 and binarised BMTR v5 of one 4-bone clip)
 * against values decoded by hand from their bytes and against each other, and the writer
 * read back in every form (plain, BMTR 3, 4, 5, compressed and not).
 *
 * The skeleton that composes BMTR's parent-relative transforms is armaio's own for these
 * samples (tests/test_rtm.py, test_bmtr_to_rtm): pelvis > torso > {rightarm, leftarm}. The
 * plain file agrees: RightArm's and LeftArm's translations equal Torso's in frame 1, the
 * arms turning about the torso's pivot. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "character.h"
#include "character_clips.h"
#include "rtm_fixture.h"
#include "testutil.h"

static const vks_track *track_named(const vks_clip *c, const char *name)
{
    for (uint32_t t = 0; t < c->track_count; t++)
        if (!strcmp(c->tracks[t].node_name, name))
            return &c->tracks[t];
    return NULL;
}

static vks_affine_d key_affine(const vks_track *tr, uint32_t k)
{
    float one[3] = {1, 1, 1};
    const float *s = tr->scale.key_count ? tr->scale.values + 3 * k : one;
    vks_affine a = vks_affine_from_trs(tr->translation.values + 3 * k, tr->rotation.values + 4 * k, s);
    return vks_affine_d_from(&a);
}

/* BMTR's L composed down the armaio skeleton: D(n) = D(parent) * L(n). */
static void compose_keys(const vks_clip *c, uint32_t k, vks_affine_d D[RTM_ARMAIO_BONES])
{
    for (int i = 0; i < RTM_ARMAIO_BONES; i++) {
        const vks_track *tr = &c->tracks[i];
        vks_affine_d L = key_affine(tr, k);
        int32_t p = rtm_armaio_parents[i];
        D[i] = p < 0 ? L : vks_affine_d_mul(&D[p], &L);
    }
}

/* Largest difference between the plain clip's D keys and the BMTR clip's composed ones. */
static double plain_vs_bmtr(const vks_clip *plain, const vks_clip *bmtr)
{
    double worst = 0;
    for (uint32_t k = 0; k < plain->tracks[0].rotation.key_count; k++) {
        vks_affine_d D[RTM_ARMAIO_BONES];
        compose_keys(bmtr, k, D);
        for (int i = 0; i < RTM_ARMAIO_BONES; i++) {
            vks_affine_d P = key_affine(&plain->tracks[i], k);
            double d = vks_affine_d_max_diff(&P, &D[i]);
            worst = d > worst ? d : worst;
        }
    }
    return worst;
}

static void check_events(const vks_clip *c, float duration)
{
    CHECK_EQ_INT(c->event_count, 2);
    if (c->event_count != 2)
        return;
    /* RTM_MDAT at 0x10: phase 0x3e579436 = 0.210526317, "Step", "Sound"; then 0x3ef286bd */
    CHECK(!strcmp(c->events[0].name, "Step") && !strcmp(c->events[0].value, "Sound"));
    CHECK_NEAR(c->events[0].time, 0.210526317 * duration, 1e-6);
    CHECK(!strcmp(c->events[1].name, "Test") && !strcmp(c->events[1].value, "Prop"));
    CHECK_NEAR(c->events[1].time, 0.473684222 * duration, 1e-6);
}

static void test_plain_sample(const vks_clip_set *set)
{
    CHECK(!strcmp(set->format, "rtm") && !strcmp(set->format_detail, "RTM_0101"));
    CHECK_EQ_INT(set->clip_count, 1);
    const vks_clip *c = &set->clips[0];
    CHECK(!strcmp(c->name, ""));
    CHECK_EQ_INT(c->space, VKS_CLIP_MODEL_DELTA);
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_LOOP);
    CHECK_EQ_INT(c->root_track, -1);
    CHECK_NEAR(c->duration, 1.0, 0);
    /* motion at 0x35: 1.0, 3.0, 2.0 */
    CHECK(c->motion[0] == 1.0f && c->motion[1] == 3.0f && c->motion[2] == 2.0f);
    CHECK_EQ_INT(c->track_count, 4);
    for (int i = 0; i < 4 && i < (int)c->track_count; i++) {
        const vks_track *tr = &c->tracks[i];
        CHECK(!strcmp(tr->node_name, rtm_armaio_names[i]));
        CHECK_EQ_INT(tr->rotation.key_count, 2); /* frames at 0x41: 2 */
        CHECK_EQ_INT(tr->translation.key_count, 2);
        CHECK_EQ_INT(tr->scale.key_count, 0); /* every matrix is a rotation */
        CHECK_EQ_INT(tr->rotation.interp, VKS_INTERP_LINEAR);
        CHECK(tr->rotation.times[0] == 0.0f && tr->rotation.times[1] == 1.0f);
    }
    check_events(c, 1.0f);
    /* Frame 1 (phase at 0x20D), Torso's matrix at 0x281: 0000803f 00000000 00000000 |
       00000000 f64e303f 579c39bf | 00000000 579c393f f64e303f | 00000000 1462 9f3e 579c393f:
       x axis (1,0,0), y axis (0, 0.6887048, -0.7250418), z axis (0, 0.7250418, 0.6887048),
       translation (0, 0.31129515, 0.7250418). As columns, a turn about x by
       atan2(-0.7250418, 0.6887048) = -46.47 degrees. */
    const vks_track *torso = track_named(c, "Torso");
    CHECK(torso != NULL);
    if (!torso)
        return;
    vks_affine_d m = key_affine(torso, 1);
    const double want[12] = {1, 0, 0, 0, 0.6887048482894897, -0.7250418066978455,
                             0, 0.7250418066978455, 0.6887048482894897, 0, 0.31129515171051025, 0.7250418066978455};
    for (int i = 0; i < 12; i++)
        CHECK_NEAR(m.m[i], want[i], 2e-7);
    double half = atan2(-0.7250418066978455, 0.6887048482894897) / 2;
    const float *q = torso->rotation.values + 4;
    CHECK_NEAR(q[0], sin(half), 1e-6);
    CHECK_NEAR(q[3], cos(half), 1e-6);
}

static void test_bmtr_sample(const vks_clip_set *set)
{
    CHECK(!strcmp(set->format, "rtm") && !strcmp(set->format_detail, "BMTR v5"));
    const vks_clip *c = &set->clips[0];
    CHECK_EQ_INT(c->space, VKS_CLIP_PARENT_DELTA);
    CHECK(c->motion[0] == 1.0f && c->motion[1] == 3.0f && c->motion[2] == 2.0f);
    CHECK_EQ_INT(c->track_count, 4);
    static const char *const lower[4] = {"pelvis", "torso", "rightarm", "leftarm"};
    for (int i = 0; i < 4 && i < (int)c->track_count; i++) {
        CHECK(!strcmp(c->tracks[i].node_name, lower[i])); /* binarisation lowercased them */
        CHECK_EQ_INT(c->tracks[i].rotation.key_count, 2);
        CHECK_EQ_INT(c->tracks[i].scale.key_count, 0);
    }
    check_events(c, 1.0f);
    /* Frame 1's bones at 0xBF (count 4 at 0xBA, flag 0 at 0xBE); torso's 14 bytes at 0xCD:
       s16 c0e6 0000 0000 cf3a = -6464, 0, 0, 15055 (/16384: -0.39453125, 0, 0, 0.91888428),
       f16 0000 fb34 ccb9 = 0, 0.311279297, -0.724609375. The tracks hold (qx, -qy, qz, qw)
       normalised and (-tx, ty, -tz). */
    const vks_track *torso = track_named(c, "torso");
    CHECK(torso != NULL);
    if (!torso)
        return;
    double len = sqrt(0.39453125 * 0.39453125 + 0.91888427734375 * 0.91888427734375);
    const float *q = torso->rotation.values + 4, *t = torso->translation.values + 3;
    CHECK_NEAR(q[0], -0.39453125 / len, 1e-7);
    CHECK_NEAR(q[1], 0, 0);
    CHECK_NEAR(q[3], 0.91888427734375 / len, 1e-7);
    CHECK_NEAR(t[0], 0, 0);
    CHECK_NEAR(t[1], 0.311279296875, 0);
    CHECK_NEAR(t[2], 0.724609375, 0);
}

static vks_clip_write_options wopt(uint32_t version, int compressed, uint32_t frames)
{
    vks_clip_write_options o = {0};
    o.version = version, o.compressed = compressed, o.frames = frames;
    return o;
}

static uint8_t *write_clip(const vks_clip *c, const vks_skin *skin, vks_clip_write_options o, size_t *size)
{
    uint8_t *bytes = NULL;
    vks_error err = {0};
    if (vks_rtm_write(c, skin, &o, &bytes, size, &err) != VKS_OK) {
        char buf[512];
        fprintf(stderr, "write v%u: %s\n", o.version, vks_error_format(&err, NULL, buf, sizeof buf));
        vks_test_failures++;
        return NULL;
    }
    return bytes;
}

/* The plain sample written in each form with its two frames, read back, compared. */
static void test_roundtrip_samples(const vks_clip *plain, const vks_clip *bmtr)
{
    vks_skin *skin = rtm_fixture_armaio_skin(1); /* with a "(model)" root the files must leave out */
    struct {
        uint32_t version;
        int compressed;
    } forms[] = {{0, 0}, {3, 0}, {4, 0}, {5, 0}, {5, 1}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        for (int from_bmtr = 0; from_bmtr < 2; from_bmtr++) {
            const vks_clip *src = from_bmtr ? bmtr : plain;
            size_t size = 0;
            uint8_t *bytes = write_clip(src, skin, wopt(forms[i].version, forms[i].compressed, 2), &size);
            if (!bytes)
                continue;
            vks_clip_set *set = rtm_fixture_read(bytes, size, 0, "written");
            const vks_clip *c = &set->clips[0];
            CHECK_EQ_INT(c->track_count, 4);
            CHECK_EQ_INT(c->space, forms[i].version ? VKS_CLIP_PARENT_DELTA : VKS_CLIP_MODEL_DELTA);
            CHECK(c->motion[0] == 1.0f && c->motion[1] == 3.0f && c->motion[2] == 2.0f);
            CHECK_EQ_INT(c->event_count, forms[i].version == 3 ? 0 : 2); /* BMTR 3 has no properties */
            for (uint32_t t = 0; t < c->track_count && t < 4; t++)
                CHECK(!strcasecmp(c->tracks[t].node_name, rtm_armaio_names[t]));
            /* the deformation the file means, against the plain sample's */
            double d = 0;
            if (forms[i].version == 0) {
                for (uint32_t k = 0; k < 2; k++)
                    for (int b = 0; b < 4; b++) {
                        vks_affine_d a = key_affine(&c->tracks[b], k), e = key_affine(&plain->tracks[b], k);
                        double x = vks_affine_d_max_diff(&a, &e);
                        d = x > d ? x : d;
                    }
                CHECK_NEAR(d, 0, from_bmtr ? 1e-3 : 1e-6);
            } else {
                d = plain_vs_bmtr(plain, c);
                CHECK_NEAR(d, 0, 1.5e-3); /* s16 quaternions and half translations */
            }
            /* and through the sampler on the skin, at the keys */
            for (double t = 0; t <= 1.0; t += 1.0)
                CHECK_NEAR(rtm_fixture_world_diff(c, plain, skin, t), 0, 1.5e-3);
            if (forms[i].version == 5) /* the flag before the phase array: 2 for LZO, else 0 */
                CHECK_EQ_INT(bytes[0x74], forms[i].compressed ? 2 : 0);
            vks_clip_set_free(set);
            free(bytes);
        }
    }
    vks_skin_free(skin);
}

/* A LOCAL clip over a larger skeleton: arrays past 1024 bytes, so BMTR 3 and 4 compress them. */
static vks_clip_set *wave_clip(uint32_t bones, float duration)
{
    vks_clip_set *set = vks_clip_set_create(NULL);
    vks_clip *c = vks_clip_set_alloc(set, 1, sizeof *c);
    vks_track *tr = vks_clip_set_alloc(set, bones, sizeof *tr);
    float *times = vks_clip_set_alloc(set, 3, sizeof *times);
    set->clips = c, set->clip_count = 1;
    c->name = "wave", c->duration = duration, c->space = VKS_CLIP_LOCAL, c->root_track = -1;
    c->tracks = tr, c->track_count = bones;
    times[0] = 0, times[1] = duration / 2, times[2] = duration;
    for (uint32_t b = 0; b < bones; b++) {
        char name[24];
        snprintf(name, sizeof name, "bone%u", b);
        tr[b].node_name = vks_clip_set_strndup(set, name, strlen(name));
        float *q = vks_clip_set_alloc(set, 12, sizeof *q);
        for (int k = 0; k < 3; k++) {
            double a = 0.3 * sin(0.7 * b + 2.1 * k), axis[3] = {sin(b), cos(b * 1.3), 0.5};
            double n = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            for (int i = 0; i < 3; i++)
                q[k * 4 + i] = (float)(axis[i] / n * sin(a / 2));
            q[k * 4 + 3] = (float)cos(a / 2);
        }
        tr[b].rotation.key_count = 3, tr[b].rotation.components = 4, tr[b].rotation.interp = VKS_INTERP_LINEAR;
        tr[b].rotation.times = times, tr[b].rotation.values = q;
    }
    return set;
}

/* root, then pairs: bone 2i+1 under the root, bone 2i+2 under it (short chains keep the
   quantisation error from adding up along them). */
static vks_skin *wide_skin(uint32_t bones)
{
    const char **names = malloc(bones * sizeof *names);
    int32_t *parents = malloc(bones * sizeof *parents);
    float(*off)[3] = malloc(bones * sizeof *off);
    char(*buf)[24] = malloc(bones * sizeof *buf);
    for (uint32_t b = 0; b < bones; b++) {
        snprintf(buf[b], sizeof buf[b], "bone%u", b);
        names[b] = buf[b];
        parents[b] = b == 0 ? -1 : (b % 2 ? 0 : (int32_t)b - 1);
        off[b][0] = 0.01f * (float)(b % 7), off[b][1] = 0.1f, off[b][2] = -0.02f * (float)(b % 3);
    }
    vks_skin *s = rtm_fixture_skin(names, parents, (const float(*)[3])off, bones);
    free(names), free(parents), free(off), free(buf);
    return s;
}

static void test_roundtrip_wide(void)
{
    const uint32_t bones = 81; /* 81 * 14 = 1134 bytes a frame */
    vks_clip_set *src = wave_clip(bones, 2.0f);
    vks_skin *skin = wide_skin(bones);
    struct {
        uint32_t version, frames;
        int compressed;
    } forms[] = {{0, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 1}, {5, 0, 0}, {3, 300, 0}, {4, 300, 0}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        size_t size = 0;
        uint8_t *bytes = write_clip(&src->clips[0], skin, wopt(forms[i].version, forms[i].compressed, forms[i].frames),
                                    &size);
        if (!bytes)
            continue;
        vks_clip_set *set = rtm_fixture_read(bytes, size, 2.0f, "wide");
        const vks_clip *c = &set->clips[0];
        uint32_t frames = forms[i].frames ? forms[i].frames : 61; /* 30 a second over 2 s, plus one */
        CHECK_EQ_INT(c->track_count, bones);
        CHECK_EQ_INT(c->tracks[0].rotation.key_count, frames);
        double worst = 0;
        for (uint32_t f = 0; f < frames; f += 7) {
            double t = 2.0 * f / (frames - 1), d = rtm_fixture_world_diff(c, &src->clips[0], skin, t);
            worst = d > worst ? d : worst;
        }
        printf("wide skeleton (%u bones), v%u%s, %u frames: %zu bytes, largest world difference %.3g\n", bones,
               forms[i].version, forms[i].compressed ? " LZO" : "", frames, size, worst);
        CHECK_NEAR(worst, 0, forms[i].version ? 1.5e-3 : 1e-5);
        if (forms[i].version == 5 && !forms[i].compressed)
            CHECK(size > (size_t)frames * bones * 14);
        if (forms[i].version && (forms[i].version < 5 || forms[i].compressed)) {
            /* the arrays are LZO streams: literal runs whose end markers follow each frame */
            static const uint8_t end[3] = {0x11, 0, 0};
            CHECK(memcmp(bytes + size - 3, end, 3) == 0);
        }
        vks_clip_set_free(set);
        free(bytes);
    }
    vks_skin_free(skin);
    vks_clip_set_free(src);
}

/* BMTR v4 with a flag before each array (armaio's reading) still reads: a v5 file relabelled. */
static void test_v4_layouts(const vks_clip *plain)
{
    vks_skin *skin = rtm_fixture_armaio_skin(0);
    size_t size = 0;
    uint8_t *bytes = write_clip(plain, skin, wopt(5, 1, 3), &size);
    if (bytes) {
        bytes[4] = 4;
        vks_clip_set *set = rtm_fixture_read(bytes, size, 0, "v4 flagged");
        CHECK(!strcmp(set->format_detail, "BMTR v4"));
        CHECK_EQ_INT(set->clips[0].tracks[0].rotation.key_count, 3);
        CHECK_NEAR(rtm_fixture_world_diff(&set->clips[0], plain, skin, 1.0), 0, 1.5e-3);
        vks_clip_set_free(set);
        free(bytes);
    }
    vks_skin_free(skin);
}

/* The generated character (a skin space node with an offset, bind rotations, 32 bones) and its
 * walk: a plain file holds each bone's skinning matrix K = S W IB (skin.h) at each frame, and a
 * BMTR file's parent-relative keys compose to it down the skin's hierarchy. */
static void test_skinning_matrices(void)
{
    vks_gen_params gp = {0};
    gp.vertices = 600;
    vks_error err = {0};
    vks_skin *gen = vks_gen_character(&gp, &err);
    vks_clip_set *clips = NULL;
    CHECK(gen && vks_gen_clips(gen, &clips, &err) == VKS_OK);
    if (!clips)
        return;
    const vks_clip *walk = &clips->clips[0];
    const uint32_t frames = 16;
    vks_affine *locals = malloc(gen->node_count * sizeof *locals);
    vks_affine_d *world = malloc(gen->node_count * sizeof *world), *K = malloc(gen->bone_count * sizeof *K);
    vks_affine_d *D = malloc(gen->node_count * sizeof *D);
    for (uint32_t version = 0; version <= 4; version += 4) {
        size_t size = 0;
        uint8_t *bytes = write_clip(walk, gen, wopt(version, 1, frames), &size);
        if (!bytes)
            continue;
        vks_clip_set *set = rtm_fixture_read(bytes, size, walk->duration, "generated walk");
        const vks_clip *c = &set->clips[0];
        CHECK_EQ_INT(c->track_count, gen->node_count);
        vks_clip_binding b;
        CHECK(vks_clip_bind(walk, gen, &b, &err) == VKS_OK);
        double worst = 0;
        for (uint32_t f = 0; f < frames; f++) {
            vks_clip_sample_locals_d(walk, &b, gen, walk->duration * f / (frames - 1), locals);
            vks_cpu_world_d(gen, locals, world);
            vks_cpu_skin_matrices_d(gen, world, K);
            for (uint32_t n = 0; n < gen->node_count; n++) { /* tracks follow the nodes */
                vks_affine_d k = key_affine(&c->tracks[n], f);
                int32_t p = gen->nodes[n].parent;
                D[n] = version && p >= 0 ? vks_affine_d_mul(&D[p], &k) : k;
            }
            for (uint32_t i = 0; i < gen->bone_count; i++) {
                double d = vks_affine_d_max_diff(&D[gen->bones[i].node], &K[i]);
                worst = d > worst ? d : worst;
            }
        }
        printf("generated walk as %s: largest |key - skinning matrix| %.3g\n", version ? "BMTR v4" : "RTM_0101",
               worst);
        CHECK_NEAR(worst, 0, version ? 1e-3 : 1e-6);
        vks_clip_binding_free(&b);
        vks_clip_set_free(set);
        free(bytes);
    }
    free(locals), free(world), free(K), free(D);
    vks_clip_set_free(clips);
    vks_skin_free(gen);
}

int main(void)
{
    size_t psize, bsize;
    uint8_t *pbytes = rtm_fixture_sample("armaio_animation.rtm", &psize);
    uint8_t *bbytes = rtm_fixture_sample("armaio_animation_bmtr.rtm", &bsize);
    CHECK_EQ_INT(psize, 849);
    CHECK_EQ_INT(bsize, 247);
    vks_clip_set *plain = rtm_fixture_read(pbytes, psize, 0, "armaio_animation.rtm");
    vks_clip_set *bmtr = rtm_fixture_read(bbytes, bsize, 0, "armaio_animation_bmtr.rtm");
    test_plain_sample(plain);
    test_bmtr_sample(bmtr);

    double d = plain_vs_bmtr(&plain->clips[0], &bmtr->clips[0]);
    printf("plain vs BMTR, composed through pelvis > torso > {rightarm, leftarm}: max |D| difference %.3g\n", d);
    CHECK_NEAR(d, 0, 1e-3);
    /* the same through the binding and the sampler, on a skin with the plain file's names */
    vks_skin *skin = rtm_fixture_armaio_skin(0);
    for (double t = 0; t <= 1.0; t += 1.0)
        CHECK_NEAR(rtm_fixture_world_diff(&plain->clips[0], &bmtr->clips[0], skin, t), 0, 1e-3);
    vks_skin_free(skin);

    test_roundtrip_samples(&plain->clips[0], &bmtr->clips[0]);
    test_roundtrip_wide();
    test_v4_layouts(&plain->clips[0]);
    test_skinning_matrices();

    vks_clip_set_free(plain);
    vks_clip_set_free(bmtr);
    free(pbytes);
    free(bbytes);
    return vks_test_finish("test_rtm");
}
