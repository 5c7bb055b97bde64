/* NintendoWare CTR intermediate model (.cmdl XML): the reader's private document tree.
 *
 * The reader works in three steps, one file each:
 *   cmdl_parse.c     expat callbacks fill a cmdl_doc (structure only, numbers decoded, every
 *                    element remembers where it started for later error messages), over the
 *                    element walk in cmdl_xml.c
 *   cmdl_skeleton.c  bones -> skin nodes (parents by name, cycles, bind locals, inverse binds)
 *   cmdl_shape.c     shapes -> builder meshes (streams decoded, strips triangulated, per
 *                    primitive-set palettes and influences)
 * cmdl_read.c ties them together; cmdl_text.c holds the number and reference scanners and
 * cmdl_doc.c the allocation helpers (growable arrays are core/vec.h's, over the read
 * options' allocator) and the error helper. The .cskla clip reader and writer
 * (src/formats/cmdl/cskla_*.c) use the same helpers: the document context, the scanners, the error
 * helper, the element walk (cmdl_xml.h) and the writer's pieces below. The format notes are
 * ../shared/formats/nw4c_cmdl.md (sections cited as "notes §n").
 */
#ifndef VKS_FORMATS_CMDL_INTERNAL_H
#define VKS_FORMATS_CMDL_INTERNAL_H

#include "core/bytebuf.h"
#include "core/vec.h"
#include "vkskin/build.h"
#include "vkskin/formats.h"

#include <stddef.h>
#include <stdint.h>

/* Where an element started: for errors found after parsing. */
typedef struct cmdl_where {
    uint64_t offset;
    unsigned long line, column;
    char path[128];
} cmdl_where;

/* ---- growable arrays (core/vec.h) over the read options' allocator ---- */
typedef struct cmdl_ctx cmdl_ctx;

/* Appends n zeroed elements; NULL on overflow or exhaustion (the context is then marked). */
void *vks__cmdl_push(cmdl_ctx *c, vks_vec *v, size_t n);
void vks__cmdl_vec_free(cmdl_ctx *c, vks_vec *v);
void *vks__cmdl_alloc(cmdl_ctx *c, size_t count, size_t elem); /* zeroed; NULL on overflow */
void vks__cmdl_free(cmdl_ctx *c, void *p);
char *vks__cmdl_strdup(cmdl_ctx *c, const char *s);

/* ---- the document ---- */
enum cmdl_usage {
    CMDL_USAGE_OTHER = 0, /* kept for the count check, otherwise skipped */
    CMDL_USAGE_POSITION,
    CMDL_USAGE_NORMAL,
    CMDL_USAGE_BONE_INDEX,
    CMDL_USAGE_BONE_WEIGHT,
    CMDL_USAGE_TEXCOORD0, /* TextureCoordinate0..2, consecutive */
    CMDL_USAGE_TEXCOORD1,
    CMDL_USAGE_TEXCOORD2
};
enum cmdl_quant { CMDL_Q_FLOAT, CMDL_Q_BYTE, CMDL_Q_UBYTE, CMDL_Q_SHORT, CMDL_Q_USHORT };
enum cmdl_skinning { CMDL_SKIN_NONE, CMDL_SKIN_RIGID, CMDL_SKIN_SMOOTH };
enum cmdl_prim_mode { CMDL_PRIM_TRIANGLES, CMDL_PRIM_STRIP, CMDL_PRIM_FAN };

typedef struct cmdl_stream {
    cmdl_where at;
    int usage;           /* enum cmdl_usage */
    int components;      /* 1..4, from the element name */
    int quant;           /* enum cmdl_quant */
    int constant;        /* a ...AttributeCtr: one vector for every vertex */
    double scale;
    uint32_t vertex_size; /* the VertexSize attribute (0 for constants) */
    float *values;        /* decoded (stored x Scale), vertex-major; NULL for skipped usages */
    uint32_t count;       /* vectors read */
} cmdl_stream;

typedef struct cmdl_set {
    cmdl_where at;
    int skinning; /* enum cmdl_skinning */
    uint32_t *table;
    uint32_t table_count;
    vks_vec tris; /* uint32_t[3]: shape vertex indices */
} cmdl_set;

typedef struct cmdl_shape {
    cmdl_where at;
    float offset[3];
    vks_vec streams; /* cmdl_stream */
    vks_vec sets;    /* cmdl_set */
    int material;     /* index into the model's materials, -1 none */
} cmdl_shape;

typedef struct cmdl_bone {
    cmdl_where at;
    char *name, *parent;
    float s[3], r[3], t[3];
    int segment_scale_compensate;
    int billboard; /* BillboardMode other than Off */
} cmdl_bone;

/* A <Mesh>: which shape it draws with which material (resolved after parsing). */
typedef struct cmdl_meshref {
    cmdl_where at;
    int64_t shape;   /* -1: no SeparateShapeReference */
    char *material;  /* NULL: no MaterialReference */
} cmdl_meshref;

typedef struct cmdl_doc {
    char *version;   /* GraphicsContentCtr Version */
    char *model_name;
    int skeletal;    /* SkeletalModel (1) or Model (0); -1 none seen */
    int maya_scaling; /* Skeleton ScalingRule="Maya" */
    uint32_t model_count; /* model elements seen (only the first is read) */
    vks_vec shapes; /* cmdl_shape */
    vks_vec bones;  /* cmdl_bone */
    vks_vec materials; /* char* names */
    vks_vec meshes;    /* cmdl_meshref */
    uint32_t index_total; /* triangles over all sets (limit check) */
    uint64_t vertex_total;
} cmdl_doc;

struct cmdl_ctx {
    vks_read_options opt;
    vks_error *err;
    int nomem;
    cmdl_doc doc;
};

/* Records an error located at an element: "line L, column C: <msg>" with the element's path. */
vks_result vks__cmdl_fail_at(cmdl_ctx *c, vks_result code, const cmdl_where *at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Parses the whole document into c->doc (expat; errors carry line and column). */
vks_result vks__cmdl_parse(cmdl_ctx *c, const void *bytes, size_t size);
void vks__cmdl_doc_free(cmdl_ctx *c);

/* Skeleton -> skin nodes. bone_node[i] is the node of the i-th <Bone> in document order.
 * For a Model without a skeleton (or when a static node is asked for) one extra root node
 * is appended; *static_node gets its index (or -1 when not made). */
vks_result vks__cmdl_skeleton(cmdl_ctx *c, vks_skin *skin, uint32_t **bone_node, int need_static,
                              int32_t *static_node);
/* Inverse of the bind world of every node (double precision inversion). out, singular:
 * node_count; singular[n] = 1 (and out[n] identity) where the bind world cannot be inverted. */
vks_result vks__cmdl_inverse_binds(cmdl_ctx *c, const vks_skin *skin, vks_affine *out, uint8_t *singular);

/* Adds one builder mesh per shape. */
vks_result vks__cmdl_shapes(cmdl_ctx *c, vks_skin *skin, vks_skin_builder *b, const uint32_t *bone_node,
                            int32_t static_node, const vks_affine *inverse_bind, const uint8_t *singular);

/* ---- text scanners (strtod: the readers run under the C locale, core/c_numeric.h) ---- */
/* Calls fn for every whitespace-separated number in text; returns 0 and sets *bad to the
 * offending token (first 24 chars) on a malformed or non-finite number. */
typedef int (*cmdl_number_fn)(void *user, double v);
int vks__cmdl_numbers(const char *text, size_t len, cmdl_number_fn fn, void *user, char bad[32]);
/* One number (an attribute); 0 when malformed. */
int vks__cmdl_number(const char *s, double *out);
/* "Shapes[3]" -> 3; returns 0 when malformed. */
int vks__cmdl_ref_index(const char *text, size_t len, const char *prefix, uint32_t *out);
/* Materials["name"] (optionally followed by @file:...) -> name copied into buf. */
int vks__cmdl_ref_name(const char *text, size_t len, const char *prefix, char *buf, size_t size);

/* ---- writer pieces (cmdl_write.c) ---- */
/* s with & < > " and control characters escaped for an attribute or text. */
void vks__cmdl_put_escaped(vks_bytebuf *b, const char *s);
/* <el X="..." Y="..." Z="..." /> (%.9g: floats round-trip). */
void vks__cmdl_put_xyz(vks_bytebuf *b, const char *el, const float v[3]);
/* Euler XYZ radians (R = Rz * Ry * Rx, as a bone's Rotate) of the rotation whose columns are
 * c[0..2]; at gimbal lock (|cos y| <= 1e-6) x is 0. */
void vks__cmdl_euler_xyz(const double c[3][3], double r[3]);
/* Scale, Rotate (vks__cmdl_euler_xyz) and Translate of a bind local without shear. */
void vks__cmdl_decompose(const vks_affine *a, float s[3], float r[3], float t[3]);

#endif
