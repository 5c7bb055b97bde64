/* NIF reader pieces with hand-computed answers: strip to triangle conversion (winding flips
 * on odd positions, degenerates dropped; nif.md 4.6's [13,6,4,6,4] example gives 23 stored
 * and 20 real triangles there), half floats (SSE vertex weights), and a minimal hand-written
 * 20.2.0.7 header with an unknown version byte. */
#include <string.h>

#include "formats/nif/nif_internal.h"
#include "testutil.h"

static void strips(void)
{
    nif_file f = {0};
    f.scratch = vks_skin_create(NULL);
    vks_error e = {0};
    nif_rd r = {vks_cur_make("", 0), &f, &e, 0, "test"};
    /* one strip 0 1 2 3 4: (0,1,2) even, (1,3,2) odd, (2,3,4) even */
    const uint16_t len1[1] = {5}, pts1[5] = {0, 1, 2, 3, 4};
    uint32_t (*t)[3], n;
    CHECK(nif_strips_to_triangles(&r, 1, len1, pts1, &t, &n));
    CHECK_EQ_INT(n, 3);
    const uint32_t want[3][3] = {{0, 1, 2}, {1, 3, 2}, {2, 3, 4}};
    CHECK(memcmp(t, want, sizeof want) == 0);
    /* two strips joined by a degenerate pair: 0 1 2 2 3 | 4 5 6 */
    const uint16_t len2[2] = {5, 3}, pts2[8] = {0, 1, 2, 2, 3, 4, 5, 6};
    CHECK(nif_strips_to_triangles(&r, 2, len2, pts2, &t, &n));
    CHECK_EQ_INT(n, 2); /* (0,1,2) and (4,5,6); (1,2,2) and (2,2,3) are degenerate */
    const uint32_t want2[2][3] = {{0, 1, 2}, {4, 5, 6}};
    CHECK(memcmp(t, want2, sizeof want2) == 0);
    /* strips shorter than 3 give nothing */
    const uint16_t len3[2] = {0, 2}, pts3[2] = {7, 8};
    CHECK(nif_strips_to_triangles(&r, 2, len3, pts3, &t, &n));
    CHECK_EQ_INT(n, 0);
    vks_skin_free(f.scratch);
}

static void halves(void)
{
    CHECK(nif_half(0x3C00) == 1.0f);
    CHECK(nif_half(0x3800) == 0.5f);
    CHECK(nif_half(0xC000) == -2.0f);
    CHECK(nif_half(0x0000) == 0.0f);
    CHECK(nif_half(0x0001) == 1.0f / 16777216.0f); /* smallest subnormal, 2^-24 */
    CHECK(nif_half(0x3555) > 0.3332f && nif_half(0x3555) < 0.3334f);
}

static void header(void)
{
    /* "Gamebryo File Format, Version 20.2.0.8\n" + version: one clear refusal */
    uint8_t b[64];
    const char *line = "Gamebryo File Format, Version 20.2.0.8\n";
    size_t n = strlen(line);
    memcpy(b, line, n);
    const uint8_t v[4] = {0x08, 0x00, 0x02, 0x14};
    memcpy(b + n, v, 4);
    vks_skin *s = NULL;
    vks_error e = {0};
    CHECK_EQ_INT(vks_nif_read(NULL, b, n + 4, &s, &e), VKS_ERR_UNSUPPORTED);
    CHECK(strstr(e.msg, "20.2.0.8") != NULL);
    CHECK_EQ_INT(e.offset, n);
    /* a wrong header line */
    vks_error e2 = {0};
    CHECK_EQ_INT(vks_nif_read(NULL, "Gamebryo Flie Format\n....", 25, &s, &e2), VKS_ERR_FORMAT);
    CHECK(s == NULL);
}

int main(void)
{
    strips();
    halves();
    header();
    return vks_test_finish("test_nif_units");
}
