/* GTA .ifp reader against hand-built fixtures: ANPK with KRT0 / KR00 / keyless sequences
 * (conjugated quaternions, bone tags from 44-byte ANIMs), ANP3 with int16 frame types 3 and 4
 * (scales 1/4096, 1/60, 1/1024), ANP2 with float types 1 and 2; the root track rule; broken
 * sections, types, times and values; limits; truncation at every byte; corrupted bytes. */
#include <math.h>
#include <string.h>

#include "test_rw_anim_util.h"
#include "testutil.h"

static void ident(tb *b, const char *id) { vks_buf_put(b, id, 4); }

/* A section header with its size patched by end_section. */
static size_t begin_section(tb *b, const char *id)
{
    size_t at = b->size;
    ident(b, id);
    vks_buf_u32(b, 0);
    return at;
}

static void end_section(tb *b, size_t at) { vks_buf_patch_u32(b, at + 4, (uint32_t)(b->size - at - 8)); }

static void patch16(tb *b, size_t at, uint16_t v)
{
    b->data[at] = (uint8_t)v;
    b->data[at + 1] = (uint8_t)(v >> 8);
}

static void pad4(tb *b)
{
    while (b->size & 3)
        vks_buf_u8(b, 0);
}

/* ANPK, one clip "walk":
     Root: ANIM 44 (tag 0), KRT0, keys at 0 and 1 s
     Arm:  ANIM 40 (no tag), KR00, keys at 0, 0.5 and 1.5 s
     Hand: ANIM 44 (tag 5), no keys (no key block) */
static const float root_q[2][4] = {{0, 0, 0, 1}, {0.6f, 0, 0, 0.8f}}; /* as read (stored conjugated) */
static const float root_t[2][3] = {{0, 0, 1}, {0, 2, 1}};
static const float arm_q[3][4] = {{0, 0, 0.6f, 0.8f}, {0, 0.8f, 0, 0.6f}, {0, 0, 0, 1}};
static const float arm_time[3] = {0, 0.5f, 1.5f};

static void anim_section(tb *b, const char *name, uint32_t keys, int tag)
{
    size_t a = begin_section(b, "ANIM");
    tb_str(b, name, 28);
    vks_buf_u32(b, keys);
    vks_buf_u32(b, 0);
    vks_buf_u32(b, keys ? keys - 1 : 0);
    if (tag >= 0)
        vks_buf_u32(b, (uint32_t)tag);
    end_section(b, a);
}

static tb make_anpk(void)
{
    tb b = {0};
    size_t top = begin_section(&b, "ANPK");
    size_t info = begin_section(&b, "INFO");
    vks_buf_u32(&b, 1);
    vks_buf_put(&b, "peds", 5);
    end_section(&b, info);
    pad4(&b);
    size_t name = begin_section(&b, "NAME");
    vks_buf_put(&b, "walk", 5);
    end_section(&b, name);
    pad4(&b);
    size_t dgan = begin_section(&b, "DGAN");
    info = begin_section(&b, "INFO");
    vks_buf_u32(&b, 3);
    vks_buf_u32(&b, 0);
    end_section(&b, info);

    size_t cpan = begin_section(&b, "CPAN");
    anim_section(&b, "Root", 2, 0);
    size_t kb = begin_section(&b, "KRT0");
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 4; i++)
            vks_buf_f32(&b, i < 3 ? -root_q[k][i] : root_q[k][i]);
        for (int i = 0; i < 3; i++)
            vks_buf_f32(&b, root_t[k][i]);
        vks_buf_f32(&b, (float)k);
    }
    end_section(&b, kb);
    end_section(&b, cpan);

    cpan = begin_section(&b, "CPAN");
    anim_section(&b, "Arm", 3, -1);
    kb = begin_section(&b, "KR00");
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 4; i++)
            vks_buf_f32(&b, i < 3 ? -arm_q[k][i] : arm_q[k][i]);
        vks_buf_f32(&b, arm_time[k]);
    }
    end_section(&b, kb);
    end_section(&b, cpan);

    cpan = begin_section(&b, "CPAN");
    anim_section(&b, "Hand", 0, 5);
    end_section(&b, cpan);
    end_section(&b, dgan);
    end_section(&b, top);
    return b;
}

static vks_result read_ifp(const tb *b, const vks_read_options *opt, vks_clip_set **s, vks_error *err)
{
    return vks_ifp_read(opt, b->data, b->size, s, err);
}

static const char *seeds;

static void test_anpk(void)
{
    tb b = make_anpk();
    rwa_write_seed(seeds, "hand_anpk.ifp", b.data, b.size);
    vks_clip_set *s = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(read_ifp(&b, NULL, &s, &err), VKS_OK);
    if (!s) {
        fprintf(stderr, "anpk: %s: %s\n", err.path, err.msg);
    } else {
        CHECK(strcmp(s->format, "ifp") == 0 && strcmp(s->format_detail, "ANPK") == 0);
        CHECK_EQ_INT(s->clip_count, 1);
        const vks_clip *c = &s->clips[0];
        CHECK(strcmp(c->name, "walk") == 0);
        CHECK(c->duration == 1.5f); /* the last key over the tracks */
        CHECK_EQ_INT(c->cycle, VKS_CYCLE_LOOP);
        CHECK_EQ_INT(c->space, VKS_CLIP_LOCAL);
        CHECK_EQ_INT(c->root_track, 0); /* tagged 0 */
        CHECK_EQ_INT(c->track_count, 3);
        if (c->track_count == 3) {
            const vks_track *root = &c->tracks[0], *arm = &c->tracks[1], *hand = &c->tracks[2];
            CHECK(strcmp(root->node_name, "Root") == 0);
            CHECK(root->has_tag && root->node_tag == 0);
            CHECK_EQ_INT(root->rotation.key_count, 2);
            CHECK_EQ_INT(root->translation.key_count, 2);
            for (int k = 0; k < 2; k++) {
                CHECK(root->rotation.times[k] == (float)k);
                for (int i = 0; i < 4; i++) /* stored conjugated: read back as written here */
                    CHECK(root->rotation.values[4 * k + i] == root_q[k][i]);
                for (int i = 0; i < 3; i++)
                    CHECK(root->translation.values[3 * k + i] == root_t[k][i]);
            }
            CHECK(strcmp(arm->node_name, "Arm") == 0);
            CHECK(!arm->has_tag);
            CHECK_EQ_INT(arm->rotation.key_count, 3);
            CHECK_EQ_INT(arm->translation.key_count, 0); /* KR00: the bind translation stays */
            for (int k = 0; k < 3; k++) {
                CHECK(arm->rotation.times[k] == arm_time[k]);
                for (int i = 0; i < 4; i++)
                    CHECK(arm->rotation.values[4 * k + i] == arm_q[k][i]);
            }
            CHECK(strcmp(hand->node_name, "Hand") == 0);
            CHECK(hand->has_tag && hand->node_tag == 5);
            CHECK_EQ_INT(hand->rotation.key_count, 0);
        }
        vks_clip_set_free(s);
    }
    CHECK_EQ_INT(rwa_truncations(vks_ifp_read, NULL, b.data, b.size, "anpk"), 0);
    CHECK_EQ_INT(rwa_corruptions(vks_ifp_read, NULL, b.data, b.size, "anpk"), 0);
    vks_buf_free(&b);
}

/* ANP3 "run" (int16 keys) or ANP2 ("a" float type 2, "b" float type 1 with one key). */
static tb make_anp3(void)
{
    tb b = {0};
    size_t top = begin_section(&b, "ANP3");
    tb_str(&b, "ped", 24);
    vks_buf_u32(&b, 1);
    tb_str(&b, "run", 24);
    vks_buf_u32(&b, 2);
    vks_buf_u32(&b, 2 * 16 + 2 * 10);
    vks_buf_u32(&b, 1);
    tb_str(&b, " Pelvis", 24);
    vks_buf_u32(&b, 4);
    vks_buf_u32(&b, 2);
    vks_buf_u32(&b, 1);
    static const int16_t k4[2][8] = {{0, 0, 2896, 2896, 0, 1024, -512, 2048}, {0, 0, 0, 4096, 30, 0, 0, 0}};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 8; i++)
            vks_buf_u16(&b, (uint16_t)k4[k][i]);
    tb_str(&b, " L Thigh", 24);
    vks_buf_u32(&b, 3);
    vks_buf_u32(&b, 2);
    vks_buf_u32(&b, 0xFFFFFFFF); /* -1: by name */
    static const int16_t k3[2][5] = {{4096, 0, 0, 0, 0}, {0, -4096, 0, 0, 45}};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 5; i++)
            vks_buf_u16(&b, (uint16_t)k3[k][i]);
    end_section(&b, top);
    return b;
}

static tb make_anp2(void)
{
    tb b = {0};
    size_t top = begin_section(&b, "ANP2");
    tb_str(&b, "ped", 24);
    vks_buf_u32(&b, 2);
    tb_str(&b, "a", 24);
    vks_buf_u32(&b, 1);
    tb_str(&b, "Bone", 24);
    vks_buf_u32(&b, 2);
    vks_buf_u32(&b, 2);
    vks_buf_u32(&b, 7);
    for (int k = 0; k < 2; k++) {
        vks_buf_f32(&b, 0), vks_buf_f32(&b, 0), vks_buf_f32(&b, 0), vks_buf_f32(&b, 1);
        vks_buf_f32(&b, 0.25f * (float)k);
        vks_buf_f32(&b, 1), vks_buf_f32(&b, 2), vks_buf_f32(&b, 3 + (float)k);
    }
    tb_str(&b, "b", 24);
    vks_buf_u32(&b, 1);
    tb_str(&b, "Root", 24);
    vks_buf_u32(&b, 1);
    vks_buf_u32(&b, 1);
    vks_buf_u32(&b, 0xFFFFFFFF);
    vks_buf_f32(&b, 0), vks_buf_f32(&b, 0), vks_buf_f32(&b, 0), vks_buf_f32(&b, 1);
    vks_buf_f32(&b, 0);
    end_section(&b, top);
    return b;
}

static void test_anp3(void)
{
    tb b = make_anp3();
    rwa_write_seed(seeds, "hand_anp3.ifp", b.data, b.size);
    vks_clip_set *s = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(read_ifp(&b, NULL, &s, &err), VKS_OK);
    if (!s) {
        fprintf(stderr, "anp3: %s: %s\n", err.path, err.msg);
    } else {
        CHECK(strcmp(s->format_detail, "ANP3") == 0);
        const vks_clip *c = &s->clips[0];
        CHECK(strcmp(c->name, "run") == 0);
        CHECK(c->duration == 0.75f); /* 45 / 60 */
        CHECK(c->fps == 60.0f);
        CHECK_EQ_INT(c->root_track, 0); /* no tag 0, no "Root": the first track, translated */
        CHECK_EQ_INT(c->track_count, 2);
        if (c->track_count == 2) {
            const vks_track *p = &c->tracks[0], *t = &c->tracks[1];
            CHECK(strcmp(p->node_name, " Pelvis") == 0 && p->has_tag && p->node_tag == 1);
            CHECK_EQ_INT(p->translation.key_count, 2);
            CHECK(p->rotation.values[2] == 2896.0f / 4096 && p->rotation.values[3] == 0.70703125f);
            CHECK(p->rotation.values[7] == 1.0f);
            CHECK(p->translation.values[0] == 1.0f && p->translation.values[1] == -0.5f &&
                  p->translation.values[2] == 2.0f);
            CHECK(p->rotation.times[1] == 0.5f);
            CHECK(strcmp(t->node_name, " L Thigh") == 0 && !t->has_tag);
            CHECK_EQ_INT(t->translation.key_count, 0);
            CHECK(t->rotation.values[0] == 1.0f && t->rotation.values[5] == -1.0f);
            CHECK(t->rotation.times[1] == 0.75f);
        }
        vks_clip_set_free(s);
    }
    CHECK_EQ_INT(rwa_truncations(vks_ifp_read, NULL, b.data, b.size, "anp3"), 0);
    CHECK_EQ_INT(rwa_corruptions(vks_ifp_read, NULL, b.data, b.size, "anp3"), 0);
    vks_buf_free(&b);

    b = make_anp2();
    rwa_write_seed(seeds, "hand_anp2.ifp", b.data, b.size);
    s = NULL;
    CHECK_EQ_INT(read_ifp(&b, NULL, &s, &err), VKS_OK);
    if (s) {
        CHECK(strcmp(s->format_detail, "ANP2") == 0);
        CHECK_EQ_INT(s->clip_count, 2);
        const vks_clip *a = &s->clips[0], *c = &s->clips[1];
        CHECK(a->duration == 0.25f && a->fps == 0);
        CHECK_EQ_INT(a->root_track, 0); /* the first track, translated */
        CHECK(a->tracks[0].has_tag && a->tracks[0].node_tag == 7);
        CHECK(a->tracks[0].translation.values[5] == 4.0f);
        CHECK_NEAR(c->duration, 1.0 / 60, 1e-9); /* every key at 0 */
        CHECK_EQ_INT(c->root_track, 0);           /* named Root */
        CHECK_EQ_INT(c->tracks[0].translation.key_count, 0);
        CHECK_EQ_INT(vks_clip_set_find(s, "b"), 1);
        vks_clip_set_free(s);
    }
    CHECK_EQ_INT(rwa_truncations(vks_ifp_read, NULL, b.data, b.size, "anp2"), 0);
    CHECK_EQ_INT(rwa_corruptions(vks_ifp_read, NULL, b.data, b.size, "anp2"), 0);
    vks_buf_free(&b);
}

static void expect(const tb *b, const vks_read_options *opt, vks_result code, uint64_t at, const char *what)
{
    rwa_expect(vks_ifp_read, b->data, b->size, opt, code, at, what);
}

/* Offset of the nth occurrence of a 4-byte ident. */
static size_t find_ident(const tb *b, const char *id, int nth)
{
    for (size_t i = 0; i + 4 <= b->size; i++)
        if (memcmp(b->data + i, id, 4) == 0 && nth-- == 0)
            return i;
    return (size_t)-1;
}

static void test_errors(void)
{
    tb b = make_anpk();
    size_t at;
    memcpy(b.data, "ANLF", 4);
    expect(&b, NULL, VKS_ERR_UNSUPPORTED, 0, "ANLF");
    memcpy(b.data, "RIFF", 4);
    expect(&b, NULL, VKS_ERR_FORMAT, 0, "not an ifp");
    memcpy(b.data, "ANPK", 4);
    at = find_ident(&b, "NAME", 0);
    memcpy(b.data + at, "NAMX", 4);
    expect(&b, NULL, VKS_ERR_FORMAT, at, "wrong section");
    memcpy(b.data + at, "NAME", 4);
    at = find_ident(&b, "KR00", 0);
    memcpy(b.data + at, "KRXX", 4);
    expect(&b, NULL, VKS_ERR_FORMAT, at, "unknown key block");
    memcpy(b.data + at, "KR00", 4);
    at = find_ident(&b, "ANIM", 1);
    vks_buf_patch_u32(&b, at + 4, 20);
    expect(&b, NULL, VKS_ERR_FORMAT, at + 4, "short ANIM");
    vks_buf_patch_u32(&b, at + 4, 40);
    /* Arm's second key before its first */
    at = find_ident(&b, "KR00", 0) + 8 + 20 + 16;
    vks_buf_patch_u32(&b, at, 0xBF800000); /* -1 s */
    expect(&b, NULL, VKS_ERR_FORMAT, at, "negative time");
    vks_buf_patch_u32(&b, at, 0x3F000000);
    at = find_ident(&b, "KR00", 0) + 8 + 40 + 16;
    vks_buf_patch_u32(&b, at, 0x3E800000); /* 0.25 s after 0.5 s */
    expect(&b, NULL, VKS_ERR_FORMAT, at, "time going back");
    vks_buf_patch_u32(&b, at, 0x3FC00000);
    /* the root's first key: a zero quaternion (w = 0 too) */
    at = find_ident(&b, "KRT0", 0) + 8;
    vks_buf_patch_u32(&b, at + 12, 0);
    expect(&b, NULL, VKS_ERR_FORMAT, at, "zero quaternion");
    vks_buf_patch_u32(&b, at + 12, 0x3F800000);
    /* counts and limits */
    at = find_ident(&b, "DGAN", 0) + 16;
    vks_buf_patch_u32(&b, at, 0x80000000);
    expect(&b, NULL, VKS_ERR_FORMAT, at, "negative sequences");
    vks_buf_patch_u32(&b, at, 1000);
    expect(&b, NULL, VKS_ERR_TRUNCATED, at, "sequences past the end");
    vks_buf_patch_u32(&b, at, 3);
    vks_read_options opt = {0};
    opt.max_nodes = 2;
    expect(&b, &opt, VKS_ERR_LIMIT, at, "sequence limit");
    opt.max_nodes = 0;
    opt.clip.max_keys = 4;
    expect(&b, &opt, VKS_ERR_LIMIT, VKS_NO_OFFSET, "key limit");
    opt.clip.max_keys = 0;
    vks_clip_set *s = NULL;
    CHECK_EQ_INT(read_ifp(&b, NULL, &s, NULL), VKS_OK); /* every patch undone */
    vks_clip_set_free(s);
    vks_buf_free(&b);

    b = make_anp3();
    const size_t seq0 = 8 + 28 + 36, seq1 = seq0 + 36 + 32;
    vks_buf_patch_u32(&b, seq0 + 24, 5);
    expect(&b, NULL, VKS_ERR_FORMAT, seq0 + 24, "frame type 5");
    vks_buf_patch_u32(&b, seq0 + 24, 4);
    patch16(&b, seq1 + 36 + 10 + 8, 0xFFFF); /* the thigh's second time: -1/60 s */
    expect(&b, NULL, VKS_ERR_FORMAT, seq1 + 36 + 10 + 8, "negative int16 time");
    patch16(&b, seq1 + 36 + 10 + 8, 45);
    patch16(&b, seq1 + 36 + 10 + 2, 0); /* its quaternion was (0, -1, 0, 0) */
    expect(&b, NULL, VKS_ERR_FORMAT, seq1 + 36 + 10, "zero int16 quaternion");
    vks_buf_free(&b);
    b = make_anp3();
    opt.clip.max_clips = 0;
    opt.max_nodes = 1;
    expect(&b, &opt, VKS_ERR_LIMIT, 8 + 28 + 24, "sequence limit (ANP3)");
    vks_buf_free(&b);
    b = make_anp2();
    opt.max_nodes = 0;
    opt.clip.max_clips = 1;
    expect(&b, &opt, VKS_ERR_LIMIT, 32, "clip limit");
    vks_buf_free(&b);
}

int main(int argc, char **argv)
{
    seeds = rwa_seed_dir(argc, argv);
    test_anpk();
    test_anp3();
    test_errors();
    return vks_test_finish("test_rw_anim_ifp");
}
