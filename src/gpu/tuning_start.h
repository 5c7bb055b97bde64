/* Where a context's launch shape starts (the table, then a shape measured before: the cache),
 * and when calibration at first use replaces the start: the policy, in one place, beside the
 * table (tuning.h) and the cache (tuning_cache.h). No Vulkan call: a context (pipelines.c)
 * and `vkskin devices` (device_shapes.c, no context) ask the same question the same way.
 *
 * Calibration at first use runs once in a context, before its first batch (vks_gpu_run) or
 * crowd (vks_crowd_create) or stream (vks_stream_run, before its first chunk's crowd) that
 *   - starts from the table's fallback row (a device the table does not know: known 0) with
 *     no measured shape in the cache (source "table": not "cache", not "forced");
 *   - is large enough to repay it: at least VKS__CALIBRATION_PAYBACK times the vertex-instances
 *     the calibration runs itself, and at least VKS__CALIBRATION_FLOOR (which stands for the
 *     compile of every candidate's pipelines, that no vertex count measures);
 *   - is not turned off: vks_gpu_options.calibrate < 0, or VKSKIN_NO_CALIBRATE set to
 *     anything but "" and "0";
 *   - finds no crowd alive in the context: a crowd's work lists are cut for the shape it was
 *     made with, so the shape stays while one lives.
 * A batch's work is its vertex-instances. A crowd's is its vertex-instances per frame times
 * the frames it will run: vks_crowd_desc.frames where the host says, else
 * VKS__CROWD_ASSUMED_FRAMES: a crowd is made once to be run frame after frame
 * (that is what its buffers made once are for), and one second of frames at 60 Hz is the
 * least a crowd worth keeping runs (shorter work is vks_gpu_run's). A stream's is all of it:
 * every instance's vertex count times its frame count (its chunks' crowds, each asking with its
 * own chunk's work, would undercount a long stream of small chunks).
 * The winner goes into the cache where it is writable, so the next context starts with it
 * (source "cache"); a read-only or absent cache only costs the calibration again. */
#ifndef VKS_GPU_TUNING_START_H
#define VKS_GPU_TUNING_START_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/tuning.h"
#include "gpu/tuning_cache.h"

/* The calibration at first use: the built-in candidates (tune.c), each run once and then
 * VKS__CALIBRATION_REPEATS times on VKS__CALIBRATION_INSTANCES instances of the batch's
 * largest model. */
enum { VKS__CALIBRATION_INSTANCES = 64, VKS__CALIBRATION_REPEATS = 3, VKS__CALIBRATION_PAYBACK = 16 };
/* 2^26 (67 M) vertex-instances: e.g. 6,700 instances of a 10k-vertex model. On a GPU that is
 * tens of milliseconds of work, about the cold compile of the candidates' pipelines, which is
 * paid once per device and driver where the cache is writable (pipelines.bin keeps them). */
#define VKS__CALIBRATION_FLOOR ((uint64_t)1 << 26)
/* The frames a crowd is taken to run when its desc does not say (see above). */
enum { VKS__CROWD_ASSUMED_FRAMES = 60 };

/* The shape a context starts with, and what was said on the way. */
typedef struct vks__shape_choice {
    vks__launch_shape shape;
    char warning[1024]; /* a damaged cache entry, or one this device cannot run, ignored ("": none) */
    char refused[512]; /* why shared_palette or the override cannot run on the device */
} vks__shape_choice;

/* The shape a context on a device with facts f starts with: the table's row, then the cache's
 * entry for key in cache_dir ("" or NULL: none), then shared_palette (vks_gpu_options: > 0 on,
 * < 0 off) and the override (vks_gpu_options.launch_shape, NULL none). Returns 1; 0 when
 * shared_palette or the override cannot run on the device (c->refused says why). Testing:
 * with VKSKIN_TEST_UNKNOWN_DEVICE set, the table's row counts as not knowing the device. */
int vks__shape_choose(const vks__device_facts *f, const char *cache_dir, const vks__cache_key *key, int shared_palette,
                      const char *override, vks__shape_choice *c);

/* The small-model class's shape (tuning.h: VKS__SMALL_MODEL_VERTICES) in a context that starts
 * with ctx (vks__shape_choose's): a forced ctx (an override or shared_palette) as it is; else the
 * cache's entry for the class (key's size_class 1) applied over ctx (source "cache"); else ctx's
 * deform fields with source "table" and known = the table row's small_known (0 under
 * VKSKIN_TEST_UNKNOWN_DEVICE), so that a GPU's small-model class calibrates at first use
 * (vks__calibration_wanted) where a CPU device's does not; then the override's small.KEY keys
 * (vks__override_split), which force it (source "forced"). The pose pass's fields are always
 * ctx's: the class changes the deform pass, the one calibration times. A damaged entry is
 * ignored with its warning in warning[n]. */
vks__launch_shape vks__small_shape_choose(const vks__device_facts *f, const char *cache_dir, const vks__cache_key *key,
                                          const vks__launch_shape *ctx, const char *override, char *warning, size_t n);

/* An override's keys apart: those written small.KEY (the small-model class's, the prefix
 * dropped) into small[n], the others into context[n], each comma-separated in their order.
 * "wg=256,small.wg=1024,small.palette=on" gives "wg=256" and "wg=1024,palette=on". A spec with
 * an empty item (a comma at an end, two together) goes whole to context, which refuses it.
 * 0 when a part does not fit n. */
int vks__override_split(const char *spec, char *context, char *small, size_t n);

/* 1 when shape s is one calibration at first use replaces (the table's fallback, not cache or
 * forced) and nothing turns it off (option < 0, VKSKIN_NO_CALIBRATE). */
int vks__calibration_wanted(const vks__launch_shape *s, int option);

/* The smallest batch, in vertex-instances, that repays a calibration which runs calibration_vi
 * vertex-instances itself: max(VKS__CALIBRATION_PAYBACK * calibration_vi, VKS__CALIBRATION_FLOOR),
 * or VKSKIN_TEST_CALIBRATE_OVER's value where that is set (testing: small work calibrates). */
uint64_t vks__calibration_threshold(uint64_t calibration_vi);

/* The vertex-instances the calibration at first use runs on a model of `vertices` vertices with
 * `candidates` candidates. */
uint64_t vks__calibration_cost(uint32_t candidates, uint32_t vertices);
/* The same for the small-model class's calibration (vks__small_calibration_instances each). */
uint64_t vks__small_calibration_cost(uint32_t candidates, uint32_t vertices);

/* A crowd's work for the decision: per_frame vertex-instances times frames (0: the assumed
 * VKS__CROWD_ASSUMED_FRAMES), saturating. */
uint64_t vks__crowd_work(uint64_t per_frame, uint32_t frames);

/* Testing: VKSKIN_TEST_UNKNOWN_DEVICE set (not "" nor "0"): the table does not know the device
 * (lavapipe is in it, so this is how CI proves calibration at first use). */
int vks__tuning_pretend_unknown(void);

#endif
