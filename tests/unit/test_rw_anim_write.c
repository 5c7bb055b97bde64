/* RenderWare / GTA clip writers through their readers, on a generated character written as a
 * DFF and read back (so its nodes carry HAnim IDs and animation indices):
 *   - the DFF reader's anim_index: each node's place in the HAnim node list (checked against
 *     the hierarchy in the written bytes, and against tube_rw36003.dff where present);
 *   - .anm (standard, compressed), .ska and .ifp (ANPK, ANP2, ANP3, int16 keys) round trips:
 *     the skin's locals from the clip read back match the original's at every time, within
 *     each encoding's precision; the .anm stream is in librw's order;
 *   - the generator's walk and wave (Hermite, Euler, stepped, B-spline keys) written and read
 *     back, equal on the writers' resampling grid; writer errors; truncation of every written
 *     file. */
#include <math.h>
#include <string.h>

#include "character.h"
#include "character_clips.h"
#include "test_rw_anim_util.h"
#include "test_rw_util.h"
#include "testutil.h"

static vks_skin *skin;
static const char *seeds;
static uint8_t *dff;
static size_t dff_size;

static int32_t node_of_index(int32_t index)
{
    for (uint32_t n = 0; n < skin->node_count; n++)
        if (skin->nodes[n].has_anim_index && skin->nodes[n].anim_index == index)
            return (int32_t)n;
    return -1;
}

static uint32_t hierarchy_count(const vks_skin *s)
{
    uint32_t c = 0;
    for (uint32_t n = 0; n < s->node_count; n++)
        c += s->nodes[n].has_anim_index != 0;
    return c;
}

/* The HAnim node IDs of the first hierarchy in a DFF, in node order. */
static uint32_t hierarchy_ids(const uint8_t *bytes, size_t size, int32_t *ids, uint32_t cap)
{
    rw_test_chunk chunks[4096];
    size_t n = vks_test_rw_chunks(bytes, size, chunks, 4096);
    for (size_t i = 0; i < n; i++) {
        if (chunks[i].type != 0x11E)
            continue;
        const uint8_t *p = bytes + chunks[i].offset + 12;
        uint32_t count = vks_test_le32(p + 8);
        if (count == 0)
            continue;
        for (uint32_t k = 0; k < count && k < cap; k++)
            ids[k] = (int32_t)vks_test_le32(p + 20 + 12 * k);
        return count;
    }
    return 0;
}

static void check_anim_index(const vks_skin *s, const uint8_t *bytes, size_t size, const char *what)
{
    int32_t ids[512];
    uint32_t count = hierarchy_ids(bytes, size, ids, 512);
    CHECK(count > 0 && count <= 512);
    CHECK_EQ_INT(hierarchy_count(s), count);
    for (uint32_t i = 0; i < count && i < 512; i++) {
        int found = 0;
        for (uint32_t n = 0; n < s->node_count; n++)
            if (s->nodes[n].has_tag && s->nodes[n].tag == ids[i]) {
                found = 1;
                if (!s->nodes[n].has_anim_index || s->nodes[n].anim_index != (int32_t)i)
                    fprintf(stderr, "%s: node %u (ID %d) has anim_index %d, expected %u\n", what, n, ids[i],
                            s->nodes[n].has_anim_index ? s->nodes[n].anim_index : -1, i);
                CHECK(s->nodes[n].has_anim_index && s->nodes[n].anim_index == (int32_t)i);
            }
        CHECK(found);
    }
    /* parents come first in the HAnim order (a depth-first pre-order) */
    for (uint32_t n = 0; n < s->node_count; n++) {
        int32_t p = s->nodes[n].parent;
        while (p >= 0 && !s->nodes[p].has_anim_index)
            p = s->nodes[p].parent;
        if (s->nodes[n].has_anim_index && p >= 0)
            CHECK(s->nodes[p].anim_index < s->nodes[n].anim_index);
    }
}

static void test_dff_anim_index(void)
{
    check_anim_index(skin, dff, dff_size, "generated character");
    /* tube_rw36003.dff: frames (root, b0, branch, b1, b2, b3), nodes (b0, b1, b2, b3, branch) */
    const char *root = getenv("VKSKIN_REAL_DATASETS");
    char path[1024];
    snprintf(path, sizeof path, "%s/renderware/tube_rw36003.dff", root && *root ? root : "../shared/datasets");
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(path, &size);
    if (!bytes) {
        printf("tube_rw36003.dff absent: its animation order not checked\n");
        return;
    }
    vks_skin *tube = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_rw_read(NULL, bytes, size, &tube, &err), VKS_OK);
    if (tube) {
        static const int32_t want[6] = {-1, 0, 4, 1, 2, 3};
        CHECK_EQ_INT(tube->node_count, 6);
        for (uint32_t n = 0; n < 6 && n < tube->node_count; n++) {
            CHECK_EQ_INT(tube->nodes[n].has_anim_index, want[n] >= 0);
            if (want[n] >= 0)
                CHECK_EQ_INT(tube->nodes[n].anim_index, want[n]);
        }
        check_anim_index(tube, bytes, size, "tube");
        vks_skin_free(tube);
    }
    free(bytes);
}

/* ---- the clips written ---- */

static float *floats(vks_clip_set *s, const float *v, size_t n)
{
    float *f = vks_clip_set_alloc(s, n, sizeof *f);
    memcpy(f, v, n * sizeof *f);
    return f;
}

static vks_curve curve(vks_clip_set *s, uint32_t comps, const float *times, const float *values, uint32_t n)
{
    vks_curve c = {0};
    c.key_count = n, c.components = comps, c.interp = VKS_INTERP_LINEAR;
    c.times = floats(s, times, n);
    c.values = floats(s, values, (size_t)n * comps);
    return c;
}

/* Node i's bind rotation turned by angle about a fixed axis. */
static void turned(uint32_t node, int i, float angle, float q[4])
{
    float t[3], b[4], sc[3];
    vks_affine_to_trs(&skin->nodes[node].bind_local, t, b, sc);
    float ax[3] = {1, (float)(i % 3), 0.5f}, l = sqrtf(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    float s = sinf(angle / 2) / l, d[4] = {ax[0] * s, ax[1] * s, ax[2] * s, cosf(angle / 2)};
    q[0] = b[3] * d[0] + b[0] * d[3] + b[1] * d[2] - b[2] * d[1];
    q[1] = b[3] * d[1] - b[0] * d[2] + b[1] * d[3] + b[2] * d[0];
    q[2] = b[3] * d[2] + b[0] * d[1] - b[1] * d[0] + b[2] * d[3];
    q[3] = b[3] * d[3] - b[0] * d[0] - b[1] * d[1] - b[2] * d[2];
}

/* "wave" (2 s): every other HAnim node turns on 5 keys (nodes 2, 6, ... on 2 keys inside the
   clip only, so the writers add the ends), every fourth also moves; "idle" (1 s): one node. */
static vks_clip_set *make_clips(void)
{
    vks_clip_set *s = vks_clip_set_create(NULL);
    s->clips = vks_clip_set_alloc(s, 2, sizeof *s->clips);
    s->clip_count = 2;
    uint32_t count = hierarchy_count(skin);
    vks_clip *w = &s->clips[0];
    w->name = "wave", w->duration = 2, w->cycle = VKS_CYCLE_LOOP, w->space = VKS_CLIP_LOCAL, w->root_track = -1;
    w->tracks = vks_clip_set_alloc(s, count, sizeof *w->tracks);
    static const float t5[5] = {0, 0.4f, 1.0f, 1.6f, 2.0f}, t2[2] = {0.5f, 1.5f}, t3[3] = {0, 1, 2};
    for (uint32_t i = 0; i < count; i += 2) {
        uint32_t node = (uint32_t)node_of_index((int32_t)i);
        vks_track *tr = &w->tracks[w->track_count++];
        tr->node_name = skin->nodes[node].name;
        int inner = i % 4 == 2;
        uint32_t n = inner ? 2 : 5;
        float q[5][4];
        for (uint32_t k = 0; k < n; k++)
            turned(node, (int)i, 0.4f * sinf((float)k + (float)i), q[k]);
        tr->rotation = curve(s, 4, inner ? t2 : t5, &q[0][0], n);
        if (i % 4 == 0) {
            float t[3][3], bt[3], bq[4], bs[3];
            vks_affine_to_trs(&skin->nodes[node].bind_local, bt, bq, bs);
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 3; c++)
                    t[k][c] = bt[c] + 0.05f * (float)k * (float)(c + 1) - 0.01f * (float)(i % 3);
            tr->translation = curve(s, 3, t3, &t[0][0], 3);
        }
    }
    vks_clip *idle = &s->clips[1];
    idle->name = "idle", idle->duration = 1, idle->cycle = VKS_CYCLE_LOOP, idle->space = VKS_CLIP_LOCAL;
    idle->root_track = -1;
    idle->tracks = vks_clip_set_alloc(s, 1, sizeof *idle->tracks);
    idle->track_count = 1;
    uint32_t node = (uint32_t)node_of_index(1);
    idle->tracks[0].node_name = skin->nodes[node].name;
    float q[2][4];
    turned(node, 1, 0, q[0]);
    turned(node, 1, 0.5f, q[1]);
    idle->tracks[0].rotation = curve(s, 4, t3, &q[0][0], 2);
    vks_error err = {0};
    CHECK_EQ_INT(vks_clip_set_validate(s, &err), VKS_OK);
    return s;
}

/* The written .anm / .ska stream follows librw's order (rw_keys.c's file comment). */
static void check_stream_order(const uint8_t *b, size_t size, int compressed, int legacy, uint32_t nodes)
{
    size_t first = legacy ? 12 : 32, stride = compressed ? 22 : 36;
    size_t time_at = legacy ? 28 : 0, prev_at = compressed ? 18 : 32;
    uint32_t unit = compressed ? 24 : 36;
    uint32_t count = vks_test_le32(b + (legacy ? 0 : 20));
    CHECK(first + (size_t)count * stride <= size);
    float last_prev_time = 0;
    int bad = 0;
    for (uint32_t k = 0; k < count; k++) {
        const uint8_t *key = b + first + (size_t)k * stride;
        float time;
        uint32_t u = vks_test_le32(key + time_at);
        memcpy(&time, &u, 4);
        int32_t prev = (int32_t)vks_test_le32(key + prev_at);
        if (k < nodes) {
            bad += time != 0;
            continue;
        }
        if (k < 2 * nodes) {
            bad += prev != (int32_t)((k - nodes) * unit);
            continue;
        }
        uint32_t j = (uint32_t)prev / unit;
        uint32_t pu = vks_test_le32(b + first + (size_t)j * stride + time_at);
        float pt;
        memcpy(&pt, &pu, 4);
        bad += prev % (int32_t)unit != 0 || j >= k || pt < last_prev_time;
        last_prev_time = pt;
    }
    CHECK_EQ_INT(bad, 0);
}

static void roundtrip_anm(const vks_clip *clip, int compressed, int legacy, double tol, int truncate)
{
    const char *what = legacy ? "ska" : compressed ? "anm compressed" : "anm";
    vks_clip_write_options o = {0};
    o.compressed = compressed;
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    vks_result r = legacy ? vks_rw_ska_write(clip, skin, &o, &bytes, &size, &err)
                          : vks_rw_anm_write(clip, skin, &o, &bytes, &size, &err);
    CHECK_EQ_INT(r, VKS_OK);
    if (r != VKS_OK) {
        fprintf(stderr, "%s write: %s: %s\n", what, err.path, err.msg);
        return;
    }
    check_stream_order(bytes, size, compressed, legacy, hierarchy_count(skin));
    if (truncate)
        rwa_write_seed(seeds, legacy ? "written.ska" : compressed ? "written_compressed.anm" : "written.anm", bytes,
                       size);
    vks_clip_set *back = NULL;
    vks_clip_reader_fn fn = legacy ? vks_rw_ska_read : vks_rw_anm_read;
    r = fn(NULL, bytes, size, &back, &err);
    CHECK_EQ_INT(r, VKS_OK);
    if (back) {
        CHECK_EQ_INT(back->clips[0].track_count, hierarchy_count(skin));
        CHECK(back->clips[0].duration == clip->duration);
        double d = rwa_locals_diff(clip, &back->clips[0], skin, 240);
        if (!(d >= 0 && d <= tol))
            fprintf(stderr, "%s: locals differ by %g (tolerance %g)\n", what, d, tol);
        CHECK(d >= 0 && d <= tol);
        vks_clip_set_free(back);
    } else {
        fprintf(stderr, "%s read: %s: %s\n", what, err.path, err.msg);
    }
    if (truncate)
        CHECK_EQ_INT(rwa_truncations(fn, NULL, bytes, size, what), 0);
    free(bytes);
}

static void roundtrip_ifp(const vks_clip_set *set, uint32_t version, int compressed, double tol, int truncate)
{
    static const char *const detail[] = {"", "ANPK", "ANP2", "ANP3"};
    vks_clip_write_options o = {0};
    o.version = version;
    o.compressed = compressed;
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    vks_result r = vks_ifp_write(set, skin, &o, &bytes, &size, &err);
    CHECK_EQ_INT(r, VKS_OK);
    if (r != VKS_OK) {
        fprintf(stderr, "ifp %u write: %s: %s\n", version, err.path, err.msg);
        return;
    }
    if (version == 1 || compressed) {
        char name[32];
        snprintf(name, sizeof name, "written_%s%s.ifp", detail[version], compressed ? "_int16" : "");
        rwa_write_seed(seeds, name, bytes, size);
    }
    vks_clip_set *back = NULL;
    r = vks_ifp_read(NULL, bytes, size, &back, &err);
    CHECK_EQ_INT(r, VKS_OK);
    if (back) {
        CHECK(strcmp(back->format_detail, detail[version]) == 0);
        CHECK_EQ_INT(back->clip_count, set->clip_count);
        for (uint32_t c = 0; c < back->clip_count && c < set->clip_count; c++) {
            const vks_clip *a = &set->clips[c], *b = &back->clips[c];
            CHECK(strcmp(a->name, b->name) == 0);
            CHECK_NEAR(b->duration, a->duration, 1e-6);
            for (uint32_t t = 0; t < b->track_count; t++) {
                int32_t n = vks_skin_find_node(skin, b->tracks[t].node_name);
                CHECK(n >= 0 && b->tracks[t].has_tag && b->tracks[t].node_tag == skin->nodes[n].tag);
            }
            double d = rwa_locals_diff(a, b, skin, 240);
            if (!(d >= 0 && d <= tol))
                fprintf(stderr, "ifp %u%s clip %u: locals differ by %g (tolerance %g)\n", version,
                        compressed ? " int16" : "", c, d, tol);
            CHECK(d >= 0 && d <= tol);
        }
        vks_clip_set_free(back);
    } else {
        fprintf(stderr, "ifp %u read: %s: %s\n", version, err.path, err.msg);
    }
    if (truncate)
        CHECK_EQ_INT(rwa_truncations(vks_ifp_read, NULL, bytes, size, detail[version]), 0);
    free(bytes);
}

static void test_roundtrips(void)
{
    vks_clip_set *set = make_clips();
    roundtrip_anm(&set->clips[0], 0, 0, 2e-6, 1);
    roundtrip_anm(&set->clips[0], 1, 0, 1e-3, 1);
    roundtrip_anm(&set->clips[0], 0, 1, 2e-6, 1);
    roundtrip_anm(&set->clips[1], 0, 0, 2e-6, 0);
    roundtrip_ifp(set, 1, 0, 2e-6, 1);
    roundtrip_ifp(set, 2, 0, 2e-6, 1);
    roundtrip_ifp(set, 3, 0, 2e-6, 1);
    roundtrip_ifp(set, 2, 1, 1e-3, 1);
    roundtrip_ifp(set, 3, 1, 1e-3, 1);
    vks_clip_set_free(set);
}

/* Times on the writers' 120-a-second grid (every 24th of a second), where resampled curves
   (the generator's Hermite, Euler, stepped and B-spline keys) have keys: equal there. */
static int grid_times(const vks_clip *clip, float *t, int cap)
{
    int n = 0;
    for (int i = 0; n < cap && (float)i / 24.0f <= clip->duration; i++)
        t[n++] = (float)(5 * i) / 120.0f;
    return n;
}

static void check_generated(const vks_clip *a, const vks_clip *b, double tol, const char *what)
{
    float t[128];
    int n = grid_times(a, t, 128);
    double d = rwa_locals_diff_at(a, b, skin, t, n);
    if (!(d >= 0 && d <= tol))
        fprintf(stderr, "generated %s, %s: locals differ by %g (tolerance %g)\n", a->name, what, d, tol);
    CHECK(d >= 0 && d <= tol);
}

static void test_generated_clips(void)
{
    vks_clip_set *gen = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_gen_clips(skin, &gen, &err), VKS_OK);
    if (!gen)
        return;
    static const char *const kinds[3] = {"anm", "anm compressed", "ska"};
    for (uint32_t c = 0; c < gen->clip_count; c++) {
        const vks_clip *clip = &gen->clips[c];
        for (int kind = 0; kind < 3; kind++) {
            vks_clip_write_options o = {0};
            o.compressed = kind == 1;
            uint8_t *bytes = NULL;
            size_t size = 0;
            vks_result r = kind == 2 ? vks_rw_ska_write(clip, skin, &o, &bytes, &size, &err)
                                     : vks_rw_anm_write(clip, skin, &o, &bytes, &size, &err);
            CHECK_EQ_INT(r, VKS_OK);
            vks_clip_set *back = NULL;
            if (r == VKS_OK)
                r = (kind == 2 ? vks_rw_ska_read : vks_rw_anm_read)(NULL, bytes, size, &back, &err);
            CHECK_EQ_INT(r, VKS_OK);
            if (back)
                check_generated(clip, &back->clips[0], kind == 1 ? 1e-3 : 2e-6, kinds[kind]);
            else
                fprintf(stderr, "generated %s, %s: %s: %s\n", clip->name, kinds[kind], err.path, err.msg);
            vks_clip_set_free(back);
            free(bytes);
        }
    }
    for (uint32_t v = 1; v <= 4; v++) {
        vks_clip_write_options o = {0};
        o.version = v < 4 ? v : 3;
        o.compressed = v == 4; /* int16 keys: on a 60-a-second grid, half of these times between keys */
        uint8_t *bytes = NULL;
        size_t size = 0;
        CHECK_EQ_INT(vks_ifp_write(gen, skin, &o, &bytes, &size, &err), VKS_OK);
        vks_clip_set *back = NULL;
        CHECK_EQ_INT(vks_ifp_read(NULL, bytes, size, &back, &err), VKS_OK);
        for (uint32_t c = 0; back && c < back->clip_count; c++)
            check_generated(&gen->clips[c], &back->clips[c], v == 4 ? 1e-2 : 2e-6, "ifp");
        vks_clip_set_free(back);
        free(bytes);
    }
    vks_clip_set_free(gen);
}

static void expect_write(vks_result got, vks_result want, const vks_error *err, const char *what)
{
    if (got != want || !err->msg[0])
        fprintf(stderr, "%s: got %d (%s), expected %d\n", what, (int)got, err->msg, (int)want);
    CHECK_EQ_INT(got, want);
    CHECK(err->msg[0]);
}

static void test_writer_errors(void)
{
    vks_clip_set *set = make_clips();
    vks_clip *c = &set->clips[0];
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    vks_clip_write_options o = {0};

    c->space = VKS_CLIP_MODEL_DELTA;
    expect_write(vks_rw_anm_write(c, skin, NULL, &bytes, &size, &err), VKS_ERR_UNSUPPORTED, &err, "delta clip");
    c->space = VKS_CLIP_LOCAL;

    vks_gen_params p = {0};
    vks_skin *plain = vks_gen_character(&p, &err); /* no DFF: no animation order */
    memset(&err, 0, sizeof err);
    expect_write(vks_rw_anm_write(c, plain, NULL, &bytes, &size, &err), VKS_ERR_INVALID, &err, "no anim order");
    vks_skin_free(plain);

    memset(&err, 0, sizeof err);
    o.version = 1, o.compressed = 1;
    expect_write(vks_ifp_write(set, skin, &o, &bytes, &size, &err), VKS_ERR_UNSUPPORTED, &err, "int16 ANPK");
    memset(&err, 0, sizeof err);
    o.version = 4, o.compressed = 0;
    expect_write(vks_ifp_write(set, skin, &o, &bytes, &size, &err), VKS_ERR_UNSUPPORTED, &err, "version 4");
    memset(&err, 0, sizeof err);
    o.version = 0, o.compressed = 1;
    expect_write(vks_rw_ska_write(c, skin, &o, &bytes, &size, &err), VKS_ERR_UNSUPPORTED, &err, "compressed ska");

    /* a scale off 1 */
    static const float st[2] = {0, 2}, sv[6] = {1, 1, 1, 1, 2, 1};
    c->tracks[0].scale = curve(set, 3, st, sv, 2);
    memset(&err, 0, sizeof err);
    expect_write(vks_rw_anm_write(c, skin, NULL, &bytes, &size, &err), VKS_ERR_UNSUPPORTED, &err, "scale");
    memset(&c->tracks[0].scale, 0, sizeof c->tracks[0].scale);

    /* translations past int16 keys' +-32 */
    static const float tt[2] = {0, 2}, tv[6] = {0, 0, 0, 40, 0, 0};
    vks_curve saved = c->tracks[0].translation;
    c->tracks[0].translation = curve(set, 3, tt, tv, 2);
    memset(&err, 0, sizeof err);
    o.version = 3, o.compressed = 1;
    expect_write(vks_ifp_write(set, skin, &o, &bytes, &size, &err), VKS_ERR_UNSUPPORTED, &err, "int16 range");
    c->tracks[0].translation = saved;

    /* tracks that drive nothing */
    const char *name = c->tracks[0].node_name;
    uint32_t count = c->track_count;
    c->tracks[0].node_name = "no such node";
    c->track_count = 1;
    memset(&err, 0, sizeof err);
    expect_write(vks_rw_anm_write(c, skin, NULL, &bytes, &size, &err), VKS_ERR_INVALID, &err, "unbound");
    c->tracks[0].node_name = name;
    c->track_count = count;
    memset(&err, 0, sizeof err);
    expect_write(vks_rw_anm_write(c, NULL, NULL, &bytes, &size, &err), VKS_ERR_INVALID, &err, "no skin");
    vks_clip_set_free(set);
}

int main(int argc, char **argv)
{
    seeds = rwa_seed_dir(argc, argv);
    skin = rwa_dff_character(&dff, &dff_size);
    CHECK(skin != NULL);
    if (!skin)
        return vks_test_finish("test_rw_anim_write");
    test_dff_anim_index();
    test_roundtrips();
    test_generated_clips();
    test_writer_errors();
    vks_skin_free(skin);
    free(dff);
    return vks_test_finish("test_rw_anim_write");
}
