/* vkskin.Context and vkskin.devices(): Vulkan devices, their queues, and a context on one. */
#include "vkskin_py.h"

#include <stdio.h>
#include <stdlib.h>

#include <vkskin/devices.h>

static PyObject *queue_families(const vks_gpu_device_info *d)
{
    PyObject *l = PyList_New(d->queue_family_count);
    for (uint32_t q = 0; l && q < d->queue_family_count; q++) {
        const vks_gpu_queue_family *f = &d->queue_families[q];
        PyObject *e = Py_BuildValue("{s:I,s:I,s:O,s:O,s:O,s:I}", "index", q, "count", f->count, "graphics",
                                    (f->flags & VKS_QUEUE_GRAPHICS) ? Py_True : Py_False, "compute",
                                    (f->flags & VKS_QUEUE_COMPUTE) ? Py_True : Py_False, "transfer",
                                    (f->flags & VKS_QUEUE_TRANSFER) ? Py_True : Py_False, "timestamp_bits",
                                    f->timestamp_bits);
        if (!e) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, q, e);
    }
    return l;
}

static PyObject *device_dict(const vks_gpu_device_info *d, uint32_t index)
{
    PyObject *queues = queue_families(d);
    if (!queues)
        return NULL;
    PyObject *r = Py_BuildValue("{s:I,s:s,s:s,s:I,s:I,s:I,s:I,s:K,s:I,s:N,s:I,s:I,s:I,s:I}", "index", index,
                                "name", d->name, "type", d->type ? d->type : "other", "vendor_id", d->vendor_id,
                                "device_id", d->device_id, "api_version", d->api_version, "subgroup_size",
                                d->subgroup_size, "max_storage_buffer_range",
                                (unsigned long long)d->max_storage_buffer_range, "max_shared_memory",
                                d->max_shared_memory, "queue_families", queues, "batch_family", d->batch_family,
                                "queue_family", d->queue_family, "queue_index", d->queue_index,
                                "readback_family", d->readback_family);
    return r;
}

/* A listed device's dict: whether a zeroed Context opens it ("default") and the launch shape it
 * would start with ("launch_shape": shape, source, reason; None where the device has no compute
 * or no shape was found), as `vkskin devices` shows them. */
static PyObject *listed_device_dict(const vks_device_list *l, uint32_t index)
{
    const vks_gpu_device_info *d = &l->devices[index];
    PyObject *r = device_dict(d, index), *shape = Py_None;
    if (r && index < l->shape_count && d->has_compute) {
        const vks_gpu_shape_info *s = &l->shapes[index];
        shape = Py_BuildValue("{s:s,s:s,s:s}", "shape", s->text, "source", s->source ? s->source : "", "reason",
                              s->reason ? s->reason : "");
    } else {
        Py_INCREF(shape);
    }
    if (!r || !shape || PyDict_SetItemString(r, "default", (int)index == l->default_index ? Py_True : Py_False) ||
        PyDict_SetItemString(r, "launch_shape", shape))
        Py_CLEAR(r);
    Py_XDECREF(shape);
    return r;
}

/* The library's list (devices.h), the GIL released; NULL with the exception set, or *none
 * where there is no loader or no device. */
static vks_device_list *device_list(int *none)
{
    vks_error err = {0};
    vks_device_list *l = malloc(sizeof *l);
    if (!l)
        return (vks_device_list *)PyErr_NoMemory();
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = vks_device_list_get(NULL, l, &err);
    Py_END_ALLOW_THREADS
    *none = r == VKS_ERR_NO_DEVICE;
    if (r != VKS_OK) {
        free(l);
        if (!*none)
            vkspy_raise(&err, NULL);
        return NULL;
    }
    return l;
}

PyObject *vkspy_devices(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    int none = 0;
    vks_device_list *info = device_list(&none);
    if (!info)
        return none ? PyList_New(0) : NULL; /* no loader or no device: none to list */
    PyObject *l = PyList_New(info->count);
    for (uint32_t i = 0; l && i < info->count; i++) {
        PyObject *d = listed_device_dict(info, i);
        if (!d) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, d);
    }
    free(info);
    return l;
}

/* devices_text(json) -> the text `vkskin devices [--json]` prints ("" and "[]\n" without a
 * device). */
PyObject *vkspy_devices_text(PyObject *self, PyObject *args)
{
    (void)self;
    int json = 0;
    if (!PyArg_ParseTuple(args, "p", &json))
        return NULL;
    int none = 0;
    vks_device_list *l = device_list(&none);
    if (!l)
        return none ? PyUnicode_FromString(json ? "[]\n" : "") : NULL;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    vks_error err = {0};
    vks_result r = !f ? vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "devices", "out of memory")
                 : json ? vks_device_list_write_json(l, f, &err)
                        : vks_device_list_write_text(l, f, &err);
    if (f)
        fclose(f);
    free(l);
    PyObject *out = r == VKS_OK ? PyUnicode_FromStringAndSize(text, (Py_ssize_t)size) : vkspy_raise(&err, NULL);
    free(text);
    return out;
}

static void context_close_now(vkspy_context *self)
{
    if (self->gpu) {
        vks_gpu *g = self->gpu;
        self->gpu = NULL;
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, WAIT_LOCK); /* a deform on another thread finishes first */
        vks_gpu_destroy(g);
        PyThread_release_lock(self->lock);
        Py_END_ALLOW_THREADS
    }
}

static void context_dealloc(vkspy_context *self)
{
    context_close_now(self);
    if (self->lock)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Context(device=None, validation=False, launch_shape=None): device is an index of devices()
 * or a case-insensitive part of a device's name; None: the best by type. */
static int context_init(vkspy_context *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"device", "validation", "launch_shape", NULL};
    PyObject *device = Py_None;
    int validation = 0;
    const char *shape = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Opz", kw, &device, &validation, &shape))
        return -1;
    if (self->gpu) {
        PyErr_SetString(PyExc_RuntimeError, "Context is already open");
        return -1;
    }
    vks_gpu_options opt = {0};
    opt.validation = validation, opt.launch_shape = shape;
    if (PyLong_Check(device)) {
        opt.device_index = (int)PyLong_AsLong(device);
        opt.use_device_index = 1;
        if (opt.device_index < 0) {
            PyErr_SetString(PyExc_ValueError, "device index must be >= 0");
            return -1;
        }
    } else if (PyUnicode_Check(device)) {
        if (!(opt.device_name = PyUnicode_AsUTF8(device)))
            return -1;
    } else if (device != Py_None) {
        PyErr_SetString(PyExc_TypeError, "device must be an int, a str or None");
        return -1;
    }
    if (!self->lock && !(self->lock = PyThread_allocate_lock())) {
        PyErr_NoMemory();
        return -1;
    }
    vks_error err = {0};
    vks_result r;
    vks_gpu *gpu = NULL;
    Py_BEGIN_ALLOW_THREADS
    r = vks_gpu_create(&opt, &gpu, &err);
    Py_END_ALLOW_THREADS
    if (r != VKS_OK) {
        vkspy_raise(&err, NULL);
        return -1;
    }
    self->gpu = gpu;
    return 0;
}

static PyObject *context_close(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    context_close_now((vkspy_context *)self);
    Py_RETURN_NONE;
}

static PyObject *context_enter(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    return Py_NewRef(self);
}

static PyObject *context_exit(PyObject *self, PyObject *args)
{
    (void)args;
    context_close_now((vkspy_context *)self);
    Py_RETURN_FALSE;
}

static PyObject *get_device(PyObject *self, void *c)
{
    (void)c;
    vkspy_context *ctx = (vkspy_context *)self;
    if (!ctx->gpu)
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, "the context is closed");
    return device_dict(vks_gpu_device(ctx->gpu), 0);
}

static PyObject *get_validation_messages(PyObject *self, void *c)
{
    (void)c;
    vkspy_context *ctx = (vkspy_context *)self;
    return PyLong_FromUnsignedLong(ctx->gpu ? vks_gpu_validation_messages(ctx->gpu) : 0);
}

static PyObject *get_closed(PyObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(((vkspy_context *)self)->gpu == NULL);
}

static PyGetSetDef context_getset[] = {
    {"device", get_device, NULL, "dict: the device this context runs on, its queue and queue families", NULL},
    {"validation_messages", get_validation_messages, NULL, "validation-layer messages counted so far", NULL},
    {"closed", get_closed, NULL, "whether close() was called", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef context_methods[] = {
    {"close", context_close, METH_NOARGS, "close(): destroys the Vulkan context (also at garbage collection)"},
    {"__enter__", context_enter, METH_NOARGS, NULL},
    {"__exit__", context_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

PyTypeObject vkspy_context_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "vkskin.Context",
    .tp_basicsize = sizeof(vkspy_context),
    .tp_dealloc = (destructor)context_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Context(device=None, validation=False, launch_shape=None): a Vulkan compute context.\n"
              "One deform at a time runs on a context; two contexts run in parallel on two threads.",
    .tp_getset = context_getset,
    .tp_methods = context_methods,
    .tp_init = (initproc)context_init,
    .tp_new = PyType_GenericNew,
};
