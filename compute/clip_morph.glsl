// Morph weights in the crowd's pose pass (include/vkskin/skin.h, MORPH TARGETS; pose.h's
// layers): each mesh's weights sampled from its clip's weights curve at the instance's clip
// time (a layered instance's blended as src/core/clip_layers_morph.c blends them), written less
// the mesh's default weights into the matrix slots before the instance's locals in the world
// buffer, which the deform pass's morph stage reads there (compute/morph.glsl; the uploaded rest
// is at the defaults). A mesh no clip drives, or an instance posed otherwise, gets zeros: its
// defaults. Everything is a difference from the defaults, so a clip without the mesh's track
// adds nothing and needs no defaults here.
//
// Entry words after the nodes' (src/gpu/vulkan/clips.c): per mesh ~0u, or a block: the weights
// curve's word offset, then the mesh's default weights.

// The world buffer as floats: one weight a slot.
layout(std430, binding = 6) buffer WorldF { float worldf[]; };

// Component i of curve c at clip time t: src/core/clip_morph.c's component, in float (STEP
// holds, LINEAR lerps component by component, HERMITE is glTF's CUBICSPLINE).
float morph_component(uint c, float t, uint i)
{
    uint n = cw[c], dim = cw[c + 1u] & 255u, interp = cw[c + 1u] >> 8;
    uint times = cw[c + 2u], vals = cw[c + 3u];
    if (n == 1u || t <= cf(times))
        return cf(vals + i);
    if (t >= cf(times + n - 1u))
        return cf(vals + (n - 1u) * dim + i);
    uint k = 0u, hi = n - 1u; // times[k] <= t < times[hi]
    while (hi - k > 1u) {
        uint mid = k + (hi - k) / 2u;
        if (cf(times + mid) <= t)
            k = mid;
        else
            hi = mid;
    }
    float a = cf(vals + k * dim + i), b = cf(vals + (k + 1u) * dim + i);
    float t0 = cf(times + k), dt = cf(times + k + 1u) - t0;
    float u = dt > 0.0 ? (t - t0) / dt : 1.0;
    if (interp == INTERP_STEP)
        return a;
    if (interp == INTERP_HERMITE) {
        float mo = cf(cw[c + 5u] + k * dim + i), mi = cf(cw[c + 4u] + (k + 1u) * dim + i);
        float u2 = u * u, u3 = u2 * u;
        float h00 = 2.0 * u3 - 3.0 * u2 + 1.0, h10 = u3 - 2.0 * u2 + u, h01 = -2.0 * u3 + 3.0 * u2, h11 = u3 - u2;
        return h00 * a + h10 * dt * mo + h01 * b + h11 * dt * mi;
    }
    return a + (b - a) * u;
}

// Target k of mesh m (the model's m-th) under the clip of entry ce at clip time t, less its
// default weight (0 when the clip does not drive the mesh).
float morph_delta(uint ce, uint node_count, uint m, uint k, float t)
{
    uint blk = cw[ce + 2u + node_count + m];
    if (blk == 0xFFFFFFFFu)
        return 0.0;
    return morph_component(cw[blk], t, k) - cf(blk + 1u + k);
}

// A layered instance's target k of mesh m less its default (src/core/clip_layers_morph.c):
// normal layers of weight > 0 without a mask by renormalised weights (the sums in units of the
// largest weight so far), none: the defaults; then each additive one without a mask:
// weight x (its clip at its time - at its reference pose). Masked layers drive no weights.
float layered_morph(uint i, uint node_count, uint m, uint k, float ltime[4], float lweight[4], uint lflags[4],
                    int lmask[4])
{
    uint count = lparams[i].count & 7u;
    float sum = 0.0, wsum = 0.0, wmax = 0.0;
    for (uint y = 0u; y < count; y++) {
        if (((lflags[y] >> 8) & 3u) != 0u || !(lweight[y] > 0.0) || lmask[y] >= 0)
            continue;
        float w = lweight[y];
        if (w > wmax) {
            float r = wmax / w;
            sum *= r, wsum *= r, wmax = w;
        }
        w /= wmax;
        sum += w * morph_delta(lparams[i].layers[y].entry, node_count, m, k, ltime[y]);
        wsum += w;
    }
    float v = wsum > 0.0 ? sum / wsum : 0.0;
    for (uint y = 0u; y < count; y++) {
        if (((lflags[y] >> 8) & 3u) != 1u || !(lweight[y] > 0.0) || lmask[y] >= 0)
            continue;
        v += lweight[y] * (morph_delta(lparams[i].layers[y].entry, node_count, m, k, ltime[y]) -
                           morph_delta(lparams[i].layers[y].ref_entry, node_count, m, k, lparams[i].layers[y].ref_time));
    }
    return v;
}

// Every morph weight of instance i (lbase: its locals' first float), this lane's meshes.
void write_morph(uint i, Model mo, uint lbase, uint source, uint ce, float tl, float ltime[4], float lweight[4],
                 uint lflags[4], int lmask[4], uint lane, uint stride)
{
    for (uint m = lane; m < mo.mesh_count; m += stride) {
        uint count = meshes[mo.mesh_base + m].morph_count, at = lbase - meshes[mo.mesh_base + m].morph_back;
        for (uint k = 0u; k < count; k++) {
            float v = 0.0;
            if (source == SOURCE_CLIP)
                v = morph_delta(ce, mo.node_count, m, k, tl);
            else if (USE_PARAMS == 2u && source == SOURCE_LAYERS)
                v = layered_morph(i, mo.node_count, m, k, ltime, lweight, lflags, lmask);
            worldf[at + k] = v;
        }
    }
}
