/* GPU helpers shared by deform --gpu, validate and bench: --device parsing and opening the
 * context with one clear message when there is no device. */
#ifndef VKSKIN_CLI_GPU_H
#define VKSKIN_CLI_GPU_H

#include "cli.h"
#include "vkskin/devices.h"
#include "vkskin/gpu_testing.h" /* --inject-fault */

typedef struct vks_cli_gpu_opts {
    const char *device;       /* --device N|NAME (NULL: best) */
    int validation;           /* --validation */
    vks_gpu_fault fault;      /* --inject-fault KIND (testing) */
    uint32_t fault_instance;  /* --inject-fault instance:K or scale:K: K + 1 (0: none) */
    float fault_instance_scale; /* scale:K: 4; instance:K: 0 (NaN) */
    uint64_t max_chunk_bytes; /* --max-chunk-mb N */
    int render;               /* the command draws (render, validate --report, bake's sheets):
                                 a queue family with graphics where the device has one
                                 (vks_gpu_options.will_render) */
    const char *launch_shape; /* --launch-shape SPEC (NULL: $VKSKIN_LAUNCH_SHAPE, else the table) */
} vks_cli_gpu_opts;

/* The GPU options' table (cli_options.h), storing into a vks_cli_gpu_opts: --device,
 * --validation, --max-chunk-mb, --launch-shape, --inject-fault. */
extern const vks_cli_group vks_cli_gpu_options;

/* Opens the context; prints "vkskin: no Vulkan device: ..." and returns VKS_EXIT_NO_DEVICE,
 * VKS_EXIT_USAGE for a launch shape the device cannot run, or VKS_EXIT_RUNTIME on other
 * failures; VKS_EXIT_OK with *out set on success. */
int vks_cli_gpu_open(const vks_cli_gpu_opts *g, vks_gpu **out);

/* The devices a command splits its work across (docs/validation.md "Validation reports for CI"),
 * by the library's rules (devices.h: vks_device_spec_split; vks_device_spec_is_list tells a
 * list). Each out[k] is a --device value for vks_cli_gpu_open; a single device comes back as
 * the spec itself (NULL: the best). Prints why and returns VKS_EXIT_NO_DEVICE or VKS_EXIT_USAGE
 * when the list cannot be made. */
enum { VKS_CLI_MAX_DEVICES = VKS_DEVICES_MAX };
int vks_cli_gpu_devices(const char *spec, char (*out)[16], const char **single, int *count);

#endif
