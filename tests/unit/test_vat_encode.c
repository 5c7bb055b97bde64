/* The VAT encodings a bake runs over whole textures, against their rules as first written
 * (copied below): texels row by row against the per-vertex placement on every kind of layout
 * (a frame a row, wrapped frames, pow2 padding, a split's last part with rows past its
 * frames); the 16-bit quantisation inlined without floor() against the formula with it, on
 * values at the rounding points and the ends; and the bulk half conversion (F16C where the
 * CPU has it) against vks_half_from_float on a sample of every 251st float bit pattern, every
 * special, and lengths that leave a tail. Bake outputs stay the same bytes on this. */
#include <math.h>
#include <string.h>

#include "bake/vat_encode.h"
#include "testutil.h"
#include "vkskin/vat_write.h"

/* ---- the rules, as first written ---- */

static void rule_texels(const float *frames, const vks_vat_layout *l, float *out)
{
    memset(out, 0, vks_vat_texel_floats(l) * sizeof *out);
    for (uint32_t g = 0; g < l->frames; g++)
        for (uint32_t v = 0; v < l->vertex_count; v++) {
            size_t dst = ((size_t)vks_vat_row(l, g, v) * l->width + vks_vat_column(l, v)) * 3;
            memcpy(out + dst, frames + ((size_t)g * l->vertex_count + v) * 3, 12);
        }
}

static uint16_t rule_quantize16(float x, float lo, float hi)
{
    if (!(hi > lo))
        return 0;
    double t = ((double)x - lo) / ((double)hi - lo) * 65535.0;
    if (!(t > 0.0))
        return 0;
    if (t >= 65535.0)
        return 65535;
    return (uint16_t)floor(t + 0.5);
}

/* ---- the checks ---- */

static void texels(uint32_t vertices, uint32_t frames, uint32_t max_width, uint32_t pad_rows, uint32_t used_frames)
{
    vks_vat_layout l;
    vks_error err = {0};
    CHECK(vks_vat_layout_make(vertices, frames, max_width, &l, &err) == VKS_OK);
    l.height += pad_rows;        /* pow2 padding below the frames */
    l.frames = used_frames;      /* a split's last part: fewer frames than its rows hold */
    size_t n = (size_t)used_frames * vertices * 3, t = vks_vat_texel_floats(&l);
    float *src = malloc(n * sizeof *src + 4), *want = malloc(t * sizeof *want), *got = malloc(t * sizeof *got);
    CHECK(src && want && got);
    if (!src || !want || !got)
        return;
    for (size_t i = 0; i < n; i++)
        src[i] = (float)i * 0.25f - 7.0f;
    for (size_t i = 0; i < t; i++)
        got[i] = NAN; /* a texel left unwritten shows */
    rule_texels(src, &l, want);
    vks_vat_texels(src, &l, got);
    if (memcmp(want, got, t * sizeof *got)) {
        fprintf(stderr, "texels of %u vertices x %u frames, width %u, +%u rows, %u used differ\n", vertices, frames,
                l.width, pad_rows, used_frames);
        CHECK(0);
    }
    free(src), free(want), free(got);
}

static void quantize(void)
{
    static const float ranges[][2] = {{-1, 1}, {0, 1}, {-3.7f, 12.25f}, {1e-3f, 1e-3f}, {2, 1}, {-1e30f, 1e30f}};
    enum { N = 4099 };
    static float x[N * 3];
    static uint16_t got[N * 3];
    for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
        float lo = ranges[r][0], hi = ranges[r][1];
        for (int i = 0; i < N * 3; i++) {
            /* the rounding points k + 0.5 of the code scale, a float either side, and the ends */
            double code = (double)(i / 3) * 16.0 + 0.5;
            float v = (float)(lo + code / 65535.0 * ((double)hi - lo));
            x[i] = i % 3 == 0 ? v : i % 3 == 1 ? nextafterf(v, INFINITY) : nextafterf(v, -INFINITY);
        }
        x[0] = lo, x[1] = hi, x[2] = NAN, x[3] = -INFINITY, x[4] = INFINITY, x[5] = hi * 2 - lo;
        float l3[3] = {lo, lo, lo}, h3[3] = {hi, hi, hi};
        vks_vat_quantize_texels(x, N, l3, h3, got);
        int bad = 0;
        for (int i = 0; i < N * 3; i++)
            bad += got[i] != rule_quantize16(x[i], lo, hi) || vks_vat_quantize16(x[i], lo, hi) != got[i];
        if (bad)
            fprintf(stderr, "quantize [%g, %g]: %d codes differ\n", lo, hi, bad);
        CHECK(bad == 0);
    }
}

static void halves(void)
{
    enum { B = 65536 + 5 }; /* not a multiple of the vector width: a tail */
    static float in[B];
    static uint16_t got[B];
    uint64_t bad = 0, done = 0;
    uint32_t x = 0;
    for (int pass = 0; pass < 260; pass++) {
        for (int i = 0; i < B; i++, x += 251u)
            memcpy(&in[i], &x, 4);
        if (pass == 0) { /* the specials and the edges of half's range */
            static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 65504.0f, 65519.99f, 65520.0f,
                                            6.1035156e-05f, 6.0975552e-05f, 5.9604645e-08f, 2.9802322e-08f,
                                            2.9802326e-08f, 1e-45f, -1e-45f, 3.4028235e38f, 1.0f / 3.0f};
            memcpy(in, special, sizeof special);
            uint32_t snan = 0x7f800001u, qnan = 0xffc00123u;
            memcpy(&in[sizeof special / sizeof *special], &snan, 4);
            memcpy(&in[sizeof special / sizeof *special + 1], &qnan, 4);
        }
        size_t n = (size_t)B - (size_t)(pass % 8); /* every tail length */
        vks__half_from_floats(in, got, n);
        for (size_t i = 0; i < n; i++)
            bad += got[i] != vks_half_from_float(in[i]);
        done += n;
    }
    if (bad)
        fprintf(stderr, "half: %llu of %llu differ\n", (unsigned long long)bad, (unsigned long long)done);
    CHECK(bad == 0);
}

int main(void)
{
    texels(1562, 30, 0, 0, 30);    /* a frame a row: the bake's usual layout */
    texels(2493, 17, 700, 0, 17);  /* wrapped: 4 rows a frame, the last part-filled */
    texels(936, 9, 1000, 7, 9);    /* a row a frame, pow2 rows below */
    texels(2034, 12, 1500, 3, 5);  /* a split's last part: rows past its frames, and padding */
    texels(1, 3, 1, 0, 3);
    quantize();
    halves();
    return vks_test_finish("test_vat_encode");
}
