// The verdict's reduction over one chunk's deformed outputs (validate asks for it; deform and
// bake never do): a few words the host reads back with the chunk and recomputes from the bytes
// it read, so a readback that lost or changed a word is caught (issue 25: every component is
// still compared on the host against the reference; this only vouches for the transfer and
// summarises the chunk for the report). Everything but the normals' deviation is integer work
// on the words as stored, so the host reproduces it bit for bit in any order:
//   r[0] wrapping uint32 sum of every word (positions, then normals when there are any)
//   r[1] xor of every word
//   r[2] components that are NaN or +-Inf (positions and normals)
//   r[3] max |length(n) - 1| over normals whose three components are finite (float bits;
//        non-negative floats order as their bits do); float arithmetic: for the report only
//   r[4..6] per axis the least finite position, r[7..9] the greatest, as order keys: a float's
//        bits with the sign bit set for positives and all bits flipped for negatives, so
//        unsigned order is the floats' order (-0.0 before +0.0)
// The host fills r with 0 (sums), 0xffffffff (minima) and 0 (maxima) before the dispatch
// (src/gpu/vulkan/reduce.c); each subgroup folds its invocations with subgroup arithmetic and
// adds its result with one atomic per word: no shared memory and no barrier, which llvmpipe
// runs as coroutines (a version with them took three times as long there). Loops stay short: llvmpipe
// stops an invocation after 65535 loop iterations in all, and each invocation here runs a few
// vertices.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Pos { uint pos[]; };
layout(std430, binding = 1) readonly buffer Nrm { uint nrm[]; };
layout(std430, binding = 2) buffer Result { uint r[]; };

// first: the run's first vertex in the bound buffers (0 for a batch chunk, which starts them; a
// stream's crowd part may hold a chunk's instances after others, and a chunk may span parts)
layout(push_constant) uniform Push { uint vertices, normals, first; } pc;

#include "reduce_words.glsl"

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.vertices; i += stride) {
        uint v = pc.first + i;
        uvec3 u = uvec3(pos[3u * v], pos[3u * v + 1u], pos[3u * v + 2u]), n = uvec3(0u);
        if (pc.normals != 0u)
            n = uvec3(nrm[3u * v], nrm[3u * v + 1u], nrm[3u * v + 2u]);
        reduce_fold_vertex(u, n, pc.normals != 0u);
    }
    reduce_flush();
}
