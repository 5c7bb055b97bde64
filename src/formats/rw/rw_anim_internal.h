/* RenderWare and GTA clip readers and writers, internals shared by the .anm, .ska and .ifp files
 * (shared/formats/animation.md section 1).
 *
 * Readers decode their keys through the bounded cursor into plain arrays, then build the
 * format-free clip (clip.h) in the set's arena. The two HAnim key streams (.anm, .ska) share
 * one rebuild (rw_keys.c): the stream stores no node count and no node per key, only each
 * key's previous key, so the tracks come back from the prev links. The writers share one
 * sampler (rw_anim_sample.c) that turns a bound LOCAL clip into keys per skin node.
 */
#ifndef VKS_ANIM_RW_INTERNAL_H
#define VKS_ANIM_RW_INTERNAL_H

#include "core/bytebuf.h"
#include "core/cursor.h"
#include "vkskin/clip.h"
#include "vkskin/clip_formats.h"
#include "vkskin/clip_sample.h"

#define RWA_PATH_MAX 160

enum {
    RWA_CHUNK_ANIMATION = 0x1B, /* rwID_ANIMANIMATION */
    RWA_ANIM_VERSION = 0x100,
    RWA_INTERP_STD = 1,        /* RpHAnimStdKeyFrame */
    RWA_INTERP_COMPRESSED = 2, /* RtCompressedKeyFrame */
    RWA_STD_KEY = 36,          /* bytes per standard key, in the file and in prev offsets */
    RWA_COMPRESSED_KEY = 22,   /* bytes per compressed key in the file */
    RWA_COMPRESSED_UNIT = 24,  /* ... and in its prev offsets (the in-memory size) */
    /* what the writers put in the first keys' prev fields: librw writes NULL minus the key
       array's address there, a large negative number; readers never look at it */
    RWA_JUNK_PREV = (int32_t)0xF4A50000
};

/* One HAnim key as decoded, in stream order. */
typedef struct rwa_key {
    float time;
    float q[4]; /* x, y, z, w (a .ska's conjugation already undone) */
    float t[3];
    int32_t prev;    /* the raw previous-key byte offset */
    uint64_t offset; /* of the key in the file (errors) */
} rwa_key;

/* A whole HAnim key stream, as read. */
typedef struct rwa_stream {
    const rwa_key *keys;
    uint32_t count;
    uint32_t prev_unit;  /* bytes per key in the prev offsets: 36, or 24 for compressed keys */
    /* where each field sits in a key, so that errors point at it */
    uint8_t time_field, q_field, t_field, prev_field;
    float duration;      /* the header's */
    const char *path;    /* "anm" or "ska" */
} rwa_stream;

/* ---- rw_keys.c ---- */
/* What every reader here does first: err made usable (the entry's own when NULL), the
 * arguments checked, the defaults applied to a copy of opt. The entry must stay put while
 * e->err is in use. Returns VKS_OK to go on, else the error already recorded. */
typedef struct rwa_entry {
    vks_read_options opt;
    vks_error *err;
    vks_error local;
} rwa_entry;
vks_result vks__rwa_enter(rwa_entry *e, const vks_read_options *opt, const void *bytes, size_t size,
                          vks_clip_set **out, vks_error *err, const char *path);
/* A stream header's key count (at count_at) and duration (at duration_at): the count >= 0 and
 * within the key limit, the duration finite and > 0. path: "anm/header", "ska/header". */
vks_result vks__rwa_check_header(const rwa_entry *e, int32_t count, uint64_t count_at, float duration,
                                 uint64_t duration_at, const char *path);

/* Turns the key stream into clip's tracks (one per node, node_index = the node's place in the
 * hierarchy), allocated in set. Finds the node count N, checks every prev link and every
 * key's values, and sets clip->tracks/track_count. opt: defaults applied. */
vks_result vks__rwa_rebuild(vks_clip_set *set, vks_clip *clip, const rwa_stream *s, const vks_read_options *opt,
                            vks_error *err);
/* The one-clip set of a stream: rebuilt, named "", the header's duration, librw's RESET
 * cycle, LOCAL space, validated. *out only on success. opt: defaults applied. */
vks_result vks__rwa_stream_set(const rwa_stream *s, const vks_read_options *opt, const char *format,
                               const char *detail, vks_clip_set **out, vks_error *err);
/* Checks one key's time and values (finite, time in [0, duration], quaternion not zero). */
vks_result vks__rwa_check_key(const rwa_stream *s, uint32_t k, vks_error *err);

/* The 16-bit floats of RtCompressedKeyFrame (sign, 4-bit exponent from 2^-15, 11-bit
 * mantissa: |v| < 2). compress rounds to nearest and clamps to the largest magnitude. */
float vks__rwa_decompress(uint16_t h);
uint16_t vks__rwa_compress(float f);

/* Temporaries through the read options' allocator (zeroed; NULL on overflow/exhaustion). */
void *vks__rwa_tmp(const vks_allocator *a, uint64_t count, size_t elem);
void vks__rwa_tmp_free(const vks_allocator *a, void *p);

/* ---- rw_anim_sample.c (writers) ---- */
/* Keys of one skin node for a key-frame writer: distinct sorted times over [0, duration]
 * (0 and the duration always among them), the rotation (x, y, z, w, normalised, sign kept
 * continuous) and translation at each. RWA_RATE: the resampling grid's keys a second, a
 * multiple of 24, 30 and 60 fps and of 8 a second, so that common frame times fall on keys. */
#define RWA_RATE 120.0f
typedef struct rwa_node_keys {
    uint32_t count;
    float *time;
    float (*q)[4];
    float (*t)[3];
    int translated; /* the track has translation keys (an IFP sequence with translation) */
} rwa_node_keys;

/* tr may be NULL (the node keeps its bind local: two keys). Times: the key times of its
 * linear curves, and what linear keys need to follow the others: a STEP curve's keys each with
 * an instant before it (0.1 ms), a grid of rate keys a second for Hermite and B-spline curves
 * and for Euler angles (which slerp does not follow); grid_only: the grid alone, for times
 * quantised to it (int16 .ifp keys). Rotation from the quaternion curve, else
 * the Euler curves, else the bind; translation from its curve, else the bind. A scale curve
 * off 1 is VKS_ERR_UNSUPPORTED (none of these formats plays scale). bind_trs: the node's bind
 * local as t[3], q[4], s[3]. Free with vks__rwa_node_keys_free. */
vks_result vks__rwa_sample_node(const vks_clip *clip, const vks_track *tr, const float bind_trs[10], float rate,
                                int grid_only, rwa_node_keys *out, vks_error *err);
void vks__rwa_node_keys_free(rwa_node_keys *k);

/* Common writer checks: a clip with a positive duration in LOCAL space, and its binding to
 * skin (free it with vks_clip_binding_free). what: "anm", "ska", "ifp". */
vks_result vks__rwa_writer_bind(const vks_clip *clip, const vks_skin *skin, const char *what, vks_clip_binding *b,
                                vks_error *err);

#endif
