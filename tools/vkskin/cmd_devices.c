/* vkskin devices [--json]: the Vulkan devices this machine sees, with the limits that size
 * the GPU batches (storage binding range, shared memory, subgroup size, memory heaps) and
 * which one `--gpu` picks by default. Exit 4 when there is none. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int rank(const char *type)
{
    return !strcmp(type, "discrete") ? 0 : !strcmp(type, "integrated") ? 1 : !strcmp(type, "virtual") ? 2
         : !strcmp(type, "cpu")      ? 3 : 4;
}

int vks_cmd_devices(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: vkskin devices [--json]\n\nLists the Vulkan devices with the limits that size GPU "
                   "batches; '*' marks the one --gpu uses by default.\nexit codes: 0 ok, 4 no Vulkan device\n");
            return VKS_EXIT_OK;
        } else {
            fprintf(stderr, "vkskin devices: unknown option '%s'\n", argv[i]);
            return VKS_EXIT_USAGE;
        }
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
            cJSON *heaps = cJSON_AddArrayToObject(o, "heaps");
            for (uint32_t h = 0; h < d[i].heap_count; h++) {
                cJSON *ho = cJSON_CreateObject();
                cJSON_AddNumberToObject(ho, "size", (double)d[i].heap_size[h]);
                cJSON_AddBoolToObject(ho, "device_local", d[i].heap_device_local[h]);
                cJSON_AddItemToArray(heaps, ho);
            }
            cJSON_AddItemToArray(root, o);
        } else {
            printf("%c %u: %s (%s, Vulkan %u.%u.%u)\n", (int)i == best ? '*' : ' ', i, d[i].name, d[i].type,
                   d[i].api_version >> 22, (d[i].api_version >> 12) & 0x3ff, d[i].api_version & 0xfff);
            printf("     max storage buffer range %.1f MiB, shared memory %u KiB, subgroup %u, workgroup <= %u\n",
                   d[i].max_storage_buffer_range / 1048576.0, d[i].max_shared_memory / 1024, d[i].subgroup_size,
                   d[i].max_workgroup_invocations);
            printf("     memory: %.2f GiB device-local, %.2f GiB other; timestamps %s\n", local / 1073741824.0,
                   host / 1073741824.0, d[i].timestamp_period_ns > 0 ? "yes" : "no");
            if (!d[i].has_compute)
                printf("     (no compute queue: not usable)\n");
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
