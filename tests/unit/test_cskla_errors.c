/* .cskla reader against broken documents: each rule's error comes back as one line naming the
 * line and column of the element at fault (worked out here from where the marker text sits),
 * the element path and what is wrong; the limits (max_clips, max_nodes, max_keys, keys made
 * by unrolling repeats) hold; every prefix of a hand-written document and every byte of it
 * overwritten fail cleanly or read into a set that validates. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#define HEAD                                                                                         \
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<NintendoWareIntermediateFile>\n"                   \
    "<GraphicsContentCtr Version=\"1.3.0\" Namespace=\"\">\n<Animations>\n"
#define TAIL "</Animations>\n</GraphicsContentCtr>\n</NintendoWareIntermediateFile>\n"
#define ANIM_OPEN "<SkeletalAnimationData Name=\"a\" FrameSize=\"30\" LoopMode=\"Loop\">\n<MemberAnimationDataSet>\n"
#define ANIM_CLOSE "</MemberAnimationDataSet>\n</SkeletalAnimationData>\n"
#define MEMBER(path, body) \
    "<MemberAnimationData>\n<Path>" path "</Path>\n<TransformAnimation>\n" body "</TransformAnimation>\n</MemberAnimationData>\n"
#define ROT(curves) "<RotateVector3Animation>\n" curves "</RotateVector3Animation>\n"
#define CURVE(c, attrs, segs) \
    "<" c "SegmentsFloatCurve " attrs ">\n<Segments>\n" segs "</Segments>\n</" c "SegmentsFloatCurve>\n"
#define LSEG(keys) "<LinearFloatSegment>\n<Keys>\n" keys "</Keys>\n</LinearFloatSegment>\n"
#define HSEG(keys) "<HermiteFloatSegment>\n<Keys>\n" keys "</Keys>\n</HermiteFloatSegment>\n"
#define LK(f, v) "<LinearFloatKey Frame=\"" #f "\" Value=\"" #v "\"/>\n"
#define GOOD_MEMBER(name) MEMBER("Bones[\"" name "\"]", ROT(CURVE("X", "", LSEG(LK(0, 0) LK(30, 1)))))
#define DOC(members) HEAD ANIM_OPEN members ANIM_CLOSE TAIL

static vks_result read_with(const vks_read_options *opt, const char *doc, size_t n, vks_error *err)
{
    vks_clip_set *set = NULL;
    vks_result r = vks_cskla_read(opt, doc, n, &set, err);
    if (r == VKS_OK) {
        CHECK(vks_clip_set_validate(set, err) == VKS_OK);
        vks_clip_set_free(set);
    } else {
        CHECK(set == NULL);
    }
    return r;
}

/* doc must fail with code; when marker is given, at the line and column where it starts (the
   n-th occurrence, n from 1), else with no line; msg_part and path_part inside. */
static void expect_at(const vks_read_options *opt, const char *doc, const char *marker, int nth, vks_result code,
                      const char *msg_part, const char *path_part)
{
    vks_error err = {0};
    vks_result r = read_with(opt, doc, strlen(doc), &err);
    char where[64] = "";
    if (marker) {
        const char *at = doc;
        for (int i = 0; i < nth && at; i++)
            at = strstr(i ? at + 1 : at, marker);
        if (!at) {
            fprintf(stderr, "marker %s not in the document\n", marker);
            vks_test_failures++;
            return;
        }
        unsigned long line = 1, col = 0;
        for (const char *p = doc; p < at; p++)
            if (*p == '\n')
                line++, col = 0;
            else
                col++;
        snprintf(where, sizeof where, "line %lu, column %lu: ", line, col);
    }
    if (r != code || strncmp(err.msg, where, strlen(where)) || !strstr(err.msg, msg_part) ||
        !strstr(err.path, path_part) || strchr(err.msg, '\n')) {
        fprintf(stderr, "expected %d \"%s...%s\" at \"...%s\"; got %d \"%s\" at \"%s\"\n", (int)code, where, msg_part,
                path_part, (int)r, err.msg, err.path);
        vks_test_failures++;
    }
}

static void expect(const char *doc, const char *marker, vks_result code, const char *msg_part, const char *path_part)
{
    expect_at(NULL, doc, marker, 1, code, msg_part, path_part);
}

static void expect_n(const char *doc, const char *marker, int nth, vks_result code, const char *msg_part,
                     const char *path_part)
{
    expect_at(NULL, doc, marker, nth, code, msg_part, path_part);
}

static void test_rules(void)
{
    expect(DOC(MEMBER("Bones[\"a\"]", "<Foo/>\n")), "<Foo", VKS_ERR_UNSUPPORTED,
           "unknown element <Foo> in TransformAnimation", "MemberAnimationData[0]/TransformAnimation/Foo");
    expect(DOC("<Member/>\n"), "<Member/>", VKS_ERR_UNSUPPORTED, "unknown element <Member>",
           "MemberAnimationDataSet/Member[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT("<WSegmentsFloatCurve/>\n"))), "<WSeg", VKS_ERR_UNSUPPORTED,
           "XSegmentsFloatCurve", "RotateVector3Animation/WSegmentsFloatCurve");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", "<CubicFloatSegment/>\n")))), "<Cubic", VKS_ERR_UNSUPPORTED,
           "unknown element <CubicFloatSegment> in Segments", "Segments/CubicFloatSegment[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", HSEG(LK(0, 1)))))), "<LinearFloatKey", VKS_ERR_FORMAT,
           "<LinearFloatKey> in a Hermite segment", "Keys/LinearFloatKey[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", HSEG("<HermiteFloatKey Frame=\"0\" Value=\"0\" OutSlope=\"0\"/>\n"))))),
           "<HermiteFloatKey", VKS_ERR_FORMAT, "without InSlope", "HermiteFloatKey[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG(LK(5, 0) LK(4, 1)))))), "<LinearFloatKey Frame=\"4",
           VKS_ERR_FORMAT, "key at frame 4 comes before the previous key at frame 5", "LinearFloatKey[1]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG(LK(0, 0) LK(10, 1)) LSEG(LK(8, 0)))))),
           "<LinearFloatKey Frame=\"8", VKS_ERR_FORMAT, "before the previous segment's last key at frame 10",
           "LinearFloatSegment[1]/Keys/LinearFloatKey[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG("<LinearFloatKey Frame=\"abc\" Value=\"0\"/>\n"))))),
           "<LinearFloatKey", VKS_ERR_FORMAT, "Frame=\"abc\" is not a number", "LinearFloatKey[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG("<LinearFloatKey Frame=\"nan\" Value=\"0\"/>\n"))))),
           "<LinearFloatKey", VKS_ERR_FORMAT, "Frame=\"nan\"", "LinearFloatKey[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG("<LinearFloatKey Frame=\"0\" Value=\"1e39\"/>\n"))))),
           "<LinearFloatKey", VKS_ERR_FORMAT, "Value=\"1e39\"", "LinearFloatKey[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG("<LinearFloatKey Value=\"0\"/>\n"))))), "<LinearFloatKey",
           VKS_ERR_FORMAT, "no Frame attribute", "LinearFloatKey[0]");
    expect(HEAD "<SkeletalAnimationData Name=\"a\">\n" ANIM_CLOSE TAIL, "<SkeletalAnimationData", VKS_ERR_FORMAT,
           "no FrameSize attribute", "Animations/SkeletalAnimationData[0]");
    expect(HEAD "<SkeletalAnimationData FrameSize=\"0\">\n" ANIM_CLOSE TAIL, "<SkeletalAnimationData", VKS_ERR_FORMAT,
           "at least one frame", "SkeletalAnimationData[0]");
    expect(HEAD "<SkeletalAnimationData FrameSize=\"3\" LoopMode=\"Twice\">\n" ANIM_CLOSE TAIL, "<SkeletalAnimationData",
           VKS_ERR_FORMAT, "LoopMode \"Twice\"", "SkeletalAnimationData[0]");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "PostRepeatMethod=\"Sometimes\"", LSEG(LK(0, 0)))))), "<XSeg",
           VKS_ERR_FORMAT, "PostRepeatMethod \"Sometimes\"", "XSegmentsFloatCurve");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "StartFrame=\"5\" EndFrame=\"2\"", LSEG(LK(0, 0)))))), "<XSeg",
           VKS_ERR_FORMAT, "EndFrame 2 comes before StartFrame 5", "XSegmentsFloatCurve");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "StartFrame=\"50\"", LSEG(LK(0, 0) LK(10, 1)))))), "<XSeg",
           VKS_ERR_FORMAT, "bone \"a\" Rotate X: EndFrame 10 comes before StartFrame 50", "XSegmentsFloatCurve");
    expect_n(DOC(GOOD_MEMBER("a") GOOD_MEMBER("b") GOOD_MEMBER("a")), "<MemberAnimationData>\n<Path>Bones[\"a\"]", 2,
           VKS_ERR_FORMAT, "bone \"a\" appears twice", "MemberAnimationData[2]");
    expect(DOC("<MemberAnimationData>\n<TransformAnimation/>\n</MemberAnimationData>\n"), "</MemberAnimationData>",
           VKS_ERR_FORMAT, "without a Path", "MemberAnimationData[0]");
    expect(DOC(MEMBER("Bones[arm]", "")), "</Path>", VKS_ERR_FORMAT, "has no [\"<bone>\"] part", "Path");
    expect(DOC(MEMBER("", "")), "</Path>", VKS_ERR_FORMAT, "empty Path", "MemberAnimationData[0]/Path");
    expect(DOC("<MemberAnimationData Path='Bones[\"a\"]'>\n<Path>b</Path>\n</MemberAnimationData>\n"), "</Path>",
           VKS_ERR_FORMAT, "a second Path", "Path");
    expect_n(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG(LK(0, 0))) CURVE("X", "", LSEG(LK(0, 0)))))), "<XSeg", 2,
           VKS_ERR_FORMAT, "a second X curve", "XSegmentsFloatCurve");
    expect(DOC("<MemberAnimationData>\n<Path>a</Path>\n<BakedTransformAnimation/>\n</MemberAnimationData>\n"),
           "<BakedTransformAnimation", VKS_ERR_UNSUPPORTED, "baked matrix animation", "BakedTransformAnimation");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", LSEG("<LinearFloatKey Frame=\"0\" Value=\"0\"><x/></LinearFloatKey>\n"))))),
           "<x/>", VKS_ERR_UNSUPPORTED, "unexpected element <x>", "LinearFloatKey[0]/x");
    expect("<?xml version=\"1.0\"?>\n<Model/>\n", "<Model", VKS_ERR_FORMAT, "root element is <Model>",
           "NintendoWareIntermediateFile");
    expect(HEAD "<MaterialAnimationData/>\n" TAIL, NULL, VKS_ERR_FORMAT, "no SkeletalAnimationData (only other kinds",
           "Animations");
    expect("<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e \"boom\">]>\n<NintendoWareIntermediateFile/>\n", "\"boom\"",
           VKS_ERR_UNSUPPORTED, "entity declaration \"e\"", "NintendoWareIntermediateFile");
    expect(DOC(MEMBER("Bones[\"a\"]", ROT("</TransformAnimation>\n"))), "TransformAnimation>\n</Rotate", VKS_ERR_FORMAT,
           "malformed XML: mismatched tag", "RotateVector3Animation");
    expect(HEAD "<SkeletalAnimationData FrameSize=\"1\"><Skeleton><Bones>\n<Bone/>\n</Bones></Skeleton>"
                "</SkeletalAnimationData>" TAIL,
           "<Bone/>", VKS_ERR_FORMAT, "Bone without a Name", "Bones/Bone[0]");
    expect_n(HEAD "<SkeletalAnimationData FrameSize=\"1\"><Skeleton><Bones>\n<Bone Name=\"x\"/>\n<Bone Name=\"x\"/>\n"
                "</Bones></Skeleton></SkeletalAnimationData>" TAIL,
           "<Bone Name=\"x\"/>", 2, VKS_ERR_FORMAT, "Skeleton: bone \"x\" appears twice", "Bones/Bone[1]");
    expect(HEAD "<SkeletalAnimationData FrameSize=\"1\"><Skeleton><Bones>\n<Bone Name=\"x\"><Transform>\n<Shear/>"
                "</Transform></Bone>\n</Bones></Skeleton></SkeletalAnimationData>" TAIL,
           "<Shear", VKS_ERR_UNSUPPORTED, "unknown element <Shear> in a bone's Transform", "Transform/Shear");
    expect(HEAD "<SkeletalAnimationData FrameSize=\"1e-50\"/>\n" TAIL, "<SkeletalAnimationData", VKS_ERR_FORMAT,
           "gives no duration", "SkeletalAnimationData[0]");
    /* a Hermite slope of 1e38 per frame is no float tangent per second at 30 fps */
    expect(DOC(MEMBER("Bones[\"a\"]", ROT(CURVE("X", "", HSEG("<HermiteFloatKey Frame=\"0\" Value=\"0\" Slope=\"1e38\"/>\n"
                                                               "<HermiteFloatKey Frame=\"1\" Value=\"0\" Slope=\"0\"/>\n"))))),
           "<XSeg", VKS_ERR_FORMAT, "bone \"a\" Rotate X: a value or a tangent", "XSegmentsFloatCurve");
    vks_read_options opt = {0};
    opt.clip.fps = INFINITY;
    expect_at(&opt, DOC(GOOD_MEMBER("a")), NULL, 1, VKS_ERR_INVALID, "clip.fps", "cskla");
}

static void test_limits(void)
{
    vks_read_options opt = {0};
    opt.clip.max_clips = 1;
    expect_at(&opt, HEAD "<SkeletalAnimationData FrameSize=\"1\"/>\n<SkeletalAnimationData FrameSize=\"1\"/>\n" TAIL,
              "<SkeletalAnimationData", 2, VKS_ERR_LIMIT, "more than 1 SkeletalAnimationData", "SkeletalAnimationData[1]");
    opt.clip.max_clips = 0;
    opt.max_nodes = 2;
    expect_at(&opt, DOC(GOOD_MEMBER("a") GOOD_MEMBER("b") GOOD_MEMBER("c")), "<MemberAnimationData>", 3, VKS_ERR_LIMIT,
              "more than 2 MemberAnimationData", "MemberAnimationData[2]");
    expect_at(&opt, HEAD "<SkeletalAnimationData FrameSize=\"1\"><Skeleton><Bones>\n<Bone Name=\"x\"/>\n<Bone Name=\"y\"/>\n"
                         "<Bone Name=\"z\"/>\n</Bones></Skeleton></SkeletalAnimationData>" TAIL,
              "<Bone Name=\"z", 1, VKS_ERR_LIMIT, "more than 2 bones", "Bone[2]");
    opt.max_nodes = 0;
    opt.clip.max_keys = 3;
    expect_at(&opt, DOC(GOOD_MEMBER("a") GOOD_MEMBER("b")), "<LinearFloatKey", 4, VKS_ERR_LIMIT, "more than 3 keys",
              "LinearFloatKey[1]");
    /* two keys repeated over a million frames: the unrolled keys pass the limit */
    opt.clip.max_keys = 1000;
    expect_at(&opt,
              HEAD "<SkeletalAnimationData FrameSize=\"1000000\">\n<MemberAnimationDataSet>\n" MEMBER(
                  "Bones[\"a\"]", ROT(CURVE("X", "PostRepeatMethod=\"Repeat\"", LSEG(LK(0, 0) LK(1, 1))))) ANIM_CLOSE TAIL,
              "<XSeg", 1, VKS_ERR_LIMIT, "repeats of frames 0..1 over FrameSize 1e+06", "XSegmentsFloatCurve");
    /* ... and a hostile period (1e-6 frames) is refused before anything is made */
    opt.clip.max_keys = 0;
    expect_at(&opt,
              HEAD "<SkeletalAnimationData FrameSize=\"1000000\">\n<MemberAnimationDataSet>\n" MEMBER(
                  "Bones[\"a\"]", ROT(CURVE("X", "StartFrame=\"0\" EndFrame=\"0.000001\" PostRepeatMethod=\"Mirror\"",
                                            LSEG(LK(0, 0) LK(1, 1))))) ANIM_CLOSE TAIL,
              "<XSeg", 1, VKS_ERR_LIMIT, "repeats", "XSegmentsFloatCurve");
}

/* A document with every feature, for the prefixes and the overwritten bytes. */
static const char full[] =
    HEAD "<SkeletalAnimationData Name=\"all\" FrameSize=\"20\" LoopMode=\"Loop\">\n<MemberAnimationDataSet>\n" MEMBER(
        "Bones[\"arm\"]",
        "<ScaleVector3Animation>\n" CURVE("Y", "", "<StepFloatSegment><Keys><StepFloatKey Frame=\"0\" Value=\"1\"/>"
                                                   "<StepFloatKey Frame=\"10\" Value=\"2\"/></Keys></StepFloatSegment>\n")
        "</ScaleVector3Animation>\n" ROT(CURVE("X", "PostRepeatMethod=\"Mirror\"", LSEG(LK(0, 0) LK(5, 1)))
                                             CURVE("Z", "PreRepeatMethod=\"Repeat\" StartFrame=\"4\" EndFrame=\"8\"",
                                                   HSEG("<HermiteFloatKey Frame=\"4\" Value=\"0\" InSlope=\"0\" OutSlope=\"0.5\"/>"
                                                        "<HermiteFloatKey Frame=\"8\" Value=\"1\" Slope=\"0\"/>\n")))
        "<TranslateVector3Animation>\n" CURVE("X", "PostRepeatMethod=\"RelativeRepeat\"",
                                              LSEG(LK(0, 0) LK(10, 1)) HSEG("<HermiteFloatKey Frame=\"12\" Value=\"3\" Slope=\"1\"/>\n"))
        "</TranslateVector3Animation>\n") ANIM_CLOSE "<SkeletalAnimationData Name=\"two\" FrameSize=\"5\">\n"
    "<MemberAnimationDataSet/>\n<Skeleton RootBoneName=\"arm\"><Bones><Bone Name=\"arm\" ParentBoneName=\"\"><Transform>"
    "<Scale X=\"1\" Y=\"1\" Z=\"1\"/><Rotate X=\"0\" Y=\"0.5\" Z=\"0\"/><Translate X=\"1\" Y=\"2\" Z=\"3\"/></Transform></Bone>"
    "</Bones></Skeleton>\n</SkeletalAnimationData>\n" TAIL;

static void test_damage(void)
{
    size_t size = strlen(full);
    vks_error err = {0};
    CHECK_EQ_INT(read_with(NULL, full, size, &err), VKS_OK);
    const char *end = strstr(full, "</NintendoWareIntermediateFile>") + strlen("</NintendoWareIntermediateFile>");
    int bad = 0;
    for (size_t n = 0; n < (size_t)(end - full); n++) {
        char *copy = malloc(n ? n : 1);
        memcpy(copy, full, n);
        err = (vks_error){0};
        vks_result r = read_with(NULL, copy, n, &err);
        free(copy);
        if (r == VKS_OK || !strstr(err.msg, "line ") || !strstr(err.msg, "column ") || !err.path[0])
            bad++, fprintf(stderr, "prefix %zu: %d \"%s\" at \"%s\"\n", n, (int)r, err.msg, err.path);
    }
    CHECK_EQ_INT(bad, 0);
    /* every byte overwritten by characters that change the document's meaning */
    static const char subst[] = {'<', '"', '9', '-', 'Z', 0};
    int crashes = 0;
    char *copy = malloc(size);
    for (size_t i = 0; i < size; i++)
        for (const char *c = subst; *c; c++) {
            memcpy(copy, full, size);
            copy[i] = *c;
            err = (vks_error){0};
            if (read_with(NULL, copy, size, &err) != VKS_OK && !err.msg[0])
                crashes++;
        }
    free(copy);
    CHECK_EQ_INT(crashes, 0);
}

int main(void)
{
    test_rules();
    test_limits();
    test_damage();
    return vks_test_finish("test_cskla_errors");
}
