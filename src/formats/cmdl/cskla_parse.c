/* The .cskla reader's first step: expat over the document into a cskla_doc (see
 * cskla_read.c for the schema and the variants accepted).
 *
 * Inside a SkeletalAnimationData every element must be one the schema names: an element the
 * reader does not know there is an error naming its line and column, because skipping it
 * could drop motion without a word. Outside it (other contents of GraphicsContentCtr, other
 * kinds of AnimationData) unknown elements are skipped and noted through the logger with
 * their line and column; EditData, UserData and MetaData are skipped anywhere. */
#include "core/log.h"
#include "cskla_internal.h"
#include "cmdl_xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum kind {
    K_ROOT, K_GCC, K_ANIMS, K_ANIM, K_MEMBERS, K_MEMBER, K_PATH, K_XFORM, K_VEC3, K_CURVE, K_SEGMENTS,
    K_SEGMENT, K_KEYS, K_KEY, K_SKEL, K_BONES, K_BONE, K_BONE_XFORM, K_LEAF
};

typedef struct parser {
    cmdl_xml x; /* the walk the .cmdl reader uses (cmdl_xml.h): stack, path, text, errors */
    cskla_ctx *c;
    int channel, component; /* the Vector3Animation and curve being read */
    int seg_kind;
} parser;

/* ---- helpers ---- */

#define fail(p, ...) vks__cmdl_xml_fail(&(p)->x, __VA_ARGS__)
#define attr vks__cmdl_xml_attr

static void where(parser *p, cmdl_where *w) { vks__cmdl_xml_where(&p->x, w); }

static int nomem(parser *p)
{
    fail(p, VKS_ERR_NOMEM, "out of memory");
    return -1;
}

static void note(parser *p, const char *what, const char *name)
{
    vks__log(&p->c->c.opt.logger, VKS_LOG_WARNING, ".cskla line %lu, column %lu: %s <%.60s> skipped",
             (unsigned long)XML_GetCurrentLineNumber(p->x.xp), (unsigned long)XML_GetCurrentColumnNumber(p->x.xp), what,
             name);
}

/* A number attribute within +-limit; absent: *present = 0 (when present is NULL, absence
   is an error). Returns 0 after failing. */
static int attr_number(parser *p, const XML_Char **atts, const char *name, double limit, double *out, int *present)
{
    const char *v = attr(atts, name);
    if (present)
        *present = v != NULL;
    if (!v) {
        if (present)
            return 1;
        fail(p, VKS_ERR_FORMAT, "no %s attribute", name);
        return 0;
    }
    if (!vks__cmdl_number(v, out) || fabs(*out) > limit) {
        fail(p, VKS_ERR_FORMAT, "%s=\"%.40s\" is not a number within +-%g", name, v, limit);
        return 0;
    }
    return 1;
}

static int is_metadata(const char *name)
{
    return !strcmp(name, "EditData") || !strcmp(name, "UserData") || !strcmp(name, "MetaData");
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

static cskla_anim *top_anim(parser *p)
{
    vks_vec *v = &p->c->doc.anims;
    return (cskla_anim *)v->data + v->count - 1;
}

static cskla_member *top_member(parser *p)
{
    vks_vec *v = &top_anim(p)->members;
    return (cskla_member *)v->data + v->count - 1;
}

static cskla_curve *top_curve(parser *p)
{
    return &top_member(p)->curve[p->channel][p->component];
}

static cskla_bone *top_bone(parser *p)
{
    vks_vec *v = &top_anim(p)->bones;
    return (cskla_bone *)v->data + v->count - 1;
}

/* ---- element starts ---- */

static int start_anim(parser *p, const XML_Char **atts)
{
    cskla_ctx *x = p->c;
    if (x->doc.anims.count >= x->c.opt.clip.max_clips) {
        fail(p, VKS_ERR_LIMIT, "more than %u SkeletalAnimationData (clip limit)", x->c.opt.clip.max_clips);
        return -1;
    }
    cskla_anim *a = vks__cmdl_push(&x->c, &x->doc.anims, 1);
    if (!a)
        return nomem(p);
    a->members.elem = sizeof(cskla_member);
    a->bones.elem = sizeof(cskla_bone);
    a->loop_mode = -1;
    where(p, &a->at);
    const char *n = attr(atts, "Name");
    if (!(a->name = vks__cmdl_strdup(&x->c, n ? n : "")))
        return nomem(p);
    if (!attr_number(p, atts, "FrameSize", 1e9, &a->frame_size, NULL))
        return -1;
    if (!(a->frame_size > 0)) {
        fail(p, VKS_ERR_FORMAT, "FrameSize %g: an animation needs at least one frame", a->frame_size);
        return -1;
    }
    const char *lm = attr(atts, "LoopMode");
    if (lm) {
        if (!strcasecmp(lm, "Loop"))
            a->loop_mode = 0;
        else if (!strcasecmp(lm, "OneTime"))
            a->loop_mode = 1;
        else {
            fail(p, VKS_ERR_FORMAT, "LoopMode \"%.40s\" (expected Loop or OneTime)", lm);
            return -1;
        }
    }
    return K_ANIM;
}

/* "Bones[\"name\"]" anywhere in text (Skeleton.Bones["x"], Bones["x"].Transform, ...), else
   the whole trimmed text when it has no bracket (a plain bone name, as binary CANM keys). */
static int path_name(parser *p, const char *text, size_t len, char *buf, size_t size)
{
    while (len && (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r'))
        text++, len--;
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    const char *br = memchr(text, '[', len);
    if (br) {
        if (!vks__cmdl_ref_name(br, len - (size_t)(br - text), "", buf, size) || !buf[0]) {
            fail(p, VKS_ERR_FORMAT, "Path \"%.60s\" has no [\"<bone>\"] part", text);
            return 0;
        }
        return 1;
    }
    if (len == 0 || len >= size) {
        fail(p, VKS_ERR_FORMAT, len ? "Path of %zu characters is too long" : "empty Path", len);
        return 0;
    }
    memcpy(buf, text, len);
    buf[len] = 0;
    return 1;
}

static int set_member_name(parser *p, const char *text, size_t len)
{
    char name[256];
    cskla_member *m = top_member(p);
    if (m->name) {
        fail(p, VKS_ERR_FORMAT, "MemberAnimationData has a second Path");
        return 0;
    }
    if (!path_name(p, text, len, name, sizeof name))
        return 0;
    if (!(m->name = vks__cmdl_strdup(&p->c->c, name)))
        return nomem(p), 0;
    return 1;
}

static int start_member(parser *p, const XML_Char **atts)
{
    cskla_ctx *x = p->c;
    cskla_anim *a = top_anim(p);
    if (a->members.count >= x->c.opt.max_nodes) {
        fail(p, VKS_ERR_LIMIT, "more than %u MemberAnimationData in one animation (max_nodes)", x->c.opt.max_nodes);
        return -1;
    }
    cskla_member *m = vks__cmdl_push(&x->c, &a->members, 1);
    if (!m)
        return nomem(p);
    where(p, &m->at);
    const char *path = attr(atts, "Path");
    if (path && !set_member_name(p, path, strlen(path)))
        return -1;
    return K_MEMBER;
}

static int repeat_method(parser *p, const XML_Char **atts, const char *name, int *out)
{
    const char *v = attr(atts, name);
    *out = CSKLA_NONE;
    if (!v || !strcasecmp(v, "None"))
        return 1;
    if (!strcasecmp(v, "Repeat"))
        *out = CSKLA_REPEAT;
    else if (!strcasecmp(v, "Mirror") || !strcasecmp(v, "MirroredRepeat"))
        *out = CSKLA_MIRROR;
    else if (!strcasecmp(v, "RelativeRepeat"))
        *out = CSKLA_RELATIVE;
    else {
        fail(p, VKS_ERR_FORMAT, "%s \"%.40s\" (expected None, Repeat, Mirror or RelativeRepeat)", name, v);
        return 0;
    }
    return 1;
}

/* X/Y/Z followed by SegmentsFloatCurve (the probable name), FloatCurve or Curve. */
static int curve_component(const char *name)
{
    if ((name[0] != 'X' && name[0] != 'Y' && name[0] != 'Z') ||
        (strcmp(name + 1, "SegmentsFloatCurve") && strcmp(name + 1, "FloatCurve") && strcmp(name + 1, "Curve")))
        return -1;
    return name[0] - 'X';
}

static int start_curve(parser *p, const char *name, const XML_Char **atts)
{
    p->component = curve_component(name);
    cskla_curve *c = top_curve(p);
    if (c->present) {
        fail(p, VKS_ERR_FORMAT, "a second %c curve in this Vector3Animation", 'X' + p->component);
        return -1;
    }
    c->present = 1;
    c->keys.elem = sizeof(cskla_key);
    c->kinds.elem = 1;
    where(p, &c->at);
    if (!attr_number(p, atts, "StartFrame", 1e9, &c->start, &c->has_start) ||
        !attr_number(p, atts, "EndFrame", 1e9, &c->end, &c->has_end) ||
        !repeat_method(p, atts, "PreRepeatMethod", &c->pre) || !repeat_method(p, atts, "PostRepeatMethod", &c->post))
        return -1;
    if (c->has_start && c->has_end && c->end < c->start) {
        fail(p, VKS_ERR_FORMAT, "EndFrame %g comes before StartFrame %g", c->end, c->start);
        return -1;
    }
    return K_CURVE;
}

/* HermiteFloatSegment (keys with InSlope/OutSlope or one Slope), LinearFloatSegment,
   StepFloatSegment. */
static int segment_kind(const char *name)
{
    if (!strcmp(name, "HermiteFloatSegment") || !strcmp(name, "UnifiedHermiteFloatSegment"))
        return CSKLA_HERMITE;
    if (!strcmp(name, "LinearFloatSegment"))
        return CSKLA_LINEAR;
    if (!strcmp(name, "StepFloatSegment"))
        return CSKLA_STEP;
    return -1;
}

static const char *key_name(int kind)
{
    return kind == CSKLA_HERMITE ? "HermiteFloatKey" : kind == CSKLA_LINEAR ? "LinearFloatKey" : "StepFloatKey";
}

static int start_segment(parser *p, const char *name)
{
    p->seg_kind = segment_kind(name);
    cskla_curve *c = top_curve(p);
    c->segment_open = 1;
    c->segment_kind = p->seg_kind;
    return K_SEGMENT;
}

static int start_key(parser *p, const char *name, const XML_Char **atts)
{
    cskla_ctx *x = p->c;
    if (strcmp(name, key_name(p->seg_kind)) && !(p->seg_kind == CSKLA_HERMITE && !strcmp(name, "UnifiedHermiteFloatKey"))) {
        fail(p, VKS_ERR_FORMAT, "<%.60s> in a %s segment (expected %s)", name,
             p->seg_kind == CSKLA_HERMITE ? "Hermite" : p->seg_kind == CSKLA_LINEAR ? "Linear" : "Step",
             key_name(p->seg_kind));
        return -1;
    }
    if (x->doc.keys >= x->c.opt.clip.max_keys) {
        fail(p, VKS_ERR_LIMIT, "more than %u keys in the file (max_keys)", x->c.opt.clip.max_keys);
        return -1;
    }
    x->doc.keys++;
    cskla_key k = {0};
    if (!attr_number(p, atts, "Frame", 1e9, &k.frame, NULL) || !attr_number(p, atts, "Value", 3e38, &k.value, NULL))
        return -1;
    if (p->seg_kind == CSKLA_HERMITE) {
        int has_in, has_out, has_slope;
        double slope = 0;
        if (!attr_number(p, atts, "InSlope", 3e38, &k.in, &has_in) ||
            !attr_number(p, atts, "OutSlope", 3e38, &k.out, &has_out) ||
            !attr_number(p, atts, "Slope", 3e38, &slope, &has_slope))
            return -1;
        if ((!has_in || !has_out) && !has_slope) {
            fail(p, VKS_ERR_FORMAT, "Hermite key without %s (nor a Slope for both)", has_in ? "OutSlope" : "InSlope");
            return -1;
        }
        if (!has_in)
            k.in = slope;
        if (!has_out)
            k.out = slope;
    }
    cskla_curve *c = top_curve(p);
    size_t n = c->keys.count;
    cskla_key *prev = n ? (cskla_key *)c->keys.data + n - 1 : NULL;
    if (prev && k.frame < prev->frame) {
        fail(p, VKS_ERR_FORMAT, "key at frame %g comes before the %s key at frame %g", k.frame,
             c->segment_open ? "previous segment's last" : "previous", prev->frame);
        return -1;
    }
    if (prev && c->segment_open) {
        /* the previous segment ends at prev: from there the value is this segment's first */
        ((uint8_t *)c->kinds.data)[n - 1] = CSKLA_STEP;
        if (k.frame > prev->frame && k.value != prev->value) {
            cskla_key *jump = vks__cmdl_push(&x->c, &c->keys, 1);
            uint8_t *jk = vks__cmdl_push(&x->c, &c->kinds, 1);
            if (!jump || !jk)
                return nomem(p);
            prev = (cskla_key *)c->keys.data + n - 1;
            jump->frame = prev->frame;
            jump->value = k.value;
            *jk = CSKLA_STEP;
        }
    }
    c->segment_open = 0;
    cskla_key *dst = vks__cmdl_push(&x->c, &c->keys, 1);
    uint8_t *kind = vks__cmdl_push(&x->c, &c->kinds, 1);
    if (!dst || !kind)
        return nomem(p);
    *dst = k;
    *kind = (uint8_t)p->seg_kind;
    return K_KEY;
}

static int start_bone(parser *p, const XML_Char **atts)
{
    cskla_ctx *x = p->c;
    cskla_anim *a = top_anim(p);
    if (a->bones.count >= x->c.opt.max_nodes) {
        fail(p, VKS_ERR_LIMIT, "more than %u bones in the Skeleton (max_nodes)", x->c.opt.max_nodes);
        return -1;
    }
    const char *n = attr(atts, "Name");
    if (!n || !n[0]) {
        fail(p, VKS_ERR_FORMAT, "Bone without a Name");
        return -1;
    }
    cskla_bone *b = vks__cmdl_push(&x->c, &a->bones, 1);
    if (!b)
        return nomem(p);
    where(p, &b->at);
    b->base[CSKLA_SCALE][0] = b->base[CSKLA_SCALE][1] = b->base[CSKLA_SCALE][2] = 1.0f;
    if (!(b->name = vks__cmdl_strdup(&x->c, n)))
        return nomem(p);
    return K_BONE;
}

static int start_bone_part(parser *p, const char *name, const XML_Char **atts)
{
    int ch = !strcmp(name, "Scale") ? CSKLA_SCALE : !strcmp(name, "Rotate") ? CSKLA_ROTATE
             : !strcmp(name, "Translate") ? CSKLA_TRANSLATE : -1;
    if (ch < 0) {
        fail(p, VKS_ERR_UNSUPPORTED, "unknown element <%.60s> in a bone's Transform (expected Scale, Rotate, Translate)",
             name);
        return -1;
    }
    static const char *const xyz[3] = {"X", "Y", "Z"};
    float *dst = top_bone(p)->base[ch];
    for (int i = 0; i < 3; i++) {
        double v;
        int present;
        if (!attr_number(p, atts, xyz[i], 3e38, &v, &present))
            return -1;
        if (present)
            dst[i] = (float)v;
    }
    return K_LEAF;
}

/* An element the schema does not have in the animation data: an error. */
static int unknown(parser *p, const char *name, const char *parent, const char *expected)
{
    fail(p, VKS_ERR_UNSUPPORTED, "unknown element <%.60s> in %s (expected %s)", name, parent, expected);
    return -1;
}

/* child_kind below a TransformAnimation: channels, curves, segments and keys. */
static int curve_child_kind(parser *p, int parent, const char *name, const XML_Char **atts)
{
    switch (parent) {
    case K_XFORM:
        p->channel = !strcmp(name, "ScaleVector3Animation")       ? CSKLA_SCALE
                     : !strcmp(name, "RotateVector3Animation")    ? CSKLA_ROTATE
                     : !strcmp(name, "TranslateVector3Animation") ? CSKLA_TRANSLATE
                                                                  : -1;
        if (p->channel < 0)
            return unknown(p, name, "TransformAnimation",
                           "ScaleVector3Animation, RotateVector3Animation or TranslateVector3Animation");
        return K_VEC3;
    case K_VEC3:
        if (curve_component(name) < 0)
            return unknown(p, name, "a Vector3Animation", "XSegmentsFloatCurve, YSegmentsFloatCurve or ZSegmentsFloatCurve");
        return start_curve(p, name, atts);
    case K_CURVE:
        if (!strcmp(name, "Segments"))
            return K_SEGMENTS;
        if (segment_kind(name) >= 0) /* variant: segments without the Segments container */
            return start_segment(p, name);
        return unknown(p, name, "a curve", "Segments");
    case K_SEGMENTS:
        if (segment_kind(name) >= 0)
            return start_segment(p, name);
        return unknown(p, name, "Segments", "HermiteFloatSegment, LinearFloatSegment or StepFloatSegment");
    case K_SEGMENT:
        if (!strcmp(name, "Keys"))
            return K_KEYS;
        if (ends_with(name, "FloatKey")) /* variant: keys without the Keys container */
            return start_key(p, name, atts);
        return unknown(p, name, "a segment", "Keys");
    case K_KEYS:
        return start_key(p, name, atts);
    default: return -1;
    }
}

/* The kind of a child element, or -1 to skip it (and its subtree). May fail. */
static int child_kind(cmdl_xml *xml, int parent, const char *name, const XML_Char **atts)
{
    parser *p = (parser *)xml;
    cskla_ctx *x = p->c;
    if (is_metadata(name))
        return -1;
    switch (parent) {
    case K_ROOT:
        if (!strcmp(name, "GraphicsContentCtr")) {
            const char *v = attr(atts, "Version");
            if (v && !x->doc.version && !(x->doc.version = vks__cmdl_strdup(&x->c, v)))
                return nomem(p);
            return K_GCC;
        }
        note(p, "unknown element", name);
        return -1;
    case K_GCC:
        if (!strcmp(name, "Animations") || !strcmp(name, "SkeletalAnimations"))
            return K_ANIMS;
        if (!strcmp(name, "SkeletalAnimationData")) /* variant: no Animations container */
            return start_anim(p, atts);
        note(p, "element outside the animations", name);
        return -1;
    case K_ANIMS:
        if (!strcmp(name, "SkeletalAnimationData"))
            return start_anim(p, atts);
        if (ends_with(name, "AnimationData"))
            x->doc.skipped_animations++, note(p, "not a skeletal animation:", name);
        else
            note(p, "unknown element", name);
        return -1;
    case K_ANIM:
        if (!strcmp(name, "MemberAnimationDataSet"))
            return K_MEMBERS;
        if (!strcmp(name, "Skeleton")) {
            top_anim(p)->has_skeleton = 1;
            return K_SKEL;
        }
        return unknown(p, name, "SkeletalAnimationData", "MemberAnimationDataSet or Skeleton");
    case K_MEMBERS:
        if (!strcmp(name, "MemberAnimationData"))
            return start_member(p, atts);
        return unknown(p, name, "MemberAnimationDataSet", "MemberAnimationData");
    case K_MEMBER:
        if (!strcmp(name, "Path"))
            return K_PATH;
        if (!strcmp(name, "TransformAnimation"))
            return K_XFORM;
        if (strstr(name, "Baked") || strstr(name, "Matrix")) {
            fail(p, VKS_ERR_UNSUPPORTED, "<%.60s>: baked matrix animation is not supported (TransformAnimation only)",
                 name);
            return -1;
        }
        return unknown(p, name, "MemberAnimationData", "Path or TransformAnimation");
    case K_XFORM:
    case K_VEC3:
    case K_CURVE:
    case K_SEGMENTS:
    case K_SEGMENT:
    case K_KEYS: return curve_child_kind(p, parent, name, atts);
    case K_SKEL:
        if (!strcmp(name, "Bones"))
            return K_BONES;
        note(p, "unknown element", name);
        return -1;
    case K_BONES:
        if (!strcmp(name, "Bone"))
            return start_bone(p, atts);
        note(p, "unknown element", name);
        return -1;
    case K_BONE:
        if (!strcmp(name, "Transform"))
            return K_BONE_XFORM;
        note(p, "unknown element", name);
        return -1;
    case K_BONE_XFORM:
        return start_bone_part(p, name, atts);
    default: /* K_KEY, K_PATH, K_LEAF have no children */
        fail(p, VKS_ERR_UNSUPPORTED, "unexpected element <%.60s> inside a value element", name);
        return -1;
    }
}

/* Children numbered in paths ("MemberAnimationData[3]"); containers are not. */
static int numbered(int parent, const char *name)
{
    return (parent == K_ANIMS || parent == K_MEMBERS || parent == K_SEGMENTS || parent == K_KEYS ||
            parent == K_BONES || parent == K_CURVE || parent == K_SEGMENT) &&
           strcmp(name, "Keys") && strcmp(name, "Segments");
}

static int collects(int kind) { return kind == K_PATH; }

static void on_end(cmdl_xml *xml, int kind)
{
    parser *p = (parser *)xml;
    if (kind == K_PATH) {
        char *nul = vks__cmdl_push(&p->c->c, &p->x.text, 1); /* terminated for the messages */
        if (!nul)
            nomem(p);
        else
            set_member_name(p, p->x.text.data, p->x.text.count - 1);
    } else if (kind == K_MEMBER && !top_member(p)->name) {
        fail(p, VKS_ERR_FORMAT, "MemberAnimationData without a Path (which bone it animates)");
    }
}

static const cmdl_xml_schema schema = {"cskla", child_kind, numbered, collects, on_end};

vks_result vks__cskla_parse(cskla_ctx *x, const void *bytes, size_t size)
{
    x->doc.anims.elem = sizeof(cskla_anim);
    parser p;
    memset(&p, 0, sizeof p);
    p.c = x; /* cmdl_xml_parse zeroes p.x only */
    return vks__cmdl_xml_parse(&p.x, &x->c, &schema, bytes, size);
}

void vks__cskla_doc_free(cskla_ctx *x)
{
    cmdl_ctx *c = &x->c;
    cskla_anim *anims = x->doc.anims.data;
    for (size_t a = 0; a < x->doc.anims.count; a++) {
        cskla_member *m = anims[a].members.data;
        for (size_t i = 0; i < anims[a].members.count; i++) {
            vks__cmdl_free(c, m[i].name);
            for (int ch = 0; ch < 3; ch++)
                for (int k = 0; k < 3; k++) {
                    vks__cmdl_vec_free(c, &m[i].curve[ch][k].keys);
                    vks__cmdl_vec_free(c, &m[i].curve[ch][k].kinds);
                }
        }
        cskla_bone *b = anims[a].bones.data;
        for (size_t i = 0; i < anims[a].bones.count; i++)
            vks__cmdl_free(c, b[i].name);
        vks__cmdl_vec_free(c, &anims[a].members);
        vks__cmdl_vec_free(c, &anims[a].bones);
        vks__cmdl_free(c, anims[a].name);
    }
    vks__cmdl_vec_free(c, &x->doc.anims);
    vks__cmdl_free(c, x->doc.version);
    memset(&x->doc, 0, sizeof x->doc);
}
