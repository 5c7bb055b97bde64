/* The text `vkskin bench` prints of a vks_bench_run (bench.h: vks_bench_write_text): the
 * workload, each engine's rate, the GPU's launch shape, kernels, end to end, the device's
 * ceilings and the --end-to-end file's rounds. Numbers in the C locale whatever the host's. */
#include <errno.h>
#include <string.h>

#include "core/c_numeric.h"
#include "vkskin/bench.h"

/* The end to end's file lines (--end-to-end). */
static void print_file(FILE *f, const vks_bench_result *res)
{
    const vks_bench_file *d = &res->gpu.file;
    fprintf(f, "  to %s: %.1f MB, %u rounds of kernel, plain write, deform path (medians) after a first run of "
            "the deform path (%.2f ms)\n",
            d->path, d->bytes / 1e6, d->runs, d->first_ms);
    fprintf(f, "    deform path   %10.3f M vertex-instances/s   %.1f MB/s (%.2f ms, engine %.2f ms; output renamed "
            "into place)\n",
            vks_bench_rate(res, d->deform_ms) / 1e6, d->bytes / 1e3 / d->deform_ms, d->deform_ms, d->engine_ms);
    fprintf(f, "    + fdatasync   %10.3f M vertex-instances/s   %.1f MB/s (+ %.2f ms: on the disk)\n",
            vks_bench_rate(res, d->deform_ms + d->sync_ms) / 1e6, d->bytes / 1e3 / (d->deform_ms + d->sync_ms),
            d->sync_ms);
    fprintf(f, "    plain write   %10.3f M vertex-instances/s   %.1f MB/s (%.2f ms with fdatasync)\n",
            vks_bench_rate(res, d->disk_ms) / 1e6, d->bytes / 1e3 / d->disk_ms, d->disk_ms);
    fprintf(f, "    kernel        %10.3f M vertex-instances/s   (%.2f ms, in the rounds)\n",
            vks_bench_rate(res, d->kernel_ms) / 1e6, d->kernel_ms);
    fprintf(f, "    deform / min(kernel, disk) x%.2f (target 0.8) of the medians; rounds %.2f..%.2f; with its "
            "fdatasync x%.2f\n",
            d->ratio, d->ratio_min, d->ratio_max, d->durable_ratio);
}

/* The device's ceilings and each pass's fraction of them. */
static void print_ceilings(FILE *f, const vks_bench_result *res)
{
    const vks_bench_gpu_result *b = &res->gpu;
    const vks_gpu_ceilings *c = &b->ceilings;
    double e2e = vks_bench_rate(res, b->end_to_end.steady_ms);
    double deform_rate = b->kernel.deform_ms > 0
                             ? (double)res->instances * res->vertices * 24 / (b->kernel.deform_ms / 1e3) : 0;
    fprintf(f, "  ceilings        fill %.1f GB/s, copy %.1f GB/s (read + write), device to host %.1f GB/s "
            "(buffers of %.1f MB, same run, timestamps)\n",
            c->fill_bytes_per_second / 1e9, c->copy_bytes_per_second / 1e9, c->readback_bytes_per_second / 1e9,
            c->bytes / 1e6);
    fprintf(f, "  deform / fill   %10.2f                        the deform pass writes %.1f GB/s (24 B a "
            "vertex-instance)\n",
            deform_rate / c->fill_bytes_per_second, deform_rate / 1e9);
    if (b->end_to_end.steady_ms > 0)
        fprintf(f, "  end to end / d2h%10.2f                        the host's threads take %.1f GB/s of outputs\n",
                e2e * 24 / c->readback_bytes_per_second, e2e * 24 / 1e9);
    if (b->readback_bytes && b->readback_ms > 0)
        fprintf(f, "  readback / d2h  %10.2f                        the readback copies move %.1f GB/s\n",
                b->readback_bytes / (b->readback_ms / 1e3) / c->readback_bytes_per_second,
                b->readback_bytes / (b->readback_ms / 1e3) / 1e9);
    else
        fprintf(f, "  readback / d2h       -                        outputs read in place (unified memory): no copy\n");
}

/* The GPU engines' lines. */
static void print_gpu(FILE *f, const vks_bench_result *res)
{
    const vks_bench_gpu_result *b = &res->gpu;
    const vks_bench_engine *k = &b->kernel, *p = &b->plain, *e = &b->end_to_end;
    fprintf(f, "  gpu context     %10.1f ms to create, %.1f ms to upload the model\n", b->context_ms, b->upload_ms);
    fprintf(f, "  launch shape    %s (%s: %s)\n", b->shape.text, b->shape.source, b->shape.reason);
    fprintf(f, "  pipelines       %10.1f ms to create (of the context's creation and the upload)\n",
            b->shape.pipeline_ms);
    fprintf(f, "  gpu kernel      %10.3f M vertex-instances/s   steady, median of %u (%.2f ms: pose %.2f ms = %.2f us "
            "per instance, deform %.2f ms)\n",
            vks_bench_rate(res, k->steady_ms) / 1e6, b->repeats, k->steady_ms, k->pose_ms,
            k->pose_ms * 1e3 / res->instances, k->deform_ms);
    fprintf(f, "                  %10.3f M vertex-instances/s   first run (%.2f ms; %.2f ms wall, %u buffers made; "
            "steady runs made %u)\n",
            vks_bench_rate(res, k->first_ms) / 1e6, k->first_ms, k->first_wall_ms, k->first_buffers, k->steady_buffers);
    fprintf(f, "  gpu plain kernel%10.3f M vertex-instances/s   steady (%.2f ms, deform %.2f ms); first run %.2f ms\n",
            vks_bench_rate(res, p->steady_ms) / 1e6, p->steady_ms, p->deform_ms, p->first_ms);
    fprintf(f, "  kernel / plain  %10.2fx                        deform pass, median of %u interleaved pairs "
            "(%.2f..%.2f)\n",
            b->ratio, b->repeats, b->ratio_min, b->ratio_max);
    fprintf(f, "  gpu end to end  %10.3f M vertex-instances/s   steady (%.2f ms, %u chunk(s)), x%.2f kernel; first run "
            "%.2f ms; consumed in place on %u thread(s)\n",
            vks_bench_rate(res, e->steady_ms) / 1e6, e->steady_ms, b->chunks,
            k->steady_ms > 0 ? k->steady_ms / e->steady_ms : 0, e->first_ms, b->consumer_threads);
    if (b->ceilings.fill_bytes_per_second > 0)
        print_ceilings(f, res);
    if (b->has_file)
        print_file(f, res);
}

static void print_text(FILE *f, const vks_bench_result *r)
{
    const vks_bench_gpu_result *g = r->gpu_ran ? &r->gpu : NULL;
    fprintf(f, "workload: %u vertices, %u bones, %u group(s), %u instances (reference: %u), pos+normal, "
            "24 B written per vertex-instance\n",
            r->vertices, r->bones, r->groups, r->instances, r->ref_instances);
    fprintf(f, "device:   %s (%s); CPU threads %d\n", g ? g->device : "none", g ? g->device_type : "", r->threads);
    fprintf(f, "  cpu reference   %10.3f M vertex-instances/s\n", r->ref_rate / 1e6);
    fprintf(f, "  cpu fast        %10.3f M vertex-instances/s   x%.2f reference (%s kernel, %d threads)\n",
            r->fast_rate / 1e6, r->fast_rate / r->ref_rate, r->fast_kernel, r->threads);
    for (int k = 0; k < VKS_BENCH_KERNELS; k++)
        if (r->per_core[k] > 0)
            fprintf(f, "  cpu fast, 1 core%9.3f M vertex-instances/s   (%s kernel)\n", r->per_core[k] / 1e6,
                    vks_bench_kernel_name(k));
    if (g) {
        fprintf(f, "  gpu kernel / cpu fast x%.2f (steady)\n", vks_bench_rate(r, g->kernel.steady_ms) / r->fast_rate);
        print_gpu(f, r);
    }
}

static vks_result write_text(const vks_bench_result *r, FILE *f, vks_error *err)
{
    print_text(f, r);
    if (ferror(f))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "bench/text", "write failed: %s", strerror(errno));
    return VKS_OK;
}

vks_result vks_bench_write_text(const vks_bench_result *r, FILE *f, vks_error *err)
{
    if (!r || !f)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "bench/text", "no result or no file");
    VKS_RETURN_IN_C_NUMERIC(vks_result, write_text(r, f, err));
}
