/* vks_nif_kf_write: a clip set as one .kf (clip.h). Two layouts:
 *
 * 20.2.0.7 (user 12, bsver 83, as the model writer's .nif): per clip an NiControllerSequence
 *   root (names through the header's string table, controlled blocks with a priority byte,
 *   an empty anim-note list), its NiTextKeyExtraData, and per track an
 *   NiTransformInterpolator with NiTransformData, or for B-spline tracks an
 *   NiBSpline(Comp)TransformInterpolator with NiBSplineData and NiBSplineBasisData.
 *   Block sizes are patched in after each block.
 * 10.1.0.0: per clip an NiControllerSequence root with inline names and no timing of its own,
 *   its NiTextKeyExtraData, and per track an NiKeyframeController (cycle, start and stop)
 *   with NiKeyframeData. No interpolators exist yet, so no B-splines.
 *
 * Interpolators carry the unset marker (-FLT_MAX) in their pose: a channel without keys keeps
 * the bind component when read back. Keys: LINEAR -> 1, STEP -> 5 (constant), HERMITE -> 2
 * (quadratic; tangents per second times the segment's duration, the first stored one into
 * the key, the second out of it); quaternions w, x, y, z; Euler curves as XYZ rotation
 * groups; scales uniform (one float). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "nif_kf_internal.h"

enum { T_SEQ, T_TEXT, T_TINTERP, T_TDATA, T_BSINTERP, T_BSCOMP, T_BSDATA, T_BSBASIS, T_KFCTRL, T_KFDATA, T_COUNT };

static const char *const type_names[T_COUNT] = {
    "NiControllerSequence",          "NiTextKeyExtraData",   "NiTransformInterpolator",
    "NiTransformData",               "NiBSplineTransformInterpolator", "NiBSplineCompTransformInterpolator",
    "NiBSplineData",                 "NiBSplineBasisData",   "NiKeyframeController",
    "NiKeyframeData"};

/* How one track is written and where its blocks go. */
typedef struct kw_track {
    const char *name;
    int bspline;
    int32_t interp, data, basis; /* block indices (10.1.0.0: interp is the controller) */
} kw_track;

typedef struct kf_writer {
    const vks_clip_set *set;
    const vks_clip_write_options *opt;
    uint32_t ver;
    int v20;
    vks_bytebuf *o;
    vks_error *err;
    uint32_t block_count;
    uint16_t *types;      /* per block, the index into type_names */
    const char **strings; /* 20.2.0.7's string table */
    uint32_t string_count, string_cap;
    kw_track **tracks;    /* per clip */
    char ***texts;        /* per clip, per event: the text key ("name", or "name: value") */
    int32_t *seq_block, *text_block;
} kf_writer;

static vks_result nomem(kf_writer *w)
{
    return vks_error_set(w->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
}

/* ---- planning: block indices, the string table, what each track can be ---- */

static int32_t add_block(kf_writer *w, int type)
{
    w->types[w->block_count] = (uint16_t)type;
    return (int32_t)w->block_count++;
}

static vks_result add_string(kf_writer *w, const char *s)
{
    if (!w->v20 || !s || !*s)
        return VKS_OK;
    for (uint32_t i = 0; i < w->string_count; i++)
        if (!strcmp(w->strings[i], s))
            return VKS_OK;
    if (w->string_count == w->string_cap) {
        size_t cap = w->string_cap;
        const char **n = vks__grow_array(NULL, w->strings, w->string_count, &cap, 1, sizeof *n, 64);
        if (!n)
            return nomem(w);
        w->strings = n;
        w->string_cap = (uint32_t)cap;
    }
    w->strings[w->string_count++] = s;
    return VKS_OK;
}

static uint32_t string_index(const kf_writer *w, const char *s)
{
    for (uint32_t i = 0; s && *s && i < w->string_count; i++)
        if (!strcmp(w->strings[i], s))
            return i;
    return UINT32_MAX;
}

static vks_result refuse(kf_writer *w, uint32_t c, const vks_track *tr, const char *why)
{
    return vks_error_set(w->err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write", "clip %u \"%.40s\", track \"%.40s\": %s",
                         c, w->set->clips[c].name, tr->node_name, why);
}

static int uniform_scale(const vks_curve *s)
{
    for (uint32_t k = 0; k < s->key_count; k++) {
        const float *v = s->values + 3 * (size_t)k;
        if (v[0] != v[1] || v[0] != v[2])
            return 0;
        if (s->interp == VKS_INTERP_HERMITE) {
            const float *a = s->in_tangents + 3 * (size_t)k, *b = s->out_tangents + 3 * (size_t)k;
            if (a[0] != a[1] || a[0] != a[2] || b[0] != b[1] || b[0] != b[2])
                return 0;
        }
    }
    return 1;
}

/* Whether the track is a B-spline one, or why it cannot be written. */
static vks_result classify(kf_writer *w, uint32_t c, const vks_track *tr, int *bspline)
{
    const vks_curve *ch[3] = {&tr->translation, &tr->rotation, &tr->scale};
    const vks_curve *first = NULL;
    int keyed = tr->euler[0].key_count || tr->euler[1].key_count || tr->euler[2].key_count;
    for (int i = 0; i < 3; i++) {
        if (!ch[i]->key_count)
            continue;
        if (ch[i]->interp != VKS_INTERP_BSPLINE) {
            keyed = 1;
            continue;
        }
        if (first && (first->key_count != ch[i]->key_count || first->start != ch[i]->start || first->stop != ch[i]->stop))
            return refuse(w, c, tr, "B-spline channels with different control point counts or spans share one "
                                    "NiBSplineBasisData and one start and stop");
        first = ch[i];
    }
    for (int a = 0; a < 3; a++)
        if (tr->euler[a].key_count && tr->euler[a].interp == VKS_INTERP_BSPLINE)
            return refuse(w, c, tr, "Euler angles on a B-spline: NIF B-splines rotate by quaternions");
    if (first && keyed)
        return refuse(w, c, tr, "B-spline and keyed channels in one track: NIF interpolates a node one way");
    if (first && !w->v20)
        return refuse(w, c, tr, "B-spline keys need 20.x (NiBSplineTransformInterpolator): write 20.2.0.7");
    if (tr->scale.key_count && !uniform_scale(&tr->scale))
        return refuse(w, c, tr, "a non-uniform scale: NIF scales by one float");
    *bspline = first != NULL;
    return VKS_OK;
}

static const char *track_name(const vks_clip_binding *b, const vks_skin *skin, const vks_track *tr, uint32_t t)
{
    if (b && skin)
        for (uint32_t n = 0; n < skin->node_count; n++)
            if (b->track_of_node[n] == (int32_t)t)
                return skin->nodes[n].name;
    return tr->node_name;
}

static vks_result plan(kf_writer *w, const vks_skin *skin)
{
    const vks_clip_set *set = w->set;
    uint64_t max_blocks = 0;
    for (uint32_t c = 0; c < set->clip_count; c++)
        max_blocks += 2 + 3 * (uint64_t)set->clips[c].track_count;
    if (max_blocks > 0x7FFF0000u)
        return vks_error_set(w->err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "nif/write", "too many blocks");
    w->types = malloc((size_t)(max_blocks ? max_blocks : 1) * sizeof *w->types);
    w->tracks = calloc(set->clip_count ? set->clip_count : 1, sizeof *w->tracks);
    w->texts = calloc(set->clip_count ? set->clip_count : 1, sizeof *w->texts);
    w->seq_block = malloc((set->clip_count ? set->clip_count : 1) * sizeof *w->seq_block);
    w->text_block = malloc((set->clip_count ? set->clip_count : 1) * sizeof *w->text_block);
    if (!w->types || !w->tracks || !w->texts || !w->seq_block || !w->text_block)
        return nomem(w);
    vks_result r = add_string(w, "NiTransformController");
    for (uint32_t c = 0; r == VKS_OK && c < set->clip_count; c++) {
        const vks_clip *clip = &set->clips[c];
        if (clip->space != VKS_CLIP_LOCAL)
            return vks_error_set(w->err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write",
                                 "clip %u \"%.40s\": NIF keys are local transforms; this clip holds deltas", c,
                                 clip->name);
        vks_clip_binding b = {0};
        int bound = skin && vks_clip_bind(clip, skin, &b, w->err) == VKS_OK;
        if (skin && !bound)
            return w->err->code;
        kw_track *kt = calloc(clip->track_count ? clip->track_count : 1, sizeof *kt);
        w->tracks[c] = kt;
        if (!kt) {
            vks_clip_binding_free(&b);
            return nomem(w);
        }
        w->seq_block[c] = add_block(w, T_SEQ);
        w->text_block[c] = clip->event_count ? add_block(w, T_TEXT) : NIF_NONE;
        r = add_string(w, clip->name);
        for (uint32_t t = 0; r == VKS_OK && t < clip->track_count; t++) {
            const vks_track *tr = &clip->tracks[t];
            kt[t].name = track_name(bound ? &b : NULL, skin, tr, t);
            r = classify(w, c, tr, &kt[t].bspline);
            if (r != VKS_OK)
                break;
            r = add_string(w, kt[t].name);
            kt[t].data = kt[t].basis = NIF_NONE;
            if (!w->v20) {
                kt[t].interp = add_block(w, T_KFCTRL);
                kt[t].data = add_block(w, T_KFDATA);
            } else if (kt[t].bspline) {
                kt[t].interp = add_block(w, w->opt && w->opt->compressed ? T_BSCOMP : T_BSINTERP);
                kt[t].data = add_block(w, T_BSDATA);
                kt[t].basis = add_block(w, T_BSBASIS);
            } else {
                kt[t].interp = add_block(w, T_TINTERP);
                kt[t].data = add_block(w, T_TDATA);
            }
        }
        vks_clip_binding_free(&b);
        if (r == VKS_OK && !(w->texts[c] = calloc(clip->event_count ? clip->event_count : 1, sizeof *w->texts[c])))
            r = nomem(w);
        for (uint32_t e = 0; r == VKS_OK && e < clip->event_count; e++) {
            const vks_clip_event *ev = &clip->events[e];
            size_t n = strlen(ev->name) + strlen(ev->value) + 3;
            if (!(w->texts[c][e] = malloc(n)))
                return nomem(w);
            snprintf(w->texts[c][e], n, ev->value[0] ? "%s: %s" : "%s", ev->name, ev->value);
            r = add_string(w, w->texts[c][e]);
        }
    }
    return r;
}

/* ---- block bodies ---- */

static void put_string(kf_writer *w, const char *s)
{
    if (w->v20)
        vks_buf_u32(w->o, string_index(w, s));
    else
        nif_w_sized(w->o, s ? s : "");
}

static void put_floats(kf_writer *w, const float *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        vks_buf_f32(w->o, v[i]);
}

static uint32_t key_type(const vks_curve *c)
{
    return c->interp == VKS_INTERP_STEP ? NIF_KEY_CONST : c->interp == VKS_INTERP_HERMITE ? NIF_KEY_QUADRATIC
                                                                                           : NIF_KEY_LINEAR;
}

/* A KeyGroup of dim floats a value taken from c (stride: c's components; a scale's first). */
static void key_group(kf_writer *w, const vks_curve *c, uint32_t dim)
{
    uint32_t n = c->key_count, stride = c->components;
    vks_buf_u32(w->o, n);
    if (!n)
        return;
    uint32_t type = key_type(c);
    vks_buf_u32(w->o, type);
    for (uint32_t k = 0; k < n; k++) {
        vks_buf_f32(w->o, c->times[k]);
        put_floats(w, c->values + (size_t)k * stride, dim);
        if (type != NIF_KEY_QUADRATIC)
            continue;
        /* per segment: x the duration of the segment the tangent belongs to (an end key's
           missing segment: its other one, as the reader divides) */
        double dtp = n < 2 ? 0 : k ? (double)c->times[k] - c->times[k - 1] : (double)c->times[1] - c->times[0];
        double dtn = n < 2 ? 0 : k + 1 < n ? (double)c->times[k + 1] - c->times[k] : (double)c->times[k] - c->times[k - 1];
        for (uint32_t i = 0; i < dim; i++)
            vks_buf_f32(w->o, (float)(c->in_tangents[(size_t)k * stride + i] * dtp));
        for (uint32_t i = 0; i < dim; i++)
            vks_buf_f32(w->o, (float)(c->out_tangents[(size_t)k * stride + i] * dtn));
    }
}

static void keyframe_data(kf_writer *w, const vks_track *tr)
{
    const vks_curve *q = &tr->rotation;
    int euler = !q->key_count && (tr->euler[0].key_count || tr->euler[1].key_count || tr->euler[2].key_count);
    if (euler) {
        vks_buf_u32(w->o, 1);
        vks_buf_u32(w->o, NIF_KEY_XYZ);
        if (w->ver <= NIF_V(10, 1, 0, 0))
            vks_buf_f32(w->o, 0); /* order */
        for (int a = 0; a < 3; a++)
            key_group(w, &tr->euler[a], 1);
    } else {
        vks_buf_u32(w->o, q->key_count);
        if (q->key_count)
            vks_buf_u32(w->o, key_type(q));
        for (uint32_t k = 0; k < q->key_count; k++) { /* quaternion keys: no tangents */
            const float *v = q->values + 4 * (size_t)k;
            vks_buf_f32(w->o, q->times[k]);
            float wxyz[4] = {v[3], v[0], v[1], v[2]};
            put_floats(w, wxyz, 4);
        }
    }
    key_group(w, &tr->translation, 3);
    key_group(w, &tr->scale, 1);
}

static void unset_pose(kf_writer *w)
{
    for (int i = 0; i < 8; i++)
        vks_buf_f32(w->o, -FLT_MAX);
}

static const uint32_t bs_dims[3] = {3, 4, 1}; /* floats per control point: T, R, S */

/* A compact channel's offset and half range: the middle and half the span of its values. */
static void compact_range(const vks_curve *c, uint32_t dim, float *offset, float *half)
{
    float lo = 0, hi = 0;
    for (uint32_t k = 0; k < c->key_count; k++)
        for (uint32_t j = 0; j < dim; j++) {
            float v = c->values[(size_t)k * c->components + j];
            lo = k || j ? fminf(lo, v) : v, hi = k || j ? fmaxf(hi, v) : v;
        }
    *offset = (float)(((double)lo + hi) / 2);
    *half = (float)(((double)hi - lo) / 2);
}

static void bspline_interp(kf_writer *w, const vks_track *tr, const kw_track *kt, int compact)
{
    const vks_curve *ch[3] = {&tr->translation, &tr->rotation, &tr->scale};
    const vks_curve *any = ch[0]->key_count ? ch[0] : ch[1]->key_count ? ch[1] : ch[2];
    vks_buf_f32(w->o, any->start);
    vks_buf_f32(w->o, any->stop);
    vks_buf_i32(w->o, kt->data);
    vks_buf_i32(w->o, kt->basis);
    unset_pose(w);
    uint32_t at = 0;
    for (int i = 0; i < 3; i++) { /* handles: each channel's values follow the one before's */
        vks_buf_u32(w->o, ch[i]->key_count ? at : 0xFFFF);
        at += ch[i]->key_count * bs_dims[i];
    }
    for (int i = 0; compact && i < 3; i++) {
        float offset, half;
        compact_range(ch[i], bs_dims[i], &offset, &half);
        vks_buf_f32(w->o, offset);
        vks_buf_f32(w->o, half);
    }
}

/* The control points in the order of bspline_interp's handles (rotation w, x, y, z): floats,
   or shorts (value - offset) / half range * 32767. */
static void bspline_data(kf_writer *w, const vks_track *tr, int compact)
{
    const vks_curve *ch[3] = {&tr->translation, &tr->rotation, &tr->scale};
    uint32_t total = 0;
    for (int i = 0; i < 3; i++)
        total += ch[i]->key_count * bs_dims[i];
    vks_buf_u32(w->o, compact ? 0 : total);
    if (compact)
        vks_buf_u32(w->o, total);
    for (int i = 0; i < 3; i++) {
        float offset = 0, half = 0;
        if (compact)
            compact_range(ch[i], bs_dims[i], &offset, &half);
        for (uint32_t k = 0; k < ch[i]->key_count; k++)
            for (uint32_t j = 0; j < bs_dims[i]; j++) {
                const float *v = ch[i]->values + (size_t)k * ch[i]->components;
                float x = i == 1 ? v[(j + 3) % 4] : v[j];
                if (!compact) {
                    vks_buf_f32(w->o, x);
                    continue;
                }
                double q = half > 0 ? ((double)x - offset) / half * 32767.0 : 0;
                vks_buf_u16(w->o, (uint16_t)(int16_t)lrint(q < -32767 ? -32767 : q > 32767 ? 32767 : q));
            }
    }
    if (!compact)
        vks_buf_u32(w->o, 0);
}

static void text_keys(kf_writer *w, uint32_t c)
{
    const vks_clip *clip = &w->set->clips[c];
    put_string(w, ""); /* name */
    vks_buf_u32(w->o, clip->event_count);
    for (uint32_t e = 0; e < clip->event_count; e++) {
        vks_buf_f32(w->o, clip->events[e].time);
        put_string(w, w->texts[c][e]);
    }
}

static uint32_t cycle_code(vks_cycle c) { return c == VKS_CYCLE_MIRROR ? 1 : c == VKS_CYCLE_CLAMP ? 2 : 0; }

static void sequence(kf_writer *w, uint32_t c)
{
    const vks_clip *clip = &w->set->clips[c];
    const kw_track *kt = w->tracks[c];
    const char *root = clip->root_track >= 0 ? kt[clip->root_track].name : "";
    put_string(w, clip->name);
    if (!w->v20) { /* 10.1.0.0: NiSequence only */
        put_string(w, root);
        vks_buf_i32(w->o, w->text_block[c]);
        vks_buf_u32(w->o, clip->track_count);
        for (uint32_t t = 0; t < clip->track_count; t++) {
            put_string(w, kt[t].name);
            vks_buf_i32(w->o, kt[t].interp);
        }
        return;
    }
    vks_buf_u32(w->o, clip->track_count);
    vks_buf_u32(w->o, 1); /* array grow by */
    for (uint32_t t = 0; t < clip->track_count; t++) {
        vks_buf_i32(w->o, kt[t].interp);
        vks_buf_i32(w->o, NIF_NONE); /* controller */
        vks_buf_u8(w->o, 0);         /* priority */
        put_string(w, kt[t].name);
        put_string(w, "");           /* property type */
        put_string(w, "NiTransformController");
        put_string(w, "");           /* controller id */
        put_string(w, "");           /* interpolator id */
    }
    vks_buf_f32(w->o, 1.0f); /* weight */
    vks_buf_i32(w->o, w->text_block[c]);
    vks_buf_u32(w->o, cycle_code(clip->cycle));
    vks_buf_f32(w->o, 1.0f); /* frequency */
    vks_buf_f32(w->o, 0.0f); /* start */
    vks_buf_f32(w->o, clip->duration);
    vks_buf_i32(w->o, NIF_NONE); /* manager */
    put_string(w, root);
    vks_buf_u16(w->o, 0); /* anim note arrays */
}

static void keyframe_controller(kf_writer *w, const vks_clip *clip, const kw_track *kt)
{
    vks_buf_i32(w->o, NIF_NONE);                                       /* next controller */
    vks_buf_u16(w->o, (uint16_t)(8u | cycle_code(clip->cycle) << 1)); /* active, cycle */
    vks_buf_f32(w->o, 1.0f);                                           /* frequency */
    vks_buf_f32(w->o, 0.0f);                                           /* phase */
    vks_buf_f32(w->o, 0.0f);                                           /* start */
    vks_buf_f32(w->o, clip->duration);
    vks_buf_i32(w->o, NIF_NONE); /* target: bound by the sequence's name */
    vks_buf_i32(w->o, kt->data);
}

static vks_result write_all(kf_writer *w)
{
    size_t sizes_at = 0;
    nif_w_file_header(w->o, w->ver, w->v20 ? 12 : 0, w->v20 ? 83 : 0, type_names, T_COUNT, w->types, w->block_count);
    if (w->v20) {
        sizes_at = w->o->size;
        for (uint32_t b = 0; b < w->block_count; b++)
            vks_buf_u32(w->o, 0); /* patched below */
        uint32_t maxlen = 0;
        for (uint32_t i = 0; i < w->string_count; i++)
            maxlen = (uint32_t)strlen(w->strings[i]) > maxlen ? (uint32_t)strlen(w->strings[i]) : maxlen;
        vks_buf_u32(w->o, w->string_count);
        vks_buf_u32(w->o, maxlen);
        for (uint32_t i = 0; i < w->string_count; i++)
            nif_w_sized(w->o, w->strings[i]);
    }
    vks_buf_u32(w->o, 0); /* groups */
    for (uint32_t c = 0; c < w->set->clip_count; c++) {
        const vks_clip *clip = &w->set->clips[c];
        const kw_track *kt = w->tracks[c];
        /* the clip's blocks: from its sequence to the next clip's */
        for (int32_t i = w->seq_block[c]; i < (int32_t)w->block_count && (i == w->seq_block[c] || w->types[i] != T_SEQ);
             i++) {
            if (!w->v20)
                vks_buf_u32(w->o, 0); /* block separator (10.0.0.0 <= v < 10.2.0.0) */
            size_t start = w->o->size;
            int type = w->types[i];
            if (type == T_SEQ) {
                sequence(w, c);
            } else if (type == T_TEXT) {
                text_keys(w, c);
            } else {
                uint32_t t = 0;
                while (t + 1 < clip->track_count && kt[t + 1].interp <= i)
                    t++;
                const vks_track *tr = &clip->tracks[t];
                switch (type) {
                case T_KFCTRL: keyframe_controller(w, clip, &kt[t]); break;
                case T_TINTERP:
                    unset_pose(w);
                    vks_buf_i32(w->o, kt[t].data);
                    break;
                case T_BSINTERP:
                case T_BSCOMP: bspline_interp(w, tr, &kt[t], type == T_BSCOMP); break;
                case T_BSDATA: bspline_data(w, tr, w->opt && w->opt->compressed); break;
                case T_BSBASIS: vks_buf_u32(w->o, tr->translation.key_count ? tr->translation.key_count
                                                   : tr->rotation.key_count ? tr->rotation.key_count
                                                                            : tr->scale.key_count);
                    break;
                default: keyframe_data(w, tr); break; /* T_TDATA, T_KFDATA */
                }
            }
            if (w->v20)
                vks_buf_patch_u32(w->o, sizes_at + 4 * (size_t)i, (uint32_t)(w->o->size - start));
        }
    }
    vks_buf_u32(w->o, w->set->clip_count); /* roots: the sequences */
    for (uint32_t c = 0; c < w->set->clip_count; c++)
        vks_buf_i32(w->o, w->seq_block[c]);
    return w->o->failed ? nomem(w) : VKS_OK;
}

vks_result vks_nif_kf_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                            uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    vks_error local = {0};
    if (!err)
        err = &local;
    if (!set || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "nif/write", "set, out_bytes and out_size are required");
    uint32_t version = opt && opt->version ? opt->version : NIF_V(20, 2, 0, 7);
    if (version != NIF_V(20, 2, 0, 7) && version != NIF_V(10, 1, 0, 0))
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write/version",
                             "the .kf writer writes 20.2.0.7 (0x14020007) or 10.1.0.0 (0x0A010000), not 0x%08x", version);
    if (set->clip_count == 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "nif/write", "the set has no clip");
    vks_result r = vks_clip_set_validate(set, err);
    if (r != VKS_OK)
        return r;
    vks_bytebuf out = {0};
    kf_writer w = {.set = set, .opt = opt, .ver = version, .v20 = version >= NIF_V(20, 1, 0, 1), .o = &out, .err = err};
    r = plan(&w, skin);
    if (r == VKS_OK)
        r = write_all(&w);
    for (uint32_t c = 0; w.tracks && c < set->clip_count; c++)
        free(w.tracks[c]);
    for (uint32_t c = 0; w.texts && c < set->clip_count; c++)
        for (uint32_t e = 0; w.texts[c] && e < set->clips[c].event_count; e++)
            free(w.texts[c][e]);
    for (uint32_t c = 0; w.texts && c < set->clip_count; c++)
        free(w.texts[c]);
    free(w.tracks), free(w.texts), free(w.types), free(w.strings), free(w.seq_block), free(w.text_block);
    if (r != VKS_OK) {
        vks_buf_free(&out);
        return r;
    }
    *out_bytes = out.data;
    *out_size = out.size;
    return VKS_OK;
}
