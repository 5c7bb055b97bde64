/* RenderWare .anm and legacy .ska writers: a LOCAL clip bound to a skin as one HAnim key
 * stream over the skin's HAnim nodes (those with an anim_index, in that order).
 *
 * Each node gets keys at the union of its track's key times (curves that linear keys cannot
 * follow resampled: rw_anim_internal.h), with one at 0 and one at the duration always (librw
 * interpolates between a node's current and next key and would run past a node's last key);
 * a node no track drives keeps its bind local (two keys). The stream
 * is in librw's order: every node's first key in hierarchy order, every node's second key,
 * then the rest sorted by the time of their previous key (ties by node), each key's prev the
 * byte offset of its node's previous key, the first keys' prevs junk as in real files. */
#include "rw_anim_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RWA_LIBRARY_STAMP 0x1803FFFFu /* RW 3.6.0.3, the DFF writer's default */

typedef struct stream_entry {
    uint32_t node, key;
    float prev_time;
} stream_entry;

static int cmp_entry(const void *a, const void *b)
{
    const stream_entry *x = a, *y = b;
    if (x->prev_time != y->prev_time)
        return x->prev_time < y->prev_time ? -1 : 1;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The skin's HAnim nodes: order[i] = the skin node with anim_index i. */
static vks_result hierarchy_order(const vks_skin *skin, const char *what, uint32_t **order, uint32_t *count,
                                  vks_error *err)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < skin->node_count; i++)
        n += skin->nodes[i].has_anim_index != 0;
    if (n == 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, what,
                             "no node of the skin has an animation index (the HAnim node order a .anm follows); "
                             "a skin read from a DFF has one");
    uint32_t *o = malloc(n * sizeof *o);
    if (!o)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, what, "out of memory");
    for (uint32_t i = 0; i < n; i++)
        o[i] = UINT32_MAX;
    for (uint32_t i = 0; i < skin->node_count; i++) {
        if (!skin->nodes[i].has_anim_index)
            continue;
        int32_t a = skin->nodes[i].anim_index;
        if (a < 0 || (uint32_t)a >= n || o[a] != UINT32_MAX) {
            free(o);
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, what,
                                 "node %u \"%.40s\": animation index %d is out of 0..%u or taken twice", i,
                                 skin->nodes[i].name, a, n - 1);
        }
        o[a] = i;
    }
    *order = o;
    *count = n;
    return VKS_OK;
}

typedef struct anm_job {
    const vks_clip *clip;
    int compressed, legacy;
    const char *what;
    vks_clip_binding b;
    uint32_t *order, nodes;
    rwa_node_keys *keys;
    uint32_t *base; /* first flat key of each node */
    uint32_t total;
    stream_entry *stream;
    uint32_t *pos; /* flat key -> stream position */
} anm_job;

static void job_free(anm_job *j)
{
    vks_clip_binding_free(&j->b);
    if (j->keys)
        for (uint32_t i = 0; i < j->nodes; i++)
            vks__rwa_node_keys_free(&j->keys[i]);
    free(j->keys), free(j->order), free(j->base), free(j->stream), free(j->pos);
}

/* Samples every node and lays the stream out. */
static vks_result build_stream(anm_job *j, const vks_skin *skin, vks_error *err)
{
    vks_result r = vks__rwa_writer_bind(j->clip, skin, j->what, &j->b, err);
    if (r == VKS_OK)
        r = hierarchy_order(skin, j->what, &j->order, &j->nodes, err);
    if (r != VKS_OK)
        return r;
    j->keys = calloc(j->nodes, sizeof *j->keys);
    j->base = calloc(j->nodes, sizeof *j->base);
    if (!j->keys || !j->base)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, j->what, "out of memory");
    uint64_t total = 0;
    for (uint32_t i = 0; i < j->nodes; i++) {
        uint32_t node = j->order[i];
        int32_t t = j->b.track_of_node[node];
        r = vks__rwa_sample_node(j->clip, t >= 0 ? &j->clip->tracks[t] : NULL, j->b.bind_trs[node], RWA_RATE, 0,
                                 &j->keys[i], err);
        if (r != VKS_OK)
            return r;
        j->base[i] = (uint32_t)total;
        total += j->keys[i].count;
        if (total > INT32_MAX / RWA_STD_KEY)
            return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, j->what, "%llu keys: too many for the format",
                                 (unsigned long long)total);
    }
    j->total = (uint32_t)total;
    j->stream = malloc(total * sizeof *j->stream);
    j->pos = malloc(total * sizeof *j->pos);
    if (!j->stream || !j->pos)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, j->what, "out of memory");
    uint32_t s = 0;
    for (uint32_t k = 0; k < 2; k++) /* every node has two keys at least (0 and the duration) */
        for (uint32_t i = 0; i < j->nodes; i++)
            j->stream[s++] = (stream_entry){i, k, 0};
    uint32_t rest = s;
    for (uint32_t i = 0; i < j->nodes; i++)
        for (uint32_t k = 2; k < j->keys[i].count; k++)
            j->stream[s++] = (stream_entry){i, k, j->keys[i].time[k - 1]};
    qsort(j->stream + rest, s - rest, sizeof *j->stream, cmp_entry);
    for (uint32_t p = 0; p < s; p++)
        j->pos[j->base[j->stream[p].node] + j->stream[p].key] = p;
    return VKS_OK;
}

static int32_t prev_offset(const anm_job *j, uint32_t p, uint32_t unit)
{
    const stream_entry *e = &j->stream[p];
    if (e->key == 0)
        return RWA_JUNK_PREV; /* never read: librw writes NULL minus the array's address */
    return (int32_t)(j->pos[j->base[e->node] + e->key - 1] * unit);
}

static void write_keys(const anm_job *j, vks_bytebuf *b)
{
    if (j->legacy || !j->compressed) {
        for (uint32_t p = 0; p < j->total; p++) {
            const rwa_node_keys *k = &j->keys[j->stream[p].node];
            uint32_t i = j->stream[p].key;
            if (!j->legacy)
                vks_buf_f32(b, k->time[i]);
            for (int c = 0; c < 4; c++) /* .ska: stored conjugated */
                vks_buf_f32(b, j->legacy && c < 3 ? -k->q[i][c] : k->q[i][c]);
            for (int c = 0; c < 3; c++)
                vks_buf_f32(b, k->t[i][c]);
            if (j->legacy)
                vks_buf_f32(b, k->time[i]);
            vks_buf_i32(b, prev_offset(j, p, RWA_STD_KEY));
        }
        return;
    }
    /* compressed: translations as offset + scalar * [-1, 1] per axis */
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < j->nodes; i++)
        for (uint32_t k = 0; k < j->keys[i].count; k++)
            for (int c = 0; c < 3; c++) {
                float v = j->keys[i].t[k][c];
                lo[c] = v < lo[c] ? v : lo[c];
                hi[c] = v > hi[c] ? v : hi[c];
            }
    float offset[3], scalar[3];
    for (int c = 0; c < 3; c++) {
        offset[c] = 0.5f * lo[c] + 0.5f * hi[c];
        scalar[c] = 0.5f * hi[c] - 0.5f * lo[c];
    }
    for (uint32_t p = 0; p < j->total; p++) {
        const rwa_node_keys *k = &j->keys[j->stream[p].node];
        uint32_t i = j->stream[p].key;
        vks_buf_f32(b, k->time[i]);
        for (int c = 0; c < 4; c++)
            vks_buf_u16(b, vks__rwa_compress(k->q[i][c]));
        for (int c = 0; c < 3; c++)
            vks_buf_u16(b, vks__rwa_compress(scalar[c] > 0 ? (k->t[i][c] - offset[c]) / scalar[c] : 0.0f));
        vks_buf_i32(b, prev_offset(j, p, RWA_COMPRESSED_UNIT));
    }
    for (int c = 0; c < 3; c++)
        vks_buf_f32(b, offset[c]);
    for (int c = 0; c < 3; c++)
        vks_buf_f32(b, scalar[c]);
}

static vks_result write_file(const vks_clip *clip, const vks_skin *skin, int compressed, int legacy,
                             uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    const char *what = legacy ? "ska" : "anm";
    if (!out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, what, "out_bytes and out_size are required");
    anm_job j;
    memset(&j, 0, sizeof j);
    j.clip = clip;
    j.compressed = compressed;
    j.legacy = legacy;
    j.what = what;
    vks_result r = build_stream(&j, skin, err);
    vks_bytebuf b;
    memset(&b, 0, sizeof b);
    if (r == VKS_OK) {
        size_t chunk = 0;
        if (!legacy) {
            chunk = b.size;
            vks_buf_u32(&b, RWA_CHUNK_ANIMATION);
            vks_buf_u32(&b, 0); /* size, patched below */
            vks_buf_u32(&b, RWA_LIBRARY_STAMP);
            vks_buf_u32(&b, RWA_ANIM_VERSION);
            vks_buf_u32(&b, compressed ? RWA_INTERP_COMPRESSED : RWA_INTERP_STD);
        }
        vks_buf_u32(&b, j.total);
        vks_buf_u32(&b, 0); /* flags */
        vks_buf_f32(&b, clip->duration);
        write_keys(&j, &b);
        if (!legacy && !b.failed)
            vks_buf_patch_u32(&b, chunk + 4, (uint32_t)(b.size - chunk - 12));
        if (b.failed)
            r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, what, "out of memory writing %zu bytes", b.size);
    }
    job_free(&j);
    if (r != VKS_OK) {
        vks_buf_free(&b);
        return r;
    }
    *out_bytes = b.data;
    *out_size = b.size;
    return VKS_OK;
}

vks_result vks_rw_anm_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                            uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    vks_error local;
    memset(&local, 0, sizeof local);
    if (opt && opt->version != 0)
        return vks_error_set(err ? err : &local, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "anm",
                             "version %u: a .anm has one layout (version 0)", opt->version);
    return write_file(clip, skin, opt && opt->compressed, 0, out_bytes, out_size, err ? err : &local);
}

vks_result vks_rw_ska_write(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                            uint8_t **out_bytes, size_t *out_size, vks_error *err)
{
    vks_error local;
    memset(&local, 0, sizeof local);
    if (opt && (opt->version != 0 || opt->compressed))
        return vks_error_set(err ? err : &local, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "ska",
                             "a .ska has standard keys only (version 0, not compressed)");
    return write_file(clip, skin, 0, 1, out_bytes, out_size, err ? err : &local);
}
