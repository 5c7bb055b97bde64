/* RenderWare .anm and legacy .ska readers against hand-built byte fixtures: a 2-node stream
 * with 3 keys a node checked key by key, a compressed stream decoded by hand, a .ska's
 * conjugated quaternions, the junk prevs of the first keys, every malformed link, truncation
 * at every byte and corrupted bytes. */
#include <math.h>
#include <string.h>

#include "formats/rw/rw_anim_internal.h"
#include "test_rw_anim_util.h"
#include "testutil.h"

typedef struct kspec {
    float time, q[4], t[3];
    int32_t prev;
} kspec;

/* node 0: t 0, 0.5, 1; node 1: t 0, 0.25, 1; in librw's stream order (the file comment of
   rw_keys.c): first keys, second keys, then by the time of the previous key */
static const kspec std_keys[6] = {
    {0.0f, {0, 0, 0, 1}, {1, 2, 3}, 0},            /* 0: node 0 key 0 */
    {0.0f, {0, 0, 0.6f, 0.8f}, {0, 1, 0}, 0},      /* 1: node 1 key 0 */
    {0.5f, {0, 0.6f, 0, 0.8f}, {1, 2, 4}, 0},      /* 2: node 0 key 1, prev key 0 */
    {0.25f, {0, 0, 0.8f, 0.6f}, {0, 1.5f, 0}, 36}, /* 3: node 1 key 1, prev key 1 */
    {1.0f, {0, 0, 1, 0}, {0, 2, 0}, 108},          /* 4: node 1 key 2 (prev at 0.25 s), prev key 3 */
    {1.0f, {0.6f, 0, 0, 0.8f}, {1, 2, 5}, 72},     /* 5: node 0 key 2 (prev at 0.5 s), prev key 2 */
};

static void put_chunk_header(tb *b, int32_t interp, uint32_t count, float duration)
{
    vks_buf_u32(b, 0x1B);
    vks_buf_u32(b, 0); /* patched */
    vks_buf_u32(b, 0x1803FFFF);
    vks_buf_u32(b, 0x100);
    vks_buf_u32(b, (uint32_t)interp);
    vks_buf_u32(b, count);
    vks_buf_u32(b, 0);
    vks_buf_f32(b, duration);
}

/* The standard stream with the first two keys' prevs set to junk0 / junk1. */
static tb make_std(const kspec *keys, uint32_t n, int32_t junk0, int32_t junk1, float duration)
{
    tb b = {0};
    put_chunk_header(&b, 1, n, duration);
    for (uint32_t k = 0; k < n; k++) {
        vks_buf_f32(&b, keys[k].time);
        for (int i = 0; i < 4; i++)
            vks_buf_f32(&b, keys[k].q[i]);
        for (int i = 0; i < 3; i++)
            vks_buf_f32(&b, keys[k].t[i]);
        vks_buf_u32(&b, (uint32_t)(k == 0 ? junk0 : k == 1 ? junk1 : keys[k].prev));
    }
    vks_buf_patch_u32(&b, 4, (uint32_t)(b.size - 12));
    return b;
}

static void check_track(const vks_track *tr, int node, const int *stream_idx, int n)
{
    CHECK_EQ_INT(tr->has_index, 1);
    CHECK_EQ_INT(tr->node_index, node);
    CHECK_EQ_INT(tr->has_tag, 0);
    CHECK(tr->node_name && tr->node_name[0] == 0);
    CHECK_EQ_INT(tr->rotation.key_count, n);
    CHECK_EQ_INT(tr->translation.key_count, n);
    CHECK_EQ_INT(tr->rotation.interp, VKS_INTERP_LINEAR);
    CHECK_EQ_INT(tr->translation.interp, VKS_INTERP_LINEAR);
    CHECK_EQ_INT(tr->scale.key_count, 0);
    for (int k = 0; k < n && k < (int)tr->rotation.key_count; k++) {
        const kspec *want = &std_keys[stream_idx[k]];
        CHECK(tr->rotation.times[k] == want->time);
        CHECK(tr->translation.times[k] == want->time);
        for (int i = 0; i < 4; i++)
            CHECK(tr->rotation.values[4 * k + i] == want->q[i]);
        for (int i = 0; i < 3; i++)
            CHECK(tr->translation.values[3 * k + i] == want->t[i]);
    }
}

static void check_std_set(const vks_clip_set *s)
{
    CHECK(strcmp(s->format, "renderware-anm") == 0);
    CHECK_EQ_INT(s->clip_count, 1);
    const vks_clip *c = &s->clips[0];
    CHECK(c->duration == 1.0f);
    CHECK_EQ_INT(c->cycle, VKS_CYCLE_RESET);
    CHECK_EQ_INT(c->space, VKS_CLIP_LOCAL);
    CHECK_EQ_INT(c->root_track, -1);
    CHECK_EQ_INT(c->track_count, 2);
    if (c->track_count != 2)
        return;
    check_track(&c->tracks[0], 0, (const int[]){0, 2, 5}, 3);
    check_track(&c->tracks[1], 1, (const int[]){1, 3, 4}, 3);
}

static vks_result read_anm(const tb *b, const vks_read_options *opt, vks_clip_set **out, vks_error *err)
{
    return vks_rw_anm_read(opt, b->data, b->size, out, err);
}

static const char *seeds;

static void test_standard(void)
{
    /* the first keys' prevs must not matter: librw's junk, zero, offsets that look valid */
    static const int32_t junk[][2] = {{(int32_t)0xF4A50000, (int32_t)0xF4A50000}, {0, 0}, {0, 36}, {36, 0},
                                      {-1, 7},      {72, 72},  {180, 144}};
    for (size_t j = 0; j < sizeof junk / sizeof junk[0]; j++) {
        tb b = make_std(std_keys, 6, junk[j][0], junk[j][1], 1.0f);
        vks_clip_set *s = NULL;
        vks_error err = {0};
        CHECK_EQ_INT(read_anm(&b, NULL, &s, &err), VKS_OK);
        if (s) {
            check_std_set(s);
            vks_clip_set_free(s);
        } else {
            fprintf(stderr, "junk %d %d: %s: %s\n", junk[j][0], junk[j][1], err.path, err.msg);
        }
        vks_buf_free(&b);
    }
    tb b = make_std(std_keys, 6, (int32_t)0xF4A50000, (int32_t)0xF4A50000, 1.0f);
    rwa_write_seed(seeds, "hand_std.anm", b.data, b.size);
    CHECK_EQ_INT(rwa_truncations(vks_rw_anm_read, NULL, b.data, b.size, "anm std"), 0);
    CHECK_EQ_INT(rwa_corruptions(vks_rw_anm_read, NULL, b.data, b.size, "anm std"), 0);
    /* bytes after the chunk are ignored */
    vks_buf_u32(&b, 0xDEADBEEF);
    vks_clip_set *s = NULL;
    CHECK_EQ_INT(read_anm(&b, NULL, &s, NULL), VKS_OK);
    vks_clip_set_free(s);
    vks_buf_free(&b);
}

/* One error case: the fixture with a change, the code and the offset expected. */
static void expect_error(const tb *b, const vks_read_options *opt, vks_result code, uint64_t at, const char *what)
{
    rwa_expect(vks_rw_anm_read, b->data, b->size, opt, code, at, what);
}

/* One broken key: field 0 time, 1..4 q, 5..7 t, 8 prev (value as an int); where the error
   must point, relative to the key (-1: not checked). */
typedef struct key_case {
    int key, field;
    float value;
    int at;
    const char *what;
} key_case;

static void test_standard_errors(void)
{
    const uint64_t key0 = 32; /* first key's offset: chunk header 12 + anim header 20 */
    static const key_case cases[] = {
        {5, 8, 73, 32, "prev not a multiple"},
        {4, 8, 180, 32, "prev to a later key"},
        {5, 8, 108, 32, "two successors (key 4 follows key 3)"},
        {5, 8, -36, 32, "negative prev"},
        {3, 8, 0, -1, "second keys out of order: no node count fits"},
        {5, 0, 0.4f, 32, "time before the previous key"},
        {0, 0, 0.1f, 0, "first key not at 0"},
        {2, 2, NAN, 4, "NaN rotation"},
        {1, 7, INFINITY, 20, "infinite translation"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const key_case *c = &cases[i];
        kspec k[6];
        memcpy(k, std_keys, sizeof k);
        kspec *m = &k[c->key];
        if (c->field == 0)
            m->time = c->value;
        else if (c->field <= 4)
            m->q[c->field - 1] = c->value;
        else if (c->field <= 7)
            m->t[c->field - 5] = c->value;
        else
            m->prev = (int32_t)c->value;
        tb b = make_std(k, 6, 0, 0, 1); /* junk 0 prevs: a wrong count is tried first */
        uint64_t at = c->at < 0 ? VKS_NO_OFFSET : key0 + 36 * (uint64_t)c->key + (uint64_t)c->at;
        expect_error(&b, NULL, VKS_ERR_FORMAT, at, c->what);
        vks_buf_free(&b);
    }
    kspec k[6];
    memcpy(k, std_keys, sizeof k);
    memset(k[3].q, 0, sizeof k[3].q);
    tb b = make_std(k, 6, 0, 0, 1);
    expect_error(&b, NULL, VKS_ERR_FORMAT, key0 + 36 * 3 + 4, "zero quaternion");
    vks_buf_free(&b);
    b = make_std(std_keys, 6, 0, 0, 0.9f);
    expect_error(&b, NULL, VKS_ERR_FORMAT, key0 + 36 * 4, "past the duration");
    vks_buf_free(&b);
    /* header words, each patched alone: (offset, value, code, where the error points) */
    static const struct {
        uint32_t at, value;
        vks_result code;
        uint64_t err_at;
        const char *what;
    } words[] = {
        {16, 0x1C0, VKS_ERR_UNSUPPORTED, 16, "UV animation"},
        {16, 3, VKS_ERR_UNSUPPORTED, 16, "interpolator 3"},
        {12, 0x101, VKS_ERR_FORMAT, 12, "version"},
        {0, 0x10, VKS_ERR_FORMAT, 0, "a clump"},
        {28, 0, VKS_ERR_FORMAT, 28, "zero duration"},
        {28, 0x7FC00000, VKS_ERR_FORMAT, 28, "NaN duration"},
        {20, 0xFFFFFFFF, VKS_ERR_FORMAT, 20, "negative key count"},
        {20, 7, VKS_ERR_TRUNCATED, 20, "one key too many"},
        {20, 0, VKS_ERR_FORMAT, VKS_NO_OFFSET, "no keys"},
        {4, 1000, VKS_ERR_TRUNCATED, 4, "chunk past the end"},
    };
    b = make_std(std_keys, 6, 0, 0, 1);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        uint32_t was = b.data[words[i].at] | (uint32_t)b.data[words[i].at + 1] << 8 |
                       (uint32_t)b.data[words[i].at + 2] << 16 | (uint32_t)b.data[words[i].at + 3] << 24;
        vks_buf_patch_u32(&b, words[i].at, words[i].value);
        expect_error(&b, NULL, words[i].code, words[i].err_at, words[i].what);
        if (words[i].value == 0x1C0) { /* the message names the interpolator */
            vks_clip_set *s = NULL;
            vks_error err = {0};
            read_anm(&b, NULL, &s, &err);
            CHECK(strstr(err.msg, "0x1c0") != NULL);
        }
        vks_buf_patch_u32(&b, words[i].at, was);
    }
    /* limits */
    vks_read_options opt = {0};
    opt.max_nodes = 1;
    expect_error(&b, &opt, VKS_ERR_LIMIT, VKS_NO_OFFSET, "node limit");
    opt.max_nodes = 0;
    opt.clip.max_keys = 5;
    expect_error(&b, &opt, VKS_ERR_LIMIT, 20, "key limit");
    opt.clip.max_keys = 6;
    vks_clip_set *s = NULL;
    CHECK_EQ_INT(read_anm(&b, &opt, &s, NULL), VKS_OK);
    vks_clip_set_free(s);
    vks_buf_free(&b);
}

static void test_compressed(void)
{
    tb b = {0};
    put_chunk_header(&b, 2, 4, 2.0f);
    /* time, 7 half floats (q x y z w, t x y z), prev in 24-byte units */
    static const struct {
        float time;
        uint16_t h[7];
        int32_t prev;
    } keys[4] = {
        {0, {0, 0, 0, 0x7800, 0x7000, 0x0000, 0x7800}, (int32_t)0xF4A50000},      /* node 0 */
        {0, {0x7000, 0x7000, 0x7000, 0x7000, 0xF400, 0x7400, 0}, 0},             /* node 1 (junk 0) */
        {2, {0, 0x7400, 0, 0x7000, 0x7800, 0xF000, 0x7000}, 0},                   /* node 0, prev key 0 */
        {2, {0xF000, 0, 0, 0x7000, 0, 0, 0}, 24},                                 /* node 1, prev key 1 */
    };
    for (int k = 0; k < 4; k++) {
        vks_buf_f32(&b, keys[k].time);
        for (int i = 0; i < 7; i++)
            vks_buf_u16(&b, keys[k].h[i]);
        vks_buf_u32(&b, (uint32_t)keys[k].prev);
    }
    static const float offset[3] = {1, 0, -1}, scalar[3] = {2, 4, 1};
    for (int i = 0; i < 3; i++)
        vks_buf_f32(&b, offset[i]);
    for (int i = 0; i < 3; i++)
        vks_buf_f32(&b, scalar[i]);
    vks_buf_patch_u32(&b, 4, (uint32_t)(b.size - 12));
    CHECK_EQ_INT(b.size, 12 + 20 + 4 * 22 + 24);
    rwa_write_seed(seeds, "hand_compressed.anm", b.data, b.size);

    vks_clip_set *s = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(read_anm(&b, NULL, &s, &err), VKS_OK);
    if (!s) {
        fprintf(stderr, "compressed: %s: %s\n", err.path, err.msg);
    } else {
        CHECK(strcmp(s->format_detail, "compressed keys") == 0);
        const vks_clip *c = &s->clips[0];
        CHECK(c->duration == 2.0f);
        CHECK_EQ_INT(c->track_count, 2);
        if (c->track_count == 2) {
            /* by hand: 0x7800 = 1, 0x7000 = 0.5, 0x7400 = 0.75, 0xF000 = -0.5, 0xF400 = -0.75;
               translation = decoded * scalar + offset */
            const vks_track *t0 = &c->tracks[0], *t1 = &c->tracks[1];
            static const float q0[8] = {0, 0, 0, 1, 0, 0.75f, 0, 0.5f};
            static const float p0[6] = {0.5f * 2 + 1, 0, 1 * 1 - 1, 1 * 2 + 1, -0.5f * 4, 0.5f * 1 - 1};
            static const float q1[8] = {0.5f, 0.5f, 0.5f, 0.5f, -0.5f, 0, 0, 0.5f};
            static const float p1[6] = {-0.75f * 2 + 1, 0.75f * 4, -1, 1, 0, -1};
            CHECK_EQ_INT(t0->rotation.key_count, 2);
            CHECK_EQ_INT(t1->rotation.key_count, 2);
            for (int i = 0; i < 8; i++) {
                CHECK(t0->rotation.values[i] == q0[i]);
                CHECK(t1->rotation.values[i] == q1[i]);
            }
            for (int i = 0; i < 6; i++) {
                CHECK(t0->translation.values[i] == p0[i]);
                CHECK(t1->translation.values[i] == p1[i]);
            }
            CHECK(t0->rotation.times[1] == 2.0f && t1->rotation.times[1] == 2.0f);
        }
        vks_clip_set_free(s);
    }
    CHECK_EQ_INT(rwa_truncations(vks_rw_anm_read, NULL, b.data, b.size, "anm compressed"), 0);
    CHECK_EQ_INT(rwa_corruptions(vks_rw_anm_read, NULL, b.data, b.size, "anm compressed"), 0);
    /* prevs count 24-byte units: 22 is not a key */
    vks_buf_patch_u32(&b, 32 + 3 * 22 + 18, 22);
    expect_error(&b, NULL, VKS_ERR_FORMAT, VKS_NO_OFFSET, "compressed prev in file units");
    vks_buf_free(&b);
}

static void test_half_floats(void)
{
    /* every 16-bit pattern survives decompress -> compress */
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++)
        bad += vks__rwa_compress(vks__rwa_decompress((uint16_t)h)) != h;
    CHECK_EQ_INT(bad, 0);
    CHECK(vks__rwa_decompress(0x7800) == 1.0f);
    CHECK(vks__rwa_decompress(0xF000) == -0.5f);
    CHECK(vks__rwa_decompress(0x0001) > 0);
    CHECK(vks__rwa_compress(5.0f) == 0x7FFF);       /* clamped to the largest */
    CHECK(vks__rwa_compress(-1e-9f) == 0x8000);     /* flushed to (negative) zero */
    CHECK_NEAR(vks__rwa_decompress(vks__rwa_compress(0.3f)), 0.3f, 0.3 / 4096);
}

static void test_ska(void)
{
    /* 2 nodes x 2 keys, quaternions stored conjugated, q t time prev */
    tb b = {0};
    vks_buf_u32(&b, 4);
    vks_buf_u32(&b, 0);
    vks_buf_f32(&b, 1.5f);
    static const kspec keys[4] = {
        {0, {0, 0, 0.6f, 0.8f}, {1, 0, 0}, 0},
        {0, {0.6f, 0, 0, 0.8f}, {0, 1, 0}, 0},
        {1.5f, {0, 0.8f, 0, 0.6f}, {2, 0, 0}, 0},
        {1.5f, {0, 0, 0, 1}, {0, 2, 0}, 36},
    };
    for (int k = 0; k < 4; k++) {
        vks_buf_f32(&b, -keys[k].q[0]);
        vks_buf_f32(&b, -keys[k].q[1]);
        vks_buf_f32(&b, -keys[k].q[2]);
        vks_buf_f32(&b, keys[k].q[3]);
        for (int i = 0; i < 3; i++)
            vks_buf_f32(&b, keys[k].t[i]);
        vks_buf_f32(&b, keys[k].time);
        vks_buf_u32(&b, (uint32_t)(k < 2 ? 0x12345678 : keys[k].prev));
    }
    rwa_write_seed(seeds, "hand.ska", b.data, b.size);
    vks_clip_set *s = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_rw_ska_read(NULL, b.data, b.size, &s, &err), VKS_OK);
    if (s) {
        CHECK(strcmp(s->format, "renderware-ska") == 0);
        const vks_clip *c = &s->clips[0];
        CHECK(c->duration == 1.5f);
        CHECK_EQ_INT(c->track_count, 2);
        for (uint32_t t = 0; t < c->track_count && t < 2; t++) {
            const vks_track *tr = &c->tracks[t];
            CHECK_EQ_INT(tr->node_index, (int)t);
            CHECK_EQ_INT(tr->rotation.key_count, 2);
            for (int k = 0; k < 2; k++) {
                const kspec *want = &keys[t + 2 * k];
                CHECK(tr->rotation.times[k] == want->time);
                for (int i = 0; i < 4; i++)
                    CHECK(tr->rotation.values[4 * k + i] == want->q[i]);
                for (int i = 0; i < 3; i++)
                    CHECK(tr->translation.values[3 * k + i] == want->t[i]);
            }
        }
        vks_clip_set_free(s);
    } else {
        fprintf(stderr, "ska: %s: %s\n", err.path, err.msg);
    }
    CHECK_EQ_INT(rwa_truncations(vks_rw_ska_read, NULL, b.data, b.size, "ska"), 0);
    CHECK_EQ_INT(rwa_corruptions(vks_rw_ska_read, NULL, b.data, b.size, "ska"), 0);
    /* a key's time field sits after q and t in a .ska: the error points there */
    vks_buf_patch_u32(&b, 12 + 36 * 2 + 28, 0xBF800000); /* -1 s */
    s = NULL;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_rw_ska_read(NULL, b.data, b.size, &s, &err), VKS_ERR_FORMAT);
    CHECK_EQ_INT(err.offset, 12 + 36 * 2 + 28);
    vks_buf_free(&b);
}

int main(int argc, char **argv)
{
    seeds = rwa_seed_dir(argc, argv);
    test_standard();
    test_standard_errors();
    test_compressed();
    test_half_floats();
    test_ska();
    return vks_test_finish("test_rw_anim");
}
