/* vks_validate_run's state (validate_run.c drives it; validate_state.c counts its progress),
 * shared with its routes: the host-posed batch (validate_host.c), the batch across several
 * contexts (validate_split.c) and the GPU-clip route through the stream (validate_crowd.c).
 * The routes take the state from here, never from validate_run.c, which calls them.
 * Library-internal. */
#ifndef VKS_CHECK_VALIDATE_STATE_H
#define VKS_CHECK_VALIDATE_STATE_H

#include "vkskin/validate.h"
#include "check/validate_engine.h"

/* What vks_validate_result.owned holds. */
typedef struct vowned {
    vks_validate_device device;
    vfile *inputs;
    vks_error_map *maps; /* 3 per input: positions, normals, golden positions */
    vks_validate_file *files;
    vks_report_file *reports;
    char (*run_errors)[96];
    char **golden_errors;
    uint32_t count;
} vowned;

typedef struct vrun {
    vowned *o;
    uint32_t count;
    const vks_validate_input *in;
    const vks_validate_options *opt;
    vks_gpu_models *ms;      /* every input's skin uploaded to the run's gpu (model k: input k) */
    const vks_skin **skins;
    vctx c;
    vcounts counts;
    uint64_t done, total;    /* poses compared, of the run's */
    uint32_t prepared;       /* inputs set up (a golden's state taken) */
} vrun;

/* Counts poses compared and calls the host's progress (validate_state.c). */
void vks__validate_progress(vrun *r, uint32_t poses);
/* The input whose stream indices hold g (base: each input's first index, in input order). */
uint32_t vks__validate_input_of(const vrun *r, const uint64_t *base, uint64_t g);
/* A stream delivery split over the inputs it spans and compared run by run with the
 * reference (each run noted for the readback check, progress counted); crowd: the stream's
 * indices are instances at d->frame (the GPU-clip route), else poses of one frame (the
 * host-posed route). Nonzero: out of memory, the run fails. */
int vks__validate_compare_delivery(vrun *r, const uint64_t *base, const vks_stream_delivery *d, int crowd);
/* The batch across gpu and opt->more_contexts (validate_split.c): stats summed into the
 * device's, its shares said. */
vks_result vks__validate_split_batch(vrun *r, vks_gpu *gpu, vks_error *err);
/* The batch route through the stream's host poses (validate_host.c): reduce the readback
 * check's reduction (and a sampled run's), weights whether the poses drive morph weights. */
vks_result vks__validate_host(vrun *r, vks_gpu *gpu, int reduce, int weights, vks_error *err);
/* The GPU-clip route (validate_crowd.c): the inputs' gpu_instance streamed at every frame. */
vks_result vks__validate_crowd(vrun *r, vks_gpu *gpu, vks_error *err);

#endif
