/* GPU-vs-reference comparison shared by the GPU tests: runs a batch on the GPU and, chunk by
 * chunk as outputs arrive, deforms the same instances with the CPU reference and feeds both
 * into the diff accumulators (one per entry and stream). */
#ifndef VKS_TEST_GPU_CHECK_H
#define VKS_TEST_GPU_CHECK_H

#include "vkskin.h"
#include "vkskin/gpu_testing.h"

typedef struct gpu_check_entry {
    const vks_skin *skin;
    uint32_t model;     /* index in the uploaded set */
    uint32_t instances;
    int bind;           /* bind pose instead of procedural */
    uint64_t seed;
} gpu_check_entry;

typedef struct gpu_check_result {
    vks_diff_report pos[8], nrm[8];
    uint32_t delivered[8]; /* instances delivered per entry */
    vks_gpu_stats stats;
    int pass;              /* every entry, both streams, every instance delivered once */
} gpu_check_result;

/* Creates a context with the validation layer on; exits 77 when there is no device or no
 * layer. */
vks_gpu *gpu_check_context(vks_gpu_fault fault, int force_staging);
/* The same with the caller's options (validation is turned on; a launch shape the options do
 * not force comes from $VKS_TEST_LAUNCH_SHAPE when set). */
vks_gpu *gpu_check_context_opt(const vks_gpu_options *opt);
/* The same with the testing hooks of gpu_testing.h (NULL: none). */
vks_gpu *gpu_check_context_testing(const vks_gpu_options *opt, const vks_gpu_testing *testing);

/* 1 when the context's readback copies are a submission of their own (one more a chunk, a
 * frame, a crowd read), as src/gpu/vulkan/context.c decides it: a readback family apart from
 * the queue family (a copy engine's: a discrete GPU reads back apart in either setting) or
 * VKSKIN_TEST_SEPARATE_READBACK set and not "0". A batch goes apart only where it stages its
 * outputs (batch.c), a stream and a crowd read always. Call it while the environment is still
 * the one the context was made under. */
int gpu_check_reads_back_apart(vks_gpu *gpu);

/* 1: gpu_check_run leaves out vks_gpu_calibrate_for_batch, the explicit step before its run
 * (a run alone must never calibrate: test_gpu_first_use); 0 by default. */
extern int gpu_check_skip_calibration;

/* A generated character (tools/gen) for GPU tests; counts a failed check when it cannot be made. */
vks_skin *gpu_check_character(uint32_t vertices, uint32_t bones, uint32_t influences, uint32_t palette,
                              uint64_t seed);

vks_result gpu_check_run(vks_gpu *gpu, const vks_gpu_models *ms, const gpu_check_entry *e, uint32_t n,
                         uint64_t max_chunk_bytes, gpu_check_result *out);
/* 1 when no Vulkan object was made between two counter readings (allocations, buffers,
 * descriptor sets, command buffers, pipelines); names each count that moved on stderr. */
int gpu_check_made_nothing(const vks_gpu_counters *before, const vks_gpu_counters *after);

/* The same on a chosen deform kernel (the plain baseline is an engine too: checked the same way). */
vks_result gpu_check_run_kernel(vks_gpu *gpu, const vks_gpu_models *ms, const gpu_check_entry *e, uint32_t n,
                                uint64_t max_chunk_bytes, vks_gpu_kernel kernel, gpu_check_result *out);

#endif
