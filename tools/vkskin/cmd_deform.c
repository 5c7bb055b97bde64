/* vkskin deform FILE... --cpu|--cpu-fast|--gpu [pose options] --out FILE [--format F]:
 * deforms every (instance, frame) pose and writes the vertices in the file's own vertex order.
 * Poses are processed in chunks so memory stays bounded whatever the instance count; a chunk is
 * written by a thread of its own while the engine deforms the next one (deform_chunks.c). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_formats.h"
#include "cli_crowd.h"
#include "cli_crowd_split.h"
#include "cli_gpu.h"
#include "cli_progress.h"
#include "cli_root_motion.h"
#include "deform_chunks.h"

typedef enum engine { ENGINE_CPU, ENGINE_CPU_FAST, ENGINE_GPU } engine;

static void help(FILE *f)
{
    fprintf(f,
            "usage: vkskin deform FILE... [--cpu | --cpu-fast [--threads N] | --gpu] [--pose FILE | --procedural\n"
            "                     --instances N --seed S | --clip FILE[#name] --instances N [--stagger] |\n"
            "                     --crowd FILE] [--frames F --fps R] [--time T] --out PATH [--format F]\n\n"
            "Deforms every instance and frame of each model and writes positions and normals in the\n"
            "mesh's own space, in the file's own vertex order.\n\n"
            "  --cpu            the CPU reference deformer (double precision; the default)\n"
            "  --cpu-fast       the fast CPU deformer (float, all cores; --threads N for fewer)\n"
            "  --gpu            the Vulkan compute deformer (lavapipe where there is no GPU)\n"
            "  --encode-threads 0|1  with --gpu: 1 (the default) converts each chunk into the file's\n"
            "                   layout on a thread of its own while the GPU gets the next (CSV, OBJ,\n"
            "                   glTF; raw and PC2 are a copy into the output's buffers, written by its\n"
            "                   writer thread); 0 converts on the thread that feeds the GPU. Same bytes\n"
            "  --quiet          no progress lines (otherwise one on stderr every 2 s of a long run)\n"
            "  --device N|NAME  with --gpu: the Vulkan device to use (see vkskin devices); all or\n"
            "                   N,M,... splits the poses (with clips, the instances) across every\n"
            "                   device or those numbered, a context each (a number may repeat), the\n"
            "                   same bytes as one device; also --validation (Khronos validation\n"
            "                   layer), --max-chunk-mb N (a chunk's output; with clips, the frames held\n"
            "                   per chunk, shared by the devices) and --launch-shape SPEC (README:\n"
            "                   Launch shapes)\n"
            "  --pose FILE      JSON pose file (DESIGN.md section 6); its frames are the frames\n"
            "  --procedural     deterministic procedural poses (the default): --seed S (1),\n"
            "                   --instances N (1), --frames F (1), time of frame f = --time + f / --fps (30)\n"
            "  --clip FILE[#name]  play clip `name` (or its index; default clip 0) of a clip file on\n"
            "                   --instances N of each FILE: a clip file of FILE's format (vkskin convert\n"
            "                   --help lists them), pose JSON (.json) for every format. --stagger: instance\n"
            "                   i starts at i x duration / N; --clip-speed S (1), --clip-cycle\n"
            "                   loop|clamp|mirror|reset (the clip's own), --clip-duration S (RTM stores\n"
            "                   none: 1), --clip-fps R (pose JSON frames per second: 30)\n"
            "  --crowd FILE     a crowd file (JSON or CSV, see README): per instance its model, clip,\n"
            "                   start, speed, cycle and root transform. Models: the FILEs given, then those\n"
            "                   the crowd names; an instance naming no model takes the one FILE given.\n"
            "                   Each model's instances, in crowd order, go to its own output\n"
            "  --root-motion PATH  where the root motion of a crowd's instances that take it out\n"
            "                   (root_motion) goes, one model only; without it, beside each output as\n"
            "                   <output>.root_motion.csv. --out - needs it; --out a device (/dev/null)\n"
            "                   writes none without it\n"
            "  --time T         the first frame's time in seconds (default 0)\n"
            "                   With clips every engine samples them: --cpu in double, --cpu-fast in float,\n"
            "                   --gpu in the crowd's pose pass on the GPU (chunks of instances)\n"
            "  --out PATH       output file, or - for standard output; with several input files,\n"
            "                   an existing folder that receives <input file name>.<format> for\n"
            "                   each (a.dff -> a.dff.csv, so a.dff and a.nif do not collide)\n"
            "  --format F       csv | raw | pc2 | obj | glb | gltf (default: from the output's extension,\n"
            "                   else csv)\n"
            "                   csv: instance,frame,mesh,vertex,x,y,z,nx,ny,nz (mesh = skinned mesh in\n"
            "                        file order, vertex = the file's vertex number in that mesh)\n"
            "                   raw: float32 x y z nx ny nz per vertex, ordered instance, frame, mesh,\n"
            "                        vertex\n"
            "                   pc2: point cache (Blender Mesh Cache, 3ds Max); instances are written as\n"
            "                        consecutive samples: sample = instance * frames + frame\n"
            "                   obj: one frame of one instance\n"
            "                   glb, gltf: glTF 2.0 of one instance: one frame as a plain mesh, several\n"
            "                        as morph targets (one per frame) with a STEP weights animation\n"
            "  P3D and glTF options as in vkskin inspect (--model-cfg, --model-name, --lod, --bones,\n"
            "                   --bone-limit, --uri-root)\n\n"
            "  --max-input-mb N larger inputs are refused (default 2048)\n\n"
            "Outputs are written to a temporary name and renamed when complete; a character device\n"
            "or FIFO is streamed into, a symlink is followed, a read-only file is not replaced. An\n"
            "output that is one of the inputs, two inputs that would share an output, a missing or\n"
            "unwritable folder and an output larger than the free space are refused before any work.\n"
            "exit codes: 0 ok, 1 bad input, 2 usage, 4 no Vulkan device, 5 runtime failure (also\n"
            "an output that cannot be written); with several inputs, the most severe\n");
}

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

/* Runs one chunk of poses on the chosen engine. */
static vks_result run_engine(engine e, gpu_engine *g, const vks_deform_job *job, vks_error *err)
{
    switch (e) {
    case ENGINE_CPU: return vks_cpu_reference_run(job, err);
    case ENGINE_CPU_FAST: return vks_cpu_fast_run(job, g->threads, err);
    case ENGINE_GPU: break; /* deform_chunks.c runs the GPU over every pose at once */
    }
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "deform", "unknown engine");
}

/* One file's chunks (deform_chunks.c): the poser's locals, the engine, then the roots. */
typedef struct deform_ctx {
    engine e;
    gpu_engine *g;
    const vks_cli_poser *ps;
} deform_ctx;

static void chunk_locals(void *user, uint64_t first, uint32_t n, vks_affine *out)
{
    const deform_ctx *d = user;
    uint32_t frames = d->ps->frames;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t p = first + k;
        vks_cli_poser_locals(d->ps, (uint32_t)(p / frames), (uint32_t)(p % frames),
                             out + (size_t)k * d->ps->skin->node_count);
    }
}

static uint32_t chunk_weights(void *user, uint64_t first, uint32_t n, float *out)
{
    const deform_ctx *d = user;
    uint32_t frames = d->ps->frames, targets = d->ps->skin->target_count, off = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t p = first + k;
        off += vks_cli_poser_weights(d->ps, (uint32_t)(p / frames), (uint32_t)(p % frames), out + (size_t)k * targets);
    }
    return off;
}

static vks_result chunk_deform(void *user, uint64_t first, const vks_deform_job *job, vks_error *err)
{
    deform_ctx *d = user;
    (void)first;
    return run_engine(d->e, d->g, job, err);
}

/* Where each instance stands, as the GPU crowd does. */
static void chunk_root(void *user, uint64_t pose, float *positions, float *normals)
{
    const deform_ctx *d = user;
    vks_cli_poser_apply_root(d->ps, (uint32_t)(pose / d->ps->frames), positions, normals);
}

/* Clips on the GPU: the poser's instances streamed into the bake (vks_stream_to_bake), the
 * frames of the instances that fit the memory (--max-chunk-mb N, else 64 MiB) held and written
 * instance by instance; with several contexts the instances are split across them
 * (cli_crowd_split.h), the same bytes. */
static vks_result deform_crowd(vks_cli_progress *path, gpu_engine *g, const vks_cli_poser *ps, vks_bake *bake,
                               uint64_t memory, vks_cli_crowd_split_stats *split, double *engine_time, vks_error *err)
{
    const vks_cli_poser *one[1] = {ps};
    vks_result r;
    double t0 = now_seconds();
    if (g->count > 1) { /* every context uploads the clips itself */
        vks_cli_crowd_job job = {NULL, NULL, NULL, one, 1, ps->frames, 0, 0, path, NULL, NULL, 0, NULL};
        r = vks_cli_crowd_to_bake_split(&job, g->gpus, (const vks_gpu_models *const *)g->gpu_models, g->count, bake,
                                        memory, split, err);
        *engine_time += now_seconds() - t0;
        return r;
    }
    vks_cli_gpu_clips gc;
    r = vks_cli_gpu_clips_upload(g->gpu, g->models, one, 1, &gc, err);
    if (r == VKS_OK) {
        vks_cli_crowd_job job = {g->gpu, g->models, &gc, one, 1, ps->frames, 0, 0, path, NULL, NULL, 0, NULL};
        t0 = now_seconds();
        r = vks_cli_crowd_to_bake(&job, bake, memory, err);
        *engine_time += now_seconds() - t0;
        vks_cli_gpu_clips_free(&gc);
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
    vks_cli_poser ps;
    vks_cli_pose po = *pose;
    /* the CPU engines' jobs and the GPU's batch carry them; the GPU's crowd samples the clips'
       weights channels itself (compute/clip_morph.glsl) */
    po.plays_morph_weights = 1;
    if (!vks_cli_poser_init(&ps, s, &po, model)) {
        vks_cli_poser_free(&ps);
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
    vks_bake_set_times(bake, pose->time, pose->fps); /* glTF bakes show each frame at its time */
    if (e == ENGINE_GPU) {
        char ids[VKS_CLI_MAX_DEVICES][16];
        const char *single = NULL;
        if ((rc = vks_cli_gpu_devices(gopt->device, ids, &single, &g.count)) != VKS_EXIT_OK)
            goto done;
        const vks_skin *one[1] = {s};
        for (int k = 0; k < g.count; k++) {
            vks_cli_gpu_opts o = *gopt;
            o.device = vks_cli_gpu_spec_is_list(gopt->device) ? ids[k] : single; /* NULL: the best */
            if ((rc = vks_cli_gpu_open(&o, &g.gpus[k])) != VKS_EXIT_OK)
                goto done;
            if ((r = vks_gpu_upload(g.gpus[k], one, 1, &g.gpu_models[k], &err)) != VKS_OK)
                goto fail;
        }
        g.gpu = g.gpus[0], g.models = g.gpu_models[0];
    }
    double t0 = now_seconds(), engine_time = 0;
    vks_cli_crowd_split_stats split = {0};
    vks_cli_progress progress;
    vks_cli_progress_begin(&progress, "deform", "poses", total);
    vks_cli_progress_set(&progress, 0, path);
    if (e == ENGINE_GPU && pose->anim) { /* clips sampled on the GPU, not on the host */
        uint64_t memory = gopt->max_chunk_bytes ? gopt->max_chunk_bytes : 64ull << 20;
        if ((r = deform_crowd(&progress, &g, &ps, bake, memory, &split, &engine_time, &err)) != VKS_OK)
            goto fail;
        total = 0; /* written */
    }
    deform_ctx dc = {e, &g, &ps};
    vks_cli_chunks chunks = {s, bake, frames, total, chunk_locals, chunk_deform, ps.roots ? chunk_root : NULL, &dc,
                             NULL, NULL, 0, &progress, 0, 0, NULL, NULL};
    if (e == ENGINE_GPU) /* one run over every pose, each chunk written as it is read back */
        chunks.gpu = g.gpu, chunks.models = g.models, chunks.max_chunk_bytes = gopt->max_chunk_bytes;
    chunks.direct = format == VKS_BAKE_RAW || format == VKS_BAKE_PC2 || !encode_threads;
    if (ps.morph_meshes) /* clips or a pose file drive morph weights */
        chunks.weights = chunk_weights;
    chunks.shares = &split.shares; /* a split batch's; clips fill split themselves */
    if (g.count > 1) /* the poses split across the contexts, written in pose order */
        r = vks_cli_chunks_run_split(&chunks, g.gpus, (const vks_gpu_models *const *)g.gpu_models, g.count, &err);
    else
        r = vks_cli_chunks_run(&chunks, &err);
    engine_time += chunks.engine_s;
    vks_cli_progress_end(&progress);
    if (r != VKS_OK)
        goto fail;
    r = vks_bake_close(bake, 1, &err);
    bake = NULL;
    if (r != VKS_OK)
        goto fail;
    if (rm_path && vks_cli_root_motion_wanted(&ps)) { /* planned and checked before any work */
        if ((r = vks_cli_root_motion_write(&ps, rm_path, &err)) != VKS_OK)
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
    vks_cli_poser_free(&ps);
    vks_skin_free(s);
    return rc;
}

int vks_cmd_deform(int argc, char **argv)
{
    vks_cli_pose pose;
    vks_cli_pose_defaults(&pose);
    vks_read_options ropt = {0};
    const char *out = NULL, *root_motion = NULL;
    vks_cli_gpu_opts gopt = {0};
    int format = -1, nfiles = 0, rc = VKS_EXIT_OK;
    engine e = ENGINE_CPU;
    uint32_t threads = 0, encode_threads = 1;
    vks_cli_outputs plan = {0}, rm_plan = {0};
    char **files = calloc((size_t)argc, sizeof *files);
    if (!files)
        return VKS_EXIT_RUNTIME;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int t;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            goto out;
        } else if (!strcmp(a, "--cpu")) {
            e = ENGINE_CPU;
        } else if (!strcmp(a, "--cpu-fast")) {
            e = ENGINE_CPU_FAST;
        } else if (!strcmp(a, "--gpu")) {
            e = ENGINE_GPU;
        } else if (!strcmp(a, "--quiet")) {
            vks_cli_progress_quiet(1);
        } else if (!strcmp(a, "--threads")) {
            if (i + 1 >= argc || !vks_cli_parse_u32(a, argv[++i], &threads) || threads == 0) {
                fprintf(stderr, "vkskin deform: --threads needs a number of at least 1\n");
                rc = VKS_EXIT_USAGE;
                goto out;
            }
        } else if (!strcmp(a, "--encode-threads")) {
            if (i + 1 >= argc || !vks_cli_parse_u32(a, argv[++i], &encode_threads) || encode_threads > 1) {
                fprintf(stderr, "vkskin deform: --encode-threads takes 0 or 1\n");
                rc = VKS_EXIT_USAGE;
                goto out;
            }
        } else if (!strcmp(a, "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--root-motion") && i + 1 < argc) {
            root_motion = argv[++i];
        } else if (!strcmp(a, "--format") && i + 1 < argc) {
            format = vks_bake_format_parse(argv[++i]);
            if (format < 0) {
                fprintf(stderr, "vkskin deform: unknown format '%s' (csv, raw, pc2, obj, glb, gltf)\n", argv[i]);
                rc = VKS_EXIT_USAGE;
                goto out;
            }
        } else if ((t = vks_cli_run_option(&pose, &gopt, &ropt, argc, argv, &i)) != 0) {
            if (t < 0) {
                rc = VKS_EXIT_USAGE;
                goto out;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vkskin deform: unknown option or missing value '%s'\n", a);
            rc = VKS_EXIT_USAGE;
            goto out;
        } else {
            files[nfiles++] = argv[i];
        }
    }
    if ((!nfiles && !pose.crowd) || !out) {
        fprintf(stderr, "vkskin deform: needs at least one FILE (or --crowd FILE) and --out PATH\n");
        help(stderr);
        rc = VKS_EXIT_USAGE;
        goto out;
    }
    if ((rc = vks_cli_pose_check(&pose)) != VKS_EXIT_OK)
        goto out;
    /* the crowd and clip files: read once, before any model (their errors name their lines) */
    if ((rc = vks_cli_anim_load(&pose, files, nfiles, &ropt)) != VKS_EXIT_OK)
        goto out;
    int nmodels = (int)pose.model_count;
    if (format < 0)
        format = nmodels > 1 ? VKS_BAKE_CSV : (int)vks_bake_format_from_path(out);
    for (int m = 0; format == VKS_BAKE_OBJ && m < nmodels; m++)
        if ((uint64_t)vks_cli_model_instances(&pose, (uint32_t)m) * pose.frames != 1) {
            fprintf(stderr, "vkskin deform: OBJ holds one frame of one instance (asked for %u x %u of %s)\n",
                    vks_cli_model_instances(&pose, (uint32_t)m), pose.frames, pose.models[m]);
            rc = VKS_EXIT_USAGE;
            goto out;
        }
    /* every output decided and checked before the first model is read */
    vks_cli_inputs in = {0};
    vks_cli_inputs_add_run(&in, &pose, &ropt);
    rc = vks_cli_plan_outputs(out, vks_bake_format_name((vks_bake_format)format), pose.models, nmodels, &in, &plan);
    if (rc == VKS_EXIT_OK) /* a crowd's root motion: beside each output, or --root-motion PATH */
        rc = vks_cli_plan_root_motion(&pose, root_motion, &plan, &in, &rm_plan);
    vks_cli_inputs_free(&in);
    if (rc != VKS_EXIT_OK)
        goto out;
    for (int m = 0; m < nmodels; m++) /* a bad input does not stop the others; the worst code wins */
        rc = vks_cli_worse_exit(rc, deform_one(pose.models[m], plan.paths[m], rm_plan.paths[m], format, e, (int)threads,
                                               (int)encode_threads, &pose, (uint32_t)m, &ropt, &gopt));
out:
    vks_cli_anim_free(&pose);
    vks_cli_outputs_free(&plan);
    vks_cli_outputs_free(&rm_plan);
    free(files);
    return rc;
}
