/* NIF animation blocks -> clips, and vks_nif_kf_read (nif_kf_internal.h).
 *
 * Where the clips come from, first match wins:
 *   1. NiControllerSequence blocks (a .kf's roots, or sequences an NiControllerManager in a
 *      .nif holds): one clip each. A controlled block is a track when it animates a transform
 *      (controller type NiTransformController / NiKeyframeController / NiMultiTarget..., or
 *      none stored; no property type; an interpolator, when linked, that is a transform one).
 *      Its node is named inline (until 10.1.0.113), through an NiStringPalette (10.2.0.0 ..
 *      20.1.0.0) or through the header's string table (20.1.0.1+). The sequence's start, stop,
 *      frequency and cycle (0 loop, 1 reverse -> MIRROR, 2 clamp) time the clip (before
 *      10.1.0.106 the sequence stores none: its controllers' do); the accumulation root's
 *      track is the root track.
 *   2. NiSequenceStreamHelper roots (Morrowind .kf): one clip each; its extra data chain holds
 *      the text keys and one NiStringExtraData node name per controller of its controller
 *      chain, in order.
 *   3. NiKeyframeController / NiTransformController blocks on nodes of the file (a Morrowind
 *      .nif such as dance.nif): one clip, named after the file's root node, its tracks the
 *      controlled nodes, its events the file's first NiTextKeyExtraData.
 * Controllers time a clip by the earliest start, the latest stop, the first one's frequency
 * and cycle (flags bits 1-2). A clip whose stop is not after its start lasts to its last key
 * (opt->clip.duration, else 1 s, when that is not after the start either). Text keys become
 * events, one per line of their text (Morrowind packs "Idle: Start\r\nIdle: Stop" in one key),
 * with an empty value. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "nif_kf_internal.h"

typedef struct kf_build {
    kf_ctx k;
    const nif_file *f;
    const vks_read_options *opt;
} kf_build;

/* Where a track's keys come from. */
typedef struct kf_source {
    const char *name;
    int32_t interp, data; /* one of them, or neither (a track without keys) */
    const nif_ctrl *ctrl; /* its controller, when known */
} kf_source;

static vks_result nomem(kf_build *b)
{
    return vks_error_set(b->k.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/clip", "out of memory");
}

static vks_result block_error(kf_build *b, int32_t block, uint64_t at, vks_result code, const char *msg)
{
    char path[128];
    snprintf(path, sizeof path, "nif/block[%d] %s", (int)block, b->f->blocks[block].type);
    return vks_error_set(b->k.err, code, at, path, "%s", msg);
}

static int is_keyframe_controller(const nif_file *f, int32_t i)
{
    const nif_ctrl *c = nif_anim_get(f, i, NIF_A_CONTROLLER);
    return c && !c->manager &&
           (!strcmp(f->blocks[i].type, "NiKeyframeController") || !strcmp(f->blocks[i].type, "NiTransformController"));
}

/* ---- the clock ---- */

static void widen_by_keys(const nif_keygroup *g, double *lo, double *hi)
{
    if (g->count) {
        *lo = fmin(*lo, g->times[0]);
        *hi = fmax(*hi, g->times[g->count - 1]);
    }
}

/* The span of a source's file times (keys, B-spline spans). */
static void source_span(const nif_file *f, const kf_source *s, double *lo, double *hi)
{
    int32_t data = s->data;
    const nif_tinterp *t = nif_anim_get(f, s->interp, NIF_A_TINTERP);
    const nif_bsinterp *bs = nif_anim_get(f, s->interp, NIF_A_BSINTERP);
    if (t)
        data = t->data;
    if (bs && isfinite(bs->start) && isfinite(bs->stop)) {
        *lo = fmin(*lo, bs->start);
        *hi = fmax(*hi, bs->stop);
    }
    const nif_kfdata *d = nif_anim_get(f, data, NIF_A_KFDATA);
    if (!d)
        return;
    widen_by_keys(&d->rot, lo, hi);
    for (int a = 0; a < 3; a++)
        widen_by_keys(&d->xyz[a], lo, hi);
    widen_by_keys(&d->trans, lo, hi);
    widen_by_keys(&d->scale, lo, hi);
}

static int sane(double v) { return isfinite(v) && fabs(v) < 1e30; }

/* start, stop, frequency as stored (have: whether they are) -> the clip's clock and duration. */
static void make_clock(kf_build *b, const kf_source *src, uint32_t n, int have, double start, double stop,
                       double frequency, kf_clock *clk)
{
    if (!(isfinite(frequency) && frequency >= 1e-6 && frequency <= 1e6)) {
        if (have)
            vks__log(&b->opt->logger, VKS_LOG_WARNING, "NIF clip: frequency %g taken as 1", frequency);
        frequency = 1;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < n; i++)
        source_span(b->f, &src[i], &lo, &hi);
    if (!have || !sane(start))
        start = isfinite(lo) ? lo : 0;
    if (!have || !sane(stop) || !(stop > start))
        stop = hi;
    if (!(stop > start) || !sane(stop))
        stop = start + (b->opt->clip.duration > 0 ? b->opt->clip.duration : 1.0) * frequency;
    clk->start = start;
    clk->frequency = frequency;
    clk->duration = (stop - start) / frequency;
}

/* Controllers' timing (before 10.1.0.106 and for the Morrowind forms): earliest start, latest
   stop, the first one's frequency and cycle. */
static void controller_clock(kf_build *b, const kf_source *src, uint32_t n, kf_clock *clk, vks_cycle *cycle)
{
    double start = INFINITY, stop = -INFINITY, freq = 1;
    const nif_ctrl *first = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const nif_ctrl *c = src[i].ctrl;
        if (!c)
            continue;
        if (!first)
            first = c;
        if (sane(c->start))
            start = fmin(start, c->start);
        if (sane(c->stop))
            stop = fmax(stop, c->stop);
    }
    if (first)
        freq = first->frequency;
    static const vks_cycle cycles[4] = {VKS_CYCLE_LOOP, VKS_CYCLE_MIRROR, VKS_CYCLE_CLAMP, VKS_CYCLE_CLAMP};
    *cycle = first ? cycles[(first->flags >> 1) & 3] : VKS_CYCLE_LOOP;
    make_clock(b, src, n, first != NULL, start, stop, freq, clk);
}

/* ---- tracks and events ---- */

static vks_result fill_tracks(kf_build *b, vks_clip *clip, const kf_source *src, uint32_t n, const kf_clock *clk)
{
    clip->tracks = vks_clip_set_alloc(b->k.set, n ? n : 1, sizeof *clip->tracks);
    if (!clip->tracks)
        return nomem(b);
    clip->track_count = n;
    for (uint32_t i = 0; i < n; i++) {
        vks_track *tr = &clip->tracks[i];
        tr->node_name = vks_clip_set_strndup(b->k.set, src[i].name, strlen(src[i].name));
        if (!tr->node_name)
            return nomem(b);
        vks_result r = VKS_OK;
        if (src[i].interp >= 0)
            r = kf_track_from_interp(&b->k, src[i].interp, clk, tr);
        else if (src[i].data >= 0)
            r = kf_track_from_data(&b->k, src[i].data, NULL, clk, tr);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

static uint32_t count_lines(const char *s)
{
    uint32_t n = 0;
    while (*s) {
        size_t len = strcspn(s, "\r\n");
        n += len > 0;
        s += len;
        s += strspn(s, "\r\n");
    }
    return n;
}

static vks_result fill_events(kf_build *b, vks_clip *clip, int32_t block, const kf_clock *clk)
{
    const nif_textkeys *t = nif_anim_get(b->f, block, NIF_A_TEXTKEYS);
    if (!t)
        return VKS_OK;
    uint64_t n = 0;
    for (uint32_t k = 0; k < t->count; k++)
        n += count_lines(t->texts[k]);
    clip->events = vks_clip_set_alloc(b->k.set, n ? (size_t)n : 1, sizeof *clip->events);
    if (!clip->events)
        return nomem(b);
    for (uint32_t k = 0; k < t->count; k++) {
        double time = ((double)t->times[k] - clk->start) / clk->frequency;
        time = time < 0 ? 0 : time > clk->duration ? clk->duration : time;
        const char *s = t->texts[k];
        while (*s) {
            size_t len = strcspn(s, "\r\n");
            if (len) {
                vks_clip_event *e = &clip->events[clip->event_count++];
                e->time = (float)time;
                e->name = vks_clip_set_strndup(b->k.set, s, len);
                e->value = "";
                if (!e->name)
                    return nomem(b);
            }
            s += len;
            s += strspn(s, "\r\n");
        }
    }
    return VKS_OK;
}

static vks_result finish_clip(kf_build *b, vks_clip *clip, const char *name, const kf_source *src, uint32_t n,
                              const kf_clock *clk, int32_t text_keys)
{
    clip->name = vks_clip_set_strndup(b->k.set, name ? name : "", name ? strlen(name) : 0);
    if (!clip->name)
        return nomem(b);
    clip->duration = (float)clk->duration;
    clip->space = VKS_CLIP_LOCAL;
    clip->root_track = -1;
    if (!(clip->duration > 0) || !isfinite(clip->duration))
        return vks_error_set(b->k.err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "nif/clip", "clip \"%.40s\" lasts %g s",
                             clip->name, clk->duration);
    vks_result r = fill_tracks(b, clip, src, n, clk);
    return r == VKS_OK ? fill_events(b, clip, text_keys, clk) : r;
}

/* ---- 1. NiControllerSequence ---- */

static vks_result palette_name(kf_build *b, int32_t seq, const nif_sequence *s, const nif_cblock *cb, uint32_t off,
                               const char **out)
{
    *out = "";
    if (off == UINT32_MAX)
        return VKS_OK;
    const nif_palette *p = nif_anim_get(b->f, cb->palette, NIF_A_PALETTE);
    if (!p)
        p = nif_anim_get(b->f, s->palette, NIF_A_PALETTE);
    char msg[128];
    if (!p || off >= p->len) {
        if (p)
            snprintf(msg, sizeof msg, "string palette offset %u is past the palette's %u bytes", off, p->len);
        else
            snprintf(msg, sizeof msg, "string palette offset %u without an NiStringPalette (link %d)", off,
                     (int)cb->palette);
        return block_error(b, seq, cb->offset, VKS_ERR_FORMAT, msg);
    }
    *out = p->bytes + off;
    return VKS_OK;
}

static int transform_type(const char *t)
{
    return !t || !*t || !strcmp(t, "NiTransformController") || !strcmp(t, "NiKeyframeController") ||
           !strcmp(t, "NiMultiTargetTransformController");
}

static vks_result sequence_clip(kf_build *b, int32_t si, vks_clip *clip)
{
    const nif_sequence *s = nif_anim_get(b->f, si, NIF_A_SEQUENCE);
    kf_source *src = vks_clip_set_alloc(b->k.set, s->block_count ? s->block_count : 1, sizeof *src);
    if (!src)
        return nomem(b);
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->block_count; i++) {
        const nif_cblock *cb = &s->blocks[i];
        const char *node = cb->node_name, *prop = cb->property_type, *ctype = cb->controller_type;
        vks_result r = VKS_OK;
        if (!node) {
            r = palette_name(b, si, s, cb, cb->node_offset, &node);
            if (r == VKS_OK)
                r = palette_name(b, si, s, cb, cb->property_offset, &prop);
            if (r == VKS_OK)
                r = palette_name(b, si, s, cb, cb->controller_offset, &ctype);
            if (r != VKS_OK)
                return r;
        }
        kf_source *o = &src[n];
        o->name = node;
        o->interp = cb->interp;
        o->data = NIF_NONE;
        o->ctrl = nif_anim_get(b->f, cb->controller, NIF_A_CONTROLLER);
        if (o->interp < 0 && o->ctrl) {
            o->interp = o->ctrl->interp;
            o->data = o->ctrl->data;
        }
        int interp_ok = o->interp < 0 || nif_anim_get(b->f, o->interp, NIF_A_TINTERP) ||
                        nif_anim_get(b->f, o->interp, NIF_A_BSINTERP);
        if ((prop && *prop) || !transform_type(ctype) || !interp_ok) {
            vks__log(&b->opt->logger, VKS_LOG_INFO, "NIF sequence \"%s\": block %u (%s on \"%s\") animates no transform",
                     s->name, i, ctype && *ctype ? ctype : "no controller type", node);
            continue;
        }
        n++;
    }
    kf_clock clk;
    if (s->timed) {
        static const vks_cycle cycles[3] = {VKS_CYCLE_LOOP, VKS_CYCLE_MIRROR, VKS_CYCLE_CLAMP};
        clip->cycle = s->cycle < 3 ? cycles[s->cycle] : VKS_CYCLE_CLAMP;
        make_clock(b, src, n, 1, s->start, s->stop, s->frequency, &clk);
    } else {
        controller_clock(b, src, n, &clk, &clip->cycle);
    }
    vks_result r = finish_clip(b, clip, s->name, src, n, &clk, s->text_keys);
    if (r != VKS_OK)
        return r;
    for (uint32_t t = 0; s->accum_root && *s->accum_root && t < clip->track_count; t++)
        if (!strcmp(clip->tracks[t].node_name, s->accum_root)) {
            clip->root_track = (int32_t)t;
            break;
        }
    return VKS_OK;
}

/* ---- 2. NiSequenceStreamHelper ---- */

static vks_result helper_clip(kf_build *b, int32_t hi, vks_clip *clip)
{
    const nif_file *f = b->f;
    const nif_helper *h = nif_anim_get(f, hi, NIF_A_HELPER);
    uint32_t names = 0, ctrls = 0, steps = 0;
    int32_t text_keys = NIF_NONE;
    const char **name = vks_clip_set_alloc(b->k.set, f->block_count ? f->block_count : 1, sizeof *name);
    if (!name)
        return nomem(b);
    /* the chains are links through the blocks: bounded by the block count against cycles */
    for (int32_t e = h->extra; e >= 0 && steps++ < f->block_count;) {
        const nif_strextra *se = nif_anim_get(f, e, NIF_A_STRING);
        const nif_textkeys *tk = nif_anim_get(f, e, NIF_A_TEXTKEYS);
        if (se)
            name[names++] = se->text ? se->text : "";
        else if (tk && text_keys < 0)
            text_keys = e;
        e = se ? se->next : tk ? tk->next : NIF_NONE;
    }
    steps = 0;
    for (int32_t c = h->controller; is_keyframe_controller(f, c) && steps++ < f->block_count;
         c = ((const nif_ctrl *)nif_anim_get(f, c, NIF_A_CONTROLLER))->next)
        ctrls++;
    if (ctrls > b->opt->max_nodes)
        return block_error(b, hi, f->blocks[hi].offset, VKS_ERR_LIMIT, "more controllers than the node limit");
    if (names < ctrls) {
        char msg[128];
        snprintf(msg, sizeof msg, "%u keyframe controllers but %u NiStringExtraData node names", ctrls, names);
        return block_error(b, hi, f->blocks[hi].offset, VKS_ERR_FORMAT, msg);
    }
    kf_source *src = vks_clip_set_alloc(b->k.set, ctrls ? ctrls : 1, sizeof *src);
    if (!src)
        return nomem(b);
    int32_t c = h->controller;
    for (uint32_t i = 0; i < ctrls; i++) {
        const nif_ctrl *ct = nif_anim_get(f, c, NIF_A_CONTROLLER);
        src[i] = (kf_source){name[i], ct->interp, ct->interp >= 0 ? NIF_NONE : ct->data, ct};
        c = ct->next;
    }
    kf_clock clk;
    controller_clock(b, src, ctrls, &clk, &clip->cycle);
    return finish_clip(b, clip, h->name, src, ctrls, &clk, text_keys);
}

/* ---- 3. controllers on the file's own nodes ---- */

static const char *target_name(const nif_file *f, int32_t t)
{
    if (t < 0 || (uint32_t)t >= f->block_count)
        return NULL;
    const nif_block *b = &f->blocks[t];
    if (b->kind == NIF_K_NODE)
        return b->u.node.name;
    if (b->kind == NIF_K_SHAPE || b->kind == NIF_K_BSTRISHAPE)
        return b->u.shape.name;
    return NULL;
}

static vks_result embedded_clip(kf_build *b, uint32_t count, vks_clip *clip)
{
    const nif_file *f = b->f;
    /* count: the keyframe controllers and the morph controllers (nif_kf_morph.c) */
    kf_source *src = vks_clip_set_alloc(b->k.set, count ? count : 1, sizeof *src);
    if (!src)
        return nomem(b);
    uint32_t n = 0;
    int32_t text_keys = NIF_NONE;
    for (uint32_t i = 0; i < f->block_count; i++) {
        if (text_keys < 0 && nif_anim_get(f, (int32_t)i, NIF_A_TEXTKEYS))
            text_keys = (int32_t)i;
        if (!is_keyframe_controller(f, (int32_t)i))
            continue;
        const nif_ctrl *c = f->blocks[i].u.anim.data;
        const char *name = target_name(f, c->target);
        if (name && (c->interp >= 0 || c->data >= 0))
            src[n++] = (kf_source){name, c->interp, c->interp >= 0 ? NIF_NONE : c->data, c};
    }
    /* the morph controllers' timing joins the clock; their keys are weights, not a track */
    uint32_t timed = n;
    for (uint32_t i = 0; i < f->block_count && timed < count; i++) {
        const nif_ctrl *c = kf_morph_controller(f, i);
        if (c)
            src[timed++] = (kf_source){"", NIF_NONE, NIF_NONE, c};
    }
    const char *root = f->root_count ? target_name(f, f->roots[0]) : NULL;
    kf_clock clk;
    controller_clock(b, src, timed, &clk, &clip->cycle);
    vks_result r = finish_clip(b, clip, root, src, n, &clk, text_keys);
    return r == VKS_OK ? kf_morph_tracks(&b->k, &clk, clip) : r;
}

static uint32_t embedded_count(const nif_file *f)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < f->block_count; i++)
        if (is_keyframe_controller(f, (int32_t)i)) {
            const nif_ctrl *c = f->blocks[i].u.anim.data;
            n += target_name(f, c->target) && (c->interp >= 0 || c->data >= 0);
        }
    return n + kf_morph_count(f);
}

/* ---- the set ---- */

static vks_result build(kf_build *b)
{
    const nif_file *f = b->f;
    uint32_t seqs = 0, helpers = 0, embedded = 0, clips;
    for (uint32_t i = 0; i < f->block_count; i++) {
        seqs += nif_anim_get(f, (int32_t)i, NIF_A_SEQUENCE) != NULL;
        helpers += nif_anim_get(f, (int32_t)i, NIF_A_HELPER) != NULL;
    }
    const char *kind = seqs ? "NiControllerSequence" : helpers ? "NiSequenceStreamHelper" : "keyframe controllers";
    clips = seqs ? seqs : helpers;
    if (!clips) {
        embedded = embedded_count(f);
        if (embedded > b->opt->max_nodes)
            return vks_error_set(b->k.err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "nif/clip",
                                 "%u keyframe controllers pass the node limit %u", embedded, b->opt->max_nodes);
        clips = embedded ? 1 : 0;
    }
    if (!clips)
        return vks_error_set(b->k.err, VKS_ERR_FORMAT, 0, "nif/clip",
                             "no animation: no NiControllerSequence, NiSequenceStreamHelper or keyframe controller "
                             "on a node of the file");
    if (clips > b->opt->clip.max_clips)
        return vks_error_set(b->k.err, VKS_ERR_LIMIT, 0, "nif/clip", "%u clips pass the clip limit %u", clips,
                             b->opt->clip.max_clips);
    vks_clip_set *set = b->k.set;
    set->clips = vks_clip_set_alloc(set, clips, sizeof *set->clips);
    if (!set->clips)
        return nomem(b);
    char detail[96];
    nif_version_detail(f, detail, sizeof detail);
    size_t at = strlen(detail);
    snprintf(detail + at, sizeof detail - at, ", %s", kind);
    set->format = "nif";
    set->format_detail = vks_clip_set_strndup(set, detail, strlen(detail));
    if (!set->format_detail)
        return nomem(b);
    if (!seqs && !helpers) {
        set->clip_count = 1;
        return embedded_clip(b, embedded, &set->clips[0]);
    }
    for (uint32_t i = 0; i < f->block_count; i++) {
        vks_result r = VKS_OK;
        if (seqs && nif_anim_get(f, (int32_t)i, NIF_A_SEQUENCE))
            r = sequence_clip(b, (int32_t)i, &set->clips[set->clip_count++]);
        else if (!seqs && nif_anim_get(f, (int32_t)i, NIF_A_HELPER))
            r = helper_clip(b, (int32_t)i, &set->clips[set->clip_count++]);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

vks_result vks_nif_kf_read(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                           vks_error *err)
{
    vks_error local = {0};
    if (!err)
        err = &local;
    if (!out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "nif", "out is NULL");
    nif_file f;
    vks_result rc = nif_open(&f, opt, 1, bytes, size, err);
    vks_clip_set *set = NULL;
    if (rc == VKS_OK && !(set = vks_clip_set_create(&f.opt.allocator)))
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif", "out of memory");
    if (rc == VKS_OK) {
        kf_build b = {{&f, set, err}, &f, &f.opt};
        rc = build(&b);
    }
    if (rc == VKS_OK)
        rc = vks_clip_set_finish(set, err);
    nif_close(&f);
    if (rc != VKS_OK) {
        if (err->code == VKS_OK)
            vks_error_set(err, rc, VKS_NO_OFFSET, "nif", "read failed");
        vks_clip_set_free(set);
        return rc;
    }
    *out = set;
    return VKS_OK;
}
