/* NintendoWare CTR skeletal animation (.cskla XML): the reader's and writer's private pieces
 * (formats/animation.md section 3; the schema there is probable, not certain).
 *
 *   cskla_parse.c  expat over the document into a cskla_doc: one cskla_anim per
 *                  SkeletalAnimationData, its bones' curves flattened into keys, the embedded
 *                  <Skeleton>'s base transforms; every element remembers its line and column
 *   cskla_curve.c  a curve seen through its Pre/PostRepeatMethod over the clip's frames,
 *                  and the X/Y/Z curves of one channel merged into one vks_curve
 *   cskla_read.c   vks_cskla_read: the doc into a clip set (the rules are listed there)
 *   cskla_write.c  vks_cskla_write: a clip set bound to a skin as a .cskla document
 *
 * The XML plumbing is the .cmdl reader's (src/formats/cmdl/): its document context for
 * allocation and errors ("line L, column C: ..." with the element path), its locale-proof
 * number scanner, expat's allocator and the writer's escaping and Euler decomposition.
 */
#ifndef VKS_ANIM_CSKLA_INTERNAL_H
#define VKS_ANIM_CSKLA_INTERNAL_H

#include "cmdl_internal.h"
#include "vkskin/clip.h"

#include "vkskin/clip_formats.h"
#include "vkskin/clip_sample.h"
/* Segment kinds; the values are vks_interp's for the same interpolation. */
enum cskla_kind { CSKLA_STEP = 0, CSKLA_LINEAR = 1, CSKLA_HERMITE = 2 };

/* Pre/PostRepeatMethod outside a curve's [StartFrame, EndFrame]. */
enum cskla_repeat { CSKLA_NONE = 0, CSKLA_REPEAT, CSKLA_MIRROR, CSKLA_RELATIVE };

/* Channels in the order of TransformAnimation's children. */
enum cskla_channel { CSKLA_SCALE = 0, CSKLA_ROTATE = 1, CSKLA_TRANSLATE = 2 };

/* A key in frames; slopes in value per frame (HERMITE only, else 0). */
typedef struct cskla_key {
    double frame, value, in, out;
} cskla_key;

/* One component's curve, its segments flattened into one key list: kind[i] is how the span
 * from key i to key i+1 interpolates. Where one segment ends before the next begins, the
 * value takes the next segment's first key at the end of the first (the runtime picks the
 * first segment whose end lies past the frame, clamped to its start): a key repeated at the
 * end frame with the next value, then a held span. */
typedef struct cskla_curve {
    cmdl_where at;
    int present;
    int has_start, has_end;
    double start, end; /* StartFrame, EndFrame (absent: the first and last key's frames) */
    int pre, post;     /* enum cskla_repeat */
    vks_vec keys;      /* cskla_key */
    vks_vec kinds;     /* uint8_t per key (enum cskla_kind), the last unused */
    int segment_open;  /* a segment's first key is still to come */
    int segment_kind;
} cskla_curve;

typedef struct cskla_member {
    cmdl_where at;
    char *name; /* the bone, from Path */
    cskla_curve curve[3][3]; /* [enum cskla_channel][x, y, z] */
} cskla_member;

/* A bone of the file's own <Skeleton>: the base transform missing curves keep. */
typedef struct cskla_bone {
    cmdl_where at;
    char *name;
    float base[3][3]; /* [enum cskla_channel][x, y, z] */
} cskla_bone;

typedef struct cskla_anim {
    cmdl_where at;
    char *name;
    double frame_size;
    int loop_mode;    /* -1 absent, 0 Loop, 1 OneTime */
    vks_vec members;  /* cskla_member */
    vks_vec bones;    /* cskla_bone */
    int has_skeleton;
} cskla_anim;

typedef struct cskla_doc {
    char *version;   /* GraphicsContentCtr Version */
    vks_vec anims;   /* cskla_anim */
    uint64_t keys;   /* keys read over the whole file (max_keys) */
    uint32_t skipped_animations; /* other *AnimationData elements */
} cskla_doc;

typedef struct cskla_ctx {
    cmdl_ctx c; /* options, error, allocation (its cmdl_doc stays empty) */
    cskla_doc doc;
} cskla_ctx;

vks_result vks__cskla_parse(cskla_ctx *x, const void *bytes, size_t size);
void vks__cskla_doc_free(cskla_ctx *x);

/* ---- curves (cskla_curve.c) ---- */

/* One component of a channel over the clip: a curve, or a constant (curve NULL). */
typedef struct cskla_source {
    const cskla_curve *curve;
    double constant;
} cskla_source;

/* The components (1 or 3) of one channel as a vks_curve over frames [0, frame_size],
 * times frame / fps, tangents per second. The interpolation is the curves' own when they
 * agree (held spans fit any); else HERMITE, which holds linear spans (secant slopes), steps
 * (flat spans and a repeated key at each jump) and split Hermite spans exactly. Keys sit at
 * every frame where a component has a key or a repeat boundary. *key_budget counts down;
 * arrays come from the set. Errors name the first curve's element and `what` (the bone and
 * channel). */
vks_result vks__cskla_channel(cskla_ctx *x, vks_clip_set *set, const cskla_source *src, uint32_t components,
                              double frame_size, double fps, const char *what, uint64_t *key_budget,
                              vks_curve *out);

#endif
