/* The .cmdl reader's first step: a streaming pass of expat over the XML that keeps only what
 * skinning needs (notes §3) in a cmdl_doc. Elements outside that tree are skipped whole.
 * Every element the later steps may blame remembers its line, column, byte index and
 * structure path ("GraphicsContentCtr/Models/SkeletalModel[0]/Shapes/SeparateDataShapeCtr[2]"). */
#include "cmdl_internal.h"
#include "cmdl_xml.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum kind {
    K_ROOT, K_GCC, K_MODELS, K_MODEL, K_SHAPES, K_SHAPE, K_LEAF, K_PRIMSETS, K_PRIMSET, K_TABLE,
    K_PRIMITIVES, K_PRIMITIVE, K_INDEX_STREAMS, K_INDEX_STREAM, K_ATTRS, K_STREAM, K_MATERIALS,
    K_MESHES, K_MESH, K_SHAPE_REF, K_MAT_REF, K_SKELETON, K_BONES, K_BONE, K_BONE_XFORM
};

/* Containers whose children are numbered in paths (and in references such as Shapes[3]). */
static int is_list(int kind)
{
    return kind == K_MODELS || kind == K_SHAPES || kind == K_PRIMSETS || kind == K_PRIMITIVES ||
           kind == K_INDEX_STREAMS || kind == K_ATTRS || kind == K_MATERIALS || kind == K_MESHES ||
           kind == K_BONES;
}

typedef struct parser {
    cmdl_xml x; /* the shared walk (cmdl_xml.h): stack, path, text, errors */
    /* the index stream being read */
    int index_mode, index_ushort;
    uint32_t index_size;
    cmdl_where index_at;
} parser;

/* ---- helpers ---- */

static void where_now(parser *p, cmdl_where *w) { vks__cmdl_xml_where(&p->x, w); }

static void stop(parser *p)
{
    if (!p->x.failed) {
        p->x.failed = 1;
        XML_StopParser(p->x.xp, XML_FALSE);
    }
}

/* An error at the element being started or ended (expat's current position). */
#define fail(p, ...) vks__cmdl_xml_fail(&(p)->x, __VA_ARGS__)

static void fail_nomem(parser *p)
{
    fail(p, VKS_ERR_NOMEM, "out of memory");
}

#define attr vks__cmdl_xml_attr

static int attr_float(parser *p, const XML_Char **atts, const char *name, float def, float *out)
{
    const char *v = attr(atts, name);
    double d;
    if (!v) {
        *out = def;
        return 1;
    }
    if (!vks__cmdl_number(v, &d) || fabs(d) > 3.0e38) {
        fail(p, VKS_ERR_FORMAT, "attribute %s=\"%.40s\" is not a number", name, v);
        return 0;
    }
    *out = (float)d;
    return 1;
}

static int attr_xyz(parser *p, const XML_Char **atts, float def, float out[3])
{
    return attr_float(p, atts, "X", def, &out[0]) && attr_float(p, atts, "Y", def, &out[1]) &&
           attr_float(p, atts, "Z", def, &out[2]);
}

static int attr_bool(const XML_Char **atts, const char *name)
{
    const char *v = attr(atts, name);
    return v && (strcmp(v, "true") == 0 || strcmp(v, "True") == 0 || strcmp(v, "1") == 0);
}

static void *top_shape(parser *p)
{
    vks_vec *v = &p->x.c->doc.shapes;
    return v->count ? (cmdl_shape *)v->data + v->count - 1 : NULL;
}

static cmdl_set *top_set(parser *p)
{
    cmdl_shape *s = top_shape(p);
    return s && s->sets.count ? (cmdl_set *)s->sets.data + s->sets.count - 1 : NULL;
}

static cmdl_stream *top_stream(parser *p)
{
    cmdl_shape *s = top_shape(p);
    return s && s->streams.count ? (cmdl_stream *)s->streams.data + s->streams.count - 1 : NULL;
}

/* ---- element starts ---- */

/* Vector{1..4}VertexStreamCtr or Vector{1..4}...AttributeCtr: components, constant flag. */
static int stream_name(const char *name, int *components, int *constant)
{
    if (strncmp(name, "Vector", 6) != 0 || name[6] < '1' || name[6] > '4')
        return 0;
    *components = name[6] - '0';
    const char *rest = name + 7;
    size_t n = strlen(rest);
    if (strcmp(rest, "VertexStreamCtr") == 0) {
        *constant = 0;
        return 1;
    }
    if (n >= 12 && strcmp(rest + n - 12, "AttributeCtr") == 0) {
        *constant = 1; /* notes §3: the exact element name is unverified */
        return 1;
    }
    return 0;
}

/* Attribute value -> enum through a table; absent gives if_absent, unknown gives if_unknown. */
typedef struct name_value {
    const char *name;
    int value;
} name_value;

static int lookup(const char *s, const name_value *table, int if_absent, int if_unknown)
{
    if (!s)
        return if_absent;
    for (; table->name; table++)
        if (strcmp(s, table->name) == 0)
            return table->value;
    return if_unknown;
}

/* Tangent, Color, UserAttribute0..11, ... are kept as "other". */
static const name_value usages[] = {{"Position", CMDL_USAGE_POSITION},
                                    {"Normal", CMDL_USAGE_NORMAL},
                                    {"BoneIndex", CMDL_USAGE_BONE_INDEX},
                                    {"BoneWeight", CMDL_USAGE_BONE_WEIGHT},
                                    {"TextureCoordinate0", CMDL_USAGE_TEXCOORD0},
                                    {"TextureCoordinate1", CMDL_USAGE_TEXCOORD1},
                                    {"TextureCoordinate2", CMDL_USAGE_TEXCOORD2},
                                    {NULL, 0}};
static const name_value quant_modes[] = {{"Float", CMDL_Q_FLOAT}, {"Byte", CMDL_Q_BYTE},     {"Ubyte", CMDL_Q_UBYTE},
                                         {"Short", CMDL_Q_SHORT}, {"Ushort", CMDL_Q_USHORT}, {NULL, 0}};
static const name_value primitive_modes[] = {{"Triangles", CMDL_PRIM_TRIANGLES},
                                             {"TriangleStrip", CMDL_PRIM_STRIP},
                                             {"TriangleFan", CMDL_PRIM_FAN},
                                             {NULL, 0}};
static const name_value skinning_modes[] = {{"None", CMDL_SKIN_NONE},
                                            {"RigidSkinning", CMDL_SKIN_RIGID},
                                            {"SmoothSkinning", CMDL_SKIN_SMOOTH},
                                            {NULL, 0}};

static int start_stream(parser *p, const XML_Char **atts, int components, int constant)
{
    cmdl_shape *sh = top_shape(p);
    cmdl_stream *st = vks__cmdl_push(p->x.c, &sh->streams, 1);
    if (!st)
        return fail_nomem(p), 0;
    where_now(p, &st->at);
    st->components = components;
    st->constant = constant;
    const char *u = attr(atts, "Usage");
    st->usage = lookup(u, usages, -1, CMDL_USAGE_OTHER);
    if (st->usage < 0)
        return fail(p, VKS_ERR_FORMAT, "vertex stream has no Usage attribute"), 0;
    const char *q = attr(atts, "QuantizedMode");
    st->quant = lookup(q, quant_modes, CMDL_Q_FLOAT, -1);
    if (st->quant < 0)
        return fail(p, VKS_ERR_FORMAT, "unknown QuantizedMode \"%.40s\" (expected Float, Byte, Ubyte, Short or Ushort)", q), 0;
    const char *sc = attr(atts, "Scale");
    st->scale = 1.0;
    if (sc && (!vks__cmdl_number(sc, &st->scale) || fabs(st->scale) > 1e30))
        return fail(p, VKS_ERR_FORMAT, "Scale \"%.40s\" is not a number", sc), 0;
    const char *vs = attr(atts, "VertexSize");
    double d = 0;
    if (!constant) {
        if (!vs)
            return fail(p, VKS_ERR_FORMAT, "vertex stream has no VertexSize attribute"), 0;
        if (!vks__cmdl_number(vs, &d) || d < 0 || d != floor(d) || d > 4294967295.0)
            return fail(p, VKS_ERR_FORMAT, "VertexSize \"%.40s\" is not a vertex count", vs), 0;
        if (d > p->x.c->opt.max_vertices)
            return fail(p, VKS_ERR_LIMIT, "VertexSize %.0f exceeds the vertex limit %u", d, p->x.c->opt.max_vertices), 0;
    }
    st->vertex_size = (uint32_t)d;
    return 1;
}

static int start_index_stream(parser *p, const XML_Char **atts, int ushort)
{
    p->index_ushort = ushort;
    where_now(p, &p->index_at);
    const char *m = attr(atts, "PrimitiveMode");
    p->index_mode = lookup(m, primitive_modes, CMDL_PRIM_TRIANGLES, -1);
    if (p->index_mode < 0)
        return fail(p, VKS_ERR_FORMAT, "unknown PrimitiveMode \"%.40s\" (expected Triangles, TriangleStrip or TriangleFan)", m), 0;
    const char *s = attr(atts, "Size");
    double d;
    if (!s)
        return fail(p, VKS_ERR_FORMAT, "index stream has no Size attribute"), 0;
    if (!vks__cmdl_number(s, &d) || d < 0 || d != floor(d) || d > 4294967295.0)
        return fail(p, VKS_ERR_FORMAT, "Size \"%.40s\" is not an index count", s), 0;
    p->index_size = (uint32_t)d;
    return 1;
}

/* A model of <Models>: only the first is read; it says whether it is skeletal. */
static int start_model(parser *p, const char *name, const XML_Char **atts)
{
    cmdl_ctx *c = p->x.c;
    cmdl_doc *d = &c->doc;
    int skeletal = strcmp(name, "SkeletalModel") == 0;
    if (!skeletal && strcmp(name, "Model") != 0)
        return -1;
    if (d->model_count++ > 0)
        return -1; /* only the first model is read */
    d->skeletal = skeletal;
    const char *n = attr(atts, "Name");
    if (!(d->model_name = vks__cmdl_strdup(c, n ? n : "")))
        return fail_nomem(p), -1;
    return K_MODEL;
}

/* A shape of <Shapes>: only SeparateDataShapeCtr, within the shape limit. */
static int start_shape(parser *p, const char *name, const XML_Char **atts)
{
    cmdl_ctx *c = p->x.c;
    cmdl_doc *d = &c->doc;
    if (strcmp(name, "SeparateDataShapeCtr") != 0)
        return fail(p, VKS_ERR_UNSUPPORTED, "shape element %.60s is not supported (only SeparateDataShapeCtr)", name), -1;
    if (d->shapes.count >= c->opt.max_meshes)
        return fail(p, VKS_ERR_LIMIT, "more than %u shapes (limit)", c->opt.max_meshes), -1;
    cmdl_shape *sh = vks__cmdl_push(c, &d->shapes, 1);
    if (!sh)
        return fail_nomem(p), -1;
    sh->streams.elem = sizeof(cmdl_stream);
    sh->sets.elem = sizeof(cmdl_set);
    sh->material = -1;
    where_now(p, &sh->at);
    return K_SHAPE;
}

/* A primitive set of a shape, with its skinning mode. */
static int start_primset(parser *p, const char *name, const XML_Char **atts)
{
    cmdl_ctx *c = p->x.c;
    if (strcmp(name, "PrimitiveSetCtr") != 0)
        return -1;
    cmdl_shape *sh = top_shape(p);
    cmdl_set *set = vks__cmdl_push(c, &sh->sets, 1);
    if (!set)
        return fail_nomem(p), -1;
    set->tris.elem = sizeof(uint32_t[3]);
    where_now(p, &set->at);
    const char *m = attr(atts, "SkinningMode");
    set->skinning = lookup(m, skinning_modes, CMDL_SKIN_NONE, -1);
    if (set->skinning < 0)
        return fail(p, VKS_ERR_FORMAT, "unknown SkinningMode \"%.40s\" (expected None, RigidSkinning or SmoothSkinning)", m), -1;
    return K_PRIMSET;
}

/* A mesh of <Meshes>: the shape and material references follow as children. */
static int start_mesh(parser *p, const char *name)
{
    cmdl_ctx *c = p->x.c;
    cmdl_doc *d = &c->doc;
    if (strcmp(name, "Mesh") != 0)
        return -1;
    cmdl_meshref *m = vks__cmdl_push(c, &d->meshes, 1);
    if (!m)
        return fail_nomem(p), -1;
    m->shape = -1;
    where_now(p, &m->at);
    return K_MESH;
}

/* A bone of the skeleton, within the node limit, with its name, parent and flags. */
static int start_bone(parser *p, const char *name, const XML_Char **atts)
{
    cmdl_ctx *c = p->x.c;
    cmdl_doc *d = &c->doc;
    if (strcmp(name, "Bone") != 0)
        return -1;
    if (d->bones.count >= c->opt.max_nodes)
        return fail(p, VKS_ERR_LIMIT, "more than %u bones (limit)", c->opt.max_nodes), -1;
    cmdl_bone *b = vks__cmdl_push(c, &d->bones, 1);
    if (!b)
        return fail_nomem(p), -1;
    where_now(p, &b->at);
    b->s[0] = b->s[1] = b->s[2] = 1.0f;
    const char *n = attr(atts, "Name"), *par = attr(atts, "ParentBoneName");
    if (!(b->name = vks__cmdl_strdup(c, n ? n : "")) || !(b->parent = vks__cmdl_strdup(c, par ? par : "")))
        return fail_nomem(p), -1;
    b->segment_scale_compensate = attr_bool(atts, "IsSegmentScaleCompensate");
    const char *bb = attr(atts, "BillboardMode");
    b->billboard = bb && strcmp(bb, "Off") != 0;
    return K_BONE;
}

/* The Scale, Rotate and Translate of the last bone's Transform. */
static int bone_transform(parser *p, const char *name, const XML_Char **atts)
{
    cmdl_doc *d = &p->x.c->doc;
    cmdl_bone *b = (cmdl_bone *)d->bones.data + d->bones.count - 1;
    if (strcmp(name, "Scale") == 0)
        return attr_xyz(p, atts, 1.0f, b->s) ? K_LEAF : -1;
    if (strcmp(name, "Rotate") == 0)
        return attr_xyz(p, atts, 0.0f, b->r) ? K_LEAF : -1;
    if (strcmp(name, "Translate") == 0)
        return attr_xyz(p, atts, 0.0f, b->t) ? K_LEAF : -1;
    return -1;
}

/* The kind of a child element, or -1 to skip it (and its subtree). May fail. */
static int child_kind(cmdl_xml *x, int parent, const char *name, const XML_Char **atts)
{
    parser *p = (parser *)x;
    cmdl_ctx *c = p->x.c;
    cmdl_doc *d = &c->doc;
    switch (parent) {
    case K_ROOT:
        if (strcmp(name, "GraphicsContentCtr") == 0) {
            const char *v = attr(atts, "Version");
            if (v && !d->version && !(d->version = vks__cmdl_strdup(c, v)))
                return fail_nomem(p), -1;
            return K_GCC;
        }
        return -1;
    case K_GCC:
        return strcmp(name, "Models") == 0 ? K_MODELS : -1;
    case K_MODELS:
        return start_model(p, name, atts);
    case K_MODEL:
        if (strcmp(name, "Shapes") == 0)
            return K_SHAPES;
        if (strcmp(name, "Materials") == 0)
            return K_MATERIALS;
        if (strcmp(name, "Meshes") == 0)
            return K_MESHES;
        if (strcmp(name, "Skeleton") == 0) {
            const char *r = attr(atts, "ScalingRule");
            d->maya_scaling = r && strcmp(r, "Maya") == 0;
            return K_SKELETON;
        }
        return -1;
    case K_SHAPES:
        return start_shape(p, name, atts);
    case K_SHAPE:
        if (strcmp(name, "PositionOffset") == 0) {
            cmdl_shape *sh = top_shape(p);
            return attr_xyz(p, atts, 0.0f, sh->offset) ? K_LEAF : -1;
        }
        if (strcmp(name, "PrimitiveSets") == 0)
            return K_PRIMSETS;
        if (strcmp(name, "VertexAttributes") == 0)
            return K_ATTRS;
        return -1;
    case K_PRIMSETS:
        return start_primset(p, name, atts);
    case K_PRIMSET:
        if (strcmp(name, "BoneIndexTable") == 0)
            return K_TABLE;
        return strcmp(name, "Primitives") == 0 ? K_PRIMITIVES : -1;
    case K_PRIMITIVES:
        return strcmp(name, "PrimitiveCtr") == 0 ? K_PRIMITIVE : -1;
    case K_PRIMITIVE:
        return strcmp(name, "IndexStreams") == 0 ? K_INDEX_STREAMS : -1;
    case K_INDEX_STREAMS:
        if (strcmp(name, "UbyteIndexStreamCtr") == 0)
            return start_index_stream(p, atts, 0) ? K_INDEX_STREAM : -1;
        if (strcmp(name, "UshortIndexStreamCtr") == 0)
            return start_index_stream(p, atts, 1) ? K_INDEX_STREAM : -1;
        return fail(p, VKS_ERR_UNSUPPORTED, "index stream %.60s is not supported (Ubyte or Ushort)", name), -1;
    case K_ATTRS: {
        int comps, constant;
        if (!stream_name(name, &comps, &constant))
            return -1; /* e.g. interleaved streams: nothing skinning needs */
        return start_stream(p, atts, comps, constant) ? K_STREAM : -1;
    }
    case K_MATERIALS: {
        const char *n = attr(atts, "Name");
        char **slot = vks__cmdl_push(c, &d->materials, 1);
        if (!slot || !(*slot = vks__cmdl_strdup(c, n ? n : "")))
            return fail_nomem(p), -1;
        return -1; /* the material's contents do not matter for deformation */
    }
    case K_MESHES:
        return start_mesh(p, name);
    case K_MESH:
        if (strcmp(name, "SeparateShapeReference") == 0)
            return K_SHAPE_REF;
        return strcmp(name, "MaterialReference") == 0 ? K_MAT_REF : -1;
    case K_SKELETON:
        return strcmp(name, "Bones") == 0 ? K_BONES : -1;
    case K_BONES:
        return start_bone(p, name, atts);
    case K_BONE:
        return strcmp(name, "Transform") == 0 ? K_BONE_XFORM : -1;
    case K_BONE_XFORM:
        return bone_transform(p, name, atts);
    default:
        return -1; /* children of leaves and text elements */
    }
}

static int numbered(int parent, const char *name)
{
    (void)name;
    return is_list(parent);
}

static int collects(int kind)
{
    return kind == K_TABLE || kind == K_INDEX_STREAM || kind == K_STREAM || kind == K_SHAPE_REF ||
           kind == K_MAT_REF;
}

/* ---- element ends: decode the collected text ---- */

typedef struct num_sink {
    parser *p;
    vks_vec *out; /* double values, or NULL to count only */
    uint64_t count;
    double lo, hi; /* allowed stored range (integers only when integral) */
    int integral;
    int bad_range;
    double bad_value;
} num_sink;

static int sink_add(void *user, double v)
{
    num_sink *s = user;
    if (v < s->lo || v > s->hi || (s->integral && v != floor(v))) {
        s->bad_range = 1;
        s->bad_value = v;
        return 0;
    }
    if (s->out) {
        double *d = vks__cmdl_push(s->p->x.c, s->out, 1);
        if (!d)
            return 0;
    *d = v;
    }
    s->count++;
    return 1;
}

static void quant_range(int q, double *lo, double *hi, int *integral)
{
    *integral = 1;
    switch (q) {
    case CMDL_Q_BYTE: *lo = -128, *hi = 127; return;
    case CMDL_Q_UBYTE: *lo = 0, *hi = 255; return;
    case CMDL_Q_SHORT: *lo = -32768, *hi = 32767; return;
    case CMDL_Q_USHORT: *lo = 0, *hi = 65535; return;
    default: *lo = -3.0e38, *hi = 3.0e38, *integral = 0; return;
    }
}

static void end_stream(parser *p)
{
    cmdl_stream *st = top_stream(p);
    num_sink s = {0};
    vks_vec vals = {.elem = sizeof(double)};
    int keep = st->usage != CMDL_USAGE_OTHER;
    s.out = keep ? &vals : NULL;
    quant_range(st->quant, &s.lo, &s.hi, &s.integral);
    char bad[32];
    s.p = p;
    if (!vks__cmdl_numbers(p->x.text.data, p->x.text.count, sink_add, &s, bad)) {
        cmdl_where *w = &st->at;
        if (p->x.c->nomem)
            fail_nomem(p);
        else if (s.bad_range)
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, w, "value %.9g does not fit QuantizedMode %s", s.bad_value,
                              st->quant == CMDL_Q_BYTE ? "Byte" : st->quant == CMDL_Q_UBYTE ? "Ubyte"
                              : st->quant == CMDL_Q_SHORT ? "Short" : st->quant == CMDL_Q_USHORT ? "Ushort" : "Float");
        else
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, w, "\"%s\" is not a number", bad);
        stop(p);
        vks__cmdl_vec_free(p->x.c, &vals);
        return;
    }
    uint64_t want = (uint64_t)(st->constant ? 1 : st->vertex_size) * (uint64_t)st->components;
    if (s.count != want) {
        if (st->constant)
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &st->at, "constant attribute has %llu values, expected %d",
                              (unsigned long long)s.count, st->components);
        else
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &st->at,
                              "stream has %llu values, VertexSize %u x %d components needs %llu",
                              (unsigned long long)s.count, st->vertex_size, st->components,
                              (unsigned long long)want);
        stop(p);
        vks__cmdl_vec_free(p->x.c, &vals);
        return;
    }
    st->count = st->constant ? 1 : st->vertex_size;
    if (keep) {
        st->values = vks__cmdl_alloc(p->x.c, s.count, sizeof(float));
        if (!st->values) {
            vks__cmdl_vec_free(p->x.c, &vals);
            return fail_nomem(p);
        }
        const double *dv = vals.data;
        for (uint64_t i = 0; i < s.count; i++) {
            double v = dv[i] * st->scale;
            if (!(fabs(v) <= 3.0e38)) {
                vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &st->at, "value %.9g x Scale %.9g overflows a float",
                                  dv[i], st->scale);
                stop(p);
                break;
            }
            st->values[i] = (float)v;
        }
    }
    vks__cmdl_vec_free(p->x.c, &vals);
}

static void end_table(parser *p)
{
    cmdl_set *set = top_set(p);
    num_sink s = {.lo = 0, .hi = 65535, .integral = 1};
    vks_vec vals = {.elem = sizeof(double)};
    s.out = &vals;
    char bad[32];
    s.p = p;
    if (!vks__cmdl_numbers(p->x.text.data, p->x.text.count, sink_add, &s, bad)) {
        if (p->x.c->nomem)
            fail_nomem(p);
        else if (s.bad_range)
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &set->at, "BoneIndexTable entry %.9g is not a bone index",
                              s.bad_value);
        else
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &set->at, "BoneIndexTable: \"%s\" is not a number", bad);
        stop(p);
    } else if (set->table) {
        vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &set->at, "two BoneIndexTable elements in one primitive set");
        stop(p);
    } else {
        set->table = vks__cmdl_alloc(p->x.c, s.count, sizeof(uint32_t));
        if (!set->table)
            fail_nomem(p);
        else {
            for (uint64_t i = 0; i < s.count; i++)
                set->table[i] = (uint32_t)((double *)vals.data)[i];
            set->table_count = (uint32_t)s.count;
        }
    }
    vks__cmdl_vec_free(p->x.c, &vals);
}

static int add_tri(parser *p, cmdl_set *set, uint32_t a, uint32_t b, uint32_t c)
{
    cmdl_doc *d = &p->x.c->doc;
    if (d->index_total >= p->x.c->opt.max_triangles) {
        vks__cmdl_fail_at(p->x.c, VKS_ERR_LIMIT, &p->index_at, "more than %u triangles (limit)",
                          p->x.c->opt.max_triangles);
        stop(p);
        return 0;
    }
    uint32_t *t = vks__cmdl_push(p->x.c, &set->tris, 1);
    if (!t)
        return fail_nomem(p), 0;
    t[0] = a, t[1] = b, t[2] = c;
    d->index_total++;
    return 1;
}

/* Triangles from one index stream (notes §5): lists by threes, strips with alternating
 * winding, fans around the first index; degenerate strip/fan triangles are skipped. */
static void end_index_stream(parser *p)
{
    cmdl_set *set = top_set(p);
    num_sink s = {.lo = 0, .hi = p->index_ushort ? 65535 : 255, .integral = 1};
    vks_vec vals = {.elem = sizeof(double)};
    s.out = &vals;
    char bad[32];
    s.p = p;
    if (!vks__cmdl_numbers(p->x.text.data, p->x.text.count, sink_add, &s, bad)) {
        if (p->x.c->nomem)
            fail_nomem(p);
        else if (s.bad_range)
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &p->index_at, "index %.9g does not fit a %s index stream",
                              s.bad_value, p->index_ushort ? "Ushort" : "Ubyte");
        else
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &p->index_at, "\"%s\" is not an index", bad);
        stop(p);
        vks__cmdl_vec_free(p->x.c, &vals);
        return;
    }
    if (s.count != p->index_size) {
        vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &p->index_at, "index stream has %llu indices, Size says %u",
                          (unsigned long long)s.count, p->index_size);
        stop(p);
    } else if (p->index_mode == CMDL_PRIM_TRIANGLES && s.count % 3) {
        vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &p->index_at, "Triangles stream of %llu indices is not a multiple of 3",
                          (unsigned long long)s.count);
        stop(p);
    } else {
        const double *v = vals.data;
        uint64_t n = s.count;
        if (p->index_mode == CMDL_PRIM_TRIANGLES) {
            for (uint64_t i = 0; i + 2 < n; i += 3)
                if (!add_tri(p, set, (uint32_t)v[i], (uint32_t)v[i + 1], (uint32_t)v[i + 2]))
                    break;
        } else {
            for (uint64_t i = 0; i + 2 < n; i++) {
                uint32_t a, b, c = (uint32_t)v[i + 2];
                if (p->index_mode == CMDL_PRIM_STRIP) {
                    a = (uint32_t)v[i + (i & 1)];
                    b = (uint32_t)v[i + 1 - (i & 1)];
                } else {
                    a = (uint32_t)v[0];
                    b = (uint32_t)v[i + 1];
                }
                if (a == b || b == c || a == c)
                    continue;
                if (!add_tri(p, set, a, b, c))
                    break;
            }
        }
    }
    vks__cmdl_vec_free(p->x.c, &vals);
}

static void end_ref(parser *p, int kind)
{
    cmdl_doc *d = &p->x.c->doc;
    cmdl_meshref *m = (cmdl_meshref *)d->meshes.data + d->meshes.count - 1;
    const char *t = p->x.text.data ? p->x.text.data : "";
    if (kind == K_SHAPE_REF) {
        uint32_t i;
        if (!vks__cmdl_ref_index(t, p->x.text.count, "Shapes", &i)) {
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &m->at, "SeparateShapeReference is not Shapes[<index>]");
            stop(p);
            return;
        }
        m->shape = i;
    } else {
        char name[256];
        if (!vks__cmdl_ref_name(t, p->x.text.count, "Materials", name, sizeof name)) {
            vks__cmdl_fail_at(p->x.c, VKS_ERR_FORMAT, &m->at, "MaterialReference is not Materials[\"<name>\"]");
            stop(p);
            return;
        }
        vks__cmdl_free(p->x.c, m->material);
        if (!(m->material = vks__cmdl_strdup(p->x.c, name)))
            fail_nomem(p);
    }
}

static void on_end(cmdl_xml *x, int kind)
{
    parser *p = (parser *)x;
    switch (kind) {
    case K_STREAM: end_stream(p); break;
    case K_TABLE: end_table(p); break;
    case K_INDEX_STREAM: end_index_stream(p); break;
    case K_SHAPE_REF:
    case K_MAT_REF: end_ref(p, kind); break;
    default: break;
    }
}

static const cmdl_xml_schema schema = {"cmdl", child_kind, numbered, collects, on_end};

vks_result vks__cmdl_parse(cmdl_ctx *c, const void *bytes, size_t size)
{
    c->doc.shapes.elem = sizeof(cmdl_shape);
    c->doc.bones.elem = sizeof(cmdl_bone);
    c->doc.materials.elem = sizeof(char *);
    c->doc.meshes.elem = sizeof(cmdl_meshref);
    c->doc.skeletal = -1;
    parser p;
    memset(&p, 0, sizeof p);
    return vks__cmdl_xml_parse(&p.x, c, &schema, bytes, size);
}
