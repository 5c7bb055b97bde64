/* .cskla curves into vks_curves (see cskla_internal.h).
 *
 * A component is a function of the clip's frame f in [0, FrameSize]: its flattened keys seen
 * through NintendoWare's frame normalisation (the runtime's rule, read for facts in the NW4C
 * animation code): inside [StartFrame, EndFrame) the frame is itself; before StartFrame the
 * PreRepeatMethod and from EndFrame on the PostRepeatMethod apply, None holding the value at
 * the range's end, Repeat wrapping by the range's length, Mirror reflecting every other
 * period, RelativeRepeat (SPICA's fourth loop type; uncertain) wrapping with the value
 * shifted by (last - first) per period. Repeats are unrolled over the clip, so a curve
 * shorter than the clip plays as the file asks inside it.
 *
 * Every frame where a component has a key, or a repeat period starts, becomes a key of the
 * merged curve, which then reproduces each component exactly between them: each component's
 * own span there is one piece of a step, a line or a cubic. A jump (a step, a segment gap,
 * a repeat seam) becomes two keys at the same time, the value arriving and the value
 * leaving: the sampler takes the later one at that time. Hermite slopes are value per frame
 * in the file (the SPICA formula of animation.md section 3 is the cubic Hermite basis with
 * the span in frames), so tangents per second are slope x fps. */
#include "cskla_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct side_val {
    double v, s; /* value and slope (per frame) */
} side_val;

typedef struct comp {
    const cskla_key *k;
    const uint8_t *kind;
    uint32_t n; /* 0: constant */
    double constant;
    double S, E, P;
    int pre, post;
    double offset; /* RelativeRepeat: value gained per period */
} comp;

/* Span i (keys i, i+1, frames a < b) at x in [a, b]. */
static side_val span_at(const comp *m, uint32_t i, double x)
{
    const cskla_key *a = &m->k[i], *b = &m->k[i + 1];
    double h = b->frame - a->frame;
    if (m->kind[i] == CSKLA_STEP)
        return (side_val){a->value, 0};
    if (m->kind[i] == CSKLA_LINEAR) {
        double s = (b->value - a->value) / h;
        double v = x == a->frame ? a->value : x == b->frame ? b->value : a->value + s * (x - a->frame);
        return (side_val){v, s};
    }
    if (x == a->frame)
        return (side_val){a->value, a->out};
    if (x == b->frame)
        return (side_val){b->value, b->in};
    double w = (x - a->frame) / h, w2 = w * w, w3 = w2 * w;
    double h00 = 2 * w3 - 3 * w2 + 1, h10 = w3 - 2 * w2 + w, h01 = -2 * w3 + 3 * w2, h11 = w3 - w2;
    double d00 = 6 * w2 - 6 * w, d10 = 3 * w2 - 4 * w + 1, d01 = -6 * w2 + 6 * w, d11 = 3 * w2 - 2 * w;
    return (side_val){h00 * a->value + h10 * h * a->out + h01 * b->value + h11 * h * b->in,
                      (d00 * a->value + d01 * b->value) / h + d10 * a->out + d11 * b->in};
}

/* The keys at source frame x, from the right (side > 0: the value at x, later duplicates
   winning) or from the left (the limit coming up to x). Held outside the keys. */
static side_val keys_at(const comp *m, double x, int side)
{
    const cskla_key *k = m->k;
    uint32_t n = m->n;
    if (side > 0 ? x < k[0].frame : x <= k[0].frame)
        return (side_val){k[0].value, 0};
    /* largest i with k[i].frame <= x (right) or < x (left) */
    uint32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (side > 0 ? k[mid].frame <= x : k[mid].frame < x)
            lo = mid;
        else
            hi = mid;
    }
    if (lo == n - 1)
        return (side_val){k[n - 1].value, 0};
    return span_at(m, lo, x);
}

/* The component at clip frame f (see the file comment for the normalisation). */
static side_val comp_at(const comp *m, double f, int side)
{
    if (m->n == 0)
        return (side_val){m->constant, 0};
    if (!(m->P > 0))
        return (side_val){keys_at(m, m->S, 1).v, 0};
    double q = (f - m->S) / m->P, r = nearbyint(q), k, y;
    if (fabs(q - r) <= 1e-9) { /* a period boundary: which side of it */
        k = side > 0 ? r : r - 1;
        y = side > 0 ? m->S : m->E;
    } else {
        k = floor(q);
        y = k == 0 ? f : f - k * m->P;
    }
    int method = k > 0 ? m->post : k < 0 ? m->pre : -1;
    switch (method) {
    case CSKLA_NONE:
        return (side_val){keys_at(m, k > 0 ? m->E : m->S, 1).v, 0};
    case CSKLA_MIRROR:
        if (fmod(k, 2.0) != 0) {
            side_val sv = keys_at(m, m->S + m->E - y, -side);
            sv.s = -sv.s;
            return sv;
        }
        return keys_at(m, y, side);
    case CSKLA_RELATIVE: {
        side_val sv = keys_at(m, y, side);
        sv.v += k * m->offset;
        return sv;
    }
    default: /* inside the range, Repeat */
        return keys_at(m, y, side);
    }
}

/* Kinds the curve's spans need (bits of enum cskla_kind): spans of zero length and held
   spans (a flat line; a flat cubic) fit any interpolation and add none. */
static unsigned kinds_needed(const comp *m)
{
    unsigned bits = 0;
    for (uint32_t i = 0; i + 1 < m->n; i++) {
        const cskla_key *a = &m->k[i], *b = &m->k[i + 1];
        if (!(b->frame > a->frame))
            continue;
        if (a->value == b->value && (m->kind[i] != CSKLA_HERMITE || (a->out == 0 && b->in == 0)))
            continue;
        bits |= 1u << m->kind[i];
    }
    return bits;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Periods [kmin, kmax] of the component that reach into [0, F]; 0 for a constant (no keys,
   or a range of no length), which has no key frames. */
static int periods(const comp *m, double F, double *kmin, double *kmax)
{
    *kmin = *kmax = 0;
    if (m->n == 0 || !(m->P > 0))
        return 0;
    if (m->pre != CSKLA_NONE && m->S > 0)
        *kmin = floor((0 - m->S) / m->P);
    if (m->post != CSKLA_NONE && F > m->E)
        *kmax = floor((F - m->S) / m->P);
    return 1;
}

typedef struct chan {
    cskla_ctx *x;
    comp m[3];
    uint32_t dim;
    double F, fps;
    const char *what;
    const cmdl_where *at;
} chan;

/* Does every component hold one value from a to b, b included (no jump there)? */
static int holds(const chan *ch, double a, double b)
{
    for (uint32_t c = 0; c < ch->dim; c++) {
        side_val ra = comp_at(&ch->m[c], a, 1), lb = comp_at(&ch->m[c], b, -1), rb = comp_at(&ch->m[c], b, 1);
        if (ra.v != lb.v || lb.v != rb.v || ra.s != 0 || lb.s != 0)
            return 0;
    }
    return 1;
}

/* Every frame of [0, F] where a component may change how it moves, sorted and unique. */
static vks_result breakpoints(chan *ch, uint64_t budget, double **out, size_t *count)
{
    uint64_t total = 2;
    for (uint32_t c = 0; c < ch->dim; c++) {
        const comp *m = &ch->m[c];
        double kmin, kmax;
        if (!periods(m, ch->F, &kmin, &kmax))
            continue;
        double n = (kmax - kmin + 1) * ((double)m->n + 2);
        if (n > (double)budget - (double)total)
            return vks__cmdl_fail_at(&ch->x->c, VKS_ERR_LIMIT, ch->at,
                                     "%s: %.0f repeats of frames %g..%g over FrameSize %g make more keys than the %llu "
                                     "left under max_keys",
                                     ch->what, kmax - kmin + 1, m->S, m->E, ch->F, (unsigned long long)budget);
        total += (uint64_t)n;
    }
    double *b = vks__cmdl_alloc(&ch->x->c, (size_t)total, sizeof *b);
    if (!b)
        return vks__cmdl_fail_at(&ch->x->c, VKS_ERR_NOMEM, ch->at, "out of memory for %llu key frames",
                                 (unsigned long long)total);
    size_t nb = 0;
    b[nb++] = 0;
    b[nb++] = ch->F;
    for (uint32_t c = 0; c < ch->dim; c++) {
        const comp *m = &ch->m[c];
        double kmin, kmax;
        if (!periods(m, ch->F, &kmin, &kmax))
            continue;
        for (double k = kmin; k <= kmax; k++) {
            int method = k > 0 ? m->post : k < 0 ? m->pre : -1;
            int mirrored = method == CSKLA_MIRROR && fmod(k, 2.0) != 0;
            double base = m->S + k * m->P;
            b[nb++] = base;
            b[nb++] = base + m->P;
            for (uint32_t i = 0; i < m->n; i++)
                if (m->k[i].frame > m->S && m->k[i].frame < m->E)
                    b[nb++] = base + (mirrored ? m->E - m->k[i].frame : m->k[i].frame - m->S);
        }
    }
    qsort(b, nb, sizeof *b, cmp_double);
    size_t w = 0;
    for (size_t i = 0; i < nb; i++) {
        double f = b[i];
        if (f < 0 || f > ch->F)
            continue;
        if (w && f - b[w - 1] <= 1e-12 * fmax(1.0, fabs(f)))
            continue; /* the same frame reached two ways (a period's end, the next one's start) */
        b[w++] = f;
    }
    if (w && ch->F - b[w - 1] <= 1e-12 * fmax(1.0, ch->F))
        b[w - 1] = ch->F; /* F itself, where a value a rounding below it came first */
    /* the sampler holds the first and last keys: frames 0 and F (and range ends) where every
       component only holds need no key, so written curves come back key for key */
    size_t first = 0;
    while (w - first >= 2 && holds(ch, b[first], b[first + 1]))
        first++;
    while (w - first >= 2 && holds(ch, b[w - 2], b[w - 1]))
        w--;
    *out = b;
    *count = w - first;
    if (first)
        memmove(b, b + first, (w - first) * sizeof *b);
    return VKS_OK;
}

typedef struct keys_out {
    float *times, *values, *in, *out; /* NULL: count only */
    uint64_t count;
} keys_out;

static int put_float(double v, float *dst)
{
    if (!(fabs(v) <= FLT_MAX))
        return 0;
    *dst = (float)v;
    return 1;
}

/* One key of the merged curve; 0 when a value or tangent does not fit a float. */
static int put_key(const chan *ch, keys_out *o, double u, const side_val *in, const side_val *val,
                   const side_val *out)
{
    uint64_t i = o->count++;
    if (!o->times)
        return 1;
    o->times[i] = (float)(u / ch->fps);
    for (uint32_t c = 0; c < ch->dim; c++) {
        size_t at = (size_t)i * ch->dim + c;
        if (!put_float(val[c].v, &o->values[at]))
            return 0;
        if (o->in && (!put_float(in[c].s * ch->fps, &o->in[at]) || !put_float(out[c].s * ch->fps, &o->out[at])))
            return 0;
    }
    return 1;
}

/* The keys at the breakpoints for the interpolation interp (see the file comment). */
static int emit(const chan *ch, const double *b, size_t nb, vks_interp interp, keys_out *o)
{
    side_val L[3], R[3];
    o->count = 0;
    for (size_t j = 0; j < nb; j++) {
        int jump = 0;
        for (uint32_t c = 0; c < ch->dim; c++) {
            R[c] = comp_at(&ch->m[c], b[j], 1);
            L[c] = j ? comp_at(&ch->m[c], b[j], -1) : R[c];
            jump |= L[c].v != R[c].v;
        }
        if (interp == VKS_INTERP_STEP || !jump) {
            if (!put_key(ch, o, b[j], L, R, R))
                return 0;
        } else if (!put_key(ch, o, b[j], L, L, L) || !put_key(ch, o, b[j], R, R, R)) {
            return 0;
        }
    }
    return 1;
}

vks_result vks__cskla_channel(cskla_ctx *x, vks_clip_set *set, const cskla_source *src, uint32_t components,
                              double frame_size, double fps, const char *what, uint64_t *key_budget,
                              vks_curve *out)
{
    chan ch = {x, {{0}}, components, frame_size, fps, what, NULL};
    unsigned bits = 0;
    for (uint32_t c = 0; c < components; c++) {
        comp *m = &ch.m[c];
        const cskla_curve *cv = src[c].curve;
        m->constant = src[c].constant;
        if (!cv || cv->keys.count == 0)
            continue;
        if (!ch.at)
            ch.at = &cv->at;
        m->k = cv->keys.data;
        m->kind = cv->kinds.data;
        m->n = (uint32_t)cv->keys.count;
        m->S = cv->has_start ? cv->start : m->k[0].frame;
        m->E = cv->has_end ? cv->end : m->k[m->n - 1].frame;
        if (m->E < m->S) /* one of them given, on the far side of the keys */
            return vks__cmdl_fail_at(&x->c, VKS_ERR_FORMAT, &cv->at, "%s: EndFrame %g comes before StartFrame %g",
                                     what, m->E, m->S);
        m->P = m->E - m->S;
        m->pre = cv->pre;
        m->post = cv->post;
        if (m->P > 0)
            m->offset = keys_at(m, m->E, -1).v - keys_at(m, m->S, 1).v;
        bits |= kinds_needed(m);
    }
    vks_interp interp = bits & (1u << CSKLA_HERMITE)  ? VKS_INTERP_HERMITE
                        : bits & (1u << CSKLA_LINEAR) ? VKS_INTERP_LINEAR
                                                      : VKS_INTERP_STEP;
    double *b = NULL;
    size_t nb = 0;
    vks_result r = breakpoints(&ch, *key_budget, &b, &nb);
    if (r != VKS_OK)
        return r;
    keys_out o = {0};
    emit(&ch, b, nb, interp, &o); /* count */
    if (o.count > *key_budget || o.count > UINT32_MAX) {
        vks__cmdl_free(&x->c, b);
        return vks__cmdl_fail_at(&x->c, VKS_ERR_LIMIT, ch.at, "%s: %llu keys, more than the %llu left under max_keys",
                                 what, (unsigned long long)o.count, (unsigned long long)*key_budget);
    }
    size_t n = o.count;
    o.times = vks_clip_set_alloc(set, n, sizeof(float));
    o.values = vks_clip_set_alloc(set, n * components, sizeof(float));
    if (interp == VKS_INTERP_HERMITE) {
        o.in = vks_clip_set_alloc(set, n * components, sizeof(float));
        o.out = vks_clip_set_alloc(set, n * components, sizeof(float));
    }
    if (!o.times || !o.values || (interp == VKS_INTERP_HERMITE && (!o.in || !o.out))) {
        vks__cmdl_free(&x->c, b);
        return vks__cmdl_fail_at(&x->c, VKS_ERR_NOMEM, ch.at, "out of memory for %zu keys", n);
    }
    int ok = emit(&ch, b, nb, interp, &o);
    vks__cmdl_free(&x->c, b);
    if (!ok)
        return vks__cmdl_fail_at(&x->c, VKS_ERR_FORMAT, ch.at,
                                 "%s: a value or a tangent (slope x %g fps) does not fit a float", what, fps);
    *key_budget -= n;
    *out = (vks_curve){.key_count = (uint32_t)n,
                       .components = components,
                       .interp = interp,
                       .times = o.times,
                       .values = o.values,
                       .in_tangents = o.in,
                       .out_tangents = o.out};
    return VKS_OK;
}
