/* One run of the bench's whole GPU workload (bench_internal.h), the step every GPU measurement
 * of the bench repeats: the kernels' pairs, the end to end and the file path's kernel figure. */
#include "bench/bench_internal.h"

vks_result vks__bench_run_once(vks__bench_engines *b, vks_gpu_kernel kernel,
                               int (*deliver)(void *user, uint32_t entry, uint32_t first, uint32_t count,
                                              const float *p, const float *n),
                               void *user, vks_gpu_stats *st, vks_error *err)
{
    vks_gpu_batch_entry e = {0, b->instances, b->locals};
    vks_gpu_batch batch = {0};
    batch.entries = &e, batch.entry_count = 1;
    batch.want_normals = 1;
    batch.max_chunk_bytes = b->max_chunk_bytes;
    batch.kernel = kernel;
    batch.kernel_only = deliver == NULL;
    batch.deliver = deliver, batch.user = user;
    vks_gpu_calibrate_for_batch(b->gpu, b->models, &batch); /* a run never calibrates from inside */
    vks_result r = vks_gpu_run(b->gpu, b->models, &batch, st, err);
    b->out->chunks = st->chunks;
    return r;
}
