/* Compares two deformations of one character whose vertex lists differ in order and in
 * duplicates: an uncompressed original and its compressed copy (gltfpack and Draco reorder
 * vertices and merge equal ones). Each copy vertex is matched to the original vertex nearest
 * to it at the bind pose; then, in every pose, their deformed positions must agree within
 * tol x the original's bounding radius and their normals within ntol (unit vectors: an
 * absolute bound), and every original vertex must have a copy vertex within tol at the bind
 * pose (nothing lost). Inputs are `vkskin deform --format raw` files: float32 x y z nx ny nz
 * per vertex, poses one after another.
 * Usage: compare_matched_raw ORIG_BIND COPY_BIND ORIG_POSED COPY_POSED TOL NTOL
 * Prints the largest errors (relative to the radius); exit 0 within bounds, 1 past them, 2 on
 * unusable input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct raw {
    float *v;   /* 6 floats a vertex */
    size_t n;   /* vertices over all poses */
} raw;

static int load(const char *path, raw *r)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fprintf(stderr, "compare_matched_raw: cannot open %s\n", path), 0;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    r->n = size > 0 ? (size_t)size / 24 : 0;
    r->v = malloc(r->n * 24 + 1);
    int ok = r->v && size % 24 == 0 && fread(r->v, 24, r->n, f) == r->n && r->n > 0;
    fclose(f);
    if (!ok)
        fprintf(stderr, "compare_matched_raw: %s is not a non-empty raw deformation\n", path);
    return ok;
}

static double dist(const float *a, const float *b)
{
    double x = (double)a[0] - b[0], y = (double)a[1] - b[1], z = (double)a[2] - b[2];
    return sqrt(x * x + y * y + z * z);
}

/* Index of the vertex of set (n of them) nearest to p (a vertex: position, normal), and the
 * distance. Among vertices at the same position (a seam's or a flat face's copies) the one
 * whose normal is nearest. */
static size_t nearest(const float *p, const raw *set, size_t n, double *d)
{
    size_t best = 0;
    *d = INFINITY;
    for (size_t i = 0; i < n; i++) {
        double e = dist(p, set->v + 6 * i);
        if (e < *d)
            *d = e, best = i;
    }
    double window = *d * (1 + 1e-6) + 1e-30, nd = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (dist(p, set->v + 6 * i) <= window && dist(p + 3, set->v + 6 * i + 3) < nd)
            nd = dist(p + 3, set->v + 6 * i + 3), best = i;
    return best;
}

static double radius_of(const raw *r, size_t n)
{
    double c[3] = {0, 0, 0}, rad = 0;
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            c[k] += r->v[6 * i + k] / (double)n;
    float cf[3] = {(float)c[0], (float)c[1], (float)c[2]};
    for (size_t i = 0; i < n; i++)
        rad = fmax(rad, dist(r->v + 6 * i, cf));
    return rad > 0 ? rad : 1;
}

static int run(char **argv, raw *ob, raw *cb, raw *op, raw *cp);

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: compare_matched_raw ORIG_BIND COPY_BIND ORIG_POSED COPY_POSED TOL NTOL\n");
        return 2;
    }
    raw ob = {0}, cb = {0}, op = {0}, cp = {0};
    int rc = run(argv, &ob, &cb, &op, &cp);
    free(ob.v), free(cb.v), free(op.v), free(cp.v); /* the sanitizer build's leak check runs this too */
    return rc;
}

/* The comparison of main's arguments over the four files (loaded into ob, cb, op, cp). */
static int run(char **argv, raw *obp, raw *cbp, raw *opp, raw *cpp)
{
    if (!load(argv[1], obp) || !load(argv[2], cbp) || !load(argv[3], opp) || !load(argv[4], cpp))
        return 2;
    const raw ob = *obp, cb = *cbp, op = *opp, cp = *cpp;
    double tol = atof(argv[5]), ntol = atof(argv[6]);
    size_t poses = op.n / ob.n;
    if (op.n % ob.n || cp.n != poses * cb.n) {
        fprintf(stderr, "compare_matched_raw: the posed files hold different pose counts (%zu/%zu, %zu/%zu)\n", op.n,
                ob.n, cp.n, cb.n);
        return 2;
    }
    double radius = radius_of(&ob, ob.n), bind_err = 0, pose_err = 0, lost = 0, normal_err = 0;
    size_t worst = 0;
    for (size_t c = 0; c < cb.n; c++) {
        double d;
        size_t o = nearest(cb.v + 6 * c, &ob, ob.n, &d);
        bind_err = fmax(bind_err, d);
        for (size_t p = 0; p < poses; p++) {
            const float *a = cp.v + 6 * (p * cb.n + c), *b = op.v + 6 * (p * ob.n + o);
            double e = dist(a, b);
            if (e > pose_err)
                pose_err = e, worst = c;
            normal_err = fmax(normal_err, dist(a + 3, b + 3));
        }
    }
    for (size_t o = 0; o < ob.n; o++) {
        double d;
        nearest(ob.v + 6 * o, &cb, cb.n, &d);
        lost = fmax(lost, d);
    }
    printf("%zu original and %zu copy vertices, %zu poses, radius %.6g: bind %.3g, posed %.3g (copy vertex %zu), "
           "original vertex farthest from the copy %.3g (relative to the radius; bound %.3g), normals %.3g (bound "
           "%.3g)\n",
           ob.n, cb.n, poses, radius, bind_err / radius, pose_err / radius, worst, lost / radius, tol, normal_err, ntol);
    int ok = bind_err <= tol * radius && pose_err <= tol * radius && lost <= tol * radius && normal_err <= ntol;
    if (!ok)
        printf("FAIL: past the bound\n");
    return ok ? 0 : 1;
}
