/* The procedural pose: a deterministic function of (seed, instance, node, time) that turns
 * each non-root node about a node-specific axis through its origin, within +-max_angle.
 *
 * Same numbers on every machine: integer hashing (splitmix64) for every random choice, and
 * sin/cos from a fixed polynomial (below) rather than the C library, whose last bits may
 * differ between implementations. Built with -ffp-contract=off like the reference. */
#include "vkskin/pose.h"

#include <math.h>

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Uniform in [0, 1) from 53 bits of a hash. */
static double unit(uint64_t h)
{
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

static const double PI = 3.14159265358979323846;

/* sin on [-pi/2, pi/2] by its Taylor series to x^17 (error < 2e-13 there). */
static double sin_poly(double x)
{
    double x2 = x * x, term = x, sum = x;
    for (int k = 1; k <= 8; k++) {
        term = -term * x2 / (double)((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}

/* Deterministic sin for any finite x: reduce to [-pi, pi], then fold to [-pi/2, pi/2]. */
static double det_sin(double x)
{
    double n = floor(x / (2 * PI) + 0.5);
    x -= n * 2 * PI;
    if (x > PI / 2)
        x = PI - x;
    else if (x < -PI / 2)
        x = -PI - x;
    return sin_poly(x);
}

static double det_cos(double x)
{
    return det_sin(x + PI / 2);
}

void vks_pose_procedural(const vks_skin *skin, uint64_t seed, uint32_t instance, float time, float max_angle,
                         vks_affine *out)
{
    double range = max_angle > 0 ? max_angle : 0.6;
    for (uint32_t i = 0; i < skin->node_count; i++) {
        const vks_node *nd = &skin->nodes[i];
        if (nd->parent < 0) {
            out[i] = nd->bind_local;
            continue;
        }
        /* per node: axis and frequency from (seed, node); phase from (seed, instance, node) */
        uint64_t hn = splitmix64(seed ^ splitmix64(0x6E6F6465ull + i));
        double ax = unit(splitmix64(hn + 1)) * 2 - 1, ay = unit(splitmix64(hn + 2)) * 2 - 1,
               az = unit(splitmix64(hn + 3)) * 2 - 1;
        double len = sqrt(ax * ax + ay * ay + az * az);
        if (len < 1e-3)
            ax = 1, ay = 0, az = 0, len = 1;
        ax /= len, ay /= len, az /= len;
        double freq = 0.5 + unit(splitmix64(hn + 4)); /* 0.5 .. 1.5 Hz */
        double phase = 2 * PI * unit(splitmix64(hn ^ splitmix64(0x696E7374ull + instance)));
        double angle = range * det_sin(2 * PI * freq * (double)time + phase);
        double c = det_cos(angle), s = det_sin(angle), t = 1 - c;
        /* rotation about (ax, ay, az), column-major */
        double r[9] = {t * ax * ax + c,      t * ax * ay + s * az, t * ax * az - s * ay,
                       t * ax * ay - s * az, t * ay * ay + c,      t * ay * az + s * ax,
                       t * ax * az + s * ay, t * ay * az - s * ax, t * az * az + c};
        /* local = bind_local * R: the node turns about its own origin, in its own frame */
        const float *b = nd->bind_local.m;
        vks_affine o;
        for (int col = 0; col < 3; col++)
            for (int row = 0; row < 3; row++)
                o.m[col * 3 + row] = (float)(b[row] * r[col * 3] + b[3 + row] * r[col * 3 + 1] +
                                             b[6 + row] * r[col * 3 + 2]);
        o.m[9] = b[9], o.m[10] = b[10], o.m[11] = b[11];
        out[i] = o;
    }
}
