/* Hostile inputs, built here byte by byte for each reader (RenderWare, NIF, .cmdl, P3D MLOD
 * and ODOL): small files that declare huge counts, share one geometry among thousands of
 * meshes, or make a reader's work grow faster than the file (long chains, many names, many
 * LZO end-marker candidates, many sections). Each must fail cleanly (a status and a
 * message), or, where the bytes are a valid if odd model, read one that validates; either
 * way without allocating far more than the file justifies: every reader takes
 * vks_read_options.allocator, the test gives a counting one and checks the peak of live
 * bytes. The time each read took is printed; CTest's timeout guards the quadratic cases.
 *
 *   test_hostile_inputs               run the checks
 *   test_hostile_inputs --dump DIR    also write each crafted file to DIR (for vkskin inspect) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "character.h"
#include "formats/p3d/p3d_internal.h"
#include "testutil.h"
#include "vkskin.h"

/* ---- a growable byte buffer ------------------------------------------------------------ */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            fprintf(stderr, "out of memory building a test input\n");
            exit(1);
        }
        b->p = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void u8(buf *b, uint8_t v) { put(b, &v, 1); }
static void u16(buf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(b, x, 2);
}
static void u32(buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}
static void f32(buf *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    u32(b, v);
}
static void zeros(buf *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        u8(b, 0);
}
static void str(buf *b, const char *s) { put(b, s, strlen(s)); }
static void patch32(buf *b, size_t at, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        b->p[at + (size_t)k] = (uint8_t)(v >> (8 * k));
}

/* ---- a counting allocator ---------------------------------------------------------------- */

typedef struct counter {
    size_t live, peak;
} counter;

static void *count_alloc(void *user, size_t size)
{
    counter *c = user;
    if (size > SIZE_MAX - 16)
        return NULL;
    uint8_t *p = malloc(size + 16);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    c->live += size;
    if (c->live > c->peak)
        c->peak = c->live;
    return p + 16;
}

static void count_free(void *user, void *ptr)
{
    if (!ptr)
        return;
    counter *c = user;
    uint8_t *p = (uint8_t *)ptr - 16;
    size_t size;
    memcpy(&size, p, sizeof size);
    c->live -= size;
    free(p);
}

/* ---- the check ----------------------------------------------------------------------------- */

static const char *dump_dir;

#define MiB (1024.0 * 1024.0)

/* Reads bytes with default limits and a counting allocator: the read must fail with a message,
 * and the peak of live reader allocations must stay under max_peak bytes. */
static void expect_bounded(const char *name, vks_reader_fn fn, const vks_read_options *base, const buf *b,
                           size_t max_peak, int may_succeed);

static void expect_clean_failure(const char *name, vks_reader_fn fn, const vks_read_options *base, const buf *b,
                                 size_t max_peak)
{
    expect_bounded(name, fn, base, b, max_peak, 0);
}

/* As above, but where the input is a valid (if huge) model, a success that validates is fine:
 * what is checked is that the reader gets there without runaway allocation. */
static void expect_bounded(const char *name, vks_reader_fn fn, const vks_read_options *base, const buf *b,
                           size_t max_peak, int may_succeed)
{
    if (dump_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dump_dir, name);
        FILE *fp = fopen(path, "wb");
        if (fp) {
            fwrite(b->p, 1, b->n, fp);
            fclose(fp);
        }
    }
    counter cnt = {0, 0};
    vks_read_options opt;
    if (base)
        opt = *base;
    else
        memset(&opt, 0, sizeof opt);
    opt.allocator.alloc = count_alloc;
    opt.allocator.free = count_free;
    opt.allocator.user = &cnt;
    vks_skin *skin = NULL;
    vks_error err;
    memset(&err, 0, sizeof err);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    vks_result rc = fn(&opt, b->p, b->n, &skin, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%-28s %8zu bytes  rc %d  peak %8.2f MiB  %6.3f s  %s\n", name, b->n, (int)rc, (double)cnt.peak / MiB, s,
           err.msg);
    if (rc == VKS_OK && may_succeed) {
        vks_error e2;
        memset(&e2, 0, sizeof e2);
        CHECK(vks_skin_validate(skin, &e2) == VKS_OK);
    } else {
        CHECK(rc != VKS_OK);
        CHECK(err.msg[0] != 0);
        CHECK(skin == NULL);
    }
    if (rc == VKS_OK)
        vks_skin_free(skin);
    if (cnt.peak > max_peak)
        fprintf(stderr, "%s: peak %.2f MiB over %.2f MiB\n", name, (double)cnt.peak / MiB, (double)max_peak / MiB);
    CHECK(cnt.peak <= max_peak);
    CHECK_EQ_INT(cnt.live, 0);
}

/* ---- RenderWare -------------------------------------------------------------------------- */

#define RW_STAMP 0x1803FFFFu /* RW 3.6.0.3 */

static size_t rw_begin(buf *b, uint32_t type)
{
    u32(b, type);
    size_t at = b->n;
    u32(b, 0);
    u32(b, RW_STAMP);
    return at;
}
static void rw_end(buf *b, size_t at) { patch32(b, at, (uint32_t)(b->n - at - 8)); }

/* Frame list: one root frame; with_hanim gives it a one-node HAnim hierarchy (node ID 0). */
static void rw_frame_list(buf *b, int with_hanim)
{
    size_t fl = rw_begin(b, 0x0E);
    size_t st = rw_begin(b, 0x01);
    u32(b, 1);
    float m[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    for (int k = 0; k < 12; k++)
        f32(b, m[k]);
    u32(b, (uint32_t)-1);
    u32(b, 0);
    rw_end(b, st);
    size_t ext = rw_begin(b, 0x03);
    if (with_hanim) {
        size_t h = rw_begin(b, 0x11E);
        u32(b, 0x100); /* version */
        u32(b, 0);     /* node ID */
        u32(b, 1);     /* nodes */
        u32(b, 0);     /* flags */
        u32(b, 36);    /* key frame size */
        u32(b, 0);     /* node 0: ID, index, flags */
        u32(b, 0);
        u32(b, 0);
        rw_end(b, h);
    }
    rw_end(b, ext);
    rw_end(b, fl);
}

static void rw_atomic(buf *b, uint32_t geometry)
{
    size_t a = rw_begin(b, 0x14);
    size_t st = rw_begin(b, 0x01);
    u32(b, 0); /* frame */
    u32(b, geometry);
    u32(b, 5);
    u32(b, 0);
    rw_end(b, st);
    size_t ext = rw_begin(b, 0x03);
    rw_end(b, ext);
    rw_end(b, a);
}

/* A geometry whose header declares nv vertices with positions and normals, none present. */
static void rw_huge_vertex_count(buf *b)
{
    size_t clump = rw_begin(b, 0x10);
    size_t st = rw_begin(b, 0x01);
    u32(b, 1);
    u32(b, 0);
    u32(b, 0);
    rw_end(b, st);
    rw_frame_list(b, 0);
    size_t gl = rw_begin(b, 0x1A);
    st = rw_begin(b, 0x01);
    u32(b, 1);
    rw_end(b, st);
    size_t g = rw_begin(b, 0x0F);
    st = rw_begin(b, 0x01);
    u32(b, 0x12);       /* positions, normals */
    u32(b, 0);          /* triangles */
    u32(b, 1u << 24);   /* vertices: exactly the default limit */
    u32(b, 1);          /* morph targets */
    zeros(b, 16);       /* bounding sphere */
    u32(b, 1);          /* has vertices */
    u32(b, 1);          /* has normals */
    rw_end(b, st);
    rw_end(b, g);
    rw_end(b, gl);
    rw_atomic(b, 0);
    rw_end(b, clump);
}

/* One skinned geometry of nv vertices and nt triangles, and many atomics that all draw it. */
static void rw_shared_geometry(buf *b, uint32_t nv, uint32_t nt, uint32_t atomics)
{
    size_t clump = rw_begin(b, 0x10);
    size_t st = rw_begin(b, 0x01);
    u32(b, atomics);
    u32(b, 0);
    u32(b, 0);
    rw_end(b, st);
    rw_frame_list(b, 1);
    size_t gl = rw_begin(b, 0x1A);
    st = rw_begin(b, 0x01);
    u32(b, 1);
    rw_end(b, st);
    size_t g = rw_begin(b, 0x0F);
    st = rw_begin(b, 0x01);
    u32(b, 0x02); /* positions */
    u32(b, nt);
    u32(b, nv);
    u32(b, 1);
    for (uint32_t t = 0; t < nt; t++) {
        u16(b, 1);
        u16(b, 0);
        u16(b, 0);
        u16(b, 2); /* v1, v0, material, v2 */
    }
    zeros(b, 16);
    u32(b, 1);
    u32(b, 0);
    for (uint32_t v = 0; v < nv; v++) {
        f32(b, (float)(v % 7));
        f32(b, (float)(v % 11));
        f32(b, (float)(v % 13));
    }
    rw_end(b, st);
    size_t ext = rw_begin(b, 0x03);
    size_t sk = rw_begin(b, 0x116);
    u8(b, 1); /* bones */
    u8(b, 1); /* used bones */
    u8(b, 1); /* max weights */
    u8(b, 0);
    u8(b, 0); /* used bone 0 */
    for (uint32_t v = 0; v < nv; v++)
        u32(b, 0);
    for (uint32_t v = 0; v < nv; v++) {
        f32(b, 1);
        f32(b, 0);
        f32(b, 0);
        f32(b, 0);
    }
    float inv[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int k = 0; k < 16; k++)
        f32(b, inv[k]);
    u32(b, 0); /* bone limit, split meshes, RLE count */
    u32(b, 0);
    u32(b, 0);
    rw_end(b, sk);
    rw_end(b, ext);
    rw_end(b, g);
    rw_end(b, gl);
    for (uint32_t a = 0; a < atomics; a++)
        rw_atomic(b, 0);
    rw_end(b, clump);
}

/* Frame list: a chain of n frames (frame i's parent is i - 1), frame i with HAnim ID i, and
 * frame 0 holding a hierarchy of n nodes in the same chain. */
static void rw_chain_frames(buf *b, uint32_t n)
{
    size_t fl = rw_begin(b, 0x0E);
    size_t st = rw_begin(b, 0x01);
    u32(b, n);
    for (uint32_t i = 0; i < n; i++) {
        float m[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.1f, 0};
        for (int k = 0; k < 12; k++)
            f32(b, m[k]);
        u32(b, i - 1); /* -1 for frame 0 */
        u32(b, 0);
    }
    rw_end(b, st);
    for (uint32_t i = 0; i < n; i++) {
        size_t ext = rw_begin(b, 0x03);
        size_t h = rw_begin(b, 0x11E);
        u32(b, 0x100);
        u32(b, i);
        u32(b, i == 0 ? n : 0);
        if (i == 0) {
            u32(b, 0);
            u32(b, 36);
            for (uint32_t k = 0; k < n; k++) {
                u32(b, k);
                u32(b, k);
                u32(b, 0);
            }
        }
        rw_end(b, h);
        rw_end(b, ext);
    }
    rw_end(b, fl);
}

/* One geometry (3 vertices, skinned to bone 0 of nb) whose Skin PLG splits it into `meshes`
 * Bin Mesh meshes of no indices, each with all nb bones in its palette (one shared RLE run). */
static void rw_split_atomics(buf *b, uint32_t nb, uint32_t meshes, uint32_t atomics)
{
    size_t clump = rw_begin(b, 0x10);
    size_t st = rw_begin(b, 0x01);
    u32(b, atomics);
    u32(b, 0);
    u32(b, 0);
    rw_end(b, st);
    rw_chain_frames(b, nb);
    size_t gl = rw_begin(b, 0x1A);
    st = rw_begin(b, 0x01);
    u32(b, 1);
    rw_end(b, st);
    size_t g = rw_begin(b, 0x0F);
    st = rw_begin(b, 0x01);
    u32(b, 0x02);
    u32(b, 1);
    u32(b, 3);
    u32(b, 1);
    u16(b, 1);
    u16(b, 0);
    u16(b, 0);
    u16(b, 2);
    zeros(b, 16);
    u32(b, 1);
    u32(b, 0);
    for (int v = 0; v < 3; v++) {
        f32(b, (float)v);
        f32(b, (float)(v * v));
        f32(b, 0);
    }
    rw_end(b, st);
    size_t ext = rw_begin(b, 0x03);
    size_t bm = rw_begin(b, 0x50E);
    u32(b, 0); /* lists */
    u32(b, meshes);
    u32(b, 0);
    for (uint32_t m = 0; m < meshes; m++) {
        u32(b, 0); /* indices */
        u32(b, 0); /* material */
    }
    rw_end(b, bm);
    size_t sk = rw_begin(b, 0x116);
    u8(b, (uint8_t)nb);
    u8(b, 1);
    u8(b, 1);
    u8(b, 0);
    u8(b, 0);
    for (int v = 0; v < 3; v++)
        u32(b, 0);
    for (int v = 0; v < 3; v++) {
        f32(b, 1);
        f32(b, 0);
        f32(b, 0);
        f32(b, 0);
    }
    for (uint32_t k = 0; k < nb; k++) {
        float inv[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.1f * (float)k, 0, 1};
        for (int j = 0; j < 16; j++)
            f32(b, inv[j]);
    }
    u32(b, 64); /* bone limit */
    u32(b, meshes);
    u32(b, 1); /* RLE runs */
    for (uint32_t k = 0; k < nb; k++)
        u8(b, (uint8_t)k); /* remap */
    for (uint32_t m = 0; m < meshes; m++) {
        u8(b, 0); /* first run */
        u8(b, 1); /* runs */
    }
    u8(b, 0); /* the run: bones 0 .. nb - 1 */
    u8(b, (uint8_t)nb);
    rw_end(b, sk);
    rw_end(b, ext);
    rw_end(b, g);
    rw_end(b, gl);
    for (uint32_t a = 0; a < atomics; a++)
        rw_atomic(b, 0);
    rw_end(b, clump);
}

static void rw_split_meshes(buf *b, uint32_t nb, uint32_t meshes) { rw_split_atomics(b, nb, meshes, 1); }

/* A clump of a long frame chain with a hierarchy over all of it and no atomics: attaching
 * the nodes to frames and checking parents against the frame tree is all the work. */
static void rw_long_hierarchy(buf *b, uint32_t n)
{
    size_t clump = rw_begin(b, 0x10);
    size_t st = rw_begin(b, 0x01);
    u32(b, 0);
    u32(b, 0);
    u32(b, 0);
    rw_end(b, st);
    rw_chain_frames(b, n);
    rw_end(b, clump);
}

static void test_rw(void)
{
    buf b = {0};
    rw_huge_vertex_count(&b);
    expect_clean_failure("rw_huge_vertex_count.dff", vks_rw_read, NULL, &b, (size_t)(4 * MiB));
    b.n = 0;
    /* 3000 vertices (96 KB) drawn by 4096 atomics: 12 M vertices of output from a 300 KB file */
    rw_shared_geometry(&b, 3000, 1, 4096);
    expect_clean_failure("rw_shared_geometry.dff", vks_rw_read, NULL, &b, (size_t)(64 * MiB));
    b.n = 0;
    /* 3 vertices and 60000 triangles (480 KB) drawn by 4096 atomics: 245 M triangles */
    rw_shared_geometry(&b, 3, 60000, 4096);
    expect_clean_failure("rw_shared_triangles.dff", vks_rw_read, NULL, &b, (size_t)(64 * MiB));
    b.n = 0;
    /* 10000 frames and HAnim nodes (1 MB) */
    rw_long_hierarchy(&b, 10000);
    expect_clean_failure("rw_long_hierarchy.dff", vks_rw_read, NULL, &b, (size_t)(16 * MiB));
    b.n = 0;
    /* 100000 split meshes of 255 bones each in 1 MB: over the mesh limit */
    rw_split_meshes(&b, 255, 100000);
    expect_clean_failure("rw_split_meshes.dff", vks_rw_read, NULL, &b, (size_t)(16 * MiB));
    b.n = 0;
    /* one 3-vertex geometry with 255 bones drawn by 4096 atomics (230 KB) */
    rw_split_atomics(&b, 255, 1, 4096);
    expect_bounded("rw_shared_bones.dff", vks_rw_read, NULL, &b, (size_t)(64 * MiB), 1);
    b.n = 0;
    /* at the limit it reads (empty groups and all) */
    rw_split_meshes(&b, 255, 4096);
    expect_bounded("rw_split_meshes_4096.dff", vks_rw_read, NULL, &b, (size_t)(64 * MiB), 1);
    free(b.p);
}

/* ---- NIF ----------------------------------------------------------------------------------- */

/* A 4.0.0.2 header declaring as many blocks as there are bytes after it (all zero). */
static void nif_many_blocks(buf *b, size_t size)
{
    str(b, "NetImmerse File Format, Version 4.0.0.2\n");
    u32(b, 0x04000002u);
    size_t at = b->n;
    u32(b, 0);
    patch32(b, at, (uint32_t)(size - b->n));
    zeros(b, size - b->n);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* A 20.2.0.7 file from the NIF writer (Skyrim LE profile: user 12, bsver 83) with its first
 * NiTriShape block appended copies more times: each copy draws the same data and skin. */
static int nif_shared_data(buf *b, const uint8_t *in, size_t size, uint32_t copies)
{
    size_t p = 0;
    while (p < size && in[p] != '\n')
        p++;
    p++;
    if (rd32(in + p) != 0x14020007u)
        return 0;
    p += 4 + 1 + 4; /* version, endian, user */
    size_t nblocks_at = p;
    uint32_t nb = rd32(in + p);
    p += 4;
    p += 4; /* bsver */
    for (int k = 0; k < 3; k++)
        p += 1 + in[p];
    uint16_t nt = rd16(in + p);
    p += 2;
    int32_t shape_type = -1;
    for (uint16_t t = 0; t < nt; t++) {
        uint32_t len = rd32(in + p);
        if (len == 10 && memcmp(in + p + 4, "NiTriShape", 10) == 0)
            shape_type = t;
        p += 4 + len;
    }
    size_t idx_at = p, sizes_at = p + 2 * (size_t)nb, after_sizes = sizes_at + 4 * (size_t)nb;
    int32_t shape = -1;
    size_t body = 0, shape_body = 0;
    for (uint32_t i = 0; i < nb; i++)
        if (shape < 0 && rd16(in + idx_at + 2 * i) == shape_type)
            shape = (int32_t)i;
    if (shape < 0)
        return 0;
    /* the blocks start after the string table and the groups */
    p = after_sizes;
    uint32_t ns = rd32(in + p);
    p += 8;
    for (uint32_t i = 0; i < ns; i++)
        p += 4 + rd32(in + p);
    p += 4 + 4 * (size_t)rd32(in + p);
    body = p;
    for (uint32_t i = 0; i < (uint32_t)shape; i++)
        body += rd32(in + sizes_at + 4 * i);
    shape_body = body;
    uint32_t shape_size = rd32(in + sizes_at + 4 * (size_t)shape);
    size_t blocks_end = p;
    for (uint32_t i = 0; i < nb; i++)
        blocks_end += rd32(in + sizes_at + 4 * i);

    put(b, in, nblocks_at);
    u32(b, nb + copies);
    put(b, in + nblocks_at + 4, idx_at - nblocks_at - 4);
    put(b, in + idx_at, 2 * (size_t)nb);
    for (uint32_t k = 0; k < copies; k++)
        u16(b, (uint16_t)shape_type);
    put(b, in + sizes_at, 4 * (size_t)nb);
    for (uint32_t k = 0; k < copies; k++)
        u32(b, shape_size);
    put(b, in + after_sizes, blocks_end - after_sizes);
    for (uint32_t k = 0; k < copies; k++)
        put(b, in + shape_body, shape_size);
    put(b, in + blocks_end, size - blocks_end); /* footer */
    return 1;
}

static void test_nif(void)
{
    buf b = {0};
    nif_many_blocks(&b, 1u << 20);
    expect_clean_failure("nif_many_blocks.nif", vks_nif_read, NULL, &b, (size_t)(8 * MiB));
    b.n = 0;

    vks_gen_params gp;
    memset(&gp, 0, sizeof gp);
    gp.seed = 5;
    gp.bones = 20;
    gp.vertices = 3000;
    gp.max_influences = 1;
    vks_error e;
    memset(&e, 0, sizeof e);
    vks_skin *model = vks_gen_character(&gp, &e);
    CHECK(model != NULL);
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (model && vks_nif_write(model, NULL, &bytes, &size, &e) == VKS_OK) {
        /* a shape block is about 100 bytes: 4000 of them, each drawing the 3000 vertices */
        CHECK(nif_shared_data(&b, bytes, size, 4000));
        expect_clean_failure("nif_shared_data.nif", vks_nif_read, NULL, &b, (size_t)(64 * MiB));
    } else {
        CHECK(!"NIF writer failed");
    }
    free(bytes);
    vks_skin_free(model);
    free(b.p);
}

/* ---- P3D ----------------------------------------------------------------------------------- */

/* model.cfg text: a skeleton of n bones listed children first (bone i's parent is bone i+1), so
 * ordering them parents first and resolving each parent's name is where the time goes. */
static void p3d_long_chain_cfg(buf *b, uint32_t n)
{
    char line[64];
    str(b, "class CfgSkeletons { class S { skeletonBones[] = {");
    for (uint32_t i = 0; i < n; i++) {
        if (i + 1 < n)
            snprintf(line, sizeof line, "%s\"b%u\",\"b%u\"", i ? "," : "", i, i + 1);
        else
            snprintf(line, sizeof line, ",\"b%u\",\"\"", i);
        str(b, line);
    }
    str(b, "}; }; };\nclass CfgModels { class p3d_long_chain { skeletonName = \"S\"; }; };\n");
}

static void test_p3d(void)
{
    vks_gen_params gp;
    memset(&gp, 0, sizeof gp);
    gp.seed = 9;
    gp.bones = 20;
    gp.vertices = 600;
    gp.max_influences = 1;
    vks_error e;
    memset(&e, 0, sizeof e);
    vks_skin *model = vks_gen_character(&gp, &e);
    CHECK(model != NULL);
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (!model || vks_p3d_write(model, NULL, &bytes, &size, &e) != VKS_OK) {
        CHECK(!"P3D writer failed");
        vks_skin_free(model);
        return;
    }
    buf mlod = {0};
    put(&mlod, bytes, size);
    buf cfg = {0};
    /* 65000 bones (the node limit) in 1.2 MB of model.cfg */
    p3d_long_chain_cfg(&cfg, 65000);
    vks_read_options opt;
    memset(&opt, 0, sizeof opt);
    opt.p3d.model_cfg = (const char *)cfg.p;
    opt.p3d.model_cfg_size = cfg.n;
    opt.p3d.model_name = "p3d_long_chain";
    expect_bounded("p3d_long_chain.p3d", vks_p3d_read, &opt, &mlod, (size_t)(64 * MiB), 1);
    if (dump_dir) {
        char path[1024];
        snprintf(path, sizeof path, "%s/p3d_long_chain.model.cfg", dump_dir);
        FILE *fp = fopen(path, "wb");
        if (fp) {
            fwrite(cfg.p, 1, cfg.n, fp);
            fclose(fp);
        }
    }
    free(cfg.p);
    free(mlod.p);
    free(bytes);
    vks_skin_free(model);
}

/* An LZO1X stream: 4 literals, then M3 matches at distance 1 (each zero length byte adds 255
 * output bytes) giving `out` bytes, then the end marker 0x11 0 0 followed by `markers` more
 * copies of it. Every copy is a place where the stream might end; each one tried by
 * decompressing the prefix before it redoes the whole output. */
static void lzo_many_markers(buf *b, size_t out, uint32_t markers)
{
    u8(b, 17 + 4);
    str(b, "AAAA");
    size_t made = 4;
    while (made + 33 + 255 * 4096 <= out) { /* 4096 zero bytes: 1 MB of output per match */
        u8(b, 0x20);
        zeros(b, 4096);
        u8(b, 1);
        u16(b, 0); /* distance 1, no trailing literals */
        made += 31 + 255 * 4096 + 1 + 2;
    }
    for (uint32_t k = 0; k <= markers; k++) {
        u8(b, 0x11);
        u16(b, 0);
    }
}

static void test_p3d_lzo(void)
{
    buf b = {0};
    lzo_many_markers(&b, 64u << 20, 511);
    /* declared: one byte more than the stream gives, so no candidate end matches */
    size_t want = 0;
    {
        size_t made = 4;
        while (made + 33 + 255 * 4096 <= (64u << 20))
            made += 31 + 255 * 4096 + 1 + 2;
        want = made + 1;
    }
    p3d_pool pool = {0};
    vks_cursor c = vks_cur_make(b.p, b.n);
    const uint8_t *out = NULL;
    vks_error err;
    memset(&err, 0, sizeof err);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    vks_result rc = p3d_read_compressed(&pool, &c, 44, want, &out, "lzo", &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%-28s %8zu bytes  rc %d  %6.3f s  %s\n", "p3d_lzo_many_markers", b.n, (int)rc, sec, err.msg);
    CHECK(rc != VKS_OK);
    CHECK(err.msg[0] != 0);
    p3d_pool_free(&pool);

    /* the same stream declared at its real size: decodes, and the cursor stops after the
       first marker */
    memset(&pool, 0, sizeof pool);
    c = vks_cur_make(b.p, b.n);
    memset(&err, 0, sizeof err);
    rc = p3d_read_compressed(&pool, &c, 44, want - 1, &out, "lzo", &err);
    CHECK(rc == VKS_OK);
    CHECK_EQ_INT(vks_cur_left(&c), 3 * 511);
    CHECK(out && out[0] == 'A' && out[want - 2] == 'A');
    p3d_pool_free(&pool);
    free(b.p);
}

/* ---- NW4C .cmdl ---------------------------------------------------------------------------- */

/* The writer's .cmdl of a small character with `materials` extra materials and `meshes` extra
 * Mesh elements (before the real one) that point at shape 0 with a material no one has. */
static int cmdl_many_refs(buf *b, const uint8_t *in, size_t size, uint32_t materials, uint32_t meshes)
{
    const char *text = (const char *)in;
    const char *mat_end = strstr(text, "</Materials>");
    const char *mesh_start = strstr(text, "<Meshes>");
    if (!mat_end || !mesh_start || mesh_start < mat_end)
        return 0;
    mesh_start += strlen("<Meshes>");
    char line[160];
    put(b, text, (size_t)(mat_end - text));
    for (uint32_t i = 0; i < materials; i++) {
        snprintf(line, sizeof line, "<M Name=\"m%u\"/>", i);
        str(b, line);
    }
    put(b, mat_end, (size_t)(mesh_start - mat_end));
    for (uint32_t i = 0; i < meshes; i++)
        str(b, "<Mesh><SeparateShapeReference>Shapes[0]</SeparateShapeReference>"
               "<MaterialReference>Materials[\"none\"]</MaterialReference></Mesh>");
    put(b, mesh_start, size - (size_t)(mesh_start - text));
    return 1;
}

static void test_cmdl(void)
{
    vks_gen_params gp;
    memset(&gp, 0, sizeof gp);
    gp.seed = 3;
    gp.bones = 20;
    gp.vertices = 600;
    gp.max_influences = 2;
    vks_error e;
    memset(&e, 0, sizeof e);
    vks_skin *model = vks_gen_character(&gp, &e);
    uint8_t *bytes = NULL;
    size_t size = 0;
    CHECK(model != NULL);
    if (!model || vks_cmdl_write(model, NULL, &bytes, &size, &e) != VKS_OK) {
        CHECK(!"cmdl writer failed");
        vks_skin_free(model);
        return;
    }
    buf b = {0};
    /* 40000 materials and 3000 meshes (1 MB): shape 0's material looked up once per mesh */
    CHECK(cmdl_many_refs(&b, bytes, size, 40000, 3000));
    expect_bounded("cmdl_many_refs.cmdl", vks_cmdl_read, NULL, &b, (size_t)(64 * MiB), 1);
    free(b.p);
    free(bytes);
    vks_skin_free(model);
}

/* ---- ODOL v73 ------------------------------------------------------------------------------- */

typedef struct odol_spec {
    uint32_t bones;      /* skeleton bones "b<i>" (parent: the previous bone), 0: no skeleton */
    uint32_t points;     /* vertices, positions as one LZO block of zeros */
    uint32_t faces;      /* triangles (0, 1, 2) */
    uint32_t sections;   /* sections, the last one covering every face */
    uint32_t selections; /* named selections "b<i>", each selecting point i % points */
    int raw;             /* positions stored, not LZO */
} odol_spec;

/* An LZO1X block of exactly n (>= 38) zero bytes: 4 literals and one long match. */
static void lzo_zeros(buf *b, uint32_t n)
{
    u8(b, 17 + 4);
    zeros(b, 4);
    uint32_t len = n - 4 - 2, z = (len - 32) / 255;
    u8(b, 0x20);
    zeros(b, z);
    u8(b, (uint8_t)(len - 31 - 255 * z));
    u16(b, 0); /* distance 1 */
    u8(b, 0x11);
    u16(b, 0); /* end */
}

static void asciiz(buf *b, const char *s) { put(b, s, strlen(s) + 1); }

static void odol_file(buf *b, const odol_spec *sp)
{
    char name[32];
    str(b, "ODOL");
    u32(b, 73);
    u32(b, 0);     /* app id */
    asciiz(b, ""); /* muzzle flash */
    u32(b, 1);     /* LODs */
    f32(b, 1.0f);  /* resolution */
    /* model info */
    zeros(b, 72 + 4 + 4 + 24);
    f32(b, 0), f32(b, 0), f32(b, 0); /* bounding centre */
    zeros(b, 64 + 1 + 16 + 8 + 1 + 5 + 4 + 1);
    if (sp->bones) {
        asciiz(b, "skel");
        u8(b, 0); /* not discrete */
        u32(b, sp->bones);
        for (uint32_t i = 0; i < sp->bones; i++) {
            snprintf(name, sizeof name, "b%u", i);
            asciiz(b, name);
            snprintf(name, sizeof name, "b%u", i - 1);
            asciiz(b, i ? name : "");
        }
        asciiz(b, ""); /* pivots */
    } else {
        asciiz(b, "");
    }
    u8(b, 0);  /* map type */
    u32(b, 0); /* mass array */
    zeros(b, 16 + 4 + 1 + 1 + 16 + 1);
    asciiz(b, "");
    asciiz(b, "");
    u8(b, 0);
    u32(b, 0);
    zeros(b, 12); /* preferred shadow LODs */
    u8(b, 0);     /* no animations */
    /* LOD table: start, end, loadable */
    size_t table = b->n;
    u32(b, 0);
    u32(b, 0);
    u8(b, 1);
    size_t start = b->n;
    u32(b, 0);          /* proxies */
    u32(b, 0);          /* sub-skeleton bones */
    u32(b, 0);          /* skeleton to sub-skeleton */
    u32(b, sp->points); /* vertex count */
    zeros(b, 4 + 48);
    u32(b, 0); /* textures */
    u32(b, 0); /* materials */
    u32(b, 0); /* point to vertex */
    u32(b, 0); /* vertex to point */
    u32(b, sp->faces);
    zeros(b, 6);
    for (uint32_t f = 0; f < sp->faces; f++) {
        u8(b, 3);
        u32(b, 0);
        u32(b, 1);
        u32(b, 2);
    }
    u32(b, sp->sections);
    for (uint32_t k = 0; k < sp->sections; k++) {
        u32(b, 0); /* only the last section holds faces: every face looks at them all */
        u32(b, k + 1 == sp->sections ? 0x7FFFFFFF : 0);
        zeros(b, 18);
        u32(b, 0); /* material */
        u32(b, 0); /* area over texture */
        u32(b, 0); /* flag */
    }
    u32(b, sp->selections);
    for (uint32_t k = 0; k < sp->selections; k++) {
        snprintf(name, sizeof name, "b%u", k);
        asciiz(b, name);
        u32(b, 0); /* faces */
        zeros(b, 4 + 1);
        u32(b, 0); /* sections */
        u32(b, 1); /* one vertex, stored */
        u8(b, 0);
        u32(b, k % sp->points);
        u32(b, 0); /* weights */
    }
    u32(b, 0); /* properties */
    u32(b, 0); /* keyframes */
    zeros(b, 12 + 1);
    size_t rest = b->n;
    u32(b, 0);
    u32(b, sp->points); /* clip flags: a fill */
    u8(b, 1);
    u32(b, 0);
    zeros(b, 16); /* UV set 0: a fill */
    u32(b, sp->points);
    u8(b, 1);
    u32(b, 0);
    u32(b, 1); /* UV sets */
    u32(b, sp->points);
    if (!sp->raw && 12 * sp->points >= 64) {
        u8(b, 1); /* compressed */
        lzo_zeros(b, 12 * sp->points);
    } else {
        u8(b, 0);
        zeros(b, 12 * sp->points);
    }
    u32(b, sp->points); /* normals: a fill */
    u8(b, 1);
    u32(b, 0);
    u32(b, 0); /* ST */
    u32(b, 0); /* vertex bone references */
    u32(b, 0); /* neighbour bone references */
    zeros(b, 4);
    patch32(b, rest, (uint32_t)(b->n - rest - 4));
    zeros(b, 1);
    patch32(b, table, (uint32_t)start);
    patch32(b, table + 4, (uint32_t)b->n);
}

static void test_odol(void)
{
    buf b = {0};
    odol_spec sp = {0, 3, 1, 1, 1, 0};
    odol_file(&b, &sp);
    expect_bounded("odol_plain.p3d", vks_p3d_read, NULL, &b, (size_t)(64 * MiB), 1);
    b.n = 0;
    /* 20000 bones and 20000 one-vertex selections over 100000 points (0.9 MB) */
    odol_spec many = {20000, 100000, 1, 1, 20000, 0};
    odol_file(&b, &many);
    expect_bounded("odol_many_selections.p3d", vks_p3d_read, NULL, &b, (size_t)(64 * MiB), 1);
    b.n = 0;
    /* 4 M points (48 MB of positions from a 190 KB LZO block): 879 MB once read, refused
       for its size before anything is decompressed */
    odol_spec big = {0, 4u << 20, 1, 1, 1, 0};
    odol_file(&b, &big);
    expect_clean_failure("odol_dense_vertices.p3d", vks_p3d_read, NULL, &b, (size_t)(4 * MiB));
    b.n = 0;
    /* 100 points over a 50-vertex limit: refused at the first per-vertex array */
    odol_spec over = {0, 100, 1, 1, 1, 1};
    odol_file(&b, &over);
    vks_read_options small;
    memset(&small, 0, sizeof small);
    small.max_vertices = 50;
    expect_clean_failure("odol_over_limit.p3d", vks_p3d_read, &small, &b, (size_t)(1 * MiB));
    b.n = 0;
    /* 12000 sections over 40000 faces (1 MB) */
    odol_spec secs = {0, 3, 40000, 12000, 1, 0};
    odol_file(&b, &secs);
    expect_bounded("odol_many_sections.p3d", vks_p3d_read, NULL, &b, (size_t)(64 * MiB), 1);
    free(b.p);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--dump") == 0)
        dump_dir = argv[2];
    test_rw();
    test_nif();
    test_p3d();
    test_p3d_lzo();
    test_cmdl();
    test_odol();
    return vks_test_finish("test_hostile_inputs");
}
