/* bake's outputs against its inputs, before any work (docs/safety.md): no vertex file,
 * texture, rest mesh, sidecar, contact sheet or report may be the manifest, a job's model, its
 * model.cfg, clip files or the files a glTF model or clip names beside itself (any job's: one job's output replacing another's input is no
 * better), or a shard report that --check --merge reads. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "bake_cli.h"

static void add_inputs(const vks_bake_manifest *m, const char *merge_dir, vks_cli_inputs *in)
{
    vks_cli_inputs_add(in, m->path, "the manifest");
    for (uint32_t j = 0; j < m->job_count; j++) {
        const vks_bake_job *job = &m->jobs[j];
        char label[64];
        snprintf(label, sizeof label, "the model of %s", job->where);
        vks_cli_inputs_add_model(in, job->model, &job->ropt, label);
        for (uint32_t c = 0; c < job->clip_count; c++) {
            snprintf(label, sizeof label, "the clip file of %s", job->clips[c].where);
            vks_cli_inputs_add_model(in, job->clips[c].file, &job->ropt, label); /* a .gltf clip's buffers too */
        }
    }
    DIR *d = merge_dir ? opendir(merge_dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) { /* the merge reads every *.json there (src/bake/job_merge.c) */
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        size_t n = strlen(merge_dir) + len + 2;
        char *path = malloc(n);
        if (!path) {
            in->nomem = 1;
            break;
        }
        snprintf(path, n, "%s/%s", merge_dir, e->d_name);
        vks_cli_inputs_add(in, path, "a shard report of --merge");
        free(path);
    }
    if (d)
        closedir(d);
}

/* Every file job's outputs (and contact sheets) would write in dir. */
static int refuse_job(const vks_bake_job *job, const char *dir, const vks_cli_inputs *in)
{
    char option[48];
    snprintf(option, sizeof option, "%s:", job->where);
    int rc = VKS_EXIT_OK;
    for (int k = 0; k < VKS_BAKE_OUT_KINDS && rc == VKS_EXIT_OK; k++) {
        if (!(job->outputs & (1u << k)))
            continue;
        const char *suffixes[6];
        int n = vks__bake_out_files(k, suffixes);
        for (int i = 0; i < n && rc == VKS_EXIT_OK; i++) {
            size_t len = strlen(dir) + strlen(job->name) + strlen(suffixes[i]) + 2;
            char *path = malloc(len);
            if (!path)
                return VKS_EXIT_RUNTIME;
            snprintf(path, len, "%s/%s%s", dir, job->name, suffixes[i]);
            rc = vks_cli_refuse_input(in, option, path);
            free(path);
        }
    }
    if (vks__bake_root_motion_of(job) && rc == VKS_EXIT_OK) { /* NAME.root_motion.csv */
        char *path = vks__bake_root_motion_name(job, dir);
        if (!path)
            return VKS_EXIT_RUNTIME;
        rc = vks_cli_refuse_input(in, option, path);
        free(path);
    }
    /* a split job's parts (NAME.vat.pos.f32_part0.exr, NAME.atlas_part0.exr, ...): how many, the
       clips are not read yet to say */
    static const char *const parts[3][2] = {{".vat.", ".exr"}, {".vat.", ".png"}, {".atlas_part", ".exr"}};
    for (int p = 0; p < 3 && job->split && rc == VKS_EXIT_OK; p++) {
        size_t len = strlen(job->name) + strlen(parts[p][0]) + 1;
        char *prefix = malloc(len);
        if (!prefix)
            return VKS_EXIT_RUNTIME;
        snprintf(prefix, len, "%s%s", job->name, parts[p][0]);
        rc = vks_cli_refuse_input_like(in, option, dir, prefix, parts[p][1]);
        free(prefix);
    }
    if (job->contact_sheet && rc == VKS_EXIT_OK) { /* NAME.CLIP.sheet.png: the clips are not read yet */
        size_t len = strlen(job->name) + 2;
        char *prefix = malloc(len);
        if (!prefix)
            return VKS_EXIT_RUNTIME;
        snprintf(prefix, len, "%s.", job->name);
        rc = vks_cli_refuse_input_like(in, option, dir, prefix, ".sheet.png");
        free(prefix);
    }
    return rc;
}

int vks_cli_bake_refuse_inputs(const vks_bake_manifest *m, const char *dir, const char *report, const char *merge_dir,
                           int check)
{
    vks_cli_inputs in = {0};
    add_inputs(m, merge_dir, &in);
    int rc = report ? vks_cli_refuse_input(&in, "--report", report) : VKS_EXIT_OK;
    for (uint32_t j = 0; !check && j < m->job_count && rc == VKS_EXIT_OK; j++)
        rc = refuse_job(&m->jobs[j], dir, &in);
    if (rc == VKS_EXIT_OK && in.nomem) /* no listing, no promise: say so */
        rc = vks_cli_refuse_input(&in, NULL, NULL);
    vks_cli_inputs_free(&in);
    return rc;
}
