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
#include <vkskin/vat_read.h>

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
/* The same for a failure the library said in a line through the logger (said, whole: err's
 * message may cut a line that names long paths), as the exception's text and message. */
PyObject *vkspy_raise_said(const vks_error *err, const char *file, const char *said);
/* The same for an error made here (a bad argument the library would also refuse). */
PyObject *vkspy_raise_code(vks_result code, const char *file, const char *fmt, ...);

/* An ndarray over memory `owner` keeps alive (zero copy): nd dims and byte strides. */
PyObject *vkspy_view(PyObject *owner, void *data, int typenum, int nd, const npy_intp *dims,
                     const npy_intp *strides, int writeable);

/* A crowd's layers as deform gets them from vkskin/_api.py (arrays over the instances). */
typedef struct vkspy_layer_input {
    const uint32_t *counts;     /* (I,): layers of each instance, 0: its plain play */
    const int32_t *ints;        /* (I, 4, 6): clip source, cycle, mode, fade, mask (node + 1, 0: all),
                                   reference source (-1: the layer's own clip) */
    const float *floats;        /* (I, 4, 4): start, speed, weight, reference time */
    const float *fades;         /* (I, 2): the transition's start and duration */
    const int32_t *root_motion; /* (I,): VKS_ROOT_MOTION_* */
} vkspy_layer_input;

/* layers.c: parses the layer arrays (0 with an exception set), makes each instance's
 * vks_clip_layers over the bound clips, a stream instance of them, and the root motion. */
int vkspy_layers_parse(PyObject *t, npy_intp instances, uint32_t clip_count, vkspy_layer_input *out);
void vkspy_layers_make(const vkspy_layer_input *in, uint32_t instances, const vks_clip *const *clips,
                       const vks_clip_binding *bindings, vks_clip_layers *out);
void vkspy_layers_stream(const vkspy_layer_input *in, uint32_t i, vks_instance *out);
int vkspy_layers_root_motion(const vkspy_layer_input *in, uint32_t instances);
void vkspy_layers_root_track(const vks_clip_layers *layers, const vks_skin *skin, const vks_pose_source *src,
                             uint32_t instances, uint32_t frames, double *out);

/* What instances play (plays.c; vkskin/_api.py's plays tuple): the clips bound to a model,
 * each instance's play, root and layers. */
typedef struct vkspy_plays {
    uint32_t instances;
    const vks_clip **clips;         /* the clips the instances play (a crowd's distinct ones) */
    vks_clip_binding *bindings;     /* each bound to the model */
    uint32_t clip_count, bound;
    const int32_t *sources;         /* per instance: index into clips, -1 the bind pose */
    const float *starts, *speeds;   /* per instance */
    const int32_t *cycles;
    const vks_affine *roots;        /* per instance: where it stands (NULL: the origin) */
    vkspy_layer_input layers_in;    /* a crowd's layers (counts NULL: none) */
    vks_clip_layers *layers;        /* made of them over the bound clips */
    vks_clip_play *plays;           /* one per instance */
} vkspy_plays;
/* The tuple's arrays checked and its clips found (the GIL held; 0 with an exception set). */
int vkspy_plays_parse(PyObject *plays, uint32_t instances, vkspy_plays *out);
/* The clips bound to skin and the plays made into src (a clip source; fast: float sampling). */
vks_result vkspy_plays_bind(vkspy_plays *p, const vks_skin *skin, int fast, vks_pose_source *src, vks_error *err);
/* Instance i as the GPU stream plays it (clip numbers index p->clips). */
void vkspy_plays_instance(const vkspy_plays *p, uint32_t i, vks_instance *out);
void vkspy_plays_free(vkspy_plays *p);

/* The deform entry point (deform.c) and its GPU and VAT helpers. */
PyObject *vkspy_deform(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_devices(PyObject *self, PyObject *noargs);
PyObject *vkspy_devices_text(PyObject *self, PyObject *args);
PyObject *vkspy_vat_write(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_vat_read(PyObject *self, PyObject *args);
/* validate.c and bake.c: the library's validate and bake jobs (validate.h, bake_job.h). */
PyObject *vkspy_validate(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_bake(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_bench(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_convert(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_render(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_inspect(PyObject *self, PyObject *args);
PyObject *vkspy_read(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_read_clips(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *vkspy_read_poses(PyObject *self, PyObject *args);
PyObject *vkspy_crowd_parse(PyObject *self, PyObject *args);

#endif
