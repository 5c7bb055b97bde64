/* See cli_gpu.h. */
#include "cli_gpu.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void vks_cli_queue_json(cJSON *o, uint32_t family, uint32_t index)
{
    cJSON_AddNumberToObject(o, "queue_family", family);
    cJSON_AddNumberToObject(o, "queue_index", index);
}

/* "0,1,1": numbers and commas only, at least one comma. */
static int is_number_list(const char *s)
{
    int commas = 0, digits = 0;
    for (const char *p = s; *p; p++) {
        if (*p == ',') {
            if (!digits)
                return 0;
            commas++, digits = 0;
        } else if (*p >= '0' && *p <= '9') {
            digits++;
        } else {
            return 0;
        }
    }
    return commas && digits;
}

int vks_cli_gpu_spec_is_list(const char *spec)
{
    return spec && (!strcmp(spec, "all") || is_number_list(spec));
}

int vks_cli_gpu_devices(const char *spec, char (*out)[16], const char **single, int *count)
{
    *count = 0;
    *single = NULL;
    if (!vks_cli_gpu_spec_is_list(spec)) {
        *single = spec;
        *count = 1;
        return VKS_EXIT_OK;
    }
    if (strcmp(spec, "all")) {
        for (const char *p = spec; *p;) {
            size_t n = strcspn(p, ",");
            if (*count == VKS_CLI_MAX_DEVICES || n >= 16) {
                fprintf(stderr, "vkskin: --device %s: at most %d devices of numbers up to 15 digits\n", spec,
                        VKS_CLI_MAX_DEVICES);
                return VKS_EXIT_USAGE;
            }
            memcpy(out[*count], p, n);
            out[(*count)++][n] = 0;
            p += n + (p[n] == ',');
        }
        return VKS_EXIT_OK;
    }
    vks_gpu_device_info info[VKS_CLI_MAX_DEVICES];
    uint32_t n = 0;
    vks_error err = {0};
    if (vks_gpu_list_devices(info, VKS_CLI_MAX_DEVICES, &n, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: no Vulkan device: %s (exit %d; install mesa-vulkan-drivers for lavapipe)\n", err.msg,
                VKS_EXIT_NO_DEVICE);
        return err.code == VKS_ERR_NO_DEVICE ? VKS_EXIT_NO_DEVICE : VKS_EXIT_RUNTIME;
    }
    for (uint32_t i = 0; i < n && i < VKS_CLI_MAX_DEVICES; i++)
        if (info[i].has_compute)
            snprintf(out[(*count)++], 16, "%u", i);
    if (!*count) {
        fprintf(stderr, "vkskin: no Vulkan device with compute (exit %d)\n", VKS_EXIT_NO_DEVICE);
        return VKS_EXIT_NO_DEVICE;
    }
    return VKS_EXIT_OK;
}

/* A device number: digits only (anything else names a device). 1 with *index; 0 for a name;
 * -1 for a number past the library's int index, which strtol once wrapped (4294967296 to
 * device 0, 4294967295 to -1). */
static int device_number(const char *s, size_t len, int *index)
{
    long long n = 0;
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        if (n <= INT_MAX)
            n = n * 10 + (s[i] - '0');
    }
    if (n > INT_MAX)
        return -1;
    *index = (int)n;
    return 1;
}

/* --device's value: "all", a name, a number or a list of numbers, each number in range. */
static int device_spec_ok(const char *v)
{
    int index, list = is_number_list(v);
    const char *p = v;
    do {
        size_t n = list ? strcspn(p, ",") : strlen(p);
        if (device_number(p, n, &index) < 0) {
            fprintf(stderr, "vkskin: --device %s: device %.*s is out of range (devices are numbered from 0: see "
                            "vkskin devices)\n", v, (int)n, p);
            return 0;
        }
        p += n;
        p += *p == ',';
    } while (list && *p);
    return 1;
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
    if (!device_spec_ok(v))
        return 0;
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
    int index;
    if (g->device && device_number(g->device, strlen(g->device), &index) > 0)
        o.use_device_index = 1, o.device_index = index;
    else if (g->device)
        o.device_name = g->device; /* a name (a number out of range was refused with the option) */
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
