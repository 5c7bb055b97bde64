/* vkskin devices: the Vulkan devices as `vkskin devices` lists them (the limits that size
 * batches, every queue family, the queues vkskin's jobs use, the launch shape a run starts with
 * and which device a context picks by default), in its text and its JSON; the rules of a
 * --device value (a number, a name, "all" or a list of numbers); and the report of a
 * launch-shape calibration (vks_gpu_tune) as `vkskin tune` prints it. A host with a device menu
 * or a --device option of its own gets the CLI's facts and rules from the same calls.
 *
 * STEP BY STEP
 *   1. the devices (any time; makes no context; opt NULL or the options contexts will get, for
 *      their launch_shape and cache folder; out is large (about 20 KB): allocate it):
 *        vks_device_list *l = malloc(sizeof *l);
 *        vks_device_list_get(&gopt, l, &err)       VKS_ERR_NO_DEVICE without a loader or device
 *   2. show them: vks_device_list_write_text(l, stdout, &err) (`vkskin devices`), or
 *      vks_device_list_write_json(l, stdout, &err) / vks_device_list_json(l) (malloc'd)
 *      (`vkskin devices --json`); l->default_index is the one a zeroed vks_gpu_options picks
 *   3. a --device value: vks_device_spec_check(spec, &err) (a number past the library's int is
 *      refused), then for one device vks_device_spec_apply(spec, &gopt) (sets device_index or
 *      device_name) and vks_gpu_create; for several (vks_device_spec_is_list: "all", "0,1,1")
 *      vks_device_spec_split(spec, idx, 16, &n, &err) gives the device numbers, a context each
 *   4. a calibration: vks_gpu_tune(gpu, skin, &topt, &res, &err) (gpu.h), then
 *      vks_gpu_tune_write_text(gpu, skin, &topt, &res, stdout, &err) or
 *      vks_gpu_tune_write_json(...)
 *
 * THREADS
 *   vks_device_list_get may run on several threads at once (as vks_gpu_list_devices). The
 *   writers and the spec functions only read their arguments. Numbers are written in the C
 *   locale whatever the host's.
 */
#ifndef VKSKIN_DEVICES_H
#define VKSKIN_DEVICES_H

#include <stdio.h>

#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The devices a list holds at most (and `vkskin devices` shows). Since 0.8 */
enum { VKS_DEVICES_MAX = 16 };

/* The devices and what a context of vkskin's own would start with on each. Since 0.8 */
typedef struct vks_device_list {
    uint32_t count;                              /* devices listed (at most VKS_DEVICES_MAX) */
    int default_index;                           /* the one a context picks by default: the first
                                                    with compute by type (discrete, integrated,
                                                    virtual, cpu, other); -1: none has compute */
    vks_gpu_device_info devices[VKS_DEVICES_MAX];
    uint32_t shape_count;                        /* launch shapes known: 0 where
                                                    vks_gpu_list_launch_shapes failed */
    vks_gpu_shape_info shapes[VKS_DEVICES_MAX];  /* vks_gpu_list_launch_shapes, device by device */
} vks_device_list;

/* Lists the devices (vks_gpu_list_devices) with the launch shape each would start with
 * (vks_gpu_list_launch_shapes under opt: its launch_shape, cache folder and logger, which names
 * a damaged cache entry; NULL: defaults) and the default device. Since 0.8 */
VKS_API vks_result vks_device_list_get(const vks_gpu_options *opt, vks_device_list *out, vks_error *err);
/* The text `vkskin devices` prints: per device its name, type and Vulkan version ('*' marks the
 * default), limits, memory, queue families, the families batch work, rendering and readback
 * use, and the launch shape with its cache file. Since 0.8 */
VKS_API vks_result vks_device_list_write_text(const vks_device_list *l, FILE *f, vks_error *err);
/* The JSON `vkskin devices --json` prints (an array, one object per device): malloc'd text
 * (NULL: out of memory), or written to f with a newline. Since 0.8 */
VKS_API char *vks_device_list_json(const vks_device_list *l);
VKS_API vks_result vks_device_list_write_json(const vks_device_list *l, FILE *f, vks_error *err);
/* The index a context with a zeroed vks_gpu_options picks of the n devices: the first with
 * compute, by type; -1 when none has compute. Since 0.8 */
VKS_API int vks_device_default(const vks_gpu_device_info *devices, uint32_t n);

/* Whether a --device value names several devices: "all", or numbers with commas ("0,1,1"; a
 * number may repeat: two contexts on one device). A name may hold commas ("llvmpipe (LLVM
 * 15.0.6, 256 bits)") and is one device. Since 0.8 */
VKS_API int vks_device_spec_is_list(const char *spec);
/* Refuses (VKS_ERR_INVALID, "device N is out of range ...") a value whose number, or a number
 * of whose list, does not fit a device index; names are not looked up here. Since 0.8 */
VKS_API vks_result vks_device_spec_check(const char *spec, vks_error *err);
/* Points opt at the one device spec names: a number sets use_device_index and device_index,
 * anything else device_name (spec must outlive opt); NULL leaves the default. Since 0.8 */
VKS_API void vks_device_spec_apply(const char *spec, vks_gpu_options *opt);
/* The device numbers a list names (vks_device_spec_is_list): "all" is every device with
 * compute (VKS_ERR_NO_DEVICE: "no Vulkan device with compute", or vks_gpu_list_devices' error),
 * "N,M,..." those numbers; at most cap and at most VKS_DEVICES_MAX. VKS_ERR_INVALID for a spec
 * that is no list or a number out of range. Since 0.8 */
VKS_API vks_result vks_device_spec_split(const char *spec, uint32_t *indices, uint32_t cap, uint32_t *count,
                                         vks_error *err);

/* The table `vkskin tune` prints of a calibration vks_gpu_tune(gpu, skin, opt, r) made: the
 * device, the workload, each candidate's rate (the chosen one marked '*') and where the winner
 * was stored (opt->store 0: "not stored (--no-store)"). Since 0.8 */
VKS_API vks_result vks_gpu_tune_write_text(const vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                                           const vks_gpu_tune_result *r, FILE *f, vks_error *err);
/* The JSON `vkskin tune --json` prints: malloc'd (NULL: out of memory), or written to f with a
 * newline. Since 0.8 */
VKS_API char *vks_gpu_tune_json(const vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                                const vks_gpu_tune_result *r);
VKS_API vks_result vks_gpu_tune_write_json(const vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                                           const vks_gpu_tune_result *r, FILE *f, vks_error *err);

#ifdef __cplusplus
}
#endif

#endif
