/* The JSON report of vks_bench_run (bench.h): the document `vkskin bench --json` prints, key
 * for key and in the same order. Numbers are written in the C locale whatever the host's
 * (core/c_numeric.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_internal.h"
#include "core/c_numeric.h"

static void engine_json(cJSON *o, const char *name, const vks_bench_result *r, const vks_bench_engine *g)
{
    cJSON *e = cJSON_AddObjectToObject(o, name);
    cJSON_AddNumberToObject(e, "first_ms", g->first_ms);
    cJSON_AddNumberToObject(e, "first_wall_ms", g->first_wall_ms);
    cJSON_AddNumberToObject(e, "first_vertex_instances_per_second", vks_bench_rate(r, g->first_ms));
    cJSON_AddNumberToObject(e, "first_buffers_made", g->first_buffers);
    cJSON_AddNumberToObject(e, "steady_ms", g->steady_ms);
    cJSON_AddNumberToObject(e, "steady_wall_ms", g->steady_wall_ms);
    cJSON_AddNumberToObject(e, "steady_vertex_instances_per_second", vks_bench_rate(r, g->steady_ms));
    cJSON_AddNumberToObject(e, "steady_buffers_made", g->steady_buffers);
    if (g->deform_ms > 0) {
        cJSON_AddNumberToObject(e, "pose_ms", g->pose_ms);
        cJSON_AddNumberToObject(e, "pose_us_per_instance", g->pose_ms * 1e3 / r->instances);
        cJSON_AddNumberToObject(e, "deform_ms", g->deform_ms);
    }
}

static void shape_json(cJSON *g, const vks_bench_shape *s)
{
    cJSON *ls = cJSON_AddObjectToObject(g, "launch_shape");
    cJSON_AddStringToObject(ls, "shape", s->text);
    cJSON_AddNumberToObject(ls, "deform_workgroup", s->deform_workgroup);
    cJSON_AddNumberToObject(ls, "pose_workgroup", s->pose_workgroup);
    cJSON_AddNumberToObject(ls, "instance_run", s->instance_run);
    cJSON_AddNumberToObject(ls, "shared_palette_slots", s->shared_palette_slots);
    cJSON_AddBoolToObject(ls, "skin_texels", s->skin_texels);
    cJSON_AddStringToObject(ls, "source", s->source);
    cJSON_AddStringToObject(ls, "reason", s->reason);
}

/* The device's ceilings and each pass's fraction of them. */
static void ceilings_json(cJSON *g, const vks_bench_result *r)
{
    const vks_bench_gpu_result *b = &r->gpu;
    const vks_gpu_ceilings *c = &b->ceilings;
    cJSON *cj = cJSON_AddObjectToObject(g, "ceilings");
    cJSON_AddNumberToObject(cj, "buffer_bytes", (double)c->bytes);
    cJSON_AddNumberToObject(cj, "fill_bytes_per_second", c->fill_bytes_per_second);
    cJSON_AddNumberToObject(cj, "copy_bytes_per_second", c->copy_bytes_per_second);
    cJSON_AddNumberToObject(cj, "device_to_host_bytes_per_second", c->readback_bytes_per_second);
    double deform_rate = b->kernel.deform_ms > 0 ? (double)r->instances * r->vertices * 24 / (b->kernel.deform_ms / 1e3)
                                                 : 0;
    cJSON *fr = cJSON_AddObjectToObject(g, "fractions");
    cJSON_AddNumberToObject(fr, "deform_bytes_per_second", deform_rate);
    cJSON_AddNumberToObject(fr, "deform_over_fill", deform_rate / c->fill_bytes_per_second);
    if (b->end_to_end.steady_ms > 0) /* 24 B a vertex-instance reach the host's threads */
        cJSON_AddNumberToObject(fr, "end_to_end_over_device_to_host",
                                vks_bench_rate(r, b->end_to_end.steady_ms) * 24 / c->readback_bytes_per_second);
    if (b->readback_bytes && b->readback_ms > 0) {
        double rb = b->readback_bytes / (b->readback_ms / 1e3);
        cJSON_AddNumberToObject(fr, "readback_bytes_per_second", rb);
        cJSON_AddNumberToObject(fr, "readback_over_device_to_host", rb / c->readback_bytes_per_second);
    } else {
        cJSON_AddNullToObject(fr, "readback_over_device_to_host"); /* read in place: no copy */
    }
}

static void file_json(cJSON *g, const vks_bench_result *r)
{
    const vks_bench_file *d = &r->gpu.file;
    cJSON *f = cJSON_AddObjectToObject(g, "end_to_end_file");
    cJSON_AddStringToObject(f, "path", d->path ? d->path : "");
    cJSON_AddNumberToObject(f, "bytes", (double)d->bytes);
    cJSON_AddNumberToObject(f, "runs", d->runs);
    cJSON_AddNumberToObject(f, "deform_ms", d->deform_ms);
    cJSON_AddNumberToObject(f, "fdatasync_ms", d->sync_ms);
    cJSON_AddNumberToObject(f, "engine_ms", d->engine_ms);
    cJSON_AddNumberToObject(f, "plain_write_ms", d->disk_ms);
    cJSON_AddNumberToObject(f, "kernel_ms", d->kernel_ms);
    cJSON_AddNumberToObject(f, "first_deform_ms", d->first_ms);
    cJSON_AddNumberToObject(f, "deform_vertex_instances_per_second", vks_bench_rate(r, d->deform_ms));
    cJSON_AddNumberToObject(f, "durable_deform_vertex_instances_per_second",
                            vks_bench_rate(r, d->deform_ms + d->sync_ms));
    cJSON_AddNumberToObject(f, "plain_write_vertex_instances_per_second", vks_bench_rate(r, d->disk_ms));
    cJSON_AddNumberToObject(f, "kernel_vertex_instances_per_second", vks_bench_rate(r, d->kernel_ms));
    cJSON_AddNumberToObject(f, "deform_over_slower_of_kernel_and_disk", d->ratio);
    cJSON_AddNumberToObject(f, "deform_over_slower_min", d->ratio_min);
    cJSON_AddNumberToObject(f, "deform_over_slower_max", d->ratio_max);
    cJSON_AddNumberToObject(f, "durable_deform_over_slower_of_kernel_and_disk", d->durable_ratio);
}

static void gpu_json(cJSON *o, const vks_bench_result *r)
{
    const vks_bench_gpu_result *b = &r->gpu;
    cJSON *g = cJSON_AddObjectToObject(o, "gpu");
    cJSON_AddNumberToObject(g, "context_ms", b->context_ms);
    shape_json(g, &b->shape);
    cJSON_AddNumberToObject(g, "pipeline_ms", b->shape.pipeline_ms);
    cJSON_AddNumberToObject(g, "upload_ms", b->upload_ms);
    cJSON_AddNumberToObject(g, "repeats", b->repeats);
    engine_json(g, "kernel", r, &b->kernel);
    engine_json(g, "plain_kernel", r, &b->plain);
    engine_json(g, "end_to_end", r, &b->end_to_end);
    cJSON_AddNumberToObject(cJSON_GetObjectItem(g, "end_to_end"), "consumer_threads", b->consumer_threads);
    if (b->ceilings.fill_bytes_per_second > 0)
        ceilings_json(g, r);
    cJSON *q = cJSON_AddObjectToObject(g, "kernel_over_plain");
    cJSON_AddNumberToObject(q, "median", b->ratio);
    cJSON_AddNumberToObject(q, "min", b->ratio_min);
    cJSON_AddNumberToObject(q, "max", b->ratio_max);
    if (b->has_file)
        file_json(g, r);
}

/* The workload, the CPU figures and the ratios between the engines. */
static void figures_json(cJSON *o, const vks_bench_result *r)
{
    const vks_bench_gpu_result *g = r->gpu_ran ? &r->gpu : NULL;
    double kernel = g ? vks_bench_rate(r, g->kernel.steady_ms) : 0;
    double e2e = g ? vks_bench_rate(r, g->end_to_end.steady_ms) : 0;
    cJSON_AddNumberToObject(o, "vertices", r->vertices);
    cJSON_AddNumberToObject(o, "bones", r->bones);
    cJSON_AddNumberToObject(o, "groups", r->groups);
    cJSON_AddNumberToObject(o, "instances", r->instances);
    cJSON_AddNumberToObject(o, "reference_instances", r->ref_instances);
    cJSON_AddNumberToObject(o, "cpu_threads", r->threads);
    cJSON_AddNumberToObject(o, "bytes_written_per_vertex_instance", 24);
    cJSON *v = cJSON_AddObjectToObject(o, "vertex_instances_per_second");
    cJSON_AddNumberToObject(v, "cpu_reference", r->ref_rate);
    cJSON_AddNumberToObject(v, "cpu_fast", r->fast_rate);
    cJSON_AddNumberToObject(v, "gpu_kernel", kernel); /* steady state */
    cJSON_AddNumberToObject(v, "gpu_end_to_end", e2e);
    cJSON_AddStringToObject(o, "cpu_fast_kernel", r->fast_kernel);
    cJSON *pc = cJSON_AddObjectToObject(o, "cpu_fast_per_core");
    for (int k = 0; k < VKS_BENCH_KERNELS; k++)
        if (r->per_core[k] > 0)
            cJSON_AddNumberToObject(pc, vks_bench_kernel_name(k), r->per_core[k]);
    cJSON *q = cJSON_AddObjectToObject(o, "ratios");
    cJSON_AddNumberToObject(q, "cpu_fast_over_reference", r->fast_rate / r->ref_rate);
    cJSON_AddNumberToObject(q, "gpu_kernel_over_cpu_fast", kernel / r->fast_rate);
    cJSON_AddNumberToObject(q, "gpu_end_to_end_over_cpu_fast", e2e / r->fast_rate);
    cJSON_AddNumberToObject(q, "gpu_end_to_end_over_kernel", kernel > 0 ? e2e / kernel : 0);
    cJSON_AddNumberToObject(q, "gpu_kernel_over_plain_kernel", g ? g->ratio : 0);
    cJSON_AddNumberToObject(o, "gpu_kernel_ms", g ? g->kernel.steady_ms : 0);
    cJSON_AddNumberToObject(o, "gpu_end_to_end_ms", g ? g->end_to_end.steady_ms : 0);
    cJSON_AddNumberToObject(o, "gpu_chunks", g ? g->chunks : 0);
}

static char *bench_json(const vks_bench_result *r)
{
    const vks_bench_gpu_result *g = r->gpu_ran ? &r->gpu : NULL;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "device", g ? g->device : "none");
    cJSON_AddStringToObject(o, "device_type", g ? g->device_type : "");
    if (g) {
        cJSON_AddNumberToObject(o, "queue_family", g->queue_family);
        cJSON_AddNumberToObject(o, "queue_index", g->queue_index);
        /* where the readback copies run (the stream's and the staged batch's timed) and the
         * device-to-host ceiling is measured: a copy engine's queue where there is one */
        cJSON *rq = cJSON_AddObjectToObject(o, "readback_queue");
        cJSON_AddNumberToObject(rq, "family", g->readback_family);
        cJSON_AddNumberToObject(rq, "queue", g->readback_index);
    }
    figures_json(o, r);
    if (g)
        gpu_json(o, r);
    char *s = cJSON_Print(o);
    cJSON_Delete(o);
    return s;
}

char *vks_bench_json(const vks_bench_result *r)
{
    VKS_RETURN_IN_C_NUMERIC(char *, bench_json(r));
}

/* Writes text and a newline to f; frees text. */
vks_result vks__bench_write_text(char *text, FILE *f, const char *what, vks_error *err)
{
    if (!text)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, what, "out of memory for the report");
    int bad = fprintf(f, "%s\n", text) < 0 || ferror(f);
    free(text);
    if (bad)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, what, "write failed: %s", strerror(errno));
    return VKS_OK;
}

vks_result vks_bench_write_json(const vks_bench_result *r, FILE *f, vks_error *err)
{
    return vks__bench_write_text(vks_bench_json(r), f, "bench/json", err);
}
