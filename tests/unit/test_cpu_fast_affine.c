/* The baseline kernel's affine loop (src/cpu/fast_runs.h, fast_kernel.h) is taken only by runs
 * whose weights sum to 1: it computes sum_i w_i M_i + (1 - s) M_0, so a vertex whose weights
 * sum to s != 1 moved through it lands (1 - s) times a bone's placement away from the
 * reference. The DFF reader keeps weights as stored and the library's builder does not
 * rescale them, so such models reach the engine. A generated character is given:
 *   - a long stretch of vertices at half their weights (a run of its own, s = 0.5),
 *   - single vertices at 1.25 and 0.75 inside normalised stretches (too short for a run of
 *     their own: the run they are merged into must leave the affine loop),
 *   - vertices whose slot 0 is empty (weight 0, negative or NaN) and whose other slots sum
 *     to 1 (affine, with slot 0's matrix at weight about 0),
 *   - vertices with no positive weight at all (s = 0: both engines give the origin),
 *   - a stretch with slot 0 one unit in the last place heavier (within the bound: affine);
 * then every kernel this CPU has runs it against the reference, positions and normals, few
 * instances (each thread's own records) and many (shared records). With the bound on the sum
 * opened to 1 (every run of 1 or 2 slots affine), positions moved by up to 0.45 (the scale is
 * 1.85) and normals by up to 1, on 150 vertices of one instance. */
#include "testutil.h"

#include "character.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void compare(const vks_skin *s, uint32_t instances, int threads, const char *what)
{
    size_t nl = (size_t)instances * s->node_count, nf = (size_t)instances * s->vertex_count * 3;
    vks_affine *locals = malloc(nl * sizeof *locals);
    float *fp = malloc(nf * sizeof *fp), *fn = malloc(nf * sizeof *fn);
    float *rp = malloc(nf * sizeof *rp), *rn = malloc(nf * sizeof *rn);
    CHECK(locals && fp && fn && rp && rn);
    if (!(locals && fp && fn && rp && rn))
        goto out;
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(s, 9, i, 0.1f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
    vks_deform_job ref = {s, locals, instances, rp, rn, NULL}, fast = {s, locals, instances, fp, fn, NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&ref, &err) == VKS_OK);
    CHECK(vks_cpu_fast_run(&fast, threads, &err) == VKS_OK);
    vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
    vks_diff_report dp, dn;
    vks_diff(fp, rp, instances, s->vertex_count, vks_skin_error_scale(s), &tp, &dp);
    vks_diff(fn, rn, instances, s->vertex_count, 1.0, &tn, &dn);
    fprintf(stderr, "  %s, %s, %u instances: pos max %.3g (scale %.3g) over %llu, nrm max %.3g over %llu\n",
            vks_cpu_fast_path(), what, instances, dp.max_abs, vks_skin_error_scale(s),
            (unsigned long long)dp.over, dn.max_abs, (unsigned long long)dn.over);
    CHECK(dp.pass && dn.pass);
out:
    free(locals), free(fp), free(fn), free(rp), free(rn);
}

/* Vertex v's positive weights times f. */
static void scale_weights(vks_skin *s, uint32_t v, float f)
{
    for (int k = 0; k < VKS_MAX_INFLUENCES; k++)
        if (s->influences[v].weight[k] > 0)
            s->influences[v].weight[k] *= f;
}

/* Vertex v: slot 0 empty (odd: 0, -0.5 or NaN), slots 1 and 2 at 0.25 and 0.75 of two bones. */
static void empty_first_slot(vks_skin *s, uint32_t v, float odd)
{
    vks_influence *in = &s->influences[v];
    uint16_t a = in->index[0], b = in->index[1];
    memset(in->weight, 0, sizeof in->weight);
    in->weight[0] = odd, in->index[0] = b;
    in->weight[1] = 0.25f, in->index[1] = a;
    in->weight[2] = 0.75f, in->index[2] = b;
}

/* The generated 4-influence character as it comes (every run affine), then with the weights
 * above; the vertex numbers fall inside its one group. */
static void unnormalised(void)
{
    vks_gen_params p = {0};
    p.vertices = 3000, p.max_influences = 4, p.seed = 41;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(s->vertex_count >= 2000);
    compare(s, 13, 2, "weights as generated");
    for (uint32_t v = 100; v < 400; v++)
        scale_weights(s, v, 0.5f);
    scale_weights(s, 1000, 1.25f);
    scale_weights(s, 1500, 0.75f);
    for (uint32_t v = 1700; v < 1800; v++)
        empty_first_slot(s, v, v % 3 == 0 ? 0.0f : v % 3 == 1 ? -0.5f : (float)NAN);
    for (uint32_t v = 1850; v < 1900; v++)
        memset(s->influences[v].weight, 0, sizeof s->influences[v].weight);
    for (uint32_t v = 1950; v < 2000; v++) /* one unit of roundoff over 1, in slot 0 */
        s->influences[v].weight[0] = nextafterf(s->influences[v].weight[0], 2.0f);
    compare(s, 1, 2, "unnormalised weights");
    compare(s, 13, 2, "unnormalised weights");
    compare(s, 13, 1, "unnormalised weights");
    vks_skin_free(s);
}

int main(void)
{
    static const char *paths[] = {"baseline", "avx2", "avx512"};
    for (int pi = 0; pi < 3; pi++) {
        if (!vks_cpu_fast_set_path(paths[pi])) {
            fprintf(stderr, "kernel %s: not on this CPU or build, skipped\n", paths[pi]);
            continue;
        }
        unnormalised();
    }
    return vks_test_finish("test_cpu_fast_affine");
}
