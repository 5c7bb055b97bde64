/* Gamebryo / NetImmerse animation (.kf, and keyframes inside a .nif): private pieces shared by
 * the nif_kf_*.c files (animation.md section 2; layouts from nif.xml).
 *
 *   nif_kf_blocks.c  the animation blocks, parsed during the NIF walk (src/formats/nif) into
 *                    the structures below (NIF_K_ANIM blocks, u.anim.tag saying which)
 *   nif_kf_keys.c    key groups, interpolators and B-splines -> vks_curve
 *   nif_kf_clip.c    blocks -> clips: NiControllerSequence roots and sequences under an
 *                    NiControllerManager, NiSequenceStreamHelper files, controllers on the
 *                    nodes of a .nif; vks_nif_kf_read
 *   nif_kf_write.c   vks_nif_kf_write (20.2.0.7 and 10.1.0.0 layouts)
 *
 * Conventions. Times in the file are seconds on the sequence's (or controller's) clock; a
 * clip's times are (t - start) / frequency. Quaternions are stored w, x, y, z and kept here as
 * x, y, z, w (Hamilton, the NIF node matrices' convention: nif.md section 5). A transform
 * component equal to -FLT_MAX (nif.xml #INV_FLT#; +FLT_MAX also, which exporters write) is
 * unset: the channel is left empty and the node keeps its bind component. */
#ifndef VKS_NIF_KF_INTERNAL_H
#define VKS_NIF_KF_INTERNAL_H

#include "nif_internal.h"
#include "vkskin/clip.h"

#include "vkskin/clip_formats.h"
#include "vkskin/clip_sample.h"
/* KeyType (nif.xml) */
enum { NIF_KEY_LINEAR = 1, NIF_KEY_QUADRATIC = 2, NIF_KEY_TBC = 3, NIF_KEY_XYZ = 4, NIF_KEY_CONST = 5 };

/* which structure an NIF_K_ANIM block holds (u.anim.tag) */
typedef enum nif_anim_tag {
    NIF_A_KFDATA = 1, /* NiKeyframeData / NiTransformData: nif_kfdata */
    NIF_A_TINTERP,    /* NiTransformInterpolator, BSRotAccumTransfInterpolator: nif_tinterp */
    NIF_A_BSINTERP,   /* NiBSpline(Comp)TransformInterpolator: nif_bsinterp */
    NIF_A_BSDATA,     /* NiBSplineData: nif_bsdata */
    NIF_A_BSBASIS,    /* NiBSplineBasisData: nif_bsbasis */
    NIF_A_CONTROLLER, /* NiKeyframeController, NiTransformController, NiMultiTargetTransformController,
                         NiControllerManager: nif_ctrl */
    NIF_A_SEQUENCE,   /* NiControllerSequence: nif_sequence */
    NIF_A_PALETTE,    /* NiStringPalette: nif_palette */
    NIF_A_TEXTKEYS,   /* NiTextKeyExtraData: nif_textkeys */
    NIF_A_STRING,     /* NiStringExtraData: nif_strextra */
    NIF_A_HELPER,     /* NiSequenceStreamHelper: nif_helper */
    NIF_A_OBJPALETTE, /* NiDefaultAVObjectPalette: nothing kept */
    NIF_A_MORPHER,    /* NiGeomMorpherController: nif_morpher (nif_morph_blocks.c) */
    NIF_A_MORPHDATA,  /* NiMorphData: nif_morphdata */
    NIF_A_FINTERP,    /* NiFloatInterpolator: nif_finterp */
    NIF_A_FDATA       /* NiFloatData: nif_keygroup of dim 1 */
} nif_anim_tag;

/* One KeyGroup (or the quaternion keys) as read: values already in the model's order. */
typedef struct nif_keygroup {
    uint32_t count, type; /* type 0 when count is 0 */
    uint32_t dim;         /* floats per value: 1, 3, or 4 (quaternion x, y, z, w) */
    const float *times;
    const float *values;  /* count * dim */
    const float *fwd;     /* QUADRATIC: the first stored tangent (into the key), count * dim */
    const float *bwd;     /* QUADRATIC: the second (out of the key) */
    const float *tbc;     /* TBC: count * 3 (tension, bias, continuity) */
    uint64_t offset;      /* of the group's count, for errors */
} nif_keygroup;

typedef struct nif_kfdata {
    uint32_t rot_type;   /* 0 without rotation keys */
    nif_keygroup rot;    /* quaternion keys (rot_type != 4) */
    nif_keygroup xyz[3]; /* Euler angle groups (rot_type 4), radians */
    nif_keygroup trans;
    nif_keygroup scale;  /* dim 1 */
} nif_kfdata;

/* NiQuatTransform: t, q (x, y, z, w), s; each part valid or unset (the marker). */
typedef struct nif_quat_xform {
    float t[3], q[4], s;
    int has_t, has_q, has_s;
} nif_quat_xform;

typedef struct nif_tinterp {
    nif_quat_xform pose;
    int32_t data; /* NiTransformData, NIF_NONE: the pose only */
} nif_tinterp;

typedef struct nif_bsinterp {
    float start, stop;
    int32_t spline_data, basis_data;
    nif_quat_xform pose;
    uint32_t handle[3];  /* translation, rotation, scale; 0xFFFF: none */
    int compact;
    float offset[3], half_range[3]; /* compact: per channel, the same order */
    uint64_t offset_in_file;
} nif_bsinterp;

typedef struct nif_bsdata {
    uint32_t float_count, short_count;
    const float *floats;
    const int16_t *shorts;
} nif_bsdata;

typedef struct nif_bsbasis {
    uint32_t control_points;
} nif_bsbasis;

typedef struct nif_ctrl {
    int32_t next;  /* next controller in the target's chain */
    uint16_t flags;
    float frequency, phase, start, stop;
    int32_t target;
    int32_t data;   /* NiKeyframeData (until 10.1.0.103) */
    int32_t interp; /* NiInterpolator (10.1.0.104+) */
    int manager;    /* an NiControllerManager: sequences below */
    uint32_t sequence_count;
    const int32_t *sequences;
    uint64_t offset;
} nif_ctrl;

/* ControlledBlock: whichever naming the version has. */
typedef struct nif_cblock {
    int32_t interp, controller;
    const char *node_name;      /* names read inline or through the string table; NULL when */
    const char *property_type;  /* they are palette offsets */
    const char *controller_type;
    int32_t palette;            /* 10.2.0.0 .. 20.1.0.0: NiStringPalette and offsets */
    uint32_t node_offset, property_offset, controller_offset;
    uint64_t offset;            /* of the block's first field */
} nif_cblock;

typedef struct nif_sequence {
    const char *name;
    const char *accum_root;
    int32_t text_keys;
    uint32_t block_count;
    const nif_cblock *blocks;
    int timed;       /* cycle, frequency, start and stop are stored (10.1.0.106+) */
    uint32_t cycle;
    float frequency, start, stop;
    int32_t palette; /* the sequence's own NiStringPalette, NIF_NONE without one */
    uint64_t offset;
} nif_sequence;

typedef struct nif_palette {
    const char *bytes; /* len bytes, not NUL-terminated as a whole */
    uint32_t len;
    uint64_t offset;
} nif_palette;

typedef struct nif_textkeys {
    int32_t next; /* 4.x extra data chain */
    uint32_t count;
    const float *times;
    const char *const *texts;
} nif_textkeys;

typedef struct nif_strextra {
    int32_t next;
    const char *text;
} nif_strextra;

typedef struct nif_helper {
    const char *name;
    int32_t extra, controller;
} nif_helper;

/* NiGeomMorpherController (nif.xml): the controller fields, its NiMorphData, and from
 * 10.1.0.106 one NiFloatInterpolator per morph with (20.1.0.3+) a weight each. */
typedef struct nif_morpher {
    nif_ctrl ctrl;
    int32_t data;
    uint32_t interp_count;
    const int32_t *interps;
    const float *interp_weights; /* NULL before 20.1.0.3 */
} nif_morpher;

/* One Morph of an NiMorphData: its name (10.1.0.106+, else NULL), its weight keys (until
 * 10.1.0.0), its vectors (num_vertices; relative or absolute as the data says). */
typedef struct nif_morph {
    const char *name;
    nif_keygroup keys;
    const float (*vectors)[3];
    uint64_t offset; /* of the morph in the file */
} nif_morph;

typedef struct nif_morphdata {
    uint32_t morph_count, vertex_count;
    uint8_t relative;
    const nif_morph *morphs;
} nif_morphdata;

typedef struct nif_finterp {
    float value;  /* the pose value without data; -FLT_MAX: unset */
    int32_t data; /* NiFloatData, or -1 */
} nif_finterp;

/* The time fields every controller starts with, and NiInterpController's (nif_kf_blocks.c). */
int nif_kf_interp_controller_fields(nif_rd *r, nif_ctrl *c);
/* KeyGroup<T> of dim floats (nif_kf_blocks.c). */
int nif_kf_keygroup(nif_rd *r, uint32_t dim, const char *field, nif_keygroup *g);
/* count keys of dim floats of the given type at r (a Morph's keys, whose type is stored even
   without keys): g->count, g->type and g->dim set by the caller. */
int nif_kf_keys(nif_rd *r, nif_keygroup *g, const char *field);
/* Readers of the morph blocks (nif_morph_blocks.c), which the model reader parses too; NULL
   for any other type. */
nif_block_fn nif_morph_reader(const char *type);
/* The keyframe blocks' reader of a block type (nif_kf_blocks.c), NULL for another type. */
nif_block_fn nif_kf_reader(const char *type);
/* Keeps a block's structure as an NIF_K_ANIM block of tag (nif_kf_blocks.c). */
void *nif_kf_keep(nif_rd *r, nif_block *b, nif_anim_tag tag, size_t size);

/* The structure of block i when it is an animation block of that tag, else NULL. */
const void *nif_anim_get(const nif_file *f, int32_t i, nif_anim_tag tag);

/* ---- nif_kf_keys.c: curves ---- */

/* Maps file times into a clip: t' = (t - start) / frequency, clip length duration. */
typedef struct kf_clock {
    double start, frequency, duration;
} kf_clock;

typedef struct kf_ctx {
    const nif_file *f;
    vks_clip_set *set;
    vks_error *err;
} kf_ctx;

/* The track's channels from a key data block (and an interpolator's pose for the channels
 * without keys; pose may be NULL). */
vks_result kf_track_from_data(kf_ctx *k, int32_t data, const nif_quat_xform *pose, const kf_clock *clk,
                              vks_track *tr);
/* ---- nif_kf_morph.c: the model's NiGeomMorpherControllers as weights channels ---- */
/* How many controllers' weights change over time (each a morph track of the file's own clip). */
uint32_t kf_morph_count(const nif_file *f);
/* Controller block j's fields when it is one of them, else NULL (for the clip's clock). */
const nif_ctrl *kf_morph_controller(const nif_file *f, uint32_t j);
/* Their tracks into clip (clip->morph_tracks), on the clip's clock. */
vks_result kf_morph_tracks(kf_ctx *k, const kf_clock *clk, vks_clip *clip);

/* ... from an interpolator block (NiTransformInterpolator or a B-spline one). */
vks_result kf_track_from_interp(kf_ctx *k, int32_t interp, const kf_clock *clk, vks_track *tr);
/* Per-second Hermite tangents of Kochanek-Bartels keys (tbc: tension, bias, continuity per
 * key; NULL: all 0, Catmull-Rom), corrected for uneven key spacing; the first and the last
 * key use their one segment on both sides. values, in, out: n * dim. */
void kf_tbc_tangents(const float *times, const float *values, const float *tbc, uint32_t n, uint32_t dim,
                     float *in, float *out);

#endif
