/* vkskin.Clips: a clip file's clips (vks_clip_set), for deform's clip playback. */
#include "vkskin_py.h"

#include <string.h>

static void clips_dealloc(vkspy_clips *self)
{
    vks_clip_set_free(self->set);
    Py_XDECREF(self->path);
    Py_XDECREF(self->model);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *clip_dict(const vks_clip *c)
{
    static const char *cycles[] = {"loop", "clamp", "mirror", "reset"};
    return Py_BuildValue("{s:s,s:d,s:d,s:s,s:I,s:I}", "name", c->name, "duration", (double)c->duration, "fps",
                         (double)c->fps, "cycle", c->cycle >= 0 && c->cycle <= 3 ? cycles[c->cycle] : "loop",
                         "tracks", c->track_count, "events", c->event_count);
}

static PyObject *get_clips(PyObject *self, void *c)
{
    (void)c;
    const vks_clip_set *s = ((vkspy_clips *)self)->set;
    PyObject *l = PyList_New(s->clip_count);
    for (uint32_t i = 0; l && i < s->clip_count; i++) {
        PyObject *d = clip_dict(&s->clips[i]);
        if (!d) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

static PyObject *get_format(PyObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(((vkspy_clips *)self)->set->format);
}

static PyObject *get_path(PyObject *self, void *c)
{
    (void)c;
    return Py_NewRef(((vkspy_clips *)self)->path);
}

static PyGetSetDef clips_getset[] = {
    {"path", get_path, NULL, "the clip file", NULL},
    {"format", get_format, NULL, "\"rtm\", \"renderware-anm\", \"ifp\", \"pose-json\", ...", NULL},
    {"clips", get_clips, NULL, "list of dict: name, duration (s), fps, cycle, tracks, events", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static Py_ssize_t clips_len(PyObject *self)
{
    return ((vkspy_clips *)self)->set->clip_count;
}

static PyObject *find(PyObject *self, PyObject *name)
{
    const char *n = PyUnicode_AsUTF8(name);
    if (!n)
        return NULL;
    int32_t i = vks_clip_set_find(((vkspy_clips *)self)->set, n);
    if (i < 0 || (uint32_t)i >= ((vkspy_clips *)self)->set->clip_count) {
        PyErr_Format(PyExc_KeyError, "%R: no clip named %R", ((vkspy_clips *)self)->path, name);
        return NULL;
    }
    return PyLong_FromLong(i);
}

static PyMethodDef clips_methods[] = {
    {"find", find, METH_O, "find(name) -> int: the clip's index (a name, case-insensitive, or a number)"},
    {NULL, NULL, 0, NULL}};

static PySequenceMethods clips_sequence = {.sq_length = clips_len};

PyTypeObject vkspy_clips_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "vkskin.Clips",
    .tp_basicsize = sizeof(vkspy_clips),
    .tp_dealloc = (destructor)clips_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The clips of one clip file, read by vkskin.read_clips().",
    .tp_getset = clips_getset,
    .tp_methods = clips_methods,
    .tp_as_sequence = &clips_sequence,
};

static int is_pose_json(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcasecmp(path + n - 5, ".json") == 0;
}

/* A pose JSON is read against its model (the nodes it names), as deform --clip does. */
static vks_result read_pose_json(const vks_skin *skin, const vks_read_options *opt, const char *path,
                                 vks_clip_set **out, vks_error *err)
{
    void *bytes = NULL;
    size_t size = 0;
    vks_result r = vks_file_read_default(NULL, path, opt->file.max_size, &bytes, &size, err);
    if (r != VKS_OK)
        return r;
    r = vks_pose_json_clip_read(skin, opt, bytes, size, out, err);
    vks_file_release_default(NULL, bytes);
    return r;
}

/* read_clips(path, model=None, fps=0.0, duration=0.0, max_input_mb=2048) */
PyObject *vkspy_read_clips(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self;
    static char *kw[] = {"path", "model", "fps", "duration", "max_input_mb", NULL};
    PyObject *path_obj = NULL, *model = Py_None;
    float fps = 0, duration = 0;
    unsigned long long max_mb = 2048;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|OffK", kw, PyUnicode_FSConverter, &path_obj, &model, &fps,
                                     &duration, &max_mb))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    if (model != Py_None && !PyObject_TypeCheck(model, &vkspy_model_type)) {
        Py_DECREF(path_obj);
        PyErr_SetString(PyExc_TypeError, "model must be a vkskin.Model or None");
        return NULL;
    }
    int json = is_pose_json(path);
    if (json && model == Py_None) {
        Py_DECREF(path_obj);
        return vkspy_raise_code(VKS_ERR_INVALID, path, "a pose JSON clip is read against its model: pass model=");
    }
    vks_read_options opt = {0};
    opt.file.max_size = max_mb << 20, opt.clip.fps = fps, opt.clip.duration = duration;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r;
    const vks_skin *skin = model != Py_None ? ((vkspy_model *)model)->skin : NULL;
    Py_BEGIN_ALLOW_THREADS
    r = json ? read_pose_json(skin, &opt, path, &set, &err) : vks_read_clips(&opt, path, &set, &err);
    if (r == VKS_OK && set->clip_count == 0) {
        vks_clip_set_free(set);
        r = vks_error_set(&err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "file", "no clip in the file");
    }
    Py_END_ALLOW_THREADS
    vkspy_clips *c = r == VKS_OK ? PyObject_New(vkspy_clips, &vkspy_clips_type) : NULL;
    if (!c) {
        if (r != VKS_OK)
            vkspy_raise(&err, path);
        else
            vks_clip_set_free(set);
        Py_DECREF(path_obj);
        return NULL;
    }
    c->set = set;
    c->model = Py_NewRef(json ? model : Py_None);
    c->path = PyUnicode_DecodeFSDefault(path);
    Py_DECREF(path_obj);
    if (!c->path) {
        Py_DECREF(c);
        return NULL;
    }
    return (PyObject *)c;
}

/* read_poses(model, path) -> (frames, nodes, 4, 3) float32: a pose file's frames (DESIGN.md
 * section 6) as a new array, what deform(poses=) takes (deform --pose's frames). */
PyObject *vkspy_read_poses(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *model, *path_obj;
    if (!PyArg_ParseTuple(args, "O!O&", &vkspy_model_type, &model, PyUnicode_FSConverter, &path_obj))
        return NULL;
    const char *path = PyBytes_AS_STRING(path_obj);
    const vks_skin *skin = ((vkspy_model *)model)->skin;
    void *bytes = NULL;
    size_t size = 0;
    vks_pose_set set = {0};
    vks_error err = {0};
    vks_result r;
    Py_BEGIN_ALLOW_THREADS
    r = vks_file_read_default(NULL, path, 2048ull << 20, &bytes, &size, &err);
    if (r == VKS_OK) {
        r = vks_pose_file_parse(skin, bytes, size, &set, &err);
        vks_file_release_default(NULL, bytes);
    }
    Py_END_ALLOW_THREADS
    PyObject *out = NULL;
    if (r != VKS_OK) {
        vkspy_raise(&err, path);
    } else {
        npy_intp dims[4] = {set.frame_count, set.node_count, 4, 3};
        if ((out = PyArray_EMPTY(4, dims, NPY_FLOAT32, 0)))
            memcpy(PyArray_DATA((PyArrayObject *)out), set.locals, (size_t)set.frame_count * set.node_count * 48);
        vks_pose_set_free(&set);
    }
    Py_DECREF(path_obj);
    return out;
}
