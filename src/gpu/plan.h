/* The GPU engine's planning, apart from any backend: how a batch is cut into chunks, how a
 * crowd is cut into parts, which deform work items a set of instances needs, and the arithmetic
 * of repeated timings. Pure functions of the host's copy of a model set (no device object, no
 * Vulkan call), unit-tested without a device (tests/unit/test_gpu_plan.c,
 * tests/unit/test_chunk_budget.c). The tuning table (tuning.h), the cache of its measurements
 * (tuning_cache.h) and the queue family choice (queue_choice.h) are planning too; the Vulkan
 * backend (vulkan/) records and runs what is planned here. */
#ifndef VKS_GPU_PLAN_H
#define VKS_GPU_PLAN_H

#include <stdint.h>

#include "gpu/tables.h"
#include "vkskin/crowd.h"
#include "vkskin/gpu.h"

/* A model as the scheduler needs it on the host. */
typedef struct vks__gpu_model {
    uint32_t node_count, bone_count, vertex_count;
    uint32_t first_group, group_count; /* in the set's group table */
    uint32_t node_base;                /* in the set's node tables (bind_locals) */
    uint32_t levels;                   /* depth levels of its skeleton (the pose pass's nodes variant) */
    uint32_t morph_slots;              /* matrix slots before each instance's locals that hold its
                                          morph weights (ceil(target_count / 12); 0: no targets) */
} vks__gpu_model;

/* A model set as the planning sees it: the host's copies of its tables (vks_gpu_models holds
 * them beside the device buffers; vks__plan_of gives this view of it). */
typedef struct vks__plan_models {
    uint32_t count;
    const vks__gpu_model *models;
    const vks__gpu_group *groups;     /* every model's groups, models[m].first_group on */
    const uint32_t *group_influences; /* 1..8 per group: the slots its vertices use */
} vks__plan_models;

/* The deform kernel's influence variants (compute/deform.comp's INFLUENCES): 1..4 slots, and
 * 8 for groups of 5..8 influences, so a model without such groups never runs (or compiles) the
 * wider kernel. */
#define VKS__DEFORM_VARIANTS 5
/* The variant (0 .. VKS__DEFORM_VARIANTS - 1) of a group whose vertices use k slots. */
static inline uint32_t vks__deform_variant(uint32_t k)
{
    return k <= 1 ? 0 : k <= 4 ? k - 1 : 4;
}
/* The slots variant v reads. */
static inline uint32_t vks__variant_slots(uint32_t v)
{
    return v < 4 ? v + 1 : 8;
}

/* Capacities of one pass set: output vertices, node/bone matrices, instances, work items. */
typedef struct vks__caps {
    uint64_t vertices, matrices, instances, works;
} vks__caps;

/* Host memory for the readback buffers of all slots of a batch together (outputs are consumed
 * chunk by chunk, so this bounds the process whatever the batch size). */
#define VKS__HOST_BUDGET ((uint64_t)1 << 30)

/* The output bytes of one stream in one chunk of vks_gpu_run: under the storage-binding range
 * (each table is bound whole), an eighth of the device-local heap per ring slot (two output
 * streams and tables of similar size: half the heap left free), half the host budget per slot
 * (1 GiB in all), and the caller's cap (0: none). Pure: tested against real devices' limits
 * (tests/unit/test_chunk_budget.c). */
uint64_t vks__chunk_budget(uint64_t storage_range, uint64_t device_heap, uint32_t ring, uint64_t cap);
/* Capacities for an output budget of `bytes` per stream, clipped to what the batch of n
 * entries needs: never below one instance of its largest model, never above the whole batch
 * (bytes 0: one instance of the largest model; UINT64_MAX / 2: the batch in one chunk). wg:
 * vertices per deform work item, tile: instances per work item. */
vks__caps vks__batch_caps(vks__plan_models pm, const vks_gpu_batch_entry *entries, uint32_t n, uint64_t bytes,
                          uint32_t wg, uint32_t tile);
int vks__caps_equal(const vks__caps *a, const vks__caps *b);
/* Bytes of the largest per-chunk table at these capacities: a budget that gives them again. */
uint64_t vks__caps_bytes(const vks__caps *c);

/* Deform work items of one instance of a model: a block of up to wg vertices per group. */
uint32_t vks__blocks_of(vks__plan_models pm, uint32_t model, uint32_t wg);
/* Appends the work items of `count` instances of model, the first being instance inst_first
 * of the set, to the per-variant lists (wl[k] must have room); returns the items added. wg
 * and tile as for vks__batch_caps. */
uint32_t vks__works_append(vks__plan_models pm, uint32_t wg, uint32_t tile, uint32_t model, uint32_t inst_first,
                           uint32_t count, vks__gpu_work *const wl[VKS__DEFORM_VARIANTS],
                           uint32_t wn[VKS__DEFORM_VARIANTS]);

/* Matrices one instance of m needs in the node/bone tables (world and skin share them). */
uint64_t vks__mats_of(const vks__gpu_model *m);

/* Cuts a crowd's count instances into parts: whole instances, in order, while every table of a
 * part stays within budget bytes. starts[p] is part p's first instance, caps[p] what it holds
 * (both with room for count entries); *parts gets their number. Work items are counted as the
 * deform pass will cut them: a run of consecutive instances of one model shares items per
 * started tile of `tile` instances; param_bytes is one instance's pose parameters (the layered
 * crowds' are larger). VKS_ERR_LIMIT when one instance alone is over budget. */
vks_result vks__crowd_layout(vks__plan_models pm, const vks_instance *inst, uint32_t count, uint64_t budget,
                             uint64_t param_bytes, uint32_t wg, uint32_t tile, uint32_t *starts, vks__caps *caps, uint32_t *parts,
                             vks_error *err);

/* The median of v[0..n) (n > 0; v is sorted in place): timings of repeated runs (tune, ceilings). */
double vks__median(double *v, uint32_t n);

#endif
