/* GTA .ifp writer: every clip of a set, bound to a skin, as ANPK (version 1), ANP2 (2) or ANP3
 * (3, the default); opt->compressed writes ANP2/ANP3's int16 frame types 3 and 4. Layouts as
 * ifp_read.c reads them.
 *
 * One sequence per skin node a track drives, in node order (parents first), named after the
 * node and tagged with its tag (ANPK: a 44-byte ANIM; ANP2/3: bone tag, -1 without one).
 * Keys at the union of the track's key times plus 0 and the duration (the games loop each
 * sequence at its own last key), curves that linear keys cannot follow resampled at 120 keys
 * a second (rw_anim_internal.h); int16 keys all on the 60-a-second grid their times can hold.
 * A track without translation keys becomes an untranslated sequence (KR00, type 1 or 3).
 * Names longer than the fields (ANIM 27, ANP2/3 23 characters) are cut. int16 keys: time in
 * 60ths of a second (clips up to 546 s), quaternions times 4096, translations times 1024
 * (within +-32 units, else VKS_ERR_UNSUPPORTED). */
#include "rw_anim_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ifp_seq {
    uint32_t node;
    rwa_node_keys keys;
} ifp_seq;

typedef struct ifp_wclip {
    const vks_clip *clip;
    ifp_seq *seqs;
    uint32_t count;
} ifp_wclip;

static void put_name(vks_bytebuf *b, const char *name, size_t field)
{
    char buf[32] = {0};
    size_t n = strlen(name);
    if (n > field - 1)
        n = field - 1;
    memcpy(buf, name, n);
    vks_buf_put(b, buf, field);
}

static void put_ident(vks_bytebuf *b, const char *id) { vks_buf_put(b, id, 4); }

static void pad4(vks_bytebuf *b)
{
    while (!b->failed && (b->size & 3))
        vks_buf_u8(b, 0);
}

static void patch_size(vks_bytebuf *b, size_t header)
{
    if (!b->failed)
        vks_buf_patch_u32(b, header + 4, (uint32_t)(b->size - header - 8));
}

/* A value scaled into an int16; 0 when it does not fit. */
static int to_i16(float v, float scale, int16_t *out)
{
    float s = roundf(v * scale);
    if (!(s >= -32768.0f && s <= 32767.0f))
        return 0;
    *out = (int16_t)s;
    return 1;
}

static vks_result sample_clip(const vks_clip *clip, const vks_skin *skin, int packed, ifp_wclip *w, vks_error *err)
{
    vks_clip_binding b;
    vks_result r = vks__rwa_writer_bind(clip, skin, "ifp", &b, err);
    if (r != VKS_OK)
        return r;
    w->clip = clip;
    w->seqs = calloc(b.bound_tracks ? b.bound_tracks : 1, sizeof *w->seqs);
    if (!w->seqs) {
        vks_clip_binding_free(&b);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "ifp", "out of memory");
    }
    for (uint32_t n = 0; n < skin->node_count && r == VKS_OK; n++) {
        int32_t t = b.track_of_node[n];
        if (t < 0)
            continue;
        ifp_seq *s = &w->seqs[w->count++];
        s->node = n;
        /* int16 times count 60ths of a second: every key on that grid, where it can be exact */
        r = vks__rwa_sample_node(clip, &clip->tracks[t], b.bind_trs[n], packed ? 60.0f : RWA_RATE, packed, &s->keys,
                                 err);
    }
    vks_clip_binding_free(&b);
    return r;
}

static vks_result write_anpk(const ifp_wclip *w, uint32_t clips, const vks_skin *skin, vks_bytebuf *b)
{
    size_t top = b->size;
    put_ident(b, "ANPK");
    vks_buf_u32(b, 0);
    put_ident(b, "INFO");
    vks_buf_u32(b, 4 + 7);
    vks_buf_u32(b, clips);
    vks_buf_put(b, "vkskin", 7);
    pad4(b);
    for (uint32_t c = 0; c < clips; c++) {
        const char *name = w[c].clip->name ? w[c].clip->name : "";
        put_ident(b, "NAME");
        vks_buf_u32(b, (uint32_t)strlen(name) + 1);
        vks_buf_put(b, name, strlen(name) + 1);
        pad4(b);
        size_t dgan = b->size;
        put_ident(b, "DGAN");
        vks_buf_u32(b, 0);
        put_ident(b, "INFO");
        vks_buf_u32(b, 8);
        vks_buf_u32(b, w[c].count);
        vks_buf_u32(b, 0);
        for (uint32_t s = 0; s < w[c].count; s++) {
            const ifp_seq *q = &w[c].seqs[s];
            const vks_node *node = &skin->nodes[q->node];
            size_t cpan = b->size;
            put_ident(b, "CPAN");
            vks_buf_u32(b, 0);
            put_ident(b, "ANIM");
            vks_buf_u32(b, node->has_tag ? 44 : 40);
            put_name(b, node->name, 28);
            vks_buf_u32(b, q->keys.count);
            vks_buf_u32(b, 0);
            vks_buf_u32(b, q->keys.count - 1);
            if (node->has_tag)
                vks_buf_i32(b, node->tag);
            int tr = q->keys.translated;
            put_ident(b, tr ? "KRT0" : "KR00");
            vks_buf_u32(b, q->keys.count * (tr ? 32u : 20u));
            for (uint32_t k = 0; k < q->keys.count; k++) {
                for (int i = 0; i < 4; i++) /* stored conjugated */
                    vks_buf_f32(b, i < 3 ? -q->keys.q[k][i] : q->keys.q[k][i]);
                if (tr)
                    for (int i = 0; i < 3; i++)
                        vks_buf_f32(b, q->keys.t[k][i]);
                vks_buf_f32(b, q->keys.time[k]);
            }
            patch_size(b, cpan);
        }
        patch_size(b, dgan);
    }
    patch_size(b, top);
    return VKS_OK;
}

static vks_result write_anp3(const ifp_wclip *w, uint32_t clips, const vks_skin *skin, int anp3, int packed,
                             vks_bytebuf *b, vks_error *err)
{
    size_t top = b->size;
    put_ident(b, anp3 ? "ANP3" : "ANP2");
    vks_buf_u32(b, 0);
    put_name(b, "vkskin", 24);
    vks_buf_u32(b, clips);
    for (uint32_t c = 0; c < clips; c++) {
        const vks_clip *clip = w[c].clip;
        put_name(b, clip->name ? clip->name : "", 24);
        vks_buf_u32(b, w[c].count);
        if (anp3) {
            uint64_t frame_bytes = 0;
            for (uint32_t s = 0; s < w[c].count; s++)
                frame_bytes += (uint64_t)w[c].seqs[s].keys.count *
                               (packed ? (w[c].seqs[s].keys.translated ? 16 : 10)
                                       : (w[c].seqs[s].keys.translated ? 32 : 20));
            if (frame_bytes > UINT32_MAX)
                return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "ifp", "clip \"%.24s\": too many keys",
                                     clip->name);
            vks_buf_u32(b, (uint32_t)frame_bytes);
            vks_buf_u32(b, packed ? 1u : 0u); /* flags bit 0: int16 keys */
        }
        for (uint32_t s = 0; s < w[c].count; s++) {
            const ifp_seq *q = &w[c].seqs[s];
            const vks_node *node = &skin->nodes[q->node];
            int tr = q->keys.translated;
            put_name(b, node->name, 24);
            vks_buf_u32(b, packed ? (tr ? 4u : 3u) : (tr ? 2u : 1u));
            vks_buf_u32(b, q->keys.count);
            vks_buf_i32(b, node->has_tag ? node->tag : -1);
            for (uint32_t k = 0; k < q->keys.count; k++) {
                if (!packed) {
                    for (int i = 0; i < 4; i++)
                        vks_buf_f32(b, q->keys.q[k][i]);
                    vks_buf_f32(b, q->keys.time[k]);
                    if (tr)
                        for (int i = 0; i < 3; i++)
                            vks_buf_f32(b, q->keys.t[k][i]);
                    continue;
                }
                int16_t v[8];
                for (int i = 0; i < 4; i++) /* unit quaternion components: within +-4096 */
                    to_i16(q->keys.q[k][i], 4096.0f, &v[i]);
                if (!to_i16(q->keys.time[k], 60.0f, &v[4]))
                    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "ifp",
                                         "clip \"%.24s\": key at %g s, int16 times reach 546 s", clip->name,
                                         (double)q->keys.time[k]);
                for (int i = 0; tr && i < 3; i++)
                    if (!to_i16(q->keys.t[k][i], 1024.0f, &v[5 + i]))
                        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "ifp",
                                             "clip \"%.24s\", node \"%.24s\": translation %g at %g s is outside the "
                                             "int16 keys' +-32",
                                             clip->name, node->name, (double)q->keys.t[k][i], (double)q->keys.time[k]);
                for (int i = 0; i < (tr ? 8 : 5); i++)
                    vks_buf_u16(b, (uint16_t)v[i]);
            }
        }
    }
    patch_size(b, top);
    return VKS_OK;
}

vks_result vks_ifp_write(const vks_clip_set *set, const vks_skin *skin, const vks_clip_write_options *opt,
                         uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    vks_error local;
    memset(&local, 0, sizeof local);
    if (!err)
        err = &local;
    if (!set || !skin || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "ifp",
                             "a clip set, a skin, out_bytes and out_size are required");
    uint32_t version = opt && opt->version ? opt->version : 3;
    int packed = opt && opt->compressed;
    if (version > 3)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "ifp",
                             "version %u: 1 writes ANPK, 2 ANP2, 3 ANP3", version);
    if (version == 1 && packed)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "ifp",
                             "ANPK has float keys only; int16 keys are ANP2's and ANP3's");
    ifp_wclip *w = calloc(set->clip_count ? set->clip_count : 1, sizeof *w);
    if (!w)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "ifp", "out of memory");
    vks_result r = VKS_OK;
    for (uint32_t c = 0; c < set->clip_count && r == VKS_OK; c++)
        r = sample_clip(&set->clips[c], skin, packed, &w[c], err);
    vks_bytebuf b;
    memset(&b, 0, sizeof b);
    if (r == VKS_OK)
        r = version == 1 ? write_anpk(w, set->clip_count, skin, &b)
                         : write_anp3(w, set->clip_count, skin, version == 3, packed, &b, err);
    if (r == VKS_OK && b.failed)
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "ifp", "out of memory writing %zu bytes", b.size);
    for (uint32_t c = 0; c < set->clip_count; c++) {
        for (uint32_t s = 0; s < w[c].count; s++)
            vks__rwa_node_keys_free(&w[c].seqs[s].keys);
        free(w[c].seqs);
    }
    free(w);
    if (r != VKS_OK) {
        vks_buf_free(&b);
        return r;
    }
    *out_bytes = b.data;
    *out_size = b.size;
    return VKS_OK;
}
