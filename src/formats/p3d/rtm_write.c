/* vks_rtm_write: a clip sampled on a skin into plain RTM_0101 (version 0) or BMTR 3..5.
 *
 * Frames sit at phases f / (frames - 1). Each is sampled through vks_clip_sample_locals_d, so
 * a clip in any space comes out the same way, and turned into the file's space with the
 * skin's bind pose. An RTM matrix is the skinning matrix of model-space vertices (a P3D's,
 * which have no skin space of their own): D(n) = S W(n) W_bind(n)^-1 S_bind^-1, with S the
 * skin space of the skin's first mesh (skin.h: space_pre * W(space_node)^-1; identity without
 * meshes) posed and at bind. That is the skin's own skinning matrix K of each bone (whose
 * inverse bind is S_bind W_bind^-1), so the file deforms the skin's vertices on a P3D model as
 * the clip deforms them on the skin; where S is the identity (P3D skins, skins without a
 * space node) it is W(n) W_bind(n)^-1. BMTR holds L(n) = D(parent)^-1 * D(n), where the
 * parent's D is what the reader's composition gives it (a node the file leaves out keeps its
 * parent's D). Bones are the skin's nodes in order, less the synthetic "(model)" root a P3D
 * skin has for its static points.
 *
 * What the forms cannot hold: BMTR has no scale (a scaled L is written as its rotation and
 * translation) and BMTR 3 has no events; names must fit RTM_0101's char[32] and RTM_MDAT's
 * length bytes. BMTR names are written in lower case, as Binarize does (the sample pair
 * shows it; binding ignores case). BMTR 3 and 4 compress the arrays of 1024 bytes or more, as their readers
 * expect; BMTR 5 compresses when opt->compressed asks. The LZO1X streams are literal runs. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rtm_internal.h"

#define RTM_WRITE_MAX_KEYS (1u << 26) /* frames x bones in one written file */

typedef struct rtm_writer {
    const vks_clip *clip;
    const vks_skin *skin;
    uint32_t version, frames, bone_count;
    int compressed;
    uint32_t *bones; /* written node indices */
    vks_clip_binding binding;
    vks_affine *locals;
    vks_affine_d *world, *bind_inv, *delta, *effective;
    vks_affine_d space_bind_inv; /* S_bind^-1 */
    float (*prev_q)[4]; /* BMTR: each bone's last quaternion, for the shorter way */
    uint8_t *array;     /* one BMTR frame's bones */
    vks_bytebuf out;
} rtm_writer;

static int is_synthetic_root(const vks_node *n) { return n->parent < 0 && strcmp(n->name, "(model)") == 0; }

static double phase_of(const rtm_writer *w, uint32_t f)
{
    return w->frames > 1 ? (double)f / (double)(w->frames - 1) : 0.0;
}

/* The skin space S of the skin's first mesh for node worlds world (skin.h); identity
 * without meshes. 0 when the space node's world is singular. */
static int skin_space(const vks_skin *s, const vks_affine_d *world, vks_affine_d *out)
{
    *out = vks_affine_d_identity();
    if (!s->mesh_count)
        return 1;
    const vks_mesh *m = &s->meshes[0];
    *out = vks_affine_d_from(&m->space_pre);
    if (m->space_node < 0 || (uint32_t)m->space_node >= s->node_count)
        return 1;
    vks_affine_d inv;
    if (!vks_affine_d_inverse(&world[m->space_node], &inv))
        return 0;
    *out = vks_affine_d_mul(out, &inv);
    return 1;
}

/* Every node's world in double from its locals (parents first), as the CPU reference composes
 * them: a writer of the formats layer does not borrow from the engine it feeds. */
static void compose_world_d(const vks_skin *skin, const vks_affine *locals, vks_affine_d *out)
{
    for (uint32_t i = 0; i < skin->node_count; i++) {
        vks_affine_d local = vks_affine_d_from(&locals[i]);
        int32_t p = skin->nodes[i].parent;
        out[i] = p < 0 ? local : vks_affine_d_mul(&out[p], &local);
    }
}

/* Every node's D for the frame at phase p (w->bind_inv and w->space_bind_inv are ready). */
static vks_result frame_deltas(rtm_writer *w, double p, vks_error *err)
{
    double t = p * w->clip->duration;
    vks_clip_sample_locals_d(w->clip, &w->binding, w->skin, t, w->locals);
    compose_world_d(w->skin, w->locals, w->world);
    vks_affine_d S;
    if (!skin_space(w->skin, w->world, &S))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                             "phase %g: the skin space node's world is singular", p);
    for (uint32_t n = 0; n < w->skin->node_count; n++) {
        vks_affine_d d = vks_affine_d_mul(&w->world[n], &w->bind_inv[n]);
        d = vks_affine_d_mul(&S, &d);
        w->delta[n] = vks_affine_d_mul(&d, &w->space_bind_inv);
    }
    return VKS_OK;
}

static void put_events_plain(rtm_writer *w)
{
    const vks_clip *c = w->clip;
    vks_buf_put(&w->out, "RTM_MDAT", 8);
    vks_buf_u32(&w->out, 0);
    vks_buf_u32(&w->out, c->event_count);
    for (uint32_t e = 0; e < c->event_count; e++) {
        vks_buf_f32(&w->out, c->events[e].time / c->duration);
        const char *s[2] = {c->events[e].name, c->events[e].value};
        for (int k = 0; k < 2; k++) {
            size_t len = strlen(s[k]);
            vks_buf_u8(&w->out, (uint8_t)len);
            vks_buf_put(&w->out, s[k], len);
        }
    }
}

static void put_name_field(vks_bytebuf *b, const char *name)
{
    uint8_t field[RTM_NAME_FIELD] = {0};
    memcpy(field, name, strlen(name)); /* checked to fit with its NUL */
    vks_buf_put(b, field, RTM_NAME_FIELD);
}

static vks_result write_plain(rtm_writer *w, vks_error *err)
{
    if (w->clip->event_count)
        put_events_plain(w);
    vks_buf_put(&w->out, "RTM_0101", 8);
    for (int k = 0; k < 3; k++)
        vks_buf_f32(&w->out, w->clip->motion[k]);
    vks_buf_u32(&w->out, w->frames);
    vks_buf_u32(&w->out, w->bone_count);
    for (uint32_t i = 0; i < w->bone_count; i++)
        put_name_field(&w->out, w->skin->nodes[w->bones[i]].name);
    vks_buf_reserve(&w->out, (size_t)w->frames * (4 + (size_t)w->bone_count * (RTM_NAME_FIELD + 48)));
    for (uint32_t f = 0; f < w->frames && !w->out.failed; f++) {
        double p = phase_of(w, f);
        vks_result r = frame_deltas(w, p, err);
        if (r != VKS_OK)
            return r;
        vks_buf_f32(&w->out, (float)p);
        for (uint32_t i = 0; i < w->bone_count; i++) {
            uint32_t n = w->bones[i];
            put_name_field(&w->out, w->skin->nodes[n].name);
            for (int k = 0; k < 12; k++) {
                float v = (float)w->delta[n].m[k];
                if (!isfinite(v))
                    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                                         "frame %u node \"%.40s\": matrix not finite in float", f,
                                         w->skin->nodes[n].name);
                vks_buf_f32(&w->out, v);
            }
        }
    }
    return VKS_OK;
}

/* One BMTR array: the flag (version 5), then the bytes or their LZO1X stream. */
static void put_array(rtm_writer *w, const uint8_t *data, size_t n)
{
    int compressed = n >= RTM_LZO_THRESHOLD;
    if (w->version >= 5) {
        compressed = w->compressed;
        vks_buf_u8(&w->out, compressed ? 2 : 0);
    }
    if (compressed)
        vks__lzo1x_encode_literals(&w->out, data, n);
    else
        vks_buf_put(&w->out, data, n);
}

static void put_asciiz(vks_bytebuf *b, const char *s) { vks_buf_put(b, s, strlen(s) + 1); }

static void le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* BMTR's bone names (lower case, as Binarize writes them) and, from version 4, its events at
 * their phases. */
static void put_bmtr_names_events(rtm_writer *w)
{
    const vks_clip *c = w->clip;
    const vks_skin *s = w->skin;
    vks_buf_u32(&w->out, w->bone_count);
    vks_buf_u32(&w->out, w->bone_count);
    for (uint32_t i = 0; i < w->bone_count; i++)
        for (const char *p = s->nodes[w->bones[i]].name;; p++) {
            vks_buf_u8(&w->out, (uint8_t)tolower((unsigned char)*p));
            if (!*p)
                break;
        }
    if (w->version >= 4) {
        vks_buf_u32(&w->out, 0);
        vks_buf_u32(&w->out, c->event_count);
        for (uint32_t e = 0; e < c->event_count; e++) {
            vks_buf_u32(&w->out, 0xFFFFFFFFu);
            put_asciiz(&w->out, c->events[e].name);
            vks_buf_f32(&w->out, c->events[e].time / c->duration);
            put_asciiz(&w->out, c->events[e].value);
        }
    }
}

static vks_result write_bmtr(rtm_writer *w, vks_error *err)
{
    const vks_clip *c = w->clip;
    const vks_skin *s = w->skin;
    vks_buf_put(&w->out, "BMTR", 4);
    vks_buf_u32(&w->out, w->version);
    vks_buf_u8(&w->out, 1);
    for (int k = 0; k < 3; k++)
        vks_buf_f32(&w->out, c->motion[k]);
    vks_buf_u32(&w->out, w->frames);
    vks_buf_u32(&w->out, 0);
    put_bmtr_names_events(w);
    vks_buf_u32(&w->out, w->frames);
    uint8_t *phases = malloc((size_t)w->frames * 4);
    if (!phases)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rtm write", "out of memory for %u phases", w->frames);
    for (uint32_t f = 0; f < w->frames; f++) {
        float p = (float)phase_of(w, f);
        uint32_t u;
        memcpy(&u, &p, 4);
        for (int k = 0; k < 4; k++)
            phases[(size_t)f * 4 + k] = (uint8_t)(u >> (8 * k));
    }
    put_array(w, phases, (size_t)w->frames * 4);
    free(phases);

    for (uint32_t f = 0; f < w->frames && !w->out.failed; f++) {
        vks_result r = frame_deltas(w, phase_of(w, f), err);
        if (r != VKS_OK)
            return r;
        /* the D the reader composes for each node: its own where the file has it, else its
           parent's (a node left out of the file gets L = identity) */
        uint32_t next = 0;
        for (uint32_t n = 0; n < s->node_count; n++) {
            int32_t p = s->nodes[n].parent;
            if (next < w->bone_count && w->bones[next] == n) {
                w->effective[n] = w->delta[n];
                next++;
            } else {
                w->effective[n] = p >= 0 ? w->effective[p] : vks_affine_d_identity();
            }
        }
        for (uint32_t i = 0; i < w->bone_count; i++) {
            uint32_t n = w->bones[i];
            int32_t p = s->nodes[n].parent;
            vks_affine_d L = w->delta[n];
            if (p >= 0) {
                vks_affine_d inv;
                if (!vks_affine_d_inverse(&w->effective[p], &inv))
                    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                                         "frame %u: node \"%.40s\" has a singular deformation", f, s->nodes[p].name);
                L = vks_affine_d_mul(&inv, &w->delta[n]);
            }
            vks_affine lf;
            for (int k = 0; k < 12; k++)
                lf.m[k] = (float)L.m[k];
            float t[3], q[4], sc[3];
            vks_affine_to_trs(&lf, t, q, sc);
            float *pq = w->prev_q[i];
            if (f > 0 && pq[0] * q[0] + pq[1] * q[1] + pq[2] * q[2] + pq[3] * q[3] < 0)
                for (int k = 0; k < 4; k++)
                    q[k] = -q[k];
            memcpy(pq, q, sizeof q);
            /* the file's quaternion and translation (rtm_internal.h: the reader's inverse) */
            float fq[4] = {q[0], -q[1], q[2], q[3]}, ft[3] = {-t[0], t[1], -t[2]};
            uint8_t *b = w->array + (size_t)i * RTM_BMTR_BONE_BYTES;
            for (int k = 0; k < 4; k++) {
                double v = nearbyint((double)fq[k] * 16384.0);
                if (!isfinite(v))
                    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                                         "frame %u node \"%.40s\": rotation not finite", f, s->nodes[n].name);
                v = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
                le16(b + 2 * k, (uint16_t)(int16_t)v);
            }
            for (int k = 0; k < 3; k++) {
                uint16_t h;
                if (!rtm_float_to_half(ft[k], &h))
                    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                                         "frame %u node \"%.40s\": translation %g does not fit a half float", f,
                                         s->nodes[n].name, (double)ft[k]);
                le16(b + 8 + 2 * k, h);
            }
        }
        vks_buf_u32(&w->out, w->bone_count);
        put_array(w, w->array, (size_t)w->bone_count * RTM_BMTR_BONE_BYTES);
    }
    return VKS_OK;
}

/* What the chosen form cannot hold, refused before anything is sampled. */
static vks_result check_names(const rtm_writer *w, vks_error *err)
{
    for (uint32_t i = 0; i < w->bone_count; i++) {
        const char *name = w->skin->nodes[w->bones[i]].name;
        if (w->version == 0 && strlen(name) >= RTM_NAME_FIELD)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                                 "node \"%.40s\": name longer than %d bytes (RTM_0101's char[32])", name,
                                 RTM_NAME_FIELD - 1);
    }
    for (uint32_t e = 0; w->version == 0 && e < w->clip->event_count; e++)
        if (strlen(w->clip->events[e].name) > 255 || strlen(w->clip->events[e].value) > 255)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                                 "event %u: name or value longer than 255 bytes (RTM_MDAT's length byte)", e);
    return VKS_OK;
}

static void writer_free(rtm_writer *w)
{
    vks_clip_binding_free(&w->binding);
    free(w->bones);
    free(w->locals);
    free(w->world);
    free(w->bind_inv);
    free(w->delta);
    free(w->effective);
    free(w->prev_q);
    free(w->array);
    vks_buf_free(&w->out);
}

vks_result vks_rtm_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                         uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    if (!clip || !skin || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write", "no clip, skin or output");
    vks_clip_write_options o = {0};
    if (opt)
        o = *opt;
    if (o.version != 0 && (o.version < 3 || o.version > 5))
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "rtm write",
                             "version %u: 0 (plain RTM_0101) or BMTR 3, 4 and 5", o.version);
    vks_clip_set one = {0};
    one.clips = (vks_clip *)clip;
    one.clip_count = 1;
    vks_result r = vks_clip_set_validate(&one, err);
    if (r != VKS_OK)
        return r;

    rtm_writer w;
    memset(&w, 0, sizeof w);
    w.clip = clip;
    w.skin = skin;
    w.version = o.version;
    w.compressed = o.compressed;
    double frames = o.frames ? (double)o.frames : floor(30.0 * clip->duration + 0.5) + 1;
    uint32_t nodes = skin->node_count;
    w.bones = malloc((nodes ? nodes : 1) * sizeof *w.bones);
    if (!w.bones)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rtm write", "out of memory");
    for (uint32_t n = 0; n < nodes; n++)
        if (!is_synthetic_root(&skin->nodes[n]))
            w.bones[w.bone_count++] = n;
    if (frames * (w.bone_count ? w.bone_count : 1) > RTM_WRITE_MAX_KEYS) {
        writer_free(&w);
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "rtm write", "%.0f frames x %u bones, over %u keys",
                             frames, w.bone_count, RTM_WRITE_MAX_KEYS);
    }
    w.frames = (uint32_t)frames;
    if ((r = check_names(&w, err)) != VKS_OK) {
        writer_free(&w);
        return r;
    }
    size_t n1 = nodes ? nodes : 1;
    w.locals = malloc(n1 * sizeof *w.locals);
    w.world = malloc(n1 * sizeof *w.world);
    w.bind_inv = malloc(n1 * sizeof *w.bind_inv);
    w.delta = malloc(n1 * sizeof *w.delta);
    w.effective = malloc(n1 * sizeof *w.effective);
    w.prev_q = malloc(n1 * sizeof *w.prev_q);
    w.array = malloc(n1 * RTM_BMTR_BONE_BYTES);
    if (!w.locals || !w.world || !w.bind_inv || !w.delta || !w.effective || !w.prev_q || !w.array) {
        writer_free(&w);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rtm write", "out of memory");
    }
    if ((r = vks_clip_bind(clip, skin, &w.binding, err)) != VKS_OK) {
        writer_free(&w);
        return r;
    }
    /* the bind worlds' inverses, once */
    for (uint32_t n = 0; n < nodes; n++)
        w.locals[n] = skin->nodes[n].bind_local;
    compose_world_d(skin, w.locals, w.world);
    for (uint32_t n = 0; n < nodes; n++)
        if (!vks_affine_d_inverse(&w.world[n], &w.bind_inv[n])) {
            writer_free(&w);
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write",
                                 "node \"%.40s\": its bind world is singular", skin->nodes[n].name);
        }
    vks_affine_d space_bind;
    if (!skin_space(skin, w.world, &space_bind) || !vks_affine_d_inverse(&space_bind, &w.space_bind_inv)) {
        writer_free(&w);
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "rtm write", "the skin space at bind is singular");
    }
    r = w.version == 0 ? write_plain(&w, err) : write_bmtr(&w, err);
    if (r == VKS_OK && w.out.failed)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "rtm write", "out of memory for the file");
    if (r != VKS_OK) {
        writer_free(&w);
        return r;
    }
    *out_bytes = w.out.data;
    *out_size = w.out.size;
    w.out.data = NULL;
    writer_free(&w);
    return VKS_OK;
}
