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

#endif
