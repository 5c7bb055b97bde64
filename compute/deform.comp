// Deform pass: one workgroup per work item = a block of up to WG vertices of one group, for a
// run of instances of one model. The group's palette of skin matrices is gathered through its
// remap into shared memory once per instance; the vertices stay in registers across the
// instances. p' = sum w K p, n' = sum w K3x3 n (renormalised where the mesh's engine does),
// as src/cpu/reference.c, blending the matrices first (ozz style). Outputs are vec3 arrays,
// instance-major, consecutive invocations writing consecutive vertices.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint INFLUENCES = 4;    // 1..4: slots read per vertex
layout(constant_id = 2) const uint PALETTE_CAP = 256; // palette slots that fit in shared memory;
// 0: no shared palette and no barrier (CPU devices such as lavapipe run barrier-free shaders
// far faster, and their "global" memory is as fast as shared memory anyway)

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

layout(push_constant) uniform Push { uint work_base, work_count, grid_x, write_normals; } pc;

shared vec4 pal[PALETTE_CAP > 0 ? PALETTE_CAP * 3 : 1];

void main()
{
    uint wi = gl_WorkGroupID.y * pc.grid_x + gl_WorkGroupID.x;
    if (wi >= pc.work_count)
        return; // whole workgroup: no barrier is skipped by part of it
    Work w = works[pc.work_base + wi];
    Group g = groups[w.group];
    uint lid = gl_LocalInvocationID.x;
    bool live = lid < w.vcount;
    uint v = g.first_vertex + w.vstart + min(lid, w.vcount - 1u);
    vec3 p = vec3(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
    vec3 n = vec3(0);
    if ((g.flags & FLAG_HAS_NORMALS) != 0u)
        n = vec3(nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]);
    Infl f = infl[v];
    uint idx[4] = uint[4](f.idx01 & 0xffffu, f.idx01 >> 16, f.idx23 & 0xffffu, f.idx23 >> 16);
    float wt[4] = float[4](f.w[0], f.w[1], f.w[2], f.w[3]);
    // Empty slots may carry any index: clamp it into the palette and let the zero weight
    // cancel it (skin matrices are finite), so no branch per slot.
    for (uint k = 0; k < INFLUENCES; k++) {
        if (!(wt[k] > 0.0))
            wt[k] = 0.0;
        idx[k] = min(idx[k], max(g.palette_count, 1u) - 1u);
    }
    bool shared_pal = PALETTE_CAP > 0 && g.palette_count <= PALETTE_CAP;
    // The remap is the vertex's, not the instance's: look each slot's bone up once here, so
    // the loop over instances reads only skin matrices.
    uint bone[4];
    for (uint k = 0; k < INFLUENCES; k++)
        bone[k] = shared_pal ? 0u : palette[g.first_palette + idx[k]];
    uint out_v = v - g.vert_base;

    for (uint ii = 0; ii < w.inst_count; ii++) {
        Inst inst = insts[w.inst_first + ii];
        if (shared_pal) {
            barrier();
            for (uint j = lid; j < g.palette_count * 3u; j += gl_WorkGroupSize.x) {
                uint slot = j / 3u, row = j - slot * 3u;
                pal[j] = skin[(inst.skin_off + palette[g.first_palette + slot]) * 3u + row];
            }
            barrier();
        }
        vec4 r0 = vec4(0), r1 = vec4(0), r2 = vec4(0);
        for (uint k = 0; k < INFLUENCES; k++) {
            uint at;
            float s = wt[k];
            if (shared_pal) {
                at = idx[k] * 3u;
                r0 += s * pal[at]; r1 += s * pal[at + 1u]; r2 += s * pal[at + 2u];
            } else {
                at = (inst.skin_off + bone[k]) * 3u;
                r0 += s * skin[at]; r1 += s * skin[at + 1u]; r2 += s * skin[at + 2u];
            }
        }
        if (!live)
            continue;
        uint o = (inst.out_off + out_v) * 3u;
        vec4 p1 = vec4(p, 1.0);
        vec3 pp = vec3(dot(r0, p1), dot(r1, p1), dot(r2, p1));
        out_pos[o] = pp.x; out_pos[o + 1] = pp.y; out_pos[o + 2] = pp.z;
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
}
