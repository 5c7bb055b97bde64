/* What the instances of a deform or a validate play (vkskin/_api.py's plays tuple): the clips,
 * each bound to the model, every instance's play, root and layers, as the CPU's pose source
 * and as the GPU stream's instances, so deform and validate pose them alike. */
#include "vkskin_py.h"

#include <stdlib.h>
#include <string.h>

/* An array argument of the plays: C-contiguous, of the type and element count given. */
static int plays_array(PyObject *o, int type, npy_intp count, const void **out)
{
    if (o == Py_None) {
        *out = NULL;
        return 1;
    }
    PyArrayObject *a = (PyArrayObject *)o;
    if (!PyArray_Check(o) || PyArray_TYPE(a) != type || !PyArray_IS_C_CONTIGUOUS(a) || PyArray_SIZE(a) != count) {
        vkspy_raise_code(VKS_ERR_INVALID, NULL, "crowd arrays: %lld entries each, C-contiguous", (long long)count);
        return 0;
    }
    *out = PyArray_DATA(a);
    return 1;
}

int vkspy_plays_parse(PyObject *plays, uint32_t instances, vkspy_plays *p)
{
    PyObject *refs, *src, *st, *sp, *cy, *roots, *layers = Py_None;
    if (!PyArg_ParseTuple(plays, "O!OOOOO|O", &PyList_Type, &refs, &src, &st, &sp, &cy, &roots, &layers))
        return 0;
    npy_intp n = instances;
    p->instances = instances;
    if (!plays_array(src, NPY_INT32, n, (const void **)&p->sources) || !p->sources ||
        !plays_array(st, NPY_FLOAT32, n, (const void **)&p->starts) || !p->starts ||
        !plays_array(sp, NPY_FLOAT32, n, (const void **)&p->speeds) || !p->speeds ||
        !plays_array(cy, NPY_INT32, n, (const void **)&p->cycles) || !p->cycles ||
        !plays_array(roots, NPY_FLOAT32, n * 12, (const void **)&p->roots))
        return 0;
    p->clip_count = (uint32_t)PyList_GET_SIZE(refs);
    if (!(p->clips = calloc(p->clip_count ? p->clip_count : 1, sizeof *p->clips))) {
        PyErr_NoMemory();
        return 0;
    }
    for (uint32_t k = 0; k < p->clip_count; k++) {
        PyObject *set;
        unsigned index;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(refs, k), "O!I", &vkspy_clips_type, &set, &index))
            return 0;
        if (index >= ((vkspy_clips *)set)->set->clip_count) {
            vkspy_raise_code(VKS_ERR_INVALID, NULL, "clip %u is not in the clip file", index);
            return 0;
        }
        p->clips[k] = &((vkspy_clips *)set)->set->clips[index];
    }
    for (npy_intp i = 0; i < n; i++)
        if (p->sources[i] >= (int32_t)p->clip_count) {
            vkspy_raise_code(VKS_ERR_INVALID, NULL, "instance %lld plays clip %d of %u", (long long)i,
                             p->sources[i], p->clip_count);
            return 0;
        }
    return layers == Py_None || vkspy_layers_parse(layers, n, p->clip_count, &p->layers_in);
}

vks_result vkspy_plays_bind(vkspy_plays *p, const vks_skin *skin, int fast, vks_pose_source *src, vks_error *err)
{
    p->plays = calloc(p->instances ? p->instances : 1, sizeof *p->plays);
    p->bindings = calloc(p->clip_count ? p->clip_count : 1, sizeof *p->bindings);
    if (!p->plays || !p->bindings)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "plays", "out of memory");
    for (; p->bound < p->clip_count; p->bound++) {
        vks_result r = vks_clip_bind(p->clips[p->bound], skin, &p->bindings[p->bound], err);
        if (r != VKS_OK)
            return r;
    }
    for (uint32_t i = 0; i < p->instances; i++) {
        vks_clip_play *pl = &p->plays[i];
        if (p->sources[i] >= 0)
            pl->clip = p->clips[p->sources[i]], pl->binding = &p->bindings[p->sources[i]];
        pl->start = p->starts[i], pl->speed = p->speeds[i], pl->cycle = p->cycles[i];
    }
    if (p->layers_in.counts) {
        if (!(p->layers = calloc(p->instances, sizeof *p->layers)))
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "plays", "out of memory");
        vkspy_layers_make(&p->layers_in, p->instances, p->clips, p->bindings, p->layers);
    }
    src->kind = VKS_POSE_CLIP;
    src->layers = p->layers;
    src->plays = p->plays, src->play_count = p->instances;
    src->fast_sampling = fast;
    return VKS_OK;
}

void vkspy_plays_instance(const vkspy_plays *p, uint32_t i, vks_instance *out)
{
    memset(out, 0, sizeof *out);
    const vks_clip_play *pl = &p->plays[i];
    out->pose = p->sources[i] >= 0 ? VKS_POSE_CLIP : VKS_POSE_BIND;
    if (p->layers && p->layers[i].count)
        vkspy_layers_stream(&p->layers_in, i, out);
    out->root = p->roots ? p->roots[i] : vks_affine_identity();
    out->clip = p->sources[i] >= 0 ? (uint32_t)p->sources[i] : 0;
    out->clip_start = pl->start, out->clip_speed = pl->speed;
    out->clip_cycle = (vks_cycle)pl->cycle;
}

void vkspy_plays_free(vkspy_plays *p)
{
    for (uint32_t k = 0; k < p->bound; k++)
        vks_clip_binding_free(&p->bindings[k]);
    free(p->bindings);
    free(p->plays);
    free(p->clips);
    free(p->layers);
    memset(p, 0, sizeof *p);
}
