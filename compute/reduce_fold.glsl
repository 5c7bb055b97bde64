// The verdict's reduction fused into the deform pass (the variant validate asks for:
// deform.comp built with FUSED_REDUCE into its own module, src/gpu/vulkan/pipelines.c). Each
// invocation folds the outputs it computes, while they are still in registers, into the
// same ten words as reduce.comp (which says what each is) and adds them in with one atomic
// per subgroup after its instance loop: the outputs are read once, by the host, instead of
// again by a pass of their own (on lavapipe that second read was a third of validate's GPU
// work). The words are the same bits: the fold takes the floats the pass stores, only where it
// stores them (`live`; normals only where it writes them). No shared memory and no barrier
// (llvmpipe runs a shader with them as coroutines). Without FUSED_REDUCE the fold is empty
// and deform.spv is the plain kernel's bytes. The result words: set 1, binding 2 (reduce.comp's set,
// bound with the deform pass's set 0), reset by the host's fill before the pose pass.
#ifdef FUSED_REDUCE
layout(std430, set = 1, binding = 2) buffer Result { uint r[]; };

// This invocation's words so far: sum, xor, non-finite count, the normals' deviation (as
// bits), and per axis the least and greatest order key of a finite position.
uint fold_sum = 0u, fold_xor = 0u, fold_nonfinite = 0u, fold_dev = 0u;
uvec3 fold_min = uvec3(0xffffffffu), fold_max = uvec3(0u);

void fold_flush()
{
    uint sum = subgroupAdd(fold_sum), x = subgroupXor(fold_xor), nonfinite = subgroupAdd(fold_nonfinite);
    uint dev = subgroupMax(fold_dev);
    uvec3 mn = subgroupMin(fold_min), mx = subgroupMax(fold_max);
    if (subgroupElect()) {
        atomicAdd(r[0], sum), atomicXor(r[1], x), atomicAdd(r[2], nonfinite), atomicMax(r[3], dev);
        atomicMin(r[4], mn.x), atomicMin(r[5], mn.y), atomicMin(r[6], mn.z);
        atomicMax(r[7], mx.x), atomicMax(r[8], mx.y), atomicMax(r[9], mx.z);
    }
}

// One output vertex (position pp, normal nn where normals are written) of the invocation's
// instance. Only the fold is in the instance loop: llvmpipe runs the body of an `if` with the
// lanes masked off rather than jump over it, so a flush there, even under a condition true
// once a work item, cost its atomics' per-lane loops at every instance (+45 % of the pass);
// it comes after the loop (fold_flush), once a work item.
void reduce_vertex(bool live, vec3 pp, vec3 nn, bool normals)
{
    const uvec3 exp_mask = uvec3(0x7f800000u), sign = uvec3(0x80000000u);
    if (live) {
        uvec3 u = floatBitsToUint(pp);
        fold_sum += u.x + u.y + u.z, fold_xor ^= u.x ^ u.y ^ u.z;
        bvec3 fin = notEqual(u & exp_mask, exp_mask);
        uvec3 key = mix(u | sign, ~u, greaterThanEqual(u, sign)); // reduce.comp's order key
        fold_min = min(fold_min, mix(uvec3(0xffffffffu), key, fin));
        fold_max = max(fold_max, mix(uvec3(0u), key, fin));
        fold_nonfinite += 3u - (uint(fin.x) + uint(fin.y) + uint(fin.z));
        if (normals) {
            uvec3 n = floatBitsToUint(nn);
            fold_sum += n.x + n.y + n.z, fold_xor ^= n.x ^ n.y ^ n.z;
            bvec3 nfin = notEqual(n & exp_mask, exp_mask);
            fold_nonfinite += 3u - (uint(nfin.x) + uint(nfin.y) + uint(nfin.z));
            if (all(nfin))
                fold_dev = max(fold_dev, floatBitsToUint(abs(length(nn) - 1.0)));
        }
    }
}
#define REDUCE_VERTEX(live, pp, nn, normals) reduce_vertex(live, pp, nn, normals)
#define REDUCE_FLUSH() fold_flush() // after the instance loop, every invocation of the workgroup
#else
#define REDUCE_VERTEX(live, pp, nn, normals) // nothing: deform.spv stays the plain kernel
#define REDUCE_FLUSH()
#endif
