/* GTA .ifp reader (animation.md 1): a package of named clips, one track per sequence.
 *
 * ANPK (III/VC; halpz/re3 CAnimManager::LoadAnimFile): sections of a 4-byte ident and a u32
 * size. INFO's, NAME's and ANIM's payloads are read rounded up to 4 bytes; ANPK's, DGAN's,
 * CPAN's and the key block's sizes are not used (re3 reads them past, and so do we):
 *   ANPK size, INFO size {i32 clips, block name}
 *   per clip:     NAME size {name}, DGAN size, INFO size {i32 sequences, ...}
 *   per sequence: CPAN size, ANIM size {name[28], i32 keys, i32, i32 [, i32 bone tag when the
 *                 size is 44]}, then when keys > 0 a key block KR00 | KRT0 | KRTS size and the
 *                 keys: q(4f) [t(3f) [s(3f)]] time(f), times absolute, quaternions stored
 *                 conjugated (re3 inverts them). Scale is read past: the games ignore it.
 * ANP2 / ANP3 (SA; gta-reversed LoadAnimFile_ANP23): ANP? size, name[24], u32 clips; per clip
 *   name[24], u32 sequences [, u32 frame data size, u32 flags: ANP3]; per sequence name[24],
 *   u32 frame type, u32 keys, i32 bone tag (-1: bind by name), then the keys of the type:
 *   1 q(4f) time, 2 q(4f) time t(3f), 3 q(4 i16 / 4096) time(i16 / 60), 4 type 3 then
 *   t(3 i16 / 1024). Times absolute (SA turns them into deltas at load); not conjugated.
 *
 * Each clip: cycle LOOP (the games loop their movement clips), duration the last key time
 * over its tracks (SA's CalcTotalTime), or one 60th of a second when every key is at 0.
 * A sequence without translation keeps the bind translation (empty translation curve).
 *
 * Root motion (clip.root_track): both games extract velocity from the clump's first animated
 * frame, frames[0] (re3 RpAnimBlendClumpInit*: VELOCITY_EXTRACTION), which for a skinned ped
 * is HAnim node 0, the node with ID (bone tag) 0. So the root track is the track tagged 0;
 * else one named "Root" (any case, leading spaces skipped: SA names start with a space);
 * else the first track when it has translation keys (III/VC non-skinned peds: re3's
 * cutscene code also takes sequence 0's translation as the object's position); else none.
 */
#include "rw_anim_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct ifp_ctx {
    vks_read_options opt;
    vks_clip_set *set;
    vks_error *err;
    uint64_t keys; /* over the file, against opt.clip.max_keys */
} ifp_ctx;

typedef struct ifp_section {
    char ident[5];
    uint32_t size;
    uint64_t offset; /* of the 8-byte header */
} ifp_section;

static vks_result truncated(ifp_ctx *x, const vks_cursor *c, const char *path, const char *what)
{
    return vks_error_set(x->err, VKS_ERR_TRUNCATED, vks_cur_offset(c), path, "%s: only %zu byte(s) left", what,
                         vks_cur_left(c));
}

static void printable_ident(const uint8_t *b, char out[5])
{
    for (int i = 0; i < 4; i++)
        out[i] = b[i] >= 0x20 && b[i] < 0x7F ? (char)b[i] : '?';
    out[4] = 0;
}

/* A section header whose ident must be want (NULL: any; the caller checks). */
static vks_result section(ifp_ctx *x, vks_cursor *c, const char *want, ifp_section *out, const char *path)
{
    out->offset = vks_cur_offset(c);
    uint8_t id[4];
    if (!vks_cur_bytes(c, id, 4) || !vks_cur_u32(c, &out->size)) {
        char what[48];
        snprintf(what, sizeof what, "expected a %s section header (8 bytes)", want ? want : "key block");
        c->p = c->base + out->offset;
        return truncated(x, c, path, what);
    }
    printable_ident(id, out->ident);
    if (want && memcmp(id, want, 4) != 0)
        return vks_error_set(x->err, VKS_ERR_FORMAT, out->offset, path, "section '%s', expected '%s'", out->ident,
                             want);
    return VKS_OK;
}

/* The payload of a section read the way re3 does: its size rounded up to 4. */
static vks_result payload(ifp_ctx *x, vks_cursor *c, const ifp_section *s, vks_cursor *out, const char *path)
{
    uint64_t rounded = ((uint64_t)s->size + 3) & ~(uint64_t)3;
    if (rounded > vks_cur_left(c))
        return vks_error_set(x->err, VKS_ERR_TRUNCATED, s->offset + 4, path,
                             "section '%s' declares %u bytes (%llu padded), only %zu left", s->ident, s->size,
                             (unsigned long long)rounded, vks_cur_left(c));
    vks_cur_sub(c, s->size, out);
    vks_cur_skip(c, (size_t)rounded);
    return VKS_OK;
}

/* A container's header (its size unused, as re3 does) and the payload of the section in it. */
static vks_result nested(ifp_ctx *x, vks_cursor *c, const char *outer, const char *inner, ifp_section *s,
                         vks_cursor *body, const char *path)
{
    ifp_section o;
    vks_result r = section(x, c, outer, &o, path);
    if (r == VKS_OK)
        r = section(x, c, inner, s, path);
    if (r == VKS_OK)
        r = payload(x, c, s, body, path);
    return r;
}

/* The i32 count an INFO payload starts with: >= 0, within limit, and each counted item at
 * least min_bytes of what is left after the INFO. */
static vks_result info_count(ifp_ctx *x, const ifp_section *info, vks_cursor *body, const vks_cursor *c,
                             uint32_t limit, size_t min_bytes, const char *what, const char *path, uint32_t *out)
{
    int32_t n;
    if (!vks_cur_i32(body, &n))
        return vks_error_set(x->err, VKS_ERR_FORMAT, info->offset + 4, path,
                             "INFO holds %u bytes, the %s count needs 4", info->size, what);
    if (n < 0)
        return vks_error_set(x->err, VKS_ERR_FORMAT, info->offset + 8, path, "%s count %d is negative", what, n);
    if ((uint32_t)n > limit)
        return vks_error_set(x->err, VKS_ERR_LIMIT, info->offset + 8, path, "%d %ss, limit %u", n, what, limit);
    if (!vks_cur_fits(c, (uint32_t)n, min_bytes))
        return vks_error_set(x->err, VKS_ERR_TRUNCATED, info->offset + 8, path,
                             "%d %ss need at least %llu bytes, %zu left", n, what,
                             (unsigned long long)n * min_bytes, vks_cur_left(c));
    *out = (uint32_t)n;
    return VKS_OK;
}

/* A name of at most max bytes, ending at the first NUL, copied into the set. */
static const char *name_at(ifp_ctx *x, const uint8_t *p, size_t max)
{
    size_t n = 0;
    while (n < max && p[n])
        n++;
    return vks_clip_set_strndup(x->set, (const char *)p, n);
}

static vks_result nomem(ifp_ctx *x, const char *path)
{
    return vks_error_set(x->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
}

/* Room for n keys of stride bytes in the set, with the file-wide key limit. */
static vks_result alloc_keys(ifp_ctx *x, vks_track *tr, uint32_t n, int translated, uint64_t at, const char *path)
{
    x->keys += n;
    if (x->keys > x->opt.clip.max_keys)
        return vks_error_set(x->err, VKS_ERR_LIMIT, at, path, "%llu keys so far, limit %u",
                             (unsigned long long)x->keys, x->opt.clip.max_keys);
    float *times = vks_clip_set_alloc(x->set, n, sizeof(float));
    float *q = vks_clip_set_alloc(x->set, n, 4 * sizeof(float));
    float *t = translated ? vks_clip_set_alloc(x->set, n, 3 * sizeof(float)) : NULL;
    if (!times || !q || (translated && !t))
        return nomem(x, path);
    tr->rotation.key_count = n;
    tr->rotation.components = 4;
    tr->rotation.interp = VKS_INTERP_LINEAR; /* slerp (CAnimBlendNode::Update) */
    tr->rotation.times = times;
    tr->rotation.values = q;
    if (translated) {
        tr->translation.key_count = n;
        tr->translation.components = 3;
        tr->translation.interp = VKS_INTERP_LINEAR;
        tr->translation.times = times;
        tr->translation.values = t;
    }
    return VKS_OK;
}

/* Checks key k of tr (decoded already) at file offset at. */
static vks_result check_key(ifp_ctx *x, const vks_track *tr, uint32_t k, uint64_t at, uint64_t time_at,
                            const char *seq_path)
{
    char path[RWA_PATH_MAX];
    snprintf(path, sizeof path, "%s/key[%u]", seq_path, k);
    float time = tr->rotation.times[k];
    const float *q = tr->rotation.values + 4 * (size_t)k;
    if (!isfinite(time) || time < 0)
        return vks_error_set(x->err, VKS_ERR_FORMAT, time_at, path, "time %g s is not a finite time >= 0",
                             (double)time);
    if (k > 0 && time < tr->rotation.times[k - 1])
        return vks_error_set(x->err, VKS_ERR_FORMAT, time_at, path, "time %g s comes before key %u's %g s",
                             (double)time, k - 1, (double)tr->rotation.times[k - 1]);
    for (int i = 0; i < 4; i++)
        if (!isfinite(q[i]))
            return vks_error_set(x->err, VKS_ERR_FORMAT, at, path, "rotation component %d is not finite", i);
    if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0)
        return vks_error_set(x->err, VKS_ERR_FORMAT, at, path, "rotation is a zero quaternion");
    if (tr->translation.key_count)
        for (int i = 0; i < 3; i++)
            if (!isfinite(tr->translation.values[3 * (size_t)k + i]))
                return vks_error_set(x->err, VKS_ERR_FORMAT, at, path, "translation component %d is not finite", i);
    return VKS_OK;
}

static int same_root(const char *name)
{
    while (*name == ' ')
        name++;
    const char *r = "root";
    while (*name && *r && tolower((unsigned char)*name) == *r)
        name++, r++;
    return *name == 0 && *r == 0;
}

/* Duration, root track and the rest of a clip whose tracks are read (file comment). */
static void finish_clip(vks_clip *clip)
{
    float last = 0;
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const vks_curve *c = &clip->tracks[t].rotation;
        if (c->key_count && c->times[c->key_count - 1] > last)
            last = c->times[c->key_count - 1];
    }
    clip->duration = last > 0 ? last : 1.0f / 60.0f;
    clip->cycle = VKS_CYCLE_LOOP;
    clip->space = VKS_CLIP_LOCAL;
    clip->root_track = -1;
    for (uint32_t t = 0; t < clip->track_count && clip->root_track < 0; t++)
        if (clip->tracks[t].has_tag && clip->tracks[t].node_tag == 0)
            clip->root_track = (int32_t)t;
    for (uint32_t t = 0; t < clip->track_count && clip->root_track < 0; t++)
        if (same_root(clip->tracks[t].node_name))
            clip->root_track = (int32_t)t;
    if (clip->root_track < 0 && clip->track_count && clip->tracks[0].translation.key_count)
        clip->root_track = 0;
}

/* ---- ANPK ---- */

static vks_result anpk_sequence(ifp_ctx *x, vks_cursor *c, vks_track *tr, const char *clip_path, uint32_t si)
{
    char path[RWA_PATH_MAX];
    snprintf(path, sizeof path, "%.96s/sequence[%u]", clip_path, si);
    ifp_section anim, kb;
    vks_cursor body = {0};
    vks_result r = nested(x, c, "CPAN", "ANIM", &anim, &body, path);
    if (r != VKS_OK)
        return r;
    if (anim.size < 32)
        return vks_error_set(x->err, VKS_ERR_FORMAT, anim.offset + 4, path,
                             "ANIM holds %u bytes, at least 32 expected (name[28], key count)", anim.size);
    tr->node_name = name_at(x, body.p, 28);
    if (!tr->node_name)
        return nomem(x, path);
    snprintf(path, sizeof path, "%.96s/sequence[%u] \"%.28s\"", clip_path, si, tr->node_name);
    int32_t n = (int32_t)vks_le32(body.p + 28);
    if (anim.size == 44) { /* VC: the bone tag */
        int32_t tag = (int32_t)vks_le32(body.p + 40);
        tr->node_tag = tag;
        tr->has_tag = tag != -1;
    }
    if (n < 0)
        return vks_error_set(x->err, VKS_ERR_FORMAT, anim.offset + 8 + 28, path, "key count %d is negative", n);
    if (n == 0)
        return VKS_OK; /* no key block follows; the node keeps its bind local */
    r = section(x, c, NULL, &kb, path);
    if (r != VKS_OK)
        return r;
    size_t stride;
    int translated = 0, scaled = 0;
    if (strcmp(kb.ident, "KR00") == 0)
        stride = 20;
    else if (strcmp(kb.ident, "KRT0") == 0)
        stride = 32, translated = 1;
    else if (strcmp(kb.ident, "KRTS") == 0)
        stride = 44, translated = 1, scaled = 1;
    else
        return vks_error_set(x->err, VKS_ERR_FORMAT, kb.offset, path,
                             "key block '%s', expected KR00, KRT0 or KRTS", kb.ident);
    if (!vks_cur_fits(c, (uint32_t)n, stride))
        return vks_error_set(x->err, VKS_ERR_TRUNCATED, kb.offset, path,
                             "%d keys of %zu bytes need %llu bytes, %zu left", n, stride,
                             (unsigned long long)n * stride, vks_cur_left(c));
    r = alloc_keys(x, tr, (uint32_t)n, translated, kb.offset, path);
    if (r != VKS_OK)
        return r;
    float *times = (float *)tr->rotation.times, *q = (float *)tr->rotation.values;
    float *t = (float *)tr->translation.values;
    for (uint32_t k = 0; k < (uint32_t)n; k++) {
        uint64_t at = vks_cur_offset(c);
        float *qk = q + 4 * (size_t)k;
        vks_cur_f32n(c, qk, 4);
        for (int i = 0; i < 3; i++)
            qk[i] = -qk[i]; /* stored conjugated */
        if (translated)
            vks_cur_f32n(c, t + 3 * (size_t)k, 3);
        if (scaled)
            vks_cur_skip(c, 12);
        vks_cur_f32(c, &times[k]);
        r = check_key(x, tr, k, at, at + stride - 4, path);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

static vks_result anpk_clip(ifp_ctx *x, vks_cursor *c, vks_clip *clip, uint32_t ci)
{
    char path[RWA_PATH_MAX];
    snprintf(path, sizeof path, "ifp/clip[%u]", ci);
    ifp_section name, info;
    vks_cursor body = {0};
    vks_result r = section(x, c, "NAME", &name, path);
    if (r == VKS_OK)
        r = payload(x, c, &name, &body, path);
    if (r != VKS_OK)
        return r;
    clip->name = name_at(x, body.p, name.size);
    if (!clip->name)
        return nomem(x, path);
    snprintf(path, sizeof path, "ifp/clip[%u] \"%.40s\"", ci, clip->name);
    r = nested(x, c, "DGAN", "INFO", &info, &body, path);
    uint32_t n = 0;
    if (r == VKS_OK) /* each: CPAN and ANIM headers, ANIM's 32 bytes at least */
        r = info_count(x, &info, &body, c, x->opt.max_nodes, 48, "sequence", path, &n);
    if (r != VKS_OK)
        return r;
    clip->tracks = vks_clip_set_alloc(x->set, n, sizeof *clip->tracks);
    if (!clip->tracks)
        return nomem(x, path);
    clip->track_count = n;
    for (uint32_t s = 0; s < n; s++) {
        clip->tracks[s].node_name = "";
        r = anpk_sequence(x, c, &clip->tracks[s], path, s);
        if (r != VKS_OK)
            return r;
    }
    finish_clip(clip);
    return VKS_OK;
}

static vks_result read_anpk(ifp_ctx *x, vks_cursor *c)
{
    ifp_section info;
    vks_cursor body = {0};
    uint32_t n = 0;
    vks_result r = nested(x, c, "ANPK", "INFO", &info, &body, "ifp/info");
    if (r == VKS_OK) /* each: NAME, DGAN and INFO headers and a sequence count */
        r = info_count(x, &info, &body, c, x->opt.clip.max_clips, 28, "clip", "ifp/info", &n);
    if (r != VKS_OK)
        return r;
    x->set->format_detail = "ANPK";
    x->set->clips = vks_clip_set_alloc(x->set, n, sizeof *x->set->clips);
    if (!x->set->clips)
        return nomem(x, "ifp");
    x->set->clip_count = n;
    for (uint32_t i = 0; i < n; i++) {
        r = anpk_clip(x, c, &x->set->clips[i], i);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

/* ---- ANP2 / ANP3 ---- */

static vks_result anp3_sequence(ifp_ctx *x, vks_cursor *c, vks_track *tr, const char *clip_path, uint32_t si,
                                int *int16_keys)
{
    char path[RWA_PATH_MAX];
    snprintf(path, sizeof path, "%.96s/sequence[%u]", clip_path, si);
    uint64_t at = vks_cur_offset(c);
    uint8_t name[24];
    uint32_t type, n;
    int32_t tag;
    if (!vks_cur_bytes(c, name, 24) || !vks_cur_u32(c, &type) || !vks_cur_u32(c, &n) || !vks_cur_i32(c, &tag)) {
        c->p = c->base + at;
        return truncated(x, c, path, "expected a sequence header (name[24], frame type, key count, bone tag)");
    }
    tr->node_name = name_at(x, name, 24);
    if (!tr->node_name)
        return nomem(x, path);
    snprintf(path, sizeof path, "%.96s/sequence[%u] \"%.24s\"", clip_path, si, tr->node_name);
    tr->node_tag = tag;
    tr->has_tag = tag != -1; /* -1: bind by name */
    static const size_t strides[5] = {0, 20, 32, 10, 16};
    if (type < 1 || type > 4)
        return vks_error_set(x->err, VKS_ERR_FORMAT, at + 24, path, "frame type %u, expected 1 to 4", type);
    size_t stride = strides[type];
    int translated = type == 2 || type == 4, packed = type >= 3;
    if (n == 0)
        return VKS_OK;
    if (!vks_cur_fits(c, n, stride))
        return vks_error_set(x->err, VKS_ERR_TRUNCATED, at + 28, path,
                             "%u keys of %zu bytes need %llu bytes, %zu left", n, stride,
                             (unsigned long long)n * stride, vks_cur_left(c));
    vks_result r = alloc_keys(x, tr, n, translated, at + 28, path);
    if (r != VKS_OK)
        return r;
    *int16_keys |= packed;
    float *times = (float *)tr->rotation.times, *q = (float *)tr->rotation.values;
    float *t = (float *)tr->translation.values;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t kat = vks_cur_offset(c);
        float *qk = q + 4 * (size_t)k;
        if (packed) {
            uint16_t v[8];
            for (size_t i = 0; i < stride / 2; i++)
                vks_cur_u16(c, &v[i]);
            for (int i = 0; i < 4; i++)
                qk[i] = (float)(int16_t)v[i] / 4096.0f;
            times[k] = (float)(int16_t)v[4] / 60.0f;
            if (translated)
                for (int i = 0; i < 3; i++)
                    t[3 * (size_t)k + i] = (float)(int16_t)v[5 + i] / 1024.0f;
        } else {
            vks_cur_f32n(c, qk, 4);
            vks_cur_f32(c, &times[k]);
            if (translated)
                vks_cur_f32n(c, t + 3 * (size_t)k, 3);
        }
        r = check_key(x, tr, k, kat, kat + (packed ? 8 : 16), path);
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

static vks_result read_anp3(ifp_ctx *x, vks_cursor *c, int anp3)
{
    ifp_section top;
    vks_result r = section(x, c, anp3 ? "ANP3" : "ANP2", &top, "ifp");
    if (r != VKS_OK)
        return r;
    uint8_t block[24];
    uint32_t n;
    if (!vks_cur_bytes(c, block, 24) || !vks_cur_u32(c, &n)) {
        c->p = c->base + 8;
        return truncated(x, c, "ifp", "expected the block name[24] and the clip count");
    }
    if (n > x->opt.clip.max_clips)
        return vks_error_set(x->err, VKS_ERR_LIMIT, 32, "ifp", "%u clips, limit %u", n, x->opt.clip.max_clips);
    size_t clip_head = anp3 ? 36 : 28;
    if (!vks_cur_fits(c, n, clip_head))
        return vks_error_set(x->err, VKS_ERR_TRUNCATED, 32, "ifp", "%u clips need at least %llu bytes, %zu left", n,
                             (unsigned long long)n * clip_head, vks_cur_left(c));
    x->set->format_detail = anp3 ? "ANP3" : "ANP2";
    x->set->clips = vks_clip_set_alloc(x->set, n, sizeof *x->set->clips);
    if (!x->set->clips)
        return nomem(x, "ifp");
    x->set->clip_count = n;
    for (uint32_t ci = 0; ci < n; ci++) {
        vks_clip *clip = &x->set->clips[ci];
        char path[RWA_PATH_MAX];
        snprintf(path, sizeof path, "ifp/clip[%u]", ci);
        uint64_t at = vks_cur_offset(c);
        uint8_t name[24];
        uint32_t seqs, frame_bytes = 0, flags = 0;
        if (!vks_cur_bytes(c, name, 24) || !vks_cur_u32(c, &seqs) ||
            (anp3 && (!vks_cur_u32(c, &frame_bytes) || !vks_cur_u32(c, &flags)))) {
            c->p = c->base + at;
            return truncated(x, c, path, anp3 ? "expected a clip header (name[24], sequences, frame bytes, flags)"
                                              : "expected a clip header (name[24], sequences)");
        }
        (void)frame_bytes; /* SA's allocation for the keys; the keys' own counts decide here */
        (void)flags;       /* bit 0: int16 keys, which the frame types say too */
        clip->name = name_at(x, name, 24);
        if (!clip->name)
            return nomem(x, path);
        snprintf(path, sizeof path, "ifp/clip[%u] \"%.24s\"", ci, clip->name);
        if (seqs > x->opt.max_nodes)
            return vks_error_set(x->err, VKS_ERR_LIMIT, at + 24, path, "%u sequences, limit %u", seqs,
                                 x->opt.max_nodes);
        if (!vks_cur_fits(c, seqs, 36))
            return vks_error_set(x->err, VKS_ERR_TRUNCATED, at + 24, path,
                                 "%u sequences need at least %llu bytes, %zu left", seqs,
                                 (unsigned long long)seqs * 36, vks_cur_left(c));
        clip->tracks = vks_clip_set_alloc(x->set, seqs, sizeof *clip->tracks);
        if (!clip->tracks)
            return nomem(x, path);
        clip->track_count = seqs;
        int int16_keys = 0;
        for (uint32_t s = 0; s < seqs; s++) {
            clip->tracks[s].node_name = "";
            r = anp3_sequence(x, c, &clip->tracks[s], path, s, &int16_keys);
            if (r != VKS_OK)
                return r;
        }
        finish_clip(clip);
        clip->fps = int16_keys ? 60.0f : 0.0f; /* int16 times count 60ths of a second */
    }
    return VKS_OK;
}

vks_result vks_ifp_read(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                        vks_error *err)
{
    rwa_entry e;
    if (vks__rwa_enter(&e, opt, bytes, size, out, err, "ifp") != VKS_OK)
        return e.err->code;
    err = e.err;
    if (size < 8)
        return vks_error_set(err, VKS_ERR_TRUNCATED, 0, "ifp",
                             "an .ifp starts with an 8-byte section header, the input has %zu byte(s)", size);
    const uint8_t *b = bytes;
    int kind = memcmp(b, "ANPK", 4) == 0 ? 1 : memcmp(b, "ANP2", 4) == 0 ? 2 : memcmp(b, "ANP3", 4) == 0 ? 3 : 0;
    if (kind == 0) {
        char id[5];
        printable_ident(b, id);
        if (memcmp(b, "ANLF", 4) == 0)
            return vks_error_set(err, VKS_ERR_UNSUPPORTED, 0, "ifp",
                                 "'ANLF' (a list of ANPK blocks) is not read; ANPK, ANP2 and ANP3 are");
        return vks_error_set(err, VKS_ERR_FORMAT, 0, "ifp", "magic '%s', expected ANPK, ANP2 or ANP3: not an .ifp",
                             id);
    }
    ifp_ctx x;
    memset(&x, 0, sizeof x);
    x.opt = e.opt;
    x.err = err;
    x.set = vks_clip_set_create(&x.opt.allocator);
    if (!x.set)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "ifp", "out of memory");
    x.set->format = "ifp";
    vks_cursor c = vks_cur_make(bytes, size);
    vks_result r = kind == 1 ? read_anpk(&x, &c) : read_anp3(&x, &c, kind == 3);
    if (r == VKS_OK)
        r = vks_clip_set_finish(x.set, err);
    if (r != VKS_OK) {
        vks_clip_set_free(x.set);
        return r;
    }
    *out = x.set;
    return VKS_OK;
}
