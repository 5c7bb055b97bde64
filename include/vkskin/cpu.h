/* vkskin CPU engines.
 *
 * The reference deformer is the ground truth the GPU is judged against: double arithmetic
 * from the same float32 inputs, compiled with -ffp-contract=off, simple and obviously right,
 * not fast. The fast deformer (float, all cores) is the CPU peer in benchmarks.
 *
 * STEP BY STEP
 *   vks_deform_job j = {...};
 *   vks_cpu_reference_run(&j, &err);
 */
#ifndef VKSKIN_CPU_H
#define VKSKIN_CPU_H

#include "deform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* World transforms (double) of every node for one instance's locals. out: node_count. */
VKS_API void vks_cpu_world_d(const vks_skin *skin, const vks_affine *locals, vks_affine_d *out);

/* Skin matrices K_b (double) of every bone for one instance (see skin.h). world: from
 * vks_cpu_world_d. out: skin->bone_count. */
VKS_API void vks_cpu_skin_matrices_d(const vks_skin *skin, const vks_affine_d *world, vks_affine_d *out);

/* Deforms every instance of the job in double; writes float32 outputs. Where the CPU has AVX2
 * (AVX-512) a job runs four (eight) instances at a time, an instance in each vector lane, with
 * the same floats bit for bit (VKSKIN_CPU_CROWD=off: one at a time, for comparisons). */
VKS_API vks_result vks_cpu_reference_run(const vks_deform_job *job, vks_error *err);

/* The fast CPU deformer: float, vectorisable loops, all cores (threads <= 0: all). Its vertex
 * kernel is chosen once by CPU features: "avx512" (AVX-512 F/VL/DQ/BW with AVX2 and FMA, where
 * the OS saves the ZMM registers), else "avx2" (AVX2 + FMA) where the CPU has them, else
 * "baseline" (SSE2 on x86-64); VKSKIN_CPU_PATH=baseline or =avx2 in the environment forces that
 * lower kernel. Results of all stay within the validation tolerances of the reference. With
 * enough instances (a few units for every thread) each kernel deforms 4 (baseline) or 8 (AVX2,
 * AVX-512) instances at once, one in each vector lane, and the rest one at a time; the
 * outputs are the same bits either way (VKSKIN_CPU_CROWD=off in the environment
 * deforms one instance at a time, for comparisons). */
VKS_API vks_result vks_cpu_fast_run(const vks_deform_job *job, int threads, vks_error *err);
/* The kernel in use: "avx512", "avx2" or "baseline". */
VKS_API const char *vks_cpu_fast_path(void);
/* Forces a kernel: "auto", "baseline", "avx2" or "avx512". Returns 0 (and changes nothing) when
 * this CPU or build has no such kernel. Affects runs that start afterwards, in every thread. */
VKS_API int vks_cpu_fast_set_path(const char *path);

/* Options of the CPU engines; zeroed: defaults. */
typedef struct vks_cpu_options {
    int threads;             /* fast engine: threads (<= 0, default: all cores); reference: unused */
    vks_allocator allocator; /* the engines' temporaries (per-thread matrices and palettes), all
                                allocated before any work on the calling thread; default
                                malloc/free; blocks must be aligned like malloc's */
} vks_cpu_options;
/* vks_cpu_reference_run and vks_cpu_fast_run with options (opt may be NULL). A failed
 * allocation is VKS_ERR_NOMEM with nothing written to the outputs and nothing leaked. */
VKS_API vks_result vks_cpu_reference_run_opt(const vks_deform_job *job, const vks_cpu_options *opt,
                                             vks_error *err);
VKS_API vks_result vks_cpu_fast_run_opt(const vks_deform_job *job, const vks_cpu_options *opt, vks_error *err);

/* An instance's root (instance.h, vks_instance.root; a crowd file's "root") applied to its
 * vertices deformed at the origin, as the GPU crowd places them: positions p' = M p + t in
 * double rounded once, normals by M's 3x3 (not its inverse transpose, as the GPU), renormalised
 * in the meshes whose format renormalises (VKS_MESH_RENORMALIZE). pos: skin->vertex_count * 3
 * floats, rewritten in place; nrm the same, or NULL. What a CPU engine's output needs to be
 * compared with the GPU's for a crowd. Since 0.7 (before: a copy in validate and one in the
 * Python extension). */
VKS_API void vks_apply_root(const vks_skin *skin, const vks_affine *root, float *pos, float *nrm);

/* THREADS: every function here may run on several threads at once on different jobs (they
 * share only read-only skins and inputs); vks_cpu_fast_run starts and joins its own worker
 * threads within the call. vks_cpu_fast_set_path changes a process-wide choice (atomically)
 * and affects runs that start afterwards. */

/* Bind-pose check: deform with the bind pose and compare with the stored vertices (except in
 * rigid groups, whose stored vertices are bone-local).
 * Reports the largest position error, absolute and relative to the bounding radius, and the
 * verdict: pass when the position error is within the diff's position tolerance (tolerance.c:
 * abs_radius x vks_skin_error_scale), the same float32 noise bound validate uses. A model that
 * fails does not reproduce its own vertices at bind: wrong inverse binds, weights that do not
 * sum to 1, or a file stored in another pose than its bind pose. A skeleton whose bind skin
 * matrices are all one rigid transform P, or one times a uniform scale (a node above the bones
 * that the inverse binds leave out: glTF's scene placement, which glTF viewers apply to the
 * whole mesh; or the dequantization of KHR_mesh_quantization positions that gltfpack folds
 * into the inverse binds) passes when it reproduces P v within the tolerance times that scale,
 * and says so (placed). Normals are reported, not
 * judged: formats quantise them (Skyrim SE stores 8 bits, 4e-3 off in the samples). */
typedef struct vks_bind_check {
    double max_error;          /* absolute, in the mesh's units; NaN/inf when the model gives one */
    double max_error_relative; /* max_error / bounding radius */
    double tolerance;          /* absolute: the diff's abs_radius x error_scale */
    double error_scale;        /* vks_skin_error_scale(skin) */
    int pass;                  /* max_error <= tolerance (a NaN fails) */
    double max_normal_error;   /* largest |n' - n| where the mesh has normals */
    uint32_t worst_vertex;     /* global vertex index */
    uint32_t worst_mesh;
    double per_mesh_max[64];   /* first 64 meshes */
    uint32_t rigid_skipped;    /* vertices of VKS_GROUP_RIGID groups: stored bone-local, so the
                                  bind pose moves them by design; not compared */
    int placed;                /* 1: every bone's bind skin matrix is one rigid transform P,
                                  possibly times a uniform scale (a placement above the
                                  skeleton, e.g. the Z-up correction of a converted glTF or a
                                  COLLADA2GLTF root, or gltfpack's dequantization: the
                                  tolerance, error scale and relative error are then in P's
                                  units), and the bind pose
                                  reproduces the stored vertices placed by P: the errors above
                                  are then measured against P v, the verdict judges them */
    vks_affine placement;      /* P when placed, else identity */
} vks_bind_check;
VKS_API vks_result vks_cpu_bind_check(const vks_skin *skin, vks_bind_check *out, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
