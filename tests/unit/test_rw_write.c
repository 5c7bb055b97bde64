/* vks_rw_write -> vks_rw_read round trips of a small hand-built model (a bent strip over a
 * 4-bone chain under a rotated root, plus a non-bone "prop" node): lists and strips, one
 * group and split groups (palette limit 3, a bone shared by two groups), the new layout at
 * 3.6.0.3, the old layout at 3.3.0.2 (12-byte clump struct) and 3.2.0.0 with old-form stamps
 * (4-byte clump struct), two atomics on different frames, and the writer's refusals.
 * Positions, normals, influences (resolved through the palettes to nodes), triangles,
 * groups and the bind pose are compared. */
#include <math.h>
#include <string.h>

#include "test_rw_util.h"
#include "vkskin/build.h"
#include "character.h"
#include "testutil.h"

#define RINGS 5
#define NV (RINGS * 2)
#define NT ((RINGS - 1) * 2)

static vks_affine translate(float x, float y, float z)
{
    vks_affine a = vks_affine_identity();
    a.m[9] = x, a.m[10] = y, a.m[11] = z;
    return a;
}

static vks_affine world_of(const vks_skin *s, uint32_t n)
{
    vks_affine w = s->nodes[n].bind_local;
    for (int32_t p = s->nodes[n].parent; p >= 0; p = s->nodes[p].parent)
        w = vks_affine_mul(&s->nodes[p].bind_local, &w);
    return w;
}

/* The model: nodes root, b0..b3 (a chain), prop (child of root). Mesh A: a strip along +z
 * weighted over b0..b3; mesh B (two_meshes): the last two rings on b2, b3, skinned in the
 * prop's space. */
static vks_skin *make_model(uint32_t palette_limit, int two_meshes, int32_t space_a)
{
    static const char *names[] = {"root", "b0", "b1", "b2", "b3", "prop"};
    static const int32_t parents[] = {-1, 0, 1, 2, 3, 0};
    vks_skin *s = vks_skin_create(NULL);
    s->node_count = 6;
    s->nodes = vks_skin_alloc_array(s, 6, sizeof *s->nodes);
    for (int i = 0; i < 6; i++) {
        s->nodes[i].name = vks_skin_strndup(s, names[i], strlen(names[i]));
        s->nodes[i].parent = parents[i];
        s->nodes[i].bind_local = i == 0 ? translate(1, 2, 0.5f) : i == 5 ? translate(-1, 0, 0) : translate(0, 0, 1);
    }
    /* root rotated 0.5 rad about z (not a round angle, so float rounding shows) */
    vks_affine r = vks_affine_identity();
    r.m[0] = cosf(0.5f), r.m[1] = sinf(0.5f), r.m[3] = -sinf(0.5f), r.m[4] = cosf(0.5f);
    s->nodes[0].bind_local = vks_affine_mul(&s->nodes[0].bind_local, &r);

    float pos[NV][3], nrm[NV][3], w[NV][4];
    uint16_t bone[NV][4];
    uint32_t tri[NT][3];
    uint16_t mat[NT];
    /* ring z: (b, weight) pairs */
    static const float ring_w[RINGS][2][2] = {{{0, 1}, {0, 0}}, {{0, .5f}, {1, .5f}}, {{1, .75f}, {2, .25f}},
                                              {{2, 1}, {0, 0}}, {{2, .4f}, {3, .6f}}};
    memset(w, 0, sizeof w);
    memset(bone, 0, sizeof bone);
    for (int z = 0; z < RINGS; z++)
        for (int k = 0; k < 2; k++) {
            int v = z * 2 + k;
            pos[v][0] = k ? 0.5f : -0.5f, pos[v][1] = 0.1f * (float)z, pos[v][2] = (float)z;
            nrm[v][0] = 0, nrm[v][1] = -1, nrm[v][2] = 0;
            for (int j = 0; j < 2; j++) {
                bone[v][j] = (uint16_t)ring_w[z][j][0];
                w[v][j] = ring_w[z][j][1];
            }
        }
    for (int z = 0; z + 1 < RINGS; z++) {
        uint32_t a = (uint32_t)z * 2, b = a + 1, c = a + 2, d = a + 3;
        tri[z * 2][0] = a, tri[z * 2][1] = b, tri[z * 2][2] = d;
        tri[z * 2 + 1][0] = a, tri[z * 2 + 1][1] = d, tri[z * 2 + 1][2] = c;
        mat[z * 2] = (uint16_t)(z >= 2), mat[z * 2 + 1] = (uint16_t)(z >= 2);
    }
    /* mesh A: bones b0..b3 (nodes 1..4) in the space of node space_a */
    vks_bone bones[4];
    vks_affine wa = space_a >= 0 ? world_of(s, (uint32_t)space_a) : vks_affine_identity();
    for (int i = 0; i < 4; i++) {
        vks_affine wb = world_of(s, (uint32_t)i + 1), inv;
        vks_affine_inverse(&wb, &inv);
        bones[i].node = (uint32_t)i + 1;
        bones[i].inverse_bind = vks_affine_mul(&inv, &wa);
    }
    vks_skin_builder *b = vks_builder_create(s);
    vks_mesh_source m;
    memset(&m, 0, sizeof m);
    m.name = "strip";
    m.vertex_count = NV;
    m.positions = (const float (*)[3])pos;
    m.normals = (const float (*)[3])nrm;
    m.bone = (const uint16_t (*)[4])bone;
    m.weight = (const float (*)[4])w;
    m.triangle_count = NT;
    m.triangles = (const uint32_t (*)[3])tri;
    m.triangle_material = mat;
    m.bone_count = 4;
    m.bones = bones;
    m.space_node = space_a;
    m.palette_limit = palette_limit;
    vks_error err = {0};
    CHECK_EQ_INT(vks_builder_add_mesh(b, &m, &err), VKS_OK);
    if (two_meshes) {
        /* mesh B: rings 3..4 only, bones b2, b3 as mesh bones 0, 1, in the prop's space */
        vks_affine wp = world_of(s, 5);
        vks_bone bb[2];
        uint16_t bone2[4][4];
        float w2[4][4];
        for (int i = 0; i < 2; i++) {
            vks_affine wb = world_of(s, (uint32_t)i + 3), inv;
            vks_affine_inverse(&wb, &inv);
            bb[i].node = (uint32_t)i + 3;
            bb[i].inverse_bind = vks_affine_mul(&inv, &wp);
        }
        float p2[4][3];
        for (int v = 0; v < 4; v++) {
            /* positions given in the prop's space: inverse(W(prop)) * W(A) * p */
            vks_affine ip, toB;
            vks_affine_inverse(&wp, &ip);
            toB = vks_affine_mul(&ip, &wa);
            vks_affine_apply(&toB, pos[6 + v], p2[v]);
            for (int k = 0; k < 4; k++) {
                w2[v][k] = w[6 + v][k];
                bone2[v][k] = w[6 + v][k] > 0 ? (uint16_t)(bone[6 + v][k] - 2) : 0;
            }
        }
        uint32_t t2[2][3] = {{0, 1, 3}, {0, 3, 2}};
        vks_mesh_source m2 = m;
        m2.name = "tip";
        m2.vertex_count = 4;
        m2.positions = (const float (*)[3])p2;
        m2.normals = NULL;
        m2.bone = (const uint16_t (*)[4])bone2;
        m2.weight = (const float (*)[4])w2;
        m2.triangle_count = 2;
        m2.triangles = (const uint32_t (*)[3])t2;
        m2.triangle_material = NULL;
        m2.bone_count = 2;
        m2.bones = bb;
        m2.space_node = 5;
        m2.palette_limit = 0;
        CHECK_EQ_INT(vks_builder_add_mesh(b, &m2, &err), VKS_OK);
    }
    CHECK_EQ_INT(vks_builder_finish(b, &err), VKS_OK);
    if (err.code)
        fprintf(stderr, "builder: %s: %s\n", err.path, err.msg);
    CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
    return s;
}

typedef struct tri_key {
    uint32_t v[3];
    uint32_t mat;
    uint64_t pal[2]; /* bit set of the palette nodes of the triangle's group (nodes < 128) */
} tri_key;

static int cmp_key(const void *a, const void *b) { return memcmp(a, b, sizeof(tri_key)); }

static uint32_t group_index_of_triangle(const vks_skin *s, uint32_t t)
{
    for (uint32_t g = 0; g < s->group_count; g++)
        if (t >= s->groups[g].first_triangle && t < s->groups[g].first_triangle + s->groups[g].triangle_count)
            return g;
    return 0;
}

static uint32_t group_index_of_vertex(const vks_skin *s, uint32_t v)
{
    for (uint32_t g = 0; g < s->group_count; g++)
        if (v >= s->groups[g].first_vertex && v < s->groups[g].first_vertex + s->groups[g].vertex_count)
            return g;
    return 0;
}

static void palette_nodes(const vks_skin *s, uint32_t g, uint64_t mask[2])
{
    mask[0] = mask[1] = 0;
    for (uint32_t i = 0; i < s->groups[g].palette_count; i++) {
        uint32_t node = s->bones[s->palette[s->groups[g].first_palette + i]].node;
        CHECK(node < 128);
        if (node < 128)
            mask[node / 64] |= 1ull << (node % 64);
    }
}

/* Compares read-back model r (mesh rm) with original o (mesh om). The writer stores the
 * original's model vertices as file vertices, so r's source_vertex indexes o's mesh vertices. */
static void compare_mesh(const vks_skin *o, uint32_t om, const vks_skin *r, uint32_t rm, int groups_kept)
{
    const vks_mesh *a = &o->meshes[om], *b = &r->meshes[rm];
    CHECK_EQ_INT(b->source_vertex_count, a->vertex_count);
    CHECK_EQ_INT(b->triangle_count, a->triangle_count);
    CHECK_EQ_INT(b->space_node, a->space_node >= 0 ? a->space_node : 0);
    CHECK_EQ_INT(!!(b->flags & VKS_MESH_HAS_NORMALS), !!(a->flags & VKS_MESH_HAS_NORMALS));
    for (uint32_t v = b->first_vertex; v < b->first_vertex + b->vertex_count; v++) {
        uint32_t ov = a->first_vertex + r->source_vertex[v];
        for (int k = 0; k < 3; k++) {
            CHECK_EQ_INT(r->positions[v][k] == o->positions[ov][k], 1);
            if (a->flags & VKS_MESH_HAS_NORMALS)
                CHECK_EQ_INT(r->normals[v][k] == o->normals[ov][k], 1);
        }
        const vks_group *rg = &r->groups[group_index_of_vertex(r, v)];
        const vks_group *og = &o->groups[group_index_of_vertex(o, ov)];
        for (int k = 0; k < 4; k++) {
            float rw = r->influences[v].weight[k], ow = o->influences[ov].weight[k];
            CHECK_EQ_INT(rw == ow, 1);
            if (ow > 0)
                CHECK_EQ_INT(r->bones[r->palette[rg->first_palette + r->influences[v].index[k]]].node,
                             o->bones[o->palette[og->first_palette + o->influences[ov].index[k]]].node);
        }
    }
    /* triangles (in file vertices), materials and, where groups are kept, the palette's node
       set of the triangle's group */
    uint32_t n = a->triangle_count;
    tri_key *ka = calloc(n + 1, sizeof *ka), *kb = calloc(n + 1, sizeof *kb);
    for (uint32_t t = 0; t < n; t++) {
        uint32_t ta = a->first_triangle + t, tb = b->first_triangle + t;
        for (int k = 0; k < 3; k++) {
            ka[t].v[k] = o->triangles[ta][k];
            kb[t].v[k] = r->source_vertex[b->first_vertex + r->triangles[tb][k]];
        }
        ka[t].mat = o->triangle_material ? o->triangle_material[ta] : 0;
        kb[t].mat = r->triangle_material ? r->triangle_material[tb] : 0;
        if (groups_kept) {
            palette_nodes(o, group_index_of_triangle(o, ta), ka[t].pal);
            palette_nodes(r, group_index_of_triangle(r, tb), kb[t].pal);
        }
    }
    qsort(ka, n, sizeof *ka, cmp_key);
    qsort(kb, n, sizeof *kb, cmp_key);
    CHECK_EQ_INT(memcmp(ka, kb, n * sizeof *ka), 0);
    free(ka), free(kb);
}

static vks_skin *round_trip(const vks_skin *o, uint32_t version, int strips, uint8_t **bytes_out, size_t *size_out)
{
    vks_write_options wo;
    memset(&wo, 0, sizeof wo);
    wo.version = version;
    wo.triangle_strips = strips;
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    CHECK_EQ_INT(vks_rw_write(o, &wo, &bytes, &size, &err), VKS_OK);
    if (err.code)
        fprintf(stderr, "write: %s: %s\n", err.path, err.msg);
    vks_skin *r = NULL;
    if (bytes) {
        CHECK_EQ_INT(vks_rw_read(NULL, bytes, size, &r, &err), VKS_OK);
        if (err.code)
            fprintf(stderr, "read: %s: %s (offset %llu)\n", err.path, err.msg, (unsigned long long)err.offset);
    }
    if (bytes_out)
        *bytes_out = bytes, *size_out = size;
    else
        free(bytes);
    return r;
}

static void check_common(const vks_skin *o, const vks_skin *r, const char *what)
{
    CHECK_EQ_INT(r->node_count, o->node_count);
    for (uint32_t i = 0; i < o->node_count && i < r->node_count; i++) {
        CHECK(strcmp(r->nodes[i].name, o->nodes[i].name) == 0);
        CHECK_EQ_INT(r->nodes[i].parent, o->nodes[i].parent);
        CHECK_EQ_INT(memcmp(&r->nodes[i].bind_local, &o->nodes[i].bind_local, sizeof(vks_affine)), 0);
    }
    vks_bind_check bc;
    vks_error err = {0};
    memset(&bc, 0, sizeof bc);
    CHECK_EQ_INT(vks_cpu_bind_check(r, &bc, &err), VKS_OK);
    printf("%s: bind check relative error %.3g\n", what, bc.max_error_relative);
    CHECK(bc.max_error_relative < 1e-5);
}

/* 1. one group, lists, 3.6.0.3: no split data; groups as built */
static void one_group_lists(void)
{
    vks_skin *o = make_model(0, 0, 0);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_skin *r = round_trip(o, 0, 0, &bytes, &size);
    CHECK(r != NULL);
    if (r) {
        check_common(o, r, "lists, one group");
        CHECK(strcmp(r->format_detail, "RW 3.6.0.3") == 0);
        CHECK_EQ_INT(r->mesh_count, 1);
        CHECK_EQ_INT(r->group_count, 1);
        CHECK_EQ_INT(r->groups[0].palette_count, 4);
        compare_mesh(o, 0, r, 0, 1);
        /* bones: HAnim node order b0..b3 with the hierarchy on b0 */
        for (uint32_t i = 0; i < 4; i++)
            CHECK_EQ_INT(r->bones[i].node, i + 1);
    }
    /* the chunk tree: 12-byte clump struct, skin in the new layout with empty split data */
    rw_test_chunk ch[256];
    size_t nc = vks_test_rw_chunks(bytes, size, ch, 256);
    size_t cs = vks_test_rw_find(ch, nc, 0x01, 0x10, 0);
    CHECK(cs != (size_t)-1 && ch[cs].size == 12);
    CHECK_EQ_INT(vks_test_le32(bytes + 8), 0x1803FFFF);
    size_t sk = vks_test_rw_find(ch, nc, 0x116, 0x03, 0);
    CHECK(sk != (size_t)-1);
    if (sk != (size_t)-1) {
        const uint8_t *p = bytes + ch[sk].offset + 12;
        CHECK_EQ_INT(p[0], 4);
        CHECK_EQ_INT(p[1], 4);
        CHECK_EQ_INT(p[2], 2);
        CHECK_EQ_INT(ch[sk].size, 4 + 4 + 20 * NV + 64 * 4 + 12);
    }
    /* a truncated written file fails cleanly at every byte */
    vks_read_options opt;
    memset(&opt, 0, sizeof opt);
    CHECK_EQ_INT(vks_test_truncations(vks_rw_read, &opt, bytes, size, size, NULL, 0, 0), 0);
    free(bytes);
    vks_skin_free(r);
    vks_skin_free(o);
}

/* 2. split groups (palette limit 3) with lists and with strips */
static void split_groups(void)
{
    for (int strips = 0; strips < 2; strips++) {
        vks_skin *o = make_model(3, 0, 0);
        CHECK(o->group_count >= 2);
        uint8_t *bytes = NULL;
        size_t size = 0;
        vks_skin *r = round_trip(o, 0x36003, strips, &bytes, &size);
        CHECK(r != NULL);
        if (r) {
            check_common(o, r, strips ? "strips, split groups" : "lists, split groups");
            /* one Bin Mesh mesh per (group, material) -> one group each when read back */
            uint32_t pairs = 0;
            for (uint32_t g = 0; g < o->group_count; g++) {
                uint32_t seen = 0;
                for (uint32_t t = o->groups[g].first_triangle;
                     t < o->groups[g].first_triangle + o->groups[g].triangle_count; t++)
                    seen |= 1u << o->triangle_material[t];
                pairs += (uint32_t)__builtin_popcount(seen);
            }
            CHECK_EQ_INT(r->group_count, pairs);
            compare_mesh(o, 0, r, 0, 1);
        }
        rw_test_chunk ch[256];
        size_t nc = vks_test_rw_chunks(bytes, size, ch, 256);
        size_t bm = vks_test_rw_find(ch, nc, 0x50E, 0x03, 0);
        CHECK(bm != (size_t)-1 && vks_test_le32(bytes + ch[bm].offset + 12) == (uint32_t)strips);
        free(bytes);
        vks_skin_free(r);
        vks_skin_free(o);
    }
}

/* 3. old skin layout at 3.3.0.2: 12-byte clump struct, 0xDEADDEAD before each matrix */
static void old_skin_layout(void)
{
    vks_skin *o = make_model(0, 0, 0);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_skin *r = round_trip(o, 0x33002, 0, &bytes, &size);
    CHECK(r != NULL);
    if (r) {
        check_common(o, r, "3.3.0.2 old layout");
        CHECK(strcmp(r->format_detail, "RW 3.3.0.2") == 0);
        compare_mesh(o, 0, r, 0, 1);
    }
    rw_test_chunk ch[256];
    size_t nc = vks_test_rw_chunks(bytes, size, ch, 256);
    size_t cs = vks_test_rw_find(ch, nc, 0x01, 0x10, 0);
    CHECK(cs != (size_t)-1 && ch[cs].size == 12);
    size_t sk = vks_test_rw_find(ch, nc, 0x116, 0x03, 0);
    CHECK(sk != (size_t)-1);
    if (sk != (size_t)-1) {
        CHECK_EQ_INT(ch[sk].size, 4 + 20 * NV + 68 * 4);
        CHECK_EQ_INT(bytes[ch[sk].offset + 13], 0);
        CHECK_EQ_INT(vks_test_le32(bytes + ch[sk].offset + 12 + 4 + 20 * NV), 0xDEADDEADu);
    }
    size_t gs = vks_test_rw_find(ch, nc, 0x01, 0x0F, 0);
    CHECK(gs != (size_t)-1 && ch[gs].size == 16 + 12 + 8 * NT + 24 + 24 * NV); /* surface props */
    free(bytes);
    vks_skin_free(r);
    vks_skin_free(o);
}

/* 4. 3.2.0.0 written, then every stamp rewritten to the old form (0x320): 4-byte clump struct */
static void old_stamps(void)
{
    vks_skin *o = make_model(0, 0, 0);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_skin *r0 = round_trip(o, 0x32000, 0, &bytes, &size);
    vks_skin_free(r0);
    rw_test_chunk ch[256];
    size_t nc = vks_test_rw_chunks(bytes, size, ch, 256);
    for (size_t i = 0; i < nc; i++) {
        CHECK_EQ_INT(vks_test_le32(bytes + ch[i].offset + 8), 0x0800FFFF);
        vks_test_put32(bytes + ch[i].offset + 8, 0x320);
    }
    size_t cs = vks_test_rw_find(ch, nc, 0x01, 0x10, 0);
    CHECK(cs != (size_t)-1 && ch[cs].size == 4);
    vks_skin *r = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_rw_read(NULL, bytes, size, &r, &err), VKS_OK);
    if (r) {
        check_common(o, r, "3.2.0.0 old stamps");
        CHECK(strcmp(r->format_detail, "RW 3.2.0.0") == 0);
        compare_mesh(o, 0, r, 0, 1);
    }
    free(bytes);
    vks_skin_free(r);
    vks_skin_free(o);
}

/* 4b. before 3.4 the Geometry sits inside its Atomic (12-byte atomic struct, no geometry
   list): rebuild a written 3.3.0.2 file into that shape with 3.0.3 old-form stamps; the
   second pass moves the skin into the atomic's extension in the legacy form (bones as
   HAnim ID, index, flags, matrix) */
static void geometry_in_atomic(void)
{
    for (int legacy = 0; legacy < 2; legacy++) {
        vks_skin *o = make_model(0, 0, 0);
        uint8_t *src = NULL;
        size_t n = 0;
        vks_skin_free(round_trip(o, 0x33002, 0, &src, &n));
        rw_test_chunk ch[256];
        size_t nc = vks_test_rw_chunks(src, n, ch, 256);
        size_t fl = vks_test_rw_find(ch, nc, 0x0E, 0x10, 0), geo = vks_test_rw_find(ch, nc, 0x0F, 0x1A, 0);
        CHECK(fl != (size_t)-1 && geo != (size_t)-1);
        uint8_t *out = calloc(n + 512, 1);
        size_t at = 0;
        for (size_t i = 0; i < nc; i++)
            vks_test_put32(src + ch[i].offset + 8, 0x303);
#define PUT(v) (vks_test_put32(out + at, (v)), at += 4)
        PUT(0x10), PUT(0), PUT(0x303);   /* clump, size patched below */
        PUT(0x01), PUT(4), PUT(0x303), PUT(1); /* clump struct: numAtomics only */
        memcpy(out + at, src + ch[fl].offset, 12 + ch[fl].size), at += 12 + ch[fl].size;
        size_t atomic = at;
        PUT(0x14), PUT(0), PUT(0x303);
        PUT(0x01), PUT(12), PUT(0x303), PUT(0), PUT(0), PUT(5); /* frame, (unused), flags */
        size_t sk = vks_test_rw_find(ch, nc, 0x116, 0x03, 0);
        CHECK(sk != (size_t)-1 && ch[sk].offset + ch[sk].size == ch[geo].offset + ch[geo].size); /* skin ends it */
        size_t geo_at = at, skin_len = legacy ? 12 + ch[sk].size : 0;
        memcpy(out + at, src + ch[geo].offset, 12 + ch[geo].size - skin_len), at += 12 + ch[geo].size - skin_len;
        if (legacy) {
            /* drop the skin from the geometry (it is the last chunk of the geometry's extension) */
            vks_test_put32(out + geo_at + 4, ch[geo].size - (uint32_t)skin_len);
            size_t gext = (size_t)ch[sk].parent;
            size_t ext_at = geo_at + (ch[gext].offset - ch[geo].offset);
            vks_test_put32(out + ext_at + 4, ch[gext].size - (uint32_t)skin_len);
        }
        size_t aext = at;
        PUT(0x03), PUT(0), PUT(0x303);
        if (legacy) {
            const uint8_t *old = src + ch[sk].offset + 12;
            uint32_t nb = old[0];
            size_t sk_at = at;
            PUT(0x116), PUT(0), PUT(0x303);
            PUT(nb), PUT(NV);
            memcpy(out + at, old + 4, 20 * NV), at += 20 * NV;
            static const uint32_t flags[4] = {0, 0, 0, 1};
            for (uint32_t i = 0; i < nb; i++) {
                PUT(i + 1), PUT(i), PUT(flags[i]); /* HAnim ID = frame index (b0..b3 = 1..4) */
                memcpy(out + at, old + 4 + 20 * NV + 68 * i + 4, 64), at += 64;
            }
            vks_test_put32(out + sk_at + 4, (uint32_t)(at - sk_at - 12));
        }
        vks_test_put32(out + aext + 4, (uint32_t)(at - aext - 12));
        vks_test_put32(out + atomic + 4, (uint32_t)(at - atomic - 12));
        PUT(0x03), PUT(0), PUT(0x303);
        vks_test_put32(out + 4, (uint32_t)(at - 12));
#undef PUT
        vks_skin *r = NULL;
        vks_error err = {0};
        CHECK_EQ_INT(vks_rw_read(NULL, out, at, &r, &err), VKS_OK);
        if (err.code)
            fprintf(stderr, "embedded: %s: %s\n", err.path, err.msg);
        if (r) {
            check_common(o, r, legacy ? "3.0.3 embedded geometry, legacy atomic skin" : "3.0.3 embedded geometry");
            CHECK(strcmp(r->format_detail, "RW 3.0.3.0") == 0);
            compare_mesh(o, 0, r, 0, 1);
        }
        vks_skin_free(r);
        free(out), free(src);
        vks_skin_free(o);
    }
}

/* 5. two atomics (meshes on different frames, different bone sets), split groups */
static void two_atomics(void)
{
    vks_skin *o = make_model(3, 1, 0);
    CHECK_EQ_INT(o->mesh_count, 2);
    vks_skin *r = round_trip(o, 0, 0, NULL, NULL);
    CHECK(r != NULL);
    if (r) {
        check_common(o, r, "two atomics");
        CHECK_EQ_INT(r->mesh_count, 2);
        if (r->mesh_count == 2) {
            compare_mesh(o, 0, r, 0, 1);
            /* mesh B's skin covers the whole hierarchy (b0..b3): compare without groups */
            compare_mesh(o, 1, r, 1, 0);
            CHECK_EQ_INT(r->meshes[1].space_node, 5);
            CHECK_EQ_INT(r->meshes[1].bone_count, 4);
        }
    }
    /* LOCALSPACEMATRICES (0x4000) in the hierarchy flags: every skinned atomic is then in
       the space of the hierarchy frame's parent (root, node 0), whatever its own frame */
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_skin_free(round_trip(o, 0, 0, &bytes, &size));
    rw_test_chunk ch[256];
    size_t nc = vks_test_rw_chunks(bytes, size, ch, 256);
    size_t owner = (size_t)-1;
    for (size_t h = 0; h < 8; h++) {
        size_t hi = vks_test_rw_find(ch, nc, 0x11E, 0x03, h);
        if (hi != (size_t)-1 && vks_test_le32(bytes + ch[hi].offset + 12 + 8) > 0)
            owner = hi;
    }
    CHECK(owner != (size_t)-1);
    if (owner != (size_t)-1) {
        vks_test_put32(bytes + ch[owner].offset + 12 + 12, 0x4000);
        vks_skin *l = NULL;
        vks_error err = {0};
        CHECK_EQ_INT(vks_rw_read(NULL, bytes, size, &l, &err), VKS_OK);
        if (l && l->mesh_count == 2) {
            CHECK_EQ_INT(l->meshes[0].space_node, 0);
            CHECK_EQ_INT(l->meshes[1].space_node, 0);
        }
        vks_skin_free(l);
    }
    free(bytes);
    vks_skin_free(r);
    vks_skin_free(o);
}

/* 6. space_node -1: the atomic goes on frame 0 and the inverse binds absorb W(0) */
static void no_space_node(void)
{
    vks_skin *o = make_model(0, 0, -1);
    vks_skin *r = round_trip(o, 0, 0, NULL, NULL);
    CHECK(r != NULL);
    if (r) {
        check_common(o, r, "space_node -1");
        compare_mesh(o, 0, r, 0, 1);
    }
    vks_skin_free(r);
    vks_skin_free(o);
}

/* 7. the procedural character (one group, then palette-limited groups) through the writer */
static void procedural_character(void)
{
    for (uint32_t limit = 0; limit <= 16; limit += 16) {
        vks_gen_params gp;
        memset(&gp, 0, sizeof gp);
        gp.vertices = 3000;
        gp.palette_limit = limit;
        vks_error err = {0};
        vks_skin *o = vks_gen_character(&gp, &err);
        CHECK(o != NULL);
        if (!o) {
            fprintf(stderr, "generator: %s: %s\n", err.path, err.msg);
            continue;
        }
        for (int strips = 0; strips < 2; strips++) {
            vks_skin *r = round_trip(o, 0, strips, NULL, NULL);
            CHECK(r != NULL);
            if (!r)
                continue;
            char what[64];
            snprintf(what, sizeof what, "character (%u bones, %u vertices, %u groups, %s)", o->bone_count,
                     o->vertex_count, o->group_count, strips ? "strips" : "lists");
            check_common(o, r, what);
            CHECK_EQ_INT(r->mesh_count, o->mesh_count);
            if (limit)
                CHECK(r->group_count >= o->group_count);
            for (uint32_t m = 0; m < o->mesh_count && m < r->mesh_count; m++)
                compare_mesh(o, m, r, m, 1);
            vks_skin_free(r);
        }
        vks_skin_free(o);
    }
}

/* 9. UV sets and a textured material */
static void uv_sets_and_material(void)
{
    /* 9. UV sets and a textured material (issue 26) round trip at 3.6.0.3 and 3.3.0.2 (no surface
          properties in the material struct), lists and strips: u = v / 16, v = 1 - v / 32 in
          set 0 and their swap in set 1; colour (0.5, 0.25, 1, 1) as 8-bit (128, 64, 255, 255),
          texture "hero_body"; the model's second material (triangles 4..) green, untextured. The
          reader has 1/255 steps of colour. */
    for (int variant = 0; variant < 2; variant++) {
        vks_skin *o = make_model(0, 0, 0);
        for (uint32_t k = 0; k < 2; k++) {
            o->uv[k] = vks_skin_alloc_array(o, o->vertex_count, sizeof *o->uv[k]);
            for (uint32_t v = 0; o->uv[k] && v < o->vertex_count; v++) {
                float a = (float)v / 16, b = 1.0f - (float)v / 32;
                o->uv[k][v][0] = k ? b : a, o->uv[k][v][1] = k ? a : b;
            }
        }
        o->uv_set_count = o->meshes[0].uv_set_count = 2;
        o->materials = vks_skin_alloc_array(o, 2, sizeof *o->materials);
        o->materials[0] = o->materials[1] = vks_material_default();
        o->materials[1].base_color[0] = o->materials[1].base_color[2] = 0;
        o->materials[0].base_color[0] = 0.5f, o->materials[0].base_color[1] = 0.25f;
        o->materials[0].base_texture = "hero_body";
        o->material_count = o->meshes[0].material_count = 2;
        vks_error err = {0};
        CHECK_EQ_INT(vks_skin_validate(o, &err), VKS_OK);
        vks_skin *r = round_trip(o, variant ? 0x33002 : 0, variant, NULL, NULL);
        CHECK(r != NULL);
        if (r) {
            CHECK_EQ_INT(r->uv_set_count, 2);
            CHECK_EQ_INT(r->meshes[0].uv_set_count, 2);
            for (uint32_t v = 0; v < r->vertex_count && r->uv_set_count == 2; v++) {
                uint32_t f = r->source_vertex[v]; /* the writer writes model vertices in order */
                for (uint32_t k = 0; k < 2; k++)
                    CHECK(r->uv[k][v][0] == o->uv[k][f][0] && r->uv[k][v][1] == o->uv[k][f][1]);
            }
            CHECK_EQ_INT(r->material_count, 2);
            const vks_material *g = vks_skin_triangle_material(r, 0, 4);
            CHECK(g && g->base_color[0] == 0 && g->base_color[1] == 1 && g->base_color[2] == 0 && !g->base_texture[0]);
            const vks_material *m = vks_skin_triangle_material(r, 0, 0);
            CHECK(m != NULL);
            if (m) {
                CHECK(!strcmp(m->base_texture, "hero_body"));
                CHECK_NEAR(m->base_color[0], 128 / 255.0, 1e-6);
                CHECK_NEAR(m->base_color[1], 64 / 255.0, 1e-6);
                CHECK(m->base_color[2] == 1 && m->base_color[3] == 1 && m->base_image == -1);
            }
            vks_skin_free(r);
        }
        vks_skin_free(o);
    }
}

/* 8. refusals: two bones on one node; a version the writer does not write */
static void refusals(void)
{
    vks_skin *o = make_model(0, 0, 0);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    vks_write_options wo = {0x30000, 0, 0};
    CHECK_EQ_INT(vks_rw_write(o, &wo, &bytes, &size, &err), VKS_ERR_UNSUPPORTED);
    CHECK(bytes == NULL && err.msg[0]);
    o->bones[1].node = o->bones[0].node;
    memset(&err, 0, sizeof err);
    CHECK(vks_rw_write(o, NULL, &bytes, &size, &err) != VKS_OK);
    CHECK(bytes == NULL && err.msg[0]);
    vks_skin_free(o);
}

int main(void)
{
    one_group_lists();
    split_groups();
    old_skin_layout();
    old_stamps();
    geometry_in_atomic();
    two_atomics();
    no_space_node();
    procedural_character();
    uv_sets_and_material();
    refusals();
    return vks_test_finish("test_rw_write");
}
