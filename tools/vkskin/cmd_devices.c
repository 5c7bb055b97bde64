/* vkskin devices [--json]: the Vulkan devices this machine sees, with the limits that size
 * the GPU batches (storage binding range, shared memory, subgroup size, memory heaps), every
 * queue family (flags, queue count, timestamp bits, as vulkaninfo lists them), the family and
 * queue batch work, rendering and the stream's readback copies use on each (readback: a copy
 * engine's family beside batch work's where the device has one), the launch shape a run would
 * start with and why (vks_gpu_list_launch_shapes), and which device `--gpu` picks by default.
 * Exit 4 when there is none. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int rank(const char *type)
{
    return !strcmp(type, "discrete") ? 0 : !strcmp(type, "integrated") ? 1 : !strcmp(type, "virtual") ? 2
         : !strcmp(type, "cpu")      ? 3 : 4;
}

/* A family's capabilities in vulkaninfo's words, lower case: "graphics compute transfer". */
static void flag_words(uint32_t flags, char *buf, size_t cap, cJSON *array)
{
    static const struct {
        uint32_t bit;
        const char *word;
    } words[] = {{VKS_QUEUE_GRAPHICS, "graphics"},         {VKS_QUEUE_COMPUTE, "compute"},
                 {VKS_QUEUE_TRANSFER, "transfer"},         {VKS_QUEUE_SPARSE_BINDING, "sparse_binding"},
                 {VKS_QUEUE_PROTECTED, "protected"},       {VKS_QUEUE_VIDEO_DECODE, "video_decode"},
                 {VKS_QUEUE_VIDEO_ENCODE, "video_encode"}, {VKS_QUEUE_OPTICAL_FLOW, "optical_flow"}};
    size_t at = 0;
    buf[0] = 0;
    uint32_t known = 0;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        known |= words[k].bit;
        if (!(flags & words[k].bit))
            continue;
        if (at < cap)
            at += (size_t)snprintf(buf + at, cap - at, "%s%s", at ? " " : "", words[k].word);
        if (array)
            cJSON_AddItemToArray(array, cJSON_CreateString(words[k].word));
    }
    if ((flags & ~known) && at < cap) /* a bit newer than this list: shown, not dropped */
        snprintf(buf + at, cap - at, "%s0x%x", at ? " " : "", flags & ~known);
    if ((flags & ~known) && array) {
        char hex[16];
        snprintf(hex, sizeof hex, "0x%x", flags & ~known);
        cJSON_AddItemToArray(array, cJSON_CreateString(hex));
    }
}

/* {"family": F, "queue": 0} of a job, or null where the device has no family for it. */
static cJSON *job_queue_json(uint32_t family)
{
    if (family == UINT32_MAX)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "family", family);
    cJSON_AddNumberToObject(o, "queue", 0);
    return o;
}

static void print_job(const char *job, uint32_t family, const char *needs)
{
    if (family == UINT32_MAX)
        printf("%s: none (no family with %s)", job, needs);
    else
        printf("%s: family %u, queue 0", job, family);
}

/* The launch shape a context would start with on the device and why (the table's row, a shape
 * measured before: "cache", or "forced"), with the cache entry looked at. */
static cJSON *shape_json(const vks_gpu_shape_info *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "shape", s->text);
    cJSON_AddNumberToObject(o, "deform_workgroup", s->deform_workgroup);
    cJSON_AddNumberToObject(o, "pose_workgroup", s->pose_workgroup);
    cJSON_AddNumberToObject(o, "instance_run", s->instance_run);
    cJSON_AddNumberToObject(o, "shared_palette_slots", s->shared_palette_slots);
    cJSON_AddBoolToObject(o, "skin_texels", s->skin_texels);
    cJSON_AddStringToObject(o, "source", s->source ? s->source : "");
    cJSON_AddStringToObject(o, "reason", s->reason ? s->reason : "");
    if (s->cache_path[0])
        cJSON_AddStringToObject(o, "cache_file", s->cache_path);
    else
        cJSON_AddNullToObject(o, "cache_file");
    cJSON_AddBoolToObject(o, "calibrates_at_first_use", s->calibrates_at_first_use);
    return o;
}

static void print_shape(const vks_gpu_shape_info *s)
{
    printf("     launch shape: %s (%s: %s)%s\n", s->text[0] ? s->text : "none", s->source ? s->source : "",
           s->reason ? s->reason : "", s->calibrates_at_first_use ? "; a large first run calibrates" : "");
    printf("     launch-shape cache: %s\n", s->cache_path[0] ? s->cache_path : "none");
}

static const vks_cli_option devices_options[] = {
    {"--json", 0, NULL, vks_cli_store_flag, 0, 0, 0, "machine-readable output on stdout", NULL},
};
static const vks_cli_group devices_group = VKS_CLI_GROUP("options", devices_options);
static const vks_cli_group *const devices_groups[] = {&devices_group, NULL};

const vks_cli_command vks_cli_cmd_devices = {
    .name = "devices",
    .summary = "list the Vulkan devices and the limits that matter",
    .synopsis = "[--json]",
    .description = "Lists the Vulkan devices with the limits that size GPU batches, every queue family and the family "
                   "and queue batch work and rendering use; '*' marks the one --gpu uses by default. For each, the "
                   "launch shape a run would start with and why: the tuning table's row (\"table\"), a shape "
                   "measured before on this device and driver (\"cache\"), or VKSKIN_LAUNCH_SHAPE (\"forced\"); "
                   "the launch-shape cache file it looked at; and whether a large first run calibrates (a device "
                   "the table does not know; docs/performance.md: Calibration at first use).",
    .epilogue = "exit codes: 0 ok, 4 no Vulkan device",
    .groups = devices_groups,
    .run = vks_cmd_devices,
};

int vks_cmd_devices(int argc, char **argv)
{
    int json = 0, operands = 0;
    int parsed = vks_cli_parse(&vks_cli_cmd_devices, (void *[]){&json}, argc, argv, &operands, NULL, NULL);
    if (parsed != VKS_CLI_GO_ON)
        return parsed;
    if (operands) {
        fprintf(stderr, "vkskin devices: takes no operand ('%s')\n", argv[1]);
        return VKS_EXIT_USAGE;
    }
    vks_gpu_device_info d[16];
    uint32_t n = 0;
    vks_error err = {0};
    if (vks_gpu_list_devices(d, 16, &n, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: no Vulkan device: %s (exit %d)\n", err.msg, VKS_EXIT_NO_DEVICE);
        return err.code == VKS_ERR_NO_DEVICE ? VKS_EXIT_NO_DEVICE : VKS_EXIT_RUNTIME;
    }
    if (n > 16)
        n = 16;
    /* What a context of vkskin's own would run with: the CLI's options (VKSKIN_LAUNCH_SHAPE as
     * every GPU command takes it; the cache where they look). */
    vks_gpu_options so = {0};
    so.launch_shape = getenv("VKSKIN_LAUNCH_SHAPE");
    so.logger.func = vks_log_stderr; /* a damaged cache entry is named, as the GPU commands do */
    vks_gpu_shape_info shapes[16];
    uint32_t shape_count = 0;
    if (vks_gpu_list_launch_shapes(&so, shapes, 16, &shape_count, &err) != VKS_OK)
        shape_count = 0;
    int best = -1;
    for (uint32_t i = 0; i < n; i++)
        if (d[i].has_compute && (best < 0 || rank(d[i].type) < rank(d[best].type)))
            best = (int)i;
    cJSON *root = json ? cJSON_CreateArray() : NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t local = 0, host = 0;
        for (uint32_t h = 0; h < d[i].heap_count; h++)
            *(d[i].heap_device_local[h] ? &local : &host) += d[i].heap_size[h];
        if (json) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "index", i);
            cJSON_AddStringToObject(o, "name", d[i].name);
            cJSON_AddStringToObject(o, "type", d[i].type);
            cJSON_AddBoolToObject(o, "default", (int)i == best);
            char api[32];
            snprintf(api, sizeof api, "%u.%u.%u", d[i].api_version >> 22, (d[i].api_version >> 12) & 0x3ff,
                     d[i].api_version & 0xfff);
            cJSON_AddStringToObject(o, "api", api);
            cJSON_AddNumberToObject(o, "max_storage_buffer_range", (double)d[i].max_storage_buffer_range);
            cJSON_AddNumberToObject(o, "max_shared_memory", d[i].max_shared_memory);
            cJSON_AddNumberToObject(o, "subgroup_size", d[i].subgroup_size);
            cJSON_AddNumberToObject(o, "max_workgroup_invocations", d[i].max_workgroup_invocations);
            cJSON_AddNumberToObject(o, "timestamp_period_ns", d[i].timestamp_period_ns);
            if (i < shape_count)
                cJSON_AddItemToObject(o, "launch_shape", shape_json(&shapes[i]));
            cJSON *heaps = cJSON_AddArrayToObject(o, "heaps");
            for (uint32_t h = 0; h < d[i].heap_count; h++) {
                cJSON *ho = cJSON_CreateObject();
                cJSON_AddNumberToObject(ho, "size", (double)d[i].heap_size[h]);
                cJSON_AddBoolToObject(ho, "device_local", d[i].heap_device_local[h]);
                cJSON_AddItemToArray(heaps, ho);
            }
            cJSON *fams = cJSON_AddArrayToObject(o, "queue_families");
            for (uint32_t q = 0; q < d[i].queue_family_count; q++) {
                const vks_gpu_queue_family *qf = &d[i].queue_families[q];
                cJSON *fo = cJSON_CreateObject();
                char words[160];
                cJSON_AddNumberToObject(fo, "index", q);
                flag_words(qf->flags, words, sizeof words, cJSON_AddArrayToObject(fo, "flags"));
                cJSON_AddNumberToObject(fo, "queue_count", qf->count);
                cJSON_AddNumberToObject(fo, "timestamp_bits", qf->timestamp_bits);
                cJSON_AddItemToArray(fams, fo);
            }
            cJSON_AddItemToObject(o, "batch_queue", job_queue_json(d[i].batch_family));
            cJSON_AddItemToObject(o, "render_queue", job_queue_json(d[i].render_family));
            cJSON_AddItemToObject(o, "readback_queue", job_queue_json(d[i].readback_family));
            cJSON_AddItemToArray(root, o);
        } else {
            printf("%c %u: %s (%s, Vulkan %u.%u.%u)\n", (int)i == best ? '*' : ' ', i, d[i].name, d[i].type,
                   d[i].api_version >> 22, (d[i].api_version >> 12) & 0x3ff, d[i].api_version & 0xfff);
            printf("     max storage buffer range %.1f MiB, shared memory %u KiB, subgroup %u, workgroup <= %u\n",
                   d[i].max_storage_buffer_range / 1048576.0, d[i].max_shared_memory / 1024, d[i].subgroup_size,
                   d[i].max_workgroup_invocations);
            printf("     memory: %.2f GiB device-local, %.2f GiB other; timestamps %s\n", local / 1073741824.0,
                   host / 1073741824.0, d[i].timestamp_period_ns > 0 ? "yes" : "no");
            for (uint32_t q = 0; q < d[i].queue_family_count; q++) {
                const vks_gpu_queue_family *qf = &d[i].queue_families[q];
                char words[160];
                flag_words(qf->flags, words, sizeof words, NULL);
                printf("     queue family %u: %s; %u queue%s, timestamps %u bits\n", q, *words ? words : "(none)",
                       qf->count, qf->count == 1 ? "" : "s", qf->timestamp_bits);
            }
            printf("     ");
            print_job("batch work", d[i].batch_family, "compute");
            printf("; ");
            print_job("rendering", d[i].render_family, "graphics and compute");
            printf("; ");
            print_job("readback", d[i].readback_family, "compute or transfer");
            printf("\n");
            if (!d[i].has_compute)
                printf("     (no compute queue: not usable)\n");
            else if (i < shape_count)
                print_shape(&shapes[i]);
        }
    }
    if (json) {
        char *s = cJSON_Print(root);
        if (s)
            printf("%s\n", s);
        free(s);
        cJSON_Delete(root);
    }
    return VKS_EXIT_OK;
}
