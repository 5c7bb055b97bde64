/* Following a bake: progress lines (cli_progress.c: jobs done, the rate and the time left, the
 * frames and the job at hand; a bar on a terminal, plain lines in a log, none for a bake of a
 * few seconds); the summary table; the JSON report. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bake_cli.h"
#include "cli_shares.h"
#include "inspect/findings.h"

void vks_cli_bake_progress_update(void *user, const vks_bake_progress_info *info)
{
    vks_cli_bake_progress *p = user;
    const char *current = info->current;
    int final = info->final;
    if (!p->line_begun) { /* frames are known only as jobs load: the time left goes by jobs */
        vks_cli_progress_begin(&p->line, "bake", "jobs", info->jobs);
        p->line_begun = 1;
    }
    double el = vks__bake_now() - p->start;
    char detail[160];
    snprintf(detail, sizeof detail, "%llu frames, %.0f frames/s%s%.100s", (unsigned long long)info->frames_done,
             el > 0 ? (double)info->frames_done / el : 0, current && *current && !final ? "; " : "",
             final ? "" : current);
    vks_cli_progress_set(&p->line, info->jobs_done, detail);
    if (final) {
        vks_cli_progress_end(&p->line);
        p->line_begun = 0;
    }
}

static const char *state(const vks_bake_result *r)
{
    return r->done == 1 ? "baked" : r->done == 2 ? "up to date" : r->done < 0 ? "FAILED" : "-";
}

void vks_cli_bake_summary(FILE *f, const vks_bake_manifest *m, double seconds)
{
    const uint8_t *mine = m->mine;
    const vks_bake_result *res = m->res;
    fprintf(f, "%-8s %-28s %-10s %7s %8s %7s %7s %10s %8s\n", "entry", "name", "state", "frames", "vertices",
            "written", "skipped", "bytes", "seconds");
    uint64_t bytes = 0, frames = 0;
    uint32_t failed = 0, baked = 0, skipped = 0;
    for (uint32_t j = 0; j < m->job_count; j++) {
        if (!mine[j])
            continue;
        const vks_bake_result *r = &res[j];
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

int vks_cli_bake_report(const char *path, const vks_bake_manifest *m, const char *engine, const char *shard,
                        double seconds, const vks_cli_shares *shares, const vks_bake_stages *stages)
{
    const uint8_t *mine = m->mine;
    const vks_bake_result *res = m->res;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "tool", "vkskin bake");
    cJSON_AddStringToObject(o, "tool_version", vks_version_string());
    cJSON_AddStringToObject(o, "manifest", m->path);
    cJSON_AddStringToObject(o, "engine", engine);
    cJSON_AddStringToObject(o, "shard", shard);
    cJSON_AddNumberToObject(o, "seconds", seconds);
    cJSON *jobs = cJSON_AddArrayToObject(o, "jobs");
    uint64_t bytes = 0, frames = 0;
    int failed = 0;
    for (uint32_t j = 0; j < m->job_count; j++) {
        if (!mine[j])
            continue;
        const vks_bake_result *r = &res[j];
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
        vks__influences_json(cJSON_AddObjectToObject(e, "influences_lost"), VKS_MAX_INFLUENCES, r->lost_vertices[0],
                                r->lost_largest[0]);
        if (r->lost_vertices[1])
            vks__influences_json(cJSON_AddObjectToObject(e, "atlas_influences_lost"), 4, r->lost_vertices[1],
                                    r->lost_largest[1]);
        if (r->error[0])
            cJSON_AddStringToObject(e, "error", r->error);
        cJSON_AddItemToArray(jobs, e);
        bytes += r->bytes;
        frames += r->done == 1 ? r->frames : 0;
        failed += r->done < 0;
    }
    cJSON_AddNumberToObject(o, "frames_baked", (double)frames);
    cJSON_AddNumberToObject(o, "bytes_written", (double)bytes);
    cJSON_AddNumberToObject(o, "frames_per_second", seconds > 0 ? frames / seconds : 0);
    cJSON_AddNumberToObject(o, "mb_per_second", seconds > 0 ? bytes / 1e6 / seconds : 0);
    cJSON_AddNumberToObject(o, "failed", failed);
    cJSON *st = stages ? cJSON_AddObjectToObject(o, "stages") : NULL;
    if (st) { /* seconds from the run's start; a step that did not happen is left out */
        const double at[] = {stages->devices_open, stages->first_deform, stages->last_deform_end, seconds};
        static const char *const name[] = {"devices_open", "first_deform", "last_deform_end", "written"};
        for (int i = 0; i < 4; i++)
            if (at[i] >= 0)
                cJSON_AddNumberToObject(st, name[i], at[i]);
    }
    cJSON *js = vks_cli_shares_json(shares);
    if (js)
        cJSON_AddItemToObject(o, "context_shares", js);
    vks_error err = {0};
    vks_result r = vks__bake_write_json(path, o, &err);
    cJSON_Delete(o);
    if (r != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: --report: %s\n", vks_error_format(&err, path, msg, sizeof msg));
        return VKS_EXIT_RUNTIME;
    }
    return VKS_EXIT_OK;
}
