/* vkskin.validate(): the GPU against the CPU reference through the library's validate.h, the
 * report handed back as the JSON text `vkskin validate --json` prints (vkskin/_api.py parses
 * it), the GIL released while the run goes and re-acquired for each progress call. */
#include "vkskin_py.h"

#include <stdlib.h>

#include <vkskin/validate.h>

/* The Python progress callable and the first exception it raised (the run goes on: it cannot
 * be stopped from a callback; the exception is raised when it returns). */
typedef struct progress_state {
    PyObject *callable; /* may be NULL */
    PyObject *type, *value, *trace;
} progress_state;

static void on_progress(void *user, uint64_t done, uint64_t total)
{
    progress_state *s = user;
    PyGILState_STATE g = PyGILState_Ensure();
    if (!s->type) {
        PyObject *r = PyObject_CallFunction(s->callable, "sd", "validate", total ? (double)done / (double)total : 1.0);
        if (r)
            Py_DECREF(r);
        else
            PyErr_Fetch(&s->type, &s->value, &s->trace);
    }
    PyGILState_Release(g);
}

/* One (model, name, instances, frames, seed, fps, max_angle) tuple as a procedural input. */
static int parse_input(PyObject *t, vks_validate_input *in)
{
    PyObject *model;
    const char *name;
    unsigned instances, frames;
    unsigned long long seed;
    float fps, max_angle;
    if (!PyArg_ParseTuple(t, "O!sIIKff", &vkspy_model_type, &model, &name, &instances, &frames, &seed, &fps,
                          &max_angle))
        return 0;
    *in = (vks_validate_input){((vkspy_model *)model)->skin, name, instances, frames, {0}};
    in->poses.kind = VKS_POSE_PROCEDURAL, in->poses.seed = seed;
    in->poses.fps = fps, in->poses.max_angle = max_angle;
    return 1;
}

/* The run on ctx's queue (its lock held: one run at a time), the GIL released. */
static vks_result run_locked(vkspy_context *ctx, vks_gpu *gpu, const vks_validate_input *in, uint32_t n,
                             const vks_validate_options *opt, vks_validate_result *res, vks_error *err)
{
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(ctx->lock, WAIT_LOCK);
    if (ctx->gpu != gpu) /* closed on another thread meanwhile */
        r = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "context", "the context was closed");
    else
        r = vks_validate_run(gpu, in, n, opt, res, err);
    PyThread_release_lock(ctx->lock);
    Py_END_ALLOW_THREADS
    return r;
}

/* validate(context, inputs [(model, name, instances, frames, seed, fps, max_angle)...],
 *          tolerance_scale, nmse, allow_bind_mismatch, sample_count, sample_seed, threads,
 *          progress) -> the JSON report (str) */
PyObject *vkspy_validate(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *ctx, *inputs, *progress;
    vks_validate_options opt;
    vks_validate_options_init(&opt);
    unsigned long long sample_seed;
    if (!PyArg_ParseTuple(args, "O!O!ddpIKiO", &vkspy_context_type, &ctx, &PyList_Type, &inputs,
                          &opt.tolerance_scale, &opt.nmse, &opt.allow_bind_mismatch, &opt.sample_count,
                          &sample_seed, &opt.threads, &progress))
        return NULL;
    opt.sample_seed = sample_seed;
    vks_gpu *gpu = ((vkspy_context *)ctx)->gpu;
    Py_ssize_t n = PyList_GET_SIZE(inputs);
    if (!gpu || n < 1)
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, gpu ? "validate: no model given" : "the context was closed");
    vks_validate_input *in = calloc((size_t)n, sizeof *in);
    if (!in)
        return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++)
        if (!parse_input(PyList_GET_ITEM(inputs, i), &in[i])) {
            free(in);
            return NULL;
        }
    progress_state ps = {progress == Py_None ? NULL : progress, NULL, NULL, NULL};
    if (ps.callable)
        opt.progress = on_progress, opt.progress_user = &ps;
    vks_validate_result res = {0};
    vks_error err = {0};
    vks_result r = run_locked((vkspy_context *)ctx, gpu, in, (uint32_t)n, &opt, &res, &err);
    PyObject *out = NULL;
    if (ps.type)
        PyErr_Restore(ps.type, ps.value, ps.trace);
    else if (r != VKS_OK)
        vkspy_raise(&err, n == 1 ? in[0].name : NULL);
    else {
        char *json = vks_validate_json(&res);
        out = json ? PyUnicode_FromString(json) : PyErr_NoMemory();
        free(json);
    }
    vks_validate_result_free(&res);
    free(in);
    return out;
}
