/* The stream's readback ring (stream.c): slots of a command buffer, a fence, a host-visible
 * staging buffer and a timestamp pair each. A slot records one crowd frame and the copy of
 * the chunk's outputs into its staging buffer, is submitted without waiting, and is waited
 * for by its own fence when its frame is delivered, so the GPU runs the next frames while the
 * host consumes this one. Vulkan stays in here; stream.c plans chunks and frames.
 *
 * Where the context reads back on a queue apart (gpu->readback_apart: a copy engine's family,
 * or the testing switch), a slot is two submissions: on the compute queue the frame and a
 * gather of the chunk's outputs into the slot's device-local snapshot, signalling the slot's
 * semaphore; on the readback queue one copy of the snapshot into the staging buffer, waiting
 * for that semaphore and signalling the slot's fence. The snapshot is what lets the copy
 * engine stream frame N over the bus while the compute queue deforms frame N+1 into the
 * crowd's same outputs: without it frame N+1 would have to wait for frame N's copy (a
 * write-after-read across queues), and the bus would idle while the GPU deforms. It costs a
 * device-to-device copy (tens of times faster than the bus) and a slot's bytes of device
 * memory per slot. */
#ifndef VKSKIN_GPU_STREAM_RING_H
#define VKSKIN_GPU_STREAM_RING_H

#include "gpu/backend.h"
#include "gpu_internal.h"

typedef struct vks__ring_slot {
    vks__oneshot os;   /* the frame (and, on one submission, the copies) on the compute queue */
    vks__buf stage;
    VkQueryPool qpool; /* VK_NULL_HANDLE without timestamps */
    int busy;          /* os submitted, not yet waited for */
    /* readback apart only (VK_NULL_HANDLE otherwise) */
    vks__oneshot copy;     /* the snapshot's copy into stage, on the readback queue */
    vks__buf snapshot;     /* the chunk's outputs as the compute queue left them */
    VkSemaphore computed;  /* signalled by os, waited for by copy */
    int copy_busy;         /* copy submitted, not yet waited for */
    /* ring->reduce only: one reduction per run of the chunk's outputs that lie one after the
       other in one crowd part (a chunk spans parts), each bound to that part's buffers; the
       runs' figures merge exactly (sums, xor, extents) into the frame's */
    vks__reduce *red;
    uint32_t red_cap, red_used;
} vks__ring_slot;

struct vks__ring {
    vks_gpu *gpu;
    uint32_t count;
    uint64_t slot_bytes;
    int reduce;            /* the stream asked for gpu_figures and the device can reduce */
    vks__ring_slot slot[VKS__RING_MAX];
};

#endif
