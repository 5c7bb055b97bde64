/* The devices as `vkskin devices` lists them (devices.h): the list with the default device and
 * each one's launch shape, and its text. The JSON is device_json.c's. Built on gpu.h's public
 * calls only, so a library built without the GPU engine lists none the same way. */
#include <errno.h>
#include <string.h>

#include "core/c_numeric.h"
#include "devices/device_words.h"
#include "vkskin/devices.h"

static int rank(const char *type)
{
    if (!type)
        return 4;
    return !strcmp(type, "discrete") ? 0 : !strcmp(type, "integrated") ? 1 : !strcmp(type, "virtual") ? 2
         : !strcmp(type, "cpu")      ? 3 : 4;
}

int vks_device_default(const vks_gpu_device_info *d, uint32_t n)
{
    int best = -1;
    for (uint32_t i = 0; d && i < n; i++)
        if (d[i].has_compute && (best < 0 || rank(d[i].type) < rank(d[best].type)))
            best = (int)i;
    return best;
}

vks_result vks_device_list_get(const vks_gpu_options *opt, vks_device_list *out, vks_error *err)
{
    if (!out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "devices", "no list to fill");
    memset(out, 0, sizeof *out);
    out->default_index = -1;
    uint32_t n = 0;
    vks_result r = vks_gpu_list_devices(out->devices, VKS_DEVICES_MAX, &n, err);
    if (r != VKS_OK)
        return r;
    out->count = n < VKS_DEVICES_MAX ? n : VKS_DEVICES_MAX;
    vks_gpu_options none = {0};
    vks_error shape_err = {0}; /* no shapes is no failure: the list goes on without them */
    if (vks_gpu_list_launch_shapes(opt ? opt : &none, out->shapes, VKS_DEVICES_MAX, &out->shape_count, &shape_err) !=
        VKS_OK)
        out->shape_count = 0;
    if (out->shape_count > VKS_DEVICES_MAX)
        out->shape_count = VKS_DEVICES_MAX;
    out->default_index = vks_device_default(out->devices, out->count);
    return VKS_OK;
}

static void print_job(FILE *f, const char *job, uint32_t family, const char *needs)
{
    if (family == UINT32_MAX)
        fprintf(f, "%s: none (no family with %s)", job, needs);
    else
        fprintf(f, "%s: family %u, queue 0", job, family);
}

/* The launch shape a context would start with and why, and the cache entry looked at. */
static void print_shape(FILE *f, const vks_gpu_shape_info *s)
{
    fprintf(f, "     launch shape: %s (%s: %s)%s\n", s->text[0] ? s->text : "none", s->source ? s->source : "",
            s->reason ? s->reason : "", s->calibrates_at_first_use ? "; a large first run calibrates" : "");
    fprintf(f, "     launch-shape cache: %s\n", s->cache_path[0] ? s->cache_path : "none");
}

static void print_device(FILE *f, const vks_device_list *l, uint32_t i)
{
    const vks_gpu_device_info *d = &l->devices[i];
    uint64_t local = 0, host = 0;
    for (uint32_t h = 0; h < d->heap_count && h < 8; h++)
        *(d->heap_device_local[h] ? &local : &host) += d->heap_size[h];
    fprintf(f, "%c %u: %s (%s, Vulkan %u.%u.%u)\n", (int)i == l->default_index ? '*' : ' ', i, d->name,
            d->type ? d->type : "other", d->api_version >> 22, (d->api_version >> 12) & 0x3ff,
            d->api_version & 0xfff);
    fprintf(f, "     max storage buffer range %.1f MiB, shared memory %u KiB, subgroup %u, workgroup <= %u\n",
            d->max_storage_buffer_range / 1048576.0, d->max_shared_memory / 1024, d->subgroup_size,
            d->max_workgroup_invocations);
    fprintf(f, "     memory: %.2f GiB device-local, %.2f GiB other; timestamps %s\n", local / 1073741824.0,
            host / 1073741824.0, d->timestamp_period_ns > 0 ? "yes" : "no");
    for (uint32_t q = 0; q < d->queue_family_count && q < VKS_GPU_MAX_QUEUE_FAMILIES; q++) {
        const vks_gpu_queue_family *qf = &d->queue_families[q];
        char words[160];
        vks__queue_flag_words(qf->flags, words, sizeof words, NULL);
        fprintf(f, "     queue family %u: %s; %u queue%s, timestamps %u bits\n", q, *words ? words : "(none)",
                qf->count, qf->count == 1 ? "" : "s", qf->timestamp_bits);
    }
    fprintf(f, "     ");
    print_job(f, "batch work", d->batch_family, "compute");
    fprintf(f, "; ");
    print_job(f, "rendering", d->render_family, "graphics and compute");
    fprintf(f, "; ");
    print_job(f, "readback", d->readback_family, "compute or transfer");
    fprintf(f, "\n");
    if (!d->has_compute)
        fprintf(f, "     (no compute queue: not usable)\n");
    else if (i < l->shape_count)
        print_shape(f, &l->shapes[i]);
}

static vks_result write_text(const vks_device_list *l, FILE *f, vks_error *err)
{
    for (uint32_t i = 0; i < l->count; i++)
        print_device(f, l, i);
    if (ferror(f))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "devices/text", "write failed: %s", strerror(errno));
    return VKS_OK;
}

vks_result vks_device_list_write_text(const vks_device_list *l, FILE *f, vks_error *err)
{
    if (!l || !f)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "devices/text", "no list or no file");
    VKS_RETURN_IN_C_NUMERIC(vks_result, write_text(l, f, err));
}
