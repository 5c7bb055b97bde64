/* What a bake run did, for people and for programs (bake_job.h): the summary table, one line a
 * job of this shard and a total, and the JSON report (`vkskin bake --report`; the shard
 * reports that `--check --merge` joins, job_merge.c). Both read the run's results kept in the
 * manifest (job_internal.h). */
#include <cjson/cJSON.h>
#include <stdio.h>

#include "bake/job_internal.h"
#include "vkskin/version.h"

static const char *state(const vks_bake_result *r)
{
    return r->done == 1 ? "baked" : r->done == 2 ? "up to date" : r->done < 0 ? "FAILED" : "-";
}

void vks_bake_summary_print(FILE *f, const vks_bake_manifest *m, const vks_bake_summary *s)
{
    const double seconds = s ? s->seconds : 0;
    fprintf(f, "%-8s %-28s %-10s %7s %8s %7s %7s %10s %8s\n", "entry", "name", "state", "frames", "vertices",
            "written", "skipped", "bytes", "seconds");
    uint64_t bytes = 0, frames = 0;
    uint32_t failed = 0, baked = 0, skipped = 0;
    for (uint32_t j = 0; j < m->job_count; j++) {
        if (!m->mine[j])
            continue;
        const vks_bake_result *r = &m->res[j];
        fprintf(f, "%-8s %-28.28s %-10s %7u %8u %7u %7u %10llu %8.2f\n", m->jobs[j].where, m->jobs[j].name, state(r),
                r->frames, r->vertices, r->outputs_written, r->outputs_skipped, (unsigned long long)r->bytes,
                r->seconds);
        bytes += r->bytes;
        if (r->done == 1)
            frames += r->frames, baked++;
        skipped += r->done == 2;
        failed += r->done < 0;
    }
    fprintf(f, "bake: %u baked, %u up to date, %u failed; %llu frames, %.1f MB written in %.2f s (%.0f frames/s, "
               "%.1f MB/s)\n",
            baked, skipped, failed, (unsigned long long)frames, bytes / 1e6, seconds,
            seconds > 0 ? frames / seconds : 0, seconds > 0 ? bytes / 1e6 / seconds : 0);
}

/* One job's entry: its outputs, times, bytes and the influences its meshes lost. */
static cJSON *job_json(const vks_bake_manifest *m, uint32_t j)
{
    const vks_bake_result *r = &m->res[j];
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "entry", m->jobs[j].where);
    cJSON_AddStringToObject(e, "name", m->jobs[j].name);
    cJSON_AddStringToObject(e, "entry_hash", m->jobs[j].hash);
    cJSON_AddStringToObject(e, "state", state(r));
    cJSON_AddNumberToObject(e, "frames", r->frames);
    cJSON_AddNumberToObject(e, "vertices", r->vertices);
    cJSON_AddNumberToObject(e, "estimated_work", (double)m->jobs[j].work);
    cJSON_AddNumberToObject(e, "seconds", r->seconds);
    cJSON_AddNumberToObject(e, "read_seconds", r->read_seconds);
    cJSON_AddNumberToObject(e, "deform_seconds", r->deform_seconds);
    cJSON_AddNumberToObject(e, "bytes_written", (double)r->bytes);
    cJSON_AddItemToObject(e, "outputs", cJSON_Duplicate(r->files, 1));
    vks__bake_influences_json(cJSON_AddObjectToObject(e, "influences_lost"), VKS_MAX_INFLUENCES, r->lost_vertices[0],
                              r->lost_largest[0]);
    if (r->lost_vertices[1])
        vks__bake_influences_json(cJSON_AddObjectToObject(e, "atlas_influences_lost"), 4, r->lost_vertices[1],
                                  r->lost_largest[1]);
    if (r->error[0])
        cJSON_AddStringToObject(e, "error", r->error);
    return e;
}

/* What each device of a split took (as `vkskin bake` says it on stderr); NULL without a split,
 * the key then left out so that one device's report stays as it was. */
static cJSON *shares_json(const vks_bake_summary *s)
{
    if (s->device_count < 2)
        return NULL;
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; a && k < s->device_count && k < VKS_BAKE_MAX_DEVICES; k++) {
        const vks_bake_device_share *d = &s->devices[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "context", k + 1);
        cJSON_AddStringToObject(o, "device", d->device);
        cJSON_AddNumberToObject(o, "jobs", d->jobs);
        cJSON_AddNumberToObject(o, "groups", d->groups);
        cJSON_AddNumberToObject(o, "seconds", d->busy_seconds);
        cJSON_AddNumberToObject(o, "per_second", d->busy_seconds > 0 ? d->jobs / d->busy_seconds : 0);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* The run's totals and the times of its stages (seconds from its start; one that did not
 * happen is left out). */
static void totals_json(cJSON *o, const vks_bake_manifest *m, const vks_bake_summary *s)
{
    uint64_t bytes = 0, frames = 0;
    int failed = 0;
    for (uint32_t j = 0; j < m->job_count; j++) {
        if (!m->mine[j])
            continue;
        bytes += m->res[j].bytes;
        frames += m->res[j].done == 1 ? m->res[j].frames : 0;
        failed += m->res[j].done < 0;
    }
    const double seconds = s->seconds;
    cJSON_AddNumberToObject(o, "frames_baked", (double)frames);
    cJSON_AddNumberToObject(o, "bytes_written", (double)bytes);
    cJSON_AddNumberToObject(o, "frames_per_second", seconds > 0 ? frames / seconds : 0);
    cJSON_AddNumberToObject(o, "mb_per_second", seconds > 0 ? bytes / 1e6 / seconds : 0);
    cJSON_AddNumberToObject(o, "failed", failed);
    cJSON *st = cJSON_AddObjectToObject(o, "stages");
    const double at[] = {s->stages.devices_open, s->stages.first_deform, s->stages.last_deform_end, seconds};
    static const char *const name[] = {"devices_open", "first_deform", "last_deform_end", "written"};
    for (int i = 0; i < 4; i++)
        if (at[i] >= 0)
            cJSON_AddNumberToObject(st, name[i], at[i]);
}

vks_result vks_bake_report_write(const char *path, const vks_bake_manifest *m, const vks_bake_options *o,
                                 const vks_bake_summary *s, vks_error *err)
{
    if (!path || !m || !o || !s)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, path, "a bake report needs a path, the manifest, "
                                                                        "the run's options and its summary");
    char shard[32];
    snprintf(shard, sizeof shard, "%u/%u", o->shard_index, o->shard_count ? o->shard_count : 1);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "vkskin bake");
    cJSON_AddStringToObject(root, "tool_version", vks_version_string());
    cJSON_AddStringToObject(root, "manifest", m->path);
    cJSON_AddStringToObject(root, "engine", vks_bake_engine_name(o->engine));
    cJSON_AddStringToObject(root, "shard", shard);
    cJSON_AddNumberToObject(root, "seconds", s->seconds);
    cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
    for (uint32_t j = 0; j < m->job_count; j++)
        if (m->mine[j])
            cJSON_AddItemToArray(jobs, job_json(m, j));
    totals_json(root, m, s);
    cJSON *shares = shares_json(s);
    if (shares)
        cJSON_AddItemToObject(root, "context_shares", shares);
    vks_result r = vks__bake_write_json(path, root, err);
    cJSON_Delete(root);
    return r;
}
