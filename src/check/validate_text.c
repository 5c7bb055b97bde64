/* validate's text report (validate.h: vks_validate_write_text): what `vkskin validate` prints
 * for a run, per device the tolerances, per file its streams, bind pose and golden, a sampled
 * run's instances, and the verdict with the work and its time; and, one line each, why a run
 * failed (the program's stderr), so that exit 3 always says why. The words are the program's
 * own: a host that prints them says what the program says. */
#include <string.h>

#include "check/validate_text.h"

static void print_stream(FILE *out, const char *name, const vks_diff_report *r)
{
    fprintf(out,
            "  %-9s max abs %.3g  max rel %.3g  NMSE %.3g  over tolerance %llu of %llu  worst vertex %u "
            "instance %u  %s\n",
            name, r->max_abs, r->max_rel, r->nmse, (unsigned long long)r->over, (unsigned long long)r->compared,
            r->worst_vertex, r->worst_instance, r->pass ? "PASS" : "FAIL");
}

/* A stream the model does not have (normals, NULL why: it has them), printed in place of the
 * metrics of zeros against zeros; a mismatch on zeros stays a failure. */
static int absent(const char *why, const vks_diff_report *r)
{
    return why && r->pass;
}

static void print_absent(FILE *out, const char *name, const char *why)
{
    fprintf(out, "  %-9s absent: %s (not compared)\n", name, why);
}

/* One line per way a file failed against the reference. */
static void say_why(FILE *why, const vks_report_file *rf, uint32_t delivered)
{
    const vks_diff_report *r[2] = {&rf->positions, &rf->normals};
    const char *name[2] = {"positions", "normals"};
    for (int k = 0; k < 2; k++)
        if (!r[k]->pass)
            fprintf(why,
                    "vkskin: %s: validation failed: GPU %s off the CPU reference by up to %.3g (%.3g of the "
                    "scale), %llu of %llu components over tolerance, NMSE %.3g (at most %.3g); worst vertex %u "
                    "of instance %u\n",
                    rf->path, name[k], r[k]->max_abs, r[k]->max_rel, (unsigned long long)r[k]->over,
                    (unsigned long long)r[k]->compared, r[k]->nmse, r[k]->tolerance.nmse, r[k]->worst_vertex,
                    r[k]->worst_instance);
    if (delivered != rf->poses)
        fprintf(why, "vkskin: %s: validation failed: the GPU delivered %u of %u instances\n", rf->path, delivered,
                rf->poses);
}

/* "N vertices moved over tolerance (largest first: a b ...)", or "" when none did. */
static void moved_words(const vks_report_file *o, char *over, size_t size)
{
    uint32_t v[12];
    uint32_t n = o->golden_errors ? vks_error_map_over(o->golden_errors, v, 12) : 0;
    over[0] = 0;
    if (!n)
        return;
    size_t at = (size_t)snprintf(over, size, "%u vertices moved over tolerance (largest first:", n);
    for (uint32_t i = 0; i < n && i < 12 && at < size; i++)
        at += (size_t)snprintf(over + at, size - at, " %u", v[i]);
    if (at < size)
        snprintf(over + at, size - at, "%s)", n > 12 ? " ..." : "");
}

/* The golden comparison of a file: its lines into out, and why it failed into why. */
static void print_golden(FILE *out, FILE *why, const vks_report_file *o, const char *dir)
{
    if (o->golden_error) {
        if (out)
            fprintf(out, "  golden    not compared: %s\n", o->golden_error);
        if (why)
            fprintf(why, "vkskin: %s: regression against %s: not compared: %s\n", o->path, dir, o->golden_error);
        return;
    }
    if (out) {
        print_stream(out, "golden positions", &o->golden_positions);
        if (absent(o->normals_absent, &o->golden_normals))
            print_absent(out, "golden normals", o->normals_absent);
        else
            print_stream(out, "golden normals", &o->golden_normals);
    }
    char over[1024];
    moved_words(o, over, sizeof over);
    if (out && *over)
        fprintf(out, "  moved     %s\n", over);
    if (why && (!o->golden_positions.pass || !o->golden_normals.pass))
        fprintf(why, "vkskin: %s: regression against %s: positions moved by up to %.3g (%.3g of the scale), "
                     "normals by up to %.3g; %s\n",
                o->path, dir, o->golden_positions.max_abs, o->golden_positions.max_rel, o->golden_normals.max_abs,
                *over ? over : "no vertex over tolerance (NMSE over its bound)");
}

/* One file's lines: its streams against the reference and its bind pose. */
static void print_file(FILE *out, const vks_validate_device *d, const vks_report_file *rf, const vks_validate_file *vf)
{
    fprintf(out, "%s: %s, %u vertices x %u poses on %s\n", rf->path, rf->format, rf->vertices, rf->poses, d->name);
    print_stream(out, "positions", &rf->positions);
    if (absent(rf->normals_absent, &rf->normals))
        print_absent(out, "normals", rf->normals_absent);
    else
        print_stream(out, "normals", &rf->normals);
    fprintf(out, "  bind pose max abs %.3g  max rel %.3g  tolerance %.3g  %s\n", vf->bind.max_error,
            vf->bind.max_error_relative, vf->bind.tolerance,
            vf->bind.pass ? (vf->bind.placed ? "PASS (placed: one transform above every bone)" : "PASS")
            : !vf->bind_promised ? "DIFFERS (a note: the format does not promise the bind pose)"
            : !vf->bind_failed ? "FAIL (allowed by --allow-bind-mismatch)" : "FAIL");
}

void vks__validate_sample_said(const vks_validate_device *d, char *out, size_t size)
{
    uint64_t compared = 0, all = 0;
    for (uint32_t k = 0; d->files && k < d->file_count; k++) {
        const vks_validate_file *f = &d->files[k];
        for (uint32_t i = 0; f->sampled && i < f->instances; i++)
            compared += f->sampled[i];
        all += f->instances;
    }
    char asked[48];
    if (d->sample_percent > 0)
        snprintf(asked, sizeof asked, "%g%%", d->sample_percent);
    else
        snprintf(asked, sizeof asked, "%u", d->sample_count);
    snprintf(out, size, "%llu of %llu instances compared with the reference (--sample %s, seed %llu); the GPU's "
             "reduction of every chunk checked", (unsigned long long)compared, (unsigned long long)all, asked,
             (unsigned long long)d->sample_seed);
}

/* A sampled run: what was compared (at most 12 instances named a file) and the reduction's check. */
static void print_sample(FILE *out, const vks_validate_device *d)
{
    char said[400];
    vks__validate_sample_said(d, said, sizeof said);
    fprintf(out, "sampled: %s\n", said);
    for (uint32_t k = 0; k < d->file_count; k++) {
        const vks_validate_file *f = &d->files[k];
        uint32_t shown = 0, count = 0;
        fprintf(out, "  %s: instances", d->reports[k].path);
        for (uint32_t i = 0; f->sampled && i < f->instances; i++)
            if (f->sampled[i]) {
                if (shown < 12)
                    fprintf(out, "%s %u", shown ? "," : "", i), shown++;
                count++;
            }
        fprintf(out, "%s\n", count > shown ? ", ..." : "");
    }
    fprintf(out, "  gpu reduction: %s  %s\n", d->reduction_check,
            d->bound_failures == 0 && d->bound_checked > 0 ? "PASS" : "FAIL");
}

/* The device's last line: the verdict, the work and where the time went. */
static void print_tail(FILE *out, const vks_validate_device *d, int all)
{
    const vks_gpu_stats *st = &d->stats;
    double vi = (double)st->vertex_instances;
    const char *layer = d->validation_layer ? (d->validation_messages ? ", validation-layer messages"
                                                                      : ", validation layer clean")
                                            : "";
    if (d->crowd_path) {
        char shares[256] = "";
        size_t n = 0;
        if (d->contexts >= 2) { /* clips split across contexts: each one's instances */
            n += (size_t)snprintf(shares, sizeof shares, " (%u contexts: ", d->contexts);
            for (uint32_t k = 0; k < d->contexts && k < VKS_VALIDATE_MAX_CONTEXTS && n < sizeof shares; k++)
                n += (size_t)snprintf(shares + n, sizeof shares - n, "%s%llu", k ? " + " : "",
                                      (unsigned long long)d->context_instances[k]);
            if (n < sizeof shares)
                snprintf(shares + n, sizeof shares - n, " instances)");
        }
        fprintf(out, "%s: %u file(s), %.0f vertex-instances in %u chunk(s)%s; GPU frames %.2f ms (clips sampled in "
                     "the crowd's pose pass), total with the reference %.0f ms%s\n",
                all ? "PASS" : "FAIL", d->file_count, vi, st->chunks, shares, st->pose_ms, st->total_ms, layer);
    } else {
        fprintf(out, "%s: %u file(s), %.0f vertex-instances in %u chunk(s); GPU passes %.2f ms (pose %.2f, deform "
                     "%.2f), total with the reference %.0f ms%s\n",
                all ? "PASS" : "FAIL", d->file_count, vi, st->chunks, st->pose_ms + st->deform_ms, st->pose_ms,
                st->deform_ms, st->total_ms, layer);
    }
}

/* Everything of one device but the write check; out and why may each be NULL. */
static void write_device(const vks_validate_device *d, const char *against, FILE *out, FILE *why)
{
    if (!d->ran) {
        if (out)
            fprintf(out, "FAIL: %s could not run: %s\n", d->name[0] ? d->name : "the device", d->error);
        return;
    }
    int pass = 1, bind_failed = 0;
    if (out)
        fprintf(out, "tolerances on %s: %g x the derived bounds, NMSE <= %g\n", d->name, d->tolerance_scale, d->nmse);
    for (uint32_t f = 0; f < d->file_count; f++) {
        const vks_report_file *rf = &d->reports[f];
        const vks_validate_file *vf = &d->files[f];
        int engines_ok = rf->positions.pass && rf->normals.pass && !rf->run_error;
        int golden_ok = !rf->has_golden || (!rf->golden_error && rf->golden_positions.pass && rf->golden_normals.pass);
        pass &= engines_ok && golden_ok;
        if (!engines_ok && why)
            say_why(why, rf, vf->delivered);
        bind_failed |= vf->bind_failed;
        if (out)
            print_file(out, d, rf, vf);
        if (rf->has_golden)
            print_golden(out, why, rf, against ? against : "the golden");
    }
    if (d->validation_layer && d->validation_messages) {
        if (why)
            fprintf(why, "vkskin: validation failed: the Vulkan validation layer reported %u message(s)\n",
                    d->validation_messages);
        pass = 0;
    }
    if (d->readback_mismatches || d->bound_failures) /* said chunk by chunk (options.say) as they came */
        pass = 0;
    if (out && d->sampled)
        print_sample(out, d);
    if (out)
        print_tail(out, d, pass && !bind_failed && !d->inputs_not_read);
}

static vks_result write_checked(FILE *out, FILE *why, vks_error *err)
{
    if ((out && ferror(out)) || (why && ferror(why)))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "validate", "the text report could not be written");
    return VKS_OK;
}

vks_result vks_validate_write_device_text(const vks_validate_device *d, const char *against, FILE *out, FILE *why,
                                          vks_error *err)
{
    if (!d)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "no device");
    write_device(d, against, out, why);
    return write_checked(out, why, err);
}

vks_result vks_validate_write_text(const vks_validate_result *r, const char *against, FILE *out, FILE *why,
                                   vks_error *err)
{
    if (!r)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "validate", "no result");
    for (uint32_t k = 0; k < r->device_count; k++)
        write_device(&r->devices[k], against, out, why);
    if (out && r->device_count > 1)
        fprintf(out, "%s: %u device(s), exit %d (the worst)\n", r->exit_code ? "FAIL" : "PASS", r->device_count,
                r->exit_code);
    return write_checked(out, why, err);
}
