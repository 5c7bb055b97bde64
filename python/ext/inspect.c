/* vkskin.inspect(): the library's inspection (vkskin/inspect.h) of a file or of a model already
 * read, as `vkskin inspect` prints it: its JSON or its text, which vkskin/_api.py hands on. */
#include "vkskin_py.h"

#include <stdlib.h>

#include <vkskin/inspect.h>

/* The report of in as JSON or as text (open_memstream); NULL with a Python error set. */
static PyObject *report(const vks_inspect *in, int json, const char *path)
{
    char *text = NULL;
    size_t size = 0;
    vks_error err = {0};
    if (json) {
        text = vks_inspect_json(&in, 1, 0);
    } else {
        FILE *f = open_memstream(&text, &size);
        if (f) {
            if (vks_inspect_write_text(in, f, &err) != VKS_OK) {
                fclose(f);
                free(text);
                return vkspy_raise(&err, path);
            }
            fclose(f);
        }
    }
    if (!text)
        return PyErr_NoMemory();
    PyObject *out = PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "backslashreplace");
    free(text);
    return out;
}

/* inspect(path, model, bind_to, json, allow_bind_mismatch, clips, duration, max_input_mb) -> str:
 * path a file (or None with model: that model as read), bind_to the model clip files bind to. */
PyObject *vkspy_inspect(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj = NULL, *model = Py_None, *bind_to = Py_None;
    int json = 1, allow = 0, clips = 0;
    float duration = 0;
    unsigned long long max_mb = 2048;
    if (!PyArg_ParseTuple(args, "O&OOpppfK", PyUnicode_FSConverter, &path_obj, &model, &bind_to, &json, &allow,
                          &clips, &duration, &max_mb))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    if ((model != Py_None && !PyObject_TypeCheck(model, &vkspy_model_type)) ||
        (bind_to != Py_None && !PyObject_TypeCheck(bind_to, &vkspy_model_type))) {
        Py_DECREF(path_obj);
        PyErr_SetString(PyExc_TypeError, "model must be a vkskin.Model or None");
        return NULL;
    }
    vks_inspect_options io = {0};
    io.read.file.max_size = max_mb << 20, io.read.clip.duration = duration;
    io.allow_bind_mismatch = allow, io.clips = clips;
    if (bind_to != Py_None) {
        io.model = ((vkspy_model *)bind_to)->skin;
        io.model_name = PyUnicode_AsUTF8(((vkspy_model *)bind_to)->path);
    }
    vks_inspect *in = NULL;
    vks_error err = {0};
    vks_result r;
    const vks_skin *skin = model != Py_None ? ((vkspy_model *)model)->skin : NULL;
    Py_BEGIN_ALLOW_THREADS
    r = skin ? vks_inspect_model(path, skin, &io, &in, &err) : vks_inspect_file(path, &io, &in, &err);
    Py_END_ALLOW_THREADS
    PyObject *out = r == VKS_OK ? report(in, json, path) : vkspy_raise(&err, path);
    vks_inspect_free(in);
    Py_DECREF(path_obj);
    return out;
}
