/* vkskin: read skinned meshes from RenderWare DFF, Gamebryo NIF, NintendoWare CTR .cmdl and
 * Bohemia P3D; deform many posed instances on the CPU or on the GPU (Vulkan compute); prove
 * the results against a CPU reference.
 *
 * STEP BY STEP
 *   1. read:     vks_read_any(&opt, bytes, size, name, &skin, &err)        (formats.h)
 *   2. check:    vks_skin_validate(skin, &err)                            (skin.h)
 *                a file's report as vkskin inspect prints it: vks_inspect_file (inspect.h)
 *   3. pose:     vks_pose_procedural / vks_pose_file_parse                (pose.h)
 *   4. deform:   vks_cpu_reference_run / vks_cpu_fast_run / the GPU       (cpu.h, gpu.h)
 *                a persistent GPU crowd, frame after frame                (crowd.h)
 *                crowds from JSON or CSV files                            (crowd_file.h)
 *                pose options, crowd and clip files into posers, as vkskin does (poser.h)
                any pose source over a list of frames, read back through a
                ring into a callback or a bake                            (stream.h)
 *                in the host's own Vulkan device: include vkskin/gpu_vulkan.h (names Vulkan types)
 *   5. compare:  vks_diff                                                 (check.h)
 *                per-vertex error maps, JUnit and HTML reports             (report.h)
 *                the whole validation as one call, its JSON report         (validate.h)
 *   measure:     every engine on one workload, vkskin bench's JSON         (bench.h)
 *   devices:     vkskin devices' list, the --device rules, tune's report    (devices.h)
 *   6. write:    vks_bake_open / _write / _close                          (bake.h)
 *      a manifest of jobs baked into VATs, atlases and caches: vks_bake_run   (bake_job.h)
 *      its textures read back: vks_vat_exr_read / vks_vat_png16_read       (vat_read.h)
 *      outputs never destroy what they replace                             (output.h)
 *      a skin and its clips as glTF 2.0: vks_gltf_write_skin                (gltf.h)
 *        and clip files read, bound and written as vkskin convert does     (convert.h)
 *   7. free:     vks_skin_free(skin)
 *
 * Versions: VKSKIN_VERSION_MAJOR/MINOR/PATCH and vks_version() (version.h). Every function is
 * marked VKS_API (api.h); nothing else is exported from the shared library.
 */
#ifndef VKSKIN_H
#define VKSKIN_H

#include "vkskin/version.h"
#include "vkskin/core.h"
#include "vkskin/skin.h"
#include "vkskin/formats.h"
#include "vkskin/deform.h"
#include "vkskin/pose.h"
#include "vkskin/clip.h"
#include "vkskin/clip_sample.h"
#include "vkskin/clip_layers.h"
#include "vkskin/clip_root_motion.h"
#include "vkskin/clip_formats.h"
#include "vkskin/cpu.h"
#include "vkskin/gpu.h"
#include "vkskin/crowd.h"
#include "vkskin/crowd_file.h"
#include "vkskin/poser.h"
#include "vkskin/poser_stream.h"
#include "vkskin/stream.h"
#include "vkskin/render.h"
#include "vkskin/check.h"
#include "vkskin/report.h"
#include "vkskin/validate.h"
#include "vkskin/inspect.h"
#include "vkskin/bench.h"
#include "vkskin/devices.h"
#include "vkskin/output.h"
#include "vkskin/output_plan.h"
#include "vkskin/bake.h"
#include "vkskin/bake_job.h"
#include "vkskin/vat_read.h"
#include "vkskin/deform_run.h"
#include "vkskin/gltf.h"
#include "vkskin/convert.h"

#endif
