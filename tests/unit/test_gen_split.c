/* A character split into several meshes (for formats with 16-bit indices) is the same body:
 * every mesh under the cap, whole limbs per mesh, the same file vertices in the same order,
 * a bind check as good as the unsplit one, and every split writes and reads back in the
 * formats that need it. */
#include <string.h>

#include "character.h"
#include "testutil.h"

int main(void)
{
    vks_error err = {0};
    vks_gen_params p = {.bones = 48, .vertices = 20000, .palette_limit = 20};
    vks_skin *one = vks_gen_character(&p, &err);
    p.max_mesh_vertices = 5000;
    vks_skin *many = vks_gen_character(&p, &err);
    CHECK(one && many);
    if (!one || !many)
        return vks_test_finish("test_gen_split");
    CHECK_EQ_INT(one->mesh_count, 1);
    CHECK(many->mesh_count >= 4);
    uint32_t total = 0;
    for (uint32_t m = 0; m < many->mesh_count; m++) {
        CHECK(many->meshes[m].source_vertex_count <= 5000);
        CHECK_EQ_INT(many->meshes[m].bone_count, one->meshes[0].bone_count);
        total += many->meshes[m].source_vertex_count;
    }
    CHECK_EQ_INT(total, one->meshes[0].source_vertex_count);
    CHECK_EQ_INT(many->triangle_count, one->triangle_count);
    /* the first file vertex of each part is the next one of the unsplit body */
    uint32_t base = 0;
    for (uint32_t m = 0; m < many->mesh_count; m++) {
        const vks_mesh *me = &many->meshes[m];
        for (uint32_t v = me->first_vertex; v < me->first_vertex + me->vertex_count; v++) {
            if (many->source_vertex[v] != 0)
                continue;
            for (uint32_t u = 0; u < one->vertex_count; u++)
                if (one->source_vertex[u] == base) {
                    CHECK(memcmp(one->positions[u], many->positions[v], 12) == 0);
                    break;
                }
            break;
        }
        base += me->source_vertex_count;
    }
    vks_bind_check bc;
    CHECK(vks_cpu_bind_check(many, &bc, &err) == VKS_OK);
    CHECK(bc.max_error_relative < 1e-6);
    CHECK(vks_skin_validate(many, &err) == VKS_OK);

    /* formats with 16-bit indices take the split body */
    vks_write_options wo = {0};
    struct {
        const char *name;
        vks_result (*write)(const vks_skin *, const vks_write_options *, uint8_t **, size_t *, vks_error *);
        vks_reader_fn read;
    } fmts[] = {{"dff", vks_rw_write, vks_rw_read}, {"nif", vks_nif_write, vks_nif_read},
                {"cmdl", vks_cmdl_write, vks_cmdl_read}};
    for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++) {
        uint8_t *bytes = NULL;
        size_t size = 0;
        memset(&err, 0, sizeof err);
        vks_result r = fmts[f].write(many, &wo, &bytes, &size, &err);
        if (r != VKS_OK)
            fprintf(stderr, "%s: %s: %s\n", fmts[f].name, err.path, err.msg);
        CHECK(r == VKS_OK);
        vks_skin *back = NULL;
        if (r == VKS_OK) {
            CHECK(fmts[f].read(NULL, bytes, size, &back, &err) == VKS_OK);
            if (back) {
                CHECK_EQ_INT(back->mesh_count, many->mesh_count);
                CHECK_EQ_INT(back->triangle_count, many->triangle_count);
                CHECK(vks_cpu_bind_check(back, &bc, &err) == VKS_OK && bc.max_error_relative < 1e-6);
            }
        }
        vks_skin_free(back);
        free(bytes);
    }
    vks_skin_free(one);
    vks_skin_free(many);
    return vks_test_finish("test_gen_split");
}
