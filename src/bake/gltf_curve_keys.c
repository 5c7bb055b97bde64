/* A curve's keys as glTF sampler arrays (gltf_layout.h): shared by the node channels
 * (gltf_anim.c) and the morph weight channels (gltf_anim_morph.c), which both write keys that
 * glTF can play, so neither reaches into the other. */
#include <math.h>
#include <stdlib.h>

#include "gltf_layout.h"

uint32_t vks__gltf_curve_keys(const vks_curve *c, float duration, int unit, float **tp, float **vp)
{
    uint32_t n = c->key_count, dim = c->components, extra = c->times[n - 1] < duration;
    int cubic = c->interp == VKS_INTERP_HERMITE, per = cubic ? 3 : 1;
    float *t = malloc(((size_t)n + 1) * sizeof *t), *v = malloc(((size_t)n + 1) * per * dim * sizeof *v);
    *tp = t, *vp = v;
    if (!t || !v)
        return 0;
    for (uint32_t k = 0; k < n + extra; k++) {
        uint32_t src = k < n ? k : n - 1;
        t[k] = k < n ? c->times[k] : duration;
        float *o = v + (size_t)k * per * dim;
        const float *val = c->values + (size_t)src * dim;
        for (uint32_t i = 0; i < dim; i++) {
            if (cubic) { /* in-tangent, value, out-tangent; the last key's out-tangent is never used */
                o[i] = k < n ? c->in_tangents[(size_t)k * dim + i] : 0.0f;
                o[dim + i] = val[i];
                o[2 * dim + i] = k + 1 < n ? c->out_tangents[(size_t)k * dim + i] : 0.0f;
            } else
                o[i] = val[i];
        }
        if (unit) { /* glTF rotations are unit; vkskin normalises what it samples anyway */
            float *q = v + (size_t)k * per * dim + (cubic ? dim : 0);
            double l = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
            for (int i = 0; i < 4 && l > 0; i++)
                q[i] = (float)(q[i] / l);
        }
    }
    return n + extra;
}
