// The plain deform kernel: the baseline `vkskin bench` measures compute/deform.comp against
// (VKS_GPU_KERNEL_PLAIN). One invocation per vertex-instance: workgroup (x, y) is a work item
// (a block of a group's vertices for a run of instances), z the instance in that run. Each
// invocation reads its vertex, influences, remap entries and skin matrices from global memory
// and writes its position and normal; nothing is shared between invocations. Same bindings,
// push constants and arithmetic as deform.comp (p' = sum w K p, n' = sum w K3x3 n), so both
// are checked against the CPU reference the same way.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint INFLUENCES = 4; // 1..4 or 8: slots read per vertex (as deform.comp)
layout(constant_id = 2) const uint MORPH = 0;      // 1: the morph stage compiled in (morph.glsl)

#include "tables.glsl"

layout(std430, binding = 0) readonly buffer Groups { Group groups[]; };
layout(std430, binding = 1) readonly buffer Palette { uint palette[]; };
layout(std430, binding = 2) readonly buffer Pos { float pos[]; };
layout(std430, binding = 3) readonly buffer Nrm { float nrm[]; };
layout(std430, binding = 4) readonly buffer Infls { Infl infl[]; };
layout(std430, binding = 5) readonly buffer Insts { Inst insts[]; };
layout(std430, binding = 6) readonly buffer Skin { vec4 skin[]; }; // 3 rows per matrix
layout(std430, binding = 7) writeonly buffer OutPos { float out_pos[]; };
layout(std430, binding = 8) writeonly buffer OutNrm { float out_nrm[]; };
layout(std430, binding = 9) readonly buffer Works { Work works[]; };

#include "morph.glsl" // bindings 10 and 11

layout(push_constant) uniform Push { uint work_base, work_count, grid_x, write_normals, morph; } pc;

void main()
{
    uint wi = gl_WorkGroupID.y * pc.grid_x + gl_WorkGroupID.x;
    if (wi >= pc.work_count)
        return;
    Work w = works[pc.work_base + wi];
    uint ii = gl_WorkGroupID.z, lid = gl_LocalInvocationID.x;
    if (ii >= w.inst_count || lid >= w.vcount)
        return;
    Group g = groups[w.group];
    Inst inst = insts[w.inst_first + ii];
    uint v = g.first_vertex + w.vstart + lid;
    Infl f = infl[v];
    uint idx[8] = uint[8](f.idx01 & 0xffffu, f.idx01 >> 16, f.idx23 & 0xffffu, f.idx23 >> 16, 0u, 0u, 0u, 0u);
    float wt[8] = float[8](f.w[0], f.w[1], f.w[2], f.w[3], 0.0, 0.0, 0.0, 0.0);
    if (INFLUENCES > 4u) {
        Infl m = infl[g.infl_more + v - g.first_vertex];
        idx[4] = m.idx01 & 0xffffu; idx[5] = m.idx01 >> 16; idx[6] = m.idx23 & 0xffffu; idx[7] = m.idx23 >> 16;
        wt[4] = m.w[0]; wt[5] = m.w[1]; wt[6] = m.w[2]; wt[7] = m.w[3];
    }
    vec4 r0 = vec4(0), r1 = vec4(0), r2 = vec4(0);
    for (uint k = 0; k < INFLUENCES; k++) {
        // an empty slot may carry any index: clamped into the palette, cancelled by weight 0
        float s = wt[k] > 0.0 ? wt[k] : 0.0;
        uint bone = palette[g.first_palette + min(idx[k], max(g.palette_count, 1u) - 1u)];
        uint at = (inst.skin_off + bone) * 3u;
        r0 += s * skin[at]; r1 += s * skin[at + 1u]; r2 += s * skin[at + 2u];
    }
    vec3 pm = vec3(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]), n = vec3(0);
    if ((g.flags & FLAG_HAS_NORMALS) != 0u)
        n = vec3(nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]);
    if (MORPH != 0u && pc.morph != 0u && (g.morph & 0xffffu) != 0u) // the morph stage (morph.glsl)
        morph_vertex(g, inst, v - g.first_vertex, pm, n);
    vec4 p = vec4(pm, 1.0);
    uint o = (inst.out_off + v - g.vert_base) * 3u;
    out_pos[o] = dot(r0, p); out_pos[o + 1] = dot(r1, p); out_pos[o + 2] = dot(r2, p);
    if (pc.write_normals != 0u) {
        vec3 nn = vec3(dot(r0.xyz, n), dot(r1.xyz, n), dot(r2.xyz, n));
        if ((g.flags & (FLAG_RENORMALIZE | FLAG_HAS_NORMALS)) == (FLAG_RENORMALIZE | FLAG_HAS_NORMALS)) {
            float len = length(nn);
            if (len > 0.0)
                nn /= len;
        }
        out_nrm[o] = nn.x; out_nrm[o + 1] = nn.y; out_nrm[o + 2] = nn.z;
    }
}
