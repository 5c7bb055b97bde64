/* Private to the crowd (crowd.c: creation, instance table; crowd_frame.c: recording, frames,
 * readback). */
#ifndef VKS_CROWD_INTERNAL_H
#define VKS_CROWD_INTERNAL_H

#include "gpu_internal.h"

/* Clips uploaded for a model set (clips.c uploads what src/gpu/clip_table.c lays out;
 * layout in compute/clip.glsl). */
struct vks_gpu_clips {
    vks_gpu *gpu;
    const vks_gpu_models *ms;
    uint32_t clip_count;
    uint32_t *entry;  /* [model * clip_count + clip]: word offset of that pair's entry */
    int32_t *motion;  /* [model * clip_count + clip]: the first node the clip drives, -1 none
                         (root motion's node, vks_clip_layers_motion_node) */
    uint64_t *loops;  /* [model * clip_count + clip]: its key searches' loop count as a layer
                         (clip_table.c; a model-delta clip's twice, for its parent's delta) */
    int morph;        /* some clip drives morph weights of some model (the deform pass's morph
                         stage reads what the pose pass samples) */
    vks__buf words;
};

struct vks_crowd {
    vks_gpu *gpu;
    const vks_gpu_models *ms;
    const vks_gpu_clips *clips; /* may be NULL */
    uint32_t count;
    vks_instance *inst;       /* host copy of the instance table (no locals pointers kept) */
    uint8_t *host_locals;     /* per instance: its locals table holds host locals, not the bind
                                 pose a VKS_POSE_BIND instance must show */
    uint32_t *part_of;        /* per instance: its part */
    vks__gpu_inst *where;     /* per instance: its entry in its part's instance table */
    uint32_t *slot_of;        /* per instance: its index in that table */
    uint32_t part_count;
    vks__passes *parts;       /* each bound whole under maxStorageBufferRange */
    VkDescriptorPool dpool;
    vks__oneshot own;         /* vks_crowd_run_frames and vks_crowd_read */
    VkQueryPool qpool;        /* two timestamps around vks_crowd_run_frames' frames */
    VkPipelineStageFlags consumer_stages;
    VkAccessFlags consumer_access;
    int normals;
    int layered;              /* the parameter table holds vks__gpu_layered_param entries */
    vks__buf stage;           /* vks_crowd_read's, made on its first call */
    /* vks_crowd_read's where the context reads back apart (gpu->readback_apart), made with
       stage: the copies on the readback queue, after the compute queue's signal of handed */
    vks__oneshot copy;
    VkSemaphore handed;
    int alive;                /* counted in gpu->live_crowds */
    const vks__shape_set *set; /* its shape apart from the context's (the small-model class,
                                  vks__shape_set_for); NULL: the context's */
};

#endif
