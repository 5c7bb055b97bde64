/* Pose options shared by deform, validate and render, and the poser that turns them into the
 * library's pose source for one model: procedural, a pose file, or clips (cli_anim.c reads
 * the clip and crowd files; the poser binds their clips to each model it poses). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_anim.h"
#include "check/validate_engine.h" /* vks__apply_root */

void vks_cli_pose_defaults(vks_cli_pose *p)
{
    memset(p, 0, sizeof *p);
    p->instances = 1;
    p->frames = 1;
    p->seed = 1;
    p->fps = 30.0f;
    p->clip_speed = 1.0f;
    p->clip_cycle = -1;
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

int vks_cli_pose_option(vks_cli_pose *p, int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    if (!strcmp(a, "--procedural")) {
        p->procedural = 1;
        return 1;
    }
    if (!strcmp(a, "--stagger")) {
        p->stagger = 1;
        return 1;
    }
    static const char *with_value[] = {"--pose", "--instances", "--frames", "--seed", "--fps", "--time", "--clip",
                                       "--crowd", "--clip-speed", "--clip-cycle", "--clip-duration", "--clip-fps"};
    int known = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        known |= !strcmp(a, with_value[k]);
    if (!known)
        return 0;
    if (!(v = vks_cli_value(argc, argv, i)))
        return -1;
    if (!strcmp(a, "--pose")) {
        p->pose_file = v;
    } else if (!strcmp(a, "--clip")) {
        p->clip = v;
    } else if (!strcmp(a, "--crowd")) {
        p->crowd = v;
    } else if (!strcmp(a, "--instances") || !strcmp(a, "--frames")) {
        uint32_t *dst = a[2] == 'i' ? &p->instances : &p->frames;
        if (!vks_cli_parse_u32(a, v, dst))
            return -1;
        if (*dst == 0) {
            fprintf(stderr, "vkskin: %s must be at least 1\n", a);
            return -1;
        }
        p->instances_given |= a[2] == 'i';
    } else if (!strcmp(a, "--seed")) {
        if (!vks_cli_parse_u64(a, v, &p->seed))
            return -1;
    } else if (!strcmp(a, "--fps")) {
        if (!parse_float(a, v, 0, 1e6f, 1, &p->fps))
            return -1;
    } else if (!strcmp(a, "--time")) {
        if (!parse_float(a, v, -1e9f, 1e9f, 0, &p->time))
            return -1;
        p->time_given = 1;
    } else if (!strcmp(a, "--clip-speed")) {
        if (!parse_float(a, v, -1e6f, 1e6f, 0, &p->clip_speed))
            return -1;
        p->clip_speed_given = 1;
    } else if (!strcmp(a, "--clip-duration")) {
        if (!parse_float(a, v, 0, 1e9f, 1, &p->clip_duration))
            return -1;
    } else if (!strcmp(a, "--clip-fps")) {
        if (!parse_float(a, v, 0, 1e6f, 1, &p->clip_fps))
            return -1;
    } else { /* --clip-cycle */
        static const char *names[] = {"loop", "clamp", "mirror", "reset"};
        p->clip_cycle = -1;
        for (int c = 0; c < 4; c++)
            if (!strcmp(v, names[c]))
                p->clip_cycle = c; /* vks_cycle's order */
        if (p->clip_cycle < 0) {
            fprintf(stderr, "vkskin: --clip-cycle: expected loop, clamp, mirror or reset, got '%s'\n", v);
            return -1;
        }
    }
    return 1;
}

int vks_cli_pose_check(const vks_cli_pose *p)
{
    const char *why = NULL;
    int clips = p->clip || p->crowd;
    if (p->clip && p->crowd)
        why = "--clip and --crowd exclude each other (a crowd file names each instance's clip)";
    else if (p->pose_file && (p->procedural || clips))
        why = p->procedural ? "--pose and --procedural exclude each other"
                            : "--pose excludes --clip and --crowd (a pose JSON plays as a clip: --clip FILE.json)";
    else if (p->procedural && clips)
        why = "--procedural excludes --clip and --crowd";
    else if (p->stagger && !p->clip)
        why = "--stagger needs --clip (a crowd file gives each instance its start)";
    else if (p->crowd && p->instances_given)
        why = "--instances is the crowd file's row count with --crowd; leave it out";
    else if (p->crowd && (p->clip_speed_given || p->clip_cycle >= 0))
        why = "--clip-speed and --clip-cycle go with --clip; a crowd file gives each instance its speed and cycle";
    else if (!clips && (p->clip_speed_given || p->clip_cycle >= 0 || p->clip_duration > 0 || p->clip_fps > 0))
        why = "--clip-speed, --clip-cycle, --clip-duration and --clip-fps need --clip or --crowd";
    else if (p->pose_file && p->time_given)
        why = "--time does not apply to a pose file, whose frames are numbered, not timed";
    else if (p->stagger && p->instances > VKS_CROWD_MAX_INSTANCES)
        why = "--stagger plays at most 16777216 instances";
    if (!why)
        return VKS_EXIT_OK;
    fprintf(stderr, "vkskin: %s\n", why);
    return VKS_EXIT_USAGE;
}

/* A command whose engines do not take morph weights per instance says what it drops: the
 * meshes the poses' weights drive and their vertices, which keep their default weights. */
static void note_dropped_weights(const vks_cli_poser *ps, const vks_cli_pose *opt)
{
    uint32_t vertices = 0;
    for (uint32_t m = 0; m < ps->skin->mesh_count; m++)
        if (ps->skin->meshes[m].target_count)
            vertices += ps->skin->meshes[m].source_vertex_count;
    fprintf(stderr, "vkskin: %s: warning: the poses drive the morph weights of %u mesh(es) (%u vertices with "
                    "targets), which this command does not play yet: they keep their default weights (vkskin deform "
                    "plays them)\n", opt->models && ps->model < opt->model_count ? opt->models[ps->model] : "",
            ps->morph_meshes, vertices);
}

int vks_cli_poser_init(vks_cli_poser *ps, const vks_skin *skin, const vks_cli_pose *opt, uint32_t model)
{
    memset(ps, 0, sizeof *ps);
    ps->skin = skin;
    ps->model = model;
    ps->instances = opt->instances;
    ps->frames = opt->frames;
    ps->source.kind = VKS_POSE_PROCEDURAL;
    ps->source.seed = opt->seed;
    ps->source.fps = opt->fps;
    ps->source.start_time = opt->time;
    if (opt->anim) {
        int ok = vks__cli_poser_clips(ps, opt);
        if (ok && ps->morph_meshes && !opt->plays_morph_weights)
            note_dropped_weights(ps, opt);
        return ok;
    }
    if (!opt->pose_file)
        return 1;
    size_t size = 0;
    char *json = (char *)vks_cli_read_file(opt->pose_file, &size);
    if (!json)
        return 0;
    vks_error err = {0};
    vks_result r = vks_pose_file_parse(skin, json, size, &ps->set, &err);
    free(json);
    if (r != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, opt->pose_file, msg, sizeof msg));
        return 0;
    }
    ps->source.kind = VKS_POSE_FRAMES;
    ps->source.frames = &ps->set;
    for (uint32_t m = 0; ps->set.weights && m < skin->mesh_count; m++) /* the file gives weights */
        ps->morph_meshes += skin->meshes[m].target_count != 0;
    if (ps->morph_meshes && !opt->plays_morph_weights)
        note_dropped_weights(ps, opt);
    if (ps->frames == 1)
        ps->frames = ps->set.frame_count; /* a pose file's frames are the frames */
    return 1;
}

void vks_cli_poser_locals(const vks_cli_poser *ps, uint32_t instance, uint32_t frame, vks_affine *out)
{
    vks_pose_source_locals(&ps->source, ps->skin, instance, frame, out);
}

uint32_t vks_cli_poser_weights(const vks_cli_poser *ps, uint32_t instance, uint32_t frame, float *out)
{
    return vks_pose_source_weights(&ps->source, ps->skin, instance, frame, out);
}

void vks_cli_poser_apply_root(const vks_cli_poser *ps, uint32_t instance, float *pos, float *nrm)
{
    if (ps->roots)
        vks__apply_root(ps->skin, &ps->roots[instance], pos, nrm);
}

void vks_cli_poser_free(vks_cli_poser *ps)
{
    vks_pose_set_free(&ps->set);
    for (uint32_t k = 0; k < ps->ref_count; k++) {
        if (ps->bindings)
            vks_clip_binding_free(&ps->bindings[k]);
        if (ps->json_sets)
            vks_clip_set_free(ps->json_sets[k]);
    }
    free(ps->plays), free(ps->roots), free(ps->refs), free(ps->clips), free(ps->bindings), free(ps->json_sets);
    free(ps->layers), free(ps->layer_refs);
    memset(ps, 0, sizeof *ps);
}
