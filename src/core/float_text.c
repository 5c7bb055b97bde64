/* %.9g and %u without printf (float_text.h says why). The float's exact value m·2^e is scaled
 * by a power of ten into nine integer digits with integer arithmetic, so the rounding is the
 * one glibc does on the exact binary value: to nearest, ties to even. Checked against
 * snprintf on every float (tests/test_float_text.c, VKSKIN_TEST_EVERY_FLOAT=1). */
#include "float_text.h"

#include <stdio.h>
#include <string.h>

static const uint64_t pow10_u64[20] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull, 1000000000ull,
    10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull, 100000000000000ull,
    1000000000000000ull, 10000000000000000ull, 100000000000000000ull, 1000000000000000000ull,
    10000000000000000000ull};

#define NINE_DIGITS_LOW 100000000ull   /* 10^8: the smallest nine-digit number */
#define NINE_DIGITS_END 1000000000ull  /* 10^9 */

#if defined(__SIZEOF_INT128__)
static const char two_digits[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                    "8081828384858687888990919293949596979899";

typedef unsigned __int128 u128;

/* a (256 bits, little-endian limbs) *= f */
static void limbs_mul(uint64_t a[4], uint64_t f)
{
    u128 carry = 0;
    for (int i = 0; i < 4; i++) {
        u128 t = (u128)a[i] * f + carry;
        a[i] = (uint64_t)t;
        carry = t >> 64;
    }
}

static int limbs_bit(const uint64_t a[4], int bit)
{
    return (int)((a[bit / 64] >> (bit % 64)) & 1u);
}

/* Any bit below `bit` set. */
static int limbs_any_below(const uint64_t a[4], int bit)
{
    for (int i = 0; i < bit / 64; i++)
        if (a[i])
            return 1;
    return bit % 64 && (a[bit / 64] & ((1ull << (bit % 64)) - 1)) != 0;
}

/* q = floor(m·2^e·10^k) and up = 1 when rounding that value to an integer, to nearest with
 * ties to even, gives q + 1. A q too large for the nine digits sought comes back as
 * UINT64_MAX (the caller then tries the next power of ten). */
static void scale(uint64_t m, int e, int k, uint64_t *q, int *up)
{
    *up = 0;
    if (k < 0) { /* v ≥ 10^9, so an integer: e ≥ 0 and m·2^e < 2^128 */
        if (e < 0 || e > 104 || -k > 38) {
            *q = UINT64_MAX;
            return;
        }
        u128 n = (u128)m << e;
        u128 d = -k < 20 ? (u128)pow10_u64[-k] : (u128)pow10_u64[19] * pow10_u64[-k - 19];
        u128 quot = n / d, r = n - quot * d;
        if (quot >> 64) {
            *q = UINT64_MAX;
            return;
        }
        *q = (uint64_t)quot;
        *up = r > d - r || (r == d - r && (*q & 1u));
        return;
    }
    if (k < 20 && e < 0 && e > -128) { /* the usual case, |v| in [1e-11, 1e9): 128 bits */
        int sh = -e;
        u128 n = (u128)m * pow10_u64[k], quot = n >> sh, r = n - (quot << sh), half = (u128)1 << (sh - 1);
        if (quot >> 64) {
            *q = UINT64_MAX;
            return;
        }
        *q = (uint64_t)quot;
        *up = r > half || (r == half && (*q & 1u));
        return;
    }
    int s = 0; /* the scaled value is a / 2^s */
    uint64_t a[4] = {m, 0, 0, 0};
    if (e >= 0) {
        if (e > 40) { /* v > 2^40: not nine digits at k ≥ 0 */
            *q = UINT64_MAX;
            return;
        }
        a[0] = m << e;
    } else {
        s = -e;
    }
    for (int left = k; left > 0; left -= 19)
        limbs_mul(a, pow10_u64[left < 19 ? left : 19]);
    /* q = a >> s, when it fits 64 bits */
    int w = s / 64, b = s % 64;
    for (int i = w + 2; i < 4; i++)
        if (a[i]) {
            *q = UINT64_MAX;
            return;
        }
    uint64_t hi = w + 1 < 4 ? a[w + 1] : 0;
    if (b ? hi >> b : hi) {
        *q = UINT64_MAX;
        return;
    }
    *q = b ? a[w] >> b | hi << (64 - b) : a[w];
    if (s > 0 && limbs_bit(a, s - 1))
        *up = limbs_any_below(a, s - 1) || (*q & 1u);
}

/* 10^k for k in -46..39, nearest doubles: a first guess at the decimal exponent. */
static const double pow10_guess[86] = {
    1e-46, 1e-45, 1e-44, 1e-43, 1e-42, 1e-41, 1e-40, 1e-39, 1e-38, 1e-37, 1e-36, 1e-35, 1e-34, 1e-33, 1e-32,
    1e-31, 1e-30, 1e-29, 1e-28, 1e-27, 1e-26, 1e-25, 1e-24, 1e-23, 1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17,
    1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0,
    1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37,
    1e38, 1e39};

/* floor(log10(2^p)) for the float range, or one less (the caller corrects it). */
static int log10_pow2_floor(int p)
{
    return p >= 0 ? (p * 78913) >> 18 : -((-p * 78913 + (1 << 18) - 1) >> 18);
}

size_t vks_float_text(char *dst, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    uint32_t biased = (u >> 23) & 0xFFu, fraction = u & 0x7FFFFFu;
    if (biased == 0xFFu) { /* inf, nan: glibc's words, which have no decimal point */
        char t[8];
        int n = snprintf(t, sizeof t, "%.9g", (double)v);
        memcpy(dst, t, (size_t)n);
        return (size_t)n;
    }
    char *p = dst;
    if (u >> 31)
        *p++ = '-';
    if (!biased && !fraction) {
        *p++ = '0';
        return (size_t)(p - dst);
    }
    uint64_t m = biased ? fraction | 0x800000u : fraction;
    int e = biased ? (int)biased - 150 : -149;
    int x = log10_pow2_floor(e + 63 - __builtin_clzll(m)); /* the decimal exponent, or one less */
    double mag = u >> 31 ? -(double)v : (double)v;
    if (x + 47 < 86 && mag >= pow10_guess[x + 47])
        x++; /* a guess still: the scaling below settles it exactly */
    uint64_t q = 0;
    int up = 0;
    for (int tries = 0; tries < 4; tries++) {
        scale(m, e, 8 - x, &q, &up);
        if (q >= NINE_DIGITS_END)
            x++;
        else if (q < NINE_DIGITS_LOW)
            x--;
        else
            break;
    }
    q += (uint64_t)up;
    if (q == NINE_DIGITS_END) { /* 999999999.5 rounds to the next power of ten */
        q = NINE_DIGITS_LOW;
        x++;
    }
    char digit[10];
    for (int i = 8; i > 0; i -= 2, q /= 100)
        memcpy(digit + i - 1, two_digits + 2 * (q % 100), 2);
    digit[0] = (char)('0' + q);
    int nd = 9; /* %g drops the fraction's trailing zeros */
    while (nd > 1 && digit[nd - 1] == '0')
        nd--;
    if (x < -4 || x >= 9) { /* %e: d.dddddddde±XX */
        *p++ = digit[0];
        if (nd > 1)
            *p++ = '.';
        for (int i = 1; i < nd; i++)
            *p++ = digit[i];
        int ax = x < 0 ? -x : x;
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        *p++ = (char)('0' + ax / 10);
        *p++ = (char)('0' + ax % 10);
    } else if (x >= 0) { /* %f with 8 - x decimals */
        for (int i = 0; i <= x; i++)
            *p++ = digit[i];
        if (nd > x + 1)
            *p++ = '.';
        for (int i = x + 1; i < nd; i++)
            *p++ = digit[i];
    } else { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -x - 1; i++)
            *p++ = '0';
        for (int i = 0; i < nd; i++)
            *p++ = digit[i];
    }
    return (size_t)(p - dst);
}

#else /* no 128-bit integers: the C library, which is exact but slower and uses the locale */

size_t vks_float_text(char *dst, float v)
{
    char t[32];
    int n = snprintf(t, sizeof t, "%.9g", (double)v);
    memcpy(dst, t, (size_t)n);
    return (size_t)n;
}

#endif

size_t vks_u32_text(char *dst, uint32_t v)
{
    char t[10];
    int n = 0;
    do {
        t[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        dst[i] = t[n - 1 - i];
    return (size_t)n;
}

size_t vks_text_line(char *dst, const char *tag, const float *v, int n)
{
    size_t len = strlen(tag);
    memcpy(dst, tag, len);
    for (int k = 0; k < n; k++) {
        dst[len++] = ' ';
        len += vks_float_text(dst + len, v[k]);
    }
    dst[len++] = '\n';
    return len;
}
