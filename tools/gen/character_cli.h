/* The generator's command line, shared by `vkskin generate` and the `vkskin-gen` program,
 * and the standard dataset set written by `--datasets DIR`.
 *
 *   vks_gen_cli("vkskin generate", argc, argv)   // argv[0] is the command name; returns an exit code
 *
 * Exit codes are those of tools/vkskin/cli.h: 0 ok, 1 generation failed (for example a
 * palette limit below what one triangle needs), 2 usage, 5 runtime (writer unavailable,
 * output not writable, out of memory).
 */
#ifndef VKSKIN_GEN_CHARACTER_CLI_H
#define VKSKIN_GEN_CHARACTER_CLI_H

#include <stdio.h>

#include "character_clip_files.h"
#include "character_datasets.h"
#include "character_files.h"

/* The whole command line: argv[0] is the command's name as the user typed it. */
int vks_gen_cli(const char *prog, int argc, char **argv);
/* The generator's usage text, prog naming the program ("vkskin generate"): its --help, and the
 * generate section of vkskin's references. */
void vks_gen_cli_usage(const char *prog, FILE *f);

#endif
