/* vks_cskla_read: NintendoWare CTR skeletal animation, the intermediate XML (.cskla) that
 * NW4C's exporters write beside a .cmdl model (formats/animation.md section 3). No public
 * sample exists, so the schema is the probable one pieced together there; the reader takes
 * its variants and says where a document leaves it:
 *
 *   <NintendoWareIntermediateFile><GraphicsContentCtr Version="...">
 *     <Animations>  (or SkeletalAnimations, or no container)
 *       <SkeletalAnimationData Name="walk" FrameSize="30" LoopMode="Loop|OneTime">
 *         <MemberAnimationDataSet><MemberAnimationData>
 *           <Path>Bones["arm"]</Path>  (or a Path="..." attribute)
 *           <TransformAnimation>
 *             <ScaleVector3Animation|RotateVector3Animation|TranslateVector3Animation>
 *               <XSegmentsFloatCurve StartFrame EndFrame PreRepeatMethod PostRepeatMethod>
 *                                    (Y.., Z..; also XFloatCurve, XCurve)
 *                 <Segments>  (or the segments directly)
 *                   <HermiteFloatSegment><Keys><HermiteFloatKey Frame Value InSlope OutSlope/>
 *                   <LinearFloatSegment><Keys><LinearFloatKey Frame Value/>
 *                   <StepFloatSegment><Keys><StepFloatKey Frame Value/>
 *                   (UnifiedHermite...: a Slope for both sides; keys also without <Keys>)
 *         <Skeleton RootBoneName><Bones><Bone Name ParentBoneName><Transform>
 *           <Scale|Rotate|Translate X Y Z/>
 *
 * Rules (the decisions animation.md leaves open):
 * - One clip per SkeletalAnimationData (at most opt->clip.max_clips), one track per
 *   MemberAnimationData (at most opt->max_nodes), named after the bone. The bone is the
 *   quoted name in the Path's first ["..."] (Bones["x"], Skeleton.Bones["x"].Transform, ...)
 *   or, with no bracket, the whole Path (binary CANM names members by the bone alone). Two
 *   members of one bone are an error.
 * - Frames: key Frames are the animation's frames (fractions allowed), not offset by any
 *   StartFrame; times are frame / fps with fps = opt->clip.fps (default 30: the file has no
 *   rate), kept in clip.fps; duration = FrameSize / fps. Hermite slopes are value per frame
 *   (tangents per second = slope x fps).
 * - A curve's StartFrame/EndFrame (default: its first and last key) bound where its
 *   Pre/PostRepeatMethod (None, Repeat, Mirror or MirroredRepeat, RelativeRepeat) take over;
 *   inside the clip the repeats are unrolled into keys (cskla_curve.c), so they play exactly.
 *   The methods seen are recorded in the set's format_detail.
 * - Cycle: LoopMode Loop -> VKS_CYCLE_LOOP, OneTime -> VKS_CYCLE_CLAMP. Without LoopMode the
 *   curves' PostRepeatMethod decide: any Mirror -> MIRROR, else any Repeat or RelativeRepeat
 *   -> LOOP, else CLAMP.
 * - A curve with one key is that constant. Segments in one curve follow each other in frame
 *   order (overlap is an error); kinds may differ between them.
 * - Channels: a channel with no curve has no keys, so it keeps the bound skin's bind local
 *   (the .cmdl bone's base transform). Rotate components are three Euler curves (radians, R =
 *   Rz Ry Rx as the .cmdl bone's Rotate). A component whose curve is missing while others of
 *   its channel animate keeps the bone's base value from the file's own <Skeleton>: a
 *   one-key curve for a rotate component, a constant inside the merged translate/scale curve.
 *   When the file's Skeleton has no such bone the reader cannot know the base (it reads no
 *   model): a missing rotate component stays without keys, which the clip model plays as 0,
 *   a missing translate component is 0 and a scale component 1, each noted through the
 *   logger as a warning.
 * - A curve without keys counts as missing. Other kinds of AnimationData are skipped.
 * Errors name the line and column (and the element path) where the document goes wrong;
 * limits: opt->clip.max_keys bounds the keys read and the keys made, max_clips and max_nodes
 * the clips and the members and bones of each. */
#include "cskla_internal.h"
#include "core/log.h"
#include "core/c_numeric.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct named {
    const char *name;
    uint32_t index;
} named;

static int cmp_named(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

/* Names sorted (ties in document order); a name used twice fails at its second element. */
static vks_result sort_names(cskla_ctx *x, const void *items, size_t count, size_t stride, size_t name_at,
                             size_t where_at, const char *what, named **out)
{
    named *s = vks__cmdl_alloc(&x->c, count, sizeof *s);
    if (!s)
        return vks_error_set(x->c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory");
    for (size_t i = 0; i < count; i++) {
        const char *item = (const char *)items + i * stride;
        memcpy(&s[i].name, item + name_at, sizeof(char *));
        s[i].index = (uint32_t)i;
    }
    qsort(s, count, sizeof *s, cmp_named);
    for (size_t i = 1; i < count; i++)
        if (!strcmp(s[i - 1].name, s[i].name)) {
            const cmdl_where *w = (const cmdl_where *)((const char *)items + s[i].index * stride + where_at);
            vks_result r = vks__cmdl_fail_at(&x->c, VKS_ERR_FORMAT, w, "%s \"%.60s\" appears twice", what, s[i].name);
            vks__cmdl_free(&x->c, s);
            return r;
        }
    *out = s;
    return VKS_OK;
}

static const cskla_bone *find_bone(const cskla_anim *a, const named *sorted, const char *name)
{
    size_t lo = 0, hi = a->bones.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strcmp(sorted[mid].name, name);
        if (!r)
            return (const cskla_bone *)a->bones.data + sorted[mid].index;
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int has_keys(const cskla_curve *c)
{
    return c->present && c->keys.count > 0;
}

static const char *const channel_names[3] = {"Scale", "Rotate", "Translate"};

static vks_result read_track(cskla_ctx *x, vks_clip_set *set, const cskla_anim *a, const cskla_member *m,
                             const cskla_bone *bone, double fps, uint64_t *budget, vks_track *tr)
{
    tr->node_name = vks_clip_set_strndup(set, m->name, strlen(m->name));
    if (!tr->node_name)
        return vks_error_set(x->c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory");
    char what[128];
    for (int ch = 0; ch < 3; ch++) {
        const cskla_curve *cv = m->curve[ch];
        int present = has_keys(&cv[0]) + has_keys(&cv[1]) + has_keys(&cv[2]);
        if (!present)
            continue;
        if (present < 3 && !bone)
            vks__log(&x->c.opt.logger, VKS_LOG_WARNING,
                     ".cskla line %lu: bone \"%.60s\": %s animates %d of 3 components and the file's Skeleton has no "
                     "base for the others: they are %s",
                     m->at.line, m->name, channel_names[ch], present,
                     ch == CSKLA_ROTATE ? "0 (not the bone's base rotation)" : ch == CSKLA_SCALE ? "1" : "0");
        if (ch == CSKLA_ROTATE) {
            for (int c = 0; c < 3; c++) {
                vks_curve *out = &tr->euler[c];
                snprintf(what, sizeof what, "bone \"%.60s\" Rotate %c", m->name, 'X' + c);
                if (has_keys(&cv[c])) {
                    cskla_source src = {&cv[c], 0};
                    vks_result r = vks__cskla_channel(x, set, &src, 1, a->frame_size, fps, what, budget, out);
                    if (r != VKS_OK)
                        return r;
                } else if (bone) { /* the base angle, held */
                    float *t = vks_clip_set_alloc(set, 1, sizeof *t), *v = vks_clip_set_alloc(set, 1, sizeof *v);
                    if (!t || !v)
                        return vks_error_set(x->c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory");
                    *v = bone->base[CSKLA_ROTATE][c];
                    *out = (vks_curve){.key_count = 1, .components = 1, .interp = VKS_INTERP_STEP, .times = t,
                                       .values = v};
                }
            }
            continue;
        }
        cskla_source src[3];
        for (int c = 0; c < 3; c++) {
            src[c].curve = has_keys(&cv[c]) ? &cv[c] : NULL;
            src[c].constant = bone ? bone->base[ch][c] : ch == CSKLA_SCALE ? 1.0 : 0.0;
        }
        snprintf(what, sizeof what, "bone \"%.60s\" %s", m->name, channel_names[ch]);
        vks_result r = vks__cskla_channel(x, set, src, 3, a->frame_size, fps, what, budget,
                                          ch == CSKLA_SCALE ? &tr->scale : &tr->translation);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

/* Bits (1 << enum cskla_repeat) of the repeat methods the animation's curves ask for. */
static unsigned repeat_methods(const cskla_anim *a, int post_only)
{
    unsigned bits = 0;
    const cskla_member *m = a->members.data;
    for (size_t i = 0; i < a->members.count; i++)
        for (int ch = 0; ch < 3; ch++)
            for (int c = 0; c < 3; c++)
                if (has_keys(&m[i].curve[ch][c]))
                    bits |= (1u << m[i].curve[ch][c].post) | (post_only ? 0 : 1u << m[i].curve[ch][c].pre);
    return bits;
}

static vks_result read_anim(cskla_ctx *x, vks_clip_set *set, const cskla_anim *a, double fps, uint64_t *budget,
                            vks_clip *clip)
{
    double d = a->frame_size / fps;
    if (!(d > 0 && (float)d > 0 && (float)d < 1e30f))
        return vks__cmdl_fail_at(&x->c, VKS_ERR_FORMAT, &a->at, "FrameSize %g at %g fps gives no duration a float holds",
                                 a->frame_size, fps);
    clip->name = vks_clip_set_strndup(set, a->name, strlen(a->name));
    clip->duration = (float)d;
    clip->fps = (float)fps;
    clip->space = VKS_CLIP_LOCAL;
    clip->root_track = -1;
    if (a->loop_mode >= 0)
        clip->cycle = a->loop_mode == 0 ? VKS_CYCLE_LOOP : VKS_CYCLE_CLAMP;
    else {
        unsigned post = repeat_methods(a, 1);
        clip->cycle = post & (1u << CSKLA_MIRROR)                                ? VKS_CYCLE_MIRROR
                      : post & ((1u << CSKLA_REPEAT) | (1u << CSKLA_RELATIVE)) ? VKS_CYCLE_LOOP
                                                                                 : VKS_CYCLE_CLAMP;
    }
    uint32_t nm = (uint32_t)a->members.count;
    clip->tracks = vks_clip_set_alloc(set, nm ? nm : 1, sizeof *clip->tracks);
    if (!clip->name || !clip->tracks)
        return vks_error_set(x->c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory");
    clip->track_count = nm;
    named *members = NULL, *bones = NULL;
    vks_result r = sort_names(x, a->members.data, nm, sizeof(cskla_member), offsetof(cskla_member, name),
                              offsetof(cskla_member, at), "MemberAnimationData: bone", &members);
    if (r == VKS_OK)
        r = sort_names(x, a->bones.data, a->bones.count, sizeof(cskla_bone), offsetof(cskla_bone, name),
                       offsetof(cskla_bone, at), "Skeleton: bone", &bones);
    const cskla_member *m = a->members.data;
    for (uint32_t i = 0; r == VKS_OK && i < nm; i++)
        r = read_track(x, set, a, &m[i], find_bone(a, bones, m[i].name), fps, budget, &clip->tracks[i]);
    vks__cmdl_free(&x->c, members);
    vks__cmdl_free(&x->c, bones);
    return r;
}

static vks_result make_set(cskla_ctx *x, double fps, vks_clip_set **out)
{
    cskla_doc *d = &x->doc;
    vks_clip_set *set = vks_clip_set_create(&x->c.opt.allocator);
    uint32_t n = (uint32_t)d->anims.count;
    vks_clip *clips = set ? vks_clip_set_alloc(set, n, sizeof *clips) : NULL;
    if (!clips) {
        vks_clip_set_free(set);
        return vks_error_set(x->c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory");
    }
    set->clips = clips;
    set->clip_count = n;
    uint64_t budget = x->c.opt.clip.max_keys;
    unsigned methods = 0;
    vks_result r = VKS_OK;
    const cskla_anim *anims = d->anims.data;
    for (uint32_t i = 0; r == VKS_OK && i < n; i++) {
        r = read_anim(x, set, &anims[i], fps, &budget, &clips[i]);
        methods |= repeat_methods(&anims[i], 0);
    }
    char detail[256];
    int len = snprintf(detail, sizeof detail, "NW4C .cskla%s%.40s at %g fps", d->version ? " GraphicsContentCtr " : "",
                       d->version ? d->version : "", fps);
    static const char *const names[4] = {"None", "Repeat", "Mirror", "RelativeRepeat"};
    for (int k = 1; k < 4 && len > 0 && (size_t)len < sizeof detail; k++)
        if (methods & (1u << k))
            len += snprintf(detail + len, sizeof detail - (size_t)len, "%s%s", (methods & ((1u << k) - 2)) ? ", " : "; repeats: ",
                            names[k]);
    if (d->skipped_animations && len > 0 && (size_t)len < sizeof detail)
        snprintf(detail + len, sizeof detail - (size_t)len, "; %u other animation(s) skipped", d->skipped_animations);
    set->format = "cskla";
    if (r == VKS_OK && !(set->format_detail = vks_clip_set_strndup(set, detail, strlen(detail))))
        r = vks_error_set(x->c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cskla", "out of memory");
    if (r == VKS_OK)
        r = vks_clip_set_finish(set, x->c.err);
    if (r != VKS_OK) {
        vks_clip_set_free(set);
        return r;
    }
    *out = set;
    return VKS_OK;
}

static vks_result cskla_read_body(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                                  vks_error *err)
{
    cskla_ctx x = {0};
    x.c.opt = vks_read_options_defaults(opt);
    vks_error local = {0};
    x.c.err = err ? err : &local;
    if (!out || (!bytes && size))
        return vks_error_set(x.c.err, VKS_ERR_INVALID, VKS_NO_OFFSET, "cskla", "no bytes or no output");
    double fps = x.c.opt.clip.fps;
    if (!(isfinite(fps) && fps <= 1e6))
        return vks_error_set(x.c.err, VKS_ERR_INVALID, VKS_NO_OFFSET, "cskla", "clip.fps %g is not a frame rate", fps);
    vks_result r = vks__cskla_parse(&x, bytes ? bytes : "", size);
    if (r == VKS_OK && x.doc.anims.count == 0)
        r = vks_error_set(x.c.err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "GraphicsContentCtr/Animations",
                          "no SkeletalAnimationData%s", x.doc.skipped_animations ? " (only other kinds of animation)" : "");
    if (r == VKS_OK)
        r = make_set(&x, fps, out);
    vks__cskla_doc_free(&x);
    if (r != VKS_OK && x.c.err->code == VKS_OK)
        vks_error_set(x.c.err, r, VKS_NO_OFFSET, "cskla", "read failed");
    return r;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_cskla_read(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                          vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, cskla_read_body(opt, bytes, size, out, err));
}
