/* Crowd layers for vkskin.deform (pose.h's blend rule): each instance's layers, transition and
 * root motion from the arrays vkskin/_api.py makes of a crowd file or of Python data, as
 * vks_clip_layers for the CPU engines and as stream instances for the GPU; the root motion is
 * the reference's (double) on every engine, as the vkskin program writes it. */
#include "vkskin_py.h"

static int array_of(PyObject *o, int type, npy_intp count, const void **out)
{
    PyArrayObject *a = (PyArrayObject *)o;
    if (!PyArray_Check(o) || PyArray_TYPE(a) != type || !PyArray_IS_C_CONTIGUOUS(a) || PyArray_SIZE(a) != count) {
        vkspy_raise_code(VKS_ERR_INVALID, NULL, "crowd layers: arrays of %lld entries, C-contiguous", (long long)count);
        return 0;
    }
    *out = PyArray_DATA(a);
    return 1;
}

int vkspy_layers_parse(PyObject *t, npy_intp n, uint32_t clip_count, vkspy_layer_input *out)
{
    PyObject *counts, *ints, *floats, *fades, *root_motion;
    if (!PyArg_ParseTuple(t, "OOOOO", &counts, &ints, &floats, &fades, &root_motion) ||
        !array_of(counts, NPY_UINT32, n, (const void **)&out->counts) ||
        !array_of(ints, NPY_INT32, n * VKS_MAX_LAYERS * 6, (const void **)&out->ints) ||
        !array_of(floats, NPY_FLOAT32, n * VKS_MAX_LAYERS * 4, (const void **)&out->floats) ||
        !array_of(fades, NPY_FLOAT32, n * 2, (const void **)&out->fades) ||
        !array_of(root_motion, NPY_INT32, n, (const void **)&out->root_motion))
        return 0;
    for (npy_intp i = 0; i < n; i++) {
        const int32_t *y = out->ints + i * VKS_MAX_LAYERS * 6;
        int ok = out->counts[i] <= VKS_MAX_LAYERS && VKS_ROOT_MOTION_VALID(out->root_motion[i]);
        for (uint32_t k = 0; ok && k < out->counts[i]; k++, y += 6)
            ok = y[0] >= 0 && (uint32_t)y[0] < clip_count && y[5] >= -1 && y[5] < (int32_t)clip_count;
        if (!ok) {
            vkspy_raise_code(VKS_ERR_INVALID, NULL, "crowd instance %lld: bad layers", (long long)i);
            return 0;
        }
    }
    return 1;
}

void vkspy_layers_make(const vkspy_layer_input *in, uint32_t instances, const vks_clip *const *clips,
                       const vks_clip_binding *bindings, vks_clip_layers *out)
{
    for (uint32_t i = 0; i < instances; i++) {
        vks_clip_layers *l = &out[i];
        l->count = in->counts[i];
        l->fade_start = in->fades[i * 2], l->fade_duration = in->fades[i * 2 + 1];
        l->root_motion = in->root_motion[i];
        for (uint32_t k = 0; k < l->count; k++) {
            const int32_t *y = in->ints + ((size_t)i * VKS_MAX_LAYERS + k) * 6;
            const float *f = in->floats + ((size_t)i * VKS_MAX_LAYERS + k) * 4;
            vks_clip_layer *o = &l->layer[k];
            o->play.clip = clips[y[0]], o->play.binding = &bindings[y[0]];
            o->play.start = f[0], o->play.speed = f[1], o->play.cycle = y[1];
            o->weight = f[2], o->mode = y[2], o->fade = y[3], o->mask = (uint32_t)y[4];
            if (y[5] >= 0)
                o->ref_clip = clips[y[5]], o->ref_binding = &bindings[y[5]];
            o->ref_time = f[3];
        }
    }
}

void vkspy_layers_stream(const vkspy_layer_input *in, uint32_t i, vks_instance *out)
{
    out->pose = VKS_POSE_LAYERS;
    out->layer_count = in->counts[i];
    out->fade_start = in->fades[i * 2], out->fade_duration = in->fades[i * 2 + 1];
    out->root_motion = in->root_motion[i];
    for (uint32_t k = 0; k < out->layer_count; k++) {
        const int32_t *y = in->ints + ((size_t)i * VKS_MAX_LAYERS + k) * 6;
        const float *f = in->floats + ((size_t)i * VKS_MAX_LAYERS + k) * 4;
        vks_instance_layer *o = &out->layers[k];
        o->clip = (uint32_t)y[0], o->start = f[0], o->speed = f[1], o->cycle = (vks_cycle)y[1];
        o->weight = f[2], o->mode = (vks_layer_mode)y[2], o->fade = (vks_layer_fade)y[3];
        o->mask = (uint32_t)y[4];
        o->reference = y[5] >= 0 ? (uint32_t)y[5] + 1 : 0;
        o->ref_time = f[3];
    }
}

int vkspy_layers_root_motion(const vkspy_layer_input *in, uint32_t instances)
{
    for (uint32_t i = 0; in->counts && i < instances; i++)
        if (in->counts[i] && in->root_motion[i])
            return 1;
    return 0;
}

/* (instances, frames, 4): x, y, z and yaw at each frame's time, zeros for unlayered instances. */
void vkspy_layers_root_track(const vks_clip_layers *layers, const vks_skin *skin, const vks_pose_source *src,
                             uint32_t instances, uint32_t frames, double *out)
{
    for (uint32_t i = 0; i < instances; i++)
        for (uint32_t f = 0; f < frames; f++) {
            double *m = out + ((size_t)i * frames + f) * 4;
            m[0] = m[1] = m[2] = m[3] = 0;
            if (layers[i].count)
                vks_clip_layers_root_track(&layers[i], skin, vks_pose_source_time(src, f), m);
        }
}
