/* vkskin._vkskin: the module, its errors and the zero-copy view helper. Everything a script
 * sees is wrapped in vkskin/__init__.py; this layer maps the C API one to one. */
#define VKSKIN_PY_MODULE_C
#include "vkskin_py.h"

#include <stdarg.h>
#include <stdio.h>

/* vkskin._errors.from_library, looked up once at import. */
static PyObject *from_library;

PyObject *vkspy_raise(const vks_error *err, const char *file)
{
    char text[768];
    vks_error_format(err, file, text, sizeof text);
    const char *where = err->file[0] ? err->file : file;
    PyObject *offset = err->offset == VKS_NO_OFFSET ? Py_NewRef(Py_None) : PyLong_FromUnsignedLongLong(err->offset);
    if (!offset)
        return NULL;
    PyObject *exc = PyObject_CallFunction(from_library, "izOsssI", (int)err->code, where, offset, err->path,
                                          err->msg, text, (unsigned)err->line);
    Py_DECREF(offset);
    if (exc) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

PyObject *vkspy_raise_said(const vks_error *err, const char *file, const char *said)
{
    PyObject *exc = PyObject_CallFunction(from_library, "izOsssI", (int)err->code, file, Py_None, "", said, said, 0u);
    if (exc) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

PyObject *vkspy_raise_code(vks_result code, const char *file, const char *fmt, ...)
{
    vks_error err = {0};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err.msg, sizeof err.msg, fmt, ap);
    va_end(ap);
    err.code = code;
    err.offset = VKS_NO_OFFSET;
    return vkspy_raise(&err, file);
}

PyObject *vkspy_view(PyObject *owner, void *data, int typenum, int nd, const npy_intp *dims,
                     const npy_intp *strides, int writeable)
{
    PyObject *a = PyArray_New(&PyArray_Type, nd, (npy_intp *)dims, typenum, (npy_intp *)strides, data, 0,
                              writeable ? NPY_ARRAY_WRITEABLE : 0, NULL);
    if (!a)
        return NULL;
    Py_INCREF(owner);
    if (PyArray_SetBaseObject((PyArrayObject *)a, owner) < 0) { /* steals owner, even on failure */
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

static PyObject *version(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    return PyUnicode_FromString(vks_version_string());
}

static PyObject *has_gpu(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    return PyBool_FromLong(vks_has_gpu());
}

static PyObject *cpu_fast_path(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    return PyUnicode_FromString(vks_cpu_fast_path());
}

static PyMethodDef methods[] = {
    {"read", (PyCFunction)(void (*)(void))vkspy_read, METH_VARARGS | METH_KEYWORDS, "read(path, ...) -> Model"},
    {"read_clips", (PyCFunction)(void (*)(void))vkspy_read_clips, METH_VARARGS | METH_KEYWORDS,
     "read_clips(path, model=None, fps=0.0, duration=0.0) -> Clips"},
    {"read_poses", vkspy_read_poses, METH_VARARGS, "read_poses(model, path) -> (frames, nodes, 4, 3) float32"},
    {"crowd_parse", vkspy_crowd_parse, METH_VARARGS, "crowd_parse(path) -> (models, clips, entries)"},
    {"deform", (PyCFunction)(void (*)(void))vkspy_deform, METH_VARARGS | METH_KEYWORDS, "the engines' entry"},
    {"devices", vkspy_devices, METH_NOARGS, "devices() -> list of dict"},
    {"devices_text", vkspy_devices_text, METH_VARARGS, "devices_text(json) -> str"},
    {"vat_write", (PyCFunction)(void (*)(void))vkspy_vat_write, METH_VARARGS | METH_KEYWORDS, "VAT files"},
    {"vat_read", vkspy_vat_read, METH_VARARGS, "vat_read(path) -> (bytes, height, width, channels, dtype)"},
    {"validate", (PyCFunction)(void (*)(void))vkspy_validate, METH_VARARGS | METH_KEYWORDS,
     "validate.h's run: the JSON report (str)"},
    {"bench", (PyCFunction)(void (*)(void))vkspy_bench, METH_VARARGS | METH_KEYWORDS,
     "bench.h's run: the JSON report (str)"},
    {"bake", (PyCFunction)(void (*)(void))vkspy_bake, METH_VARARGS | METH_KEYWORDS,
     "bake_job.h's run: (summary dict, first error logged)"},
    {"convert", (PyCFunction)(void (*)(void))vkspy_convert, METH_VARARGS | METH_KEYWORDS,
     "convert.h's job: the report (dict, its notes a list)"},
    {"render", (PyCFunction)(void (*)(void))vkspy_render, METH_VARARGS | METH_KEYWORDS,
     "render.h's contact sheet as a PNG: (width, height, cells, device)"},
    {"inspect", vkspy_inspect, METH_VARARGS, "inspect(path, model, bind_to, json, ...) -> str"},
    {"version", version, METH_NOARGS, "the library's version string"},
    {"has_gpu", has_gpu, METH_NOARGS, "whether the library was built with the GPU engine"},
    {"cpu_fast_path", cpu_fast_path, METH_NOARGS, "the fast CPU engine's kernel"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "vkskin._vkskin",
                                    "vkskin's C library (use the vkskin package)", -1, methods,
                                    NULL, NULL, NULL, NULL};

static int add_type(PyObject *m, PyTypeObject *t, const char *name)
{
    if (PyType_Ready(t) < 0)
        return -1;
    Py_INCREF(t);
    if (PyModule_AddObject(m, name, (PyObject *)t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__vkskin(void)
{
    import_array();
    PyObject *errors = PyImport_ImportModule("vkskin._errors");
    if (!errors)
        return NULL;
    from_library = PyObject_GetAttrString(errors, "from_library");
    Py_DECREF(errors);
    if (!from_library)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (add_type(m, &vkspy_model_type, "Model") < 0 || add_type(m, &vkspy_clips_type, "Clips") < 0 ||
        add_type(m, &vkspy_context_type, "Context") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
