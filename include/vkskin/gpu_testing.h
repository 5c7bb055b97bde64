/* vkskin GPU engine, for tests only: deliberate faults and failures that prove a check can
 * fail (validate's --inject-fault, the out-of-memory and storage-range tests). A production
 * host has no use for them: everything here makes results wrong or runs fail on purpose,
 * which is why they are not among vks_gpu_options (gpu.h).
 *
 * STEP BY STEP
 *   1. vks_gpu_testing t = {0}; t.inject_fault = VKS_GPU_FAULT_MATRIX;   (or the others)
 *   2. vks_gpu_create_testing(&opt, &t, &gpu, &err)   in place of vks_gpu_create
 *   3. everything else as gpu.h says
 */
#ifndef VKSKIN_GPU_TESTING_H
#define VKSKIN_GPU_TESTING_H

#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deliberate faults on the GPU side, for tests that prove validation can fail. */
typedef enum vks_gpu_fault {
    VKS_GPU_FAULT_NONE = 0,
    VKS_GPU_FAULT_REMAP,  /* one palette slot of one group points at another bone */
    VKS_GPU_FAULT_WEIGHT, /* one vertex's first weight is off by 0.25 */
    VKS_GPU_FAULT_MATRIX  /* one bone's inverse bind is translated by 5% of the model's radius */
} vks_gpu_fault;

typedef struct vks_gpu_testing {
    vks_gpu_fault inject_fault; /* applied by vks_gpu_upload to the GPU copy of every skin */
    /* Make the batch scheduler's allocations fail. Both count only device-memory allocations
     * made by vks_gpu_run (not vks_gpu_upload), and a failure returns
     * VK_ERROR_OUT_OF_DEVICE_MEMORY without calling the driver. */
    uint64_t fail_allocations_over; /* nonzero: every allocation larger than this many bytes fails */
    uint32_t fail_allocation_nth;   /* nonzero: the nth allocation of each vks_gpu_run fails (once) */
    uint32_t limit_storage_range;   /* nonzero and below the device's: used as
                                       maxStorageBufferRange everywhere (upload checks, chunks) */
    uint32_t flip_readback_chunk;   /* nonzero: vks_gpu_run flips the lowest bit of one position
                                       word of chunk (this - 1) after reading it back, before
                                       deliver, and a stream (stream.h) likewise of its
                                       delivery (this - 1), counted over the whole stream:
                                       what validate's readback check must catch */
    /* nonzero: instance (this - 1) of every batch entry (vks_gpu_run; not the streams, whose
     * poses are sampled on the GPU) is posed wrong on the GPU. One
     * instance only, so that a check
     * which compares a sample of the instances can be shown to catch it elsewhere (validate
     * --sample's reduction). Its first node's local (a root: parents come first) as the
     * batch uploads it (after get_locals) is scaled by fault_instance_scale, or made NaN where
     * that is 0. Formats whose skin space undoes that root (RenderWare's atomic frame, NIF's
     * skeleton root) cancel a scale: the NaN never cancels. */
    uint32_t fault_instance;
    float fault_instance_scale;
} vks_gpu_testing;

/* The verdict's reduction pass (compute/reduce.comp) over words the caller plants, on the
 * context's queue: `vertices` vec3 positions and as many normals (NULL: none) are copied into
 * buffers of their own, reduced as a chunk's outputs are, and the GPU's figures returned, for a
 * test to hold against vks_gpu_figures_add on the same words (NaN, infinities, -0.0,
 * denormals: bits the deform pass would not easily produce). */
VKS_API vks_result vks_gpu_reduce_testing(vks_gpu *gpu, const float *positions, const float *normals,
                                          uint64_t vertices, vks_gpu_figures *out, vks_error *err);

/* vks_gpu_create with the testing hooks t (NULL: none, exactly vks_gpu_create). */
VKS_API vks_result vks_gpu_create_testing(const vks_gpu_options *opt, const vks_gpu_testing *t, vks_gpu **out,
                                          vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
