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
} vks_gpu_testing;

/* vks_gpu_create with the testing hooks t (NULL: none, exactly vks_gpu_create). */
VKS_API vks_result vks_gpu_create_testing(const vks_gpu_options *opt, const vks_gpu_testing *t, vks_gpu **out,
                                          vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
