/* The VAT's rest mesh (vat_write.h): the bind pose, each vertex's UV its texel in frame 0, as
 * OBJ and as binary glTF. */
#include "vkskin/gltf.h"
#include "vkskin/output.h"
#include "vkskin/vat_write.h"

#include <stdio.h>
#include <stdlib.h>

vks_result vks_vat_write_rest_obj(const char *path, const vks_skin *s, const vks_vat_layout *lay, const char *model,
                                  vks_error *err)
{
    vks_output *o = NULL;
    vks_result r = vks_output_open(&o, path, err);
    if (r != VKS_OK)
        return r;
    FILE *f = vks_output_stream(o);
    fprintf(f, "# vkskin bake: rest mesh of %s; vt addresses each vertex's texel in frame 0 of the VAT\n"
               "# (v counts from the bottom, the first row at the top: a shader subtracts\n"
               "# frame * rows_per_frame / height from v to reach frame `frame`)\n",
            model ? model : "the model");
    for (uint32_t v = 0; v < s->vertex_count; v++)
        fprintf(f, "v %.9g %.9g %.9g\n", s->positions[v][0], s->positions[v][1], s->positions[v][2]);
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        float uv[2];
        vks_vat_uv(lay, v, uv);
        fprintf(f, "vt %.9g %.9g\n", uv[0], 1.0f - uv[1]); /* OBJ's v = 0 is the bottom row */
    }
    for (uint32_t v = 0; s->normals && v < s->vertex_count; v++)
        fprintf(f, "vn %.9g %.9g %.9g\n", s->normals[v][0], s->normals[v][1], s->normals[v][2]);
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        fprintf(f, "o %s\n", me->name[0] ? me->name : "mesh");
        for (uint32_t t = me->first_triangle; t < me->first_triangle + me->triangle_count; t++) {
            fputc('f', f);
            for (int k = 0; k < 3; k++) {
                uint32_t i = me->first_vertex + s->triangles[t][k] + 1;
                if (s->normals)
                    fprintf(f, " %u/%u/%u", i, i, i);
                else
                    fprintf(f, " %u/%u", i, i);
            }
            fputc('\n', f);
        }
    }
    return vks_output_close(o, !ferror(f), err);
}

vks_result vks_vat_write_rest_glb(const char *path, const vks_skin *skin, const vks_vat_layout *lay, vks_error *err)
{
    uint32_t nv = skin->vertex_count;
    float *uv = malloc(((size_t)nv + 1) * 2 * sizeof *uv);
    if (!uv)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "no memory for %u UVs", nv);
    for (uint32_t v = 0; v < nv; v++)
        vks_vat_uv(lay, v, uv + (size_t)v * 2);
    vks_gltf_options o = {VKS_GLTF_GLB, 0, "vkskin bake (VAT rest mesh)"};
    vks_result r = vks_gltf_write_bind_mesh(path, skin, uv, &o, err);
    free(uv);
    return r;
}
