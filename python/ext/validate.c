/* vkskin.validate(): the GPU against the CPU reference through the library's validate.h, the
 * report handed back as the JSON text `vkskin validate --json` prints (vkskin/_api.py parses
 * it) and, as asked, as the text `vkskin validate` prints, a JUnit file and a report folder
 * written by the library's writers, the GIL released while the run goes and re-acquired for
 * each progress call. Procedural
 * poses go to the GPU from the host; clips and crowds (plays.c) are sampled by the GPU's
 * stream, each input's clips numbered after the inputs' before it in the run's clip list. */
#include "vkskin_py.h"

#include <stdlib.h>
#include <string.h>

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

/* An input's clips: what its instances play, and where its clips start in the run's list. */
typedef struct clip_input {
    vkspy_plays pl;
    uint32_t first_clip;
} clip_input;

/* Instance i of an input as the GPU stream plays it, its clips numbered in the run's list. */
static void gpu_instance(void *user, uint32_t i, vks_instance *out)
{
    const clip_input *c = user;
    vkspy_plays_instance(&c->pl, i, out);
    out->clip += c->first_clip;
    for (uint32_t k = 0; k < out->layer_count && k < VKS_MAX_LAYERS; k++) {
        out->layers[k].clip += c->first_clip;
        if (out->layers[k].reference) /* 1 + a clip's number */
            out->layers[k].reference += c->first_clip;
    }
}

/* One (model, name, instances, frames, seed, fps, max_angle, time, plays) tuple as an input:
 * procedural poses, or (plays not None) clips the GPU samples, bound to the model here. */
static int parse_input(PyObject *t, vks_validate_input *in, clip_input *c)
{
    PyObject *model, *plays;
    const char *name;
    unsigned instances, frames;
    unsigned long long seed;
    float fps, max_angle, time;
    if (!PyArg_ParseTuple(t, "O!sIIKfffO", &vkspy_model_type, &model, &name, &instances, &frames, &seed, &fps,
                          &max_angle, &time, &plays))
        return 0;
    *in = (vks_validate_input){.skin = ((vkspy_model *)model)->skin, .name = name, .instances = instances,
                               .frames = frames};
    in->poses.kind = VKS_POSE_PROCEDURAL, in->poses.seed = seed;
    in->poses.fps = fps, in->poses.max_angle = max_angle, in->poses.start_time = time;
    if (plays == Py_None)
        return 1;
    vks_error err = {0};
    if (!vkspy_plays_parse(plays, instances, &c->pl))
        return 0;
    if (vkspy_plays_bind(&c->pl, in->skin, 0, &in->poses, &err) != VKS_OK) {
        vkspy_raise(&err, name);
        return 0;
    }
    in->roots = c->pl.roots;
    in->gpu_instance = gpu_instance, in->gpu_instance_user = c;
    return 1;
}

/* Every input's clips in one list (each input's numbered from its first_clip); 0 without memory. */
static int clip_list(const clip_input *c, Py_ssize_t n, const vks_clip ***out, uint32_t *count)
{
    uint32_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        total += c[i].pl.clip_count;
    *out = calloc(total ? total : 1, sizeof **out), *count = 0;
    for (Py_ssize_t i = 0; *out && i < n; i++)
        for (uint32_t k = 0; k < c[i].pl.clip_count; k++)
            (*out)[(*count)++] = c[i].pl.clips[k];
    return *out != NULL;
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

/* The report files of one device's run: its heat maps drawn on gpu into report (each file's
 * name, or why none, kept for the page), then the JUnit file and the folder's page. */
static vks_result write_files(vks_gpu *gpu, const vks_validate_result *res, const char *report, const char *junit,
                              vks_error *err)
{
    vks_validate_device d = res->devices[0];
    vks_report_file *files = calloc(d.file_count + 1, sizeof *files);
    char(*names)[64] = calloc(d.file_count + 1, sizeof *names);
    char(*why)[512] = calloc(d.file_count + 1, sizeof *why);
    vks_result r = files && names && why
                       ? VKS_OK
                       : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    for (uint32_t f = 0; r == VKS_OK && f < d.file_count; f++) {
        files[f] = d.reports[f];
        vks_error herr = {0};
        if (!report || (files[f].heatmap_missing = vks_validate_heatmap_missing(&files[f])))
            continue;
        if (vks_validate_draw_heatmap(gpu, &files[f], report, 0, f, names[f], sizeof names[f], &herr) == VKS_OK)
            files[f].heatmap = names[f];
        else
            files[f].heatmap_missing = vks_error_format(&herr, NULL, why[f], sizeof why[f]);
    }
    d.reports = files;
    vks_validate_result one = *res;
    one.devices = &d, one.device_count = 1;
    if (r == VKS_OK && junit)
        r = vks_validate_write_junit(&one, NULL, junit, err);
    if (r == VKS_OK && report)
        r = vks_validate_write_report(&one, NULL, report, err);
    free(files), free(names), free(why);
    return r;
}

/* The same on ctx's queue (its lock held), the GIL released. */
static vks_result write_files_locked(vkspy_context *ctx, vks_gpu *gpu, const vks_validate_result *res,
                                     const char *report, const char *junit, vks_error *err)
{
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(ctx->lock, WAIT_LOCK);
    if (ctx->gpu != gpu)
        r = vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "context", "the context was closed");
    else
        r = write_files(gpu, res, report, junit, err);
    PyThread_release_lock(ctx->lock);
    Py_END_ALLOW_THREADS
    return r;
}

/* The text report as `vkskin validate` prints it on stdout, as a str. */
static PyObject *text_of(const vks_validate_result *res)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return PyErr_NoMemory();
    vks_error err = {0};
    vks_result r = vks_validate_write_text(res, NULL, f, NULL, &err);
    fclose(f);
    PyObject *out = r == VKS_OK && buf ? PyUnicode_FromStringAndSize(buf, (Py_ssize_t)size) : NULL;
    if (!out && !PyErr_Occurred())
        vkspy_raise(&err, NULL);
    free(buf);
    return out;
}

/* The run's answer: (the JSON report, the text report or None), the files written as asked. */
static PyObject *answer(vkspy_context *ctx, vks_gpu *gpu, const vks_validate_result *res, const char *report,
                        const char *junit, int text)
{
    vks_error err = {0};
    if ((report || junit) && write_files_locked(ctx, gpu, res, report, junit, &err) != VKS_OK)
        return vkspy_raise(&err, report && !junit ? report : junit);
    char *json = vks_validate_json(res);
    PyObject *j = json ? PyUnicode_FromString(json) : PyErr_NoMemory();
    free(json);
    PyObject *t = j && text ? text_of(res) : j ? Py_NewRef(Py_None) : NULL;
    PyObject *out = j && t ? PyTuple_Pack(2, j, t) : NULL;
    Py_XDECREF(j), Py_XDECREF(t);
    return out;
}

/* validate(context, inputs [(model, name, instances, frames, seed, fps, max_angle, time, plays)...],
 *          tolerance_scale, nmse, allow_bind_mismatch, sample_count, sample_seed, threads,
 *          progress, report, junit, text) -> (the JSON report, the text report or None); report: a
 *          folder (existing) for the page, junit: a path, either None */
PyObject *vkspy_validate(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *ctx, *inputs, *progress;
    const char *report = NULL, *junit = NULL;
    int text = 0;
    vks_validate_options opt;
    vks_validate_options_init(&opt);
    unsigned long long sample_seed;
    if (!PyArg_ParseTuple(args, "O!O!ddpIKiOzzp", &vkspy_context_type, &ctx, &PyList_Type, &inputs,
                          &opt.tolerance_scale, &opt.nmse, &opt.allow_bind_mismatch, &opt.sample_count,
                          &sample_seed, &opt.threads, &progress, &report, &junit, &text))
        return NULL;
    opt.sample_seed = sample_seed;
    vks_gpu *gpu = ((vkspy_context *)ctx)->gpu;
    Py_ssize_t n = PyList_GET_SIZE(inputs);
    if (!gpu || n < 1)
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, gpu ? "validate: no model given" : "the context was closed");
    vks_validate_input *in = calloc((size_t)n, sizeof *in);
    clip_input *clips = calloc((size_t)n, sizeof *clips);
    const vks_clip **list = NULL;
    PyObject *out = NULL;
    if (!in || !clips) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        clips[i].first_clip = opt.clip_count;
        if (!parse_input(PyList_GET_ITEM(inputs, i), &in[i], &clips[i]))
            goto done;
        opt.clip_count += clips[i].pl.clip_count;
    }
    if (!clip_list(clips, n, &list, &opt.clip_count)) {
        PyErr_NoMemory();
        goto done;
    }
    opt.clips = list;
    progress_state ps = {progress == Py_None ? NULL : progress, NULL, NULL, NULL};
    if (ps.callable)
        opt.progress = on_progress, opt.progress_user = &ps;
    vks_validate_result res = {0};
    vks_error err = {0};
    vks_result r = run_locked((vkspy_context *)ctx, gpu, in, (uint32_t)n, &opt, &res, &err);
    if (ps.type)
        PyErr_Restore(ps.type, ps.value, ps.trace);
    else if (r != VKS_OK)
        vkspy_raise(&err, n == 1 ? in[0].name : NULL);
    else
        out = answer((vkspy_context *)ctx, gpu, &res, report, junit, text);
    vks_validate_result_free(&res);
done:
    for (Py_ssize_t i = 0; clips && i < n; i++)
        vkspy_plays_free(&clips[i].pl);
    free(list), free(clips), free(in);
    return out;
}
