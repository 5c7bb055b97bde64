/* vkskin.bake_vat's files: a vertex animation texture of frames already deformed (the
 * positions texture, OpenEXR float where the library has OpenEXR, else 16-bit PNG), its rest
 * mesh (OBJ) and its JSON sidecar, through the library's writers (vat_write.h), as
 * examples/bake_vat.c writes them; and any baked texture read back (vat_read.h). */
#include "vkskin_py.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

typedef struct vat_job {
    const vks_skin *skin;
    const float *frames; /* frame_count * vertex_count * 3 */
    uint32_t frame_count;
    const vks_clip *clip;
    const float *times;  /* clip times, one per frame */
    const char *dir, *model_name, *clip_file;
    char tex[1024], obj[1024], json[1024];
    const char *tex_name;
} vat_job;

static vks_result write_texture(vat_job *j, const vks_vat_layout *lay, vks_vat_sidecar *sc, vks_error *err)
{
    float *texels = malloc(vks_vat_texel_floats(lay) * sizeof *texels);
    if (!texels)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vat", "out of memory");
    vks_vat_texels(j->frames, lay, texels);
    vks_vat_bounds(j->frames, (size_t)j->frame_count * j->skin->vertex_count, sc->bounds_min, sc->bounds_max);
    int exr = vks_vat_exr_available();
    j->tex_name = exr ? "vat.pos.f32.exr" : "vat.pos.png";
    snprintf(j->tex, sizeof j->tex, "%s/%s", j->dir, j->tex_name);
    vks_result r;
    if (exr) {
        r = vks_vat_exr_write(j->tex, texels, lay->width, lay->height, 3, VKS_VAT_TEXEL_FLOAT, err);
    } else {
        uint16_t *codes = malloc(vks_vat_texel_floats(lay) * sizeof *codes);
        r = codes ? VKS_OK : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vat", "out of memory");
        if (r == VKS_OK) {
            vks_vat_quantize_texels(texels, (size_t)lay->width * lay->height, sc->bounds_min, sc->bounds_max, codes);
            r = vks_vat_png16_write(j->tex, codes, lay->width, lay->height, err);
        }
        free(codes);
    }
    free(texels);
    sc->kind = exr ? "vat-exr-float" : "vat-png16";
    sc->encoding = exr ? "float32" : "unorm16";
    return r;
}

static vks_result write_vat(vat_job *j, vks_error *err)
{
    vks_vat_layout lay;
    vks_vat_sidecar sc = {0};
    vks_result r = vks_vat_layout_make(j->skin->vertex_count, j->frame_count, 0, &lay, err);
    if (r == VKS_OK)
        r = write_texture(j, &lay, &sc, err);
    snprintf(j->obj, sizeof j->obj, "%s/vat.obj", j->dir);
    snprintf(j->json, sizeof j->json, "%s/vat.json", j->dir);
    if (r == VKS_OK)
        r = vks_vat_write_rest_obj(j->obj, j->skin, &lay, j->model_name, err);
    if (r != VKS_OK)
        return r;
    const vks_clip *c = j->clip;
    vks_vat_sidecar_clip scl = {c->name, j->clip_file, 0, c, j->times[0], j->times[j->frame_count - 1], 0,
                                j->frame_count, j->times};
    vks_vat_sidecar_file files[2] = {{j->tex_name, "position", file_bytes(j->tex)},
                                     {"vat.obj", "rest mesh (OBJ, vt = texel)", file_bytes(j->obj)}};
    sc.tool = "vkskin (Python)";
    sc.model = j->model_name, sc.skin = j->skin, sc.frame_count = j->frame_count;
    double span = (double)j->times[j->frame_count - 1] - j->times[0];
    sc.fps = span > 0 ? (j->frame_count - 1) / span : 0;
    sc.layout = &lay;
    sc.clips = &scl, sc.clip_count = 1, sc.files = files, sc.file_count = 2;
    return vks_vat_sidecar_write(j->json, &sc, err);
}

/* vat_write(model, positions (frames, vertices, 3) float32, out_dir, clips, clip, times (frames,)
 *           float32, model_name, clip_file) -> dict of the files written */
PyObject *vkspy_vat_write(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *model, *clips, *dir_obj;
    PyArrayObject *pos, *times;
    unsigned clip_index;
    const char *model_name, *clip_file;
    if (!PyArg_ParseTuple(args, "O!O!O&O!IO!ss", &vkspy_model_type, &model, &PyArray_Type, &pos,
                          PyUnicode_FSConverter, &dir_obj, &vkspy_clips_type, &clips, &clip_index, &PyArray_Type,
                          &times, &model_name, &clip_file))
        return NULL;
    vat_job j = {0};
    j.skin = ((vkspy_model *)model)->skin;
    const vks_clip_set *set = ((vkspy_clips *)clips)->set;
    npy_intp f = PyArray_DIM(pos, 0);
    if (PyArray_TYPE(pos) != NPY_FLOAT32 || !PyArray_IS_C_CONTIGUOUS(pos) || PyArray_NDIM(pos) != 3 || f < 2 ||
        PyArray_DIM(pos, 1) != (npy_intp)j.skin->vertex_count || PyArray_DIM(pos, 2) != 3 ||
        PyArray_TYPE(times) != NPY_FLOAT32 || PyArray_NDIM(times) != 1 || PyArray_DIM(times, 0) != f ||
        !PyArray_IS_C_CONTIGUOUS(times) || clip_index >= set->clip_count) {
        Py_DECREF(dir_obj);
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, "vat_write: positions (frames >= 2, %u, 3) and times (frames,) "
                                "float32, clip in the file", j.skin->vertex_count);
    }
    j.frames = PyArray_DATA(pos), j.frame_count = (uint32_t)f, j.times = PyArray_DATA(times);
    j.clip = &set->clips[clip_index];
    j.dir = PyBytes_AS_STRING(dir_obj), j.model_name = model_name, j.clip_file = clip_file;
    vks_error err = {0};
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = write_vat(&j, &err);
    Py_END_ALLOW_THREADS
    PyObject *out = r == VKS_OK ? Py_BuildValue("{s:y,s:y,s:y}", "texture", j.tex, "mesh", j.obj, "sidecar", j.json)
                                : vkspy_raise(&err, NULL);
    Py_DECREF(dir_obj);
    return out;
}

/* read_vat(path) -> (bytes, height, width, channels, "float32" | "uint16"): a baked texture read
 * back through vat_read.h (OpenEXR: every R, G, B[, A] as floats; 16-bit PNG: RGB codes), told
 * apart by the file's first bytes. */
PyObject *vkspy_vat_read(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    unsigned char magic[4] = {0};
    FILE *f = fopen(path, "rb");
    int exr = f && fread(magic, 1, 4, f) == 4 && !memcmp(magic, "\x76\x2f\x31\x01", 4);
    if (f)
        fclose(f);
    void *texels = NULL;
    uint32_t w = 0, h = 0;
    int channels = exr ? 0 : 3;
    vks_error err = {0};
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = exr ? vks_vat_exr_read(path, &channels, (float **)&texels, &w, &h, &err)
            : vks_vat_png16_read(path, (uint16_t **)&texels, &w, &h, &err);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (r != VKS_OK)
        vkspy_raise(&err, path);
    else
        out = Py_BuildValue("(y#IIis)", (const char *)texels,
                            (Py_ssize_t)((size_t)w * h * (size_t)channels * (exr ? 4 : 2)), h, w, channels,
                            exr ? "float32" : "uint16");
    free(texels);
    Py_DECREF(path_obj);
    return out;
}
