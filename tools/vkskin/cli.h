/* The vkskin program: one file per command, shared helpers in cli_common.c.
 *
 * Exit codes (documented in README.md and `vkskin --help`):
 *   0  success
 *   1  the input could not be read or is invalid (a clear message names file, offset, structure)
 *   2  usage error (unknown option, missing argument)
 *   3  validation failed: an engine's results are outside tolerance of the CPU reference
 *   4  no Vulkan device (tests map this to CTest's skip code themselves)
 *   5  Vulkan or other runtime failure (device lost, out of memory, output not writable)
 *   6  bind-pose check failed: deforming with the bind pose does not reproduce the stored
 *      vertices (inspect and validate; --allow-bind-mismatch for files not stored in bind pose)
 */
#ifndef VKSKIN_CLI_H
#define VKSKIN_CLI_H

#include <sys/types.h>
#include <stdint.h>
#include <stdio.h>

#include "cli_options.h"
#include "vkskin.h"

enum {
    VKS_EXIT_OK = 0,
    VKS_EXIT_INPUT = 1,
    VKS_EXIT_USAGE = 2,
    VKS_EXIT_VALIDATION = 3,
    VKS_EXIT_NO_DEVICE = 4,
    VKS_EXIT_RUNTIME = 5,
    VKS_EXIT_BIND = 6
};

int vks_cmd_inspect(int argc, char **argv);
int vks_cmd_deform(int argc, char **argv);
int vks_cmd_validate(int argc, char **argv);
int vks_cmd_bench(int argc, char **argv);
int vks_cmd_devices(int argc, char **argv);
int vks_cmd_generate(int argc, char **argv);
int vks_cmd_render(int argc, char **argv);
int vks_cmd_bake(int argc, char **argv);
int vks_cmd_convert(int argc, char **argv);
int vks_cmd_tune(int argc, char **argv);

/* Each command's record: its synopsis, prose and option tables (cli_options.h). */
extern const vks_cli_command vks_cli_cmd_inspect, vks_cli_cmd_deform, vks_cli_cmd_validate, vks_cli_cmd_bench,
    vks_cli_cmd_bench_crowd, vks_cli_cmd_devices, vks_cli_cmd_tune, vks_cli_cmd_generate, vks_cli_cmd_render,
    vks_cli_cmd_bake, vks_cli_cmd_convert;

/* ---- shared helpers (cli_common.c) ---- */

/* Inputs larger than this are refused (--max-input-mb N, for every command that reads files):
 * a regular file by its size before it is read, a pipe or device once it passes the limit. */
#define VKS_CLI_DEFAULT_MAX_INPUT_MB 2048ull
extern uint64_t vks_cli_max_input_bytes;

/* Reads a file whole (at most vks_cli_max_input_bytes); prints "vkskin: file: message" and
 * returns NULL on failure. */
uint8_t *vks_cli_read_file(const char *path, size_t *size);

/* Reads and validates a model (any format; P3D options from opt) by the library's
 * vks_load_model, whose notes (lost influences) it prints naming the file. Prints one clear
 * error line ("file:0x1a2c: clump/geometry[0]/skin: ...") and returns NULL on failure. */
vks_skin *vks_cli_load_skin(const char *path, const vks_read_options *opt);
/* The same for a model whose bytes the caller read already (path: for messages, and where a
 * P3D's model.cfg or a .gltf's buffers are looked for). */
vks_skin *vks_cli_load_skin_bytes(const char *path, const uint8_t *bytes, size_t size, const vks_read_options *opt);

/* The clips of the clip file path, whose bytes the caller read, by the library's
 * vks_read_clip_bytes (the format its bytes and name pick, a .gltf's external buffers beside
 * path, or pose JSON for a .json read against json_skin's node names). Prints one line (the
 * library's, vks_load_error_format), after "where: " when where is given, and returns NULL
 * when it cannot (cli_anim.c). */
vks_clip_set *vks_cli_read_clips(const char *where, const char *path, const uint8_t *bytes, size_t size,
                                 const vks_skin *json_skin, const vks_read_options *ropt);
/* 1 when path names a pose JSON (.json, any case). */
int vks_cli_is_json(const char *path);
/* A note on stderr when the clip (label: as the user named it) bound to model leaves some of
 * its nodes undriven: they keep their bind pose, which inspect --model shows and a deform of
 * a clip meant for another rig would otherwise hide. Nothing when it drives every node. */
void vks_cli_note_untouched(const char *where, const char *model, const char *label, const vks_clip_binding *b);

/* The more severe of two exit codes, for commands that run several inputs: runtime failure
 * (5) > no device (4) > validation failed (3) > bind-pose check failed (6) > bad input (1) >
 * usage (2) > ok (0). */
int vks_cli_worse_exit(int a, int b);

/* Maps a library result to the exit codes above. */
int vks_cli_exit_code(vks_result r);

struct vks_cli_anim;

/* Pose options shared by deform, validate and render: procedural poses, a pose file, or clips
 * (--clip for N instances of one clip per FILE, --crowd for a crowd file). */
typedef struct vks_cli_pose {
    const char *pose_file; /* --pose FILE */
    int procedural;        /* --procedural (default when no --pose) */
    uint32_t instances;    /* --instances N (default 1) */
    uint32_t frames;       /* --frames F (default 1) */
    uint64_t seed;         /* --seed S (default 1) */
    float fps;             /* --fps (default 30): time of frame f is --time + f / fps */
    float time;            /* --time T (default 0): the first frame's time */
    int instances_given, time_given;
    /* clips (issue 12; cli_anim.c) */
    const char *clip;      /* --clip FILE[#name]: clip `name` (or index) of FILE, default its clip 0 */
    const char *crowd;     /* --crowd FILE: JSON or CSV crowd (crowd_file.h) */
    int stagger;           /* --stagger: instance i of N starts at i * duration / N */
    float clip_speed;      /* --clip-speed S (default 1) */
    int clip_cycle;        /* --clip-cycle loop|clamp|mirror|reset (-1: the clip's own) */
    int clip_speed_given;
    float clip_duration;   /* --clip-duration S: RTM stores none (vks_read_options.clip.duration) */
    float clip_fps;        /* --clip-fps R: frame rate of clips that store none (pose JSON) */
    /* what vks_cli_anim_load made: the models the run deforms (the command's FILEs, or with
       --crowd the crowd's models too) and, for clips, the clip files read once */
    const char **models;
    uint32_t model_count;
    struct vks_cli_anim *anim; /* NULL without --clip or --crowd */
    /* set by a command whose engines take morph weights per instance (deform and validate,
       on every engine); the others (render's host-posed crowd of a pose file) are told, with
       counts, when the poses drive weights they drop */
    int plays_morph_weights;
} vks_cli_pose;

/* The pose options' table (cli_options.h), storing into a vks_cli_pose. */
extern const vks_cli_group vks_cli_pose_options;
void vks_cli_pose_defaults(vks_cli_pose *p);
/* After the options: refuses combinations that mean nothing (--clip with --pose or --crowd,
 * --stagger without --clip, --instances with --crowd, ...), one line on stderr. Returns
 * VKS_EXIT_OK or VKS_EXIT_USAGE. */
int vks_cli_pose_check(const vks_cli_pose *p);

/* Reads the crowd file and the clip files (each once, under --max-input-mb; the format by
 * vks_detect_clip_format, a .json one is pose JSON read per model) and decides the models:
 * the command's FILEs, then the models the crowd names that are not among them. An instance
 * that names no model takes the command's FILE (there must be exactly one); a FILE that no
 * instance uses is refused. Without --clip or --crowd the models are the FILEs. Prints one
 * line per problem and returns an exit code (1 bad crowd or clip file, 2 usage). */
int vks_cli_anim_load(vks_cli_pose *p, char **files, int nfiles, const vks_read_options *ropt);
void vks_cli_anim_free(vks_cli_pose *p);
/* How many instances model m (an index into p->models) has: the crowd's rows that pose it,
 * else --instances. */
uint32_t vks_cli_model_instances(const vks_cli_pose *p, uint32_t m);
/* The crowd and clip files the run reads, so that no output is planned over them: a malloc'ed
 * array (free it) of *count paths; NULL with *count 0 when there are none (or no memory). */
const char **vks_cli_anim_inputs(const vks_cli_pose *p, int *count);

/* The pose options made into the library's pose source (pose.h) for model m (an index into
 * opt->models) read as skin: procedural, a pose file's frames (frame f uses the file's frame
 * f, every instance the same), or clips (VKS_POSE_CLIP: each instance's clip bound to this
 * skin, its start, speed and cycle; the CPU reference samples in double, --cpu-fast sets
 * fast_sampling). */
typedef struct vks_cli_poser {
    const vks_skin *skin;
    vks_pose_source source;
    vks_pose_set set;      /* when a pose file is used; source.frames points here */
    uint32_t model;
    uint32_t instances;    /* this model's instance count */
    uint32_t frames;       /* frames per instance (a pose file's own count unless --frames) */
    /* clips: per instance its play (source.plays; one shared play when all are alike) and
       root (NULL: no instance has one) */
    vks_clip_play *plays;
    vks_affine *roots;
    const vks_clip **clips;           /* per clip source: its clip for this skin (NULL: unused) */
    vks_clip_binding *bindings;       /* per clip source */
    vks_clip_set **json_sets;         /* per clip source: pose JSON read for this skin */
    uint32_t ref_count;
    /* layered instances (issue 27): per instance its layers (count 0: its play); NULL: none
       is layered */
    vks_clip_layers *layers;
    /* --crowd: instance j is the crowd's entry entries[j], made into an instance by the
       library (vks_crowd_spec_instance with binding: every model this one, the clips numbered
       as the run's clip sources); spec NULL with --clip, whose instances play source 0 */
    const vks_crowd_spec *spec;
    const uint32_t *entries;
    vks_crowd_binding binding;
    uint32_t morph_meshes;  /* the most meshes whose morph weights one clip source drives, or
                               with a pose file that gives weights, the meshes with targets */
} vks_cli_poser;
int vks_cli_poser_init(vks_cli_poser *ps, const vks_skin *skin, const vks_cli_pose *opt, uint32_t model);
void vks_cli_poser_locals(const vks_cli_poser *ps, uint32_t instance, uint32_t frame, vks_affine *out);
/* The skin's target_count morph weights of (instance, frame): vks_pose_source_weights. Returns
 * how many differ from the targets' defaults. */
uint32_t vks_cli_poser_weights(const vks_cli_poser *ps, uint32_t instance, uint32_t frame, float *out);
/* Instance's root applied to its deformed vertices (positions, and normals by the 3x3,
 * renormalised where the mesh's format does), as the GPU crowd applies it. No-op without. */
void vks_cli_poser_apply_root(const vks_cli_poser *ps, uint32_t instance, float *pos, float *nrm);
void vks_cli_poser_free(vks_cli_poser *ps);

/* Read options' table, storing into a vks_read_options: P3D's --model-cfg FILE (read with each
 * P3D model by vks_cli_load_skin), --model-name, --lod X, --bones a,b, --bone-limit N, glTF's
 * --uri-root DIR, and --max-input-mb N. */
extern const vks_cli_group vks_cli_read_options;

/* ---- model findings (the library's, inspect.h and src/inspect/findings.h) ---- */

/* Runs the bind-pose check (vks__bind_check_say), its findings on stderr after "vkskin: ".
 * When it fails, returns VKS_EXIT_BIND, or VKS_EXIT_OK when allow_mismatch
 * (--allow-bind-mismatch: files not stored in bind pose); VKS_EXIT_RUNTIME when the check
 * cannot run. Where the format does not promise the bind pose (vks_bind_promised), a check
 * that differs is a note and the exit stays 0. */
int vks_cli_bind_check(const char *path, const vks_skin *skin, int allow_mismatch, vks_bind_check *out);

/* ---- outputs (cli_output.c) ---- */

/* Removes the temporaries being written when the run gets SIGINT, SIGTERM, SIGHUP or SIGQUIT,
 * then dies of the same signal. Called once by main. */
void vks_cli_install_signal_cleanup(void);

/* What a run reads (cli_inputs.c), so that no output is written over it: each file that exists,
 * with how messages name it ("the model", "the clip file of jobs[2].clips[0]"). */
typedef struct vks_cli_input {
    char *path;
    char *label;
    dev_t dev; /* its identity when listed (stat, symlinks followed) */
    ino_t ino;
} vks_cli_input;
typedef struct vks_cli_inputs {
    vks_cli_input *items;
    int count, cap;
    int nomem; /* an input could not be listed: every check then fails (exit 5) */
} vks_cli_inputs;
/* Lists path (a missing one, or "-", is skipped: it cannot be overwritten); label is printf. */
void vks_cli_inputs_add(vks_cli_inputs *in, const char *path, const char *label, ...)
    __attribute__((format(printf, 3, 4)));
/* A model and the config it reads: ro's model_cfg_name, else the model.cfg the P3D reader
 * would find beside it (vks_p3d_find_model_cfg). ro may be NULL. */
void vks_cli_inputs_add_model(vks_cli_inputs *in, const char *path, const vks_read_options *ro, const char *label);
/* Everything a posed run reads once vks_cli_anim_load has run: its models (with their
 * model.cfg), --model-cfg, the pose file, the crowd file and the clip files. */
void vks_cli_inputs_add_run(vks_cli_inputs *in, const vks_cli_pose *p, const vks_read_options *ro);
void vks_cli_inputs_free(vks_cli_inputs *in);
/* The rule for every output of every command, applied before any work: when out is one of the
 * inputs (the same file after following symlinks; the same resolved path where out does not
 * exist yet), prints "vkskin: [OPTION ]OUT: the output is INPUT (LABEL), one of the inputs;
 * refusing to overwrite it" and returns VKS_EXIT_USAGE; VKS_EXIT_OK otherwise. */
int vks_cli_refuse_input(const vks_cli_inputs *in, const char *option, const char *out);
/* The same for outputs whose names are only known during the run (a clip's contact sheet, a
 * heat map per device): every file in dir named prefix...suffix. */
int vks_cli_refuse_input_like(const vks_cli_inputs *in, const char *option, const char *dir, const char *prefix,
                              const char *suffix);

typedef struct vks_cli_outputs {
    char **paths; /* one per input file */
    int count;
} vks_cli_outputs;

/* Plans one output per model before any work: with one, out itself; with several, out must be
 * a folder and receives "<model's file name>.<ext>" (a.dff -> a.dff.csv). Refuses (one line on
 * stderr) names shared by two models (exit 2), an output that is one of the inputs
 * (vks_cli_refuse_input, exit 2), and outputs that vks_output_check refuses (exit 5). Returns
 * an exit code; free the plan with vks_cli_outputs_free whatever it returns. */
int vks_cli_plan_outputs(const char *out, const char *ext, const char *const *models, int model_count,
                         const vks_cli_inputs *in, vks_cli_outputs *plan);
void vks_cli_outputs_free(vks_cli_outputs *plan);

/* Parses an unsigned number option value; prints a message and returns 0 on failure. */
int vks_cli_parse_u32(const char *opt, const char *text, uint32_t *out);
/* Whether text is a decimal number as a user types one (digits, '.', a leading '-', an
 * exponent), for the strtod parsers: strtod alone takes leading spaces, '+', hex ("0x1p3"),
 * "inf" and "nan", none of which an option means. */
int vks_cli_decimal_text(const char *text);
int vks_cli_parse_u64(const char *opt, const char *text, uint64_t *out);

#endif
