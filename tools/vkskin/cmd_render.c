/* vkskin render FILE... --instances N [pose options] --out PNG [--size WxH]: a contact sheet
 * of posed instances drawn on the GPU from the crowd's own buffers (render.h), written as PNG.
 * Several files make one sheet with a row of N cells per file, so characters compare side by
 * side; one file fills the image with the grid that makes cells largest. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_shares.h"
#include "cli_gpu.h"
#include "cli_progress.h"
#include "vkskin/render.h"

static int parse_size(const char *text, uint32_t *w, uint32_t *h)
{
    char *end = NULL;
    if (*text < '0' || *text > '9') /* strtoul takes leading spaces and a sign */
        return 0;
    unsigned long a = strtoul(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X'))
        return 0;
    const char *rest = end + 1;
    if (*rest < '0' || *rest > '9')
        return 0;
    unsigned long b = strtoul(rest, &end, 10);
    if (end == rest || *end || a == 0 || b == 0 || a > 8192 || b > 8192)
        return 0;
    *w = (uint32_t)a, *h = (uint32_t)b;
    return 1;
}

/* What render's own options say (the pose, GPU and read options have their own). */
typedef struct render_opts {
    const char *out;
    uint32_t w, h, columns;
} render_opts;

static int set_size(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    render_opts *r = field;
    if (parse_size(v, &r->w, &r->h))
        return 1;
    fprintf(stderr, "vkskin render: --size needs WxH, 1 to 8192 each (got '%s')\n", v);
    return 0;
}

static const vks_cli_option render_options[] = {
    {"--out", 0, "PNG", vks_cli_store_string, offsetof(render_opts, out), 0, 0,
     "the image (written to a temporary and renamed; - for standard output)", NULL},
    {"--size", 0, "WxH", set_size, 0, 0, 0, "image size in pixels (default 640x360, at most 8192 each)", NULL},
    {"--columns", 0, "C", vks_cli_store_u32, offsetof(render_opts, columns), 1, 0,
     "cells per row (default: one row per file with several files, else the grid that makes cells largest)",
     NULL},
    VKS_CLI_QUIET_OPTION,
};
static const vks_cli_group render_group = VKS_CLI_GROUP("options", render_options);
static const vks_cli_group *const render_groups[] = {&render_group, &vks_cli_pose_options, &vks_cli_gpu_options,
                                                     &vks_cli_read_options, NULL};

const vks_cli_command vks_cli_cmd_render = {
    .name = "render",
    .summary = "draw posed instances on the GPU into a PNG contact sheet",
    .synopsis = "FILE... [--instances N] [--pose FILE | --procedural --seed S | --clip FILE[#name] [--stagger] |\n"
                "--crowd FILE] [--frames F --fps R] [--time T] --out PNG [--size WxH] [--columns C] [--quiet]",
    .description =
        "Draws N posed instances of each model on the GPU (a Vulkan graphics pipeline reading the crowd's deformed "
        "vertices where the compute passes left them) into a contact sheet: each instance in its own cell, lit, seen "
        "by one camera per model fitted to its bind pose.\n\nThe picture shows the last of --frames F frames (1), at "
        "time --time + (F-1) / --fps; with --pose FILE every instance shows its frame 0, or frame F-1 with --frames "
        "F. A clip is sampled on the GPU in the crowd's pose pass. With --crowd, one cell per instance, grouped by "
        "model; each plays its clip at its start, speed and cycle. Root transforms are not drawn: each cell shows "
        "its instance where its model's camera looks. One image is drawn on one device, so --device all and lists "
        "(N,M) are refused (exit 2).",
    .epilogue = "exit codes: 0 ok, 1 bad input, 2 usage, 4 no Vulkan device, 5 runtime failure (also an output that "
                "cannot be written)",
    .groups = render_groups,
    .run = vks_cmd_render,
};

/* What the sheet is drawn from: every file's model, uploaded together, the posers (clips or
 * the pose file) and the clips uploaded for the crowd; the library draws it a part at a time
 * (vks_render_sheet). */
typedef struct sheet {
    vks_skin **skins;
    int count;
    vks_gpu *gpu;
    vks_gpu_models *models;
    vks_render *render;
    vks_poser *posers;
    vks_poser_clips clips;
    const vks_cli_pose *pose;
    uint32_t frame;    /* a pose file's frame shown */
    vks_cli_progress progress;
} sheet;

static void sheet_free(sheet *s)
{
    vks_render_destroy(s->render);
    vks_poser_clips_free(&s->clips);
    vks_gpu_models_free(s->models);
    vks_gpu_destroy(s->gpu);
    for (int f = 0; s->posers && f < s->count; f++)
        vks_poser_free(&s->posers[f]);
    for (int f = 0; f < s->count; f++)
        vks_skin_free(s->skins[f]);
    free(s->posers);
    free(s->skins);
}

/* Clips: each model's instances play their clips, sampled on the GPU (cli_crowd.h). A pose
 * file: each model's poser, whose frame sets the locals from the host. */
static vks_result prepare_poses(sheet *s, const vks_cli_pose *pose, vks_error *err)
{
    if (pose->plan.clips) {
        const vks_poser **ps = malloc((size_t)s->count * sizeof *ps);
        for (int f = 0; ps && f < s->count; f++)
            ps[f] = &s->posers[f];
        vks_result r = ps ? vks_poser_clips_upload(s->gpu, s->models, ps, (uint32_t)s->count, &s->clips, err)
                          : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "render", "out of memory");
        free(ps);
        return r;
    }
    if (!pose->o.pose_file)
        return VKS_OK;
    for (int f = 0; f < s->count; f++)
        if (vks_poser_init(&s->posers[f], s->skins[f], &pose->plan, (uint32_t)f, NULL) != VKS_OK)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, pose->o.pose_file, "the pose file does not fit");
    return VKS_OK;
}

/* File f's instance j, its cell (vks_render_cells.instance): its clip, or the pose file's
 * locals, or a procedural pose. */
static void cell_instance(void *user, uint32_t f, uint32_t j, vks_instance *in)
{
    const sheet *s = user;
    if (s->pose->plan.clips) {
        vks_poser_crowd_instance(&s->clips, &s->posers[f], f, j, 0, in);
        return;
    }
    memset(in, 0, sizeof *in);
    in->model = f;
    in->pose = s->pose->o.pose_file ? VKS_POSE_LOCALS : VKS_POSE_PROCEDURAL;
    in->seed = s->pose->o.seed;
    in->pose_instance = j;
}

/* A pose file's frame of file f's instance j (its last frame when it has fewer). */
static void cell_locals(void *user, uint32_t f, uint32_t j, vks_affine *out)
{
    const sheet *s = user;
    const vks_poser *ps = &s->posers[f];
    uint32_t last = ps->set.frame_count ? ps->set.frame_count - 1 : 0;
    vks_poser_locals(ps, j, s->frame < last ? s->frame : last, out);
}

static void cell_progress(void *user, uint32_t drawn, uint32_t cells)
{
    (void)cells;
    vks_cli_progress_set(&((sheet *)user)->progress, drawn, NULL);
}

/* Every cell, a part at a time (a sheet of many instances draws for a while: progress). */
static vks_result draw_cells(sheet *s, const vks_cli_pose *pose, float time, uint32_t cells, vks_error *err)
{
    uint32_t *counts = malloc((size_t)s->count * sizeof *counts);
    if (!counts)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "render", "out of memory for the crowd");
    for (int f = 0; f < s->count; f++)
        counts[f] = vks_pose_plan_instances(&pose->plan, (uint32_t)f);
    vks_render_cells c = {.skins = (const vks_skin *const *)s->skins, .skin_count = (uint32_t)s->count,
                          .counts = counts, .models = s->models, .clips = pose->plan.clips ? s->clips.gc : NULL,
                          .time = time, .instance = cell_instance, .progress = cell_progress, .user = s,
                          .locals = pose->o.pose_file && !pose->plan.clips ? cell_locals : NULL};
    vks_cli_progress_begin(&s->progress, "render", "instances", cells);
    vks_result r = vks_render_sheet(s->render, s->gpu, &c, err);
    vks_cli_progress_end(&s->progress);
    free(counts);
    return r;
}

static int render_sheet(const char *const *files, int nfiles, const char *out, uint32_t w, uint32_t h,
                        uint32_t columns, const vks_cli_pose *pose, const vks_read_options *ropt,
                        const vks_cli_gpu_opts *gopt)
{
    sheet s = {.pose = pose};
    vks_error err = {0};
    char msg[512];
    int rc = VKS_EXIT_OK;
    if (!(s.skins = calloc((size_t)nfiles, sizeof *s.skins)) || !(s.posers = calloc((size_t)nfiles, sizeof *s.posers))) {
        free(s.skins);
        return VKS_EXIT_RUNTIME;
    }
    vks_cli_pose clips = *pose; /* the crowd samples the clips' morph weights on the GPU */
    clips.plan.options.plays_morph_weights = 1;
    for (; s.count < nfiles; s.count++) {
        if (!(s.skins[s.count] = vks_cli_load_skin(files[s.count], ropt)) ||
            (pose->plan.clips &&
             vks_poser_init(&s.posers[s.count], s.skins[s.count], &clips.plan, (uint32_t)s.count, NULL) != VKS_OK)) {
            s.count += s.skins[s.count] != NULL; /* freed with the others */
            sheet_free(&s);
            return VKS_EXIT_INPUT;
        }
    }
    vks_cli_gpu_opts draws = *gopt;
    draws.render = 1;
    if ((rc = vks_cli_gpu_open(&draws, &s.gpu)) != VKS_EXIT_OK) {
        sheet_free(&s);
        return rc;
    }
    uint32_t frame = s.frame = pose->o.frames ? pose->o.frames - 1 : 0;
    float time = pose->o.time + (float)frame / (pose->o.fps > 0 ? pose->o.fps : 30.0f); /* vks_pose_source_time's sum */
    vks_render_desc d = {.skins = (const vks_skin *const *)s.skins, .skin_count = (uint32_t)nfiles, .width = w,
                         .height = h, .columns = columns ? columns : nfiles > 1 && !pose->o.crowd ? pose->o.instances : 0};
    uint32_t cells = 0;
    for (int f = 0; f < nfiles; f++)
        cells += vks_pose_plan_instances(&pose->plan, (uint32_t)f);
    vks_result r;
    int cannot_draw = 0;
    if ((r = vks_gpu_upload(s.gpu, (const vks_skin *const *)s.skins, (uint32_t)nfiles, &s.models, &err)) == VKS_OK &&
        (r = prepare_poses(&s, pose, &err)) == VKS_OK) {
        r = vks_render_create(s.gpu, &d, &s.render, &err);
        cannot_draw = r == VKS_ERR_UNSUPPORTED; /* no queue family with graphics */
        if (r == VKS_OK && (r = draw_cells(&s, pose, time, cells, &err)) == VKS_OK)
            r = vks_render_write_png(s.render, out, &err);
    }
    if (r != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = r == VKS_ERR_INVALID ? VKS_EXIT_INPUT : vks_cli_exit_code(r);
        if (cannot_draw)
            rc = VKS_EXIT_NO_DEVICE; /* the device cannot draw (no queue family with graphics) */
    } else {
        fprintf(stderr, "vkskin: %d file(s), %u instance(s) drawn on %s (queue family %u, queue %u) at t=%g%s -> %s "
                        "(%ux%u)\n",
                nfiles, cells, vks_gpu_device(s.gpu)->name, vks_gpu_device(s.gpu)->queue_family,
                vks_gpu_device(s.gpu)->queue_index, (double)time, pose->plan.clips ? " (clips sampled on the GPU)" : "", out,
                d.width ? d.width : 640, d.height ? d.height : 360);
        if (vks_gpu_validation_messages(s.gpu))
            rc = VKS_EXIT_RUNTIME; /* --validation: the layer spoke (its lines went to stderr) */
    }
    sheet_free(&s);
    return rc;
}

int vks_cmd_render(int argc, char **argv)
{
    vks_cli_pose pose;
    vks_cli_pose_defaults(&pose);
    vks_read_options ropt = {0};
    vks_cli_gpu_opts gopt = {0};
    render_opts ro = {NULL, 640, 360, 0};
    int nfiles = 0;
    int rc = vks_cli_parse(&vks_cli_cmd_render, (void *[]){&ro, &pose, &gopt, &ropt}, argc, argv, &nfiles, NULL, NULL);
    if (rc != VKS_CLI_GO_ON)
        return rc;
    rc = VKS_EXIT_OK;
    char **files = argv + 1;
    const char *out = ro.out;
    uint32_t w = ro.w, h = ro.h, columns = ro.columns;
    if ((!nfiles && !pose.o.crowd) || !out) {
        fprintf(stderr, "vkskin render: needs at least one FILE (or --crowd FILE) and --out PNG\n");
        vks_cli_help(stderr, &vks_cli_cmd_render);
        return VKS_EXIT_USAGE;
    }
    if (vks_device_spec_is_list(gopt.device)) { /* one image is one draw: nothing to split */
        fprintf(stderr, "vkskin render: --device %s: render draws its image on one device; give its number or name "
                        "(see vkskin devices)\n", gopt.device);
        rc = VKS_EXIT_USAGE;
        goto done;
    }
    if ((rc = vks_cli_pose_check(&pose)) != VKS_EXIT_OK ||
        (rc = vks_cli_anim_load(&pose, files, nfiles, &ropt)) != VKS_EXIT_OK)
        goto done;
    uint64_t cells = 0;
    for (uint32_t m = 0; m < pose.plan.model_count; m++)
        cells += vks_pose_plan_instances(&pose.plan, m);
    if (cells > VKS_RENDER_MAX_CELLS) {
        fprintf(stderr, "vkskin render: at most %u cells (asked for %llu)\n", VKS_RENDER_MAX_CELLS,
                (unsigned long long)cells);
        rc = VKS_EXIT_USAGE;
        goto done;
    }
    /* the output is checked before any work, and may not be one of the inputs */
    vks_output_inputs in = {0};
    vks_cli_inputs_add_run(&in, &pose, &ropt);
    rc = vks_cli_refuse_input(&in, "--out", out);
    vks_output_inputs_free(&in);
    if (rc != VKS_EXIT_OK)
        goto done;
    vks_error err = {0};
    if (vks_output_check(out, 0, &err) != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = VKS_EXIT_RUNTIME;
        goto done;
    }
    rc = render_sheet(pose.plan.models, (int)pose.plan.model_count, out, w, h, columns, &pose, &ropt, &gopt);
done:
    vks_pose_plan_free(&pose.plan);
    return rc;
}
