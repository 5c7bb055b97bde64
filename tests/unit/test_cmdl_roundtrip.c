/* .cmdl writer -> reader round trips on the generator's characters (smooth sets with up to 4
 * influences, rigid sets from 1-influence characters, palettes of at most 20 bones), plain
 * and quantized streams, lists and strips. Each read-back model must validate, pass the
 * bind-pose check, and deform like the original under procedural poses. Then truncation at
 * every byte of a small document (and sampled prefixes of a character), corruption of every
 * byte, and the writer's refusals. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "character.h"

/* World bind of node n (double). */
static vks_affine_d world_bind(const vks_skin *s, uint32_t n)
{
    vks_affine_d w = vks_affine_d_from(&s->nodes[n].bind_local);
    for (int32_t p = s->nodes[n].parent; p >= 0; p = s->nodes[p].parent) {
        vks_affine_d l = vks_affine_d_from(&s->nodes[p].bind_local);
        w = vks_affine_d_mul(&l, &w);
    }
    return w;
}

/* Deforms both models with the same procedural poses and compares per file vertex. The
   reader gives model-space results; the original's are in its skin space, which differs by
   the (unposed) space node's bind world. Returns the largest error relative to the radius. */
static double compare_posed(const vks_skin *orig, const vks_skin *back, uint32_t instances)
{
    uint32_t n = orig->node_count;
    vks_affine *locals = malloc((size_t)instances * n * sizeof *locals);
    float *po = malloc((size_t)instances * orig->vertex_count * 3 * sizeof *po);
    float *pb = malloc((size_t)instances * back->vertex_count * 3 * sizeof *pb);
    for (uint32_t i = 0; i < instances; i++)
        vks_pose_procedural(orig, 7, i, 0.25f * (float)i, 0.0f, locals + (size_t)i * n);
    vks_error err = {0};
    vks_deform_job jo = {orig, locals, instances, po, NULL, NULL}, jb = {back, locals, instances, pb, NULL, NULL};
    CHECK(vks_cpu_reference_run(&jo, &err) == VKS_OK);
    CHECK(vks_cpu_reference_run(&jb, &err) == VKS_OK);
    const vks_mesh *me = &orig->meshes[0];
    vks_affine_d to_model = me->space_node >= 0 ? world_bind(orig, (uint32_t)me->space_node) : vks_affine_d_identity();
    double worst = 0;
    for (uint32_t i = 0; i < instances; i++)
        for (uint32_t v = 0; v < back->vertex_count; v++) {
            uint32_t ov = me->first_vertex + back->source_vertex[v];
            const float *a = &po[((size_t)i * orig->vertex_count + ov) * 3];
            const float *b = &pb[((size_t)i * back->vertex_count + v) * 3];
            for (int k = 0; k < 3; k++) {
                const double *m = to_model.m;
                double am = m[k] * a[0] + m[3 + k] * a[1] + m[6 + k] * a[2] + m[9 + k];
                double e = fabs(am - b[k]);
                if (e > worst || e != e)
                    worst = e;
            }
        }
    free(locals), free(po), free(pb);
    return worst / vks_skin_bounding_radius(back);
}

/* Issue 26: TextureCoordinate0 gives back UV set 0 (written 1 - v, flipped back: float
   rounding of the two subtractions apart) and the materials keep the model's names. */
static void check_surface(const vks_skin *orig, const vks_skin *back)
{
    CHECK_EQ_INT(back->uv_set_count, 1);
    CHECK_EQ_INT(back->meshes[0].uv_set_count, 1);
    uint32_t bad = 0;
    const vks_mesh *me = &orig->meshes[0];
    for (uint32_t v = 0; back->uv_set_count == 1 && v < back->vertex_count; v++) {
        const float *a = orig->uv[0][me->first_vertex + back->source_vertex[v]], *b = back->uv[0][v];
        bad += fabsf(a[0] - b[0]) > 0 || fabsf(a[1] - b[1]) > 1e-7f;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(back->material_count, orig->material_count);
    for (uint32_t m = 0; m < back->material_count && m < orig->material_count; m++)
        CHECK(!strcmp(back->materials[m].name, orig->materials[m].name));
    const vks_material *ma = vks_skin_triangle_material(orig, 0, 0), *mb = vks_skin_triangle_material(back, 0, 0);
    CHECK(ma && mb && !strcmp(ma->name, mb->name));
}

static void round_trip(uint32_t max_influences, int quantize, int strips)
{
    vks_gen_params gp = {0};
    gp.bones = 32;
    gp.vertices = 1500;
    gp.max_influences = max_influences;
    gp.palette_limit = 20;
    gp.materials = 3;
    vks_error err = {0};
    vks_skin *orig = vks_gen_character(&gp, &err);
    CHECK(orig != NULL);
    if (!orig) {
        fprintf(stderr, "generator: %s: %s\n", err.path, err.msg);
        return;
    }
    vks_write_options wo = {0};
    wo.quantize = quantize;
    wo.triangle_strips = strips;
    uint8_t *bytes = NULL;
    size_t size = 0;
    CHECK(vks_cmdl_write(orig, &wo, &bytes, &size, &err) == VKS_OK);
    vks_skin *back = NULL;
    if (bytes) {
        CHECK(vks_detect_format(bytes, size, NULL, NULL) == vks_cmdl_read);
        if (vks_cmdl_read(NULL, bytes, size, &back, &err) != VKS_OK)
            fprintf(stderr, "read back: %s: %s\n", err.path, err.msg);
    }
    CHECK(back != NULL);
    if (back) {
        vks_error e2 = {0};
        CHECK(vks_skin_validate(back, &e2) == VKS_OK);
        CHECK_EQ_INT(back->node_count, orig->node_count);
        CHECK_EQ_INT(back->mesh_count, orig->mesh_count);
        CHECK_EQ_INT(back->vertex_count, orig->vertex_count);
        CHECK_EQ_INT(back->triangle_count, orig->triangle_count);
        CHECK_EQ_INT(back->group_count, orig->group_count);
        uint32_t rigid = 0;
        for (uint32_t g = 0; g < back->group_count; g++) {
            rigid += (back->groups[g].flags & VKS_GROUP_RIGID) != 0;
            CHECK(back->groups[g].palette_count <= 20);
        }
        if (max_influences == 1)
            CHECK_EQ_INT(rigid, back->group_count);
        CHECK(back->triangle_material != NULL);
        vks_bind_check bc;
        CHECK(vks_cpu_bind_check(back, &bc, &err) == VKS_OK);
        double posed = compare_posed(orig, back, 4);
        /* plain: float32 text round trip; quantized: 1/32760 of the extent for positions and
           1% weight steps, which move a vertex by at most a few percent of a bone's swing */
        double tol = quantize ? 2e-2 : 1e-4;
        printf("influences %u quantize %d strips %d: %zu bytes, %u vertices, %u groups (%u rigid), "
               "bind error %.3g (rel %.3g), posed error rel %.3g\n",
               max_influences, quantize, strips, size, back->vertex_count, back->group_count, rigid,
               bc.max_error, bc.max_error_relative, posed);
        CHECK(posed <= tol);
        check_surface(orig, back);
        if (!rigid)
            CHECK(bc.max_error_relative <= (quantize ? 1e-3 : 1e-5));
        vks_skin_free(back);
    }
    free(bytes);
    vks_skin_free(orig);
}

static void truncations_and_corruptions(void)
{
    size_t size = 0;
    uint8_t *doc = vks_test_read_file(vks_test_source_path("tests/data/cmdl/smooth_rigid_none.cmdl"), &size);
    CHECK(doc != NULL);
    if (doc) {
        vks_skin *s = NULL;
        vks_error err = {0};
        CHECK(vks_cmdl_read(NULL, doc, size, &s, &err) == VKS_OK);
        vks_skin_free(s);
        CHECK_EQ_INT(vks_test_truncations(vks_cmdl_read, NULL, doc, size, 1u << 16, NULL, 0, 0), 0);
        CHECK_EQ_INT(vks_test_corruptions(vks_cmdl_read, NULL, doc, size, NULL, 0, 1), 0);
        free(doc);
    }
    /* a generated character: every structure boundary is a line end; sample prefixes */
    vks_gen_params gp = {0};
    gp.palette_limit = 20;
    gp.vertices = 400;
    vks_skin *orig = vks_gen_character(&gp, NULL);
    uint8_t *bytes = NULL;
    size_t n = 0;
    vks_write_options wo = {.quantize = 1, .triangle_strips = 1};
    if (orig && vks_cmdl_write(orig, &wo, &bytes, &n, NULL) == VKS_OK) {
        size_t lines[64], nl = 0;
        for (size_t i = 0; i < n && nl < 64; i += 1 + n / 64)
            lines[nl++] = i;
        CHECK_EQ_INT(vks_test_truncations(vks_cmdl_read, NULL, bytes, n, 0, lines, nl, 200), 0);
    } else
        CHECK(0);
    free(bytes);
    vks_skin_free(orig);
}

static void writer_refusals(void)
{
    vks_gen_params gp = {0};
    gp.palette_limit = 0; /* one group with all 32 bones: over the PICA200 palette of 20 */
    vks_skin *s = vks_gen_character(&gp, NULL);
    CHECK(s != NULL);
    uint8_t *bytes = NULL;
    size_t n = 0;
    vks_error err = {0};
    CHECK(vks_cmdl_write(s, NULL, &bytes, &n, &err) == VKS_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "NW4C allows 20") != NULL);
    CHECK(bytes == NULL);
    vks_skin_free(s);
}

int main(void)
{
    for (int q = 0; q < 2; q++)
        for (int st = 0; st < 2; st++)
            round_trip(4, q, st);
    round_trip(1, 0, 0);
    round_trip(1, 1, 1);
    round_trip(2, 1, 0);
    truncations_and_corruptions();
    writer_refusals();
    return vks_test_finish("test_cmdl_roundtrip");
}
