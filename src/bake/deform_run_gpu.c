/* The GPU side of the deform run (deform_run.h, CHUNKS): one stream of host-posed instances
 * (stream.h, HOST POSES: every pose an instance of a one-frame stream, the bits of one
 * vks_gpu_run); deliver copies each chunk out of the readback memory of its ring slot (valid
 * only during the delivery) into a ring of small blocks, and a converter thread puts them into
 * the file's layout and hands them to the output (whose writer thread writes them), so the
 * thread that feeds the GPU neither converts nor writes. (Per chunk vks_gpu_run_job calls with
 * a copy into 16 MiB buffers and a writer thread once took 335 ms for 1000 poses of 10k
 * vertices on lavapipe against 183 ms for one run writing from the ring: the per-call
 * submissions and the fresh pages cost that, not the copy.) Moved from the vkskin program's
 * deform_chunks.c. */
#include "bake/deform_run_common.h"
#include "core/thread_start.h"

#include <stdlib.h>
#include <string.h>

vks_result vks__deform_gpu(vks__chunks *c, vks_gpu *const *gpus, const vks_gpu_models *const *models, int count,
                          vks_error *err)
{
    vks__gpu_stream g = {0};
    g.c = c, g.result = VKS_OK;
    g.gpus = gpus, g.models = models, g.count = count;
    g.per = (size_t)c->skin->vertex_count * 3;
    size_t pose_bytes = g.per * sizeof(float) + 16;
    g.block_poses = (uint32_t)(VKS__BLOCK_BYTES / pose_bytes < 1 ? 1 : VKS__BLOCK_BYTES / pose_bytes);
    if (g.block_poses > c->total)
        g.block_poses = (uint32_t)c->total;
    if (c->total > UINT32_MAX) /* a stream's instances are counted in 32 bits */
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "deform", "%llu poses: at most %u on the GPU",
                             (unsigned long long)c->total, UINT32_MAX);
    int ok = 1;
    for (int k = 0; k < (c->direct ? 1 : VKS__BLOCKS) && ok; k++) {
        g.blocks[k].pos = malloc((size_t)g.block_poses * g.per * sizeof(float) + 16);
        g.blocks[k].nrm = malloc((size_t)g.block_poses * g.per * sizeof(float) + 16);
        ok = g.blocks[k].pos && g.blocks[k].nrm;
    }
    if (!ok) {
        for (int k = 0; k < VKS__BLOCKS; k++)
            free(g.blocks[k].pos), free(g.blocks[k].nrm);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory");
    }
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    g.threaded = !c->direct && !vks__thread_start(&g.thread, vks__gpu_stream_converter, &g,
                                                   "deform --gpu: poses converted and written on the thread that feeds the GPU");
    vks_gpu_shape_info shape; /* the GPU's chunks: the tuning table's size for this device */
    vks_gpu_launch_shape(gpus[0], &shape);
    uint64_t max_chunk_bytes = c->max_chunk_bytes ? c->max_chunk_bytes : shape.chunk_bytes;
    double t0 = vks__deform_now_seconds();
    vks_error local = {0};
    int single = count <= 1;
    vks_result r = single ? VKS_OK : vks__deform_split(&g, max_chunk_bytes, &single, err ? err : &local);
    if (single) { /* one context, or no threads to be had for the others */
        vks_stream_desc d = vks__gpu_stream_desc(&g, max_chunk_bytes);
        r = vks_stream_run(gpus[0], &d, NULL, err);
    }
    c->engine_s = vks__deform_now_seconds() - t0 - g.write_s;
    if (g.threaded) { /* the converter drains what is left, then ends */
        pthread_mutex_lock(&g.mu);
        g.quit = 1;
        pthread_cond_broadcast(&g.cv);
        pthread_mutex_unlock(&g.mu);
        pthread_join(g.thread, NULL);
    }
    if (g.result != VKS_OK) { /* the output failed: its error, not the batch's "stopped" */
        if (err)
            *err = g.err;
        r = g.result;
    }
    pthread_mutex_destroy(&g.mu);
    pthread_cond_destroy(&g.cv);
    for (int k = 0; k < VKS__BLOCKS; k++)
        free(g.blocks[k].pos), free(g.blocks[k].nrm);
    return r;
}

