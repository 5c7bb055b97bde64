/* end_to_end_file (bench.h): the host's deform path into a raw file against the disk and the
 * kernel. The deform path's first run, then R rounds of: the project's kernel (kernel only),
 * a plain write of the output's bytes to the file with fdatasync, the deform path (the
 * library's vks_deform_run with the GPU, as `deform --gpu --format raw` runs it, through the
 * output module: temporary and rename; or the caller's deform_file) into the file, fdatasync
 * of the file; the ratio of the medians, and
 * each round's for the spread. Each round runs the three things the ratio compares back to
 * back, so a change of the machine's state (other tenants, the page cache, the host) moves all
 * three (one round's kernel or write alone is noisy). */
#include "bench/bench_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vkskin/bake.h"
#include "vkskin/deform_run.h"

/* fdatasync of the file at path; ms spent. */
static vks_result sync_file(const char *path, double *ms, vks_error *err)
{
    double t0 = vks__bench_now_ms();
    int fd = open(path, O_RDONLY);
    if (fd < 0 || fdatasync(fd) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot fdatasync: %s", strerror(e));
    }
    close(fd);
    *ms = vks__bench_now_ms() - t0;
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
    double t0 = vks__bench_now_ms();
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
    *ms = vks__bench_now_ms() - t0;
    free(buf);
    return r;
}

static void file_locals(void *user, uint64_t first, uint32_t n, vks_affine *out)
{
    const vks__bench_engines *b = user;
    size_t nodes = b->skin->node_count;
    memcpy(out, b->locals + first * nodes, (size_t)n * nodes * sizeof *out);
}

/* The library's deform path: deform --gpu --format raw's (deform_run.h), into path. */
static vks_result library_deform(vks__bench_engines *b, const char *path, double *engine_ms, vks_error *err)
{
    vks_bake *bake = NULL;
    vks_result r = vks_bake_open(&bake, path, VKS_BAKE_RAW, b->skin, b->instances, 1, err);
    if (r != VKS_OK)
        return r;
    const vks_gpu_models *models = b->models;
    vks_deform_run_desc c = {0};
    c.skin = b->skin, c.bake = bake, c.frames = 1, c.total = b->instances, c.locals = file_locals, c.user = b;
    c.engine = VKS_DEFORM_GPU, c.gpus = &b->gpu, c.models = &models, c.gpu_count = 1;
    c.max_chunk_bytes = b->max_chunk_bytes;
    c.direct = 1; /* raw, as deform writes it */
    vks_deform_run_stats st = {0};
    r = vks_deform_run(&c, &st, err);
    vks_result rc = vks_bake_close(bake, r == VKS_OK, r == VKS_OK ? err : NULL);
    *engine_ms = st.engine_s * 1e3;
    return r != VKS_OK ? r : rc;
}

/* The deform path into the file (the caller's, else the library's); its wall time and its
 * engine's. */
static vks_result deform_to_file(vks__bench_engines *b, double *ms, double *engine_ms, vks_error *err)
{
    const vks_bench_options *o = b->opt;
    double t0 = vks__bench_now_ms();
    *engine_ms = 0;
    vks_result r = o->deform_file ? o->deform_file(o->deform_file_user, b->gpu, b->models, b->skin, b->locals,
                                                   b->instances, b->max_chunk_bytes, o->end_to_end_file, engine_ms,
                                                   err)
                                  : library_deform(b, o->end_to_end_file, engine_ms, err);
    *ms = vks__bench_now_ms() - t0;
    return r;
}

/* The rounds' medians and ratios into d. */
static void summarise(vks_bench_file *d, double *v, uint32_t R)
{
    double *disk = v, *deform = v + R, *sync = v + 2 * R, *engine = v + 3 * R, *kernel = v + 4 * R;
    double *ratio = v + 5 * R;
    d->disk_ms = vks__bench_median(disk, R), d->deform_ms = vks__bench_median(deform, R);
    d->sync_ms = vks__bench_median(sync, R);
    d->engine_ms = vks__bench_median(engine, R), d->kernel_ms = vks__bench_median(kernel, R);
    double limit = d->kernel_ms > d->disk_ms ? d->kernel_ms : d->disk_ms;
    d->ratio = limit / d->deform_ms, d->durable_ratio = limit / (d->deform_ms + d->sync_ms);
    vks__bench_median(ratio, R); /* sorted: the rounds' own ratios, for their spread */
    d->ratio_min = ratio[0], d->ratio_max = ratio[R - 1];
}

vks_result vks__bench_file(vks__bench_engines *b, vks_error *err)
{
    const char *path = b->opt->end_to_end_file;
    vks_bench_file *d = &b->out->file;
    b->out->has_file = 1;
    d->path = path;
    d->bytes = vks_bake_size_bound(VKS_BAKE_RAW, b->skin, b->instances, 1);
    uint32_t R = d->runs = b->repeats;
    double *v = calloc((size_t)R * 6, sizeof *v);
    if (!v)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "bench", "out of memory");
    double *disk = v, *deform = v + R, *sync = v + 2 * R, *engine = v + 3 * R, *kernel = v + 4 * R;
    double *ratio = v + 5 * R;
    vks_gpu_stats st;
    vks_result r = vks_bake_check(path, VKS_BAKE_RAW, b->skin, b->instances, 1, err);
    double first_engine;
    if (r == VKS_OK) /* the first run: buffer sets for the path's chunk size made and touched */
        r = deform_to_file(b, &d->first_ms, &first_engine, err);
    for (uint32_t i = 0; i < R && r == VKS_OK; i++) {
        if ((r = vks__bench_run_once(b, VKS_GPU_KERNEL_DEFAULT, NULL, NULL, &st, err)) == VKS_OK)
            kernel[i] = st.pose_ms + st.deform_ms;
        if (r == VKS_OK)
            r = plain_write(path, d->bytes, &disk[i], err);
        if (r == VKS_OK && unlink(path) != 0)
            r = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot remove: %s", strerror(errno));
        if (r == VKS_OK)
            r = deform_to_file(b, &deform[i], &engine[i], err);
        if (r == VKS_OK)
            r = sync_file(path, &sync[i], err);
        double limit = kernel[i] > disk[i] ? kernel[i] : disk[i]; /* the slower one's time */
        ratio[i] = deform[i] > 0 ? limit / deform[i] : 0;
    }
    if (r == VKS_OK)
        summarise(d, v, R);
    free(v);
    return r;
}
