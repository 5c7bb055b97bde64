/* vkskin crowd files: many instances, each with its own model, clip, start time, speed, cycle
 * and root transform, written by hand or by other tools in JSON or CSV (DESIGN.md section 6,
 * "crowds"). The parser only reads text: it opens no file, so a host resolves the model and
 * clip paths it gives (made relative to the crowd file's folder) as it likes.
 *
 * STEP BY STEP
 *   vks_crowd_spec *spec = NULL; vks_error err = {0};
 *   if (vks_crowd_file_parse(text, size, "crowds/street.csv", &spec, &err) != VKS_OK)
 *       ... vks_error_format(&err, NULL, buf, sizeof buf)
 *           // "crowds/street.csv:12: speed: expected a finite number, got \"fast\" (format error)"
 *   for (uint32_t i = 0; i < spec->instance_count; i++) {
 *       const vks_crowd_entry *e = &spec->instances[i];
 *       // model: e->model < 0 ? the host's own default : spec->models[e->model].path
 *       // clip:  e->clip < 0 ? the bind pose : spec->clips[e->clip].path, .name (or index)
 *   }
 *   vks_crowd_spec_free(spec);
 *
 * On the GPU (crowd.h, stream.h), after reading each model and clip file the spec names,
 * uploading the models (vks_gpu_upload) and the clips (vks_gpu_upload_clips, or the stream's
 * clips), entry i becomes an instance (instance.h) by
 *   vks_crowd_binding b = {model_index, default_model, skins, clip_index, clip_cycles, model_names};
 *   vks_crowd_spec_instance(spec, i, &b, &in, &err);
 * its clip (VKS_POSE_CLIP; no clip: VKS_POSE_BIND) or its layers (VKS_POSE_LAYERS: clips, cycles
 * defaulted to the clip's own, masks found by node name, additive references), transition,
 * root motion and root resolved in one place.
 *
 * JSON: an object with "instances", an array of objects, every key optional:
 *   {"instances": [
 *     {"model": "hero.dff", "clip": "hero.walk.anm#walk", "start": 0.25, "speed": 1.1, "cycle": "loop",
 *      "root": {"translation": [2, 0, 0], "rotation": [0, 0.7071068, 0, 0.7071068], "scale": [1, 1, 1]}},
 *     {"clip": "moves.ifp#3", "root": {"matrix": [1,0,0, 0,1,0, 0,0,1, 4,0,0]}}
 *   ]}
 *   Errors name the entry and key: "street.json: instances[12].speed: ..."; malformed JSON
 *   names the line where the parser stopped.
 *
 * CSV: a header row naming the columns (any order, any subset), then one row per instance.
 * Lines whose first non-blank character is '#' are comments, blank lines are skipped, cells
 * may be double-quoted ("a,b.dff", "" for a quote) and are trimmed of blanks otherwise; an
 * empty cell takes the default. Columns: model, clip, start, speed, cycle, and for the root
 * tx, ty, tz (translation), qx, qy, qz, qw (rotation quaternion), sx, sy, sz (scale).
 *   # street corner
 *   model,clip,start,speed,cycle,tx,tz,qy,qw
 *   hero.dff,hero.walk.anm#walk,0,1,loop,0,0,,
 *   hero.dff,hero.walk.anm#walk,0.5,1.2,,2,0,0.7071068,0.7071068
 *   Errors name the line (err->line, 1-based) and the column.
 *
 * Values, in both forms:
 *   model  a model file (default: the host's default model, the command's FILE in vkskin)
 *   clip   "FILE#name" or "FILE#index": a clip of a clip file (split at the last '#'; "FILE"
 *          or "FILE#" is its clip 0, so a file whose name has a '#' is written "a#b.anm#");
 *          default: no clip, the bind pose
 *   start  clip seconds at time 0 (default 0): where this instance is in its clip
 *   speed  clip seconds per second (default 1; negative plays backwards)
 *   cycle  "loop", "clamp", "mirror" or "reset" (default: the clip's own)
 *   root   translation, rotation (x, y, z, w; normalised) and scale (defaults 0, identity, 1),
 *          or a 3x4 column-major matrix (JSON "matrix": 12 numbers, or 16 of a 4x4 whose last
 *          row is 0 0 0 1); its 3x3 must be invertible with scales float32 can deform
 *          (vks_float32_scale_ok)
 *
 * Layers, transitions and root motion (issue 27; pose.h has the blend rule). JSON:
 *   {"model": "hero.dff",
 *    "layers": [{"clip": "walk.anm", "start": 0.1, "speed": 1, "cycle": "loop", "weight": 0.7},
 *               {"clip": "run.anm", "weight": 0.3},
 *               {"clip": "wave.anm", "blend": "additive", "mask": "Bip01 Spine1"}],
 *    "transition": {"start": 2.0, "duration": 0.5, "to": [{"clip": "idle.anm"}]},
 *    "root_motion": "y"}
 *   A layer's keys: clip (required), start, speed, cycle, weight (>= 0, default 1), blend
 *   ("normal" or "additive"), mask (a node name: it and its descendants), and on an additive
 *   layer only, reference: {"clip": a clip source as for clip (default: the layer's own),
 *   "time": clip seconds >= 0 (default 0)}, the pose its delta is taken from (default: its
 *   clip's first frame; pose.h's rule, step 3). "layers" replaces clip/start/speed/cycle;
 *   with "transition" and no "layers", the plain clip is the set left.
 *   The layers left fade out, the "to" layers fade in, over [start, start + duration] of frame
 *   time; all together at most VKS_MAX_LAYERS. root_motion: true or "y" (y up), "z", false
 *   (the ground-plane translation), or {"up": "y" | "z" (default "y"), "yaw": true | false
 *   (default false)}: with yaw the turn about up is taken out too (clip_root_motion.h's rule).
 * CSV: layer 1 is the clip, start, speed and cycle columns with weight, blend, mask, fade,
 *   reference and reference_time (the additive layer's reference clip and time, as in JSON);
 *   layers 2..4 the same names suffixed 2, 3, 4 (clip2, weight3, reference_time4, ...);
 *   transition_start, transition_duration, root_motion (0/1/y/z/true/false) and root_yaw
 *   (0/1/true/false/yes/no; needs root_motion) per row. With a transition the layers whose
 *   fade is "in" are the set entered, the others the set left.
 * A file without these keys and columns parses as it always has.
 * Relative model and clip paths are resolved against the crowd file's folder (name's folder).
 * Numbers must be finite and within float range. At most VKS_CROWD_MAX_INSTANCES instances.
 *
 * THREADS: reentrant; a spec is immutable once parsed and may be read by any number of threads.
 */
#ifndef VKSKIN_CROWD_FILE_H
#define VKSKIN_CROWD_FILE_H

#include "core.h"
#include "instance.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VKS_CROWD_MAX_INSTANCES (1u << 24)

/* A model or clip file the crowd names (each distinct one once). */
typedef struct vks_crowd_source {
    const char *path;        /* resolved against the crowd file's folder */
    const char *name;        /* clips: the text after the last '#', a clip name or index ("": clip 0);
                                models: "" */
    const char *text;        /* as written in the crowd file */
    uint32_t first_instance; /* the first instance that names it, for messages */
} vks_crowd_source;

/* One layer of a layered entry (pose.h's vks_clip_layer, by clip source). */
typedef struct vks_crowd_entry_layer {
    int32_t clip;      /* index into spec->clips */
    float start;       /* clip seconds at time 0 (default 0) */
    float speed;       /* clip seconds per second (default 1) */
    int32_t cycle;     /* vks_cycle, or -1: the clip's own */
    float weight;      /* >= 0 (default 1) */
    int32_t mode;      /* vks_layer_mode: "normal" (default) or "additive" */
    int32_t fade;      /* vks_layer_fade: with a transition, its "to" layers fade in and the
                          others out; VKS_FADE_NONE without one */
    const char *mask;  /* a node name: only it and its descendants (NULL: every node) */
    int32_t reference; /* additive: the reference pose's clip, an index into spec->clips; -1 (the
                          default): the layer's own clip */
    float ref_time;    /* additive: ... sampled at this clip time (seconds >= 0; default 0, the
                          first frame) */
} vks_crowd_entry_layer;

typedef struct vks_crowd_entry {
    int32_t model;   /* index into spec->models; -1: the host's default model */
    int32_t clip;    /* index into spec->clips; -1: no clip (the bind pose) */
    float start;     /* clip seconds at time 0 */
    float speed;     /* clip seconds per second */
    int32_t cycle;   /* vks_cycle (clip.h), or -1: the clip's own */
    vks_affine root; /* where the instance stands (identity by default) */
    uint32_t line;   /* CSV: the 1-based line it came from; JSON: 0 */
    /* layers (issue 27; zero for a plain entry, which then plays clip as before): */
    uint32_t first_layer;  /* index into spec->layers */
    uint32_t layer_count;  /* 0: not layered; 1..VKS_MAX_LAYERS (clip is then layer 0's clip) */
    float fade_start;      /* the transition's start (frame time, seconds) */
    float fade_duration;   /* its length (0: a cut) */
    int32_t root_motion;   /* VKS_ROOT_MOTION_* (pose.h): 0 off, 1 y up, 2 z up, | 4 (_YAW) */
} vks_crowd_entry;

typedef struct vks_crowd_spec {
    const char *name;             /* the crowd file's name as given to the parser ("crowd": none) */
    const char *format;           /* "json" or "csv" */
    vks_crowd_entry *instances;   /* instance_count entries, in file order */
    uint32_t instance_count;      /* >= 1 */
    vks_crowd_source *models;     /* distinct model paths, in order of first use */
    uint32_t model_count;
    vks_crowd_source *clips;      /* distinct clip sources (path and name), in order of first use */
    uint32_t clip_count;
    vks_crowd_entry_layer *layers; /* every layered entry's layers, entry by entry */
    uint32_t layer_count;
    vks_allocator allocator;      /* what everything above came from */
    struct vks_skin_arena *arena; /* strings */
} vks_crowd_spec;

/* Parses a crowd file: JSON when its first non-blank character is '{', CSV otherwise. name is
 * the file's path (may be NULL): errors name it (err->file) with the CSV line (err->line) or
 * the JSON entry (err->path "instances[12].speed"), and relative paths are resolved against
 * its folder. VKS_ERR_FORMAT for what the format does not allow, VKS_ERR_LIMIT past
 * VKS_CROWD_MAX_INSTANCES, VKS_ERR_NOMEM. *out is written only on success. */
VKS_API vks_result vks_crowd_file_parse(const char *text, size_t size, const char *name, vks_crowd_spec **out,
                                        vks_error *err);
/* The same, with every block through allocator (NULL: malloc/free). cJSON's tree, for JSON,
 * lives in cJSON's own malloc for the length of the call (see vks_pose_file_parse_with). */
VKS_API vks_result vks_crowd_file_parse_with(const char *text, size_t size, const char *name,
                                             const vks_allocator *allocator, vks_crowd_spec **out, vks_error *err);
VKS_API void vks_crowd_spec_free(vks_crowd_spec *spec);

/* Where instance i was written, for messages about it: "street.csv:12" or
 * "street.json: instances[3]". Returns buf. */
VKS_API const char *vks_crowd_spec_where(const vks_crowd_spec *spec, uint32_t i, char *buf, size_t size);

/* Where the host put what a spec names, for vks_crowd_spec_instance. */
typedef struct vks_crowd_binding {
    const uint32_t *models;        /* per spec->models[k]: its uploaded model index */
    uint32_t default_model;        /* the uploaded index of the host's default model (model -1) */
    const vks_skin *const *skins;  /* per uploaded model index: its skin, for layer masks by node
                                      name (may be NULL where no layer has a mask) */
    const int32_t *clips;          /* per spec->clips[k]: its index in the crowd's or stream's
                                      clips; < 0: not loaded (an error where an entry plays it) */
    const vks_cycle *clip_cycles;  /* per spec->clips[k]: the clip's own cycle, used where the
                                      entry or layer gives none (NULL: loop) */
    const char *const *model_names; /* per uploaded model index: its name for messages (NULL:
                                      "the model"); since 0.7 */
} vks_crowd_binding;

/* Entry i of spec as an instance (instance.h; *out is overwritten): model and root; no clip:
 * VKS_POSE_BIND; a clip: VKS_POSE_CLIP with its start, speed and cycle; layers: VKS_POSE_LAYERS
 * with each layer's clip, cycle, weight, blend, fade, mask (the skin's node of that name + 1)
 * and reference (its clip's index + 1), the transition and root motion. VKS_ERR_INVALID naming
 * the entry (vks_crowd_spec_where) for a clip not loaded or a mask the model does not have
 * ("street.json: instances[3]: layer 2: mask: the model hero.dff has no node \"tail\"", err->msg
 * a whole line for a host's message). vks_instance_clip_play (instance.h) turns the instance
 * into what the CPU engines play. Since 0.5 (before: vks_stream_instance_from_crowd, clips
 * only). */
VKS_API vks_result vks_crowd_spec_instance(const vks_crowd_spec *spec, uint32_t i, const vks_crowd_binding *b,
                                           vks_instance *out, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
