/* vat.h: texture layouts (wrapping long vertex lists), the UVs the rest mesh gets, half
 * floats (every half round-trips; rounding to nearest even at ties; the error bound the
 * decode test relies on) and 16-bit codes normalised to bounds. Starts from what must fail. */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "vkskin/vat.h"

static void test_layout(void)
{
    vks_vat_layout l;
    vks_error err = {0};
    CHECK(vks_vat_layout_make(0, 10, 0, &l, &err) == VKS_ERR_LIMIT);
    CHECK(vks_vat_layout_make(10, 0, 0, &l, &err) == VKS_ERR_LIMIT);
    CHECK(vks_vat_layout_make(100000, 100000, 1, &l, NULL) == VKS_ERR_LIMIT); /* 1e10 rows */
    CHECK(vks_vat_layout_make(1562, 92, 0, &l, &err) == VKS_OK);
    CHECK_EQ_INT(l.width, 1562);
    CHECK_EQ_INT(l.rows_per_frame, 1);
    CHECK_EQ_INT(l.height, 92);
    /* 10 vertices, rows of 4: 3 rows a frame, the last one half used */
    CHECK(vks_vat_layout_make(10, 5, 4, &l, &err) == VKS_OK);
    CHECK_EQ_INT(l.width, 4);
    CHECK_EQ_INT(l.rows_per_frame, 3);
    CHECK_EQ_INT(l.height, 15);
    CHECK_EQ_INT(vks_vat_column(&l, 9), 1);
    CHECK_EQ_INT(vks_vat_row(&l, 0, 9), 2);
    CHECK_EQ_INT(vks_vat_row(&l, 4, 9), 14);
    /* every (frame, vertex) its own texel */
    static uint8_t used[15 * 4];
    memset(used, 0, sizeof used);
    for (uint32_t g = 0; g < 5; g++)
        for (uint32_t v = 0; v < 10; v++)
            used[vks_vat_row(&l, g, v) * 4 + vks_vat_column(&l, v)]++;
    int twice = 0, once = 0;
    for (int i = 0; i < 60; i++)
        twice += used[i] > 1, once += used[i] == 1;
    CHECK_EQ_INT(twice, 0);
    CHECK_EQ_INT(once, 50);
    float uv[2];
    vks_vat_uv(&l, 9, uv);
    CHECK_NEAR(uv[0], 1.5 / 4, 1e-7);
    CHECK_NEAR(uv[1], 2.5 / 15, 1e-7);
}

static void test_half(void)
{
    /* every half value but NaNs comes back bit for bit through float */
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = vks_half_to_float((uint16_t)h);
        if (isnan(f)) {
            bad += !isnan(vks_half_to_float(vks_half_from_float(f)));
            continue;
        }
        bad += vks_half_from_float(f) != h;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(vks_half_from_float(1.0f), 0x3c00);
    CHECK_EQ_INT(vks_half_from_float(-2.0f), 0xc000);
    CHECK_EQ_INT(vks_half_from_float(65504.0f), 0x7bff);
    CHECK_EQ_INT(vks_half_from_float(65520.0f), 0x7c00); /* rounds past the largest: infinity */
    CHECK_EQ_INT(vks_half_from_float(1e-8f), 0);
    CHECK_EQ_INT(vks_half_from_float(ldexpf(1.0f, -24)), 1); /* the smallest subnormal */
    /* ties to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10 */
    CHECK_EQ_INT(vks_half_from_float(1.0f + ldexpf(1.0f, -11)), 0x3c00);
    CHECK_EQ_INT(vks_half_from_float(1.0f + 3 * ldexpf(1.0f, -11)), 0x3c02);
    /* the bound the decode test uses: |x - half(x)| <= |x| * 2^-11 for normal halves */
    double worst = 0;
    for (int i = 0; i < 200000; i++) {
        float x = (float)sin(i * 0.37) * (float)(1 + i % 97);
        double e = fabs(vks_half_to_float(vks_half_from_float(x)) - (double)x) / fmax(fabs(x), 1e-30);
        if (fabs(x) > 1e-4 && e > worst)
            worst = e;
    }
    CHECK(worst <= ldexp(1.0, -11));
}

static void test_quantize(void)
{
    CHECK_EQ_INT(vks_vat_quantize16(1.0f, 2.0f, 2.0f), 0); /* empty bounds */
    CHECK_EQ_INT(vks_vat_quantize16(-5.0f, -1.0f, 1.0f), 0);
    CHECK_EQ_INT(vks_vat_quantize16(5.0f, -1.0f, 1.0f), 65535);
    CHECK_EQ_INT(vks_vat_quantize16(NAN, -1.0f, 1.0f), 0);
    double worst = 0;
    for (int i = 0; i <= 100000; i++) {
        float x = -0.8f + 2.6f * (float)i / 100000;
        float y = vks_vat_dequantize16(vks_vat_quantize16(x, -0.8f, 1.8f), -0.8f, 1.8f);
        worst = fmax(worst, fabs((double)y - x));
    }
    CHECK(worst <= 2.6 / 65535 / 2 + 1e-6); /* + the float rounding of x and of the result */
    float xyz[9] = {1, -2, 3, -4, 5, -6, 0, 0, 0}, mn[3], mx[3];
    vks_vat_bounds(xyz, 3, mn, mx);
    CHECK(mn[0] == -4 && mn[1] == -2 && mn[2] == -6 && mx[0] == 1 && mx[1] == 5 && mx[2] == 3);
}

int main(void)
{
    test_layout();
    test_half();
    test_quantize();
    return vks_test_failures ? 1 : 0;
}
