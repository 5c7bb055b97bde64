/* Pose options shared by deform, validate and render: their table and checks. The library's
 * plan (poser.h) reads the crowd and clip files, and its posers pose each model. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"

void vks_cli_pose_defaults(vks_cli_pose *p)
{
    memset(p, 0, sizeof *p);
    vks_pose_options_defaults(&p->o);
}

/* A finite number within lo..hi (exclusive of 0 when positive is set). */
static int parse_float(const char *opt, const char *v, float lo, float hi, int positive, float *out)
{
    char *end = NULL;
    double d = vks_cli_decimal_text(v) ? strtod(v, &end) : NAN;
    if (!v || !end || end == v || *end || !isfinite(d) || d < lo || d > hi || (positive && !(d > 0))) {
        fprintf(stderr, "vkskin: %s: '%s' is not a%s number%s\n", opt, v ? v : "", positive ? " positive" : "",
                positive ? "" : " within float range");
        return 0;
    }
    *out = (float)d;
    return 1;
}

/* The setters of the pose options: field is the vks_cli_pose (offset 0) where an option sets
 * a value and says it was given. */
static int set_instances(void *field, const vks_cli_option *o, const char *v)
{
    vks_cli_pose *p = field;
    p->instances_given = 1;
    return vks_cli_store_u32(&p->o.instances, o, v);
}

/* A positive number up to o->hi: --fps, --clip-duration, --clip-fps. */
static int set_positive(void *field, const vks_cli_option *o, const char *v)
{
    return parse_float(o->name, v, 0, (float)o->hi, 1, field);
}

static int set_time(void *field, const vks_cli_option *o, const char *v)
{
    vks_cli_pose *p = field;
    p->time_given = 1;
    return parse_float(o->name, v, -1e9f, 1e9f, 0, &p->o.time);
}

static int set_clip_speed(void *field, const vks_cli_option *o, const char *v)
{
    vks_cli_pose *p = field;
    p->clip_speed_given = 1;
    return parse_float(o->name, v, -1e6f, 1e6f, 0, &p->o.clip_speed);
}

static int set_clip_cycle(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    static const char *names[] = {"loop", "clamp", "mirror", "reset"};
    int *cycle = field;
    *cycle = -1;
    for (int c = 0; c < 4; c++)
        if (!strcmp(v, names[c]))
            *cycle = c; /* vks_cycle's order */
    if (*cycle < 0)
        fprintf(stderr, "vkskin: --clip-cycle: expected loop, clamp, mirror or reset, got '%s'\n", v);
    return *cycle >= 0;
}

#define AT(field) offsetof(vks_pose_options, field) /* vks_cli_pose.o is at offset 0 */
static const vks_cli_option pose_options[] = {
    {"--procedural", 0, NULL, vks_cli_store_flag, AT(procedural), 0, 0,
     "deterministic procedural poses (the default without --pose, --clip or --crowd)",
     "--seed S picks them; time of frame f is --time + f / --fps"},
    {"--pose", 0, "FILE", vks_cli_store_string, AT(pose_file), 0, 0,
     "a JSON pose file (DESIGN.md section 6): its frames are the frames", NULL},
    {"--instances", 0, "N", set_instances, 0, 1, 0, "instances of each model (default 1)", NULL},
    {"--frames", 0, "F", vks_cli_store_u32, AT(frames), 1, 0,
     "frames of each instance (default 1; a pose file's own count unless given)", NULL},
    {"--seed", 0, "S", vks_cli_store_u64, AT(seed), 0, 0, "the procedural poses' seed (default 1)", NULL},
    {"--fps", 0, "R", set_positive, AT(fps), 0, 1000000, "frames per second: frame f is at --time + f / R (default 30)", NULL},
    {"--time", 0, "T", set_time, 0, 0, 0, "the first frame's time in seconds (default 0)",
     "With clips every engine samples them: --cpu in double, --cpu-fast in float, --gpu in the crowd's pose "
     "pass on the GPU (chunks of instances)"},
    {"--clip", 0, "FILE[#name]", vks_cli_store_string, AT(clip), 0, 0,
     "play clip `name` (or its index; default clip 0) of a clip file on --instances N of each FILE",
     "a clip file of the model's own format family ({clip formats}), or pose JSON (.json) for every format"},
    {"--stagger", 0, NULL, vks_cli_store_flag, AT(stagger), 0, 0,
     "with --clip: instance i of N starts at i x duration / N", NULL},
    {"--clip-speed", 0, "S", set_clip_speed, 0, 0, 0, "with --clip: playback speed (default 1)", NULL},
    {"--clip-cycle", 0, "C", set_clip_cycle, AT(clip_cycle), 0, 0,
     "with --clip: loop, clamp, mirror or reset (default: the clip's own)", NULL},
    {"--clip-duration", 0, "S", set_positive, AT(clip_duration), 0, 1000000000,
     "RTM: the clip's length in seconds (the file stores none; default 1)", NULL},
    {"--clip-fps", 0, "R", set_positive, AT(clip_fps), 0, 1000000,
     "frame rate of clips that store none (pose JSON frames per second; default 30)", NULL},
    {"--crowd", 0, "FILE", vks_cli_store_string, AT(crowd), 0, 0,
     "a crowd file (JSON or CSV, see docs/clips-and-crowds.md): per instance its model, clip, start, speed, cycle and root "
     "transform",
     "Models: the FILEs given, then those the crowd names; an instance naming no model takes the one FILE "
     "given"},
};
#undef AT

const vks_cli_group vks_cli_pose_options = VKS_CLI_GROUP("pose options", pose_options);

int vks_cli_pose_check(const vks_cli_pose *p)
{
    const char *why = NULL;
    int clips = p->o.clip || p->o.crowd;
    if (p->o.clip && p->o.crowd)
        why = "--clip and --crowd exclude each other (a crowd file names each instance's clip)";
    else if (p->o.pose_file && (p->o.procedural || clips))
        why = p->o.procedural ? "--pose and --procedural exclude each other"
                            : "--pose excludes --clip and --crowd (a pose JSON plays as a clip: --clip FILE.json)";
    else if (p->o.procedural && clips)
        why = "--procedural excludes --clip and --crowd";
    else if (p->o.stagger && !p->o.clip)
        why = "--stagger needs --clip (a crowd file gives each instance its start)";
    else if (p->o.crowd && p->instances_given)
        why = "--instances is the crowd file's row count with --crowd; leave it out";
    else if (p->o.crowd && (p->clip_speed_given || p->o.clip_cycle >= 0))
        why = "--clip-speed and --clip-cycle go with --clip; a crowd file gives each instance its speed and cycle";
    else if (!clips && (p->clip_speed_given || p->o.clip_cycle >= 0 || p->o.clip_duration > 0 || p->o.clip_fps > 0))
        why = "--clip-speed, --clip-cycle, --clip-duration and --clip-fps need --clip or --crowd";
    else if (p->o.pose_file && p->time_given)
        why = "--time does not apply to a pose file, whose frames are numbered, not timed";
    else if (p->o.stagger && p->o.instances > VKS_CROWD_MAX_INSTANCES)
        why = "--stagger plays at most 16777216 instances";
    if (!why)
        return VKS_EXIT_OK;
    fprintf(stderr, "vkskin: %s\n", why);
    return VKS_EXIT_USAGE;
}

int vks_cli_anim_load(vks_cli_pose *p, char **files, int nfiles, const vks_read_options *ropt)
{
    vks_read_options ro = ropt ? *ropt : (vks_read_options){0};
    ro.file.max_size = vks_cli_max_input_bytes;
    ro.logger.func = vks_log_stderr; /* the library says each problem and note, "vkskin: " first */
    vks_result r = vks_pose_plan_load(&p->plan, &p->o, (const char *const *)files, nfiles, &ro, "(--max-input-mb N)",
                                      NULL);
    return r == VKS_OK ? VKS_EXIT_OK : r == VKS_ERR_INVALID ? VKS_EXIT_USAGE
                                     : r == VKS_ERR_NOMEM  ? VKS_EXIT_RUNTIME : VKS_EXIT_INPUT;
}
