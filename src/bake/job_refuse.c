/* A bake's outputs against its inputs, before any work (docs/safety.md): no vertex file,
 * texture, rest mesh, sidecar, contact sheet or report may be the manifest, a job's model, its
 * model.cfg, clip files or the files a glTF model or clip names beside itself (any job's: one
 * job's output replacing another's input is no better), or a shard report that a merge reads.
 * vks_bake_run applies it itself (job_api.c), so every host's bake (and Python's) obeys it,
 * not the program's alone. */
#include <stdlib.h>
#include <string.h>

#include "bake/job_internal.h"
#include "vkskin/output_plan.h"

static void add_inputs(const vks_bake_manifest *m, const char *merge_dir, uint64_t max_input, vks_output_inputs *in)
{
    vks_output_inputs_add(in, m->path, "the manifest");
    for (uint32_t j = 0; j < m->job_count; j++) {
        const vks_bake_job *job = &m->jobs[j];
        vks_read_options ro = job->ropt;
        ro.file.max_size = max_input; /* what the job's read may read */
        char label[64];
        snprintf(label, sizeof label, "the model of %s", job->where);
        vks_output_inputs_add_model(in, job->model, &ro, label);
        for (uint32_t c = 0; c < job->clip_count; c++) {
            snprintf(label, sizeof label, "the clip file of %s", job->clips[c].where);
            vks_output_inputs_add_model(in, job->clips[c].file, &ro, label); /* a .gltf clip's buffers too */
        }
    }
    /* the merge reads every *.json there (job_merge.c) */
    vks_output_inputs_add_like(in, merge_dir, "", ".json", "a shard report of --merge");
}

/* dir/NAME + suffix (malloc'ed). */
static char *job_file(const char *dir, const char *name, const char *suffix)
{
    size_t len = strlen(dir) + strlen(name) + strlen(suffix) + 2;
    char *path = malloc(len);
    if (path)
        snprintf(path, len, "%s/%s%s", dir, name, suffix);
    return path;
}

/* Outputs named NAME + infix + ... + suffix, known only once the clips are read: a split job's
 * parts (NAME.vat.pos.f32_part0.exr, NAME.atlas_part0.exr, ...), contact sheets
 * (NAME.CLIP.sheet.png). */
static vks_result refuse_like(const vks_output_inputs *in, const char *option, const char *dir,
                              const vks_bake_job *job, const char *infix, const char *suffix, const vks_logger *log,
                              vks_error *err)
{
    size_t len = strlen(job->name) + strlen(infix) + 1;
    char *prefix = malloc(len);
    if (!prefix)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "out of memory");
    snprintf(prefix, len, "%s%s", job->name, infix);
    vks_result r = vks_output_refuse_input_like(in, option, dir, prefix, suffix, log, err);
    free(prefix);
    return r;
}

/* Every file job's outputs (and contact sheets) would write in dir. */
static vks_result refuse_job(const vks_bake_job *job, const char *dir, const vks_output_inputs *in,
                             const vks_logger *log, vks_error *err)
{
    char option[48];
    snprintf(option, sizeof option, "%s:", job->where);
    vks_result r = VKS_OK;
    for (int k = 0; k < VKS_BAKE_OUT_KINDS && r == VKS_OK; k++) {
        if (!(job->outputs & (1u << k)))
            continue;
        const char *suffixes[6];
        int n = vks__bake_out_files(k, suffixes);
        for (int i = 0; i < n && r == VKS_OK; i++) {
            char *path = job_file(dir, job->name, suffixes[i]);
            r = path ? vks_output_refuse_input(in, option, path, log, err)
                     : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "out of memory");
            free(path);
        }
    }
    if (vks__bake_root_motion_of(job) && r == VKS_OK) { /* NAME.root_motion.csv */
        char *path = vks__bake_root_motion_name(job, dir);
        r = path ? vks_output_refuse_input(in, option, path, log, err)
                 : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "out of memory");
        free(path);
    }
    /* a split job's parts: how many, the clips are not read yet to say */
    static const char *const parts[3][2] = {{".vat.", ".exr"}, {".vat.", ".png"}, {".atlas_part", ".exr"}};
    for (int p = 0; p < 3 && job->split && r == VKS_OK; p++)
        r = refuse_like(in, option, dir, job, parts[p][0], parts[p][1], log, err);
    if (job->contact_sheet && r == VKS_OK) /* the clips are not read yet */
        r = refuse_like(in, option, dir, job, ".", ".sheet.png", log, err);
    return r;
}

vks_result vks__bake_refuse(const vks_bake_manifest *m, const vks_bake_options *o, const char *dir, const char *report,
                            const char *merge_dir, int check, vks_error *err)
{
    vks_output_inputs in = {0};
    add_inputs(m, merge_dir, o->max_input_bytes ? o->max_input_bytes : VKS_BAKE_DEFAULT_MAX_INPUT_BYTES, &in);
    vks_result r = report ? vks_output_refuse_input(&in, "--report", report, &o->logger, err) : VKS_OK;
    for (uint32_t j = 0; !check && j < m->job_count && r == VKS_OK; j++)
        r = refuse_job(&m->jobs[j], dir, &in, &o->logger, err);
    if (r == VKS_OK && in.nomem) /* no listing, no promise: say so */
        r = vks_output_refuse_input(&in, NULL, NULL, &o->logger, err);
    vks_output_inputs_free(&in);
    return r;
}
