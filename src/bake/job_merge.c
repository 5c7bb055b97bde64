/* vkskin bake --check [--merge DIR]: the merge step after a sharded bake (tools/slurm/): every
 * output of every job must be on disk and up to date (its sidecar records the entry's hash and
 * this vkskin's version, and its files have the sizes recorded), and the shards' reports in
 * DIR are merged into one report, each job's entry taken from the shard that baked it. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "bake/job_internal.h"

/* Every shard report (a JSON object with "tool": "vkskin bake" and "jobs") in dir. */
static cJSON *read_reports(const vks__bake_host *host, const char *dir)
{
    cJSON *all = cJSON_CreateArray();
    DIR *d = opendir(dir);
    if (!d) {
        vks__log(vks__bake_log(host), VKS_LOG_ERROR, "--merge %s: cannot open the folder", dir);
        return all;
    }
    struct dirent *e;
    char **names = NULL;
    size_t n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char **more = realloc(names, (n + 1) * sizeof *names);
        if (!more)
            break;
        names = more;
        names[n] = malloc(strlen(dir) + len + 2);
        if (names[n])
            sprintf(names[n++], "%s/%s", dir, e->d_name);
    }
    closedir(d);
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        uint8_t *bytes = vks__bake_read_file(host, names[i], &size);
        cJSON *r = bytes ? cJSON_ParseWithLength((const char *)bytes, size) : NULL;
        free(bytes);
        const cJSON *tool = cJSON_GetObjectItemCaseSensitive(r, "tool");
        if (cJSON_IsString(tool) && !strcmp(tool->valuestring, "vkskin bake") &&
            cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(r, "jobs")))
            cJSON_AddItemToArray(all, r);
        else
            cJSON_Delete(r);
        free(names[i]);
    }
    free(names);
    return all;
}

/* The entry a shard report has for job j (same name and hash, baked or up to date), or NULL. */
static const cJSON *shard_entry(const cJSON *reports, const vks_bake_job *j)
{
    const cJSON *r, *e;
    cJSON_ArrayForEach(r, reports)
    {
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(r, "jobs"))
        {
            const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "entry_hash"));
            const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "name"));
            const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "state"));
            if (h && n && s && !strcmp(h, j->hash) && !strcmp(n, j->name) && strcmp(s, "FAILED"))
                return e;
        }
    }
    return NULL;
}

cJSON *vks__bake_check_outputs(const vks_bake_manifest *m, const char *out, const char *merge_dir, uint32_t *missing_out)
{
    cJSON *reports = merge_dir ? read_reports(m->host, merge_dir) : cJSON_CreateArray();
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "vkskin bake");
    cJSON_AddStringToObject(root, "tool_version", vks_version_string());
    cJSON_AddStringToObject(root, "manifest", m->path);
    cJSON_AddStringToObject(root, "merged_from", merge_dir ? merge_dir : "");
    cJSON_AddNumberToObject(root, "shard_reports", cJSON_GetArraySize(reports));
    cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
    uint32_t missing = 0;
    double bytes = 0, frames = 0, seconds = 0;
    for (uint32_t j = 0; j < m->job_count; j++) {
        const vks_bake_job *job = &m->jobs[j];
        cJSON *files = cJSON_CreateArray();
        uint32_t fresh = vks__bake_up_to_date(job, out, files);
        for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++)
            if ((job->outputs >> k) & 1u && !((fresh >> k) & 1u)) {
                vks__log(vks__bake_log(m->host), VKS_LOG_ERROR, "%s (%s): %s: missing or out of date in %s", job->where, job->name,
                        vks_bake_out_name(k), out);
                missing++;
            }
        const cJSON *se = shard_entry(reports, job);
        cJSON *e = se ? cJSON_Duplicate(se, 1) : cJSON_CreateObject();
        if (!se) {
            cJSON_AddStringToObject(e, "entry", job->where);
            cJSON_AddStringToObject(e, "name", job->name);
            cJSON_AddStringToObject(e, "entry_hash", job->hash);
            if (merge_dir)
                vks__log(vks__bake_log(m->host), VKS_LOG_ERROR, "%s (%s): no shard report in %s names it", job->where, job->name, merge_dir);
        } else {
            bytes += cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(se, "bytes_written"));
            seconds += cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(se, "seconds"));
            const char *st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(se, "state"));
            if (st && !strcmp(st, "baked"))
                frames += cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(se, "frames"));
        }
        cJSON_AddBoolToObject(e, "complete", fresh == job->outputs);
        cJSON_ReplaceItemInObject(e, "outputs", files);
        if (!cJSON_GetObjectItemCaseSensitive(e, "outputs"))
            cJSON_AddItemToObject(e, "outputs", files);
        cJSON_AddItemToArray(jobs, e);
    }
    cJSON_AddNumberToObject(root, "missing_outputs", missing);
    cJSON_AddNumberToObject(root, "frames_baked", frames);
    cJSON_AddNumberToObject(root, "bytes_written", bytes);
    cJSON_AddNumberToObject(root, "task_seconds", seconds);
    cJSON_Delete(reports);
    *missing_out = missing;
    return root;
}

vks_result vks_bake_check_outputs(const vks_bake_manifest *m, const vks_bake_options *o, const char *merge_dir,
                                  const char *report_path, uint32_t *missing, vks_error *err)
{
    *missing = UINT32_MAX;
    vks_result refused = report_path ? vks__bake_refuse(m, o, NULL, report_path, merge_dir, 1, err) : VKS_OK;
    if (refused != VKS_OK)
        return refused;
    char *dir = vks_bake_output_dir(m, o->out_dir);
    if (!dir || !vks__bake_make_dirs(dir)) {
        vks__log(&o->logger, VKS_LOG_ERROR, "%s: %s", dir ? dir : "bake",
                 dir ? "cannot make the output folder" : "out of memory");
        vks_result r = vks_error_set(err, dir ? VKS_ERR_IO : VKS_ERR_NOMEM, VKS_NO_OFFSET, dir, "%s",
                                     dir ? "cannot make the output folder" : "out of memory");
        free(dir);
        return r;
    }
    *m->host = (vks__bake_host){o->logger, o->max_input_bytes};
    cJSON *root = vks__bake_check_outputs(m, dir, merge_dir, missing);
    free(dir);
    vks_result r = report_path ? vks__bake_write_json(report_path, root, err) : VKS_OK;
    cJSON_Delete(root);
    return r;
}
