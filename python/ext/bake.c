/* vkskin.bake(): a bake manifest (a file, or the JSON text of a dict) run through the library's
 * bake_job.h as `vkskin bake` runs it, the GIL released for the run and re-acquired for each
 * progress call, the summary and every job's outcome and files handed back as a dict, with the
 * table `vkskin bake` prints (vks_bake_summary_print) and, asked, its --report JSON
 * (vks_bake_report_write). */
#include "vkskin_py.h"

#include <stdlib.h>
#include <string.h>

#include <vkskin/bake_job.h>

/* What the run's threads report: the Python progress callable (its first exception is kept and
 * raised when the run returns; later calls are skipped) and the first error line logged. */
typedef struct bake_state {
    PyObject *callable; /* may be NULL */
    PyObject *type, *value, *trace;
    PyThread_type_lock log_lock;
    char first_error[1024];
} bake_state;

static void on_progress(void *user, const vks_bake_progress_info *p)
{
    bake_state *s = user;
    PyGILState_STATE g = PyGILState_Ensure();
    if (!s->type) {
        double fraction = p->jobs ? (double)p->jobs_done / p->jobs : 1.0;
        PyObject *r = PyObject_CallFunction(s->callable, "sd", p->final ? "done" : p->current ? p->current : "",
                                            fraction);
        if (r)
            Py_DECREF(r);
        else
            PyErr_Fetch(&s->type, &s->value, &s->trace);
    }
    PyGILState_Release(g);
}

/* Messages are kept, not printed: the first error names what failed in the exception. */
static void on_log(void *user, vks_log_level level, const char *msg)
{
    bake_state *s = user;
    if (level != VKS_LOG_ERROR)
        return;
    PyThread_acquire_lock(s->log_lock, WAIT_LOCK);
    if (!s->first_error[0])
        snprintf(s->first_error, sizeof s->first_error, "%s", msg);
    PyThread_release_lock(s->log_lock);
}

static PyObject *job_files(const vks_bake_manifest *m, uint32_t j, uint32_t count)
{
    PyObject *l = PyList_New(count);
    for (uint32_t i = 0; l && i < count; i++) {
        vks_bake_file f = {0};
        vks_bake_job_file(m, j, i, &f);
        PyObject *e = Py_BuildValue("{s:s,s:K,s:s}", "path", f.path ? f.path : "", "bytes",
                                    (unsigned long long)f.bytes, "kind", f.kind ? f.kind : "");
        if (!e) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, e);
    }
    return l;
}

static const char *status_name(vks_bake_job_status s)
{
    return s == VKS_BAKE_JOB_BAKED ? "baked" : s == VKS_BAKE_JOB_UP_TO_DATE ? "up to date"
                                          : s == VKS_BAKE_JOB_FAILED ? "failed" : "not run";
}

static PyObject *job_dict(const vks_bake_manifest *m, uint32_t j)
{
    vks_bake_job_info in = {0};
    vks_bake_job_get(m, j, &in);
    PyObject *files = job_files(m, j, in.file_count);
    if (!files)
        return NULL;
    return Py_BuildValue("{s:s,s:s,s:s,s:s,s:i,s:I,s:I,s:K,s:I,s:I,s:d,s:d,s:d,s:s,s:N}", "where", in.where, "name",
                         in.name, "model", in.model, "status", status_name(in.status), "failure",
                         in.status == VKS_BAKE_JOB_FAILED ? (int)in.failure : 0, "outputs_written",
                         in.outputs_written, "outputs_skipped", in.outputs_skipped, "bytes",
                         (unsigned long long)in.bytes, "frames", in.frames, "vertices", in.vertices, "seconds",
                         in.seconds, "read_seconds", in.read_seconds, "deform_seconds", in.deform_seconds, "note",
                         in.note ? in.note : "", "files", files);
}

/* The table `vkskin bake` prints after a run, as text. */
static PyObject *summary_table(const vks_bake_manifest *m, const vks_bake_summary *s)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return PyErr_NoMemory();
    vks_bake_summary_print(f, m, s);
    fclose(f);
    PyObject *t = text ? PyUnicode_DecodeUTF8(text, (Py_ssize_t)size, "replace") : PyErr_NoMemory();
    free(text);
    return t;
}

static PyObject *summary_dict(const vks_bake_manifest *m, const vks_bake_summary *s, const char *out_dir,
                              const char *engine)
{
    uint32_t n = vks_bake_manifest_job_count(m);
    PyObject *jobs = PyList_New(n), *devices = PyList_New(s->device_count);
    for (uint32_t j = 0; jobs && devices && j < n; j++) {
        PyObject *d = job_dict(m, j);
        if (!d)
            Py_CLEAR(jobs);
        else
            PyList_SET_ITEM(jobs, j, d);
    }
    for (uint32_t d = 0; jobs && devices && d < s->device_count; d++) {
        const vks_bake_device_share *sh = &s->devices[d];
        PyObject *e = Py_BuildValue("{s:s,s:I,s:I,s:d}", "device", sh->device, "jobs", sh->jobs, "groups",
                                    sh->groups, "busy_seconds", sh->busy_seconds);
        if (!e)
            Py_CLEAR(devices);
        else
            PyList_SET_ITEM(devices, d, e);
    }
    PyObject *table = jobs && devices ? summary_table(m, s) : NULL;
    if (!table) {
        Py_XDECREF(jobs);
        Py_XDECREF(devices);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:s,s:d,s:{s:d,s:d,s:d},s:N,s:I,s:N,s:N}", "out", out_dir, "engine", engine,
                         "seconds", s->seconds, "stages", "devices_open", s->stages.devices_open, "first_deform",
                         s->stages.first_deform, "last_deform_end", s->stages.last_deform_end, "devices", devices,
                         "validation_messages", s->validation_messages, "jobs", jobs, "table", table);
}

/* The manifest: read from path, or parsed from text (named path, relative paths from its folder). */
static vks_result load(vks_bake_manifest **m, const char *path, const char *text, Py_ssize_t size,
                       const vks_bake_options *o, vks_error *err)
{
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = text ? vks_bake_manifest_parse(m, path, text, (size_t)size, o, err) : vks_bake_manifest_read(m, path, o, err);
    Py_END_ALLOW_THREADS
    return r;
}

/* A manifest the library refused says why through the logger ("bake.json:0x18: not valid JSON",
 * "bake.json: jobs[3].clips[1]: ..."; err then only says that it was said): that line as the
 * error's offset, structure and message. */
static void take_logged(vks_error *err, const char *file, const char *line)
{
    size_t n = strlen(file);
    if (!line[0])
        return;
    if (!strncmp(line, file, n) && line[n] == ':') {
        line += n + 1;
        char *end;
        unsigned long long offset = strtoull(line, &end, 16);
        if (!strncmp(line, "0x", 2) && *end == ':')
            err->offset = offset, line = end + 1;
        line += strspn(line, " ");
    }
    const char *colon = strstr(line, ": ");
    size_t structure = colon && !memchr(line, ' ', (size_t)(colon - line)) ? (size_t)(colon - line) : 0;
    snprintf(err->path, sizeof err->path, "%.*s", (int)structure, line);
    snprintf(err->msg, sizeof err->msg, "%s", structure ? colon + 2 : line);
}

/* Runs and reports: the summary dict, or NULL with the exception set; report (may be NULL): the
 * run's JSON report written there. */
static PyObject *run(vks_bake_manifest *m, vks_bake_options *o, bake_state *s, const char *path, const char *report)
{
    char *dir = vks_bake_output_dir(m, o->out_dir);
    if (!dir)
        return PyErr_NoMemory();
    vks_bake_summary sum = {0};
    vks_error err = {0};
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = vks_bake_run(m, o, &sum, &err);
    if (r == VKS_OK && report)
        r = vks_bake_report_write(report, m, o, &sum, &err);
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (s->type)
        PyErr_Restore(s->type, s->value, s->trace);
    else if (r == VKS_ERR_INVALID && s->first_error[0]) /* an output refused: the line said, whole */
        vkspy_raise_said(&err, path, s->first_error);
    else if (r != VKS_OK)
        vkspy_raise(&err, report && err.code == VKS_ERR_IO ? report : path);
    else
        out = summary_dict(m, &sum, dir, vks_bake_engine_name(o->engine));
    free(dir);
    return out;
}

/* bake(path, text or None, out_dir or "", engine (0 gpu, 1 cpu, 2 cpu-fast), force, threads,
 *      progress, report path or None) -> (summary dict, first error line logged) */
PyObject *vkspy_bake(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *path_obj, *out_obj, *progress;
    const char *text, *report;
    Py_ssize_t size;
    int engine, force;
    unsigned threads;
    if (!PyArg_ParseTuple(args, "O&z#O&ipIOz", PyUnicode_FSConverter, &path_obj, &text, &size, PyUnicode_FSConverter,
                          &out_obj, &engine, &force, &threads, &progress, &report))
        return NULL;
    vks_bake_options o;
    vks_bake_options_init(&o);
    bake_state s = {progress == Py_None ? NULL : progress, NULL, NULL, NULL, PyThread_allocate_lock(), ""};
    o.engine = engine == 1 ? VKS_BAKE_CPU : engine == 2 ? VKS_BAKE_CPU_FAST : VKS_BAKE_GPU;
    o.out_dir = PyBytes_GET_SIZE(out_obj) ? PyBytes_AS_STRING(out_obj) : NULL; /* "": the manifest's */
    o.force = force;
    if (threads)
        o.threads = threads;
    o.logger.func = on_log, o.logger.user = &s;
    if (s.callable)
        o.progress = on_progress, o.progress_user = &s;
    const char *path = PyBytes_AS_STRING(path_obj);
    vks_bake_manifest *m = NULL;
    vks_error err = {0};
    PyObject *out = NULL;
    if (!s.log_lock)
        PyErr_NoMemory();
    else if (load(&m, path, text, size, &o, &err) != VKS_OK) {
        take_logged(&err, path, s.first_error);
        vkspy_raise(&err, path);
    }
    else if ((out = run(m, &o, &s, path, report)))
        out = Py_BuildValue("(Ns)", out, s.first_error);
    vks_bake_manifest_free(m);
    if (s.log_lock)
        PyThread_free_lock(s.log_lock);
    Py_DECREF(path_obj);
    Py_DECREF(out_obj);
    return out;
}
