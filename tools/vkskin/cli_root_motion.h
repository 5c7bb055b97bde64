/* Root motion beside a crowd's vertex output (issue 27; cli_root_motion.c). */
#ifndef VKSKIN_CLI_ROOT_MOTION_H
#define VKSKIN_CLI_ROOT_MOTION_H

#include "cli.h"

/* Whether any instance of the poser plays layers with root motion. */
int vks_cli_root_motion_wanted(const vks_cli_poser *ps);
/* The path of the root-motion CSV beside out_path: "<out_path>.root_motion.csv" (malloc'ed). */
char *vks_cli_root_motion_path(const char *out_path);
/* Writes the poser's root motion, one row per instance and frame (instance, frame, time, x, y,
 * z: the motion node's ground-plane translation from its bind local, clip.h's
 * vks_clip_layers_root_motion, in double; and where any instance takes the yaw out, a last
 * column yaw: vks_clip_layers_root_yaw, radians), to path (a temporary name renamed when
 * complete). Instances without root motion (or yaw) have zeros. */
vks_result vks_cli_root_motion_write(const vks_cli_poser *ps, const char *path, vks_error *err);

/* Whether model m (an index into p->models) has an instance that takes root motion out, known
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
