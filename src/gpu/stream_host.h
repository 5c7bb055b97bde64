/* The stream's host-posed instances (stream.h, HOST POSES; stream_host.c): a stream whose
 * instances are all VKS_POSE_HOST runs as one GPU batch, to vks_gpu_run's bits. */
#ifndef VKS_GPU_STREAM_HOST_H
#define VKS_GPU_STREAM_HOST_H

#include "vkskin/stream.h"

/* d checked by vks_stream_run (context, models, instances, times, deliver); st zeroed. */
vks_result vks__stream_host_run(vks_gpu *gpu, const vks_stream_desc *d, vks_stream_stats *st, vks_error *err);

#endif
