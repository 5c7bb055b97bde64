/* The verdict's reduction folded into the deform pass (compute/reduce_fold.glsl, validate's
 * variant of compute/deform.comp) against the host's figures of the bytes delivered and against
 * the reduction's pass of its own (VKSKIN_TEST_SEPARATE_REDUCE), validation layer on: one
 * batch of three models, so that every kernel variant the fold is built into runs (morph
 * targets, 2, 4 and 5..8 influences), in chunks, with the outputs read in place and staged
 * (the staged context also runs the shared-memory palette, the GPUs' path with barriers, with
 * weight-0 slots skipped).
 * The exact words (sum, xor, non-finite count, extents) must equal the host's and the pass's
 * chunk by chunk; the normals' deviation (float) must be close. The fused run must compile its
 * own pipelines (it is not the pass under another name), and the cases that keep the pass
 * (positions only where the kept buffers write normals, the plain kernel) still agree.
 * Exits 77 without a device. */
#define _POSIX_C_SOURCE 200809L
#include "eight_tube.h"
#include "gpu_check.h"
#include "morph_fixture.h"
#include "testutil.h"

#include "vkskin/pose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MODELS = 3, INSTANCES = 7, MAX_CHUNKS = 64 };

typedef struct run {
    const vks_skin *skin[MODELS];
    vks_gpu_figures host;             /* of the bytes delivered since the last chunk */
    vks_gpu_figures gpu[MAX_CHUNKS];  /* the GPU's, chunk by chunk */
    uint32_t chunks, agreed;
    int normals;
} run;

static int same_exact(const vks_gpu_figures *a, const vks_gpu_figures *b)
{
    return a->sum == b->sum && a->xor_words == b->xor_words && a->nonfinite == b->nonfinite &&
           !memcmp(a->min_key, b->min_key, sizeof a->min_key) && !memcmp(a->max_key, b->max_key, sizeof a->max_key);
}

static void get_locals(void *user, uint32_t entry, uint32_t inst, vks_affine *out)
{
    run *r = user;
    vks_pose_procedural(r->skin[entry], 11 + entry, inst, 0.1f * (float)inst, 0.0f, out);
}

static void get_weights(void *user, uint32_t entry, uint32_t inst, float *out)
{
    run *r = user;
    for (uint32_t t = 0; t < r->skin[entry]->target_count; t++)
        out[t] = (float)((int)((inst * 3 + t) % 5) - 1) * 0.75f;
}

static int take(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    (void)first;
    run *r = user;
    vks_gpu_figures_add(&r->host, p, r->normals ? n : NULL, (size_t)count * r->skin[entry]->vertex_count);
    return 0;
}

static int chunk_done(void *user, uint32_t chunk, const vks_gpu_figures *g)
{
    run *r = user;
    int same = chunk == r->chunks && same_exact(g, &r->host);
    r->agreed += same;
    if (!same)
        fprintf(stderr, "  chunk %u: gpu sum %08x xor %08x nonfinite %u, host sum %08x xor %08x nonfinite %u\n", chunk,
                g->sum, g->xor_words, g->nonfinite, r->host.sum, r->host.xor_words, r->host.nonfinite);
    if (r->chunks < MAX_CHUNKS)
        r->gpu[r->chunks] = *g;
    r->chunks++;
    vks_gpu_figures_reset(&r->host);
    return 0;
}

static uint64_t pipelines(const vks_gpu *gpu)
{
    vks_gpu_counters c;
    vks_gpu_get_counters(gpu, &c);
    return c.pipelines;
}

/* One reducing batch of the three models; returns the pipelines it compiled. */
static uint64_t batch(vks_gpu *gpu, const vks_gpu_models *ms, run *r, int normals, vks_gpu_kernel kernel)
{
    vks_gpu_batch_entry e[MODELS] = {{0, INSTANCES, NULL}, {1, INSTANCES, NULL}, {2, INSTANCES, NULL}};
    vks_gpu_batch b = {0};
    b.entries = e, b.entry_count = MODELS, b.get_locals = get_locals, b.get_weights = get_weights;
    b.deliver = take, b.user = r, b.want_normals = normals, b.kernel = kernel;
    b.max_chunk_bytes = (uint64_t)r->skin[0]->vertex_count * 12 * 4; /* a few instances a chunk */
    b.reduce = 1, b.chunk_done = chunk_done;
    r->chunks = r->agreed = 0, r->normals = normals;
    vks_gpu_figures_reset(&r->host);
    vks_gpu_stats st = {0};
    vks_error err = {0};
    uint64_t before = pipelines(gpu);
    CHECK_EQ_INT(vks_gpu_run(gpu, ms, &b, &st, &err), VKS_OK);
    CHECK(st.chunks >= 3 && st.chunks <= MAX_CHUNKS && r->chunks == st.chunks);
    CHECK_EQ_INT(r->agreed, r->chunks);
    return pipelines(gpu) - before;
}

/* The figures of both ways agree chunk by chunk: the exact words equal, the deviation close. */
static void same_figures(const run *a, const run *b, const char *what)
{
    int ok = a->chunks == b->chunks;
    for (uint32_t c = 0; ok && c < a->chunks && c < MAX_CHUNKS; c++) {
        float da = a->gpu[c].normal_deviation, db = b->gpu[c].normal_deviation;
        ok = same_exact(&a->gpu[c], &b->gpu[c]) && fabsf(da - db) <= 1e-6f * (1.0f + db);
    }
    fprintf(stderr, "  %s: %u chunks, the fold and the pass %s\n", what, a->chunks, ok ? "agree" : "DIFFER");
    CHECK(ok);
}

static void both_ways(const vks_skin *const *skins, int staged)
{
    static run fused, pass; /* a few KiB of figures each: not on the stack */
    memset(&fused, 0, sizeof fused);
    for (int k = 0; k < MODELS; k++)
        fused.skin[k] = skins[k];
    pass = fused;
    uint64_t made[2] = {0, 0};
    for (int apart = 0; apart < 2; apart++) {
        setenv("VKSKIN_TEST_SEPARATE_REDUCE", apart ? "1" : "0", 1);
        vks_gpu_options o = {0};
        o.force_staging = staged;
        /* staged: the GPUs' path too (shared palette, barriers), matrices from storage, weight-0
           slots skipped; in place: the device's own shape (lavapipe: texels, no palette) */
        o.launch_shape = staged ? "palette=on,texels=off,zeros=skip" : NULL;
        vks_gpu *gpu = gpu_check_context_opt(&o);
        vks_gpu_models *ms = NULL;
        vks_error err = {0};
        CHECK_EQ_INT(vks_gpu_upload(gpu, skins, MODELS, &ms, &err), VKS_OK);
        if (ms) {
            made[apart] = batch(gpu, ms, apart ? &pass : &fused, 1, VKS_GPU_KERNEL_DEFAULT);
            if (!apart) { /* where the fold cannot stand in, the pass still runs and agrees */
                static run other;
                other = fused;
                batch(gpu, ms, &other, 0, VKS_GPU_KERNEL_DEFAULT); /* the kept buffers write normals */
                batch(gpu, ms, &other, 1, VKS_GPU_KERNEL_PLAIN);
            }
        }
        CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
        vks_gpu_models_free(ms);
        vks_gpu_destroy(gpu);
    }
    unsetenv("VKSKIN_TEST_SEPARATE_REDUCE");
    fprintf(stderr, "%s: the fused run compiled %llu pipelines, the pass's %llu\n", staged ? "staged" : "in place",
            (unsigned long long)made[0], (unsigned long long)made[1]);
    /* the fold's own kernels: 2, 4 and 8 influences with the morph stage, some without */
    CHECK(made[0] >= made[1] + 4);
    same_figures(&fused, &pass, staged ? "staged, shared palette, zeros skipped" : "in place");
}

int main(void)
{
    vks_skin *morphing = gpu_check_character(2000, 24, 4, 12, 3), *two = gpu_check_character(1200, 20, 2, 12, 5);
    vks_skin *eight = eight_tube(12, 16);
    vks_error err = {0};
    CHECK(morphing && two && eight && morph_fixture_targets(morphing, 3));
    if (!morphing || !two || !eight)
        return vks_test_finish("test_gpu_reduce_fused");
    morphing->targets[1].default_weight = 0.5f; /* the uploaded rest moves */
    CHECK_EQ_INT(vks_skin_validate(morphing, &err), VKS_OK);
    const vks_skin *skins[MODELS] = {morphing, eight, two};
    for (int staged = 0; staged < 2; staged++)
        both_ways(skins, staged);
    vks_skin_free(morphing), vks_skin_free(two), vks_skin_free(eight);
    return vks_test_finish("test_gpu_reduce_fused");
}
