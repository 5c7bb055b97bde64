/* vkskin.deform's engine runs: every (instance, frame) pose of one model deformed on the CPU
 * reference, the fast CPU engine or a GPU context, straight into the output arrays.
 *
 * Outputs are (instances, frames, vertices, 3) float32, C order: pose p = instance * frames +
 * frame is one deform job "instance" (deform.h), so one job over a run of consecutive poses
 * writes its part of the array in place and nothing is copied after the engine (the GPU's
 * clip stream hands frames from its readback ring: that copy is the library's one). The GIL
 * is released for the whole run; the model, clips and pose arrays are held by the call. */
#include "vkskin_py.h"

#include <stdlib.h>
#include <string.h>

enum { ENGINE_CPU, ENGINE_CPU_FAST, ENGINE_GPU };

typedef struct plan {
    const vks_skin *skin;
    uint32_t instances, frames;
    int engine, threads, normals;
    vks_gpu *gpu;
    vks_pose_source src;            /* procedural or clip */
    vkspy_plays pl;                 /* clips: what each instance plays (sources NULL: none) */
    double *root_motion;            /* out: (instances, frames, 4), or NULL */
    const float *poses;             /* user locals (pose_instances, pose_frames, nodes, 12), or NULL */
    uint32_t pose_instances, pose_frames;
    float *pos, *nrm;               /* the output arrays' data */
} plan;

/* Poses per engine call: about 32 MiB of locals, whole runs of the output. */
static uint64_t chunk_poses(const plan *p, uint64_t total)
{
    uint64_t per = (uint64_t)(p->skin->node_count ? p->skin->node_count : 1) * sizeof(vks_affine);
    uint64_t n = (32ull << 20) / per;
    if (n < 1)
        n = 1;
    if (n > UINT32_MAX / 2)
        n = UINT32_MAX / 2;
    return n < total ? n : total;
}

static const vks_affine *user_locals(const plan *p, uint32_t i, uint32_t f)
{
    uint64_t k = (uint64_t)(p->pose_instances > 1 ? i : 0) * p->pose_frames + f % p->pose_frames;
    return (const vks_affine *)(p->poses + k * p->skin->node_count * 12);
}

/* Locals (and morph weights) of poses [first, first + n) into the chunk's buffers; returns the
 * locals the job reads (the user's own array where it is laid out as the job wants). */
static const vks_affine *fill_chunk(const plan *p, uint64_t first, uint32_t n, vks_affine *locals, float *weights,
                                    int *weighted)
{
    const vks_skin *s = p->skin;
    *weighted = 0;
    if (p->poses && p->pose_instances == p->instances && p->pose_frames == p->frames)
        return (const vks_affine *)(p->poses + first * s->node_count * 12);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t q = first + k;
        uint32_t i = (uint32_t)(q / p->frames), f = (uint32_t)(q % p->frames);
        vks_affine *out = locals + (size_t)k * s->node_count;
        if (p->poses)
            memcpy(out, user_locals(p, i, f), s->node_count * sizeof *out);
        else
            vks_pose_source_locals(&p->src, s, i, f, out);
        if (weights)
            *weighted |= vks_pose_source_weights(&p->src, s, i, f, weights + (size_t)k * s->target_count) != 0;
    }
    return locals;
}

/* The CPU engines, or the GPU on host-made locals (procedural, pose arrays). */
static vks_result run_jobs(const plan *p, vks_error *err)
{
    const vks_skin *s = p->skin;
    uint64_t total = (uint64_t)p->instances * p->frames, chunk = chunk_poses(p, total);
    vks_affine *locals = malloc(chunk * (s->node_count ? s->node_count : 1) * sizeof *locals);
    float *weights = s->target_count && !p->poses ? malloc(chunk * s->target_count * sizeof *weights) : NULL;
    vks_gpu_models *models = NULL;
    vks_result r = locals && (weights || !s->target_count || p->poses) ? VKS_OK
                   : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory for %llu poses",
                                   (unsigned long long)chunk);
    if (r == VKS_OK && p->engine == ENGINE_GPU)
        r = vks_gpu_upload(p->gpu, &s, 1, &models, err);
    for (uint64_t first = 0; r == VKS_OK && first < total; first += chunk) {
        uint32_t n = (uint32_t)(total - first < chunk ? total - first : chunk);
        int weighted = 0;
        size_t at = (size_t)first * s->vertex_count * 3;
        vks_deform_job job = {s, fill_chunk(p, first, n, locals, weights, &weighted), n, p->pos + at,
                              p->nrm ? p->nrm + at : NULL, NULL};
        if (weighted)
            job.morph_weights = weights;
        if (p->engine == ENGINE_CPU)
            r = vks_cpu_reference_run(&job, err);
        else if (p->engine == ENGINE_CPU_FAST)
            r = vks_cpu_fast_run(&job, p->threads, err);
        else
            r = vks_gpu_run_job(p->gpu, models, 0, &job, NULL, err);
        for (uint32_t k = 0; r == VKS_OK && p->pl.roots && k < n; k++) { /* as the GPU's crowd places them */
            size_t o = (size_t)k * s->vertex_count * 3;
            vks_apply_root(s, &p->pl.roots[(first + k) / p->frames], job.positions + o,
                             job.normals ? job.normals + o : NULL);
        }
    }
    vks_gpu_models_free(models);
    free(locals);
    free(weights);
    return r;
}

/* The GPU's clip stream: frame `frame` of instances [first, first + count) into the output. */
static int take_frame(void *user, const vks_stream_delivery *d)
{
    const plan *p = user;
    size_t per = (size_t)p->skin->vertex_count * 3;
    for (uint32_t k = 0; k < d->count; k++) {
        size_t at = ((size_t)(d->first + k) * p->frames + d->frame) * per;
        memcpy(p->pos + at, d->positions + k * per, per * sizeof(float));
        if (p->nrm && d->normals)
            memcpy(p->nrm + at, d->normals + k * per, per * sizeof(float));
    }
    return 0;
}

/* Clips on the GPU: sampled in the crowd's pose pass (what deform --gpu --clip runs). */
static vks_result run_stream(const plan *p, vks_error *err)
{
    const vks_skin *s = p->skin;
    float *times = malloc(p->frames * sizeof *times);
    vks_instance *in = calloc(p->instances, sizeof *in);
    vks_gpu_models *models = NULL;
    vks_result r = times && in ? VKS_OK : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "deform", "out of memory");
    if (r == VKS_OK)
        r = vks_gpu_upload(p->gpu, &s, 1, &models, err);
    for (uint32_t f = 0; r == VKS_OK && f < p->frames; f++)
        times[f] = vks_pose_source_time(&p->src, f);
    for (uint32_t i = 0; r == VKS_OK && i < p->instances; i++)
        vkspy_plays_instance(&p->pl, i, &in[i]);
    if (r == VKS_OK) {
        vks_stream_desc d = {0};
        d.models = models, d.skins = &s, d.model_count = 1;
        d.clips = p->pl.clips, d.clip_count = p->pl.clip_count;
        d.layers = p->pl.layers != NULL;
        d.instances = in, d.instance_count = p->instances;
        d.times = times, d.frame_count = p->frames;
        d.no_normals = !p->nrm;
        d.deliver = take_frame, d.user = (void *)p;
        r = vks_stream_run(p->gpu, &d, NULL, err);
    }
    vks_gpu_models_free(models);
    free(times);
    free(in);
    return r;
}

static int parse_engine(PyObject *ctx, const char *name)
{
    if (!strcmp(name, "cpu"))
        return ENGINE_CPU;
    if (!strcmp(name, "cpu-fast"))
        return ENGINE_CPU_FAST;
    if (!strcmp(name, "gpu") && ctx != Py_None)
        return ENGINE_GPU;
    return -1;
}

/* Checks a pose array: float32, C-contiguous, (frames, nodes, 4, 3) or (instances, frames,
 * nodes, 4, 3). Returns 0 with a Python exception set otherwise. */
static int plan_poses(plan *p, PyArrayObject *a)
{
    int nd = PyArray_NDIM(a);
    const npy_intp *d = PyArray_DIMS(a);
    if (PyArray_TYPE(a) != NPY_FLOAT32 || !PyArray_IS_C_CONTIGUOUS(a) || (nd != 4 && nd != 5) ||
        d[nd - 1] != 3 || d[nd - 2] != 4 || d[nd - 3] != (npy_intp)p->skin->node_count || d[nd - 4] < 1 ||
        d[nd - 4] > UINT32_MAX || (nd == 5 && d[0] != (npy_intp)p->instances)) {
        vkspy_raise_code(VKS_ERR_INVALID, NULL,
                         "poses must be float32, C-contiguous, (frames, %u, 4, 3) or (%u, frames, %u, 4, 3)",
                         p->skin->node_count, p->instances, p->skin->node_count);
        return 0;
    }
    p->poses = PyArray_DATA(a);
    p->pose_instances = nd == 5 ? p->instances : 1;
    p->pose_frames = (uint32_t)d[nd - 4];
    return 1;
}

/* Binds every clip the instances play and makes their plays (pose.h: a NULL clip is the bind
 * pose; the fast engine samples in float, as deform --cpu-fast does), then runs the engine. */
static vks_result run_plan(plan *p, vks_error *err)
{
    vks_result r = p->pl.sources ? vkspy_plays_bind(&p->pl, p->skin, p->engine == ENGINE_CPU_FAST, &p->src, err)
                                 : VKS_OK;
    if (r == VKS_OK)
        r = p->pl.sources && p->engine == ENGINE_GPU ? run_stream(p, err) : run_jobs(p, err);
    if (r == VKS_OK && p->root_motion) /* the reference's motion, whatever the engine */
        vkspy_layers_root_track(p->pl.layers, p->skin, &p->src, p->instances, p->frames, p->root_motion);
    return r;
}

/* An output array given to write into (deform(out=)): float32, C-contiguous, writeable, of
 * dims; a new reference, or NULL with an exception set. None: a new array. */
static PyArrayObject *output(PyObject *given, const npy_intp *dims)
{
    if (given == Py_None)
        return (PyArrayObject *)PyArray_EMPTY(4, (npy_intp *)dims, NPY_FLOAT32, 0);
    PyArrayObject *a = (PyArrayObject *)given;
    if (!PyArray_Check(given) || PyArray_TYPE(a) != NPY_FLOAT32 || !PyArray_IS_C_CONTIGUOUS(a) ||
        !PyArray_ISWRITEABLE(a) || PyArray_NDIM(a) != 4 || !PyArray_CompareLists(PyArray_DIMS(a), dims, 4)) {
        vkspy_raise_code(VKS_ERR_INVALID, NULL, "out: writeable C-contiguous float32 arrays of (%lld, %lld, %lld, 3)",
                         (long long)dims[0], (long long)dims[1], (long long)dims[2]);
        return NULL;
    }
    Py_INCREF(given);
    return a;
}

/* The outputs and the run, the GIL released (a context's lock held for the GPU). */
static PyObject *run(plan *p, PyObject *model, PyObject *ctx, int normals, PyObject *out_pos, PyObject *out_nrm)
{
    npy_intp dims[4] = {p->instances, p->frames, p->skin->vertex_count, 3};
    PyArrayObject *pos = output(out_pos, dims);
    PyArrayObject *nrm = normals && pos ? output(out_nrm, dims) : NULL;
    if (!pos || (normals && !nrm)) {
        Py_XDECREF(pos);
        Py_XDECREF(nrm);
        return NULL;
    }
    PyArrayObject *motion = NULL;
    if (vkspy_layers_root_motion(&p->pl.layers_in, p->instances)) {
        npy_intp mdims[3] = {p->instances, p->frames, 4};
        if (!(motion = (PyArrayObject *)PyArray_EMPTY(3, mdims, NPY_FLOAT64, 0))) {
            Py_DECREF(pos);
            Py_XDECREF(nrm);
            return NULL;
        }
        p->root_motion = PyArray_DATA(motion);
    }
    p->pos = PyArray_DATA(pos);
    p->nrm = nrm ? PyArray_DATA(nrm) : NULL;
    vks_error err = {0};
    vks_result r;
    PyThread_type_lock lock = p->engine == ENGINE_GPU ? ((vkspy_context *)ctx)->lock : NULL;
    Py_BEGIN_ALLOW_THREADS
    if (lock) /* one run at a time on a context's queue */
        PyThread_acquire_lock(lock, WAIT_LOCK);
    if (lock && ((vkspy_context *)ctx)->gpu != p->gpu) /* closed on another thread meanwhile */
        r = vks_error_set(&err, VKS_ERR_INVALID, VKS_NO_OFFSET, "context", "the context was closed");
    else
        r = run_plan(p, &err);
    if (lock)
        PyThread_release_lock(lock);
    Py_END_ALLOW_THREADS
    if (r != VKS_OK) {
        Py_DECREF(pos);
        Py_XDECREF(nrm);
        Py_XDECREF(motion);
        return vkspy_raise(&err, PyUnicode_AsUTF8(((vkspy_model *)model)->path));
    }
    return Py_BuildValue("(NNN)", pos, nrm ? (PyObject *)nrm : Py_NewRef(Py_None),
                         motion ? (PyObject *)motion : Py_NewRef(Py_None));
}

/* deform(model, engine, context, instances, frames, fps, time, seed, max_angle, poses, plays,
 *        normals, threads, out_positions, out_normals) -> (positions, normals or None, root
 * motion (instances, frames, 4) or None);
 * vkskin/_api.py checks the Python types and makes plays (vkspy_plays_parse). */
PyObject *vkspy_deform(PyObject *self, PyObject *args, PyObject *kwargs)
{
    (void)self, (void)kwargs;
    PyObject *model, *ctx, *poses_obj, *plays, *out_pos = Py_None, *out_nrm = Py_None;
    const char *engine_name;
    unsigned instances, frames;
    float fps, time, max_angle;
    unsigned long long seed;
    int normals, threads;
    if (!PyArg_ParseTuple(args, "O!sOIIffKfOOpi|OO", &vkspy_model_type, &model, &engine_name, &ctx,
                          &instances, &frames, &fps, &time, &seed, &max_angle, &poses_obj, &plays, &normals,
                          &threads, &out_pos, &out_nrm))
        return NULL;
    plan p = {0};
    p.skin = ((vkspy_model *)model)->skin;
    p.instances = instances, p.frames = frames, p.threads = threads;
    p.engine = parse_engine(ctx, engine_name);
    if (p.engine < 0)
        return vkspy_raise_code(VKS_ERR_INVALID, NULL, "engine must be 'cpu', 'cpu-fast' or 'gpu' with a context");
    if (p.engine == ENGINE_GPU) {
        if (!PyObject_TypeCheck(ctx, &vkspy_context_type) || !((vkspy_context *)ctx)->gpu)
            return vkspy_raise_code(VKS_ERR_INVALID, NULL, "the GPU engine needs an open vkskin.Context");
        p.gpu = ((vkspy_context *)ctx)->gpu;
    }
    if (instances < 1 || frames < 1 ||
        (uint64_t)instances * frames * p.skin->vertex_count * 3 > (uint64_t)PY_SSIZE_T_MAX / 8)
        return vkspy_raise_code(VKS_ERR_LIMIT, NULL, "instances and frames must be >= 1, their outputs within memory");
    p.src.kind = VKS_POSE_PROCEDURAL;
    p.src.seed = seed, p.src.fps = fps, p.src.start_time = time, p.src.max_angle = max_angle;
    PyObject *out = NULL;
    if ((poses_obj == Py_None || plan_poses(&p, (PyArrayObject *)poses_obj)) &&
        (plays == Py_None || vkspy_plays_parse(plays, instances, &p.pl)))
        out = run(&p, model, ctx, normals, out_pos, out_nrm);
    vkspy_plays_free(&p.pl);
    return out;
}
