/* See gpu_check.h. */
#include "gpu_check.h"
#include "testutil.h"

#include "character.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gpu_check_skip_calibration;

typedef struct ctx {
    const gpu_check_entry *e;
    uint32_t n;
    vks_diff_acc pos[8], nrm[8];
    uint32_t delivered[8];
    int fail;
} ctx;

static void locals_for(const gpu_check_entry *e, uint32_t instance, vks_affine *out)
{
    if (e->bind)
        vks_pose_bind(e->skin, out);
    else
        vks_pose_procedural(e->skin, e->seed, instance, 0.25f + 0.1f * (float)(instance % 7), 0.0f, out);
}

static void get_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    ctx *c = user;
    locals_for(&c->e[entry], instance, out);
}

static int deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    ctx *c = user;
    const gpu_check_entry *e = &c->e[entry];
    const vks_skin *s = e->skin;
    size_t floats = (size_t)count * s->vertex_count * 3;
    vks_affine *locals = malloc((size_t)count * (s->node_count ? s->node_count : 1) * sizeof *locals);
    float *rp = malloc((floats ? floats : 1) * sizeof *rp), *rn = malloc((floats ? floats : 1) * sizeof *rn);
    if (!locals || !rp || !rn) {
        free(locals), free(rp), free(rn);
        return c->fail = 1;
    }
    for (uint32_t i = 0; i < count; i++)
        locals_for(e, first + i, locals + (size_t)i * s->node_count);
    vks_deform_job j = {s, locals, count, rp, rn, NULL};
    vks_error err = {0};
    if (vks_cpu_reference_run(&j, &err) != VKS_OK)
        c->fail = 1;
    vks_diff_add(&c->pos[entry], p, rp, first, count, s->vertex_count);
    vks_diff_add(&c->nrm[entry], n, rn, first, count, s->vertex_count);
    c->delivered[entry] += count;
    free(locals), free(rp), free(rn);
    return 0;
}

vks_gpu *gpu_check_context(vks_gpu_fault fault, int force_staging)
{
    vks_gpu_options o = {0};
    vks_gpu_testing t = {0};
    t.inject_fault = fault;
    o.force_staging = force_staging;
    o.shared_palette = force_staging ? 1 : 0; /* the staging run also covers the shared-memory palette */
    return gpu_check_context_testing(&o, &t);
}

vks_gpu *gpu_check_context_opt(const vks_gpu_options *opt)
{
    return gpu_check_context_testing(opt, NULL);
}

vks_gpu *gpu_check_context_testing(const vks_gpu_options *opt, const vks_gpu_testing *testing)
{
    vks_gpu_options o = *opt;
    o.validation = 1;
    /* a test registered again under another launch shape (tests/crowd.cmake: the pose pass's
     * nodes variant) runs its own checks under it */
    if (!o.launch_shape && getenv("VKS_TEST_LAUNCH_SHAPE"))
        o.launch_shape = getenv("VKS_TEST_LAUNCH_SHAPE");
    if (!o.logger.func) /* the library is silent by default; ctest fails on these lines */
        o.logger.func = vks_log_stderr;
    vks_gpu *gpu = NULL;
    vks_error err = {0};
    vks_result r = vks_gpu_create_testing(&o, testing, &gpu, &err);
    if (r == VKS_ERR_NO_DEVICE || r == VKS_ERR_UNSUPPORTED) {
        char buf[512];
        fprintf(stderr, "skipped: %s\n", vks_error_format(&err, NULL, buf, sizeof buf));
        exit(77);
    }
    if (r != VKS_OK) {
        char buf[512];
        fprintf(stderr, "vks_gpu_create: %s\n", vks_error_format(&err, NULL, buf, sizeof buf));
        exit(1);
    }
    return gpu;
}

int gpu_check_reads_back_apart(vks_gpu *gpu)
{
    const vks_gpu_device_info *di = vks_gpu_device(gpu);
    if (di->readback_family != di->queue_family)
        return 1;
    const char *apart = getenv("VKSKIN_TEST_SEPARATE_READBACK");
    return apart && *apart && strcmp(apart, "0") != 0;
}

vks_result gpu_check_run(vks_gpu *gpu, const vks_gpu_models *ms, const gpu_check_entry *e, uint32_t n,
                         uint64_t max_chunk_bytes, gpu_check_result *out)
{
    return gpu_check_run_kernel(gpu, ms, e, n, max_chunk_bytes, VKS_GPU_KERNEL_DEFAULT, out);
}

vks_result gpu_check_run_kernel(vks_gpu *gpu, const vks_gpu_models *ms, const gpu_check_entry *e, uint32_t n,
                                uint64_t max_chunk_bytes, vks_gpu_kernel kernel, gpu_check_result *out)
{
    ctx c;
    memset(&c, 0, sizeof c);
    memset(out, 0, sizeof *out);
    c.e = e, c.n = n;
    vks_gpu_batch_entry be[8];
    for (uint32_t i = 0; i < n && i < 8; i++) {
        be[i] = (vks_gpu_batch_entry){e[i].model, e[i].instances, NULL};
        vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
        vks_diff_begin(&c.pos[i], vks_skin_error_scale(e[i].skin), &tp);
        vks_diff_begin(&c.nrm[i], 1.0, &tn);
    }
    vks_gpu_batch b = {0};
    b.entries = be, b.entry_count = n;
    b.get_locals = get_locals, b.deliver = deliver, b.user = &c;
    b.want_normals = 1;
    b.max_chunk_bytes = max_chunk_bytes;
    b.kernel = kernel;
    vks_error err = {0};
    if (!gpu_check_skip_calibration) /* the explicit step: vks_gpu_run never calibrates */
        vks_gpu_calibrate_for_batch(gpu, ms, &b);
    vks_result r = vks_gpu_run(gpu, ms, &b, &out->stats, &err);
    if (r != VKS_OK) {
        char buf[512];
        fprintf(stderr, "vks_gpu_run: %s\n", vks_error_format(&err, NULL, buf, sizeof buf));
        return r;
    }
    out->pass = !c.fail;
    for (uint32_t i = 0; i < n; i++) {
        vks_diff_end(&c.pos[i], &out->pos[i]);
        vks_diff_end(&c.nrm[i], &out->nrm[i]);
        out->delivered[i] = c.delivered[i];
        out->pass &= out->pos[i].pass && out->nrm[i].pass && c.delivered[i] == e[i].instances;
        fprintf(stderr, "  entry %u: %u/%u instances, pos max %.3g (rel %.3g) nmse %.3g over %llu; nrm max %.3g over %llu\n",
                i, c.delivered[i], e[i].instances, out->pos[i].max_abs, out->pos[i].max_rel, out->pos[i].nmse,
                (unsigned long long)out->pos[i].over, out->nrm[i].max_abs, (unsigned long long)out->nrm[i].over);
    }
    return VKS_OK;
}

int gpu_check_made_nothing(const vks_gpu_counters *before, const vks_gpu_counters *after)
{
    const char *names[5] = {"memory allocations", "buffers", "descriptor sets", "command buffers", "pipelines"};
    uint64_t b[5] = {before->memory_allocations, before->buffers, before->descriptor_sets, before->command_buffers,
                     before->pipelines};
    uint64_t a[5] = {after->memory_allocations, after->buffers, after->descriptor_sets, after->command_buffers,
                     after->pipelines};
    int same = 1;
    for (int k = 0; k < 5; k++)
        if (a[k] != b[k]) {
            fprintf(stderr, "  %s: %llu made\n", names[k], (unsigned long long)(a[k] - b[k]));
            same = 0;
        }
    return same;
}

vks_skin *gpu_check_character(uint32_t vertices, uint32_t bones, uint32_t influences, uint32_t palette, uint64_t seed)
{
    vks_gen_params p = {0};
    p.vertices = vertices, p.bones = bones, p.max_influences = influences, p.palette_limit = palette, p.seed = seed;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    return s;
}
