/* UV sets and face textures of the real ODOL samples (issue 26), read in place from
 * ../shared/datasets/p3d/odol (skipped where absent). Ground truth, by a struct parse of the
 * file written for this test:
 *   - ace_headbanger.p3d (ODOL v73), LOD 0: UV set 0 at byte 2071 holds the range
 *     min (0.463, -0.127), max (1.048, 2.859) (4 f32), count 3, no default fill, an
 *     uncompressed block of three s16 pairs (-32767, -32767), (-32767, 32767), (32767, 32767):
 *     by the notes' u = min + (s + 32767) / 65534 (max - min) the UVs (0.463, -0.127),
 *     (0.463, 2.859), (1.048, 2.859), one per vertex of its one triangle. The file names no
 *     .paa or .rvmat (`strings`): its one section's material has neither.
 *   - ace_TracerRed2.p3d (ODOL v73), LOD 0: its texture list holds the asciiz
 *     "z\ace\addons\tracers\data\tracerred.paa" (byte 1015) and its one embedded material is
 *     named "z\ace\addons\tracers\data\slx_redtracer_material.rvmat" (byte 1059), which its
 *     sections use (`strings -t d`; the file's other .rvmat, at 2846, belongs to a later LOD). */
#include <math.h>
#include <string.h>

#include "testutil.h"

static vks_skin *load(const char *rel)
{
    const char *path = vks_test_dataset(rel);
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_read_file(NULL, path, &s, &err) != VKS_OK) {
        fprintf(stderr, "%s: %s\n", rel, err.msg);
        CHECK(0);
        return NULL;
    }
    CHECK_EQ_INT(vks_skin_validate(s, &err), VKS_OK);
    return s;
}

static void check_headbanger(void)
{
    static const float want[3][2] = {{0.463f, -0.127f}, {0.463f, 2.859f}, {1.048f, 2.859f}};
    vks_skin *s = load("p3d/odol/ace_headbanger.p3d");
    if (!s)
        return;
    CHECK_EQ_INT(s->vertex_count, 3);
    CHECK_EQ_INT(s->uv_set_count, 1);
    CHECK(s->mesh_count == 1 && s->meshes[0].uv_set_count == 1);
    int seen[3] = {0, 0, 0};
    for (uint32_t v = 0; v < s->vertex_count && s->uv[0]; v++)
        for (int k = 0; k < 3; k++)
            seen[k] += fabsf(s->uv[0][v][0] - want[k][0]) < 1e-6f && fabsf(s->uv[0][v][1] - want[k][1]) < 1e-6f;
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
    CHECK_EQ_INT(s->material_count, 1);
    CHECK(s->material_count && !s->materials[0].name[0] && !s->materials[0].base_texture[0]);
    vks_skin_free(s);
}

static void check_tracer(void)
{
    vks_skin *s = load("p3d/odol/ace_TracerRed2.p3d");
    if (!s)
        return;
    CHECK_EQ_INT(s->uv_set_count, 1);
    CHECK_EQ_INT(s->material_count, 1);
    for (uint32_t v = 0; v < s->vertex_count && s->uv[0]; v++) /* this texture does not tile */
        CHECK(s->uv[0][v][0] >= 0 && s->uv[0][v][0] <= 1 && s->uv[0][v][1] >= 0 && s->uv[0][v][1] <= 1);
    const vks_material *m = vks_skin_triangle_material(s, 0, 0);
    CHECK(m != NULL);
    if (m) {
        CHECK(!strcmp(m->base_texture, "z\\ace\\addons\\tracers\\data\\tracerred.paa"));
        CHECK(!strcmp(m->name, "z\\ace\\addons\\tracers\\data\\slx_redtracer_material.rvmat"));
        CHECK(m->base_image == -1 && m->base_uv_set == 0);
    }
    vks_skin_free(s);
}

int main(void)
{
    check_headbanger();
    check_tracer();
    return vks_test_finish("test_p3d_surface");
}
