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
#include "vkskin/poser.h"

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
 * when it cannot. */
vks_clip_set *vks_cli_read_clips(const char *where, const char *path, const uint8_t *bytes, size_t size,
                                 const vks_skin *json_skin, const vks_read_options *ropt);

/* The more severe of two exit codes, for commands that run several inputs: runtime failure
 * (5) > no device (4) > validation failed (3) > bind-pose check failed (6) > bad input (1) >
 * usage (2) > ok (0). */
int vks_cli_worse_exit(int a, int b);

/* Maps a library result to the exit codes above. */
int vks_cli_exit_code(vks_result r);

/* Pose options shared by deform, validate and render (the library's vks_pose_options, poser.h):
 * procedural poses, a pose file, or clips (--clip for N instances of one clip per FILE, --crowd
 * for a crowd file); and what the CLI keeps about them: which were given, for the checks. */
typedef struct vks_cli_pose {
    vks_pose_options o; /* offset 0: the option table stores here */
    int instances_given, time_given, clip_speed_given;
    /* vks_cli_anim_load's plan (vks_pose_plan_load): plan.models, the models the run poses (the
       command's FILEs, or with --crowd the crowd's models too); plan.clips NULL without --clip
       or --crowd. A command whose engines take morph weights per instance sets
       plan.options.plays_morph_weights on its copy before vks_poser_init. */
    vks_pose_plan plan;
} vks_cli_pose;

/* The pose options' table (cli_options.h), storing into a vks_cli_pose. */
extern const vks_cli_group vks_cli_pose_options;
void vks_cli_pose_defaults(vks_cli_pose *p);
/* After the options: refuses combinations that mean nothing (--clip with --pose or --crowd,
 * --stagger without --clip, --instances with --crowd, ...), one line on stderr. Returns
 * VKS_EXIT_OK or VKS_EXIT_USAGE. */
int vks_cli_pose_check(const vks_cli_pose *p);

/* vks_pose_plan_load with the program's logger (stderr), input limit and its hint: the crowd and
 * clip files read once, the models decided. Returns an exit code (1 bad crowd or clip file, 2
 * usage, 5 out of memory); free p->plan with vks_pose_plan_free whatever it returns. */
int vks_cli_anim_load(vks_cli_pose *p, char **files, int nfiles, const vks_read_options *ropt);

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

/* ---- outputs (cli_output.c; the rule itself is the library's, vkskin/output_plan.h) ---- */

/* Removes the temporaries being written when the run gets SIGINT, SIGTERM, SIGHUP or SIGQUIT,
 * then dies of the same signal. Called once by main. */
void vks_cli_install_signal_cleanup(void);

/* Where the output checks say their refusals: "vkskin: " + the library's line on stderr. */
extern const vks_logger vks_cli_output_log;
/* The exit code of an output check: 2 for what was asked that cannot be (VKS_ERR_INVALID: an
 * output that is an input, two outputs of one name), 5 for what stands in the way on disk or
 * memory. */
int vks_cli_output_exit(vks_result r);

/* vks_output_inputs_add_model within --max-input-mb: a model and the files its reader reads
 * beside it (a P3D's model.cfg, a .gltf's buffers). ro may be NULL. */
void vks_cli_inputs_add_model(vks_output_inputs *in, const char *path, const vks_read_options *ro, const char *label);
/* Everything a posed run reads once vks_cli_anim_load has run: its models (with their
 * model.cfg), --model-cfg, the pose file, the crowd file and the clip files. */
void vks_cli_inputs_add_run(vks_output_inputs *in, const vks_cli_pose *p, const vks_read_options *ro);
/* The rule for every output of every command, applied before any work
 * (vks_output_refuse_input): when out is one of the inputs, prints "vkskin: [OPTION ]OUT: the
 * output is INPUT (LABEL), one of the inputs; refusing to overwrite it" and returns
 * VKS_EXIT_USAGE; VKS_EXIT_OK otherwise. */
int vks_cli_refuse_input(const vks_output_inputs *in, const char *option, const char *out);
/* The same for outputs whose names are only known during the run (a clip's contact sheet, a
 * heat map per device): every file in dir named prefix...suffix. */
int vks_cli_refuse_input_like(const vks_output_inputs *in, const char *option, const char *dir, const char *prefix,
                              const char *suffix);

/* Parses an unsigned number option value; prints a message and returns 0 on failure. */
int vks_cli_parse_u32(const char *opt, const char *text, uint32_t *out);
/* Whether text is a decimal number as a user types one (digits, '.', a leading '-', an
 * exponent), for the strtod parsers: strtod alone takes leading spaces, '+', hex ("0x1p3"),
 * "inf" and "nan", none of which an option means. */
int vks_cli_decimal_text(const char *text);
int vks_cli_parse_u64(const char *opt, const char *text, uint64_t *out);

#endif
