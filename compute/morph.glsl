// The deform kernels' morph stage (include/vkskin/skin.h, MORPH TARGETS): a vertex's position
// and normal moved by its instance's morph weights before skinning, p + sum w dp and
// n + sum w dn, targets in order. The uploaded rest is already at the targets' default
// weights, so the host writes each instance's weights minus the defaults (src/gpu/vulkan/
// batch.c). Deltas: 6 floats (dp, dn) per target and group vertex (src/gpu/tables.h,
// vks__gpu_group); weights: in the matrix slots before the instance's locals.
layout(std430, binding = 10) readonly buffer Morph { float morph_d[]; };
layout(std430, binding = 11) readonly buffer MorphW { float morph_w[]; }; // the locals table

void morph_vertex(Group g, Inst inst, uint lv, inout vec3 p, inout vec3 n)
{
    uint count = g.morph & 0xffffu, wat = inst.locals_off * 12u - (g.morph >> 16);
    for (uint t = 0u; t < count; t++) {
        float s = morph_w[wat + t];
        if (s == 0.0)
            continue;
        uint at = (g.morph_base + t * g.vertex_count + lv) * 6u;
        p += s * vec3(morph_d[at], morph_d[at + 1u], morph_d[at + 2u]);
        n += s * vec3(morph_d[at + 3u], morph_d[at + 4u], morph_d[at + 5u]);
    }
}
