/* Host-posed stream instances (stream.h, HOST POSES; VKS_POSE_HOST) with the validation layer
 * on: the locals (and morph weights) the host gives frame by frame go through the stream and
 * come out with the very bits vks_gpu_run gives for the same locals (the engine of vkskin
 * deform --gpu, whose bytes must not change); two models, several frames, a chunk budget that
 * cuts the instances, an instance list and a callback, one frame and many; with reduce, the
 * deliveries (one frame: each a whole GPU chunk) carry figures equal to the host's recomputation. And the
 * comparison can fail: one instance posed differently differs. Errors: a mixed stream, no
 * get_locals, the consumer's stop. Exits 77 where there is no Vulkan device. */
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 13, F = 3, MAXV = 2048, MAXN = 64 };

static const float TIMES[F] = {0, 0.5f, 1.25f};
static const vks_skin *skins[2];
static vks_instance inst[N];
static uint32_t perturbed = UINT32_MAX; /* the instance get_locals poses differently (testing the test) */

static uint32_t model_of(uint32_t i)
{
    return i % 5 == 3 || i % 5 == 4 ? 1u : 0u; /* runs of both models */
}

static void host_locals(void *user, uint32_t i, uint32_t frame, vks_affine *out)
{
    (void)user;
    const vks_skin *s = skins[model_of(i)];
    vks_pose_procedural(s, 7, i, TIMES[frame] + (i == perturbed ? 0.01f : 0.0f), 0.6f, out);
}

static void get_instance(void *user, uint32_t i, vks_instance *out)
{
    (void)user;
    *out = inst[i];
}

/* What came: [instance][frame] positions and normals, MAXV vertices a slot. */
typedef struct got {
    float *pos, *nrm;
    uint32_t calls, with_figures, figure_mismatches, seen[N][F];
    uint32_t stop_after;
} got;

static size_t at(uint32_t i, uint32_t f)
{
    return ((size_t)i * F + f) * MAXV * 3;
}

static got *got_new(void)
{
    got *g = calloc(1, sizeof *g);
    g->pos = calloc((size_t)N * F * MAXV * 3, sizeof(float));
    g->nrm = calloc((size_t)N * F * MAXV * 3, sizeof(float));
    return g;
}

static void got_free(got *g)
{
    free(g->pos), free(g->nrm), free(g);
}

static int take(void *user, const vks_stream_delivery *d)
{
    got *g = user;
    g->calls++;
    size_t off = 0;
    for (uint32_t k = 0; k < d->count; k++) {
        uint32_t i = d->first + k, v = skins[model_of(i)]->vertex_count;
        g->seen[i][d->frame]++;
        memcpy(g->pos + at(i, d->frame), d->positions + off, (size_t)v * 12);
        if (d->normals)
            memcpy(g->nrm + at(i, d->frame), d->normals + off, (size_t)v * 12);
        off += (size_t)v * 3;
    }
    if (d->gpu_figures) {
        vks_gpu_figures h;
        vks_gpu_figures_reset(&h);
        vks_gpu_figures_add(&h, d->positions, d->normals, off / 3);
        g->with_figures++;
        g->figure_mismatches += h.sum != d->gpu_figures->sum || h.xor_words != d->gpu_figures->xor_words;
    }
    return g->stop_after && g->calls == g->stop_after;
}

/* The reference: vks_gpu_run over one entry per (model run, frame), locals from host_locals. */
typedef struct ref_entry {
    uint32_t g0, frame;
} ref_entry;

static ref_entry ref_at[2 * N * F];

static void ref_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    (void)user;
    host_locals(NULL, ref_at[entry].g0 + instance, ref_at[entry].frame, out);
}

static int ref_deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    got *g = user;
    vks_stream_delivery d = {ref_at[entry].g0 + first, count, ref_at[entry].frame, TIMES[ref_at[entry].frame], p, n,
                             NULL};
    return take(g, &d);
}

static got *reference(vks_gpu *gpu, const vks_gpu_models *ms)
{
    vks_gpu_batch_entry e[2 * N * F];
    uint32_t ne = 0;
    for (uint32_t f = 0; f < F; f++)
        for (uint32_t i = 0; i < N; i++) {
            if (i && model_of(i) == model_of(i - 1)) {
                e[ne - 1].instance_count++;
                continue;
            }
            e[ne] = (vks_gpu_batch_entry){model_of(i), 1, NULL};
            ref_at[ne++] = (ref_entry){i, f};
        }
    got *g = got_new();
    vks_gpu_batch b = {0};
    b.entries = e, b.entry_count = ne, b.get_locals = ref_locals, b.deliver = ref_deliver, b.user = g;
    b.want_normals = 1;
    vks_error err = {0};
    CHECK(vks_gpu_run(gpu, ms, &b, NULL, &err) == VKS_OK);
    return g;
}

static int same_bits_frames(const got *a, const got *b, uint32_t frames)
{
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t f = 0; f < frames; f++) {
            size_t n = (size_t)skins[model_of(i)]->vertex_count * 3 * sizeof(float);
            if (memcmp(a->pos + at(i, f), b->pos + at(i, f), n) || memcmp(a->nrm + at(i, f), b->nrm + at(i, f), n))
                return 0;
        }
    return 1;
}

static int same_bits(const got *a, const got *b)
{
    return same_bits_frames(a, b, F);
}

static int all_once(const got *g, uint32_t frames)
{
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t f = 0; f < frames; f++)
            if (g->seen[i][f] != 1)
                return 0;
    return 1;
}

/* reduce: one frame, where every GPU chunk is one delivery (a chunk that spans frames would
 * come in parts, without figures) */
static got *stream(vks_gpu *gpu, const vks_stream_desc *base, uint64_t chunk_bytes, int by_callback, int reduce)
{
    got *g = got_new();
    vks_stream_desc d = *base;
    d.user = g, d.chunk_bytes = chunk_bytes, d.reduce = reduce;
    if (reduce)
        d.frame_count = 1;
    if (by_callback)
        d.instances = NULL, d.get_instance = get_instance;
    vks_stream_stats st = {0};
    vks_error err = {0};
    vks_result r = vks_stream_run(gpu, &d, &st, &err);
    CHECK(r == VKS_OK);
    if (r != VKS_OK)
        fprintf(stderr, "stream: %s\n", err.msg);
    fprintf(stderr, "chunk_bytes %llu%s%s: %u GPU chunks, %u deliveries, %u with figures\n",
            (unsigned long long)chunk_bytes, by_callback ? ", by callback" : "", reduce ? ", reduce" : "", st.chunks,
            g->calls, g->with_figures);
    return g;
}

static void errors(vks_gpu *gpu, const vks_stream_desc *base)
{
    vks_error err = {0};
    got *g = got_new();
    vks_stream_desc d = *base;
    d.user = g;
    inst[5].pose = VKS_POSE_BIND; /* mixed: one GPU-posed instance among host-posed ones */
    CHECK(vks_stream_run(gpu, &d, NULL, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "instance 5") != NULL);
    inst[5].pose = VKS_POSE_HOST;
    inst[0].pose = VKS_POSE_BIND; /* the other way round: the crowd's path says it */
    err = (vks_error){0};
    CHECK(vks_stream_run(gpu, &d, NULL, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "VKS_POSE_HOST") != NULL);
    inst[0].pose = VKS_POSE_HOST;
    d.get_locals = NULL;
    err = (vks_error){0};
    CHECK(vks_stream_run(gpu, &d, NULL, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "get_locals") != NULL);
    d.get_locals = host_locals;
    g->stop_after = 2;
    err = (vks_error){0};
    CHECK(vks_stream_run(gpu, &d, NULL, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "stopped by the consumer") != NULL);
    CHECK_EQ_INT(g->calls, 2);
    got_free(g);
}

int main(void)
{
    vks_gpu *gpu = gpu_check_context_opt(&(vks_gpu_options){0});
    vks_skin *a = gpu_check_character(1500, 32, 4, 12, 1), *b = gpu_check_character(700, 40, 2, 20, 3);
    if (!a || !b)
        return vks_test_finish("test_gpu_stream_host");
    CHECK(a->vertex_count <= MAXV && b->vertex_count <= MAXV && a->node_count <= MAXN && b->node_count <= MAXN);
    skins[0] = a, skins[1] = b;
    for (uint32_t i = 0; i < N; i++)
        inst[i] = (vks_instance){.model = model_of(i), .pose = VKS_POSE_HOST};
    vks_error err = {0};
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 2, &ms, &err) == VKS_OK);
    got *ref = reference(gpu, ms);
    CHECK(all_once(ref, F));

    vks_stream_desc d = {0};
    d.models = ms, d.skins = skins, d.model_count = 2;
    d.instances = inst, d.instance_count = N;
    d.times = TIMES, d.frame_count = F;
    d.get_locals = host_locals, d.deliver = take;
    uint64_t small = (uint64_t)(a->vertex_count * 2 + b->vertex_count) * 24; /* a few instances a chunk */
    const struct {
        uint64_t chunk_bytes;
        int callback, reduce;
    } runs[] = {{0, 0, 0}, {small, 0, 0}, {small, 1, 0}, {1, 0, 0}, {small / 4, 1, 1}, {small, 0, 1}};
    for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
        got *g = stream(gpu, &d, runs[k].chunk_bytes, runs[k].callback, runs[k].reduce);
        uint32_t frames = runs[k].reduce ? 1 : F;
        CHECK(all_once(g, frames));
        CHECK(same_bits_frames(ref, g, frames));
        if (runs[k].reduce) /* lavapipe runs subgroup arithmetic: the pass runs */
            CHECK(g->calls > 1 && g->with_figures == g->calls && g->figure_mismatches == 0);
        got_free(g);
    }
    fprintf(stderr, "one frame: every instance in one GPU batch\n");
    vks_stream_desc one = d;
    one.frame_count = 1;
    got *g = got_new();
    one.user = g;
    CHECK(vks_stream_run(gpu, &one, NULL, &err) == VKS_OK);
    CHECK(all_once(g, 1));
    CHECK(same_bits_frames(ref, g, 1));
    got_free(g);

    fprintf(stderr, "the comparison can fail: instance 4 posed at another time\n");
    perturbed = 4;
    g = stream(gpu, &d, 0, 0, 0);
    CHECK(!same_bits(ref, g));
    perturbed = UINT32_MAX;
    got_free(g);

    errors(gpu, &d);
    got_free(ref);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_skin_free(a), vks_skin_free(b);
    return vks_test_finish("test_gpu_stream_host");
}
