/* .cskla reader against small hand-written documents, one rule each, with the samples worked
 * out by hand from the formulas of formats/animation.md section 3 (see the comment above
 * each case): Hermite keys with slopes in value per frame (SPICA's
 * v = L.v + (L.v - R.v)(2w - 3)w^2 + d(w - 1)(L.out(w - 1) + R.in w)), linear and step keys,
 * segments of different kinds in one curve and the gap between two segments, a curve with one
 * key, missing curves taking the file's Skeleton base (and what happens without one), a whole
 * channel missing keeping the bind, Pre/PostRepeatMethod Repeat, Mirror, RelativeRepeat and
 * None, LoopMode and the cycle, the frame rate option, the schema variants (Path forms,
 * curve names, segments and keys without their containers, a Slope for both sides), other
 * animation kinds skipped, detection, and a .cskla played on a .cmdl model. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#define HEAD                                                                                         \
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<NintendoWareIntermediateFile>\n"                   \
    "<GraphicsContentCtr Version=\"1.3.0\" Namespace=\"\">\n<EditData><MetaData><Key>MetaData</Key>" \
    "</MetaData></EditData>\n<Animations>\n"
#define TAIL "</Animations>\n</GraphicsContentCtr>\n</NintendoWareIntermediateFile>\n"
#define ANIM(attrs, members, skel)                                                                   \
    "<SkeletalAnimationData " attrs ">\n<MemberAnimationDataSet>\n" members "</MemberAnimationDataSet>\n" skel \
    "</SkeletalAnimationData>\n"
#define MEMBER(path, body)                                                                           \
    "<MemberAnimationData><Path>" path "</Path><TransformAnimation>\n" body                         \
    "</TransformAnimation></MemberAnimationData>\n"
#define VEC(ch, curves) "<" ch "Vector3Animation>\n" curves "</" ch "Vector3Animation>\n"
#define CURVE(c, attrs, segs)                                                                        \
    "<" c "SegmentsFloatCurve " attrs "><Segments>" segs "</Segments></" c "SegmentsFloatCurve>\n"
#define SEG(kind, keys) "<" kind "FloatSegment><Keys>" keys "</Keys></" kind "FloatSegment>"
#define HK(f, v, i, o) "<HermiteFloatKey Frame=\"" #f "\" Value=\"" #v "\" InSlope=\"" #i "\" OutSlope=\"" #o "\"/>"
#define LK(f, v) "<LinearFloatKey Frame=\"" #f "\" Value=\"" #v "\"/>"
#define SK(f, v) "<StepFloatKey Frame=\"" #f "\" Value=\"" #v "\"/>"
#define XYZ(el, x, y, z) "<" el " X=\"" #x "\" Y=\"" #y "\" Z=\"" #z "\"/>"
#define BONE(name, parent, sx, sy, sz, rx, ry, rz, tx, ty, tz)                                       \
    "<Bone Name=\"" name "\" ParentBoneName=\"" parent "\"><Transform>" XYZ("Scale", sx, sy, sz)      \
    XYZ("Rotate", rx, ry, rz) XYZ("Translate", tx, ty, tz) "</Transform></Bone>\n"
#define SKELETON(bones) "<Skeleton RootBoneName=\"root\"><Bones>\n" bones "</Bones></Skeleton>\n"

static int warnings;
static void count_warning(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (level == VKS_LOG_WARNING)
        warnings++;
    (void)msg;
}

static vks_clip_set *read_doc_fps(const char *doc, float fps)
{
    vks_read_options opt = {0};
    opt.clip.fps = fps;
    opt.logger.func = count_warning;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (vks_cskla_read(&opt, doc, strlen(doc), &set, &err) != VKS_OK) {
        fprintf(stderr, "read failed: %s: %s\n", err.path, err.msg);
        vks_test_failures++;
        return NULL;
    }
    CHECK(vks_clip_set_validate(set, &err) == VKS_OK);
    return set;
}

static vks_clip_set *read_doc(const char *doc) { return read_doc_fps(doc, 0); }

static const vks_track *track(const vks_clip *c, const char *name)
{
    for (uint32_t t = 0; t < c->track_count; t++)
        if (!strcmp(c->tracks[t].node_name, name))
            return &c->tracks[t];
    fprintf(stderr, "no track \"%s\"\n", name);
    vks_test_failures++;
    return NULL;
}

/* Component k of curve cv at frame f (at fps frames per second), at the float time a key on
   that frame has (a key at frame 5 sits at (float)(5 / 30.0), a little after 5 / 30.0). */
static double at_frame(const vks_curve *cv, double f, double fps, int k)
{
    double v[4] = {0};
    if (!cv || !cv->key_count) {
        vks_test_failures++;
        fprintf(stderr, "curve without keys\n");
        return NAN;
    }
    vks_curve_sample_d(cv, (double)(float)(f / fps), v);
    return v[k];
}

/* Hermite with slopes (translate X), linear (rotate X), step (scale Y), one bone.
 * Hermite span 0..10: L = (0, out 0.1), R = (1, in 0.05):
 *   f = 5: d = 5, w = .5: 0 + (-1)(-2)(.25) + 5(-.5)(.1(-.5) + .05(.5)) = .5 + .0625 = .5625
 *   f = 2: d = 2, w = .2: (-1)(-2.6)(.04) + 2(-.8)(.1(-.8) + .05(.2)) = .104 + .112 = .216
 *   f = 15 (second span 10..20, R = (3, in 0), L.out = 0.2): d = 5, w = .5:
 *          1 + (-2)(-2)(.25) + 5(-.5)(.2(-.5) + 0) = 2 + .25 = 2.25
 * Linear 0..30 from 0 to 1.5: f = 10 -> .5.  Step 0 -> 1, 15 -> 2: 14.9 -> 1, 15 -> 2. */
static void test_kinds(void)
{
    static const char doc[] = HEAD ANIM(
        "Name=\"kinds\" FrameSize=\"30\" LoopMode=\"Loop\"",
        MEMBER("Bones[\"arm\"]",
               VEC("Scale", CURVE("X", "", SEG("Linear", LK(0, 1)))
                                CURVE("Y", "", SEG("Step", SK(0, 1) SK(15, 2)))
                                CURVE("Z", "", SEG("Linear", LK(0, 1))))
               VEC("Rotate", CURVE("X", "", SEG("Linear", LK(0, 0) LK(30, 1.5)))
                                 CURVE("Y", "", SEG("Linear", LK(0, 0)))
                                 CURVE("Z", "", SEG("Linear", LK(0, 0))))
               VEC("Translate", CURVE("X", "", SEG("Hermite", HK(0, 0, 0, 0.1) HK(10, 1, 0.05, 0.2) HK(20, 3, 0, 0)))
                                    CURVE("Y", "", SEG("Hermite", HK(0, 2, 0, 0)))
                                    CURVE("Z", "", SEG("Hermite", HK(0, 3, 0, 0))))),
        "") TAIL;
    vks_clip_set *set = read_doc(doc);
    if (!set)
        return;
    CHECK_EQ_INT(set->clip_count, 1);
    const vks_clip *c = &set->clips[0];
    CHECK(!strcmp(c->name, "kinds"));
    CHECK_NEAR(c->duration, 1.0, 1e-7);
    CHECK_NEAR(c->fps, 30, 0);
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_LOOP);
    CHECK_EQ_INT(c->space, VKS_CLIP_LOCAL);
    CHECK(!strcmp(set->format, "cskla"));
    CHECK(strstr(set->format_detail, "1.3.0") && strstr(set->format_detail, "30 fps"));
    const vks_track *t = track(c, "arm");
    if (!t)
        return;
    CHECK_EQ_INT(t->translation.interp, VKS_INTERP_HERMITE);
    CHECK_NEAR(at_frame(&t->translation, 5, 30, 0), 0.5625, 1e-6);
    CHECK_NEAR(at_frame(&t->translation, 2, 30, 0), 0.216, 1e-6);
    CHECK_NEAR(at_frame(&t->translation, 15, 30, 0), 2.25, 1e-6);
    CHECK_NEAR(at_frame(&t->translation, 10, 30, 0), 1, 1e-6);
    CHECK_NEAR(at_frame(&t->translation, 15, 30, 1), 2, 1e-6);
    CHECK_NEAR(at_frame(&t->translation, 15, 30, 2), 3, 1e-6);
    /* tangents per second = slope per frame x 30 */
    CHECK_NEAR(t->translation.out_tangents[0], 0.1 * 30, 1e-5);
    CHECK_EQ_INT(t->rotation.key_count, 0);
    CHECK_EQ_INT(t->euler[0].interp, VKS_INTERP_LINEAR);
    CHECK_NEAR(at_frame(&t->euler[0], 10, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&t->euler[1], 10, 30, 0), 0, 0);
    CHECK_EQ_INT(t->scale.interp, VKS_INTERP_STEP);
    CHECK_NEAR(at_frame(&t->scale, 14.9, 30, 1), 1, 0);
    CHECK_NEAR(at_frame(&t->scale, 15, 30, 1), 2, 0);
    CHECK_NEAR(at_frame(&t->scale, 20, 30, 0), 1, 0);
    vks_clip_set_free(set);

    /* at 60 fps: the same frames, half the seconds, tangents x 60 */
    set = read_doc_fps(doc, 60);
    if (!set)
        return;
    c = &set->clips[0];
    CHECK_NEAR(c->duration, 0.5, 1e-7);
    CHECK_NEAR(c->fps, 60, 0);
    t = track(c, "arm");
    CHECK_NEAR(at_frame(&t->translation, 5, 60, 0), 0.5625, 1e-6);
    CHECK_NEAR(t->translation.out_tangents[0], 0.1 * 60, 1e-5);
    CHECK(strstr(set->format_detail, "60 fps") != NULL);
    vks_clip_set_free(set);
}

/* Segments: a linear 0..10 (0 -> 1) then a Hermite 10..20 (1 -> 0, flat): mixed kinds make
 * one Hermite curve; f = 5 -> .5, f = 12: w = .2: 1 + (1)(-2.6)(.04) = .896, f = 15 -> .5.
 * A gap: linear 0..5 (0 -> 1), linear 10..20 (2 -> 3): the runtime takes the next segment
 * from the first one's end (its start clamped): f = 4 -> .8, f = 5 -> 2, f = 7 -> 2,
 * f = 15 -> 2.5. A curve with one key is a constant. */
static void test_segments(void)
{
    static const char doc[] = HEAD ANIM(
        "Name=\"segs\" FrameSize=\"20\"",
        MEMBER("Bones[\"a\"]",
               VEC("Rotate", CURVE("X", "", SEG("Linear", LK(0, 0) LK(10, 1)) SEG("Hermite", HK(10, 1, 0, 0) HK(20, 0, 0, 0)))
                                 CURVE("Y", "", SEG("Linear", LK(0, 0) LK(5, 1)) SEG("Linear", LK(10, 2) LK(20, 3)))
                                 CURVE("Z", "", SEG("Hermite", HK(7, 0.25, 1, 1))))),
        "") TAIL;
    vks_clip_set *set = read_doc(doc);
    if (!set)
        return;
    const vks_clip *c = &set->clips[0];
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_CLAMP); /* no LoopMode, no repeat */
    const vks_track *t = track(c, "a");
    CHECK_EQ_INT(t->euler[0].interp, VKS_INTERP_HERMITE);
    CHECK_NEAR(at_frame(&t->euler[0], 5, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&t->euler[0], 12, 30, 0), 0.896, 1e-6);
    CHECK_NEAR(at_frame(&t->euler[0], 15, 30, 0), 0.5, 1e-6);
    CHECK_EQ_INT(t->euler[1].interp, VKS_INTERP_LINEAR);
    CHECK_NEAR(at_frame(&t->euler[1], 4, 30, 0), 0.8, 1e-6);
    CHECK_NEAR(at_frame(&t->euler[1], 5, 30, 0), 2, 1e-6);
    CHECK_NEAR(at_frame(&t->euler[1], 7, 30, 0), 2, 1e-6);
    CHECK_NEAR(at_frame(&t->euler[1], 15, 30, 0), 2.5, 1e-6);
    CHECK_NEAR(at_frame(&t->euler[2], 0, 30, 0), 0.25, 0);
    CHECK_NEAR(at_frame(&t->euler[2], 19, 30, 0), 0.25, 0);
    vks_clip_set_free(set);
}

/* Missing curves. With the file's Skeleton (arm: scale 1 1 1, rotate 0 0 .5, translate
 * 1 2 3): translate X only -> Y 2, Z 3; rotate X only -> Y a one-key 0, Z a one-key .5; scale
 * Y only -> X, Z 1. Without it (bone "other" has no Skeleton entry): translate Y, Z are 0,
 * rotate Y, Z stay without keys (0 in the clip model), with warnings. A bone with no
 * Rotate curve at all keeps its rotation channel empty: the bind local plays. */
static void test_missing(void)
{
    static const char doc[] = HEAD ANIM(
        "Name=\"missing\" FrameSize=\"10\" LoopMode=\"OneTime\"",
        MEMBER("Bones[\"arm\"]",
               VEC("Scale", CURVE("Y", "", SEG("Linear", LK(0, 1) LK(10, 3))))
               VEC("Rotate", CURVE("X", "", SEG("Linear", LK(0, 0) LK(10, 1))))
               VEC("Translate", CURVE("X", "", SEG("Linear", LK(0, 0) LK(10, 1)))))
        MEMBER("Bones[\"other\"]",
               VEC("Rotate", CURVE("X", "", SEG("Linear", LK(0, 0) LK(10, 1))))
               VEC("Translate", CURVE("Y", "", SEG("Linear", LK(0, 0) LK(10, 1)))))
        MEMBER("Bones[\"root\"]", VEC("Translate", CURVE("X", "", SEG("Linear", LK(0, 0) LK(10, 1))))),
        SKELETON(BONE("root", "", 1, 1, 1, 0, 0, 0, 0, 0, 0) BONE("arm", "root", 1, 1, 1, 0, 0, 0.5, 1, 2, 3))) TAIL;
    warnings = 0;
    vks_clip_set *set = read_doc(doc);
    if (!set)
        return;
    CHECK_EQ_INT(warnings, 2); /* "other": rotate and translate without a base */
    const vks_clip *c = &set->clips[0];
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_CLAMP);
    const vks_track *arm = track(c, "arm"), *other = track(c, "other"), *root = track(c, "root");
    CHECK_NEAR(at_frame(&arm->translation, 5, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&arm->translation, 5, 30, 1), 2, 0);
    CHECK_NEAR(at_frame(&arm->translation, 5, 30, 2), 3, 0);
    CHECK_EQ_INT(arm->euler[1].key_count, 1);
    CHECK_EQ_INT(arm->euler[2].key_count, 1);
    CHECK_NEAR(at_frame(&arm->euler[2], 5, 30, 0), 0.5, 0);
    CHECK_NEAR(at_frame(&arm->euler[1], 5, 30, 0), 0, 0);
    CHECK_NEAR(at_frame(&arm->scale, 5, 30, 1), 2, 1e-6);
    CHECK_NEAR(at_frame(&arm->scale, 5, 30, 0), 1, 0);
    CHECK_NEAR(at_frame(&arm->scale, 5, 30, 2), 1, 0);
    CHECK_EQ_INT(other->euler[1].key_count, 0);
    CHECK_EQ_INT(other->euler[2].key_count, 0);
    CHECK_NEAR(at_frame(&other->translation, 5, 30, 0), 0, 0);
    CHECK_NEAR(at_frame(&other->translation, 5, 30, 1), 0.5, 1e-6);
    CHECK_EQ_INT(root->rotation.key_count + root->euler[0].key_count + root->euler[1].key_count +
                     root->euler[2].key_count + root->scale.key_count,
                 0);

    /* played on a skin: root's bind rotation (a quarter turn about z) stays, its x moves */
    vks_skin *s = vks_skin_create(NULL);
    s->nodes = vks_skin_alloc_array(s, 2, sizeof *s->nodes);
    s->node_count = 2;
    const char *names[2] = {"root", "arm"};
    for (int i = 0; i < 2; i++) {
        s->nodes[i].name = vks_skin_strndup(s, names[i], strlen(names[i]));
        s->nodes[i].parent = i - 1;
    }
    float q[4] = {0, 0, (float)sin(M_PI / 4), (float)cos(M_PI / 4)}, t0[3] = {0, 0, 0}, one[3] = {1, 1, 1};
    s->nodes[0].bind_local = vks_affine_from_trs(t0, q, one);
    s->nodes[1].bind_local = vks_affine_identity();
    vks_clip_binding b;
    vks_error err = {0};
    CHECK(vks_clip_bind(c, s, &b, &err) == VKS_OK);
    CHECK_EQ_INT(b.bound_tracks, 2);
    CHECK_EQ_INT(b.unmatched_tracks, 1);
    vks_affine l[2];
    vks_clip_sample_locals_d(c, &b, s, (double)(float)(5.0 / 30), l);
    CHECK_NEAR(l[0].m[9], 0.5, 1e-6);  /* translate x from the curve */
    CHECK_NEAR(l[0].m[0], 0, 1e-6);    /* x axis turned onto y: the bind rotation */
    CHECK_NEAR(l[0].m[1], 1, 1e-6);
    CHECK_NEAR(l[1].m[10], 2, 1e-6);   /* arm: base translate y */
    vks_clip_binding_free(&b);
    vks_skin_free(s);
    vks_clip_set_free(set);
}

/* Repeat methods over FrameSize 30 for keys at 0 (0) and 10 (1), linear:
 *   Repeat:         f 15 -> .5, f 25 -> .5, f 10 -> 0 (a new period starts), f 9.9 -> .99
 *   Mirror:         f 12 -> .8 (frame 8), f 25 -> .5, f 20 -> 0
 *   RelativeRepeat: f 15 -> 1.5, f 25 -> 2.5
 *   None:           f 15 -> 1
 * PreRepeatMethod over StartFrame 10, EndFrame 20 (keys 10 -> 0, 20 -> 1): Repeat f 5 -> .5,
 * Mirror f 5 -> .5, f 8 -> .2 (frame 12), None f 5 -> 0. Without LoopMode the post methods
 * decide the cycle: any Mirror -> MIRROR. */
static void test_repeats(void)
{
#define LIN LK(0, 0) LK(10, 1)
    static const char doc[] = HEAD ANIM(
        "Name=\"post\" FrameSize=\"30\"",
        MEMBER("Bones[\"a\"]",
               VEC("Rotate", CURVE("X", "PostRepeatMethod=\"Repeat\"", SEG("Linear", LIN))
                                 CURVE("Y", "PostRepeatMethod=\"Mirror\"", SEG("Linear", LIN))
                                 CURVE("Z", "PostRepeatMethod=\"RelativeRepeat\"", SEG("Linear", LIN))))
        MEMBER("Bones[\"b\"]",
               VEC("Rotate", CURVE("X", "StartFrame=\"10\" EndFrame=\"20\" PreRepeatMethod=\"Repeat\"",
                                   SEG("Linear", LK(10, 0) LK(20, 1)))
                                 CURVE("Y", "StartFrame=\"10\" EndFrame=\"20\" PreRepeatMethod=\"MirroredRepeat\"",
                                       SEG("Linear", LK(10, 0) LK(20, 1)))
                                 CURVE("Z", "StartFrame=\"10\" EndFrame=\"20\" PreRepeatMethod=\"None\"",
                                       SEG("Linear", LK(10, 0) LK(20, 1)))))
        MEMBER("Bones[\"c\"]", VEC("Rotate", CURVE("X", "PostRepeatMethod=\"None\"", SEG("Linear", LIN))
                                                 CURVE("Y", "", SEG("Step", SK(0, 0) SK(5, 1)))
                                                 CURVE("Z", "", SEG("Step", SK(0, 0))))),
        "") TAIL;
#undef LIN
    vks_clip_set *set = read_doc(doc);
    if (!set)
        return;
    const vks_clip *c = &set->clips[0];
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_MIRROR);
    CHECK(strstr(set->format_detail, "Repeat") && strstr(set->format_detail, "Mirror") &&
          strstr(set->format_detail, "RelativeRepeat"));
    const vks_track *a = track(c, "a"), *b = track(c, "b"), *cc = track(c, "c");
    CHECK_NEAR(at_frame(&a->euler[0], 15, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&a->euler[0], 25, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&a->euler[0], 10, 30, 0), 0, 1e-6);
    CHECK_NEAR(at_frame(&a->euler[0], 9.9, 30, 0), 0.99, 1e-5);
    CHECK_NEAR(at_frame(&a->euler[1], 12, 30, 0), 0.8, 1e-6);
    CHECK_NEAR(at_frame(&a->euler[1], 25, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&a->euler[1], 20, 30, 0), 0, 1e-6);
    CHECK_NEAR(at_frame(&a->euler[2], 15, 30, 0), 1.5, 1e-6);
    CHECK_NEAR(at_frame(&a->euler[2], 25, 30, 0), 2.5, 1e-6);
    CHECK_NEAR(at_frame(&b->euler[0], 5, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&b->euler[1], 5, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&b->euler[1], 8, 30, 0), 0.2, 1e-6);
    CHECK_NEAR(at_frame(&b->euler[2], 5, 30, 0), 0, 1e-6);
    CHECK_NEAR(at_frame(&b->euler[2], 15, 30, 0), 0.5, 1e-6);
    CHECK_NEAR(at_frame(&cc->euler[0], 15, 30, 0), 1, 1e-6);
    CHECK_EQ_INT(cc->euler[1].interp, VKS_INTERP_STEP);
    CHECK_NEAR(at_frame(&cc->euler[1], 4.9, 30, 0), 0, 0);
    CHECK_NEAR(at_frame(&cc->euler[1], 5, 30, 0), 1, 0);
    vks_clip_set_free(set);

    /* post Repeat alone, no LoopMode -> LOOP; LoopMode wins over the curves */
    static const char loop[] = HEAD ANIM("Name=\"l\" FrameSize=\"20\"",
                                         MEMBER("Bones[\"a\"]", VEC("Rotate", CURVE("X", "PostRepeatMethod=\"Repeat\"",
                                                                                    SEG("Linear", LK(0, 0) LK(10, 1))))),
                                         "")
        ANIM("Name=\"m\" FrameSize=\"20\" LoopMode=\"OneTime\"",
             MEMBER("Bones[\"a\"]", VEC("Rotate", CURVE("X", "PostRepeatMethod=\"Mirror\"", SEG("Linear", LK(0, 0) LK(10, 1))))),
             "") TAIL;
    set = read_doc(loop);
    if (!set)
        return;
    CHECK_EQ_INT(set->clip_count, 2);
    CHECK_EQ_INT(set->clips[0].cycle, VKS_CYCLE_LOOP);
    CHECK_EQ_INT(set->clips[1].cycle, VKS_CYCLE_CLAMP);
    CHECK_EQ_INT(vks_clip_set_find(set, "m"), 1);
    vks_clip_set_free(set);
}

/* Variants: Path forms (Skeleton.Bones["x"].Transform, a plain name, a Path attribute),
 * XFloatCurve / XCurve names, segments without <Segments>, keys without <Keys>, a Slope for
 * both sides; no Animations container; other AnimationData kinds and unknown elements
 * outside the skeletal animation skipped. */
static void test_variants(void)
{
    static const char doc[] =
        "<?xml version=\"1.0\"?>\n<NintendoWareIntermediateFile><GraphicsContentCtr>\n"
        "<Textures/>\n"
        "<SkeletalAnimationData Name=\"v\" FrameSize=\"10\" LoopMode=\"loop\">\n"
        "<MemberAnimationDataSet>\n"
        "<MemberAnimationData><Path>Skeleton.Bones[\"p q\"].Transform</Path><TransformAnimation>"
        "<RotateVector3Animation><XFloatCurve><LinearFloatSegment><LinearFloatKey Frame=\"0\" Value=\"0\"/>"
        "<LinearFloatKey Frame=\"10\" Value=\"1\"/></LinearFloatSegment></XFloatCurve>"
        "<YCurve><Segments><HermiteFloatSegment><Keys><HermiteFloatKey Frame=\"0\" Value=\"0\" Slope=\"0.1\"/>"
        "<HermiteFloatKey Frame=\"10\" Value=\"1\" Slope=\"0.1\"/></Keys></HermiteFloatSegment></Segments></YCurve>"
        "</RotateVector3Animation></TransformAnimation></MemberAnimationData>\n"
        "<MemberAnimationData><Path> plain </Path><TransformAnimation/></MemberAnimationData>\n"
        "<MemberAnimationData Path='Bones[\"attr\"]'><UserData/></MemberAnimationData>\n"
        "</MemberAnimationDataSet></SkeletalAnimationData>\n"
        "<Animations><MaterialAnimationData Name=\"mat\"><Whatever/></MaterialAnimationData></Animations>\n"
        "</GraphicsContentCtr></NintendoWareIntermediateFile>\n";
    warnings = 0;
    vks_clip_set *set = read_doc(doc);
    if (!set)
        return;
    CHECK_EQ_INT(warnings, 3); /* Textures, MaterialAnimationData, p q's missing Z without a base */
    CHECK(strstr(set->format_detail, "1 other animation(s) skipped") != NULL);
    const vks_clip *c = &set->clips[0];
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_LOOP);
    CHECK_EQ_INT(c->track_count, 3);
    const vks_track *t = track(c, "p q");
    CHECK(track(c, "plain") != NULL);
    CHECK(track(c, "attr") != NULL);
    if (t) {
        CHECK_NEAR(at_frame(&t->euler[0], 5, 30, 0), 0.5, 1e-6);
        /* a straight line: slopes .1 per frame over 10 frames from 0 to 1 */
        CHECK_NEAR(at_frame(&t->euler[1], 3, 30, 0), 0.3, 1e-6);
        CHECK_NEAR(t->euler[1].in_tangents[1], 3, 1e-5);
    }
    vks_clip_set_free(set);
}

/* Detection: the root and a SkeletalAnimationData; a .cmdl model is not a clip. */
static void test_detect(void)
{
    static const char doc[] = HEAD ANIM("FrameSize=\"1\"", "", "") TAIL;
    const char *f = NULL;
    CHECK(vks_detect_clip_format(doc, strlen(doc), NULL, &f) == vks_cskla_read);
    CHECK(f && !strcmp(f, "cskla"));
    static const char model[] = "<NintendoWareIntermediateFile><GraphicsContentCtr><Models/></GraphicsContentCtr>"
                                "</NintendoWareIntermediateFile>";
    CHECK(vks_detect_clip_format(model, strlen(model), "m.cmdl", NULL) == NULL);
    CHECK(vks_detect_clip_format("x", 1, "walk.CSKLA", NULL) == vks_cskla_read);
    vks_clip_set *set = read_doc(doc);
    if (set) {
        CHECK_EQ_INT(set->clips[0].track_count, 0);
        CHECK_NEAR(set->clips[0].duration, 1.0 / 30, 1e-8);
    }
    vks_clip_set_free(set);
}

/* On a .cmdl model: a two-bone model (root, arm one unit along x) and a clip turning the
 * root a quarter turn about z over 10 frames (Hermite, flat ends) while arm's x scale steps
 * to 2 at frame 5; the deformed vertices worked out below. */
static void test_on_cmdl(void)
{
    static const char model[] =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<NintendoWareIntermediateFile>\n"
        "<GraphicsContentCtr Version=\"1.3.0\" Namespace=\"\"><Models>\n"
        "<SkeletalModel Name=\"m\"><Shapes><SeparateDataShapeCtr><PrimitiveSets>"
        "<PrimitiveSetCtr SkinningMode=\"SmoothSkinning\"><BoneIndexTable>0 1</BoneIndexTable><Primitives>"
        "<PrimitiveCtr><IndexStreams><UbyteIndexStreamCtr PrimitiveMode=\"Triangles\" Size=\"3\">0 1 2"
        "</UbyteIndexStreamCtr></IndexStreams></PrimitiveCtr></Primitives></PrimitiveSetCtr></PrimitiveSets>"
        "<VertexAttributes>"
        "<Vector3VertexStreamCtr Usage=\"Position\" QuantizedMode=\"Float\" Scale=\"1\" VertexSize=\"3\">"
        "0 0 0  2 0 0  1 1 0</Vector3VertexStreamCtr>"
        "<Vector1VertexStreamCtr Usage=\"BoneIndex\" QuantizedMode=\"Ubyte\" Scale=\"1\" VertexSize=\"3\">"
        "0 1 1</Vector1VertexStreamCtr>"
        "</VertexAttributes></SeparateDataShapeCtr></Shapes>"
        "<Skeleton ScalingRule=\"Standard\"><Bones>"
        "<Bone Name=\"root\" ParentBoneName=\"\"><Transform><Scale X=\"1\" Y=\"1\" Z=\"1\"/><Rotate X=\"0\" Y=\"0\" Z=\"0\"/>"
        "<Translate X=\"0\" Y=\"0\" Z=\"0\"/></Transform></Bone>"
        "<Bone Name=\"arm\" ParentBoneName=\"root\"><Transform><Scale X=\"1\" Y=\"1\" Z=\"1\"/><Rotate X=\"0\" Y=\"0\" Z=\"0\"/>"
        "<Translate X=\"1\" Y=\"0\" Z=\"0\"/></Transform></Bone>"
        "</Bones></Skeleton></SkeletalModel></Models></GraphicsContentCtr></NintendoWareIntermediateFile>\n";
    static const char clip[] = HEAD ANIM(
        "Name=\"turn\" FrameSize=\"10\" LoopMode=\"OneTime\"",
        MEMBER("Bones[\"root\"]", VEC("Rotate", CURVE("Z", "", SEG("Hermite", HK(0, 0, 0, 0) HK(10, 1.5707963267948966, 0, 0)))))
        MEMBER("Bones[\"arm\"]", VEC("Scale", CURVE("X", "", SEG("Step", SK(0, 1) SK(5, 2))))),
        SKELETON(BONE("root", "", 1, 1, 1, 0, 0, 0, 0, 0, 0) BONE("arm", "root", 1, 1, 1, 0, 0, 0, 1, 0, 0))) TAIL;
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_cmdl_read(NULL, model, strlen(model), &s, &err) != VKS_OK) {
        fprintf(stderr, "cmdl: %s: %s\n", err.path, err.msg);
        vks_test_failures++;
        return;
    }
    vks_clip_set *set = read_doc(clip);
    if (!set) {
        vks_skin_free(s);
        return;
    }
    const vks_clip *c = &set->clips[0];
    vks_clip_binding b;
    CHECK(vks_clip_bind(c, s, &b, &err) == VKS_OK);
    CHECK_EQ_INT(b.bound_tracks, 2);
    CHECK_EQ_INT(b.untouched_nodes, 0);
    vks_affine l[4];
    float pos[9], nrm[9];
    vks_deform_job j = {s, l, 1, pos, nrm, NULL};
    /* frame 10 (clamped end): root turned 90 degrees about z; arm's x scale 2. The tip vertex
       (2, 0, 0) is 1 unit along arm's x in arm space; scaled to 2, then arm at (1, 0, 0) in
       root space, turned: (1 + 2, 0, 0) -> (0, 3, 0). The vertex (1, 1, 0) on arm: arm space
       (0, 1, 0), scale x does not touch it: root space (1, 1, 0) -> turned (-1, 1, 0). */
    vks_clip_sample_locals_d(c, &b, s, vks_clip_local_time(c, c->cycle, 100.0), l);
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    CHECK_NEAR(pos[3], 0, 1e-5);
    CHECK_NEAR(pos[4], 3, 1e-5);
    CHECK_NEAR(pos[6], -1, 1e-5);
    CHECK_NEAR(pos[7], 1, 1e-5);
    /* frame 5: the Hermite half way (flat ends: 45 degrees), scale just stepped to 2 */
    vks_clip_sample_locals_d(c, &b, s, (double)(float)(5.0 / 30), l);
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    CHECK_NEAR(pos[3], 3 * cos(M_PI / 4), 1e-5);
    CHECK_NEAR(pos[4], 3 * sin(M_PI / 4), 1e-5);
    vks_clip_binding_free(&b);
    vks_clip_set_free(set);
    vks_skin_free(s);
}

/* The fuzz seeds (hand-written documents and one the writer made) read and validate. */
static void test_seeds(void)
{
    static const char *const seeds[] = {"tests/fuzz/cskla/hand_all_kinds.cskla", "tests/fuzz/cskla/hand_variants.cskla",
                                        "tests/fuzz/cskla/written_quat_keys.cskla"};
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        size_t size = 0;
        uint8_t *bytes = vks_test_read_file(vks_test_source_path(seeds[i]), &size);
        CHECK(bytes != NULL);
        if (!bytes)
            continue;
        vks_clip_set *set = NULL;
        vks_error err = {0};
        vks_result r = vks_cskla_read(NULL, bytes, size, &set, &err);
        if (r != VKS_OK)
            fprintf(stderr, "%s: %s: %s\n", seeds[i], err.path, err.msg);
        CHECK(r == VKS_OK && set->clip_count >= 1);
        CHECK(vks_detect_clip_format(bytes, size, NULL, NULL) == vks_cskla_read);
        vks_clip_set_free(set);
        free(bytes);
    }
}

int main(void)
{
    test_seeds();
    test_kinds();
    test_segments();
    test_missing();
    test_repeats();
    test_variants();
    test_detect();
    test_on_cmdl();
    return vks_test_finish("test_cskla");
}
