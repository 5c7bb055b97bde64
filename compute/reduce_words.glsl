// The verdict's ten words (reduce.comp says what each is) as one invocation's running state,
// folded vertex by vertex from the stored bits (reduce_fold_vertex) and added into r[0..9]
// with one atomic per word per subgroup (reduce_flush). One fold for both places the
// reduction runs: reduce.comp's pass over the stored words and the deform pass's fused variant
// (reduce_fold.glsl), so the two give the same bits. The includer declares r[] first.
// Vector operations on a vertex's three words, no arrays: llvmpipe keeps them in registers.

uint fold_sum = 0u, fold_xor = 0u, fold_nonfinite = 0u, fold_dev = 0u;
uvec3 fold_min = uvec3(0xffffffffu), fold_max = uvec3(0u);

// One vertex: its position's words u and, where normals counts, its normal's words n.
void reduce_fold_vertex(uvec3 u, uvec3 n, bool normals)
{
    const uvec3 exp_mask = uvec3(0x7f800000u), sign = uvec3(0x80000000u);
    fold_sum += u.x + u.y + u.z, fold_xor ^= u.x ^ u.y ^ u.z;
    bvec3 fin = notEqual(u & exp_mask, exp_mask);
    uvec3 key = mix(u | sign, ~u, greaterThanEqual(u, sign)); // the order key (reduce.comp)
    fold_min = min(fold_min, mix(uvec3(0xffffffffu), key, fin));
    fold_max = max(fold_max, mix(uvec3(0u), key, fin));
    fold_nonfinite += 3u - (uint(fin.x) + uint(fin.y) + uint(fin.z));
    if (normals) {
        fold_sum += n.x + n.y + n.z, fold_xor ^= n.x ^ n.y ^ n.z;
        bvec3 nfin = notEqual(n & exp_mask, exp_mask);
        fold_nonfinite += 3u - (uint(nfin.x) + uint(nfin.y) + uint(nfin.z));
        if (all(nfin))
            fold_dev = max(fold_dev, floatBitsToUint(abs(length(uintBitsToFloat(n)) - 1.0)));
    }
}

// The invocation's words into r: subgroup folds, then one atomic per word from one lane.
void reduce_flush()
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
