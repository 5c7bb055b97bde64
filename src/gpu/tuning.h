/* Launch shapes of the compute passes, chosen per device: the one place that says which
 * workgroup size, instance run, shared palette and matrix path a device gets, and why.
 *
 * Pure functions over plain facts of a device (no Vulkan call), so the choice is unit-tested
 * against real device tables (tests/unit/test_tuning.c: the H100's vulkaninfo, lavapipe and
 * others) and every shape a GPU would take can be forced on lavapipe and checked against the
 * CPU reference (tests/unit/test_gpu_shapes.c). */
#ifndef VKS_GPU_TUNING_H
#define VKS_GPU_TUNING_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* What the choice reads of a device. device_type uses VkPhysicalDeviceType's values
 * (0 other, 1 integrated GPU, 2 discrete GPU, 3 virtual GPU, 4 CPU). */
typedef struct vks__device_facts {
    uint32_t vendor_id, device_id, device_type;
    uint32_t subgroup_size;
    uint32_t max_shared_memory;         /* maxComputeSharedMemorySize, bytes */
    uint32_t max_workgroup_invocations; /* maxComputeWorkGroupInvocations */
    uint32_t max_workgroup_size_x;      /* maxComputeWorkGroupSize[0] */
    uint64_t max_texel_buffer_elements;
    uint64_t max_storage_range;         /* maxStorageBufferRange, bytes */
} vks__device_facts;

/* A launch shape of the pose and deform passes. */
typedef struct vks__launch_shape {
    uint32_t deform_wg;    /* deform workgroup size: vertices of a group per work item */
    uint32_t pose_wg;      /* pose workgroup size: instances per workgroup (serial), invocations
                            * sharing one instance's nodes and bones (nodes) */
    uint32_t pose_nodes;   /* pose pass variant: 0 serial (an invocation walks an instance's
                            * skeleton), 1 nodes (a workgroup per instance, by depth levels) */
    uint32_t instance_run; /* instances one deform work item loops over */
    uint32_t palette_cap;  /* skin matrices gathered into shared memory; 0: no shared palette */
    uint32_t skin_texels;  /* 1: skin matrices read through a texel buffer view */
    uint32_t skip_zeros;   /* 1: the deform kernel loads no matrix for an influence of weight 0
                            * (fewer bytes gathered where vertices use fewer than 4 bones, a
                            * branch per slot); 0: every slot blended, the empty ones with weight 0 */
    const char *source;    /* "table", "cache", "calibration" or "forced" */
    const char *reason;    /* the table row or the override that gave it (static text) */
    uint64_t chunk_bytes;  /* output bytes of one chunk of a one-shot deform (a run whose buffers
                            * are made for it: the vkskin program's deform --gpu) */
    uint32_t known;        /* 1: a row of the table that names this kind of device (rests on a
                            * measurement of it); 0: the fallback for devices the table does not
                            * know, which calibration at first use replaces (tuning_start.h) */
    uint32_t slices;       /* a crowd frame's pose and deform passes staggered over up to this many
                            * slices of a part's instances: the pose of slice s + 1 is recorded
                            * beside the deform of slice s, with no barrier between them, so the
                            * latency-bound skeleton walk runs under the bandwidth-bound deform
                            * (crowd_frame.c). 1: the pose pass, a barrier, the deform pass */
    uint32_t slice_min;    /* the fewest instances a slice holds (vks__crowd_slices) */
    uint32_t small_known;  /* 1: the row rests on measurements that hold for small models too
                            * (VKS__SMALL_MODEL_VERTICES); 0: they were made on larger models,
                            * and the small-model class calibrates at first use (tuning_start.h) */
} vks__launch_shape;

/* The small-model class: crowds and runs whose largest share of work is a model of at most
 * this many vertices ("a few hundred to a few thousand"). On a GPU their shape is measured
 * apart: one instance's matrices are gathered again for every few vertices, so what is fastest
 * at 10k vertices need not be at 1k (BENCHMARKS.md, issue 41's arithmetic). */
enum { VKS__SMALL_MODEL_VERTICES = 4096 };
static inline int vks__small_model(uint32_t vertices)
{
    return vertices > 0 && vertices <= VKS__SMALL_MODEL_VERTICES;
}

/* The small-model class's calibration (and vks_gpu_tune of a small model) times each candidate
 * on about this many vertex-instances, at least 64 instances and at most 65,536: 4,096
 * instances of a 1k-vertex model, 100 MB of outputs, where 64 would be a few microseconds of
 * an H100 and time the launch rather than the regime of 10^4-10^5 instances. Where
 * VKSKIN_TEST_CALIBRATE_OVER is set, 64: tests prove the mechanism on lavapipe, where 4,096
 * instances of every candidate would cost seconds. Inline: the tune report names it too. */
#define VKS__SMALL_CALIBRATION_WORK ((uint64_t)1 << 22)
static inline uint32_t vks__small_calibration_instances(uint32_t vertices)
{
    const char *test = getenv("VKSKIN_TEST_CALIBRATE_OVER");
    if ((test && *test) || vertices == 0)
        return 64;
    uint64_t n = VKS__SMALL_CALIBRATION_WORK / vertices;
    return n < 64 ? 64u : n > 65536 ? 65536u : (uint32_t)n;
}

/* The candidates the small-model class's calibration times: the built-in ones
 * (vks__tuning_candidates) and shapes for small models (workgroups of one group's vertices
 * with the palette staged once, longer runs), those the device can run; as
 * vks__tuning_candidates. */
uint32_t vks__tuning_small_candidates(const vks__device_facts *f, const char **out, uint32_t cap,
                                      uint32_t *left_out);

/* The most slices a shape may ask, and the fewest instances a slice holds by default: a
 * slice's pose dispatch must fill a GPU on its own, or the deform beside it gains nothing and
 * the extra barrier costs. An H100 keeps 132 SMs x 64 warps = 8,448 subgroups resident and the
 * pose pass by nodes gives each instance a subgroup: 16,384 instances are two waves of it. */
enum { VKS__MAX_SLICES = 8, VKS__SLICE_MIN_DEFAULT = 16384 };

/* The slices a crowd part of `instances` instances is recorded in under shape s: as many as
 * s->slices allows with at least s->slice_min instances each (VKS__SLICE_MIN_DEFAULT where 0),
 * and at least 1. Pure: tests/unit/test_tuning.c. */
uint32_t vks__crowd_slices(const vks__launch_shape *s, uint32_t instances);

/* The shape the table of known devices gives: the start before any measurement. */
vks__launch_shape vks__tuning_pick(const vks__device_facts *f);

/* The shared-palette slots (48 B each) that fit beside the deform kernel's output staging
 * (24 B an invocation) in the device's shared memory with the given workgroup size, at most
 * 512; 0 when none fit. */
uint32_t vks__tuning_palette_slots(const vks__device_facts *f, uint32_t deform_wg);

/* Applies an override written as comma-separated key=value pairs to *shape:
 *   wg=N (deform workgroup, a power of two from 1 to the device's limit), pose_wg=N,
 *   pose=serial|nodes (the pose pass's variant; compute/pose.comp),
 *   run=N (instances a work item loops over, 1..256), palette=on|off|N (N: slots),
 *   texels=on|off, zeros=skip|blend (influences of weight 0: their matrices not loaded, or
 *   blended with weight 0 like the others), slices=N (a crowd frame's pose/deform stagger,
 *   1..VKS__MAX_SLICES; 1: none), slice_min=N (the fewest instances of a slice, >= 1)
 * e.g. "wg=256,run=8,palette=off". Unknown keys, bad numbers and values the device cannot
 * run are refused: returns 0 and writes why into why[n]. An empty string changes nothing. */
int vks__launch_shape_apply(const char *spec, const vks__device_facts *f, vks__launch_shape *shape, char *why,
                            size_t n);

/* The built-in candidates vks_gpu_tune and calibration at first use time: the table's shapes
 * and the shapes measured on GPUs, those the device with facts f can run. A candidate over the
 * device's limits (wg=512 where SwiftShader takes 256) is left out rather than failing the whole
 * calibration, so a device with small limits still calibrates with the rest. Writes up to cap
 * of them into out, in the list's order; returns how many were written, and how many were left
 * out into *left_out (NULL: not asked). */
uint32_t vks__tuning_candidates(const vks__device_facts *f, const char **out, uint32_t cap, uint32_t *left_out);

/* One line describing the shape ("wg=256,pose_wg=32,run=8,palette=off,texels=on,pose=nodes",
 * then ",zeros=skip" where the shape skips and ",slices=N" where crowd frames are sliced (with
 * ",slice_min=M" where that is not the default), so every older shape keeps its text), into
 * out[n]. */
void vks__launch_shape_format(const vks__launch_shape *s, char *out, size_t n);

#endif
