/* The JSON report of a validation (validate.h): the document `vkskin validate --json` prints,
 * key for key and in the same order, so that a host and the CLI give the same bytes for the
 * same run. Numbers are written in the C locale whatever the host's (core/c_numeric.h). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/validate.h"
#include "check/bind_json.h"
#include "core/c_numeric.h"

/* A stream the model does not have (normals; why NULL: it has them) is reported absent in
 * place of the metrics of zeros against zeros; a mismatch on zeros stays a failure. */
static int absent(const char *why, const vks_diff_report *r)
{
    return why && r->pass;
}

static cJSON *absent_json(const char *why)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "absent", 1);
    cJSON_AddStringToObject(o, "why", why);
    return o;
}

static cJSON *stream_json(const vks_diff_report *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "max_abs", r->max_abs);
    cJSON_AddNumberToObject(o, "max_rel", r->max_rel);
    cJSON_AddNumberToObject(o, "nmse", r->nmse);
    cJSON_AddNumberToObject(o, "over", (double)r->over);
    cJSON_AddNumberToObject(o, "compared", (double)r->compared);
    cJSON_AddNumberToObject(o, "worst_vertex", r->worst_vertex);
    cJSON_AddNumberToObject(o, "worst_instance", r->worst_instance);
    cJSON_AddNumberToObject(o, "scale", r->radius);
    cJSON_AddNumberToObject(o, "scale_max", r->max_scale); /* the largest instance's, >= scale */
    cJSON_AddNumberToObject(o, "tolerance_abs", r->tolerance.abs_radius);
    cJSON_AddNumberToObject(o, "tolerance_rel", r->tolerance.rel);
    cJSON_AddNumberToObject(o, "tolerance_nmse", r->tolerance.nmse);
    cJSON_AddBoolToObject(o, "pass", r->pass);
    return o;
}

/* Up to 64 vertex numbers of a list, as a JSON array. */
static cJSON *vertex_array(const uint32_t *v, uint32_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < n && i < 64; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

/* The vertices over tolerance of a stream, largest first (at most 64). */
static cJSON *over_json(const vks_error_map *m)
{
    uint32_t v[64];
    uint32_t n = m ? vks_error_map_over(m, v, 64) : 0;
    return vertex_array(v, n);
}

static cJSON *golden_json(const vks_report_file *o)
{
    cJSON *g = cJSON_CreateObject();
    if (o->golden_error) {
        cJSON_AddStringToObject(g, "error", o->golden_error);
        cJSON_AddBoolToObject(g, "pass", 0);
        return g;
    }
    cJSON_AddItemToObject(g, "positions", stream_json(&o->golden_positions));
    cJSON_AddItemToObject(g, "normals", absent(o->normals_absent, &o->golden_normals) ? absent_json(o->normals_absent)
                                                                                      : stream_json(&o->golden_normals));
    uint32_t v[64];
    uint32_t n = o->golden_errors ? vks_error_map_over(o->golden_errors, v, 64) : 0;
    cJSON_AddItemToObject(g, "moved_vertices", vertex_array(v, n));
    cJSON_AddNumberToObject(g, "moved_count", n);
    cJSON_AddBoolToObject(g, "pass", o->golden_positions.pass && o->golden_normals.pass);
    return g;
}

static void influences_json(cJSON *o, uint32_t kept, uint32_t vertices, double largest)
{
    cJSON_AddNumberToObject(o, "kept", kept);
    cJSON_AddNumberToObject(o, "vertices", vertices);
    cJSON_AddNumberToObject(o, "largest_weight_dropped", largest);
}

/* What the heat map shows (whose vertices, the reddest of them), or why there is none. */
static void heatmap_json(cJSON *j, const vks_report_file *rf)
{
    if (rf->heatmap) {
        cJSON *h = cJSON_AddObjectToObject(j, "heatmap");
        cJSON_AddStringToObject(h, "file", rf->heatmap);
        cJSON_AddNumberToObject(h, "instance", rf->position_errors->worst_instance);
        cJSON_AddNumberToObject(h, "worst_error", rf->position_errors->worst);
        uint32_t v[64];
        uint32_t n = vks_error_map_worst_over(rf->position_errors, v, 64);
        cJSON_AddItemToObject(h, "vertices_over", vertex_array(v, n));
        cJSON_AddNumberToObject(h, "vertices_over_count", n);
    } else if (rf->heatmap_missing) { /* a report folder asked for one */
        cJSON *h = cJSON_AddObjectToObject(j, "heatmap");
        cJSON_AddNullToObject(h, "file");
        cJSON_AddStringToObject(h, "missing", rf->heatmap_missing);
    }
}

/* A file's engines and golden passed (the bind check is apart). */
static int streams_pass(const vks_report_file *rf)
{
    int engines_ok = rf->positions.pass && rf->normals.pass && !rf->run_error;
    int golden_ok = !rf->has_golden || (!rf->golden_error && rf->golden_positions.pass && rf->golden_normals.pass);
    return engines_ok && golden_ok;
}

static cJSON *file_json(const vks_report_file *rf, const vks_validate_file *f)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "file", rf->path);
    cJSON_AddStringToObject(j, "format", rf->format);
    cJSON_AddNumberToObject(j, "vertices", rf->vertices);
    cJSON_AddNumberToObject(j, "instances", rf->poses);
    int n_absent = absent(rf->normals_absent, &rf->normals);
    cJSON *jp = stream_json(&rf->positions), *jn = n_absent ? absent_json(rf->normals_absent) : stream_json(&rf->normals);
    cJSON_AddItemToObject(jp, "vertices_over", over_json(rf->position_errors));
    if (!n_absent)
        cJSON_AddItemToObject(jn, "vertices_over", over_json(rf->normal_errors));
    cJSON_AddItemToObject(j, "positions", jp);
    cJSON_AddItemToObject(j, "normals", jn);
    vks__bind_check_json(cJSON_AddObjectToObject(j, "bind_check"), &f->bind, f->bind_promised, !f->bind_failed);
    influences_json(cJSON_AddObjectToObject(j, "influences_lost"), VKS_MAX_INFLUENCES, f->influences_lost,
                    f->influences_lost_max);
    influences_json(cJSON_AddObjectToObject(j, "influences_over_the_format_rule"), 4, f->rule_dropped,
                    f->rule_dropped_max);
    if (rf->has_golden)
        cJSON_AddItemToObject(j, "golden", golden_json(rf));
    heatmap_json(j, rf);
    cJSON_AddBoolToObject(j, "pass", streams_pass(rf) && !f->bind_failed);
    return j;
}

/* The GPU's per-chunk reductions summed up: positions' extent per axis (null where no
 * component was finite), non-finite components, the normals' largest |length - 1|, and
 * whether every chunk's readback agreed. */
static cJSON *reduction_json(const vks_validate_device *d)
{
    const vks_gpu_figures *g = &d->gpu_figures;
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "chunks", d->reduced_chunks);
    cJSON_AddNumberToObject(j, "nonfinite", g->nonfinite);
    cJSON *mn = cJSON_AddArrayToObject(j, "position_min"), *mx = cJSON_AddArrayToObject(j, "position_max");
    for (int k = 0; k < 3; k++) {
        float lo = vks_gpu_figures_float(g->min_key[k]), hi = vks_gpu_figures_float(g->max_key[k]);
        cJSON_AddItemToArray(mn, isfinite(lo) ? cJSON_CreateNumber(lo) : cJSON_CreateNull());
        cJSON_AddItemToArray(mx, isfinite(hi) ? cJSON_CreateNumber(hi) : cJSON_CreateNull());
    }
    cJSON_AddNumberToObject(j, "normal_deviation_max", g->normal_deviation);
    cJSON_AddNumberToObject(j, "readback_mismatches", d->readback_mismatches);
    cJSON_AddBoolToObject(j, "readback_checked", d->readback_checked);
    return j;
}

/* What a sampled run compared: per file the instances, and the chunks' bound check. */
static cJSON *sample_json(const vks_validate_device *d)
{
    cJSON *j = cJSON_CreateObject();
    if (d->sample_percent > 0)
        cJSON_AddNumberToObject(j, "percent", d->sample_percent);
    else
        cJSON_AddNumberToObject(j, "count", d->sample_count);
    cJSON_AddNumberToObject(j, "seed", (double)d->sample_seed);
    cJSON *jf = cJSON_AddArrayToObject(j, "files");
    for (uint32_t k = 0; k < d->file_count; k++) {
        const vks_validate_file *f = &d->files[k];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "file", d->reports[k].path);
        cJSON_AddNumberToObject(e, "instances", f->instances);
        cJSON *a = cJSON_AddArrayToObject(e, "sampled");
        for (uint32_t i = 0; f->sampled && i < f->instances; i++)
            if (f->sampled[i])
                cJSON_AddItemToArray(a, cJSON_CreateNumber(i));
        cJSON_AddItemToArray(jf, e);
    }
    cJSON_AddNumberToObject(j, "chunks_checked", d->bound_checked);
    cJSON_AddNumberToObject(j, "chunks_outside_bound", d->bound_failures);
    cJSON_AddStringToObject(j, "reduction_check", d->reduction_check);
    cJSON_AddBoolToObject(j, "reduction_pass", d->bound_failures == 0 && d->bound_checked > 0);
    return j;
}

/* Each context's share of a split run; NULL when there was none (the key is left out). */
static cJSON *shares_json(const vks_validate_device *d)
{
    if (d->share_count < 2)
        return NULL;
    cJSON *a = cJSON_CreateArray();
    for (uint32_t k = 0; a && k < d->share_count && k < VKS_VALIDATE_MAX_CONTEXTS; k++) {
        const vks_validate_share *s = &d->shares[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "context", k + 1);
        cJSON_AddStringToObject(o, "device", s->device);
        cJSON_AddNumberToObject(o, d->share_unit ? d->share_unit : "poses", (double)s->count);
        cJSON_AddNumberToObject(o, "chunks", (double)s->chunks);
        cJSON_AddNumberToObject(o, "seconds", s->seconds);
        cJSON_AddNumberToObject(o, "per_second", s->seconds > 0 ? (double)s->count / s->seconds : 0);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static int bind_failed(const vks_validate_device *d)
{
    for (uint32_t f = 0; f < d->file_count; f++)
        if (d->files[f].bind_failed)
            return 1;
    return 0;
}

int vks_validate_device_pass(const vks_validate_device *d)
{
    int pass = d->ran && !bind_failed(d) && !d->inputs_not_read;
    for (uint32_t f = 0; f < d->file_count; f++)
        pass &= streams_pass(&d->reports[f]);
    if (d->validation_layer && d->validation_messages)
        pass = 0;
    return pass && !d->readback_mismatches && !d->bound_failures;
}

/* What the run did: chunks, times by path, the readback check, shares, the verdict. */
static void device_tail_json(cJSON *root, const vks_validate_device *d)
{
    const vks_gpu_stats *st = &d->stats;
    cJSON_AddNumberToObject(root, "chunks", st->chunks);
    cJSON_AddNumberToObject(root, "vertex_instances", (double)st->vertex_instances);
    if (d->crowd_path) { /* a crowd's frame times pose and deform together */
        cJSON_AddStringToObject(root, "gpu_path", "crowd");
        cJSON_AddNumberToObject(root, "gpu_frames_ms", st->pose_ms);
        cJSON *ci = d->contexts > 1 ? cJSON_AddArrayToObject(root, "context_instances") : NULL;
        for (uint32_t k = 0; ci && k < d->contexts && k < VKS_VALIDATE_MAX_CONTEXTS; k++)
            cJSON_AddItemToArray(ci, cJSON_CreateNumber((double)d->context_instances[k]));
    } else {
        cJSON_AddStringToObject(root, "gpu_path", "batch");
        cJSON_AddNumberToObject(root, "gpu_pose_ms", st->pose_ms);
        cJSON_AddNumberToObject(root, "gpu_deform_ms", st->deform_ms);
    }
    cJSON_AddNumberToObject(root, "total_ms", st->total_ms);
    /* the mode asked; gpu_reduction only where the GPU reduced (auto: where chunks were copied) */
    cJSON_AddStringToObject(root, "readback_check",
                            d->readback_check > 0 ? "on" : d->readback_check < 0 ? "off" : "auto");
    if (d->reduced)
        cJSON_AddItemToObject(root, "gpu_reduction", reduction_json(d));
    cJSON *shares = shares_json(d);
    if (shares)
        cJSON_AddItemToObject(root, "context_shares", shares);
    cJSON_AddNumberToObject(root, "validation_messages", d->validation_messages);
    cJSON_AddBoolToObject(root, "bind_check_failed", bind_failed(d));
    cJSON_AddNumberToObject(root, "inputs_not_read", d->inputs_not_read ? 1 : 0);
    cJSON_AddNumberToObject(root, "exit_code", d->exit_code);
    cJSON_AddBoolToObject(root, "pass", vks_validate_device_pass(d));
}

static cJSON *device_json(const vks_validate_device *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "device", d->name);
    if (!d->ran) {
        cJSON_AddStringToObject(root, "error", d->error);
        cJSON_AddNumberToObject(root, "exit_code", d->exit_code);
        cJSON_AddBoolToObject(root, "pass", 0);
        return root;
    }
    cJSON_AddStringToObject(root, "device_type", d->type);
    cJSON_AddNumberToObject(root, "queue_family", d->queue_family);
    cJSON_AddNumberToObject(root, "queue_index", d->queue_index);
    cJSON_AddNumberToObject(root, "tolerance_scale", d->tolerance_scale);
    cJSON_AddNumberToObject(root, "nmse", d->nmse);
    cJSON *jfiles = cJSON_AddArrayToObject(root, "files");
    for (uint32_t f = 0; f < d->file_count; f++)
        cJSON_AddItemToArray(jfiles, file_json(&d->reports[f], &d->files[f]));
    if (d->sampled)
        cJSON_AddItemToObject(root, "sample", sample_json(d));
    device_tail_json(root, d);
    return root;
}

char *vks_validate_json(const vks_validate_result *r)
{
    vks_c_numeric scope;
    vks_c_numeric_enter(&scope);
    cJSON *root;
    if (r->device_count == 1) {
        root = device_json(&r->devices[0]);
    } else {
        root = cJSON_CreateObject();
        cJSON_AddNumberToObject(root, "tolerance_scale", r->tolerance_scale);
        cJSON_AddNumberToObject(root, "nmse", r->nmse);
        cJSON *devs = cJSON_AddArrayToObject(root, "devices");
        for (uint32_t k = 0; k < r->device_count; k++)
            cJSON_AddItemToArray(devs, device_json(&r->devices[k]));
        cJSON_AddNumberToObject(root, "exit_code", r->exit_code);
        cJSON_AddBoolToObject(root, "pass", r->exit_code == VKS_VALIDATE_PASS);
    }
    char *s = root ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    vks_c_numeric_leave(&scope);
    return s;
}

vks_result vks_validate_write_json(const vks_validate_result *r, FILE *f, vks_error *err)
{
    char *s = vks_validate_json(r);
    if (!s)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate/json", "out of memory for the report");
    int bad = fprintf(f, "%s\n", s) < 0 || ferror(f);
    free(s);
    if (bad)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "validate/json", "write failed: %s", strerror(errno));
    return VKS_OK;
}

void vks_validate_report_device(const vks_validate_device *d, vks_report_device *out)
{
    memset(out, 0, sizeof *out);
    out->name = d->name[0] ? d->name : "(no device)";
    out->type = d->type[0] ? d->type : "?";
    out->error = d->ran ? NULL : d->error[0] ? d->error : "the device did not run";
    out->validation_layer = d->validation_layer, out->validation_messages = d->validation_messages;
    out->exit_code = d->exit_code;
    out->seconds = d->stats.total_ms / 1e3;
    out->files = d->reports, out->file_count = d->ran ? d->file_count : 0;
    if (d->sampled && d->ran) /* a sampled run: its reduction check is a case of its own */
        out->reduction_check = d->reduction_check, out->reduction_pass = d->bound_failures == 0;
}
