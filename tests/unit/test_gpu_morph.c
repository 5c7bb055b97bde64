/* Morph targets on the GPU (compute/morph.glsl) against the CPU reference, validation layer on:
 * a generated character with three targets (one at a non-zero default weight, so the uploaded
 * rest is moved) deformed
 *   - by the deform job with weights per instance (zero, negative, above one), and with none
 *     (every instance at the defaults);
 *   - in one batch with a model without targets (its offsets, and the morph slots before the
 *     other model's locals), on the project's kernel and on the plain one.
 * Exits 77 without a device. */
#include "character.h"
#include "gpu_check.h"
#include "morph_fixture.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#define INSTANCES 13u

static float weight_of(uint32_t i, uint32_t t)
{
    return (float)((int)((i * 3 + t) % 5) - 1) * 0.75f;
}

typedef struct batch_ctx {
    const vks_skin *skin[2];
    float *ref[2];
    double worst;
    int fail;
} batch_ctx;

static void get_locals(void *user, uint32_t entry, uint32_t inst, vks_affine *out)
{
    batch_ctx *c = user;
    vks_pose_procedural(c->skin[entry], 5, inst, 0.1f * (float)inst, 0.0f, out);
}

static void get_weights(void *user, uint32_t entry, uint32_t inst, float *out)
{
    batch_ctx *c = user;
    for (uint32_t t = 0; t < c->skin[entry]->target_count; t++)
        out[t] = weight_of(inst, t);
}

static int deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    batch_ctx *c = user;
    const vks_skin *s = c->skin[entry];
    vks_diff_tolerance tp = vks_diff_default_tolerance();
    vks_diff_report r;
    (void)n;
    vks_diff(p, c->ref[entry] + vks_deform_index(s, first, 0) * 3, count, s->vertex_count, vks_skin_error_scale(s),
             &tp, &r);
    c->worst = r.max_abs > c->worst ? r.max_abs : c->worst;
    c->fail |= !r.pass;
    return 0;
}

/* The reference of entry e's instances (weights per instance where the model has targets). */
static float *reference(const vks_skin *s)
{
    vks_affine *locals = malloc((size_t)INSTANCES * s->node_count * sizeof *locals);
    float *w = malloc((size_t)INSTANCES * (s->target_count + 1) * sizeof *w);
    float *out = malloc((size_t)INSTANCES * s->vertex_count * 3 * sizeof *out);
    CHECK(locals && w && out);
    for (uint32_t i = 0; i < INSTANCES; i++) {
        vks_pose_procedural(s, 5, i, 0.1f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
        for (uint32_t t = 0; t < s->target_count; t++)
            w[i * s->target_count + t] = weight_of(i, t);
    }
    vks_deform_job j = {s, locals, INSTANCES, out, NULL, s->target_count ? w : NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    free(locals), free(w);
    return out;
}

static void job(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *s, int per_instance)
{
    size_t nf = (size_t)INSTANCES * s->vertex_count * 3;
    vks_affine *locals = malloc((size_t)INSTANCES * s->node_count * sizeof *locals);
    float *w = malloc((size_t)INSTANCES * s->target_count * sizeof *w);
    float *gp = malloc(nf * sizeof *gp), *gn = malloc(nf * sizeof *gn), *rp = malloc(nf * sizeof *rp);
    float *rn = malloc(nf * sizeof *rn);
    CHECK(locals && w && gp && gn && rp && rn);
    for (uint32_t i = 0; i < INSTANCES; i++) {
        vks_pose_procedural(s, 5, i, 0.1f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
        for (uint32_t t = 0; t < s->target_count; t++)
            w[i * s->target_count + t] = weight_of(i, t);
    }
    vks_deform_job g = {s, locals, INSTANCES, gp, gn, per_instance ? w : NULL};
    vks_deform_job r = {s, locals, INSTANCES, rp, rn, per_instance ? w : NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&r, &err) == VKS_OK);
    CHECK(vks_gpu_run_job(gpu, ms, 0, &g, NULL, &err) == VKS_OK);
    vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
    vks_diff_report dp, dn;
    vks_diff(gp, rp, INSTANCES, s->vertex_count, vks_skin_error_scale(s), &tp, &dp);
    vks_diff(gn, rn, INSTANCES, s->vertex_count, 1.0, &tn, &dn);
    fprintf(stderr, "  job, %s: pos max %.3g, nrm max %.3g\n", per_instance ? "weights per instance" : "default weights",
            dp.max_abs, dn.max_abs);
    CHECK(dp.pass && dn.pass);
    free(locals), free(w), free(gp), free(gn), free(rp), free(rn);
}

static void batch(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *a, const vks_skin *b, vks_gpu_kernel k)
{
    batch_ctx c = {{a, b}, {reference(a), reference(b)}, 0, 0};
    vks_gpu_batch_entry e[2] = {{0, INSTANCES, NULL}, {1, INSTANCES, NULL}};
    vks_gpu_batch bt = {0};
    bt.entries = e, bt.entry_count = 2, bt.get_locals = get_locals, bt.deliver = deliver, bt.user = &c;
    bt.get_weights = get_weights, bt.kernel = k;
    vks_error err = {0};
    CHECK(vks_gpu_run(gpu, ms, &bt, NULL, &err) == VKS_OK);
    fprintf(stderr, "  batch of two models, %s kernel: pos max %.3g\n", k == VKS_GPU_KERNEL_PLAIN ? "plain" : "default",
            c.worst);
    CHECK(!c.fail);
    free(c.ref[0]), free(c.ref[1]);
}

int main(void)
{
    vks_gpu *gpu = gpu_check_context(VKS_GPU_FAULT_NONE, 0);
    vks_error err = {0};
    vks_gen_params p = {0};
    p.vertices = 3000, p.palette_limit = 12, p.seed = 3;
    vks_skin *s = vks_gen_character(&p, &err), *plain = vks_gen_character(&p, &err);
    CHECK(s && plain && morph_fixture_targets(s, 3));
    if (!s || !plain)
        return vks_test_finish("test_gpu_morph");
    s->targets[1].default_weight = 0.5f; /* the uploaded rest moves */
    CHECK(vks_skin_validate(s, &err) == VKS_OK);
    const vks_skin *set[2] = {s, plain};
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(gpu, set, 2, &ms, &err) == VKS_OK);
    if (ms) {
        job(gpu, ms, s, 1);
        job(gpu, ms, s, 0);
        batch(gpu, ms, s, plain, VKS_GPU_KERNEL_DEFAULT);
        batch(gpu, ms, s, plain, VKS_GPU_KERNEL_PLAIN);
        vks_gpu_models_free(ms);
    }
    vks_skin_free(s), vks_skin_free(plain);
    vks_gpu_destroy(gpu);
    return vks_test_finish("test_gpu_morph");
}
