// Deform pass: one workgroup per work item = a block of up to WG vertices of one group, for a
// run of instances of one model. Everything that belongs to the vertex (position, normal,
// influences, each slot's bone through the group's remap) is read once, before the loop over
// the instances, and stays in registers; the loop reads only skin matrices and writes the
// outputs. p' = sum w K p, n' = sum w K3x3 n (renormalised where the mesh's engine does), as
// src/cpu/reference.c, blending the matrices first (ozz style). Outputs are vec3 arrays,
// instance-major (the layout vks_gpu_batch.deliver and the crowd's vertex buffers promise).
//
// Two ways through, chosen per device by specialization constants (src/gpu/vulkan/pipelines.c):
//   - GPUs (PALETTE_CAP > 0): the group's palette of skin matrices is gathered through its
//     remap into shared memory once per instance, and the block's outputs are staged in
//     shared memory and written as whole vec4s, consecutive invocations at consecutive
//     16-byte addresses (a warp's store instruction covers 512 contiguous bytes: whole 32-byte
//     sectors; BENCHMARKS.md has the arithmetic).
//   - CPU devices such as lavapipe (PALETTE_CAP 0): no shared memory and no barrier (llvmpipe
//     runs a shader with barriers as coroutines, several times slower); each invocation reads
//     its matrices itself, through a uniform texel buffer view of the skin matrices
//     (SKIN_TEXELS): llvmpipe fetches texels with a branch-free gather, about twice as fast as
//     its per-lane loop for storage-buffer loads, which was 60 % of this kernel's time.
#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef FUSED_REDUCE // validate's variant (reduce_fold.glsl): subgroup arithmetic, a module of its own
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint INFLUENCES = 4;    // 1..4 or 8: slots read per vertex (8: slots
                                                      // 4..7 from the group's second records)
layout(constant_id = 2) const uint PALETTE_CAP = 256; // palette slots that fit in shared memory;
                                                      // 0: no shared palette and no barrier
layout(constant_id = 3) const uint SKIN_TEXELS = 0;   // 1: matrices through binding 12
layout(constant_id = 4) const uint SKIP_ZEROS = 0;    // 1: no matrix loaded for a weight of 0
                                                      // (src/gpu/tuning.h: a calibration choice)
layout(constant_id = 5) const uint MORPH = 0;         // 1: the morph stage (morph.glsl) is compiled in:
                                                      // the variant for chunks with morph weights

#include "tables.glsl"

layout(std430, binding = 0) readonly buffer Groups { Group groups[]; };
layout(std430, binding = 1) readonly buffer Palette { uint palette[]; };
layout(std430, binding = 2) readonly buffer Pos { float pos[]; };
layout(std430, binding = 3) readonly buffer Nrm { float nrm[]; };
layout(std430, binding = 4) readonly buffer Infls { Infl infl[]; };
layout(std430, binding = 5) readonly buffer Insts { Inst insts[]; };
layout(std430, binding = 6) readonly buffer Skin { vec4 skin[]; }; // 3 rows per matrix
layout(std430, binding = 7) writeonly buffer OutPos { float out_pos[]; };
layout(std430, binding = 7) writeonly buffer OutPos4 { vec4 out_pos4[]; }; // the same, as vec4s
layout(std430, binding = 8) writeonly buffer OutNrm { float out_nrm[]; };
layout(std430, binding = 8) writeonly buffer OutNrm4 { vec4 out_nrm4[]; };
layout(std430, binding = 9) readonly buffer Works { Work works[]; };
#include "morph.glsl" // bindings 10 and 11
layout(binding = 12) uniform samplerBuffer skin_texels; // binding 6 as RGBA32F texels
#include "reduce_fold.glsl" // empty but in validate's variant

layout(push_constant) uniform Push { uint work_base, work_count, grid_x, write_normals, morph; } pc;

shared vec4 pal[PALETTE_CAP > 0u ? PALETTE_CAP * 3u : 1u];
// The block's outputs on their way to whole-vec4 stores: positions, then normals.
shared float stage[PALETTE_CAP > 0u ? gl_WorkGroupSize.x * 6u : 1u];

vec4 skin_row(uint at)
{
    return SKIN_TEXELS != 0u ? texelFetch(skin_texels, int(at)) : skin[at];
}

// Writes nf staged floats (stream 0: positions, 1: normals) to floats [f0, f0 + nf) of the
// stream: invocation i writes the i-th 16-byte-aligned vec4 of the range; only the range's
// two ends, where a vec4 would reach past it, are written float by float.
void write_staged(uint stream, uint f0, uint nf)
{
    uint end = f0 + nf, base = stream * gl_WorkGroupSize.x * 3u;
    for (uint f = (f0 & ~3u) + 4u * gl_LocalInvocationID.x; f < end; f += 4u * gl_WorkGroupSize.x) {
        if (f >= f0 && f + 4u <= end) {
            uint s = base + f - f0;
            vec4 q = vec4(stage[s], stage[s + 1u], stage[s + 2u], stage[s + 3u]);
            if (stream == 0u)
                out_pos4[f >> 2] = q;
            else
                out_nrm4[f >> 2] = q;
        } else {
            for (uint c = 0u; c < 4u; c++)
                if (f + c >= f0 && f + c < end) {
                    float x = stage[base + f + c - f0];
                    if (stream == 0u)
                        out_pos[f + c] = x;
                    else
                        out_nrm[f + c] = x;
                }
        }
    }
}

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
    bool renormalize = (g.flags & (FLAG_RENORMALIZE | FLAG_HAS_NORMALS)) == (FLAG_RENORMALIZE | FLAG_HAS_NORMALS);
    Infl f = infl[v];
    uint idx[8] = uint[8](f.idx01 & 0xffffu, f.idx01 >> 16, f.idx23 & 0xffffu, f.idx23 >> 16, 0u, 0u, 0u, 0u);
    float wt[8] = float[8](f.w[0], f.w[1], f.w[2], f.w[3], 0.0, 0.0, 0.0, 0.0);
    if (INFLUENCES > 4u) { // a constant: the four-influence pipelines have no such read
        Infl m = infl[g.infl_more + v - g.first_vertex];
        idx[4] = m.idx01 & 0xffffu; idx[5] = m.idx01 >> 16; idx[6] = m.idx23 & 0xffffu; idx[7] = m.idx23 >> 16;
        wt[4] = m.w[0]; wt[5] = m.w[1]; wt[6] = m.w[2]; wt[7] = m.w[3];
    }
    // Empty slots: any index, clamped into the palette; the zero weight cancels it (no branch).
    for (uint k = 0; k < INFLUENCES; k++) {
        if (!(wt[k] > 0.0))
            wt[k] = 0.0;
        idx[k] = min(idx[k], max(g.palette_count, 1u) - 1u);
    }
    bool shared_pal = PALETTE_CAP > 0 && g.palette_count <= PALETTE_CAP;
    // The remap is the vertex's, not the instance's: look each slot's bone up once here.
    uint bone[8];
    for (uint k = 0; k < INFLUENCES; k++)
        bone[k] = shared_pal ? 0u : palette[g.first_palette + idx[k]];
    uint out_v = v - g.vert_base;
    uint block_v = g.first_vertex + w.vstart - g.vert_base; // the block's first output vertex

    for (uint ii = 0; ii < w.inst_count; ii++) {
        Inst inst = insts[w.inst_first + ii];
        if (shared_pal) {
            barrier(); // the previous instance's palette and staged outputs are consumed
            for (uint j = lid; j < g.palette_count * 3u; j += gl_WorkGroupSize.x) {
                uint slot = j / 3u, row = j - slot * 3u;
                pal[j] = skin_row((inst.skin_off + palette[g.first_palette + slot]) * 3u + row);
            }
            barrier();
        }
        vec4 r0 = vec4(0), r1 = vec4(0), r2 = vec4(0);
        for (uint k = 0; k < INFLUENCES; k++) {
            float s = wt[k];
            // Where the matrices are gathered from memory (the bound on a discrete GPU), a slot
            // of weight 0 costs 48 B for nothing; skipping it costs a branch (a loss on
            // lavapipe, whose SIMD lanes run both sides). The sum differs at most in the sign
            // of an exact zero.
            if (SKIP_ZEROS != 0u && s == 0.0)
                continue;
            if (shared_pal) {
                uint at = idx[k] * 3u;
                r0 += s * pal[at]; r1 += s * pal[at + 1u]; r2 += s * pal[at + 2u];
            } else {
                uint at = (inst.skin_off + bone[k]) * 3u;
                r0 += s * skin_row(at); r1 += s * skin_row(at + 1u); r2 += s * skin_row(at + 2u);
            }
        }
        vec3 pm = p, nm = n; // the morph stage, where the chunk's instances carry weights
        if (MORPH != 0u && pc.morph != 0u && (g.morph & 0xffffu) != 0u)
            morph_vertex(g, inst, v - g.first_vertex, pm, nm);
        vec4 p1 = vec4(pm, 1.0);
        vec3 pp = vec3(dot(r0, p1), dot(r1, p1), dot(r2, p1));
        vec3 nn = vec3(0);
        if (pc.write_normals != 0u) {
            nn = vec3(dot(r0.xyz, nm), dot(r1.xyz, nm), dot(r2.xyz, nm));
            if (renormalize) {
                float len = length(nn);
                if (len > 0.0)
                    nn /= len;
            }
        }
        REDUCE_VERTEX(live, pp, nn, pc.write_normals != 0u);
        if (shared_pal) {
            uint s = lid * 3u, t = gl_WorkGroupSize.x * 3u + lid * 3u;
            stage[s] = pp.x; stage[s + 1u] = pp.y; stage[s + 2u] = pp.z;
            stage[t] = nn.x; stage[t + 1u] = nn.y; stage[t + 2u] = nn.z;
            barrier();
            uint f0 = (inst.out_off + block_v) * 3u;
            write_staged(0u, f0, w.vcount * 3u);
            if (pc.write_normals != 0u)
                write_staged(1u, f0, w.vcount * 3u);
            continue;
        }
        if (!live)
            continue;
        uint o = (inst.out_off + out_v) * 3u;
        out_pos[o] = pp.x; out_pos[o + 1] = pp.y; out_pos[o + 2] = pp.z;
        if (pc.write_normals != 0u) {
            out_nrm[o] = nn.x; out_nrm[o + 1] = nn.y; out_nrm[o + 2] = nn.z;
        }
    }
    REDUCE_FLUSH();
}
