/* HAnim key streams (.anm, .ska) back into tracks (animation.md 1, "Key ordering").
 *
 * A stream is written for playback, not for reading back: keys 0..N-1 are every node's first
 * key (time 0) in hierarchy order, keys N..2N-1 every node's second key, and the rest are
 * sorted by the time of their previous key. No key names its node; each key k >= N names its
 * previous key of the same node by a byte offset, and the first N keys' offsets are junk
 * (librw writes NULL minus the array's address there). N, the hierarchy's node count, is not
 * stored either: RW takes it from the hierarchy the clip is played on.
 *
 * Finding N from the stream alone. Key N is node 0's second key, so its prev is key 0, and
 * keys N+i follow keys i. The candidates are the k (1 <= k <= count/2, keys 0..k-1 all at
 * time 0) whose keys k..2k-1 point back at keys 0..k-1 in order; the first candidate whose
 * whole stream then checks out (every later key following an earlier key of its node, each
 * key followed at most once, times non-decreasing along each node) is N. librw's own
 * getNumNodes takes the first key pointing at key 0; trying the candidates instead keeps a
 * junk prev that happens to be 0 from deciding. Two candidates never claim the same key, so
 * at most log2(count) of them reach the full check: O(count log count) at worst. When none
 * checks out, the error is the one found furthest into the stream.
 */
#include "rw_anim_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void *vks__rwa_tmp(const vks_allocator *a, uint64_t count, size_t elem)
{
    if (count == 0)
        count = 1;
    if (elem == 0 || count > SIZE_MAX / 4 / elem)
        return NULL;
    void *p = a->alloc(a->user, (size_t)count * elem);
    if (p)
        memset(p, 0, (size_t)count * elem);
    return p;
}

void vks__rwa_tmp_free(const vks_allocator *a, void *p)
{
    if (p)
        a->free(a->user, p);
}

vks_result vks__rwa_enter(rwa_entry *e, const vks_read_options *opt, const void *bytes, size_t size,
                          vks_clip_set **out, vks_error *err, const char *path)
{
    memset(&e->local, 0, sizeof e->local);
    e->err = err ? err : &e->local;
    if ((!bytes && size) || !out)
        return vks_error_set(e->err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "bytes or out is NULL");
    e->opt = vks_read_options_defaults(opt);
    return VKS_OK;
}

vks_result vks__rwa_check_header(const rwa_entry *e, int32_t count, uint64_t count_at, float duration,
                                 uint64_t duration_at, const char *path)
{
    if (count < 0)
        return vks_error_set(e->err, VKS_ERR_FORMAT, count_at, path, "key count %d is negative", count);
    if ((uint32_t)count > e->opt.clip.max_keys)
        return vks_error_set(e->err, VKS_ERR_LIMIT, count_at, path, "%d keys, limit %u", count, e->opt.clip.max_keys);
    if (!isfinite(duration) || duration <= 0)
        return vks_error_set(e->err, VKS_ERR_FORMAT, duration_at, path, "duration %g s, expected > 0",
                             (double)duration);
    return VKS_OK;
}

float vks__rwa_decompress(uint16_t h)
{
    uint32_t bits = (uint32_t)(h & 0x8000u) << 16;
    if (h & 0x7FFFu)
        bits |= (((uint32_t)(h & 0x7800u) << 12) + 0x38000000u) | ((uint32_t)(h & 0x07FFu) << 12);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint16_t vks__rwa_compress(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
    if (!isfinite(f))
        return (uint16_t)(sign | 0x7FFFu);
    uint32_t mag = bits & 0x7FFFFFFFu;
    /* round to 11 mantissa bits; a carry moves into the exponent, as it should */
    mag += 0x800u;
    uint32_t exp = mag >> 23;
    if (exp < 112) /* below 2^-15: flushed to zero */
        return sign;
    if (exp > 127) /* |f| >= 2: the largest value (1.99951171875) */
        return (uint16_t)(sign | 0x7FFFu);
    uint16_t h = (uint16_t)(sign | ((exp - 112) << 11) | ((mag >> 12) & 0x7FFu));
    if ((h & 0x7FFFu) == 0) /* 2^-15 exactly would read back as 0: keep the nearest nonzero */
        h |= 1;
    return h;
}

static uint64_t field_at(const rwa_stream *s, uint32_t k, unsigned field)
{
    return s->keys[k].offset + field;
}

vks_result vks__rwa_check_key(const rwa_stream *s, uint32_t k, vks_error *err)
{
    const rwa_key *key = &s->keys[k];
    char path[RWA_PATH_MAX];
    snprintf(path, sizeof path, "%s/key[%u]", s->path, k);
    if (!isfinite(key->time) || key->time < 0)
        return vks_error_set(err, VKS_ERR_FORMAT, field_at(s, k, s->time_field), path,
                             "time %g s is not a finite time >= 0", (double)key->time);
    if (key->time > s->duration * (1.0f + 1e-5f) + 1e-6f)
        return vks_error_set(err, VKS_ERR_FORMAT, field_at(s, k, s->time_field), path,
                             "time %g s is past the clip's duration %g s", (double)key->time, (double)s->duration);
    for (int i = 0; i < 4; i++)
        if (!isfinite(key->q[i]))
            return vks_error_set(err, VKS_ERR_FORMAT, field_at(s, k, s->q_field), path,
                                 "rotation component %d is not finite", i);
    if (key->q[0] == 0 && key->q[1] == 0 && key->q[2] == 0 && key->q[3] == 0)
        return vks_error_set(err, VKS_ERR_FORMAT, field_at(s, k, s->q_field), path, "rotation is a zero quaternion");
    for (int i = 0; i < 3; i++)
        if (!isfinite(key->t[i]))
            return vks_error_set(err, VKS_ERR_FORMAT, field_at(s, k, s->t_field), path,
                                 "translation component %d is not finite", i);
    return VKS_OK;
}

/* Checks the links of keys n..count-1 for node count n; node[] and succ[] (count each) get
 * every key's node and successor (-1 none). */
static vks_result check_links(const rwa_stream *s, uint32_t n, uint32_t *node, int64_t *succ, vks_error *err)
{
    for (uint32_t k = 0; k < s->count; k++)
        succ[k] = -1;
    for (uint32_t k = 0; k < n; k++)
        node[k] = k;
    for (uint32_t k = n; k < s->count; k++) {
        int32_t p = s->keys[k].prev;
        char path[RWA_PATH_MAX];
        snprintf(path, sizeof path, "%s/key[%u]/prev", s->path, k);
        uint64_t at = field_at(s, k, s->prev_field);
        if (p < 0 || (uint32_t)p % s->prev_unit != 0)
            return vks_error_set(err, VKS_ERR_FORMAT, at, path,
                                 "previous-key offset %d is not a multiple of the %u-byte key (with %u nodes)", p,
                                 s->prev_unit, n);
        uint32_t j = (uint32_t)p / s->prev_unit;
        if (j >= k)
            return vks_error_set(err, VKS_ERR_FORMAT, at, path,
                                 "previous key %u is not an earlier key (with %u nodes)", j, n);
        if (succ[j] >= 0)
            return vks_error_set(err, VKS_ERR_FORMAT, at, path,
                                 "keys %lld and %u both follow key %u (with %u nodes)", (long long)succ[j], k, j, n);
        if (s->keys[k].time < s->keys[j].time)
            return vks_error_set(err, VKS_ERR_FORMAT, at, path,
                                 "key at %g s follows key %u at %g s of the same node (with %u nodes)",
                                 (double)s->keys[k].time, j, (double)s->keys[j].time, n);
        succ[j] = k;
        node[k] = node[j];
    }
    return VKS_OK;
}

/* Keys k..2k-1 point back at keys 0..k-1 in order (the cheap test of a candidate N = k). */
static int second_keys_fit(const rwa_stream *s, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++)
        if (s->keys[k + i].prev < 0 || (uint32_t)s->keys[k + i].prev != i * s->prev_unit)
            return 0;
    return 1;
}

/* N as the file comment says; node/succ filled for it. 0 with err set when none fits. */
static uint32_t find_node_count(const rwa_stream *s, uint32_t *node, int64_t *succ, vks_error *err)
{
    char path[RWA_PATH_MAX];
    snprintf(path, sizeof path, "%s/keys", s->path);
    if (s->count < 2) {
        vks_error_set(err, VKS_ERR_FORMAT, s->count ? s->keys[0].offset : VKS_NO_OFFSET, path,
                      "%u key(s): a stream holds at least two keys per node", s->count);
        return 0;
    }
    uint32_t zeros = 0;
    while (zeros < s->count && s->keys[zeros].time == 0)
        zeros++;
    if (zeros == 0) {
        vks_error_set(err, VKS_ERR_FORMAT, field_at(s, 0, s->time_field), path,
                      "key 0 is at %g s: a stream starts with every node's key at time 0", (double)s->keys[0].time);
        return 0;
    }
    vks_error best = {0};
    int tried = 0;
    uint32_t limit = s->count / 2 < zeros ? s->count / 2 : zeros;
    for (uint32_t k = 1; k <= limit; k++) {
        if (s->keys[k].prev != 0 || !second_keys_fit(s, k))
            continue;
        vks_error e = {0};
        if (check_links(s, k, node, succ, &e) == VKS_OK)
            return k;
        /* keep the failure that got furthest into the stream: a junk prev makes a small
           count fail at once, the real count fails where the file is broken */
        if (!tried || e.offset > best.offset)
            best = e;
        tried = 1;
    }
    if (tried) {
        vks_error_set(err, best.code, best.offset, best.path, "%s", best.msg);
        return 0;
    }
    vks_error_set(err, VKS_ERR_FORMAT, field_at(s, s->count > 1 ? 1 : 0, s->prev_field), path,
                  "no node count fits the stream: for N nodes, key N must follow key 0, key N+1 key 1, and so "
                  "on, with keys 0..N-1 at time 0 (%u leading keys at time 0, %u keys)",
                  zeros, s->count);
    return 0;
}

vks_result vks__rwa_rebuild(vks_clip_set *set, vks_clip *clip, const rwa_stream *s, const vks_read_options *opt,
                            vks_error *err)
{
    for (uint32_t k = 0; k < s->count; k++) {
        vks_result r = vks__rwa_check_key(s, k, err);
        if (r != VKS_OK)
            return r;
    }
    const vks_allocator *a = &opt->allocator;
    uint32_t *node = vks__rwa_tmp(a, s->count, sizeof *node);
    int64_t *succ = vks__rwa_tmp(a, s->count, sizeof *succ);
    vks_result r = VKS_OK;
    if (!node || !succ) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, s->path, "out of memory for %u keys", s->count);
        goto done;
    }
    uint32_t n = find_node_count(s, node, succ, err);
    if (n == 0) {
        r = err && err->code != VKS_OK ? err->code : VKS_ERR_FORMAT;
        goto done;
    }
    if (n > opt->max_nodes) {
        char path[RWA_PATH_MAX];
        snprintf(path, sizeof path, "%s/keys", s->path);
        r = vks_error_set(err, VKS_ERR_LIMIT, s->keys[0].offset, path, "%u nodes, limit %u", n, opt->max_nodes);
        goto done;
    }
    vks_track *tracks = vks_clip_set_alloc(set, n, sizeof *tracks);
    if (!tracks) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, s->path, "out of memory for %u tracks", n);
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = 0;
        for (int64_t k = i; k >= 0; k = succ[k])
            len++;
        float *times = vks_clip_set_alloc(set, len, sizeof(float));
        float *q = vks_clip_set_alloc(set, len, 4 * sizeof(float));
        float *t = vks_clip_set_alloc(set, len, 3 * sizeof(float));
        if (!times || !q || !t) {
            r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, s->path, "out of memory for node %u's keys", i);
            goto done;
        }
        uint32_t j = 0;
        for (int64_t k = i; k >= 0; k = succ[k], j++) {
            const rwa_key *key = &s->keys[k];
            times[j] = key->time;
            memcpy(q + 4 * j, key->q, sizeof key->q);
            memcpy(t + 3 * j, key->t, sizeof key->t);
        }
        vks_track *tr = &tracks[i];
        tr->node_name = ""; /* a .anm names no node: tracks bind by their place (node_index) */
        tr->node_index = (int32_t)i;
        tr->has_index = 1;
        tr->rotation.key_count = len;
        tr->rotation.components = 4;
        tr->rotation.interp = VKS_INTERP_LINEAR; /* slerp, as librw's hanimInterpCB */
        tr->rotation.times = times;
        tr->rotation.values = q;
        tr->translation.key_count = len;
        tr->translation.components = 3;
        tr->translation.interp = VKS_INTERP_LINEAR;
        tr->translation.times = times;
        tr->translation.values = t;
    }
    clip->tracks = tracks;
    clip->track_count = n;
done:
    vks__rwa_tmp_free(a, node);
    vks__rwa_tmp_free(a, succ);
    return r;
}

vks_result vks__rwa_stream_set(const rwa_stream *s, const vks_read_options *opt, const char *format,
                               const char *detail, vks_clip_set **out, vks_error *err)
{
    vks_clip_set *set = vks_clip_set_create(&opt->allocator);
    vks_clip *clip = set ? vks_clip_set_alloc(set, 1, sizeof *clip) : NULL;
    if (!clip) {
        vks_clip_set_free(set);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, s->path, "out of memory");
    }
    set->format = format;
    set->format_detail = detail;
    set->clips = clip;
    set->clip_count = 1;
    clip->name = "";
    clip->duration = s->duration;
    clip->fps = 0;
    clip->cycle = VKS_CYCLE_RESET; /* librw's addTime: past the end restarts at 0 */
    clip->space = VKS_CLIP_LOCAL;  /* keys are absolute local rotations and translations */
    clip->root_track = -1;         /* HAnim extracts no root motion */
    vks_result r = vks__rwa_rebuild(set, clip, s, opt, err);
    if (r == VKS_OK)
        r = vks_clip_set_finish(set, err);
    if (r != VKS_OK) {
        vks_clip_set_free(set);
        return r;
    }
    *out = set;
    return VKS_OK;
}
