/* The JSON of `vkskin devices --json` (devices.h): an array, one object per device, key for key
 * and in the order the command always printed. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/c_numeric.h"
#include "devices/device_words.h"
#include "vkskin/devices.h"

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

/* The launch shape a context would start with on the device and why, with the cache entry
 * looked at. */
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

static void queues_json(cJSON *o, const vks_gpu_device_info *d)
{
    cJSON *heaps = cJSON_AddArrayToObject(o, "heaps");
    for (uint32_t h = 0; h < d->heap_count && h < 8; h++) {
        cJSON *ho = cJSON_CreateObject();
        cJSON_AddNumberToObject(ho, "size", (double)d->heap_size[h]);
        cJSON_AddBoolToObject(ho, "device_local", d->heap_device_local[h]);
        cJSON_AddItemToArray(heaps, ho);
    }
    cJSON *fams = cJSON_AddArrayToObject(o, "queue_families");
    for (uint32_t q = 0; q < d->queue_family_count && q < VKS_GPU_MAX_QUEUE_FAMILIES; q++) {
        const vks_gpu_queue_family *qf = &d->queue_families[q];
        cJSON *fo = cJSON_CreateObject();
        char words[160];
        cJSON_AddNumberToObject(fo, "index", q);
        vks__queue_flag_words(qf->flags, words, sizeof words, cJSON_AddArrayToObject(fo, "flags"));
        cJSON_AddNumberToObject(fo, "queue_count", qf->count);
        cJSON_AddNumberToObject(fo, "timestamp_bits", qf->timestamp_bits);
        cJSON_AddItemToArray(fams, fo);
    }
    cJSON_AddItemToObject(o, "batch_queue", job_queue_json(d->batch_family));
    cJSON_AddItemToObject(o, "render_queue", job_queue_json(d->render_family));
    cJSON_AddItemToObject(o, "readback_queue", job_queue_json(d->readback_family));
}

static cJSON *device_json(const vks_device_list *l, uint32_t i)
{
    const vks_gpu_device_info *d = &l->devices[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", i);
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "type", d->type ? d->type : "other");
    cJSON_AddBoolToObject(o, "default", (int)i == l->default_index);
    char api[32];
    snprintf(api, sizeof api, "%u.%u.%u", d->api_version >> 22, (d->api_version >> 12) & 0x3ff,
             d->api_version & 0xfff);
    cJSON_AddStringToObject(o, "api", api);
    cJSON_AddNumberToObject(o, "max_storage_buffer_range", (double)d->max_storage_buffer_range);
    cJSON_AddNumberToObject(o, "max_shared_memory", d->max_shared_memory);
    cJSON_AddNumberToObject(o, "subgroup_size", d->subgroup_size);
    cJSON_AddNumberToObject(o, "max_workgroup_invocations", d->max_workgroup_invocations);
    cJSON_AddNumberToObject(o, "timestamp_period_ns", d->timestamp_period_ns);
    if (i < l->shape_count)
        cJSON_AddItemToObject(o, "launch_shape", shape_json(&l->shapes[i]));
    queues_json(o, d);
    return o;
}

static char *list_json(const vks_device_list *l)
{
    cJSON *root = cJSON_CreateArray();
    for (uint32_t i = 0; root && i < l->count; i++)
        cJSON_AddItemToArray(root, device_json(l, i));
    char *s = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    return s;
}

char *vks_device_list_json(const vks_device_list *l)
{
    if (!l)
        return NULL;
    VKS_RETURN_IN_C_NUMERIC(char *, list_json(l));
}

vks_result vks_device_list_write_json(const vks_device_list *l, FILE *f, vks_error *err)
{
    if (!l || !f)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "devices/json", "no list or no file");
    char *text = vks_device_list_json(l);
    if (!text)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "devices/json", "out of memory for the list");
    int bad = fprintf(f, "%s\n", text) < 0 || ferror(f);
    free(text);
    if (bad)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "devices/json", "write failed: %s", strerror(errno));
    return VKS_OK;
}
