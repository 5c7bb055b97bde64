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
// (src/gpu/vulkan/reduce.c); each workgroup folds its invocations in shared memory and adds
// its result with one atomic per word. Loops stay short: llvmpipe stops an invocation after
// 65535 loop iterations in all, and each invocation here runs a few vertices.
#version 450
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Pos { uint pos[]; };
layout(std430, binding = 1) readonly buffer Nrm { uint nrm[]; };
layout(std430, binding = 2) buffer Result { uint r[]; };

layout(push_constant) uniform Push { uint vertices, normals; } pc;

shared uint s_sum, s_xor, s_nonfinite, s_dev;
shared uint s_min[3], s_max[3];

uint order_key(uint u) { return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u); }
bool finite_bits(uint u) { return (u & 0x7f800000u) != 0x7f800000u; }

void main()
{
    uint lid = gl_LocalInvocationIndex;
    if (lid == 0u) {
        s_sum = 0u, s_xor = 0u, s_nonfinite = 0u, s_dev = 0u;
        for (uint k = 0u; k < 3u; k++)
            s_min[k] = 0xffffffffu, s_max[k] = 0u;
    }
    barrier();
    uint sum = 0u, x = 0u, nonfinite = 0u, dev = 0u;
    uint mn[3] = uint[3](0xffffffffu, 0xffffffffu, 0xffffffffu), mx[3] = uint[3](0u, 0u, 0u);
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint v = gl_GlobalInvocationID.x; v < pc.vertices; v += stride) {
        for (uint k = 0u; k < 3u; k++) {
            uint u = pos[3u * v + k];
            sum += u, x ^= u;
            if (finite_bits(u)) {
                uint key = order_key(u);
                mn[k] = min(mn[k], key), mx[k] = max(mx[k], key);
            } else {
                nonfinite++;
            }
        }
        if (pc.normals != 0u) {
            uint a = nrm[3u * v], b = nrm[3u * v + 1u], c = nrm[3u * v + 2u];
            sum += a + b + c, x ^= a ^ b ^ c;
            uint bad = uint(!finite_bits(a)) + uint(!finite_bits(b)) + uint(!finite_bits(c));
            nonfinite += bad;
            if (bad == 0u) {
                float d = abs(length(vec3(uintBitsToFloat(a), uintBitsToFloat(b), uintBitsToFloat(c))) - 1.0);
                dev = max(dev, floatBitsToUint(d));
            }
        }
    }
    atomicAdd(s_sum, sum), atomicXor(s_xor, x), atomicAdd(s_nonfinite, nonfinite), atomicMax(s_dev, dev);
    for (uint k = 0u; k < 3u; k++)
        atomicMin(s_min[k], mn[k]), atomicMax(s_max[k], mx[k]);
    barrier();
    if (lid == 0u) {
        atomicAdd(r[0], s_sum), atomicXor(r[1], s_xor), atomicAdd(r[2], s_nonfinite), atomicMax(r[3], s_dev);
        for (uint k = 0u; k < 3u; k++)
            atomicMin(r[4u + k], s_min[k]), atomicMax(r[7u + k], s_max[k]);
    }
}
