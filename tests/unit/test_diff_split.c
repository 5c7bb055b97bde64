/* The diff and the error maps split for threads (check.h, report.h): a range compared in
 * parts (vks_diff_add_extremes and vks_error_map_add per part, merged in the parts' order,
 * the sums by vks_diff_add_sums in order) gives the report one pass gives, bit for bit, for
 * every cut; ties of the worst value keep the earlier instance, and non-finite values count
 * as one pass counts them. This is what makes vkskin validate's results the same for any
 * --threads N. */
#include <math.h>
#include <string.h>

#include "testutil.h"

enum { I = 23, V = 17, N = I * V * 3 };

static uint32_t rng = 12345;
static float noise(void)
{
    rng = rng * 1664525u + 1013904223u;
    return (float)((rng >> 8) & 0xffff) / 65536.0f - 0.5f;
}

static int same_report(const vks_diff_report *a, const vks_diff_report *b)
{
    return memcmp(&a->max_abs, &b->max_abs, sizeof a->max_abs) == 0 &&
           memcmp(&a->max_rel, &b->max_rel, sizeof a->max_rel) == 0 &&
           memcmp(&a->nmse, &b->nmse, sizeof a->nmse) == 0 &&
           memcmp(&a->max_scale, &b->max_scale, sizeof a->max_scale) == 0 && a->over == b->over &&
           a->compared == b->compared && a->worst_vertex == b->worst_vertex &&
           a->worst_instance == b->worst_instance && a->pass == b->pass;
}

static int same_map(const vks_error_map *a, const vks_error_map *b)
{
    return memcmp(a->hist, b->hist, sizeof a->hist) == 0 && a->worst == b->worst &&
           a->worst_instance == b->worst_instance && !memcmp(a->error, b->error, V * sizeof(float)) &&
           !memcmp(a->max_error, b->max_error, V * sizeof(float)) &&
           !memcmp(a->positions, b->positions, V * 3 * sizeof(float));
}

/* The whole range in one pass against `parts` parts at the cuts the thread split makes. */
static void compare_split(const float *got, const float *ref, const double *scales, int parts, const char *what)
{
    vks_diff_tolerance tol = vks_diff_default_tolerance();
    vks_diff_acc one, split;
    vks_diff_begin(&one, 2.0, &tol);
    vks_diff_begin(&split, 2.0, &tol);
    vks_error_map m1, ms, part;
    CHECK(vks_error_map_init(&m1, V) == VKS_OK && vks_error_map_init(&ms, V) == VKS_OK &&
          vks_error_map_init(&part, V) == VKS_OK);
    vks_diff_add_scaled(&one, got, ref, 100, I, V, scales);
    vks_error_map_add(&m1, &tol, 2.0, got, ref, 100, I, scales, ref, NULL);
    for (int t = 0; t < parts; t++) {
        uint32_t a = (uint32_t)(I * t / parts), b = (uint32_t)(I * (t + 1) / parts);
        size_t at = (size_t)a * V * 3;
        vks_diff_acc p;
        vks_diff_begin(&p, 2.0, &tol);
        vks_diff_add_extremes(&p, got + at, ref + at, 100 + a, b - a, V, scales ? scales + a : NULL);
        vks_diff_merge(&split, &p);
        vks_error_map_reset(&part);
        vks_error_map_add(&part, &tol, 2.0, got + at, ref + at, 100 + a, b - a, scales ? scales + a : NULL, ref + at, NULL);
        vks_error_map_merge(&ms, &part);
    }
    vks_diff_add_sums(&split, got, ref, N);
    vks_diff_report r1, rs;
    vks_diff_end(&one, &r1);
    vks_diff_end(&split, &rs);
    if (!same_report(&r1, &rs) || !same_map(&m1, &ms)) {
        fprintf(stderr, "%s in %d parts: max %.17g / %.17g at %u.%u / %u.%u, nmse %.17g / %.17g\n", what, parts,
                r1.max_abs, rs.max_abs, r1.worst_instance, r1.worst_vertex, rs.worst_instance, rs.worst_vertex,
                r1.nmse, rs.nmse);
        CHECK(0);
    }
    vks_error_map_free(&m1), vks_error_map_free(&ms), vks_error_map_free(&part);
}

int main(void)
{
    static float ref[N], got[N];
    double scales[I];
    for (int i = 0; i < N; i++) {
        ref[i] = noise() * 3.0f;
        got[i] = ref[i] + noise() * 1e-4f; /* sums of squares that round differently by order */
    }
    for (int i = 0; i < I; i++)
        scales[i] = 1.0 + (i % 5) * 0.75;
    for (int parts = 1; parts <= I; parts++)
        compare_split(got, ref, scales, parts, "noise");
    /* the same worst error in several instances and vertices: the first keeps it */
    for (int i = 0; i < I; i++)
        for (int k = 0; k < 3; k++)
            got[(i * V + 5) * 3 + k] = ref[(i * V + 5) * 3 + k] + 0.25f, ref[(i * V + 5) * 3 + k] = 0.5f,
            got[(i * V + 5) * 3 + k] = 0.75f;
    for (int parts = 1; parts <= I; parts++)
        compare_split(got, ref, NULL, parts, "ties");
    /* non-finite values from the engine late in the range, and one early */
    got[(17 * V + 3) * 3 + 1] = NAN;
    got[(20 * V + 1) * 3 + 2] = INFINITY;
    for (int parts = 1; parts <= I; parts++)
        compare_split(got, ref, scales, parts, "non-finite late");
    got[(1 * V + 2) * 3] = -INFINITY;
    for (int parts = 1; parts <= I; parts++)
        compare_split(got, ref, scales, parts, "non-finite early");
    /* the sums do depend on order: partial sums per part, added after (what a thread split of
       the sums would give), differ from the one pass for some cut, so the checks above can fail */
    for (int i = 0; i < N; i++)
        got[i] = ref[i] + noise() * 1e-3f, ref[i] = noise() * 1e3f;
    vks_diff_acc seq = {0};
    vks_diff_add_sums(&seq, got, ref, N);
    int differs = 0;
    for (int parts = 2; parts <= I && !differs; parts++) {
        vks_diff_acc sum = {0};
        for (int t = 0; t < parts; t++) {
            size_t a = (size_t)N * t / parts, b = (size_t)N * (t + 1) / parts;
            vks_diff_acc p = {0};
            vks_diff_add_sums(&p, got + a, ref + a, b - a);
            vks_diff_merge(&sum, &p);
        }
        differs = sum.sum_sq_diff != seq.sum_sq_diff || sum.sum_sq_ref != seq.sum_sq_ref;
    }
    CHECK(differs);
    return vks_test_finish("test_diff_split");
}
