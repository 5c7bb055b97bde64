/* vkskin poser: the pose options of `vkskin deform`, `validate` and `render` (procedural poses,
 * a pose file, one clip on N instances, or a crowd file) made into each model's pose source
 * (pose.h) the way the program makes them, so a host plays a crowd file with the very poses,
 * plays, roots and morph weights the program does.
 *
 * STEP BY STEP
 *   vks_pose_options o; vks_pose_options_defaults(&o);
 *   o.crowd = "street.csv"; o.frames = 30;              // or o.clip = "walk.anm#walk", o.instances = 8
 *   vks_read_options ro = {0}; ro.logger.func = vks_log_stderr;   // notes and problems, one line each
 *   vks_pose_plan plan; vks_error err = {0};
 *   vks_pose_plan_load(&plan, &o, files, nfiles, &ro, NULL, &err);  // the crowd and clip files, read once
 *   for (uint32_t m = 0; m < plan.model_count; m++) {   // the FILEs, then the models the crowd names
 *       vks_skin *skin = ... read plan.models[m] ...
 *       vks_poser ps;
 *       if (vks_poser_init(&ps, skin, &plan, m, &err) == VKS_OK)
 *           for (instance < ps.instances) for (frame < ps.frames) {
 *               vks_poser_locals(&ps, instance, frame, locals);   // then vks_deform_* (deform.h)
 *               vks_poser_weights(&ps, instance, frame, weights); // the morph weights
 *               vks_poser_apply_root(&ps, instance, pos, nrm);    // the crowd row's root
 *           }
 *       vks_poser_free(&ps);                             // or on the GPU: poser_stream.h
 *   }
 *   vks_pose_plan_free(&plan);
 *
 * Problems: every one is said once through the read options' logger at VKS_LOG_ERROR, in the
 * words `vkskin` prints after "vkskin: ", and recorded in err (its code; the text cut to fit).
 * Notes (tracks that drive nothing, morph weights a command does not play) are VKS_LOG_INFO.
 *
 * THREADS. A plan and its posers are read-only once made: any number of threads may pose from
 * them at once.
 */
#ifndef VKSKIN_POSER_H
#define VKSKIN_POSER_H

#include "clip_formats.h"
#include "clip_layers.h"
#include "clip_root_motion.h"
#include "cpu.h"
#include "crowd_file.h"
#include "formats.h"
#include "instance.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pose options (docs/commands.md, "pose options"). Since 0.8. */
typedef struct vks_pose_options {
    const char *pose_file; /* a JSON pose file (DESIGN.md 6): its frames are the frames */
    int procedural;        /* procedural poses (the default without pose_file, clip or crowd) */
    uint32_t instances;    /* instances of each model (default 1; a crowd's own rows with crowd) */
    uint32_t frames;       /* frames of each instance (default 1; a pose file's count when 1) */
    uint64_t seed;         /* the procedural poses' seed (default 1) */
    float fps;             /* frame f is at time + f / fps (default 30) */
    float time;            /* the first frame's time (default 0) */
    const char *clip;      /* FILE[#name]: clip `name` (or index; default 0) of FILE on every instance */
    const char *crowd;     /* a crowd file (crowd_file.h): each instance's model, clip, start, ... */
    int stagger;           /* with clip: instance i of N starts at i x duration / N */
    float clip_speed;      /* with clip: playback speed (default 1) */
    int clip_cycle;        /* with clip: a vks_cycle, or -1 for the clip's own (default) */
    float clip_duration;   /* RTM: the clip's length in seconds (0: 1) */
    float clip_fps;        /* frame rate of clips that store none (pose JSON; 0: 30) */
    int plays_morph_weights; /* 0: a note says which morph weights the poses drive and the host drops */
} vks_pose_options;

/* instances 1, frames 1, seed 1, fps 30, clip_speed 1, clip_cycle -1, the rest 0. Since 0.8. */
VKS_API void vks_pose_options_defaults(vks_pose_options *o);

struct vks__pose_clips;

/* The options with their files read: the models the run poses and, with clip or crowd, the clip
 * files (each read once; pose JSON once per model, its node names being the model's). Since 0.8. */
typedef struct vks_pose_plan {
    vks_pose_options options;
    const char **models;        /* the FILEs given, then the models the crowd names */
    uint32_t model_count;
    vks_read_options read;      /* its logger and input limit (file.max_size), for the posers */
    const char *limit_hint;     /* after a file over the limit, e.g. "(--max-input-mb N)"; NULL: none */
    struct vks__pose_clips *clips; /* NULL without clip or crowd */
} vks_pose_plan;

/* Reads the crowd file and the clip files and decides the models: files[0..nfiles), then the
 * models the crowd names that are not among them. An instance that names no model takes the one
 * FILE (there must be exactly one); a FILE no instance plays is refused. read (may be NULL) gives
 * the logger, the input limit and the clip reading options; files must outlive the plan.
 * Returns VKS_ERR_INVALID for a run that contradicts itself (those three), VKS_ERR_NOMEM, or the
 * failure of a crowd or clip file (VKS_ERR_IO: unreadable; a clip or crowd format error). Free
 * the plan whatever it returns. Since 0.8. */
VKS_API vks_result vks_pose_plan_load(vks_pose_plan *plan, const vks_pose_options *o, const char *const *files,
                                      int nfiles, const vks_read_options *read, const char *limit_hint,
                                      vks_error *err);
/* Releases what the plan read. Since 0.8. */
VKS_API void vks_pose_plan_free(vks_pose_plan *plan);
/* How many instances model m has: the crowd's rows that pose it, else options.instances. Since 0.8. */
VKS_API uint32_t vks_pose_plan_instances(const vks_pose_plan *plan, uint32_t m);
/* The crowd and clip files the plan read (for hosts that refuse to write over an input): a
 * malloc'ed array (free it) of *count paths; NULL with *count 0 when none (or no memory). Since 0.8. */
VKS_API const char **vks_pose_plan_inputs(const vks_pose_plan *plan, int *count);

/* Whether model m has an instance that takes root motion out (a layer with root motion), known
 * from the crowd before the model is read: where a host plans the root-motion CSV. Since 0.8. */
VKS_API int vks_pose_plan_root_motion(const vks_pose_plan *plan, uint32_t m);

/* Model m's poses: the plan's options made into a pose source (pose.h) for skin: procedural, a
 * pose file's frames (frame f its frame f, every instance alike), or clips (VKS_POSE_CLIP: each
 * instance's clip bound to skin, its start, speed, cycle, layers and root). Since 0.8. */
typedef struct vks_poser {
    const vks_skin *skin;
    vks_pose_source source;
    vks_pose_set set;      /* with a pose file; source.frames points here */
    uint32_t model;
    uint32_t instances;    /* this model's instance count */
    uint32_t frames;       /* frames per instance */
    vks_clip_play *plays;  /* per instance (one shared play when all are alike) */
    vks_affine *roots;     /* per instance; NULL: no instance has one */
    const vks_clip **clips;       /* per clip source of the plan: its clip for this skin (NULL: unused) */
    vks_clip_binding *bindings;   /* per clip source */
    vks_clip_set **json_sets;     /* per clip source: pose JSON read for this skin */
    uint32_t ref_count;
    vks_clip_layers *layers;      /* per instance its layers (count 0: its play); NULL: none layered */
    /* crowd: instance j is the crowd's entry entries[j], made by vks_crowd_spec_instance with
       binding (every model this one, the clips numbered as the plan's clip sources) */
    const vks_crowd_spec *spec;
    const uint32_t *entries;
    vks_crowd_binding binding;
    uint32_t morph_meshes; /* the most meshes whose morph weights one clip source drives, or with
                              a pose file that gives weights, the meshes with targets */
    vks_logger logger;
} vks_poser;

/* Model m (an index into plan->models) read as skin; skin and plan must outlive the poser. Free
 * it whatever it returns. Since 0.8. */
VKS_API vks_result vks_poser_init(vks_poser *ps, const vks_skin *skin, const vks_pose_plan *plan, uint32_t m,
                                  vks_error *err);
/* The locals of (instance, frame): vks_pose_source_locals. Since 0.8. */
VKS_API void vks_poser_locals(const vks_poser *ps, uint32_t instance, uint32_t frame, vks_affine *out);
/* The skin's target_count morph weights of (instance, frame): vks_pose_source_weights; returns
 * how many differ from the defaults. Since 0.8. */
VKS_API uint32_t vks_poser_weights(const vks_poser *ps, uint32_t instance, uint32_t frame, float *out);
/* The instance's root applied to its deformed vertices (positions, and normals by the 3x3), as
 * the GPU crowd applies it. No-op without one. Since 0.8. */
VKS_API void vks_poser_apply_root(const vks_poser *ps, uint32_t instance, float *pos, float *nrm);
/* Releases the poser's bindings, plays and sets. Since 0.8. */
VKS_API void vks_poser_free(vks_poser *ps);

/* Whether any instance plays layers with root motion. Since 0.8. */
VKS_API int vks_poser_root_motion_wanted(const vks_poser *ps);
/* The root motion, one row per instance and frame (instance, frame, time, x, y, z: the motion
 * node's ground-plane translation from its bind local, vks_clip_layers_root_track, in double;
 * where any instance takes the yaw out, a last column yaw, radians) written as CSV to path (a
 * temporary name renamed when complete, output.h). Zeros for instances without. Since 0.8. */
VKS_API vks_result vks_poser_root_motion_write(const vks_poser *ps, const char *path, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
