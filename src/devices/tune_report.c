/* The report of a launch-shape calibration (devices.h: vks_gpu_tune_write_text and _json): the
 * table and the JSON `vkskin tune` prints of what vks_gpu_tune measured. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/c_numeric.h"
#include "gpu/tuning.h"
#include "vkskin/devices.h"

/* The workload as vks_gpu_tune ran it: its defaults where opt leaves 0. */
/* vks_gpu_tune's instances: the option, else 64, or a small model's regime (gpu/tuning.h) */
static uint32_t tune_instances(const vks_gpu_tune_options *opt, const vks_skin *s)
{
    if (opt && opt->instances)
        return opt->instances;
    return vks__small_model(s->vertex_count) ? vks__small_calibration_instances(s->vertex_count) : 64;
}

static uint32_t tune_repeats(const vks_gpu_tune_options *opt)
{
    return opt && opt->repeats ? opt->repeats : 3;
}

static const char *device_name(const vks_gpu *gpu)
{
    const vks_gpu_device_info *d = gpu ? vks_gpu_device(gpu) : NULL;
    return d ? d->name : "";
}

static const char *device_type(const vks_gpu *gpu)
{
    const vks_gpu_device_info *d = gpu ? vks_gpu_device(gpu) : NULL;
    return d && d->type ? d->type : "";
}

static vks_result write_text(const vks_gpu *gpu, const vks_skin *s, const vks_gpu_tune_options *opt,
                             const vks_gpu_tune_result *r, FILE *f, vks_error *err)
{
    fprintf(f, "device: %s (%s)\n", device_name(gpu), device_type(gpu));
    fprintf(f, "workload: %u vertices x %u instances, deform pass median of %u runs\n", s->vertex_count,
            tune_instances(opt, s), tune_repeats(opt));
    double best = r->candidate[r->best].vertex_instances_per_second;
    for (uint32_t i = 0; i < r->count && i < VKS_GPU_TUNE_MAX; i++)
        fprintf(f, "  %c %-48s %10.3f M vertex-instances/s  %9.3f ms  x%.2f\n", i == r->best ? '*' : ' ',
                r->candidate[i].shape, r->candidate[i].vertex_instances_per_second / 1e6, r->candidate[i].deform_ms,
                best > 0 ? r->candidate[i].vertex_instances_per_second / best : 0);
    fprintf(f, "chosen: %s\n", r->candidate[r->best].shape);
    if (r->stored)
        fprintf(f, "stored in %s: later runs on this device and driver start with it\n", r->cache_path);
    else if (!opt || !opt->store)
        fprintf(f, "not stored (--no-store)\n");
    else
        fprintf(f, "not stored: %s\n", r->cache_path[0] ? "the cache could not be written" : "no cache folder");
    if (ferror(f))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "tune/text", "write failed: %s", strerror(errno));
    return VKS_OK;
}

vks_result vks_gpu_tune_write_text(const vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                                   const vks_gpu_tune_result *r, FILE *f, vks_error *err)
{
    if (!skin || !r || !f || r->best >= VKS_GPU_TUNE_MAX)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "tune/text", "no model, result or file");
    VKS_RETURN_IN_C_NUMERIC(vks_result, write_text(gpu, skin, opt, r, f, err));
}

static char *tune_json(const vks_gpu *gpu, const vks_skin *s, const vks_gpu_tune_options *opt,
                       const vks_gpu_tune_result *r)
{
    cJSON *j = cJSON_CreateObject();
    if (!j)
        return NULL;
    cJSON_AddStringToObject(j, "device", device_name(gpu));
    cJSON_AddStringToObject(j, "device_type", device_type(gpu));
    cJSON_AddNumberToObject(j, "vertices", s->vertex_count);
    cJSON_AddNumberToObject(j, "instances", tune_instances(opt, s));
    cJSON_AddNumberToObject(j, "repeats", tune_repeats(opt));
    cJSON *c = cJSON_AddArrayToObject(j, "candidates");
    for (uint32_t i = 0; i < r->count && i < VKS_GPU_TUNE_MAX; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "shape", r->candidate[i].shape);
        cJSON_AddNumberToObject(e, "deform_ms", r->candidate[i].deform_ms);
        cJSON_AddNumberToObject(e, "vertex_instances_per_second", r->candidate[i].vertex_instances_per_second);
        cJSON_AddBoolToObject(e, "chosen", i == r->best);
        cJSON_AddItemToArray(c, e);
    }
    cJSON_AddStringToObject(j, "chosen", r->candidate[r->best].shape);
    cJSON_AddBoolToObject(j, "stored", r->stored);
    cJSON_AddStringToObject(j, "cache", r->cache_path);
    char *text = cJSON_Print(j);
    cJSON_Delete(j);
    return text;
}

char *vks_gpu_tune_json(const vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                        const vks_gpu_tune_result *r)
{
    if (!skin || !r || r->best >= VKS_GPU_TUNE_MAX)
        return NULL;
    VKS_RETURN_IN_C_NUMERIC(char *, tune_json(gpu, skin, opt, r));
}

vks_result vks_gpu_tune_write_json(const vks_gpu *gpu, const vks_skin *skin, const vks_gpu_tune_options *opt,
                                   const vks_gpu_tune_result *r, FILE *f, vks_error *err)
{
    if (!f)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "tune/json", "no file");
    char *text = vks_gpu_tune_json(gpu, skin, opt, r);
    if (!text)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "tune/json", "out of memory, or no model or result");
    int bad = fprintf(f, "%s\n", text) < 0 || ferror(f);
    free(text);
    if (bad)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "tune/json", "write failed: %s", strerror(errno));
    return VKS_OK;
}
