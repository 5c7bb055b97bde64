/* The batch scheduler under memory pressure and at its limits, with the validation layer on
 * (any message fails; leaked Vulkan objects are reported by the layer when the device is
 * destroyed, and ctest fails the test on any "vkskin: validation" line):
 *   - vks_gpu_testing.fail_allocations_over below the natural chunk: the batch still matches
 *     the CPU reference, in more chunks than without the cap, after out-of-memory retries;
 *   - the cap below one instance of the largest model: VKS_ERR_NOMEM with a clear message,
 *     and the context still runs batches afterwards;
 *   - fail_allocation_nth at every allocation of a run: each error path frees what it made and
 *     the retry completes the batch (also the single-instance batch, retried with one set);
 *   - limit_storage_range: a model one instance of which exceeds it is refused (VKS_ERR_LIMIT),
 *     before any chunk is cut; tables over it are refused by the upload;
 *   - zero-vertex meshes and models of very different sizes in one chunked batch.
 * Exits 77 where there is no Vulkan device. */
#include "gpu_check.h"
#include "testutil.h"


#include <string.h>

/* A chain of `nodes` nodes, one mesh with one bone on the last node and one group of
 * `vertices` rigid vertices (vertices may be 0: a zero-vertex mesh with an empty group). */
static vks_skin *chain(uint32_t nodes, uint32_t vertices)
{
    vks_skin *s = vks_skin_create(NULL);
    CHECK(s != NULL);
    if (!s)
        return NULL;
    s->format = "test", s->format_detail = "chain";
    s->nodes = vks_skin_alloc_array(s, nodes, sizeof *s->nodes), s->node_count = nodes;
    s->meshes = vks_skin_alloc_array(s, 1, sizeof *s->meshes), s->mesh_count = 1;
    s->bones = vks_skin_alloc_array(s, 1, sizeof *s->bones), s->bone_count = 1;
    s->groups = vks_skin_alloc_array(s, 1, sizeof *s->groups), s->group_count = 1;
    s->palette = vks_skin_alloc_array(s, 1, sizeof *s->palette), s->palette_count = 1;
    uint32_t nv = vertices ? vertices : 1; /* arrays never empty */
    s->positions = vks_skin_alloc_array(s, nv, sizeof *s->positions);
    s->normals = vks_skin_alloc_array(s, nv, sizeof *s->normals);
    s->influences = vks_skin_alloc_array(s, nv, sizeof *s->influences);
    s->source_vertex = vks_skin_alloc_array(s, nv, sizeof *s->source_vertex);
    s->vertex_count = vertices;
    CHECK(s->nodes && s->meshes && s->bones && s->groups && s->palette && s->positions && s->normals &&
          s->influences && s->source_vertex);
    if (!(s->nodes && s->meshes && s->bones && s->groups && s->palette && s->positions && s->normals &&
          s->influences && s->source_vertex)) {
        vks_skin_free(s);
        return NULL;
    }
    for (uint32_t i = 0; i < nodes; i++) {
        s->nodes[i].name = "";
        s->nodes[i].parent = (int32_t)i - 1;
        s->nodes[i].bind_local = vks_affine_identity();
        s->nodes[i].bind_local.m[10] = 0.01f; /* a step up the chain */
    }
    vks_mesh *m = &s->meshes[0];
    m->name = "", m->vertex_count = vertices, m->group_count = 1, m->bone_count = 1;
    m->source_vertex_count = vertices, m->space_node = -1, m->space_pre = vks_affine_identity();
    m->flags = VKS_MESH_HAS_NORMALS;
    s->bones[0].node = nodes - 1;
    s->bones[0].inverse_bind = vks_affine_identity();
    s->groups[0] = (vks_group){0, 0, vertices, 0, 0, 0, 1, 1, 0};
    for (uint32_t v = 0; v < vertices; v++) {
        s->positions[v][0] = (float)(v % 17) * 0.1f, s->positions[v][1] = (float)(v % 5) * 0.2f;
        s->positions[v][2] = 1.0f;
        s->normals[v][2] = 1.0f;
        s->influences[v].weight[0] = 1.0f;
        s->source_vertex[v] = v;
    }
    vks_error err = {0};
    CHECK(vks_skin_validate(s, &err) == VKS_OK);
    return s;
}

static vks_gpu *context(uint64_t fail_over, uint32_t fail_nth, uint32_t limit_range)
{
    vks_gpu_testing t = {0};
    t.fail_allocations_over = fail_over;
    t.fail_allocation_nth = fail_nth;
    t.limit_storage_range = limit_range;
    return gpu_check_context_testing(&(vks_gpu_options){0}, &t);
}

/* Runs a batch with the error kept (gpu_check_run prints it but does not return it). */
static vks_result run_raw(vks_gpu *gpu, const vks_gpu_models *ms, uint32_t model, uint32_t instances,
                          vks_gpu_stats *st, vks_error *err)
{
    vks_gpu_batch_entry e = {model, instances, NULL};
    vks_gpu_batch b = {0};
    b.entries = &e, b.entry_count = 1;
    b.get_locals = NULL; /* never called: the run must fail before any chunk */
    b.want_normals = 1;
    static vks_affine locals[4096];
    e.locals = locals;
    return vks_gpu_run(gpu, ms, &b, st, err);
}

static int stop_after_first(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p,
                            const float *n)
{
    (void)entry, (void)first, (void)count, (void)p, (void)n;
    return ++*(int *)user >= 1;
}

/* The models every scenario runs, and what they share. */
typedef struct fixture {
    vks_skin *a, *c, *t, *z, *n;
    const vks_skin *skins[5];
    uint64_t one_a; /* output bytes of one instance of a */
    gpu_check_entry mix[2];
} fixture;

/* No cap: the natural chunk; returns its count. */
static uint32_t natural_chunk(const fixture *f)
{
    const vks_skin *const *skins = f->skins;
    const uint64_t one_a = f->one_a;
    const gpu_check_entry *mix = f->mix;
    vks_error err = {0};
    gpu_check_result r;
    vks_gpu_models *ms = NULL;
    vks_gpu *gpu;
    fprintf(stderr, "no cap: the natural chunk\n");
    gpu = context(0, 0, 0);
    fprintf(stderr, "device: %s (%s)\n", vks_gpu_device(gpu)->name, vks_gpu_device(gpu)->type);
    CHECK(vks_gpu_upload(gpu, skins, 5, &ms, &err) == VKS_OK);
    CHECK(gpu_check_run(gpu, ms, mix, 2, 0, &r) == VKS_OK && r.pass);
    uint32_t natural = r.stats.chunks;
    uint64_t natural_bytes = r.stats.chunk_output_bytes;
    CHECK_EQ_INT(r.stats.oom_retries, 0);
    fprintf(stderr, "  %u chunk(s) of %llu output bytes\n", natural, (unsigned long long)natural_bytes);
    CHECK(natural_bytes > 4 * one_a);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    return natural;
}

/* Allocations over 3 instances of a fail: retried in smaller chunks than natural. */
static void over_cap(const fixture *f, uint32_t natural)
{
    const vks_skin *const *skins = f->skins;
    const uint64_t one_a = f->one_a;
    const gpu_check_entry *mix = f->mix;
    vks_error err = {0};
    gpu_check_result r;
    vks_gpu_models *ms = NULL;
    vks_gpu *gpu;
    fprintf(stderr, "allocations over %llu bytes fail: retried in smaller chunks\n", (unsigned long long)(3 * one_a));
    gpu = context(3 * one_a, 0, 0);
    CHECK(vks_gpu_upload(gpu, skins, 5, &ms, &err) == VKS_OK); /* uploads are not capped */
    CHECK(gpu_check_run(gpu, ms, mix, 2, 0, &r) == VKS_OK && r.pass);
    fprintf(stderr, "  %u chunks of %llu output bytes after %u retries\n", r.stats.chunks,
            (unsigned long long)r.stats.chunk_output_bytes, r.stats.oom_retries);
    CHECK(r.stats.oom_retries > 0);
    CHECK(r.stats.chunks > natural);
    CHECK(r.stats.chunks >= 12 * one_a / (3 * one_a));
    CHECK(r.stats.chunk_output_bytes <= 3 * one_a);
    CHECK_EQ_INT(r.delivered[0], 12);
    CHECK_EQ_INT(r.delivered[1], 20);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
}

/* Allocations over one instance fail: a clear error, then the context still works. */
static void over_one_instance(const fixture *f)
{
    vks_skin *c = f->c;
    const vks_skin *const *skins = f->skins;
    const uint64_t one_a = f->one_a;
    vks_error err = {0};
    gpu_check_result r;
    vks_gpu_models *ms = NULL;
    vks_gpu *gpu;
    fprintf(stderr, "allocations over one instance fail: a clear error, then the context still works\n");
    gpu = context(one_a - 1, 0, 0);
    CHECK(vks_gpu_upload(gpu, skins, 5, &ms, &err) == VKS_OK);
    vks_gpu_stats st;
    memset(&err, 0, sizeof err);
    vks_result res = run_raw(gpu, ms, 0, 5, &st, &err);
    char buf[512];
    fprintf(stderr, "  %s\n", vks_error_format(&err, NULL, buf, sizeof buf));
    CHECK_EQ_INT(res, VKS_ERR_NOMEM);
    CHECK_EQ_INT(err.code, VKS_ERR_NOMEM);
    CHECK(strstr(err.msg, "smallest chunk") != NULL);
    CHECK(strstr(err.msg, "VK_ERROR_OUT_OF_DEVICE_MEMORY") != NULL);
    CHECK(st.oom_retries > 0 && st.oom_retries < 40);
    CHECK_EQ_INT(st.chunks, 0);
    gpu_check_entry small[1] = {{c, 1, 30, 0, 43}}; /* c's instances are far under the cap */
    CHECK(gpu_check_run(gpu, ms, small, 1, 0, &r) == VKS_OK && r.pass);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
}

/* The nth allocation of each run fails, n = 1..19. */
static void nth_fails(const fixture *f)
{
    vks_skin *a = f->a;
    const vks_skin *const *skins = f->skins;
    const uint64_t one_a = f->one_a;
    const gpu_check_entry *mix = f->mix;
    vks_error err = {0};
    gpu_check_result r;
    vks_gpu_models *ms = NULL;
    vks_gpu *gpu;
    /* Each allocation of a run fails once in turn: every error path of cache_create frees what
     * it made (the layer reports leaks at destroy), and the retry completes the batch (in
     * chunks of 4 instances of a, so the run makes a ring of two buffer sets). */
    fprintf(stderr, "the nth allocation of each run fails, n = 1..19\n");
    uint32_t retried = 0;
    for (uint32_t nth = 1; nth <= 19; nth++) {
        gpu = context(0, nth, 0);
        CHECK(vks_gpu_upload(gpu, skins, 2, &ms, &err) == VKS_OK);
        CHECK(gpu_check_run(gpu, ms, mix, 2, 4 * one_a, &r) == VKS_OK && r.pass);
        CHECK(r.stats.oom_retries <= 1);
        retried += r.stats.oom_retries;
        if (nth == 1) {
            /* already the smallest chunk (one instance, two chunks): the retry drops to one
             * buffer set (after the kept set of the first run is let go, so this run
             * allocates again) */
            vks_gpu_trim(gpu);
            gpu_check_entry two[1] = {{a, 0, 2, 0, 44}};
            CHECK(gpu_check_run(gpu, ms, two, 1, one_a, &r) == VKS_OK && r.pass);
            CHECK_EQ_INT(r.stats.oom_retries, 1);
            CHECK_EQ_INT(r.stats.chunks, 2);
        }
        CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
        vks_gpu_models_free(ms);
        vks_gpu_destroy(gpu);
    }
    fprintf(stderr, "  %u of 19 runs retried\n", retried);
    CHECK(retried >= 14); /* at least 7 buffers in each of 2 sets */
}

/* maxStorageBufferRange lowered to 64 KB: a model over it refused, the others chunked. */
static void lowered_range(const fixture *f)
{
    vks_skin *a = f->a, *c = f->c, *t = f->t, *z = f->z, *n = f->n;
    vks_error err = {0};
    gpu_check_result r;
    vks_gpu_models *ms = NULL;
    vks_gpu *gpu;
    vks_gpu_stats st;
    vks_result res;
    char buf[512];
    fprintf(stderr, "maxStorageBufferRange lowered to 64 KB\n");
    gpu = context(0, 0, 65536);
    CHECK_EQ_INT(vks_gpu_device(gpu)->max_storage_buffer_range, 65536);
    const vks_skin *small_set[4] = {c, t, z, n};
    CHECK(vks_gpu_upload(gpu, small_set, 4, &ms, &err) == VKS_OK);
    memset(&err, 0, sizeof err);
    res = run_raw(gpu, ms, 3, 2, &st, &err); /* 1400 nodes * 48 bytes per instance */
    fprintf(stderr, "  %s\n", vks_error_format(&err, NULL, buf, sizeof buf));
    CHECK_EQ_INT(res, VKS_ERR_LIMIT);
    CHECK(strstr(err.msg, "one instance of model 3") != NULL && strstr(err.msg, "maxStorageBufferRange") != NULL);
    CHECK_EQ_INT(st.chunks, 0);
    /* the others still run, in chunks under the lowered range */
    gpu_check_entry lim[3] = {{c, 0, 40, 0, 45}, {t, 1, 500, 0, 46}, {z, 2, 7, 0, 47}};
    CHECK(gpu_check_run(gpu, ms, lim, 3, 0, &r) == VKS_OK && r.pass);
    CHECK(r.stats.chunks >= 40ull * c->vertex_count * 12 / 65536);
    CHECK(r.stats.chunk_output_bytes <= 65536);
    vks_gpu_models_free(ms);
    const vks_skin *big_set[1] = {a}; /* 2000 vertices of 24-byte influences: 48 KB */
    vks_skin *huge = gpu_check_character(4000, 32, 4, 12, 3);
    const vks_skin *huge_set[2] = {a, huge};
    CHECK(vks_gpu_upload(gpu, big_set, 1, &ms, &err) == VKS_OK);
    vks_gpu_models_free(ms);
    ms = NULL;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_gpu_upload(gpu, huge_set, 2, &ms, &err), VKS_ERR_LIMIT);
    fprintf(stderr, "  %s\n", vks_error_format(&err, NULL, buf, sizeof buf));
    CHECK(ms == NULL && strstr(err.msg, "table") != NULL);
    vks_skin_free(huge);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_destroy(gpu);
}

/* Zero-vertex meshes and very different models chunked, a skeleton over the loop limit, and
 * a batch the caller stops, on one context. */
static void one_context(const fixture *f)
{
    vks_skin *a = f->a, *c = f->c, *t = f->t, *z = f->z, *n = f->n;
    const vks_skin *const *skins = f->skins;
    const uint64_t one_a = f->one_a;
    vks_error err = {0};
    gpu_check_result r;
    vks_gpu_models *ms = NULL;
    vks_gpu *gpu;
    vks_gpu_stats st;
    char buf[512];
    fprintf(stderr, "zero-vertex meshes and models of very different sizes, chunked\n");
    gpu = context(0, 0, 0);
    CHECK(vks_gpu_upload(gpu, skins, 5, &ms, &err) == VKS_OK);
    gpu_check_entry zero[1] = {{z, 3, 9, 0, 51}};
    CHECK(gpu_check_run(gpu, ms, zero, 1, 0, &r) == VKS_OK && r.pass);
    CHECK_EQ_INT(r.delivered[0], 9);
    gpu_check_entry diverse[5] = {
        {t, 2, 3000, 0, 52}, {a, 0, 3, 0, 53}, {z, 3, 50, 0, 54}, {n, 4, 20, 0, 55}, {c, 1, 11, 0, 56}};
    for (int capped = 0; capped < 2; capped++) {
        CHECK(gpu_check_run(gpu, ms, diverse, 5, capped ? one_a : 0, &r) == VKS_OK && r.pass);
        fprintf(stderr, "  cap %llu: %u chunks\n", (unsigned long long)(capped ? one_a : 0), r.stats.chunks);
        CHECK_EQ_INT(r.delivered[0], 3000);
        CHECK_EQ_INT(r.delivered[2], 50);
        CHECK_EQ_INT(r.delivered[3], 20);
        if (capped)
            CHECK(r.stats.chunks >= 5);
    }
    /* llvmpipe leaves every loop of an invocation once 65535 iterations have run in all: a
     * longer skeleton would be posed wrong without a word, so its upload is refused instead
     * (the 1400-node chain above is well under and checked against the reference). */
    fprintf(stderr, "a skeleton longer than llvmpipe's loop limit\n");
    {
        vks_skin *longest = chain(70000, 3);
        const vks_skin *ls[1] = {longest};
        vks_gpu_models *lm = NULL;
        memset(&err, 0, sizeof err);
        vks_result lr = vks_gpu_upload(gpu, ls, 1, &lm, &err);
        fprintf(stderr, "  %s\n", lr == VKS_OK ? "uploaded" : vks_error_format(&err, NULL, buf, sizeof buf));
        if (strstr(vks_gpu_device(gpu)->name, "llvmpipe")) {
            CHECK_EQ_INT(lr, VKS_ERR_LIMIT);
            CHECK(strstr(err.msg, "model 0") && strstr(err.msg, "70000 nodes") && strstr(err.msg, "loop iterations"));
        }
        vks_gpu_models_free(lm);
        vks_skin_free(longest);
    }
    fprintf(stderr, "the caller stops the batch while chunks are in flight\n");
    vks_gpu_batch_entry se = {0, 40, NULL};
    static vks_affine stop_locals[40 * 64];
    se.locals = stop_locals;
    CHECK(a->node_count <= 64);
    for (uint32_t i = 0; i < 40 * 64; i++)
        stop_locals[i] = vks_affine_identity();
    int calls = 0;
    vks_gpu_batch sb = {0};
    sb.entries = &se, sb.entry_count = 1, sb.deliver = stop_after_first, sb.user = &calls;
    sb.want_normals = 1, sb.max_chunk_bytes = 2 * one_a, sb.ring = 3;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_gpu_run(gpu, ms, &sb, &st, &err), VKS_ERR_INVALID);
    CHECK_EQ_INT(calls, 1);
    CHECK(st.chunks >= 1 && st.chunks < 20);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
}

int main(void)
{
    fixture f = {0};
    f.a = gpu_check_character(2000, 32, 4, 12, 1); /* the big model: 24 KB of output per instance */
    f.c = gpu_check_character(300, 20, 2, 0, 2);   /* a small one */
    f.t = chain(1, 4);                             /* tiny: 4 vertices */
    f.z = chain(3, 0);                             /* zero vertices */
    f.n = chain(1400, 3);                          /* many nodes: 67 KB of matrices per instance */
    if (!f.a || !f.c || !f.t || !f.z || !f.n)
        return vks_test_finish("test_gpu_oom");
    const vks_skin *skins[5] = {f.a, f.c, f.t, f.z, f.n};
    memcpy(f.skins, skins, sizeof skins);
    f.one_a = (uint64_t)f.a->vertex_count * 12;
    f.mix[0] = (gpu_check_entry){f.a, 0, 12, 0, 41};
    f.mix[1] = (gpu_check_entry){f.c, 1, 20, 0, 42};

    uint32_t natural = natural_chunk(&f);
    over_cap(&f, natural);
    over_one_instance(&f);
    nth_fails(&f);
    lowered_range(&f);
    one_context(&f);

    vks_skin_free(f.a), vks_skin_free(f.c), vks_skin_free(f.t), vks_skin_free(f.z), vks_skin_free(f.n);
    return vks_test_finish("test_gpu_oom");
}
