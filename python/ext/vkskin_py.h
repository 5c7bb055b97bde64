/* vkskin's Python extension (vkskin._vkskin): the pieces shared by its files.
 * NumPy's C API table is imported once, in module.c; the other files see it through
 * PY_ARRAY_UNIQUE_SYMBOL (NO_IMPORT_ARRAY there). */
#ifndef VKSKIN_PY_H
#define VKSKIN_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL vkskin_py_ARRAY_API
#ifndef VKSKIN_PY_MODULE_C
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <vkskin.h>
#include <vkskin/vat.h>
#include <vkskin/vat_write.h>

/* A model read by the library: the skin and the name it was read from. Arrays handed out are
 * views into the skin's memory and hold a reference to this object. */
typedef struct {
    PyObject_HEAD
    vks_skin *skin;
    PyObject *path; /* str */
} vkspy_model;

/* A clip file's clips (vks_clip_set), read for a model or on their own. */
typedef struct {
    PyObject_HEAD
    vks_clip_set *set;
    PyObject *path;  /* str */
    PyObject *model; /* the model a pose JSON was read against, or None */
} vkspy_clips;

/* A GPU context (vks_gpu) and the lock that keeps its queue to one deform at a time. */
typedef struct {
    PyObject_HEAD
    vks_gpu *gpu;
    PyThread_type_lock lock;
} vkspy_context;

extern PyTypeObject vkspy_model_type;
extern PyTypeObject vkspy_clips_type;
extern PyTypeObject vkspy_context_type;

/* Raises the Python exception for a library error: vkskin.Error's subclass for err->code,
 * carrying file, offset, path and message. file: the input's name (may be NULL). Returns NULL. */
PyObject *vkspy_raise(const vks_error *err, const char *file);
/* The same for an error made here (a bad argument the library would also refuse). */
PyObject *vkspy_raise_code(vks_result code, const char *file, const char *fmt, ...);

/* An ndarray over memory `owner` keeps alive (zero copy): nd dims and byte strides. */
PyObject *vkspy_view(PyObject *owner, void *data, int typenum, int nd, const npy_intp *dims,
                     const npy_intp *strides, int writeable);

/* The deform entry point (deform.c) and its GPU and VAT helpers. */
PyObject *vkspy_deform(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_devices(PyObject *self, PyObject *noargs);
PyObject *vkspy_vat_write(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_read(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_read_clips(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_read_poses(PyObject *self, PyObject *args);
PyObject *vkspy_crowd_parse(PyObject *self, PyObject *args);
void vkspy_apply_root(const vks_skin *s, const vks_affine *root, float *pos, float *nrm);

#endif
