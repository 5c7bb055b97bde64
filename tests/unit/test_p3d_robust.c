/* Truncation and corruption at every position of the small P3D samples (and at boundaries
 * plus spread positions of the larger ones): each damaged file must fail with one message or
 * give a model that validates. Also the clear refusals: versions, magic, encryption. */
#include <string.h>
#include <time.h>

#include "formats/p3d/p3d_internal.h"
#include "testutil.h"

static uint8_t *load(const char *rel, size_t *n)
{
    uint8_t *b = vks_test_read_file(vks_test_dataset(rel), n);
    if (!b) {
        fprintf(stderr, "cannot read %s\n", rel);
        exit(1);
    }
    return b;
}

static vks_result read_err(const uint8_t *b, size_t n, vks_error *err)
{
    vks_skin *s = NULL;
    memset(err, 0, sizeof *err);
    vks_result r = vks_p3d_read(NULL, b, n, &s, err);
    vks_skin_free(s);
    return r;
}

static void sweep(const char *rel, const vks_read_options *o, int every)
{
    clock_t t0 = clock();
    size_t n;
    uint8_t *b = load(rel, &n);
    size_t bounds[] = {0, 1, 3, 4, 8, 12, 16, 28, 40, n - 4, n - 1};
    int bad = vks_test_truncations(vks_p3d_read, o, b, n, every ? n : 0, bounds, sizeof bounds / sizeof *bounds,
                                   every ? 0 : 100);
    if (bad)
        fprintf(stderr, "%s: %d truncations wrongly handled\n", rel, bad);
    CHECK_EQ_INT(bad, 0);
    size_t *pos = NULL, npos = 0;
    if (!every) { /* spread positions plus the first 2 KB */
        pos = malloc(1000 * sizeof *pos);
        for (size_t i = 0; i < 128 && i < n; i++)
            pos[npos++] = i;
        for (size_t i = 0; i < 96; i++)
            pos[npos++] = (size_t)((i * 2654435761u) % n);
    }
    bad = vks_test_corruptions(vks_p3d_read, o, b, n, pos, npos, 4);
    if (bad)
        fprintf(stderr, "%s: %d corruptions wrongly handled\n", rel, bad);
    CHECK_EQ_INT(bad, 0);
    free(pos);
    free(b);
    printf("%s: %.2f s\n", rel, (double)(clock() - t0) / CLOCKS_PER_SEC);
}

static void test_refusals(void)
{
    size_t n;
    uint8_t *b = load("p3d/odol/ace_TracerRed2.p3d", &n);
    vks_error err;
    b[4] = 80; /* ODOL v80 */
    CHECK_EQ_INT(read_err(b, n, &err), VKS_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "version 80") != NULL);
    b[4] = 7; /* OFP-era */
    CHECK_EQ_INT(read_err(b, n, &err), VKS_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "version 7") != NULL);
    free(b);
    b = load("p3d/synthetic_skinned_tube.p3d", &n);
    b[4] = 0x02;
    CHECK_EQ_INT(read_err(b, n, &err), VKS_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "0x102") != NULL);
    b[4] = 0x01;
    memcpy(b, "MLOX", 4);
    CHECK_EQ_INT(read_err(b, n, &err), VKS_ERR_FORMAT);
    CHECK(strstr(err.msg, "MLOD or ODOL") != NULL);
    memcpy(b, "MLOD", 4);
    /* a selection whose length is not points + faces */
    free(b);
    /* an ODOL v75 header with encryption words */
    uint8_t enc[32] = {'O', 'D', 'O', 'L', 75, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    CHECK_EQ_INT(read_err(enc, sizeof enc, &err), VKS_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "encrypted") != NULL);
    CHECK_EQ_INT(read_err(enc, 3, &err), VKS_ERR_TRUNCATED);
}

/* BI LZSS by hand (notes 4.4): 3 literals, then a 9-byte reference 3 back, then the sum. */
static void test_lzss(void)
{
    static const uint8_t stream[] = {0x07, 'a', 'b', 'c', 0x03, 0x06, 0x98, 0x04, 0x00, 0x00};
    uint8_t out[12];
    vks_cursor c = vks_cur_make(stream, sizeof stream);
    CHECK(p3d_lzss_decode(&c, out, sizeof out));
    CHECK(!memcmp(out, "abcabcabcabc", 12));
    CHECK_EQ_INT(vks_cur_left(&c), 0);
    uint8_t badsum[sizeof stream];
    memcpy(badsum, stream, sizeof stream);
    badsum[6] ^= 1;
    c = vks_cur_make(badsum, sizeof badsum);
    CHECK(!p3d_lzss_decode(&c, out, sizeof out)); /* checksum mismatch */
    for (size_t n = 0; n < sizeof stream; n++) {   /* every prefix fails */
        c = vks_cur_make(stream, n);
        CHECK(!p3d_lzss_decode(&c, out, sizeof out));
    }
    /* a reference before any output reads the ring's initial spaces */
    static const uint8_t spaces[] = {0x00, 0x05, 0x00, 0x60, 0x00, 0x00, 0x00};
    c = vks_cur_make(spaces, sizeof spaces);
    CHECK(p3d_lzss_decode(&c, out, 3));
    CHECK(!memcmp(out, "   ", 3));
}

int main(void)
{
    test_lzss();
    vks_read_options o = {0};
    test_refusals();
    sweep("p3d/odol/ace_TracerRed2.p3d", &o, 1);
    sweep("p3d/odol/ace_headbanger.p3d", &o, 1);
    sweep("p3d/a3ob_sample_2_crate.p3d", &o, 0);
    sweep("p3d/odol/ace_tacticalladder_pack.p3d", &o, 0);
    sweep("p3d/odol/ACE_ConcertinaWireNoGeo.p3d", &o, 0);
    /* with the tube's skeleton, so corrupted weights reach the skinning code */
    size_t cn;
    uint8_t *cfg = load("p3d/synthetic_skinned_tube.model.cfg", &cn);
    o.p3d.model_cfg = (const char *)cfg;
    o.p3d.model_cfg_size = cn;
    o.p3d.model_name = "synthetic_skinned_tube";
    sweep("p3d/synthetic_skinned_tube.p3d", &o, 1);
    free(cfg);
    return vks_test_finish("test_p3d_robust");
}
