/* vks_validate_run's batch route through the stream (stream.h, HOST POSES): every input's poses
 * are host-posed stream instances of one frame (instance g: pose g - base[m] of input m), which
 * the stream deforms as one GPU batch, to vks_gpu_run's very bits; its locals come from the
 * validate context a block ahead (validate_poses.c). As each chunk comes back the CPU reference
 * deforms the same poses and the chunk is compared, and where the GPU reduced it (a delivery
 * that is a whole GPU chunk carries its figures) its readback is checked. */
#include <stdlib.h>
#include <string.h>

#include "check/validate_state.h"

typedef struct vhost {
    vrun *r;
    uint64_t *base;  /* per input: its first pose of the stream */
    uint32_t chunk;  /* GPU chunks checked so far */
} vhost;

static uint32_t input_of(const vhost *v, uint64_t g)
{
    return vks__validate_input_of(v->r, v->base, g);
}

static void host_instance(void *user, uint32_t g, vks_instance *out)
{
    memset(out, 0, sizeof *out);
    out->pose = VKS_POSE_HOST;
    out->model = input_of(user, g);
}

static void host_locals(void *user, uint32_t g, uint32_t frame, vks_affine *out)
{
    vhost *v = user;
    uint32_t m = input_of(v, g);
    (void)frame;
    vks__validate_pose_locals(&v->r->c, &v->r->o->inputs[m], (uint32_t)(g - v->base[m]), out);
}

/* A pose's morph weights (the source's, as the reference takes them). */
static void host_weights(void *user, uint32_t g, uint32_t frame, float *out)
{
    const vhost *v = user;
    uint32_t m = input_of(v, g), pose = (uint32_t)(g - v->base[m]);
    const vfile *f = &v->r->o->inputs[m];
    (void)frame;
    vks_pose_source_weights(f->ps.source, f->skin, pose / f->frames, pose % f->frames, out);
}

/* Poses [first, first + count) of the stream, as the GPU delivered them: each input's run of
 * them compared, then (a whole GPU chunk, reduced) the chunk's readback check. */
static int deliver(void *user, const vks_stream_delivery *d)
{
    vhost *v = user;
    vrun *r = v->r;
    if (vks__validate_compare_delivery(r, v->base, d, 0))
        return 1;
    if (d->gpu_figures) { /* the readback check, and a sampled run's bound, of the chunk */
        vks__validate_check_readback(&r->c, v->chunk++, "poses", d->gpu_figures);
        vks__validate_next_chunk(&r->c);
    }
    return 0;
}

vks_result vks__validate_host(vrun *r, vks_gpu *gpu, int reduce, int weights, vks_error *err)
{
    vhost v = {r, calloc(r->count + 1, sizeof *v.base), 0};
    float time0 = 0;
    if (!v.base)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    uint64_t total = 0;
    for (uint32_t m = 0; m < r->count; m++)
        v.base[m] = total, total += r->o->inputs[m].poses;
    vks_stream_desc d = {0};
    d.models = r->ms, d.skins = r->skins, d.model_count = r->count;
    d.get_instance = host_instance, d.instance_count = (uint32_t)total, d.user = &v;
    d.times = &time0, d.frame_count = 1; /* a pose an instance */
    d.chunk_bytes = r->opt->max_chunk_bytes;
    d.reduce = reduce;
    d.get_locals = host_locals, d.get_weights = weights ? host_weights : NULL;
    d.deliver = deliver;
    vks_stream_stats ss = {0};
    vks_result rc = total > UINT32_MAX ? vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "validate",
                                                        "%llu poses (at most %u)", (unsigned long long)total,
                                                        UINT32_MAX)
                                        : vks_stream_run(gpu, &d, &ss, err);
    vks_gpu_stats *st = &r->o->device.stats;
    st->chunks = ss.chunks, st->vertex_instances = ss.vertex_instances;
    st->pose_ms = ss.pose_ms, st->deform_ms = ss.deform_ms, st->readback_ms = ss.readback_ms; /* one batch's passes */
    free(v.base);
    return rc;
}
