/* vks_diff_add_sums against its rule, the loop it was (copied here): the squares of a - b and of
 * b added one component after the other, non-finite components skipped. The library makes the
 * squares ahead in blocks and vectors and adds 0 for a skipped component; the sums must be the
 * same bits: for every length across the block and vector edges, with NaN and infinities in
 * any position of a vector, and continuing sums that are already large; and two streams taken
 * in one pass (vks__diff_add_sums_pair) the same bits as each alone. */
#include "testutil.h"

#include "check/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void rule(double *sd, double *sr, const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = a[i], y = b[i], d = fabs(x - y);
        if (!isfinite(x) || !isfinite(y))
            continue;
        *sd += d * d;
        *sr += y * y;
    }
}

int main(void)
{
    enum { N = 2100 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    CHECK(a && b);
    uint64_t r = 12345;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < N; i++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(r >> 11) / 9007199254740992.0;
            b[i] = (float)ldexp(u - 0.5, (int)(r % 40) - 20);
            a[i] = b[i] + (float)ldexp(u - 0.3, (int)(r >> 7) % 30 - 40);
            if (pass > 0 && r % 7 == 0) { /* a non-finite value on either side, in any lane */
                static const float bad[3] = {INFINITY, -INFINITY, NAN};
                (r >> 3 & 1 ? a : b)[i] = bad[(r >> 5) % 3];
            }
        }
        for (size_t n = 0; n <= N; n += (n < 40 ? 1 : n < 1100 ? 37 : 1)) {
            vks_diff_acc acc;
            vks_diff_begin(&acc, 1.0, NULL);
            double sd = pass == 2 ? 1e30 : 0, sr = pass == 2 ? 3.5 : 0;
            acc.sum_sq_diff = sd, acc.sum_sq_ref = sr;
            rule(&sd, &sr, a + 1, b + 1, n - (n > 0)); /* unaligned starts too */
            vks_diff_add_sums(&acc, a + 1, b + 1, n - (n > 0));
            /* two streams in one pass: each the same bits as alone (here the stream reversed) */
            vks_diff_acc p0, p1, alone;
            vks_diff_begin(&p0, 1.0, NULL), vks_diff_begin(&p1, 1.0, NULL), vks_diff_begin(&alone, 1.0, NULL);
            p0.sum_sq_diff = p1.sum_sq_diff = alone.sum_sq_diff = pass == 2 ? 1e30 : 0;
            p0.sum_sq_ref = p1.sum_sq_ref = alone.sum_sq_ref = pass == 2 ? 3.5 : 0;
            size_t m = n - (n > 0);
            vks_diff_add_sums(&alone, b + N - m, a + N - m, m);
            vks__diff_add_sums_pair(&p0, a + 1, b + 1, &p1, b + N - m, a + N - m, m);
            CHECK(!memcmp(&p0.sum_sq_diff, &acc.sum_sq_diff, sizeof sd) &&
                  !memcmp(&p0.sum_sq_ref, &acc.sum_sq_ref, sizeof sr));
            CHECK(!memcmp(&p1.sum_sq_diff, &alone.sum_sq_diff, sizeof sd) &&
                  !memcmp(&p1.sum_sq_ref, &alone.sum_sq_ref, sizeof sr));
            if (memcmp(&sd, &acc.sum_sq_diff, sizeof sd) || memcmp(&sr, &acc.sum_sq_ref, sizeof sr)) {
                fprintf(stderr, "FAIL pass %d, %zu components: %a %a vs %a %a\n", pass, n, acc.sum_sq_diff,
                        acc.sum_sq_ref, sd, sr);
                CHECK(0);
                break;
            }
        }
    }
    free(a), free(b);
    return vks_test_finish("test_diff_sums");
}
