/* The verdict's reduction pass (compute/reduce.comp) against the host's vks_gpu_figures_add,
 * with the validation layer on: planted words (quiet and signalling NaNs, both infinities,
 * -0.0 and +0.0, denormals of both signs, the largest floats) among ordinary ones, an axis with
 * no finite value, one vertex, none, and a run long enough for many workgroups; then a batch
 * that asks for the reduction, in one submission and with the readback apart, whose figures
 * per chunk must equal the host's of the bytes delivered; a batch that does not ask reads back
 * exactly what it did. Exits 77 where there is no Vulkan device. */
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/pose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int same_exact(const vks_gpu_figures *a, const vks_gpu_figures *b)
{
    return a->sum == b->sum && a->xor_words == b->xor_words && a->nonfinite == b->nonfinite &&
           !memcmp(a->min_key, b->min_key, sizeof a->min_key) && !memcmp(a->max_key, b->max_key, sizeof a->max_key);
}

static void show(const char *who, const vks_gpu_figures *f)
{
    fprintf(stderr, "  %s: sum %08x xor %08x nonfinite %u min %08x %08x %08x max %08x %08x %08x dev %g\n", who,
            f->sum, f->xor_words, f->nonfinite, f->min_key[0], f->min_key[1], f->min_key[2], f->max_key[0],
            f->max_key[1], f->max_key[2], f->normal_deviation);
}

/* GPU and host over the same words: the exact figures equal, the deviation close. */
static void against_host(vks_gpu *gpu, const char *what, const float *p, const float *n, uint64_t vertices)
{
    vks_gpu_figures g, h;
    vks_error err = {0};
    vks_gpu_figures_reset(&h);
    vks_gpu_figures_add(&h, p, n, vertices);
    h.normal_deviation = vks_gpu_figures_normal_deviation(n, vertices);
    memset(&g, 0x5a, sizeof g);
    CHECK(vks_gpu_reduce_testing(gpu, p, n, vertices, &g, &err) == VKS_OK);
    int ok = same_exact(&g, &h) && (g.normal_deviation == h.normal_deviation || /* both inf: a FLT_MAX normal */
                                     fabsf(g.normal_deviation - h.normal_deviation) <= 1e-5f * (1 + h.normal_deviation));
    fprintf(stderr, "%s: %llu vertices %s\n", what, (unsigned long long)vertices, ok ? "agree" : "DIFFER");
    if (!ok)
        show("gpu ", &g), show("host", &h);
    CHECK(ok);
}

static const uint32_t planted[] = {
    0x7fc00000u, /* quiet NaN */
    0x7f800001u, /* signalling NaN */
    0xffc01234u, /* negative NaN with a payload */
    0x7f800000u, /* +Inf */
    0xff800000u, /* -Inf */
    0x80000000u, /* -0.0 */
    0x00000000u, /* +0.0 */
    0x00000001u, /* the least denormal */
    0x807fffffu, /* the most negative denormal */
    0x7f7fffffu, /* FLT_MAX */
    0xff7fffffu, /* -FLT_MAX */
    0x7149f2cau, /* 1e30 */
};
enum { NPLANTED = sizeof planted / sizeof planted[0] };

static void planted_words(vks_gpu *gpu)
{
    enum { V = 40000 }; /* many workgroups of 256 invocations, a few vertices each */
    float *p = malloc((size_t)V * 12), *n = malloc((size_t)V * 12);
    if (!p || !n) {
        CHECK(0);
        free(p), free(n);
        return;
    }
    uint64_t s = 12345;
    for (size_t i = 0; i < (size_t)V * 3; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 20.0 - 10.0);
        n[i] = (float)((double)(s >> 13 & 0xffff) / 65536.0 - 0.5);
    }
    /* planted words at scattered places, on every axis, in both streams */
    for (int k = 0; k < NPLANTED; k++)
        for (int r = 0; r < 3; r++) {
            size_t at = ((size_t)(k * 7919 + r * 104729) % V) * 3 + (size_t)((k + r) % 3);
            p[at] = bits(planted[k]);
            n[(at + 3 * 11) % ((size_t)V * 3)] = bits(planted[(k + r) % NPLANTED]);
        }
    against_host(gpu, "planted words, positions and normals", p, n, V);
    against_host(gpu, "planted words, positions only", p, NULL, V);
    /* the extreme values of the planted set are the extent: -FLT_MAX and FLT_MAX on every axis */
    vks_gpu_figures h;
    vks_gpu_figures_reset(&h);
    vks_gpu_figures_add(&h, p, NULL, V);
    for (int k = 0; k < 3; k++) {
        CHECK(vks_gpu_figures_float(h.min_key[k]) == -3.40282347e38f);
        CHECK(vks_gpu_figures_float(h.max_key[k]) == 3.40282347e38f);
    }
    CHECK(h.nonfinite >= 5);
    /* an axis with no finite value: its keys stay at "none" on both sides */
    for (size_t v = 0; v < 5; v++)
        p[v * 3 + 1] = bits(v & 1 ? 0x7f800000u : 0x7fc00000u);
    against_host(gpu, "five vertices, y never finite", p, n, 5);
    vks_gpu_figures_reset(&h);
    vks_gpu_figures_add(&h, p, NULL, 5);
    CHECK(h.min_key[1] == 0xffffffffu && h.max_key[1] == 0u && isnan(vks_gpu_figures_float(h.min_key[1])));
    /* -0.0 orders before +0.0 */
    float z[6] = {0.0f, -0.0f, 1.0f, -0.0f, 0.0f, 1.0f};
    against_host(gpu, "signed zeros", z, NULL, 2);
    vks_gpu_figures_reset(&h);
    vks_gpu_figures_add(&h, z, NULL, 2);
    CHECK(h.min_key[0] == 0x7fffffffu && h.max_key[0] == 0x80000000u);
    against_host(gpu, "one vertex", p + 300, n + 300, 1);
    against_host(gpu, "no vertex", p, n, 0);
    free(p), free(n);
}

typedef struct chunks {
    vks_gpu_figures host; /* of the bytes delivered since the last chunk */
    uint32_t done, agreed, vertices;
} chunks;

static int take(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    (void)entry, (void)first;
    chunks *c = user;
    vks_gpu_figures_add(&c->host, p, n, (size_t)count * c->vertices);
    return 0;
}

static int chunk_done(void *user, uint32_t chunk, const vks_gpu_figures *g)
{
    chunks *c = user;
    if (chunk != c->done)
        fprintf(stderr, "chunk %u came as number %u\n", chunk, c->done);
    c->agreed += chunk == c->done && same_exact(g, &c->host);
    if (!same_exact(g, &c->host))
        show("gpu ", g), show("host", &c->host);
    c->done++;
    vks_gpu_figures_reset(&c->host);
    return 0;
}

/* A batch in several chunks asking for the reduction: every chunk's figures are the host's
 * of what it delivered, in one submission and with the readback in one of its own. */
static void batch_chunks(const vks_skin *a)
{
    const char *was = getenv("VKSKIN_TEST_SEPARATE_READBACK");
    for (int apart = 0; apart < 2; apart++) {
        setenv("VKSKIN_TEST_SEPARATE_READBACK", apart ? "1" : "0", 1);
        for (int staged = 0; staged < 2; staged++) {
            vks_gpu *gpu = gpu_check_context(VKS_GPU_FAULT_NONE, staged);
            vks_error err = {0};
            vks_gpu_models *ms = NULL;
            const vks_skin *one[1] = {a};
            CHECK(vks_gpu_upload(gpu, one, 1, &ms, &err) == VKS_OK);
            enum { I = 9 };
            vks_affine *locals = calloc((size_t)I * a->node_count, sizeof *locals);
            for (uint32_t i = 0; locals && i < I; i++)
                vks_pose_procedural(a, 7, i, 0.5f, 0, locals + (size_t)i * a->node_count);
            chunks c = {.vertices = a->vertex_count};
            vks_gpu_figures_reset(&c.host);
            vks_gpu_batch_entry e = {0, I, locals};
            vks_gpu_batch b = {0};
            b.entries = &e, b.entry_count = 1, b.deliver = take, b.user = &c, b.want_normals = 1;
            b.max_chunk_bytes = (uint64_t)a->vertex_count * 12 * 2; /* two instances a chunk */
            b.reduce = 1, b.chunk_done = chunk_done;
            vks_gpu_stats st = {0};
            CHECK(locals && vks_gpu_run(gpu, ms, &b, &st, &err) == VKS_OK);
            fprintf(stderr, "batch, readback %s, %s: %u chunks, %u reduced and agreed\n", apart ? "apart" : "in one",
                    staged ? "staged" : "in place", st.chunks, c.agreed);
            CHECK(st.chunks >= 4 && c.done == st.chunks && c.agreed == st.chunks);
            /* the same context without the reduction: nothing reaches chunk_done */
            c.done = c.agreed = 0;
            b.reduce = 0;
            CHECK(vks_gpu_run(gpu, ms, &b, &st, &err) == VKS_OK);
            CHECK_EQ_INT(c.done, 0);
            CHECK_EQ_INT(vks_gpu_batch_reduces(gpu, &b), 0);
            /* VKS_GPU_REDUCE_COPIED (validate's --readback-check auto): reduced where the chunks
             * come through staging copies, not where the host reads them in place (a CPU
             * device's unified memory); vks_gpu_batch_reduces says which beforehand */
            c.done = c.agreed = 0;
            vks_gpu_figures_reset(&c.host);
            b.reduce = VKS_GPU_REDUCE_COPIED;
            const char *type = vks_gpu_device(gpu)->type;
            int says = vks_gpu_batch_reduces(gpu, &b);
            int expect = staged ? 1 : !strcmp(type, "cpu") ? 0 : !strcmp(type, "discrete") ? 1 : says;
            CHECK(vks_gpu_run(gpu, ms, &b, &st, &err) == VKS_OK);
            CHECK_EQ_INT(says, expect);
            CHECK_EQ_INT(c.done, says ? st.chunks : 0);
            CHECK_EQ_INT(c.agreed, c.done);
            CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
            free(locals);
            vks_gpu_models_free(ms);
            vks_gpu_destroy(gpu);
        }
    }
    if (was)
        setenv("VKSKIN_TEST_SEPARATE_READBACK", was, 1);
    else
        unsetenv("VKSKIN_TEST_SEPARATE_READBACK");
}

int main(void)
{
    vks_gpu *gpu = gpu_check_context(VKS_GPU_FAULT_NONE, 0);
    fprintf(stderr, "device: %s (%s)\n", vks_gpu_device(gpu)->name, vks_gpu_device(gpu)->type);
    planted_words(gpu);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_destroy(gpu);
    vks_skin *a = gpu_check_character(1500, 24, 4, 12, 5);
    if (a)
        batch_chunks(a);
    vks_skin_free(a);
    return vks_test_finish("test_gpu_reduce");
}
