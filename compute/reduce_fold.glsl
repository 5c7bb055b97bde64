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

#include "reduce_words.glsl"

// One output vertex (position pp, normal nn where normals are written) of the invocation's
// instance. Only the fold is in the instance loop: llvmpipe runs the body of an `if` with the
// lanes masked off rather than jump over it, so a flush there, even under a condition true
// once a work item, cost its atomics' per-lane loops at every instance (+45 % of the pass);
// it comes after the loop (reduce_flush), once a work item.
void reduce_vertex(bool live, vec3 pp, vec3 nn, bool normals)
{
    if (live)
        reduce_fold_vertex(floatBitsToUint(pp), floatBitsToUint(nn), normals);
}
#define REDUCE_VERTEX(live, pp, nn, normals) reduce_vertex(live, pp, nn, normals)
#define REDUCE_FLUSH() reduce_flush() // after the instance loop, every invocation of the workgroup
#else
#define REDUCE_VERTEX(live, pp, nn, normals) // nothing: deform.spv stays the plain kernel
#define REDUCE_FLUSH()
#endif
