/* vkskin.bench(): the engines measured through the library's bench.h, the report handed back
 * as the JSON text `vkskin bench --json` prints (vkskin/_api.py parses it), the GIL released
 * while it runs. */
#include "vkskin_py.h"

#include <stdio.h>
#include <stdlib.h>

#include <vkskin/bench.h>

/* The run, the GIL released; on ctx's queue (its lock held: one run at a time) where given. */
static vks_result run_unlocked(vkspy_context *ctx, const vks_skin *skin, const vks_bench_options *opt,
                               vks_bench_result *res, vks_error *err)
{
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    if (ctx)
        PyThread_acquire_lock(ctx->lock, WAIT_LOCK);
    if (ctx && !ctx->gpu) /* closed on another thread meanwhile */
        r = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "context", "the context was closed");
    else
        r = vks_bench_run(ctx ? ctx->gpu : NULL, skin, opt, res, err);
    if (ctx)
        PyThread_release_lock(ctx->lock);
    Py_END_ALLOW_THREADS
    return r;
}

/* The lines `vkskin bench` prints of res (the library's vks_bench_write_text), as a str. */
static PyObject *bench_text(const vks_bench_result *res)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return PyErr_NoMemory();
    vks_error err = {0};
    vks_result r = vks_bench_write_text(res, f, &err);
    fclose(f);
    PyObject *out = r == VKS_OK ? PyUnicode_FromStringAndSize(text, (Py_ssize_t)size) : vkspy_raise(&err, NULL);
    free(text);
    return out;
}

/* bench(model, context or None, instances, ref_instances, threads, repeats, context_ms, text)
 *   -> (the JSON report (str), the text `vkskin bench` prints where text, else None) */
PyObject *vkspy_bench(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *model, *ctx;
    int want_text = 0;
    vks_bench_options opt;
    vks_bench_options_init(&opt);
    if (!PyArg_ParseTuple(args, "O!OIIIIdp", &vkspy_model_type, &model, &ctx, &opt.instances, &opt.ref_instances,
                          &opt.threads, &opt.repeats, &opt.context_ms, &want_text))
        return NULL;
    if (ctx != Py_None && !PyObject_TypeCheck(ctx, &vkspy_context_type))
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, "bench: the context is not a vkskin.Context");
    vkspy_context *c = ctx == Py_None ? NULL : (vkspy_context *)ctx;
    if (c && !c->gpu)
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, "the context was closed");
    vks_bench_result *res = malloc(sizeof *res);
    if (!res)
        return PyErr_NoMemory();
    vks_error err = {0};
    vks_result r = run_unlocked(c, ((vkspy_model *)model)->skin, &opt, res, &err);
    PyObject *out = NULL;
    if (r != VKS_OK) {
        vkspy_raise(&err, NULL);
    } else {
        char *json = vks_bench_json(res);
        PyObject *j = json ? PyUnicode_FromString(json) : PyErr_NoMemory();
        PyObject *t = !j ? NULL : want_text ? bench_text(res) : Py_NewRef(Py_None);
        out = t ? Py_BuildValue("(NN)", j, t) : NULL;
        if (!t)
            Py_XDECREF(j);
        free(json);
    }
    free(res);
    return out;
}
