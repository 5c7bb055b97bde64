/* The VAT sidecar (vat_write.h): what a shader needs to play the textures, as JSON with the
 * keys of the vkskin program's bake (docs/baking.md, "Batch baking"), written through the output
 * module. */
#include "vkskin/gltf.h"
#include "vkskin/output.h"
#include "vkskin/vat_write.h"
#include "vkskin/version.h"

#include "skin_axes.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_floats(cJSON *o, const char *key, const float *v, int n)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
}

void vks_vat_space(const vks_skin *skin, const char **up_axis, const char **handedness)
{
    vks_axes axes = vks__skin_axes(skin);
    *up_axis = axes == VKS_AXES_Z_UP ? "+z" : "+y";
    *handedness = axes == VKS_AXES_LEFT_Y_UP ? "left" : "right";
}

/* One unit is taken as one metre, as convert does when it writes glTF. */
static void add_space(cJSON *o, const vks_skin *skin)
{
    const char *up, *hand;
    vks_vat_space(skin, &up, &hand);
    cJSON_AddStringToObject(o, "up_axis", up);
    cJSON_AddStringToObject(o, "handedness", hand);
    cJSON_AddStringToObject(o, "unit", "metre");
}

static void add_clips(cJSON *root, const vks_vat_sidecar *s)
{
    static const char *const cycles[4] = {"loop", "clamp", "mirror", "reset"};
    uint32_t rpf = s->layout->rows_per_frame, split = s->part_count > 1 && s->frames_per_part;
    uint32_t per = split ? s->frames_per_part : UINT32_MAX;
    cJSON *a = cJSON_AddArrayToObject(root, "clips");
    for (uint32_t c = 0; c < s->clip_count; c++) {
        const vks_vat_sidecar_clip *sc = &s->clips[c];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", sc->name ? sc->name : "");
        cJSON_AddStringToObject(o, "file", sc->file ? sc->file : "");
        cJSON_AddNumberToObject(o, "index", sc->index); /* in its file: what finds an unnamed clip */
        cJSON_AddNumberToObject(o, "duration", sc->clip ? sc->clip->duration : 0);
        unsigned cy = sc->clip ? (unsigned)sc->clip->cycle : 0;
        cJSON_AddStringToObject(o, "cycle", cy < 4 ? cycles[cy] : "loop");
        cJSON_AddBoolToObject(o, "loop", cy == VKS_CYCLE_LOOP);
        cJSON_AddNumberToObject(o, "fps", s->fps);
        cJSON_AddNumberToObject(o, "start", sc->start);
        cJSON_AddNumberToObject(o, "end", sc->end);
        cJSON_AddNumberToObject(o, "first_frame", sc->first_frame);
        cJSON_AddNumberToObject(o, "frame_count", sc->frame_count);
        if (split)
            cJSON_AddNumberToObject(o, "part", sc->first_frame / per);
        cJSON_AddNumberToObject(o, "row", (double)(sc->first_frame % per) * rpf);
        cJSON_AddNumberToObject(o, "rows", (double)sc->frame_count * rpf);
        cJSON *fa = cJSON_AddArrayToObject(o, "frames");
        for (uint32_t f = 0; sc->times && f < sc->frame_count; f++) {
            cJSON *fo = cJSON_CreateObject();
            cJSON_AddNumberToObject(fo, "time", sc->times[f]);
            if (split)
                cJSON_AddNumberToObject(fo, "part", (sc->first_frame + f) / per);
            cJSON_AddNumberToObject(fo, "row", (double)((sc->first_frame + f) % per) * rpf);
            cJSON_AddItemToArray(fa, fo);
        }
        cJSON_AddItemToArray(a, o);
    }
}

/* Which UV set of each rest mesh (vks_vat_write_rest_obj, _glb) holds the lookup and which the
 * character's own UVs: the .glb follows Houdini's VAT and AnimToTexture (UV0 the character's,
 * UV1 the lookup; vks_gltf_bind_mesh_lookup_set), the OBJ holds one set only, the lookup. */
static void add_rest_mesh_uv(cJSON *root, const vks_skin *s)
{
    cJSON *uv = cJSON_AddObjectToObject(root, "rest_mesh_uv");
    cJSON *glb = cJSON_AddObjectToObject(uv, "glb"), *obj = cJSON_AddObjectToObject(uv, "obj");
    uint32_t at = vks_gltf_bind_mesh_lookup_set(s);
    cJSON_AddNumberToObject(glb, "lookup", at);
    cJSON *own = cJSON_AddArrayToObject(glb, "character");
    for (uint32_t k = 0; k < s->uv_set_count; k++)
        cJSON_AddItemToArray(own, cJSON_CreateNumber(k < at ? k : k + 1));
    cJSON_AddNumberToObject(obj, "lookup", 0);
    cJSON_AddArrayToObject(obj, "character"); /* OBJ has one vt per vertex: the character's UVs are not in it */
}

static cJSON *build(const vks_vat_sidecar *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "tool", s->tool ? s->tool : "vkskin");
    cJSON_AddStringToObject(o, "tool_version", vks_version_string());
    cJSON_AddStringToObject(o, "kind", s->kind ? s->kind : "vat");
    for (const char *const *e = s->extra; e && e[0] && e[1]; e += 2)
        cJSON_AddStringToObject(o, e[0], e[1]);
    cJSON_AddStringToObject(o, "model", s->model ? s->model : "");
    cJSON_AddStringToObject(o, "model_format", s->skin->format ? s->skin->format : "");
    cJSON_AddNumberToObject(o, "vertex_count", s->skin->vertex_count);
    cJSON_AddStringToObject(o, "vertex_order", "model");
    cJSON_AddNumberToObject(o, "bone_count", s->skin->bone_count);
    cJSON_AddNumberToObject(o, "frame_count", s->frame_count);
    cJSON_AddNumberToObject(o, "fps", s->fps);
    cJSON_AddStringToObject(o, "encoding", s->encoding ? s->encoding : "float32");
    add_space(o, s->skin);
    cJSON *files = cJSON_AddArrayToObject(o, "files");
    for (uint32_t i = 0; i < s->file_count; i++) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "path", s->files[i].path ? s->files[i].path : "");
        cJSON_AddStringToObject(f, "role", s->files[i].role ? s->files[i].role : "");
        cJSON_AddNumberToObject(f, "bytes", (double)s->files[i].bytes);
        cJSON_AddItemToArray(files, f);
    }
    cJSON *b = cJSON_AddObjectToObject(o, "bounds");
    add_floats(b, "min", s->bounds_min, 3);
    add_floats(b, "max", s->bounds_max, 3);
    const vks_vat_layout *l = s->layout;
    cJSON *lo = cJSON_AddObjectToObject(o, "layout");
    cJSON_AddNumberToObject(lo, "width", l->width);
    cJSON_AddNumberToObject(lo, "height", l->height);
    cJSON_AddNumberToObject(lo, "rows_per_frame", l->rows_per_frame);
    int split = s->part_count > 1 && s->frames_per_part;
    cJSON_AddStringToObject(lo, "texel", split ? "part = frame / frames_per_part; column = vertex % width, "
                                                 "row = (frame % frames_per_part) * rows_per_frame + vertex / width"
                                               : "column = vertex % width, row = frame * rows_per_frame + vertex / width");
    cJSON_AddBoolToObject(lo, "pow2", s->pow2); /* padded: texels past the last vertex and frame are 0 */
    if (split) {
        cJSON_AddNumberToObject(lo, "frames_per_part", s->frames_per_part);
        cJSON *pa = cJSON_AddArrayToObject(lo, "parts");
        for (uint32_t p = 0; p < s->part_count; p++) {
            const vks_vat_sidecar_part *sp = &s->parts[p];
            cJSON *po = cJSON_CreateObject();
            cJSON_AddNumberToObject(po, "first_frame", sp->first_frame);
            cJSON_AddNumberToObject(po, "frame_count", sp->frame_count);
            cJSON_AddNumberToObject(po, "height", sp->height);
            if (sp->position)
                cJSON_AddStringToObject(po, "position", sp->position);
            if (sp->normal)
                cJSON_AddStringToObject(po, "normal", sp->normal);
            cJSON_AddItemToArray(pa, po);
        }
    }
    /* texels are data: linear, never sRGB (the PNGs say so with gAMA 1.0) */
    cJSON_AddStringToObject(o, "color_space", "linear");
    if (s->encoding && !strcmp(s->encoding, "unorm16"))
        cJSON_AddStringToObject(o, "decode",
                                "position = min + code / 65535 * (max - min); normal = code / 65535 * 2 - 1");
    add_clips(o, s);
    add_rest_mesh_uv(o, s->skin);
    return o;
}

vks_result vks_vat_sidecar_write(const char *path, const vks_vat_sidecar *s, vks_error *err)
{
    if (!s || !s->skin || !s->layout || (s->clip_count && !s->clips) || (s->file_count && !s->files) ||
        (s->part_count && (!s->parts || !s->frames_per_part)))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "no skin, layout, clips or files");
    cJSON *o = build(s);
    char *text = o ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    vks_output *out = NULL;
    vks_result r = text ? vks_output_open(&out, path, err)
                        : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "no memory for the sidecar");
    if (r == VKS_OK) {
        size_t n = strlen(text);
        FILE *f = vks_output_stream(out);
        int ok = fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF;
        r = vks_output_close(out, ok, err);
    }
    free(text);
    return r;
}
