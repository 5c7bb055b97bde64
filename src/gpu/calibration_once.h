/* One calibration at first use per process and device (issue 37): the contexts of one process
 * on one device (vks_gpu_create twice on it, `--device 0,0`, a host's thread pool) share one
 * measurement instead of each timing every candidate at once on the same device, choosing
 * shapes apart and racing to store them. A device is its launch-shape cache key (vendor,
 * device, driver, pipeline-cache UUID), the key its shape is stored under. Backend-neutral:
 * a mutex and a condition variable, no Vulkan call. The small-model class (the key's
 * size_class) is measured apart, once as well. */
#ifndef VKS_GPU_CALIBRATION_ONCE_H
#define VKS_GPU_CALIBRATION_ONCE_H

#include "gpu/tuning.h"
#include "gpu/tuning_cache.h"

/* Claims the calibration of key's device for the calling context: 1 when it is the first of the
 * process (it calibrates, then calls vks__calibration_once_done); 0 when another context has
 * calibrated, or is calibrating (the call waits until it is done): *shape is then its winner,
 * and *have 1, or *have 0 where that calibration failed (the table's shape stays). */
int vks__calibration_once_claim(const vks__cache_key *key, vks__launch_shape *shape, int *have);
/* The claimed calibration is over: shape is its winner, NULL when it failed. Wakes the
 * contexts waiting in vks__calibration_once_claim. */
void vks__calibration_once_done(const vks__cache_key *key, const vks__launch_shape *shape);

#endif
