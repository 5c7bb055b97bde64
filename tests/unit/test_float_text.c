/* The text writers' numbers (core/float_text.h) against the C library's own printf: the CSV
 * and OBJ files must keep the bytes fprintf("%.9g") and ("%u") gave them. Checked here: every
 * float whose bits are a multiple of a prime stride, every float near each power of ten and
 * each half-way point of nine digits (where rounding and the choice of %e or %f turn), the
 * subnormals' edge, ties that round to even, signs, zeros, infinities and NaNs, and a run of
 * random bit patterns. VKSKIN_TEST_EVERY_FLOAT=1 checks all 2^32 floats (about 25 minutes a
 * core; run before a change to float_text.c lands, see BENCHMARKS.md). */
#include "testutil.h"
#include "core/float_text.h"

#include <math.h>
#include <string.h>

static unsigned long checked, mismatches;

static void check_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    char want[64], got[VKS_FLOAT_TEXT_MAX + 8];
    memset(got, 'Z', sizeof got);
    int n = snprintf(want, sizeof want, "%.9g", (double)f);
    size_t m = vks_float_text(got, f);
    checked++;
    if ((size_t)n != m || memcmp(want, got, m) || m > VKS_FLOAT_TEXT_MAX || got[VKS_FLOAT_TEXT_MAX] != 'Z') {
        if (mismatches++ < 20)
            fprintf(stderr, "float %08x: printf gives \"%s\", vks_float_text \"%.*s\"\n", (unsigned)u, want,
                    (int)(m < sizeof got ? m : sizeof got), got);
    }
}

static void check_float(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    check_bits(u);
    check_bits(u ^ 0x80000000u);
}

/* Every float within `reach` units in the last place of f, both signs. */
static void check_around(float f, int reach)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u &= 0x7FFFFFFFu;
    for (int d = -reach; d <= reach; d++) {
        int64_t w = (int64_t)u + d;
        if (w >= 0 && w < 0x7F800000) {
            check_bits((uint32_t)w);
            check_bits((uint32_t)w | 0x80000000u);
        }
    }
}

static void check_u32(uint32_t v)
{
    char want[16], got[16];
    int n = snprintf(want, sizeof want, "%u", (unsigned)v);
    size_t m = vks_u32_text(got, v);
    if ((size_t)n != m || memcmp(want, got, m)) {
        fprintf(stderr, "%u: vks_u32_text \"%.*s\"\n", (unsigned)v, (int)m, got);
        vks_test_failures++;
    }
}

int main(void)
{
    const char *every = getenv("VKSKIN_TEST_EVERY_FLOAT");
    if (every && every[0] == '1') {
        for (uint64_t u = 0; u <= UINT32_MAX; u++)
            check_bits((uint32_t)u);
    } else {
        for (uint64_t u = 0; u <= UINT32_MAX; u += 4099) /* about a million, every exponent */
            check_bits((uint32_t)u);
        for (int k = -45; k <= 38; k++) { /* powers of ten, and where nine digits round up */
            check_around((float)pow(10.0, k), 300);
            check_around((float)(9.999999995 * pow(10.0, k)), 300);
            check_around((float)(1.000000005 * pow(10.0, k)), 300);
        }
        check_around(1e-4f, 3000); /* %f below, %e above: the turns of %g */
        check_around(1e9f, 3000);
        check_around(0x1p-126f, 3000); /* normals and subnormals meet */
        check_around(0x1p-149f, 3000);
        check_around(3.40282347e38f, 3000);
        const float special[] = {0.0f,           1.0f,         0.5f,  1234567.125f, 1234567.375f, 16777216.0f, 0.1f,
                                 123456789.0f,   999999999.0f, 1e-5f, 9.99999944e-5f, (float)INFINITY, NAN,
                                 1.17549435e-38f};
        for (size_t i = 0; i < sizeof special / sizeof *special; i++)
            check_float(special[i]);
        uint32_t x = 2463534242u; /* xorshift: a fixed sequence of bit patterns */
        for (int i = 0; i < 1000000; i++) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            check_bits(x);
        }
    }
    /* 1234567.125 lies half-way between nine-digit neighbours: ties go to the even digit */
    char t[VKS_FLOAT_TEXT_MAX];
    CHECK(vks_float_text(t, 1234567.125f) == 10 && !memcmp(t, "1234567.12", 10));
    CHECK(vks_float_text(t, -0.0f) == 2 && !memcmp(t, "-0", 2));
    fprintf(stderr, "%lu floats, %lu differ from printf\n", checked, mismatches);
    CHECK(mismatches == 0);

    const uint32_t ints[] = {0, 1, 9, 10, 99, 100, 4294967295u, 1000000000u, 999999999u, 65536u};
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        check_u32(ints[i]);
    for (uint32_t v = 1; v < 4000000000u; v = v * 3 + 1)
        check_u32(v);

    char line[VKS_TEXT_LINE_MAX];
    const float v[4] = {1.0f, -0.25f, 3e-7f, 12345.678f};
    size_t n = vks_text_line(line, "vn", v, 3);
    CHECK(n == strlen("vn 1 -0.25 3.00000011e-07\n") && !memcmp(line, "vn 1 -0.25 3.00000011e-07\n", n));
    return vks_test_finish("test_float_text");
}
