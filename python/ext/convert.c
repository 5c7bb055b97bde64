/* vkskin.convert(): a model and its clip files as glTF 2.0 through the library's convert.h, the
 * notes and warnings it says collected into a list (vkskin/_api.py hands them back), the GIL
 * released while it reads and writes. */
#include "vkskin_py.h"

#include <stdlib.h>
#include <string.h>

#include <vkskin/convert.h>

/* The words said during the call, kept in order (errors come back as the exception). */
typedef struct said {
    char **lines;
    size_t count, cap;
} said;

static void keep_words(void *user, vks_log_level level, const char *msg)
{
    said *s = user;
    if (level == VKS_LOG_ERROR)
        return;
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        char **l = realloc(s->lines, cap * sizeof *l);
        if (!l)
            return; /* a note lost to memory; the conversion goes on */
        s->lines = l, s->cap = cap;
    }
    if ((s->lines[s->count] = strdup(msg)))
        s->count++;
}

static PyObject *words_list(said *s)
{
    PyObject *l = PyList_New((Py_ssize_t)s->count);
    for (size_t i = 0; l && i < s->count; i++) {
        PyObject *t = PyUnicode_DecodeUTF8(s->lines[i], (Py_ssize_t)strlen(s->lines[i]), "replace");
        if (!t) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, t);
    }
    return l;
}

static PyObject *report_dict(const vks_gltf_report *r, said *s)
{
    PyObject *notes = words_list(s);
    if (!notes)
        return NULL;
    return Py_BuildValue("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:K,s:N}", "meshes", r->meshes, "joints",
                         r->joints, "nodes", r->nodes, "skins", r->skins, "animations", r->animations, "channels_kept",
                         r->channels_kept, "channels_resampled", r->channels_resampled, "weights_normalised",
                         r->weights_normalised, "normals_replaced", r->normals_replaced, "uv_sets", r->uv_sets,
                         "materials", r->materials, "images", r->images, "bytes", (unsigned long long)r->bytes,
                         "notes", notes);
}

/* convert(model, out, clips [str...], fps, clip_fps, clip_duration, max_input_mb) -> report dict */
PyObject *vkspy_convert(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *model, *list;
    const char *out;
    float fps, clip_fps, clip_duration;
    unsigned long long max_mb;
    if (!PyArg_ParseTuple(args, "O!sO!fffK", &vkspy_model_type, &model, &out, &PyList_Type, &list, &fps, &clip_fps,
                          &clip_duration, &max_mb))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    const char **sources = calloc((size_t)n + 1, sizeof *sources);
    if (!sources)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(sources[i] = PyUnicode_AsUTF8(PyList_GET_ITEM(list, i)))) {
            free(sources);
            return NULL;
        }
    const vks_skin *skin = ((vkspy_model *)model)->skin;
    const char *name = PyUnicode_AsUTF8(((vkspy_model *)model)->path);
    said words = {0};
    vks_convert_options o = {.logger = {keep_words, &words}};
    o.read.file.max_size = max_mb << 20, o.read.clip.fps = clip_fps, o.read.clip.duration = clip_duration;
    vks_gltf_options g = {.fps = fps};
    vks_gltf_report rep = {0};
    vks_convert_clips *clips = NULL;
    vks_error err = {0};
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = vks_convert_clips_read(skin, sources, (uint32_t)n, &o, &clips, &err);
    if (r == VKS_OK)
        r = vks_convert_write(out, name, skin, clips, &g, &o, &rep, &err);
    vks_convert_clips_free(clips);
    Py_END_ALLOW_THREADS
    PyObject *res = r == VKS_OK ? report_dict(&rep, &words) : vkspy_raise(&err, NULL);
    for (size_t i = 0; i < words.count; i++)
        free(words.lines[i]);
    free(words.lines), free(sources);
    return res;
}
