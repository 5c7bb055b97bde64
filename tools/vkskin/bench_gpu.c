/* The GPU engines of vkskin bench (bench_gpu.h). Order of a run:
 *   1. the context (vks_gpu_create) and the model's upload, timed;
 *   2. the project's kernel, then the plain kernel, each once: their first runs (the context
 *      makes and touches the buffer set it keeps, lavapipe compiles the shaders);
 *   3. R pairs of steady runs, project and plain alternating (the order flips every pair),
 *      kernel only: the ratio of each pair's deform-pass times, and its median;
 *   4. the end to end into host memory: vks_gpu_run delivering every chunk, which the bench's
 *      threads consume in place where the library hands it over (host-visible memory: the
 *      staging slot, or the output itself on unified memory), each reading its share of every
 *      word, as a host that uploads, encodes or checks the vertices would: first run (the kept
 *      set grows for readback) and R steady runs;
 *   5. with --end-to-end FILE, the deform path's first run, then R rounds of: the project's
 *      kernel (kernel only), a plain write of the output's bytes to FILE with fdatasync, the
 *      deform path (vks_deform_run with the GPU, as deform --gpu: raw format, through the
 *      output module: temporary and rename) into FILE, fdatasync of FILE; the ratio of the
 *      medians, and each round's for the spread. */
#include "bench_gpu.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "work_pool.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values (sorted in place). */
static double median(double *v, uint32_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int gpu_fail(const char *what, const vks_error *err)
{
    char msg[512];
    fprintf(stderr, "vkskin bench: %s: %s\n", what, vks_error_format(err, NULL, msg, sizeof msg));
    return vks_cli_exit_code(err->code);
}

/* End to end means every output word reaches the host's threads: each delivered range is read
 * where the library hands it over, in shares of SHARE_BYTES on the bench's threads (a copy on one
 * thread, as before, moved 10 GB/s of an H100 host's 51 GB/s bus). Each share folds its words
 * into a sum, kept so the reads cannot be dropped. */
#define SHARE_BYTES (1u << 20)
typedef struct sink {
    vks_work_pool *pool;
    const float *p, *n;           /* the range being consumed */
    size_t floats;                /* its floats per stream */
    uint32_t shares;
    uint64_t sum[64];             /* per share slot (share % 64), folded by the caller */
    uint64_t total;               /* every word of every run, summed: printed nowhere, kept */
} sink;

static uint64_t fold(const float *f, size_t count)
{
    const uint32_t *w = (const uint32_t *)f;
    uint64_t a = 0, b = 0;
    size_t i = 0;
    for (; i + 1 < count; i += 2)
        a += w[i], b += w[i + 1];
    if (i < count)
        a += w[i];
    return a ^ (b << 1);
}

static void consume_share(void *arg, uint32_t i)
{
    sink *s = arg;
    size_t per = SHARE_BYTES / sizeof(float), at = (size_t)i * per;
    size_t count = at + per <= s->floats ? per : s->floats - at;
    uint64_t v = fold(s->p + at, count);
    if (s->n)
        v += fold(s->n + at, count);
    __atomic_fetch_add(&s->sum[i % 64], v, __ATOMIC_RELAXED);
}

static int consume(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    sink *s = user;
    (void)entry, (void)first;
    s->p = p, s->n = n;
    s->floats = (size_t)count * s->shares; /* shares holds the floats per instance here */
    uint32_t shares = (uint32_t)((s->floats * sizeof(float) + SHARE_BYTES - 1) / SHARE_BYTES);
    memset(s->sum, 0, sizeof s->sum);
    vks_work_pool_share(s->pool, shares, consume_share, s);
    for (int i = 0; i < 64; i++)
        s->total += s->sum[i];
    return 0;
}

/* One vks_gpu_run of the whole workload; kernel_only: timestamps, no readback. */
static vks_result run_once(vks_bench_gpu *b, vks_gpu_kernel kernel, int kernel_only, sink *sk, vks_gpu_stats *st,
                           vks_error *err)
{
    vks_gpu_batch_entry e = {0, b->instances, b->locals};
    vks_gpu_batch batch = {0};
    batch.entries = &e, batch.entry_count = 1;
    batch.want_normals = 1;
    batch.max_chunk_bytes = b->gopt->max_chunk_bytes;
    batch.kernel = kernel;
    batch.kernel_only = kernel_only;
    if (!kernel_only)
        batch.deliver = consume, batch.user = sk;
    vks_gpu_calibrate_for_batch(b->gpu, b->models, &batch); /* a run never calibrates from inside */
    vks_result r = vks_gpu_run(b->gpu, b->models, &batch, st, err);
    b->chunks = st->chunks;
    return r;
}

static void first_run(vks_bench_gpu_engine *g, const vks_gpu_stats *st)
{
    g->first_ms = st->pose_ms + st->deform_ms;
    g->first_wall_ms = st->total_ms;
    g->first_buffers = st->buffers_made;
}

/* Steps 2 and 3: both kernels' first runs, then R interleaved pairs. */
static vks_result time_kernels(vks_bench_gpu *b, vks_error *err)
{
    uint32_t R = b->repeats;
    vks_gpu_stats st;
    vks_bench_gpu_engine *eng[2] = {&b->kernel, &b->plain};
    for (int k = 0; k < 2; k++) {
        vks_result r = run_once(b, (vks_gpu_kernel)k, 1, NULL, &st, err);
        if (r != VKS_OK)
            return r;
        first_run(eng[k], &st);
    }
    double *v = calloc((size_t)R * 9, sizeof *v);
    if (!v)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    double *ms[2] = {v, v + R}, *wall[2] = {v + 2 * R, v + 3 * R}, *pose[2] = {v + 4 * R, v + 5 * R};
    double *deform[2] = {v + 6 * R, v + 7 * R}, *ratio = v + 8 * R;
    vks_result r = VKS_OK;
    for (uint32_t i = 0; i < R && r == VKS_OK; i++) {
        for (int q = 0; q < 2 && r == VKS_OK; q++) {
            int k = (i & 1) ? 1 - q : q; /* project first, then plain first, ... */
            r = run_once(b, (vks_gpu_kernel)k, 1, NULL, &st, err);
            ms[k][i] = st.pose_ms + st.deform_ms, wall[k][i] = st.total_ms;
            pose[k][i] = st.pose_ms, deform[k][i] = st.deform_ms;
            eng[k]->steady_buffers += st.buffers_made;
        }
        ratio[i] = deform[0][i] > 0 ? deform[1][i] / deform[0][i] : 0;
    }
    if (r == VKS_OK) {
        for (int k = 0; k < 2; k++) {
            eng[k]->steady_ms = median(ms[k], R), eng[k]->steady_wall_ms = median(wall[k], R);
            eng[k]->pose_ms = median(pose[k], R), eng[k]->deform_ms = median(deform[k], R);
        }
        b->ratio = median(ratio, R); /* sorted: */
        b->ratio_min = ratio[0], b->ratio_max = ratio[R - 1];
    }
    free(v);
    return r;
}

/* Step 4: into the host's threads. */
static vks_result time_e2e(vks_bench_gpu *b, vks_error *err)
{
    uint32_t R = b->repeats;
    sink sk = {0};
    sk.shares = b->skin->vertex_count * 3; /* floats per instance, per stream */
    uint32_t threads = b->consumer_threads ? b->consumer_threads : 1;
    /* the caller takes shares too: the pool adds the other threads */
    sk.pool = threads > 1 ? vks_work_pool_start(threads - 1, "bench: the end to end consumed on fewer threads") : NULL;
    b->consumer_threads_used = 1 + vks_work_pool_threads(sk.pool);
    double *wall = calloc(R, sizeof *wall), *copy = calloc(R, sizeof *copy);
    vks_result r = wall && copy ? VKS_OK : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    vks_gpu_stats st;
    if (r == VKS_OK && (r = run_once(b, VKS_GPU_KERNEL_DEFAULT, 0, &sk, &st, err)) == VKS_OK) {
        first_run(&b->e2e, &st);
        b->e2e.first_ms = st.total_ms;
    }
    for (uint32_t i = 0; i < R && r == VKS_OK; i++) {
        r = run_once(b, VKS_GPU_KERNEL_DEFAULT, 0, &sk, &st, err);
        wall[i] = st.total_ms;
        copy[i] = st.readback_ms;
        b->readback_bytes = st.readback_bytes;
        b->e2e.steady_buffers += st.buffers_made;
    }
    if (r == VKS_OK) {
        b->e2e.steady_ms = b->e2e.steady_wall_ms = median(wall, R);
        b->readback_ms = median(copy, R);
        b->consumed_sum = sk.total;
    }
    vks_work_pool_finish(sk.pool);
    free(copy), free(wall);
    return r;
}

/* ---- step 5: --end-to-end FILE ---- */

static void file_locals(void *user, uint64_t first, uint32_t n, vks_affine *out)
{
    const vks_bench_gpu *b = user;
    size_t nodes = b->skin->node_count;
    memcpy(out, b->locals + first * nodes, (size_t)n * nodes * sizeof *out);
}

/* fdatasync of the file at path; ms spent. */
static vks_result sync_file(const char *path, double *ms, vks_error *err)
{
    double t0 = now_ms();
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fdatasync(fd) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot fdatasync: %s", strerror(e));
    }
    close(fd);
    *ms = now_ms() - t0;
    return VKS_OK;
}

/* A plain write(2) of bytes bytes to path in 8 MiB pieces, then fdatasync: the disk's figure. */
static vks_result plain_write(const char *path, uint64_t bytes, double *ms, vks_error *err)
{
    size_t piece = 8u << 20;
    float *buf = malloc(piece);
    if (!buf)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    for (size_t i = 0; i < piece / sizeof *buf; i++) /* numbers like the output's, not zeros */
        buf[i] = (float)(i % 1000) * 0.001f - 0.5f;
    double t0 = now_ms();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    vks_result r = fd >= 0 ? VKS_OK : vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot open: %s", strerror(errno));
    for (uint64_t done = 0; r == VKS_OK && done < bytes;) {
        size_t n = bytes - done < piece ? (size_t)(bytes - done) : piece;
        ssize_t w = write(fd, buf, n);
        if (w <= 0)
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot write: %s", strerror(errno));
        else
            done += (uint64_t)w;
    }
    if (r == VKS_OK && fdatasync(fd) != 0)
        r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot fdatasync: %s", strerror(errno));
    if (fd >= 0)
        close(fd);
    *ms = now_ms() - t0;
    free(buf);
    return r;
}

/* The deform path into FILE (as deform --gpu --format raw); its times. */
static vks_result deform_to_file(vks_bench_gpu *b, double *ms, double *engine_ms, vks_error *err)
{
    vks_bake *bake = NULL;
    double t0 = now_ms();
    vks_result r = vks_bake_open(&bake, b->file, VKS_BAKE_RAW, b->skin, b->instances, 1, err);
    if (r != VKS_OK)
        return r;
    const vks_gpu_models *models = b->models;
    vks_deform_run_desc c = {0};
    c.skin = b->skin, c.bake = bake, c.frames = 1, c.total = b->instances, c.locals = file_locals, c.user = b;
    c.engine = VKS_DEFORM_GPU, c.gpus = &b->gpu, c.models = &models, c.gpu_count = 1;
    c.max_chunk_bytes = b->gopt->max_chunk_bytes;
    c.direct = 1; /* raw, as deform writes it */
    vks_deform_run_stats st;
    r = vks_deform_run(&c, &st, err);
    vks_result rc = vks_bake_close(bake, r == VKS_OK, r == VKS_OK ? err : NULL);
    *ms = now_ms() - t0;
    *engine_ms = st.engine_s * 1e3;
    return r != VKS_OK ? r : rc;
}

/* Step 5. Each round runs the three things the ratio compares back to back, so a change of
 * the machine's state (other tenants, the page cache, the host) moves all three: the project's
 * kernel (kernel only, as in step 3), the plain write (the disk) and the deform path. The
 * ratio is the slower of the kernel's and the disk's median times over the deform path's;
 * the rounds' own ratios give its spread (one round's kernel or write alone is noisy). */
static vks_result time_file(vks_bench_gpu *b, vks_error *err)
{
    vks_bench_gpu_file *d = &b->disk;
    d->bytes = vks_bake_size_bound(VKS_BAKE_RAW, b->skin, b->instances, 1);
    uint32_t R = d->runs = b->repeats;
    double *v = calloc((size_t)R * 6, sizeof *v);
    if (!v)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    double *disk = v, *deform = v + R, *sync = v + 2 * R, *engine = v + 3 * R, *kernel = v + 4 * R;
    double *ratio = v + 5 * R;
    vks_gpu_stats st;
    vks_result r = vks_bake_check(b->file, VKS_BAKE_RAW, b->skin, b->instances, 1, err);
    double first_engine;
    if (r == VKS_OK) /* the first run: buffer sets for the path's chunk size made and touched */
        r = deform_to_file(b, &d->first_ms, &first_engine, err);
    for (uint32_t i = 0; i < R && r == VKS_OK; i++) {
        if ((r = run_once(b, VKS_GPU_KERNEL_DEFAULT, 1, NULL, &st, err)) == VKS_OK)
            kernel[i] = st.pose_ms + st.deform_ms;
        if (r == VKS_OK)
            r = plain_write(b->file, d->bytes, &disk[i], err);
        if (r == VKS_OK && unlink(b->file) != 0)
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, b->file, "cannot remove: %s", strerror(errno));
        if (r == VKS_OK)
            r = deform_to_file(b, &deform[i], &engine[i], err);
        if (r == VKS_OK)
            r = sync_file(b->file, &sync[i], err);
        double limit = kernel[i] > disk[i] ? kernel[i] : disk[i]; /* the slower one's time */
        ratio[i] = deform[i] > 0 ? limit / deform[i] : 0;
    }
    if (r == VKS_OK) {
        d->disk_ms = median(disk, R), d->deform_ms = median(deform, R), d->sync_ms = median(sync, R);
        d->engine_ms = median(engine, R), d->kernel_ms = median(kernel, R);
        double limit = d->kernel_ms > d->disk_ms ? d->kernel_ms : d->disk_ms;
        d->ratio = limit / d->deform_ms, d->durable_ratio = limit / (d->deform_ms + d->sync_ms);
        median(ratio, R); /* sorted: the rounds' own ratios, for their spread */
        d->ratio_min = ratio[0], d->ratio_max = ratio[R - 1];
    }
    free(v);
    return r;
}

int vks_bench_gpu_run(vks_bench_gpu *b)
{
    vks_error err = {0};
    double t0 = now_ms();
    int rc = vks_cli_gpu_open(b->gopt, &b->gpu);
    if (rc != VKS_EXIT_OK)
        return rc;
    b->context_ms = now_ms() - t0;
    b->device = vks_gpu_device(b->gpu)->name, b->device_type = vks_gpu_device(b->gpu)->type;
    b->queue_family = vks_gpu_device(b->gpu)->queue_family, b->queue_index = vks_gpu_device(b->gpu)->queue_index;
    b->readback_family = vks_gpu_device(b->gpu)->readback_family;
    b->readback_index = vks_gpu_device(b->gpu)->readback_queue_index;
    const vks_skin *one[1] = {b->skin};
    t0 = now_ms();
    if (vks_gpu_upload(b->gpu, one, 1, &b->models, &err) != VKS_OK)
        return gpu_fail("upload", &err);
    b->upload_ms = now_ms() - t0;
    if (b->repeats < 1)
        b->repeats = 1;
    /* The device's ceilings first, on buffers as large as the deform output (24 B a
     * vertex-instance; clipped to the device's limits), so every pass has its fraction. */
    vks_result cr = vks_gpu_measure_ceilings(b->gpu, (uint64_t)b->instances * b->skin->vertex_count * 24,
                                             b->repeats, &b->ceilings, &err);
    if (cr != VKS_OK && cr != VKS_ERR_UNSUPPORTED)
        return gpu_fail("ceilings", &err);
    if (time_kernels(b, &err) != VKS_OK)
        return gpu_fail("gpu kernel", &err);
    if (time_e2e(b, &err) != VKS_OK)
        return gpu_fail("gpu end to end", &err);
    if (b->file && time_file(b, &err) != VKS_OK)
        return gpu_fail("--end-to-end", &err);
    return VKS_EXIT_OK;
}

double vks_bench_gpu_rate(const vks_bench_gpu *b, double ms)
{
    return ms > 0 ? (double)b->instances * b->skin->vertex_count / (ms / 1e3) : 0;
}

/* Rates of the deform path as deform runs it (the output complete and renamed into place, in
 * the page cache) and durable (then fdatasync'd), and of the disk (a plain write with
 * fdatasync): medians of the rounds. */
typedef struct file_rates {
    double deform, durable, disk, kernel;
} file_rates;

static file_rates file_limit(const vks_bench_gpu *b)
{
    file_rates f;
    f.deform = vks_bench_gpu_rate(b, b->disk.deform_ms);
    f.durable = vks_bench_gpu_rate(b, b->disk.deform_ms + b->disk.sync_ms);
    f.disk = vks_bench_gpu_rate(b, b->disk.disk_ms);
    f.kernel = vks_bench_gpu_rate(b, b->disk.kernel_ms);
    return f;
}

void vks_bench_gpu_text(FILE *f, const vks_bench_gpu *b)
{
    const vks_bench_gpu_engine *k = &b->kernel, *p = &b->plain, *e = &b->e2e;
    fprintf(f, "  gpu context     %10.1f ms to create, %.1f ms to upload the model\n", b->context_ms, b->upload_ms);
    vks_gpu_shape_info shape;
    vks_gpu_launch_shape(b->gpu, &shape);
    fprintf(f, "  launch shape    %s (%s: %s)\n", shape.text, shape.source, shape.reason);
    fprintf(f, "  pipelines       %10.1f ms to create (of the context's creation and the upload)\n", shape.pipeline_ms);
    fprintf(f, "  gpu kernel      %10.3f M vertex-instances/s   steady, median of %u (%.2f ms: pose %.2f ms = %.2f us "
               "per instance, deform %.2f ms)\n",
            vks_bench_gpu_rate(b, k->steady_ms) / 1e6, b->repeats, k->steady_ms, k->pose_ms,
            k->pose_ms * 1e3 / b->instances, k->deform_ms);
    fprintf(f, "                  %10.3f M vertex-instances/s   first run (%.2f ms; %.2f ms wall, %u buffers made; "
               "steady runs made %u)\n",
            vks_bench_gpu_rate(b, k->first_ms) / 1e6, k->first_ms, k->first_wall_ms, k->first_buffers, k->steady_buffers);
    fprintf(f, "  gpu plain kernel%10.3f M vertex-instances/s   steady (%.2f ms, deform %.2f ms); first run %.2f ms\n",
            vks_bench_gpu_rate(b, p->steady_ms) / 1e6, p->steady_ms, p->deform_ms, p->first_ms);
    fprintf(f, "  kernel / plain  %10.2fx                        deform pass, median of %u interleaved pairs "
               "(%.2f..%.2f)\n",
            b->ratio, b->repeats, b->ratio_min, b->ratio_max);
    fprintf(f, "  gpu end to end  %10.3f M vertex-instances/s   steady (%.2f ms, %u chunk(s)), x%.2f kernel; first run "
               "%.2f ms; consumed in place on %u thread(s)\n",
            vks_bench_gpu_rate(b, e->steady_ms) / 1e6, e->steady_ms, b->chunks,
            k->steady_ms > 0 ? k->steady_ms / e->steady_ms : 0, e->first_ms, b->consumer_threads_used);
    const vks_gpu_ceilings *c = &b->ceilings;
    if (c->fill_bytes_per_second > 0) {
        double deform_rate = k->deform_ms > 0 ? (double)b->instances * b->skin->vertex_count * 24 / (k->deform_ms / 1e3)
                                              : 0;
        fprintf(f, "  ceilings        fill %.1f GB/s, copy %.1f GB/s (read + write), device to host %.1f GB/s "
                   "(buffers of %.1f MB, same run, timestamps)\n",
                c->fill_bytes_per_second / 1e9, c->copy_bytes_per_second / 1e9, c->readback_bytes_per_second / 1e9,
                c->bytes / 1e6);
        fprintf(f, "  deform / fill   %10.2f                        the deform pass writes %.1f GB/s (24 B a "
                   "vertex-instance)\n",
                deform_rate / c->fill_bytes_per_second, deform_rate / 1e9);
        if (e->steady_ms > 0)
            fprintf(f, "  end to end / d2h%10.2f                        the host's threads take %.1f GB/s of outputs\n",
                    vks_bench_gpu_rate(b, e->steady_ms) * 24 / c->readback_bytes_per_second,
                    vks_bench_gpu_rate(b, e->steady_ms) * 24 / 1e9);
        if (b->readback_bytes && b->readback_ms > 0)
            fprintf(f, "  readback / d2h  %10.2f                        the readback copies move %.1f GB/s\n",
                    b->readback_bytes / (b->readback_ms / 1e3) / c->readback_bytes_per_second,
                    b->readback_bytes / (b->readback_ms / 1e3) / 1e9);
        else
            fprintf(f, "  readback / d2h       -                        outputs read in place (unified memory): "
                       "no copy\n");
    }
    if (!b->file)
        return;
    file_rates r = file_limit(b);
    fprintf(f, "  to %s: %.1f MB, %u rounds of kernel, plain write, deform path (medians) after a first run of "
               "the deform path (%.2f ms)\n",
            b->file, b->disk.bytes / 1e6, b->disk.runs, b->disk.first_ms);
    fprintf(f, "    deform path   %10.3f M vertex-instances/s   %.1f MB/s (%.2f ms, engine %.2f ms; output renamed "
               "into place)\n",
            r.deform / 1e6, b->disk.bytes / 1e3 / b->disk.deform_ms, b->disk.deform_ms, b->disk.engine_ms);
    fprintf(f, "    + fdatasync   %10.3f M vertex-instances/s   %.1f MB/s (+ %.2f ms: on the disk)\n", r.durable / 1e6,
            b->disk.bytes / 1e3 / (b->disk.deform_ms + b->disk.sync_ms), b->disk.sync_ms);
    fprintf(f, "    plain write   %10.3f M vertex-instances/s   %.1f MB/s (%.2f ms with fdatasync)\n", r.disk / 1e6,
            b->disk.bytes / 1e3 / b->disk.disk_ms, b->disk.disk_ms);
    fprintf(f, "    kernel        %10.3f M vertex-instances/s   (%.2f ms, in the rounds)\n", r.kernel / 1e6,
            b->disk.kernel_ms);
    fprintf(f, "    deform / min(kernel, disk) x%.2f (target 0.8) of the medians; rounds %.2f..%.2f; with its "
               "fdatasync x%.2f\n",
            b->disk.ratio, b->disk.ratio_min, b->disk.ratio_max, b->disk.durable_ratio);
}

static void engine_json(cJSON *o, const char *name, const vks_bench_gpu *b, const vks_bench_gpu_engine *g)
{
    cJSON *e = cJSON_AddObjectToObject(o, name);
    cJSON_AddNumberToObject(e, "first_ms", g->first_ms);
    cJSON_AddNumberToObject(e, "first_wall_ms", g->first_wall_ms);
    cJSON_AddNumberToObject(e, "first_vertex_instances_per_second", vks_bench_gpu_rate(b, g->first_ms));
    cJSON_AddNumberToObject(e, "first_buffers_made", g->first_buffers);
    cJSON_AddNumberToObject(e, "steady_ms", g->steady_ms);
    cJSON_AddNumberToObject(e, "steady_wall_ms", g->steady_wall_ms);
    cJSON_AddNumberToObject(e, "steady_vertex_instances_per_second", vks_bench_gpu_rate(b, g->steady_ms));
    cJSON_AddNumberToObject(e, "steady_buffers_made", g->steady_buffers);
    if (g->deform_ms > 0) {
        cJSON_AddNumberToObject(e, "pose_ms", g->pose_ms);
        cJSON_AddNumberToObject(e, "pose_us_per_instance", g->pose_ms * 1e3 / b->instances);
        cJSON_AddNumberToObject(e, "deform_ms", g->deform_ms);
    }
}

void vks_bench_gpu_json(cJSON *o, const vks_bench_gpu *b)
{
    cJSON *g = cJSON_AddObjectToObject(o, "gpu");
    cJSON_AddNumberToObject(g, "context_ms", b->context_ms);
    vks_gpu_shape_info shape;
    vks_gpu_launch_shape(b->gpu, &shape);
    cJSON *ls = cJSON_AddObjectToObject(g, "launch_shape");
    cJSON_AddStringToObject(ls, "shape", shape.text);
    cJSON_AddNumberToObject(ls, "deform_workgroup", shape.deform_workgroup);
    cJSON_AddNumberToObject(ls, "pose_workgroup", shape.pose_workgroup);
    cJSON_AddNumberToObject(ls, "instance_run", shape.instance_run);
    cJSON_AddNumberToObject(ls, "shared_palette_slots", shape.shared_palette_slots);
    cJSON_AddBoolToObject(ls, "skin_texels", shape.skin_texels);
    cJSON_AddStringToObject(ls, "source", shape.source ? shape.source : "");
    cJSON_AddStringToObject(ls, "reason", shape.reason ? shape.reason : "");
    cJSON_AddNumberToObject(g, "pipeline_ms", shape.pipeline_ms);
    cJSON_AddNumberToObject(g, "upload_ms", b->upload_ms);
    cJSON_AddNumberToObject(g, "repeats", b->repeats);
    engine_json(g, "kernel", b, &b->kernel);
    engine_json(g, "plain_kernel", b, &b->plain);
    engine_json(g, "end_to_end", b, &b->e2e);
    cJSON_AddNumberToObject(cJSON_GetObjectItem(g, "end_to_end"), "consumer_threads", b->consumer_threads_used);
    const vks_gpu_ceilings *c = &b->ceilings;
    if (c->fill_bytes_per_second > 0) {
        cJSON *cj = cJSON_AddObjectToObject(g, "ceilings");
        cJSON_AddNumberToObject(cj, "buffer_bytes", (double)c->bytes);
        cJSON_AddNumberToObject(cj, "fill_bytes_per_second", c->fill_bytes_per_second);
        cJSON_AddNumberToObject(cj, "copy_bytes_per_second", c->copy_bytes_per_second);
        cJSON_AddNumberToObject(cj, "device_to_host_bytes_per_second", c->readback_bytes_per_second);
        double deform_rate = b->kernel.deform_ms > 0
                                 ? (double)b->instances * b->skin->vertex_count * 24 / (b->kernel.deform_ms / 1e3)
                                 : 0;
        cJSON *fr = cJSON_AddObjectToObject(g, "fractions");
        cJSON_AddNumberToObject(fr, "deform_bytes_per_second", deform_rate);
        cJSON_AddNumberToObject(fr, "deform_over_fill", deform_rate / c->fill_bytes_per_second);
        if (b->e2e.steady_ms > 0) /* 24 B a vertex-instance reach the host's threads */
            cJSON_AddNumberToObject(fr, "end_to_end_over_device_to_host",
                                    vks_bench_gpu_rate(b, b->e2e.steady_ms) * 24 / c->readback_bytes_per_second);
        if (b->readback_bytes && b->readback_ms > 0) {
            double rb = b->readback_bytes / (b->readback_ms / 1e3);
            cJSON_AddNumberToObject(fr, "readback_bytes_per_second", rb);
            cJSON_AddNumberToObject(fr, "readback_over_device_to_host", rb / c->readback_bytes_per_second);
        } else {
            cJSON_AddNullToObject(fr, "readback_over_device_to_host"); /* read in place: no copy */
        }
    }
    cJSON *q = cJSON_AddObjectToObject(g, "kernel_over_plain");
    cJSON_AddNumberToObject(q, "median", b->ratio);
    cJSON_AddNumberToObject(q, "min", b->ratio_min);
    cJSON_AddNumberToObject(q, "max", b->ratio_max);
    if (!b->file)
        return;
    file_rates r = file_limit(b);
    cJSON *f = cJSON_AddObjectToObject(g, "end_to_end_file");
    cJSON_AddStringToObject(f, "path", b->file);
    cJSON_AddNumberToObject(f, "bytes", (double)b->disk.bytes);
    cJSON_AddNumberToObject(f, "runs", b->disk.runs);
    cJSON_AddNumberToObject(f, "deform_ms", b->disk.deform_ms);
    cJSON_AddNumberToObject(f, "fdatasync_ms", b->disk.sync_ms);
    cJSON_AddNumberToObject(f, "engine_ms", b->disk.engine_ms);
    cJSON_AddNumberToObject(f, "plain_write_ms", b->disk.disk_ms);
    cJSON_AddNumberToObject(f, "kernel_ms", b->disk.kernel_ms);
    cJSON_AddNumberToObject(f, "first_deform_ms", b->disk.first_ms);
    cJSON_AddNumberToObject(f, "deform_vertex_instances_per_second", r.deform);
    cJSON_AddNumberToObject(f, "durable_deform_vertex_instances_per_second", r.durable);
    cJSON_AddNumberToObject(f, "plain_write_vertex_instances_per_second", r.disk);
    cJSON_AddNumberToObject(f, "kernel_vertex_instances_per_second", r.kernel);
    cJSON_AddNumberToObject(f, "deform_over_slower_of_kernel_and_disk", b->disk.ratio);
    cJSON_AddNumberToObject(f, "deform_over_slower_min", b->disk.ratio_min);
    cJSON_AddNumberToObject(f, "deform_over_slower_max", b->disk.ratio_max);
    cJSON_AddNumberToObject(f, "durable_deform_over_slower_of_kernel_and_disk", b->disk.durable_ratio);
}

void vks_bench_gpu_free(vks_bench_gpu *b)
{
    vks_gpu_models_free(b->models);
    vks_gpu_destroy(b->gpu);
    b->models = NULL, b->gpu = NULL;
}
