/* The VAT's rest mesh (vat_write.h): the bind pose, each vertex's UV its texel in frame 0, as
 * OBJ and as binary glTF. */
#include "vkskin/gltf.h"
#include "vkskin/output.h"
#include "vkskin/vat_write.h"

#include "core/float_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char line[VKS_TEXT_LINE_MAX];
    for (uint32_t v = 0; v < s->vertex_count; v++)
        fwrite(line, 1, vks_text_line(line, "v", s->positions[v], 3), f);
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        float uv[2];
        vks_vat_uv(lay, v, uv);
        uv[1] = 1.0f - uv[1]; /* OBJ's v = 0 is the bottom row */
        fwrite(line, 1, vks_text_line(line, "vt", uv, 2), f);
    }
    for (uint32_t v = 0; s->normals && v < s->vertex_count; v++)
        fwrite(line, 1, vks_text_line(line, "vn", s->normals[v], 3), f);
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        fprintf(f, "o %s\n", me->name[0] ? me->name : "mesh");
        for (uint32_t t = me->first_triangle; t < me->first_triangle + me->triangle_count; t++) {
            char face[2 + 3 * 3 * 11], *p = face; /* "f" and three " i/i/i" of up to 10 digits */
            *p++ = 'f';
            for (int k = 0; k < 3; k++) { /* " i/i/i", or " i/i" without normals */
                char num[VKS_FLOAT_TEXT_MAX];
                size_t nl = vks_u32_text(num, me->first_vertex + s->triangles[t][k] + 1);
                for (int c = 0; c < (s->normals ? 3 : 2); c++) {
                    *p++ = c ? '/' : ' ';
                    memcpy(p, num, nl);
                    p += nl;
                }
            }
            *p++ = '\n';
            fwrite(face, 1, (size_t)(p - face), f);
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
    vks_gltf_options o = {VKS_GLTF_GLB, 0, "vkskin bake (VAT rest mesh)", 0};
    vks_result r = vks_gltf_write_bind_mesh(path, skin, uv, &o, err);
    free(uv);
    return r;
}
