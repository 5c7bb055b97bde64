/* vkskin deform FILE... --cpu|--cpu-fast|--gpu [pose options] --out FILE [--format F]:
 * deforms every (instance, frame) pose and writes the vertices in the file's own vertex order.
 * Poses are processed in chunks so memory stays bounded whatever the instance count; a chunk is
 * written by a thread of its own while the engine deforms the next one (the library's
 * vks_deform_run, deform_run.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_shares.h"
#include "cli_gpu.h"
#include "cli_progress.h"
#include "cli_root_motion.h"

typedef enum engine { ENGINE_CPU, ENGINE_CPU_FAST, ENGINE_GPU } engine;

/* What deform's own options say (the pose, GPU and read options have their own). */
typedef struct deform_opts {
    int engine;                 /* an engine */
    uint32_t threads;           /* --threads: the fast CPU engine (0: every core) */
    uint32_t encode_threads;    /* --encode-threads 0|1 */
    const char *out, *root_motion;
    int format;                 /* vks_bake_format; -1: from the output's name */
} deform_opts;

static int set_format(void *field, const vks_cli_option *o, const char *v)
{
    (void)o;
    int *format = field;
    *format = vks_bake_format_parse(v);
    if (*format < 0)
        fprintf(stderr, "vkskin deform: unknown format '%s' (csv, raw, pc2, obj, glb, gltf)\n", v);
    return *format >= 0;
}

#define AT(field) offsetof(deform_opts, field)
static const vks_cli_option deform_options[] = {
    {"--cpu", 0, NULL, vks_cli_store_int, AT(engine), ENGINE_CPU, 0,
     "the CPU reference deformer (double precision; the default)", NULL},
    {"--cpu-fast", 0, NULL, vks_cli_store_int, AT(engine), ENGINE_CPU_FAST, 0,
     "the fast CPU deformer (float, all cores; --threads N for fewer)", NULL},
    {"--gpu", 0, NULL, vks_cli_store_int, AT(engine), ENGINE_GPU, 0,
     "the Vulkan compute deformer (lavapipe where there is no GPU)",
     "--device all or N,M,... splits the poses (with clips, the instances) across every device or those "
     "numbered, a context each, the same bytes as one device; --max-chunk-mb N caps a chunk's output (with "
     "clips, the frames held per chunk, shared by the devices)"},
    {"--threads", 0, "N", vks_cli_store_u32, AT(threads), 1, 0, "with --cpu-fast: its threads (default: every core)",
     NULL},
    {"--encode-threads", 0, "0|1", vks_cli_store_u32, AT(encode_threads), 0, 1,
     "with --gpu: 1 (the default) converts each chunk into the file's layout on a thread of its own while the GPU "
     "gets the next",
     "CSV, OBJ, glTF; raw and PC2 are a copy into the output's buffers, written by its writer thread; 0 converts "
     "on the thread that feeds the GPU. Same bytes"},
    {"--out", 0, "PATH", vks_cli_store_string, AT(out), 0, 0, "output file, or - for standard output",
     "with several input files, an existing folder that receives <input file name>.<format> for each (a.dff -> "
     "a.dff.csv, so a.dff and a.nif do not collide)"},
    {"--format", 0, "F", set_format, AT(format), 0, 0,
     "csv | raw | pc2 | obj | glb | gltf (default: from the output's extension, else csv)",
     "csv: instance,frame,mesh,vertex,x,y,z,nx,ny,nz (mesh = skinned mesh in file order, vertex = the file's "
     "vertex number in that mesh)\nraw: float32 x y z nx ny nz per vertex, ordered instance, frame, mesh, vertex\n"
     "pc2: point cache (Blender Mesh Cache, 3ds Max); instances are written as consecutive samples: sample = "
     "instance * frames + frame\nobj: one frame of one instance\nglb, gltf: glTF 2.0 of one instance: one frame "
     "as a plain mesh, several as morph targets (one per frame) with a STEP weights animation"},
    {"--root-motion", 0, "PATH", vks_cli_store_string, AT(root_motion), 0, 0,
     "where the root motion of a crowd's instances that take it out (root_motion) goes, one model only",
     "without it, beside each output as <output>.root_motion.csv. --out - needs it; --out a device (/dev/null) "
     "writes none without it"},
    VKS_CLI_QUIET_OPTION,
};
#undef AT
static const vks_cli_group deform_group = VKS_CLI_GROUP("options", deform_options);
static const vks_cli_group *const deform_groups[] = {&deform_group, &vks_cli_pose_options, &vks_cli_gpu_options,
                                                     &vks_cli_read_options, NULL};

const vks_cli_command vks_cli_cmd_deform = {
    .name = "deform",
    .summary = "deform posed instances (--cpu or --gpu) and write the vertices",
    .synopsis = "FILE... [--cpu | --cpu-fast [--threads N] | --gpu] [--pose FILE | --procedural\n"
                "--instances N --seed S | --clip FILE[#name] --instances N [--stagger] | --crowd FILE]\n"
                "[--frames F --fps R] [--time T] --out PATH [--format F]",
    .description = "Deforms every instance and frame of each model and writes positions and normals in the mesh's "
                   "own space, in the file's own vertex order. With --crowd each model's instances, in crowd order, "
                   "go to its own output.",
    .epilogue =
        "Outputs are written to a temporary name and renamed when complete; a character device or FIFO is streamed "
        "into, a symlink is followed, a read-only file is not replaced. An output that is one of the inputs, two "
        "inputs that would share an output, a missing or unwritable folder and an output larger than the free space "
        "are refused before any work.\nexit codes: 0 ok, 1 bad input, 2 usage, 4 no Vulkan device, 5 runtime failure "
        "(also an output that cannot be written); with several inputs, the most severe",
    .groups = deform_groups,
    .run = vks_cmd_deform,
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *engine_name(engine e)
{
    return e == ENGINE_GPU ? "gpu" : e == ENGINE_CPU_FAST ? "cpu-fast" : "cpu reference";
}

/* What the engine of one file keeps: the GPU context and the model uploaded once, or the
 * fast CPU engine's thread count. */
typedef struct gpu_engine {
    vks_gpu *gpu;
    vks_gpu_models *models;
    /* --device all or a list: the other contexts the poses are split across (gpus[0] is gpu) */
    vks_gpu *gpus[VKS_CLI_MAX_DEVICES];
    vks_gpu_models *gpu_models[VKS_CLI_MAX_DEVICES];
    int count;
    int threads; /* --threads: the fast CPU engine (0: every core) */
} gpu_engine;

/* One file's poses (vks_deform_run): the poser's locals and weights, the roots, the progress. */
typedef struct deform_ctx {
    const vks_poser *ps;
    vks_cli_progress *progress;
} deform_ctx;

static void chunk_locals(void *user, uint64_t first, uint32_t n, vks_affine *out)
{
    const deform_ctx *d = user;
    uint32_t frames = d->ps->frames;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t p = first + k;
        vks_poser_locals(d->ps, (uint32_t)(p / frames), (uint32_t)(p % frames),
                             out + (size_t)k * d->ps->skin->node_count);
    }
}

static uint32_t chunk_weights(void *user, uint64_t first, uint32_t n, float *out)
{
    const deform_ctx *d = user;
    uint32_t frames = d->ps->frames, targets = d->ps->skin->target_count, off = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t p = first + k;
        off += vks_poser_weights(d->ps, (uint32_t)(p / frames), (uint32_t)(p % frames), out + (size_t)k * targets);
    }
    return off;
}

static void chunk_progress(void *user, uint64_t done)
{
    const deform_ctx *d = user;
    vks_cli_progress_set(d->progress, done, NULL);
}

/* Where each instance stands, as the GPU crowd does. */
static void chunk_root(void *user, uint64_t pose, float *positions, float *normals)
{
    const deform_ctx *d = user;
    vks_poser_apply_root(d->ps, (uint32_t)(pose / d->ps->frames), positions, normals);
}

/* Clips on the GPU: the poser's instances streamed into the bake (vks_stream_to_bake), the
 * frames of the instances that fit the memory (--max-chunk-mb N, else 64 MiB) held and written
 * instance by instance; with several contexts the instances are split across them
 * (poser_stream.h), the same bytes. */
static void progress_of(void *progress, uint64_t poses, int add)
{
    if (add)
        vks_cli_progress_add(progress, poses);
    else
        vks_cli_progress_set(progress, poses, NULL);
}

static vks_result deform_crowd(vks_cli_progress *path, gpu_engine *g, const vks_poser *ps, vks_bake *bake,
                               uint64_t memory, vks_poser_split_stats *split, double *engine_time, vks_error *err)
{
    const vks_poser *one[1] = {ps};
    vks_result r;
    double t0 = now_seconds();
    if (g->count > 1) { /* every context uploads the clips itself */
        vks_poser_job job = {NULL, NULL, NULL, one, 1, ps->frames, 0, 0, path, NULL, NULL, 0, NULL, progress_of};
        r = vks_poser_run_to_bake_split(&job, g->gpus, (const vks_gpu_models *const *)g->gpu_models, g->count, bake,
                                        memory, split, err);
        *engine_time += now_seconds() - t0;
        return r;
    }
    vks_poser_clips gc;
    r = vks_poser_clips_upload(g->gpu, g->models, one, 1, &gc, err);
    if (r == VKS_OK) {
        vks_poser_job job = {g->gpu, g->models, &gc, one, 1, ps->frames, 0, 0, path, NULL, NULL, 0, NULL, progress_of};
        t0 = now_seconds();
        r = vks_poser_run_to_bake(&job, bake, memory, err);
        *engine_time += now_seconds() - t0;
        vks_poser_clips_free(&gc);
    }
    return r;
}

static int deform_one(const char *path, const char *out_path, const char *rm_path, int format, engine e, int threads, int encode_threads,
                      const vks_cli_pose *pose, uint32_t model, const vks_read_options *ropt, const vks_cli_gpu_opts *gopt)
{
    vks_skin *s = vks_cli_load_skin(path, ropt);
    if (!s)
        return VKS_EXIT_INPUT;
    int rc = VKS_EXIT_OK;
    vks_poser ps;
    vks_cli_pose po = *pose;
    /* the CPU engines' jobs and the GPU's batch carry them; the GPU's crowd samples the clips'
       weights channels itself (compute/clip_morph.glsl) */
    po.plan.options.plays_morph_weights = 1;
    if (vks_poser_init(&ps, s, &po.plan, model, NULL) != VKS_OK) {
        vks_poser_free(&ps);
        vks_skin_free(s);
        return VKS_EXIT_INPUT;
    }
    ps.source.fast_sampling = e == ENGINE_CPU_FAST; /* clips: the fast engine's float sampler */
    uint32_t frames = ps.frames, instances = ps.instances;
    uint64_t total = (uint64_t)instances * frames;
    vks_bake *bake = NULL;
    vks_error err = {0};
    char msg[512];
    vks_result r = VKS_OK;
    gpu_engine g = {0};
    g.threads = threads;
    /* the output first: its limits and free space are known now, before minutes of work */
    r = vks_bake_open(&bake, out_path, (vks_bake_format)format, s, instances, frames, &err);
    if (r != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        rc = r == VKS_ERR_INVALID ? VKS_EXIT_USAGE : VKS_EXIT_RUNTIME; /* the output cannot be written */
        goto done;
    }
    vks_bake_set_times(bake, pose->o.time, pose->o.fps); /* glTF bakes show each frame at its time */
    if (e == ENGINE_GPU) {
        char ids[VKS_CLI_MAX_DEVICES][16];
        const char *single = NULL;
        if ((rc = vks_cli_gpu_devices(gopt->device, ids, &single, &g.count)) != VKS_EXIT_OK)
            goto done;
        const vks_skin *one[1] = {s};
        for (int k = 0; k < g.count; k++) {
            vks_cli_gpu_opts o = *gopt;
            o.device = vks_device_spec_is_list(gopt->device) ? ids[k] : single; /* NULL: the best */
            if ((rc = vks_cli_gpu_open(&o, &g.gpus[k])) != VKS_EXIT_OK)
                goto done;
            if ((r = vks_gpu_upload(g.gpus[k], one, 1, &g.gpu_models[k], &err)) != VKS_OK)
                goto fail;
        }
        g.gpu = g.gpus[0], g.models = g.gpu_models[0];
    }
    double t0 = now_seconds(), engine_time = 0;
    vks_poser_split_stats split = {0};
    vks_cli_progress progress;
    vks_cli_progress_begin(&progress, "deform", "poses", total);
    vks_cli_progress_set(&progress, 0, path);
    if (e == ENGINE_GPU && pose->plan.clips) { /* clips sampled on the GPU, not on the host */
        uint64_t memory = gopt->max_chunk_bytes ? gopt->max_chunk_bytes : 64ull << 20;
        if ((r = deform_crowd(&progress, &g, &ps, bake, memory, &split, &engine_time, &err)) != VKS_OK)
            goto fail;
        total = 0; /* written */
    }
    deform_ctx dc = {&ps, &progress};
    vks_deform_run_desc dd = {0};
    dd.skin = s, dd.bake = bake, dd.frames = frames, dd.total = total;
    dd.locals = chunk_locals, dd.finish = ps.roots ? chunk_root : NULL, dd.progress = chunk_progress, dd.user = &dc;
    if (ps.morph_meshes) /* clips or a pose file drive morph weights */
        dd.weights = chunk_weights;
    dd.engine = e == ENGINE_GPU ? VKS_DEFORM_GPU : e == ENGINE_CPU_FAST ? VKS_DEFORM_CPU_FAST : VKS_DEFORM_CPU_REFERENCE;
    dd.threads = g.threads;
    if (e == ENGINE_GPU) /* one stream over every pose (split across the contexts, in pose order) */
        dd.gpus = g.gpus, dd.models = (const vks_gpu_models *const *)g.gpu_models, dd.gpu_count = g.count;
    dd.max_chunk_bytes = gopt->max_chunk_bytes;
    dd.direct = format == VKS_BAKE_RAW || format == VKS_BAKE_PC2 || !encode_threads;
    vks_deform_run_stats rs;
    r = vks_deform_run(&dd, &rs, &err);
    if (rs.shares.contexts) /* a split batch's; clips fill split themselves */
        split.shares = rs.shares;
    engine_time += rs.engine_s;
    vks_cli_progress_end(&progress);
    if (r != VKS_OK)
        goto fail;
    r = vks_bake_close(bake, 1, &err);
    bake = NULL;
    if (r != VKS_OK)
        goto fail;
    if (rm_path && vks_poser_root_motion_wanted(&ps)) { /* planned and checked before any work */
        if ((r = vks_poser_root_motion_write(&ps, rm_path, &err)) != VKS_OK)
            goto fail;
        fprintf(stderr, "vkskin: %s: root motion -> %s\n", path, rm_path);
    }
    double dt = now_seconds() - t0;
    char shares[256];
    vks_cli_crowd_split_said(&split, shares, sizeof shares);
    fprintf(stderr,
            "vkskin: %s: %u instance(s) x %u frame(s) x %u vertices deformed on the %s%s in %.3f s "
            "(%.3g vertex-instances/s in the engine) -> %s\n",
            path, instances, frames, s->vertex_count, engine_name(e), shares, dt,
            engine_time > 0 ? (double)instances * frames * s->vertex_count / engine_time : 0.0, out_path);
    vks_cli_shares_print(&split.shares, "deform"); /* what each context of a split took */
    goto done;
fail: /* an output error names the output; any other names the model */
    fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, r == VKS_ERR_IO ? NULL : path, msg, sizeof msg));
    rc = vks_cli_exit_code(r);
done:
    for (int k = 0; k < g.count; k++) {
        vks_gpu_models_free(g.gpu_models[k]);
        vks_gpu_destroy(g.gpus[k]);
    }
    if (bake)
        vks_bake_close(bake, 0, NULL);
    vks_poser_free(&ps);
    vks_skin_free(s);
    return rc;
}

int vks_cmd_deform(int argc, char **argv)
{
    vks_cli_pose pose;
    vks_cli_pose_defaults(&pose);
    vks_read_options ropt = {0};
    vks_cli_gpu_opts gopt = {0};
    deform_opts d = {ENGINE_CPU, 0, 1, NULL, NULL, -1};
    vks_output_plan plan = {0}, rm_plan = {0};
    int nfiles = 0;
    int rc = vks_cli_parse(&vks_cli_cmd_deform, (void *[]){&d, &pose, &gopt, &ropt}, argc, argv, &nfiles, NULL, NULL);
    if (rc != VKS_CLI_GO_ON)
        return rc;
    rc = VKS_EXIT_OK;
    char **files = argv + 1;
    const char *out = d.out, *root_motion = d.root_motion;
    int format = d.format;
    engine e = (engine)d.engine;
    uint32_t threads = d.threads, encode_threads = d.encode_threads;
    if ((!nfiles && !pose.o.crowd) || !out) {
        fprintf(stderr, "vkskin deform: needs at least one FILE (or --crowd FILE) and --out PATH\n");
        vks_cli_help(stderr, &vks_cli_cmd_deform);
        return VKS_EXIT_USAGE;
    }
    if ((rc = vks_cli_pose_check(&pose)) != VKS_EXIT_OK)
        goto out;
    /* the crowd and clip files: read once, before any model (their errors name their lines) */
    if ((rc = vks_cli_anim_load(&pose, files, nfiles, &ropt)) != VKS_EXIT_OK)
        goto out;
    int nmodels = (int)pose.plan.model_count;
    if (format < 0)
        format = nmodels > 1 ? VKS_BAKE_CSV : (int)vks_bake_format_from_path(out);
    for (int m = 0; format == VKS_BAKE_OBJ && m < nmodels; m++)
        if ((uint64_t)vks_pose_plan_instances(&pose.plan, (uint32_t)m) * pose.o.frames != 1) {
            fprintf(stderr, "vkskin deform: OBJ holds one frame of one instance (asked for %u x %u of %s)\n",
                    vks_pose_plan_instances(&pose.plan, (uint32_t)m), pose.o.frames, pose.plan.models[m]);
            rc = VKS_EXIT_USAGE;
            goto out;
        }
    /* every output decided and checked before the first model is read */
    vks_output_inputs in = {0};
    vks_cli_inputs_add_run(&in, &pose, &ropt);
    rc = vks_cli_output_exit(vks_output_plan_models(&plan, out, "--out", vks_bake_format_name((vks_bake_format)format),
                                                    pose.plan.models, (uint32_t)nmodels, &in, &vks_cli_output_log, NULL));
    if (rc == VKS_EXIT_OK) /* a crowd's root motion: beside each output, or --root-motion PATH */
        rc = vks_cli_plan_root_motion(&pose, root_motion, &plan, &in, &rm_plan);
    vks_output_inputs_free(&in);
    if (rc != VKS_EXIT_OK)
        goto out;
    for (int m = 0; m < nmodels; m++) /* a bad input does not stop the others; the worst code wins */
        rc = vks_cli_worse_exit(rc, deform_one(pose.plan.models[m], plan.paths[m], rm_plan.paths[m], format, e, (int)threads,
                                               (int)encode_threads, &pose, (uint32_t)m, &ropt, &gopt));
out:
    vks_pose_plan_free(&pose.plan);
    vks_output_plan_free(&plan);
    vks_output_plan_free(&rm_plan);
    return rc;
}
