/* Crowds for vkskin.deform: a crowd file's entries as Python data (crowd_parse), and the
 * roots the CPU engines apply after deforming (the GPU's crowd applies them itself).
 * Every entry: its clip, start, speed, cycle and root, and its layers (with their masks and
 * additive references), transition and root motion; vkskin/_api.py makes them deform's plays. */
#include "vkskin_py.h"

#include <math.h>
#include <stdlib.h>

static PyObject *layer_tuple(const vks_crowd_entry_layer *y)
{
    return Py_BuildValue("(iddiidiziid)", y->clip, (double)y->start, (double)y->speed, y->cycle, 0, (double)y->weight,
                         y->mode, y->mask, y->fade, y->reference, (double)y->ref_time);
}

static PyObject *entry_tuple(const vks_crowd_spec *spec, uint32_t i)
{
    const vks_crowd_entry *e = &spec->instances[i];
    const float *m = e->root.m;
    PyObject *layers = PyList_New(e->layer_count);
    for (uint32_t k = 0; layers && k < e->layer_count; k++) {
        PyObject *t = layer_tuple(&spec->layers[e->first_layer + k]);
        if (!t) {
            Py_CLEAR(layers);
            break;
        }
        PyList_SET_ITEM(layers, k, t);
    }
    if (!layers)
        return NULL;
    return Py_BuildValue("(ii(ddi)(dddddddddddd)NIi(dd))", e->model, e->clip, (double)e->start, (double)e->speed,
                         e->cycle, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], layers,
                         e->line, e->root_motion, (double)e->fade_start, (double)e->fade_duration);
}

static PyObject *sources(const vks_crowd_source *s, uint32_t n)
{
    PyObject *l = PyList_New(n);
    for (uint32_t k = 0; l && k < n; k++) {
        PyObject *t = Py_BuildValue("(yss)", s[k].path, s[k].name ? s[k].name : "", s[k].text ? s[k].text : "");
        if (!t) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, k, t);
    }
    return l;
}

/* crowd_parse(path) -> (models, clips, entries): models [(path bytes, name, text)], clips the
 * same with the clip's name, entries [(model, clip, (start, speed, cycle), root 12 floats,
 * layers [(clip, start, speed, cycle, 0, weight, mode, mask or None, fade, reference,
 * ref_time)], line, root_motion, (fade_start, fade_duration))] in file order. */
PyObject *vkspy_crowd_parse(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj;
    if (!PyArg_ParseTuple(args, "O&", PyUnicode_FSConverter, &path_obj))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    void *bytes = NULL;
    size_t size = 0;
    vks_crowd_spec *spec = NULL;
    vks_error err = {0};
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = vks_file_read_default(NULL, path, 2048ull << 20, &bytes, &size, &err);
    if (r == VKS_OK) {
        r = vks_crowd_file_parse(bytes, size, path, &spec, &err);
        vks_file_release_default(NULL, bytes);
    }
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (r != VKS_OK) {
        vkspy_raise(&err, path);
    } else {
        PyObject *entries = PyList_New(spec->instance_count);
        for (uint32_t i = 0; entries && i < spec->instance_count; i++) {
            PyObject *t = entry_tuple(spec, i);
            if (!t) {
                Py_CLEAR(entries);
                break;
            }
            PyList_SET_ITEM(entries, i, t);
        }
        if (entries)
            out = Py_BuildValue("(NNN)", sources(spec->models, spec->model_count),
                                sources(spec->clips, spec->clip_count), entries);
        vks_crowd_spec_free(spec);
    }
    Py_DECREF(path_obj);
    return out;
}
