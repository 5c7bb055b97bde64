/* See cli_gpu.h. */
#include "cli_gpu.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int vks_cli_gpu_devices(const char *spec, char (*out)[16], const char **single, int *count)
{
    *count = 0;
    *single = NULL;
    if (!vks_device_spec_is_list(spec)) {
        *single = spec;
        *count = 1;
        return VKS_EXIT_OK;
    }
    uint32_t index[VKS_CLI_MAX_DEVICES], n = 0;
    vks_error err = {0};
    vks_result r = vks_device_spec_split(spec, index, VKS_CLI_MAX_DEVICES, &n, &err);
    if (r == VKS_ERR_INVALID) {
        fprintf(stderr, "vkskin: --device %s: %s\n", spec, err.msg);
        return VKS_EXIT_USAGE;
    }
    if (r == VKS_ERR_NO_DEVICE && !strcmp(err.msg, "no Vulkan device with compute")) { /* devices, none usable */
        fprintf(stderr, "vkskin: %s (exit %d)\n", err.msg, VKS_EXIT_NO_DEVICE);
        return VKS_EXIT_NO_DEVICE;
    }
    if (r != VKS_OK) {
        fprintf(stderr, "vkskin: no Vulkan device: %s (exit %d; install mesa-vulkan-drivers for lavapipe)\n", err.msg,
                VKS_EXIT_NO_DEVICE);
        return err.code == VKS_ERR_NO_DEVICE ? VKS_EXIT_NO_DEVICE : VKS_EXIT_RUNTIME;
    }
    for (uint32_t k = 0; k < n; k++)
        snprintf(out[k], 16, "%u", index[k]);
    *count = (int)n;
    return VKS_EXIT_OK;
}

/* --inject-fault instance[:K] (instance K's root NaN on the GPU) or scale[:K] (scaled by 4):
 * one instance wrong, K default 0 (gpu_testing.h, fault_instance). 0 when v is neither. */
static int instance_fault(vks_cli_gpu_opts *g, const char *v)
{
    int nan = !strncmp(v, "instance", 8), scale = !strncmp(v, "scale", 5);
    const char *k = v + (nan ? 8 : 5);
    uint32_t n = 0;
    if ((!nan && !scale) || (*k && (*k != ':' || !vks_cli_parse_u32("--inject-fault", k + 1, &n) ||
                                    n == UINT32_MAX)))
        return 0;
    g->fault_instance = n + 1, g->fault_instance_scale = nan ? 0.0f : 4.0f;
    return 1;
}

static int set_device(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    vks_error err = {0};
    if (vks_device_spec_check(v, &err) != VKS_OK) { /* a number past the library's int index */
        fprintf(stderr, "vkskin: --device %s: %s\n", v, err.msg);
        return 0;
    }
    *(const char **)field = v;
    return 1;
}

static int set_fault(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    vks_cli_gpu_opts *g = field;
    if (!strcmp(v, "remap"))
        g->fault = VKS_GPU_FAULT_REMAP;
    else if (!strcmp(v, "weight"))
        g->fault = VKS_GPU_FAULT_WEIGHT;
    else if (!strcmp(v, "matrix"))
        g->fault = VKS_GPU_FAULT_MATRIX;
    else if (!instance_fault(g, v)) {
        fprintf(stderr, "vkskin: --inject-fault: expected remap, weight, matrix, instance[:K] or scale[:K], got "
                        "'%s'\n", v);
        return 0;
    }
    return 1;
}

static int set_chunk_mb(void *field, const vks_cli_option *o, const char *v)
{
    uint32_t mb;
    if (!vks_cli_store_u32(&mb, o, v))
        return 0;
    *(uint64_t *)field = (uint64_t)mb << 20;
    return 1;
}

#define AT(field) offsetof(vks_cli_gpu_opts, field)
static const vks_cli_option gpu_options[] = {
    {"--device", 0, "N|NAME", set_device, AT(device), 0, 0,
     "the Vulkan device to use (vkskin devices lists them; default: the one marked '*')",
     "all, or N,M,...: several devices, a context each (a number may repeat), where the command splits its "
     "work (deform --gpu, validate, bake; the same bytes as one device)"},
    {"--validation", 0, NULL, vks_cli_store_flag, AT(validation), 0, 0,
     "enable the Khronos validation layer (validate: any message fails)", NULL},
    {"--max-chunk-mb", 0, "N", set_chunk_mb, AT(max_chunk_bytes), 1, 0,
     "cap one chunk's output in MB (forces several chunks; with clips, the frames held per chunk)", NULL},
    {"--launch-shape", 0, "SPEC", vks_cli_store_string, AT(launch_shape), 0, 0,
     "force the passes' launch shape, e.g. wg=256,run=8,palette=on",
     "docs/performance.md: Launch shapes; default: the device's row of the table, or $VKSKIN_LAUNCH_SHAPE"},
    {"--inject-fault", 0, "KIND", set_fault, 0, 0, 0,
     "testing: corrupt the GPU copy of a remap entry, a weight or a skin matrix (remap, weight, matrix), or one "
     "instance's pose (instance[:K] NaN, scale[:K] x4)",
     "validate must then fail (exit 3)"},
};
#undef AT

const vks_cli_group vks_cli_gpu_options = VKS_CLI_GROUP("GPU options", gpu_options);

int vks_cli_gpu_open(const vks_cli_gpu_opts *g, vks_gpu **out)
{
    vks_gpu_options o = {0};
    vks_gpu_testing t = {0};
    o.validation = g->validation;
    t.inject_fault = g->fault; /* --inject-fault: validate's proof that it can fail */
    t.fault_instance = g->fault_instance, t.fault_instance_scale = g->fault_instance_scale;
    /* Testing: flips a bit of chunk K as read back, which only validate's readback check sees
     * (tests/cli/cli_validate_readback.sh) */
    const char *flip = getenv("VKSKIN_TEST_FLIP_READBACK");
    if (flip && *flip)
        t.flip_readback_chunk = (uint32_t)strtoul(flip, NULL, 10) + 1;
    o.will_render = g->render;
    o.logger.func = vks_log_stderr; /* validation messages on stderr, as the CLI always printed */
    /* The environment variable lets scripts and test bundles force a shape on every command
     * without changing their command lines; the flag wins over it. */
    o.launch_shape = g->launch_shape ? g->launch_shape : getenv("VKSKIN_LAUNCH_SHAPE");
    vks_device_spec_apply(g->device, &o); /* a number or a name (NULL: the best) */
    vks_error err = {0};
    char msg[512];
    vks_result r = vks_gpu_create_testing(&o, &t, out, &err);
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
