/* Root motion beside a crowd's vertex output (issue 27; cli_root_motion.c). */
#ifndef VKSKIN_CLI_ROOT_MOTION_H
#define VKSKIN_CLI_ROOT_MOTION_H

#include "cli.h"

/* The path of the root-motion CSV beside out_path: "<out_path>.root_motion.csv" (malloc'ed). */
char *vks_cli_root_motion_path(const char *out_path);
/* Whether model m (an index into p->plan.models) has an instance that takes root motion out, known
 * from the crowd before the model is read (cli_root_motion_plan.c). */
int vks_cli_model_root_motion(const vks_cli_pose *p, uint32_t m);
/* Plans each model's root-motion CSV before any work, by the rules of every output: option
 * (--root-motion PATH, one model only) or "<its output>.root_motion.csv" beside a file output;
 * none beside a character device (said on stderr); refused for --out - without option (exit
 * 2). Then the library's rule (vks_output_plan_side): refuses a name another output of the run
 * shares (exit 2), one of the inputs (exit 2), and what vks_output_check refuses, with room for
 * its rows at least (exit 5). rm->paths[m] is NULL for a model that writes none. One line on
 * stderr per refusal. */
int vks_cli_plan_root_motion(const vks_cli_pose *p, const char *option, const vks_output_plan *vertex,
                             const vks_output_inputs *in, vks_output_plan *rm);

#endif
