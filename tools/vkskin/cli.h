/* The vkskin program: one file per command, shared helpers in cli_common.c.
 *
 * Exit codes (documented in README.md and `vkskin --help`):
 *   0  success
 *   1  the input could not be read or is invalid (a clear message names file, offset, structure)
 *   2  usage error (unknown option, missing argument)
 *   3  validation failed: an engine's results are outside tolerance of the CPU reference
 *   4  no Vulkan device (tests map this to CTest's skip code themselves)
 *   5  Vulkan or other runtime failure (device lost, out of memory, output not writable)
 */
#ifndef VKSKIN_CLI_H
#define VKSKIN_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "vkskin.h"

enum {
    VKS_EXIT_OK = 0,
    VKS_EXIT_INPUT = 1,
    VKS_EXIT_USAGE = 2,
    VKS_EXIT_VALIDATION = 3,
    VKS_EXIT_NO_DEVICE = 4,
    VKS_EXIT_RUNTIME = 5
};

int vks_cmd_inspect(int argc, char **argv);
int vks_cmd_deform(int argc, char **argv);
int vks_cmd_validate(int argc, char **argv);
int vks_cmd_bench(int argc, char **argv);
int vks_cmd_devices(int argc, char **argv);
int vks_cmd_generate(int argc, char **argv);

/* ---- shared helpers (cli_common.c) ---- */

/* Reads a file whole; prints "vkskin: file: message" and returns NULL on failure. */
uint8_t *vks_cli_read_file(const char *path, size_t *size);

/* Reads and validates a model (any format; P3D options from opt). Prints one clear error line
 * ("file:0x1a2c: clump/geometry[0]/skin: ...") and returns NULL on failure. */
vks_skin *vks_cli_load_skin(const char *path, const vks_read_options *opt);

/* Maps a library result to the exit codes above. */
int vks_cli_exit_code(vks_result r);

/* Pose options shared by deform, validate and bench. */
typedef struct vks_cli_pose {
    const char *pose_file; /* --pose FILE */
    int procedural;        /* --procedural (default when no --pose) */
    uint32_t instances;    /* --instances N (default 1) */
    uint32_t frames;       /* --frames F (default 1) */
    uint64_t seed;         /* --seed S (default 1) */
    float fps;             /* --fps (default 30): time of frame f is f / fps */
} vks_cli_pose;

/* Consumes a pose option at argv[*i] (advancing *i past its value). Returns 1 when taken,
 * 0 when argv[*i] is not a pose option, -1 on a bad value (message printed). */
int vks_cli_pose_option(vks_cli_pose *p, int argc, char **argv, int *i);
void vks_cli_pose_defaults(vks_cli_pose *p);

/* The pose source made concrete for one skin: fills locals for (instance, frame).
 * For a pose file, frame f uses the file's frame f (every instance the same). */
typedef struct vks_cli_poser {
    const vks_skin *skin;
    vks_cli_pose opt;
    vks_pose_set set; /* when a pose file is used */
} vks_cli_poser;
int vks_cli_poser_init(vks_cli_poser *ps, const vks_skin *skin, const vks_cli_pose *opt);
void vks_cli_poser_locals(const vks_cli_poser *ps, uint32_t instance, uint32_t frame, vks_affine *out);
void vks_cli_poser_free(vks_cli_poser *ps);

/* P3D read options (--model-cfg FILE, --lod X, --bones a,b, --bone-limit N). Same contract
 * as vks_cli_pose_option. The config text is loaded into *cfg_text (caller frees). */
int vks_cli_read_option(vks_read_options *opt, char **cfg_text, int argc, char **argv, int *i);

/* Parses an unsigned number option value; prints a message and returns 0 on failure. */
int vks_cli_parse_u32(const char *opt, const char *text, uint32_t *out);
int vks_cli_parse_u64(const char *opt, const char *text, uint64_t *out);

#endif
