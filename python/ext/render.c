/* vkskin.render(): a contact sheet of procedurally posed instances through the library's
 * vks_render_sheet_png (render.h), on a context of its own made to draw (will_render), the GIL
 * released while it runs. */
#include "vkskin_py.h"

#include <stdlib.h>

#include <vkskin/render.h>

/* Picks the device as Context() does: an index, a part of a name, or None (the best). */
static int device_option(PyObject *device, vks_gpu_options *opt)
{
    if (PyLong_Check(device)) {
        long i = PyLong_AsLong(device);
        if (i < 0) {
            PyErr_SetString(PyExc_ValueError, "device index must be >= 0");
            return 0;
        }
        opt->device_index = (int)i, opt->use_device_index = 1;
    } else if (PyUnicode_Check(device)) {
        if (!(opt->device_name = PyUnicode_AsUTF8(device)))
            return 0;
    } else if (device != Py_None) {
        PyErr_SetString(PyExc_TypeError, "device must be an int, a str or None");
        return 0;
    }
    return 1;
}

/* render(models [Model...], out, instances, seed, time, width, height, columns, device, validation)
 * -> (width, height, device name) */
PyObject *vkspy_render(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *list, *device;
    const char *out;
    unsigned instances, width, height, columns;
    unsigned long long seed;
    float time;
    int validation;
    if (!PyArg_ParseTuple(args, "O!sIKfIIIOp", &PyList_Type, &list, &out, &instances, &seed, &time, &width, &height,
                          &columns, &device, &validation))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(list);
    vks_gpu_options opt = {.will_render = 1, .validation = validation};
    if (n < 1)
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, "render: no model given");
    if (!device_option(device, &opt))
        return NULL;
    const vks_skin **skins = calloc((size_t)n, sizeof *skins);
    if (!skins)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *m = PyList_GET_ITEM(list, i);
        if (!PyObject_TypeCheck(m, &vkspy_model_type)) {
            free(skins);
            PyErr_SetString(PyExc_TypeError, "render: models must be vkskin.Model");
            return NULL;
        }
        skins[i] = ((vkspy_model *)m)->skin;
    }
    vks_render_sheet_job job = {.skins = skins, .skin_count = (uint32_t)n, .instances = instances, .seed = seed,
                                .time = time, .width = width, .height = height, .columns = columns, .png = out};
    vks_error err = {0};
    vks_gpu *gpu = NULL;
    vks_result r;
    uint32_t messages = 0;
    char name[256] = "";
    Py_BEGIN_ALLOW_THREADS
    r = vks_gpu_create(&opt, &gpu, &err);
    if (r == VKS_OK) {
        snprintf(name, sizeof name, "%s", vks_gpu_device(gpu)->name);
        r = vks_render_sheet_png(gpu, &job, &err);
        messages = vks_gpu_validation_messages(gpu);
    }
    vks_gpu_destroy(gpu);
    Py_END_ALLOW_THREADS
    free(skins);
    if (r != VKS_OK)
        return vkspy_raise(&err, NULL);
    return Py_BuildValue("{s:I,s:I,s:I,s:s,s:I}", "width", width ? width : 640, "height", height ? height : 360,
                         "cells", (unsigned)(instances ? instances : 1) * (unsigned)n, "device", name,
                         "validation_messages", messages);
}
