/* The curve sampler, written once and compiled twice by clip_sample.c: in float (SFX f) for
 * the fast engines and in double (SFX d) for the CPU reference. The GPU pose pass
 * (compute/clip.glsl) takes the same steps in the same order. Define REAL and SFX(name). */

/* Largest k with times[k] <= t; the caller has placed t inside [times[0], times[n-1]). */
static uint32_t SFX(span)(const float *times, uint32_t n, REAL t)
{
    uint32_t lo = 0, hi = n - 1; /* times[lo] <= t < times[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((REAL)times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static void SFX(normalize4)(REAL *q)
{
    REAL l = (REAL)sqrt((double)(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]));
    if (l > 0)
        for (int i = 0; i < 4; i++)
            q[i] /= l;
}

/* Shorter-arc slerp; nlerp where the arc is too small for the sine's precision. */
static void SFX(slerp)(const float *a, const float *b, REAL u, REAL *out)
{
    REAL d = (REAL)a[0] * b[0] + (REAL)a[1] * b[1] + (REAL)a[2] * b[2] + (REAL)a[3] * b[3];
    REAL sign = 1;
    if (d < 0) {
        d = -d;
        sign = -1;
    }
    REAL wa = 1 - u, wb = u;
    if (d < (REAL)0.9995) {
        REAL theta = (REAL)acos((double)d), s = (REAL)sin((double)theta);
        wa = (REAL)sin((double)((1 - u) * theta)) / s;
        wb = (REAL)sin((double)(u * theta)) / s;
    }
    for (int i = 0; i < 4; i++)
        out[i] = wa * a[i] + sign * wb * b[i];
    SFX(normalize4)(out);
}

/* Clamped uniform cubic B-spline at u in [0, n-3) over control points P (dim each), de Boor
 * with knots 0,0,0,0,1,...,n-4,n-3,n-3,n-3,n-3. */
static REAL SFX(knot)(int j, int n)
{
    int k = j - 3;
    return (REAL)(k < 0 ? 0 : k > n - 3 ? n - 3 : k);
}

static void SFX(bspline)(const vks_curve *c, REAL t, REAL *out)
{
    int n = (int)c->key_count, dim = (int)c->components;
    REAL u = (t - (REAL)c->start) / ((REAL)c->stop - (REAL)c->start) * (REAL)(n - 3);
    if (!(u > 0))
        u = 0;
    if (u >= (REAL)(n - 3)) {
        for (int k = 0; k < dim; k++)
            out[k] = c->values[(size_t)(n - 1) * dim + k];
        return;
    }
    int i = (int)u + 3; /* knot span: knot(i) <= u < knot(i+1) */
    REAL d[4][4];
    for (int j = 0; j < 4; j++)
        for (int k = 0; k < dim; k++)
            d[j][k] = c->values[(size_t)(j + i - 3) * dim + k];
    for (int r = 1; r <= 3; r++)
        for (int j = 3; j >= r; j--) {
            REAL k0 = SFX(knot)(j + i - 3, n), k1 = SFX(knot)(j + 1 + i - r, n);
            REAL alpha = k1 > k0 ? (u - k0) / (k1 - k0) : 0;
            for (int k = 0; k < dim; k++)
                d[j][k] = (1 - alpha) * d[j - 1][k] + alpha * d[j][k];
        }
    for (int k = 0; k < dim; k++)
        out[k] = d[3][k];
}

static void SFX(curve)(const vks_curve *c, REAL t, REAL *out)
{
    uint32_t n = c->key_count, dim = c->components;
    if (c->interp == VKS_INTERP_BSPLINE) {
        SFX(bspline)(c, t, out);
        if (dim == 4)
            SFX(normalize4)(out);
        return;
    }
    const float *v = c->values;
    uint32_t k;
    if (n == 1 || t <= (REAL)c->times[0])
        k = 0;
    else if (t >= (REAL)c->times[n - 1])
        k = n - 1;
    else
        k = UINT32_MAX;
    if (k != UINT32_MAX) { /* before the first key or after the last: hold */
        for (uint32_t i = 0; i < dim; i++)
            out[i] = v[(size_t)k * dim + i];
        if (dim == 4)
            SFX(normalize4)(out);
        return;
    }
    k = SFX(span)(c->times, n, t);
    const float *a = v + (size_t)k * dim, *b = a + dim;
    REAL dt = (REAL)c->times[k + 1] - (REAL)c->times[k];
    REAL u = dt > 0 ? (t - (REAL)c->times[k]) / dt : 1;
    switch (c->interp) {
    case VKS_INTERP_STEP:
        for (uint32_t i = 0; i < dim; i++)
            out[i] = a[i];
        break;
    case VKS_INTERP_HERMITE: {
        const float *mo = c->out_tangents + (size_t)k * dim, *mi = c->in_tangents + (size_t)(k + 1) * dim;
        REAL u2 = u * u, u3 = u2 * u;
        REAL h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
        for (uint32_t i = 0; i < dim; i++)
            out[i] = h00 * a[i] + h10 * dt * mo[i] + h01 * b[i] + h11 * dt * mi[i];
        break;
    }
    default: /* LINEAR */
        if (dim == 4) {
            SFX(slerp)(a, b, u, out);
            return;
        }
        for (uint32_t i = 0; i < dim; i++)
            out[i] = a[i] + (b[i] - a[i]) * u;
        break;
    }
    if (dim == 4)
        SFX(normalize4)(out);
}

/* q = qz * qy * qx: R = Rz Ry Rx, x applied first. */
static void SFX(euler_quat)(const REAL e[3], REAL *q)
{
    REAL cx = (REAL)cos((double)(e[0] / 2)), sx = (REAL)sin((double)(e[0] / 2));
    REAL cy = (REAL)cos((double)(e[1] / 2)), sy = (REAL)sin((double)(e[1] / 2));
    REAL cz = (REAL)cos((double)(e[2] / 2)), sz = (REAL)sin((double)(e[2] / 2));
    q[0] = sx * cy * cz - cx * sy * sz;
    q[1] = cx * sy * cz + sx * cy * sz;
    q[2] = cx * cy * sz - sx * sy * cz;
    q[3] = cx * cy * cz + sx * sy * sz;
}

/* A track's T, R, S at t: channels without keys take the bind local's (trs). */
static void SFX(track_trs)(const vks_track *tr, const float trs[10], REAL t, REAL out[10])
{
    for (int i = 0; i < 10; i++)
        out[i] = trs[i];
    if (tr->translation.key_count)
        SFX(curve)(&tr->translation, t, out);
    if (tr->rotation.key_count)
        SFX(curve)(&tr->rotation, t, out + 3);
    else if (tr->euler[0].key_count || tr->euler[1].key_count || tr->euler[2].key_count) {
        REAL e[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            if (tr->euler[k].key_count)
                SFX(curve)(&tr->euler[k], t, e + k);
        SFX(euler_quat)(e, out + 3);
    }
    if (tr->scale.key_count)
        SFX(curve)(&tr->scale, t, out + 7);
}

/* T * R(q) * S in double (q normalised by the sampler). */
static vks_affine_d SFX(compose)(const REAL trs[10])
{
    double x = trs[3], y = trs[4], z = trs[5], w = trs[6];
    double l = sqrt(x * x + y * y + z * z + w * w);
    if (l > 0)
        x /= l, y /= l, z /= l, w /= l;
    else
        w = 1;
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                   2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    vks_affine_d a;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++)
            a.m[3 * c + i] = r[3 * c + i] * (double)trs[7 + c];
    a.m[9] = trs[0], a.m[10] = trs[1], a.m[11] = trs[2];
    return a;
}
