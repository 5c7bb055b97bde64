/* See cli_gpu.h. */
#include "cli_gpu.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

void vks_cli_queue_json(cJSON *o, uint32_t family, uint32_t index)
{
    cJSON_AddNumberToObject(o, "queue_family", family);
    cJSON_AddNumberToObject(o, "queue_index", index);
}

int vks_cli_gpu_option(vks_cli_gpu_opts *g, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--validation")) {
        g->validation = 1;
        return 1;
    }
    int takes = !strcmp(a, "--device") || !strcmp(a, "--inject-fault") || !strcmp(a, "--max-chunk-mb") ||
                !strcmp(a, "--launch-shape");
    if (!takes)
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "vkskin: %s needs a value\n", a);
        return -1;
    }
    const char *v = argv[++*i];
    if (!strcmp(a, "--device")) {
        g->device = v;
    } else if (!strcmp(a, "--launch-shape")) {
        g->launch_shape = v; /* checked against the device when the context is made */
    } else if (!strcmp(a, "--inject-fault")) {
        if (!strcmp(v, "remap"))
            g->fault = VKS_GPU_FAULT_REMAP;
        else if (!strcmp(v, "weight"))
            g->fault = VKS_GPU_FAULT_WEIGHT;
        else if (!strcmp(v, "matrix"))
            g->fault = VKS_GPU_FAULT_MATRIX;
        else {
            fprintf(stderr, "vkskin: --inject-fault: expected remap, weight or matrix, got '%s'\n", v);
            return -1;
        }
    } else {
        uint32_t mb;
        if (!vks_cli_parse_u32(a, v, &mb))
            return -1;
        if (mb == 0) {
            fprintf(stderr, "vkskin: --max-chunk-mb must be at least 1\n");
            return -1;
        }
        g->max_chunk_bytes = (uint64_t)mb << 20;
    }
    return 1;
}

int vks_cli_gpu_open(const vks_cli_gpu_opts *g, vks_gpu **out)
{
    vks_gpu_options o = {0};
    o.validation = g->validation;
    o.inject_fault = g->fault;
    o.will_render = g->render;
    o.logger.func = vks_log_stderr; /* validation messages on stderr, as the CLI always printed */
    /* The environment variable lets scripts and test bundles force a shape on every command
     * without changing their command lines; the flag wins over it. */
    o.launch_shape = g->launch_shape ? g->launch_shape : getenv("VKSKIN_LAUNCH_SHAPE");
    if (g->device) {
        char *end = NULL;
        long n = strtol(g->device, &end, 10);
        if (end && *end == 0 && end != g->device && n >= 0)
            o.use_device_index = 1, o.device_index = (int)n;
        else
            o.device_name = g->device;
    }
    vks_error err = {0};
    char msg[512];
    vks_result r = vks_gpu_create(&o, out, &err);
    if (r == VKS_OK)
        return VKS_EXIT_OK;
    if (r == VKS_ERR_NO_DEVICE) {
        fprintf(stderr, "vkskin: no Vulkan device: %s (exit %d; install mesa-vulkan-drivers for lavapipe)\n",
                err.msg, VKS_EXIT_NO_DEVICE);
        return VKS_EXIT_NO_DEVICE;
    }
    fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
    if (r == VKS_ERR_INVALID && o.launch_shape && strstr(err.msg, "launch shape"))
        return VKS_EXIT_USAGE;
    return VKS_EXIT_RUNTIME;
}

int vks_cli_run_option(vks_cli_pose *pose, vks_cli_gpu_opts *gpu, vks_read_options *read, int argc, char **argv,
                       int *i)
{
    int t = vks_cli_pose_option(pose, argc, argv, i);
    if (t == 0)
        t = vks_cli_gpu_option(gpu, argc, argv, i);
    if (t == 0)
        t = vks_cli_read_option(read, argc, argv, i);
    return t;
}
