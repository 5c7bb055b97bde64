/* The public face of the bake job engine (bake_job.h): options, the manifest read and checked,
 * the run's setup around job_run.c (output folder, shard, results), and what each job did. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bake/job_internal.h"

void vks_bake_options_init(vks_bake_options *o)
{
    memset(o, 0, sizeof *o);
    o->engine = VKS_BAKE_GPU;
    o->shard_count = 1;
    o->jobs_in_flight = 1;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = cores < 1 ? 1 : cores > 64 ? 64 : (uint32_t)cores;
    o->max_memory_bytes = VKS_BAKE_DEFAULT_MAX_MEMORY_MB << 20;
    o->max_input_bytes = VKS_BAKE_DEFAULT_MAX_INPUT_BYTES;
    o->device_count = 1;
}

static const vks_logger *opt_log(const vks_bake_options *o)
{
    return o ? &o->logger : NULL;
}

/* A job that draws contact sheets needs the GPU renderer: refused with a CPU engine. */
static vks_result sheets_need_gpu(const vks_bake_manifest *m, const vks_bake_options *o, vks_error *err)
{
    for (uint32_t j = 0; j < m->job_count && o->engine != VKS_BAKE_GPU; j++)
        if (m->jobs[j].contact_sheet) {
            vks__log(opt_log(o), VKS_LOG_ERROR,
                     "%s: %s: \"contact_sheet\" needs the GPU renderer: not with --cpu or --cpu-fast", m->path,
                     m->jobs[j].where);
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, m->path,
                                 "%s: \"contact_sheet\" needs the GPU renderer", m->jobs[j].where);
        }
    return VKS_OK;
}

vks_result vks_bake_manifest_parse(vks_bake_manifest **out, const char *path, const void *bytes, size_t size,
                                   const vks_bake_options *o, vks_error *err)
{
    *out = NULL;
    vks_bake_manifest *m = calloc(1, sizeof *m);
    if (!m)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "no memory for the manifest");
    vks__bake_host host = {o ? o->logger : (vks_logger){0}, o ? o->max_input_bytes : 0};
    if (vks__bake_manifest_parse(path, bytes, size, o && o->contact_sheet, &host, m) != VKS__BAKE_EXIT_OK) {
        free(m);
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "not a bake manifest vkskin takes (said)");
    }
    for (uint32_t j = 0; o && o->split && j < m->job_count; j++)
        m->jobs[j].split = 1;
    vks_result r = o ? sheets_need_gpu(m, o, err) : VKS_OK;
    if (r != VKS_OK) {
        vks_bake_manifest_free(m);
        return r;
    }
    *out = m;
    return VKS_OK;
}

vks_result vks_bake_manifest_read(vks_bake_manifest **out, const char *path, const vks_bake_options *o,
                                  vks_error *err)
{
    *out = NULL;
    vks__bake_host host = {o ? o->logger : (vks_logger){0}, o ? o->max_input_bytes : 0};
    size_t size = 0;
    uint8_t *bytes = vks__bake_read_file(&host, path, &size);
    if (!bytes)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, path, "cannot read the manifest (said)");
    vks_result r = vks_bake_manifest_parse(out, path, bytes, size, o, err);
    free(bytes);
    return r;
}

void vks_bake_manifest_free(vks_bake_manifest *m)
{
    if (!m)
        return;
    vks__bake_manifest_free(m);
    free(m);
}

uint32_t vks_bake_manifest_job_count(const vks_bake_manifest *m)
{
    return m ? m->job_count : 0;
}

char *vks_bake_output_dir(const vks_bake_manifest *m, const char *out_dir)
{
    if (out_dir)
        return strdup(out_dir);
    if (m->out)
        return strdup(m->out);
    size_t n = strlen(m->dir) + 8;
    char *d = malloc(n);
    if (d)
        snprintf(d, n, "%s%sbake", m->dir, m->dir[0] ? "/" : "");
    return d;
}

int vks__bake_make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0)
            continue;
        char c = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return 0;
        buf[i] = c;
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The last run's results dropped, fresh ones made: which jobs are this shard's, and an empty
 * result for each. 0 without memory. */
static int fresh_results(vks_bake_manifest *m)
{
    for (uint32_t j = 0; m->res && j < m->job_count; j++)
        cJSON_Delete(m->res[j].files);
    free(m->res);
    free(m->mine);
    m->mine = calloc(m->job_count, 1);
    m->res = calloc(m->job_count, sizeof *m->res);
    return m->mine && m->res;
}

vks_result vks_bake_run(vks_bake_manifest *m, const vks_bake_options *o, vks_bake_summary *summary, vks_error *err)
{
    if (!m || !o)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, NULL, "vks_bake_run needs a manifest and options");
    vks_bake_summary local;
    vks_bake_summary *sum = summary ? summary : &local;
    memset(sum, 0, sizeof *sum);
    sum->stages = (vks_bake_stages){-1, -1, -1};
    vks_result r = sheets_need_gpu(m, o, err);
    if (r != VKS_OK)
        return r;
    *m->host = (vks__bake_host){o->logger, o->max_input_bytes};
    char *dir = vks_bake_output_dir(m, o->out_dir);
    int mem = fresh_results(m) && dir;
    /* no output may replace an input (job_refuse.c): a host's bake obeys it as the program's does */
    int checked = m->inputs_checked && dir && !strcmp(m->inputs_checked, dir); /* by vks_bake_refuse_inputs */
    if (mem && !checked && (r = vks__bake_refuse(m, o, dir, NULL, NULL, 0, err)) != VKS_OK) {
        free(dir);
        return r;
    }
    if (!mem || !vks__bake_make_dirs(dir)) {
        vks__log(opt_log(o), VKS_LOG_ERROR, "%s: %s", dir ? dir : "bake",
                 mem ? "cannot make the output folder" : "out of memory");
        r = vks_error_set(err, mem ? VKS_ERR_IO : VKS_ERR_NOMEM, VKS_NO_OFFSET, dir, "%s",
                          mem ? "cannot make the output folder" : "out of memory");
        free(dir);
        return r;
    }
    if (o->shard_count > 1)
        vks__bake_shard(m, o->shard_index, o->shard_count, m->mine);
    else
        memset(m->mine, 1, m->job_count);
    r = vks__bake_run_jobs(m, o, dir, sum, err);
    free(dir);
    return r;
}

vks_result vks_bake_refuse_inputs(vks_bake_manifest *m, const vks_bake_options *o, const char *report,
                                  const char *merge_dir, int check, vks_error *err)
{
    if (!m || !o)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, NULL,
                             "vks_bake_refuse_inputs needs a manifest and options");
    char *dir = vks_bake_output_dir(m, o->out_dir);
    if (!dir)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "out of memory");
    vks_result r = vks__bake_refuse(m, o, dir, report, merge_dir, check, err);
    free(m->inputs_checked);
    m->inputs_checked = r == VKS_OK && !check ? dir : NULL; /* vks_bake_run need not list them again */
    if (!m->inputs_checked)
        free(dir);
    return r;
}

vks_result vks_bake_job_get(const vks_bake_manifest *m, uint32_t j, vks_bake_job_info *out)
{
    memset(out, 0, sizeof *out);
    if (!m || j >= m->job_count)
        return VKS_ERR_INVALID;
    const vks_bake_job *job = &m->jobs[j];
    out->where = job->where, out->name = job->name, out->model = job->model_given;
    out->outputs = job->outputs;
    out->note = "";
    if (!m->res)
        return VKS_OK;
    const vks_bake_result *r = &m->res[j];
    out->mine = m->mine[j];
    out->status = (vks_bake_job_status)r->done;
    out->failure = r->done >= 0 ? VKS_OK : r->exit_code == VKS__BAKE_EXIT_INPUT ? VKS_ERR_FORMAT : VKS_ERR_IO;
    out->outputs_written = r->outputs_written, out->outputs_skipped = r->outputs_skipped;
    out->bytes = r->bytes, out->frames = r->frames, out->vertices = r->vertices;
    out->seconds = r->seconds, out->read_seconds = r->read_seconds, out->deform_seconds = r->deform_seconds;
    out->file_count = r->files ? (uint32_t)cJSON_GetArraySize(r->files) : 0;
    out->note = r->error;
    for (int k = 0; k < 2; k++)
        out->lost_vertices[k] = r->lost_vertices[k], out->lost_largest[k] = r->lost_largest[k];
    return VKS_OK;
}

vks_result vks_bake_job_file(const vks_bake_manifest *m, uint32_t j, uint32_t i, vks_bake_file *out)
{
    memset(out, 0, sizeof *out);
    if (!m || !m->res || j >= m->job_count || !m->res[j].files)
        return VKS_ERR_INVALID;
    const cJSON *f = cJSON_GetArrayItem(m->res[j].files, (int)i);
    if (!f)
        return VKS_ERR_INVALID;
    out->path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "path"));
    out->kind = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "kind"));
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(f, "bytes");
    out->bytes = cJSON_IsNumber(b) ? (uint64_t)b->valuedouble : 0;
    return VKS_OK;
}
