/* Arma RTM against damaged input: every prefix of the samples and of written files (plain, BMTR
 * 3, 4, 5, LZO arrays) fails with a message naming an offset; corrupted bytes fail with a
 * message or read into a set that validates; chosen damage gives the error it should (code,
 * offset, structure path). Also the limits, the duration option, frames out of phase order,
 * and the writer's refusals. */
#include <math.h>
#include <string.h>

#include "rtm_fixture.h"
#include "testutil.h"

static vks_result read_with(const vks_read_options *opt, const uint8_t *b, size_t n, vks_error *err)
{
    vks_clip_set *set = NULL;
    vks_result r = vks_rtm_read(opt, b, n, &set, err);
    if (r == VKS_OK)
        vks_clip_set_free(set);
    else
        CHECK(set == NULL);
    return r;
}

/* bytes with n bytes at `at` replaced, read; checks code, offset and that path and message
   contain the given pieces. */
static void expect(const uint8_t *bytes, size_t size, size_t at, const void *patch, size_t n, vks_result code,
                   uint64_t offset, const char *path, const char *msg_part)
{
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    memcpy(copy + at, patch, n);
    vks_error err = {0};
    vks_result r = read_with(NULL, copy, size, &err);
    char buf[512];
    vks_error_format(&err, "damaged", buf, sizeof buf);
    if (r != code || err.offset != offset || !strstr(err.path, path) || !strstr(err.msg, msg_part)) {
        fprintf(stderr, "expected code %d at 0x%llx, %s: ...%s...; got %d: %s\n", (int)code,
                (unsigned long long)offset, path, msg_part, (int)r, buf);
        vks_test_failures++;
    }
    free(copy);
}

static void test_errors(const uint8_t *p, size_t psize, const uint8_t *b, size_t bsize)
{
    uint8_t fill[32];
    memset(fill, 'A', sizeof fill);
    /* plain: names at 0x49 (32 bytes each); frame 0 at 0xC9 (phase, then 80 bytes a bone) */
    expect(p, psize, 0x69, fill, 32, VKS_ERR_FORMAT, 0x69, "RTM_0101/bone[1]", "not NUL-terminated");
    expect(p, psize, 0xC9 + 4 + 2 * 80, fill, 32, VKS_ERR_FORMAT, 0xC9 + 4 + 2 * 80, "RTM_0101/frame[0]/bone[2]",
           "not NUL-terminated");
    expect(p, psize, 0x20D + 4 + 5, "x", 1, VKS_ERR_FORMAT, 0x20D + 4, "frame[1]/bone[0]", "\"Pelvix\"");
    float two = 2.0f, nan = NAN;
    expect(p, psize, 0x20D, &two, 4, VKS_ERR_FORMAT, 0x20D, "RTM_0101/frame[1]", "outside 0..1");
    expect(p, psize, 0x281 + 5 * 4, &nan, 4, VKS_ERR_FORMAT, 0x281 + 5 * 4, "frame[1]/bone[1]", "not finite");
    expect(p, psize, 0x10, &two, 4, VKS_ERR_FORMAT, 0x10, "RTM_MDAT/event[0]", "outside 0..1");
    expect(p, psize, 0x2D, "RTM_0102", 8, VKS_ERR_FORMAT, 0x2D, "rtm", "RTM_0102");
    uint32_t many = 0x10000000u;
    expect(p, psize, 0x41, &many, 4, VKS_ERR_LIMIT, 0x41, "RTM_0101", "key limit");
    /* BMTR: version at 4, bone counts at 0x1D and 0x21, frame 1's bones at 0xBF */
    uint32_t v6 = 6, three = 3;
    expect(b, bsize, 4, &v6, 4, VKS_ERR_UNSUPPORTED, 4, "BMTR", "version 6");
    expect(b, bsize, 0x21, &three, 4, VKS_ERR_FORMAT, 0x21, "BMTR", "differ");
    static const uint8_t zero_q[8] = {0};
    expect(b, bsize, 0xCD, zero_q, 8, VKS_ERR_FORMAT, 0xCD, "BMTR/frame[1]/bone[1]", "zero quaternion");
    static const uint8_t half_inf[2] = {0x00, 0x7C};
    expect(b, bsize, 0xCD + 10, half_inf, 2, VKS_ERR_FORMAT, 0xCD, "BMTR/frame[1]/bone[1]", "not finite");
    uint8_t two_flag = 2; /* frame 1 "compressed": its plain bytes are no LZO stream */
    expect(b, bsize, 0xBE, &two_flag, 1, VKS_ERR_FORMAT, 0xBF + 2, "BMTR/frame[1]", "LZO1X");

    /* a byte after the last frame: BMTR refuses it (armaio and a3ob do), plain notes and reads */
    uint8_t *longer = malloc(bsize + 1);
    memcpy(longer, b, bsize);
    longer[bsize] = 0;
    vks_error err = {0};
    CHECK_EQ_INT(read_with(NULL, longer, bsize + 1, &err), VKS_ERR_FORMAT);
    CHECK_EQ_INT(err.offset, bsize);
    free(longer);
    longer = malloc(psize + 1);
    memcpy(longer, p, psize);
    longer[psize] = 0;
    CHECK_EQ_INT(read_with(NULL, longer, psize + 1, &err), VKS_OK);
    free(longer);

    /* limits */
    vks_read_options opt = {0};
    opt.max_nodes = 3;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(read_with(&opt, p, psize, &err), VKS_ERR_LIMIT);
    CHECK_EQ_INT(err.offset, 0x45);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(read_with(&opt, b, bsize, &err), VKS_ERR_LIMIT);
    opt.max_nodes = 0;
    opt.clip.max_keys = 7; /* 2 frames x 4 bones = 8 */
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(read_with(&opt, p, psize, &err), VKS_ERR_LIMIT);
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(read_with(&opt, b, bsize, &err), VKS_ERR_LIMIT);
    CHECK_EQ_INT(read_with(NULL, NULL, 0, &err), VKS_ERR_TRUNCATED);
}

static void test_duration_and_order(const uint8_t *p, size_t psize)
{
    vks_read_options opt = {0};
    opt.clip.duration = 2.5f;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_rtm_read(&opt, p, psize, &set, &err), VKS_OK);
    if (set) {
        const vks_clip *c = &set->clips[0];
        CHECK_NEAR(c->duration, 2.5, 0);
        CHECK_NEAR(c->tracks[1].rotation.times[1], 2.5, 0);
        CHECK_NEAR(c->events[0].time, 0.210526317 * 2.5, 1e-6);
        vks_clip_set_free(set);
    }
    /* the two frames swapped (324 bytes each from 0xC9): read in phase order all the same */
    uint8_t *swapped = malloc(psize);
    memcpy(swapped, p, psize);
    memcpy(swapped + 0xC9, p + 0xC9 + 324, 324);
    memcpy(swapped + 0xC9 + 324, p + 0xC9, 324);
    vks_clip_set *a = rtm_fixture_read(p, psize, 0, "plain"), *b = rtm_fixture_read(swapped, psize, 0, "swapped");
    for (uint32_t t = 0; t < 4; t++) {
        CHECK(!memcmp(a->clips[0].tracks[t].rotation.values, b->clips[0].tracks[t].rotation.values, 8 * sizeof(float)));
        CHECK(!memcmp(a->clips[0].tracks[t].translation.values, b->clips[0].tracks[t].translation.values,
                      6 * sizeof(float)));
    }
    CHECK(b->clips[0].tracks[0].rotation.times[0] == 0.0f);
    vks_clip_set_free(a);
    vks_clip_set_free(b);
    free(swapped);
}

static uint8_t *write_form(const vks_clip *c, const vks_skin *skin, uint32_t version, int compressed, uint32_t frames,
                           size_t *size)
{
    vks_clip_write_options o = {version, compressed, frames};
    uint8_t *bytes = NULL;
    vks_error err = {0};
    if (vks_rtm_write(c, skin, &o, &bytes, size, &err) != VKS_OK) {
        fprintf(stderr, "write v%u: %s\n", version, err.msg);
        vks_test_failures++;
        return NULL;
    }
    return bytes;
}

static void test_written_sweeps(const vks_clip *plain)
{
    vks_skin *skin = rtm_fixture_armaio_skin(0);
    struct {
        uint32_t version;
        int compressed;
        uint32_t frames;
    } forms[] = {{0, 0, 3}, {3, 0, 3}, {4, 0, 3}, {5, 0, 3}, {5, 1, 3}, {3, 0, 260}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        size_t size = 0;
        uint8_t *bytes = write_form(plain, skin, forms[i].version, forms[i].compressed, forms[i].frames, &size);
        if (!bytes)
            continue;
        char label[64];
        snprintf(label, sizeof label, "written v%u%s, %u frames", forms[i].version, forms[i].compressed ? " LZO" : "",
                 forms[i].frames);
        /* 260 frames: 1040 phase bytes, an LZO array in BMTR 3; its prefixes sampled */
        CHECK_EQ_INT(rtm_fixture_truncations(bytes, size, forms[i].frames > 100 ? 37 : 1, label), 0);
        CHECK_EQ_INT(rtm_fixture_corruptions(bytes, size, forms[i].frames > 100 ? 101 : 1, label), 0);
        free(bytes);
    }
    vks_skin_free(skin);
}

static void test_writer_refusals(const vks_clip *plain)
{
    vks_skin *skin = rtm_fixture_armaio_skin(0);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    vks_clip_write_options o = {2, 0, 2};
    CHECK_EQ_INT(vks_rtm_write(plain, skin, &o, &bytes, &size, &err), VKS_ERR_UNSUPPORTED);
    CHECK(bytes == NULL);
    /* a name RTM_0101's char[32] cannot hold */
    const char *long_name = "a_bone_name_of_thirty_two_bytes_";
    skin->nodes[3].name = vks_skin_strndup(skin, long_name, strlen(long_name));
    o.version = 0;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_rtm_write(plain, skin, &o, &bytes, &size, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "longer than 31") != NULL);
    o.version = 5; /* BMTR has no such limit */
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_rtm_write(plain, skin, &o, &bytes, &size, &err), VKS_OK);
    free(bytes);
    bytes = NULL;
    /* a translation past the half float range */
    skin->nodes[0].bind_local.m[9] = 1e5f;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_rtm_write(plain, skin, &o, &bytes, &size, &err), VKS_OK); /* D keeps the bind offset out */
    free(bytes);
    bytes = NULL;
    vks_clip moved = *plain;
    vks_track tracks[4];
    memcpy(tracks, plain->tracks, sizeof tracks);
    float far_t[6] = {0, 0, 0, 7e4f, 0, 0};
    tracks[0].translation.values = far_t;
    moved.tracks = tracks;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_rtm_write(&moved, skin, &o, &bytes, &size, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "half float") != NULL);
    CHECK(bytes == NULL);
    vks_skin_free(skin);
}

int main(void)
{
    size_t psize, bsize;
    uint8_t *p = rtm_fixture_sample("armaio_animation.rtm", &psize);
    uint8_t *b = rtm_fixture_sample("armaio_animation_bmtr.rtm", &bsize);
    CHECK_EQ_INT(rtm_fixture_truncations(p, psize, 1, "armaio_animation.rtm"), 0);
    CHECK_EQ_INT(rtm_fixture_truncations(b, bsize, 1, "armaio_animation_bmtr.rtm"), 0);
    CHECK_EQ_INT(rtm_fixture_corruptions(p, psize, 1, "armaio_animation.rtm"), 0);
    CHECK_EQ_INT(rtm_fixture_corruptions(b, bsize, 1, "armaio_animation_bmtr.rtm"), 0);
    test_errors(p, psize, b, bsize);
    test_duration_and_order(p, psize);
    vks_clip_set *plain = rtm_fixture_read(p, psize, 0, "plain");
    test_written_sweeps(&plain->clips[0]);
    test_writer_refusals(&plain->clips[0]);
    vks_clip_set_free(plain);
    free(p);
    free(b);
    return vks_test_finish("test_rtm_robust");
}
