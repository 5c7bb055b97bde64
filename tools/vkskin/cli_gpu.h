/* GPU helpers shared by deform --gpu, validate and bench: --device parsing and opening the
 * context with one clear message when there is no device. */
#ifndef VKSKIN_CLI_GPU_H
#define VKSKIN_CLI_GPU_H

#include "cli.h"

typedef struct vks_cli_gpu_opts {
    const char *device;       /* --device N|NAME (NULL: best) */
    int validation;           /* --validation */
    vks_gpu_fault fault;      /* --inject-fault KIND (testing) */
    uint64_t max_chunk_bytes; /* --max-chunk-mb N */
    int render;               /* the command draws (render, validate --report, bake's sheets):
                                 a queue family with graphics where the device has one
                                 (vks_gpu_options.will_render) */
    const char *launch_shape; /* --launch-shape SPEC (NULL: $VKSKIN_LAUNCH_SHAPE, else the table) */
} vks_cli_gpu_opts;

/* Consumes --device, --validation, --inject-fault, --max-chunk-mb, --launch-shape. Same
 * contract as vks_cli_pose_option. */
int vks_cli_gpu_option(vks_cli_gpu_opts *g, int argc, char **argv, int *i);

/* The options every command that runs an engine takes: pose (vks_cli_pose_option), GPU
 * (vks_cli_gpu_option) and read options (vks_cli_read_option), tried in that order. Same
 * contract: 1 taken, 0 not one of them, -1 bad value (message printed). */
int vks_cli_run_option(vks_cli_pose *pose, vks_cli_gpu_opts *gpu, vks_read_options *read, int argc, char **argv,
                       int *i);

/* Opens the context; prints "vkskin: no Vulkan device: ..." and returns VKS_EXIT_NO_DEVICE,
 * VKS_EXIT_USAGE for a launch shape the device cannot run, or VKS_EXIT_RUNTIME on other
 * failures; VKS_EXIT_OK with *out set on success. */
int vks_cli_gpu_open(const vks_cli_gpu_opts *g, vks_gpu **out);

/* Adds "queue_family" and "queue_index" (the queue the context submits to) to a JSON object
 * that names the device: on a GPU with several families, which one did the work. */
struct cJSON;
void vks_cli_queue_json(struct cJSON *o, uint32_t family, uint32_t index);

#endif
