/* JUnit XML of a validation run, in the shape Jenkins (junit plugin) and GitLab (artifacts:
 * reports:junit) read: <testsuites> holding one <testsuite> per device, each with
 * <properties> and <testcase classname name time> elements; a failing case holds
 * <failure message type>, one that could not run <error message type>, and the metrics of a
 * passing one go to <system-out>. tests/data/junit.xsd is the schema the tests hold it to.
 *
 * The cases of a device: per file "positions" and "normals" (GPU against the CPU reference),
 * "golden positions" and "golden normals" with --against, and "bind pose"; a stream the model
 * does not have (normals) is a <skipped> case saying why, never a pass on zeros. The tolerance
 * scale and the NMSE bound are properties of every suite and part of every message, so a
 * loosened run can never pass unnoticed.
 *
 * Names: Jenkins splits a class name at its last dot into package and class, so a file
 * "datasets/char.dff" of class "validate.DEVICE.datasets/char.dff" showed as class "dff". The
 * class name is "validate." DEVICE "." FILE with every '.' inside a part written '_'
 * ("validate.llvmpipe (LLVM 15_0_6, 256 bits).datasets/char_dff"): package validate.DEVICE,
 * class FILE, test the stream. Times: a case's seconds are those the run spent on it: a file's
 * comparison time shared by its positions and normals, its golden comparison's by the two
 * golden streams, its bind-pose check's; the device's when it could not run; the validation
 * layer's case has none of its own (0). */
#include <errno.h>
#include <string.h>

#include "report_internal.h"
#include "core/c_numeric.h"

typedef struct counts {
    unsigned tests, failures, errors, skipped;
} counts;

static void count_stream(counts *c, int pass, int error)
{
    c->tests++;
    c->failures += !pass && !error;
    c->errors += error;
}

static counts device_counts(const vks_report_device *d)
{
    counts c = {0, 0, 0, 0};
    if (d->error) {
        count_stream(&c, 0, 1);
        return c;
    }
    for (uint32_t i = 0; i < d->file_count; i++) {
        const vks_report_file *f = &d->files[i];
        /* an absent stream is a skipped case, unless the run's error covers it */
        int skip_n = f->normals_absent && f->normals.pass && !f->run_error;
        int skip_gn = f->normals_absent && f->golden_normals.pass && !f->golden_error;
        count_stream(&c, f->positions.pass, f->run_error != NULL);
        count_stream(&c, f->normals.pass || skip_n, f->run_error != NULL);
        c.skipped += skip_n;
        if (f->has_golden) {
            count_stream(&c, f->golden_positions.pass, f->golden_error != NULL);
            count_stream(&c, f->golden_normals.pass || skip_gn, f->golden_error != NULL);
            c.skipped += skip_gn;
        }
        count_stream(&c, f->bind_pass || f->bind_allowed, 0);
    }
    if (d->validation_layer)
        count_stream(&c, d->validation_messages == 0, 0);
    if (d->reduction_check)
        count_stream(&c, d->reduction_pass, 0);
    return c;
}

static void property(FILE *f, const char *name, const char *value)
{
    fputs("      <property name=\"", f);
    vks__report_escape(f, name);
    fputs("\" value=\"", f);
    vks__report_escape(f, value ? value : "");
    fputs("\"/>\n", f);
}

/* A time as the schema's non-negative decimal (unmeasured, negative or absurd: 0). */
static double seconds_or_0(double s) { return s > 0 && s < 1e9 ? s : 0.0; }

/* "validate." then each part with its dots written '_' (see the top of this file), into out. */
static void class_name(char *out, size_t size, const char *device, const char *file)
{
    const char *parts[2] = {device, file};
    size_t n = (size_t)snprintf(out, size, "validate");
    for (int p = 0; p < 2 && parts[p] && n + 1 < size; p++) {
        out[n++] = '.';
        for (const char *c = parts[p]; *c && n + 1 < size; c++)
            out[n++] = *c == '.' ? '_' : *c;
        out[n] = 0;
    }
}

/* One <testcase>: message is the one-line verdict; detail (may be "") the text under it. */
static void testcase(FILE *f, const char *classname, const char *name, double seconds, int pass, int error,
                     const char *message, const char *detail)
{
    fputs("    <testcase classname=\"", f);
    vks__report_escape(f, classname);
    fputs("\" name=\"", f);
    vks__report_escape(f, name);
    /* to the microsecond: a bind-pose check takes less than a millisecond */
    fprintf(f, "\" time=\"%.6f\">\n", seconds_or_0(seconds));
    if (pass && !error) {
        fputs("      <system-out>", f);
        vks__report_escape(f, message);
        fputs("</system-out>\n", f);
    } else {
        const char *el = error ? "error" : "failure";
        fprintf(f, "      <%s message=\"", el);
        vks__report_escape(f, message);
        fprintf(f, "\" type=\"%s\">", error ? "run" : "validation");
        vks__report_escape(f, message);
        if (detail && *detail) {
            fputc('\n', f);
            vks__report_escape(f, detail);
        }
        fprintf(f, "</%s>\n", el);
    }
    fputs("    </testcase>\n", f);
}

/* A stream the model does not have: <skipped> with why, never a pass on zeros. */
static void absent_case(FILE *f, const char *classname, const char *name, double seconds, const char *why)
{
    char msg[300];
    vks__report_absent(msg, sizeof msg, why);
    fputs("    <testcase classname=\"", f);
    vks__report_escape(f, classname);
    fputs("\" name=\"", f);
    vks__report_escape(f, name);
    fprintf(f, "\" time=\"%.6f\">\n      <skipped message=\"", seconds);
    vks__report_escape(f, msg);
    fputs("\" type=\"absent\"/>\n    </testcase>\n", f);
}

static void stream_case(FILE *f, const char *cls, const char *name, double seconds, const vks_diff_report *r,
                        const vks_error_map *m, const char *error, const vks_report *rep)
{
    char metrics[512], over[512], msg[1200];
    if (error) {
        testcase(f, cls, name, seconds, 0, 1, error, "");
        return;
    }
    vks__report_metrics(metrics, sizeof metrics, r);
    vks__report_over(over, sizeof over, m);
    snprintf(msg, sizeof msg, "%s; tolerance scale %g, NMSE bound %g", metrics, rep->tolerance_scale, rep->nmse);
    testcase(f, cls, name, seconds, r->pass, 0, msg, over);
}

static vks_result report_junit_body(const vks_report *r, FILE *f, vks_error *err)
{
    counts all = {0, 0, 0, 0};
    double seconds = 0;
    for (uint32_t d = 0; d < r->device_count; d++) {
        counts c = device_counts(&r->devices[d]);
        all.tests += c.tests, all.failures += c.failures, all.errors += c.errors, all.skipped += c.skipped;
        seconds += seconds_or_0(r->devices[d].seconds);
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<testsuites name=\"vkskin validate\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" "
               "time=\"%.3f\">\n",
            all.tests, all.failures, all.errors, all.skipped, seconds);
    char num[64], cls[600];
    for (uint32_t di = 0; di < r->device_count; di++) {
        const vks_report_device *d = &r->devices[di];
        counts c = device_counts(d);
        fputs("  <testsuite name=\"vkskin validate on ", f);
        vks__report_escape(f, d->name);
        fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\">\n", c.tests,
                c.failures, c.errors, c.skipped, seconds_or_0(d->seconds));
        fputs("    <properties>\n", f);
        property(f, "vkskin.version", r->version);
        property(f, "device", d->name);
        property(f, "device.type", d->type);
        snprintf(num, sizeof num, "%g", r->tolerance_scale);
        property(f, "tolerance_scale", num);
        snprintf(num, sizeof num, "%g", r->nmse);
        property(f, "nmse", num);
        if (r->against)
            property(f, "against", r->against);
        if (r->command)
            property(f, "command", r->command);
        if (r->sample)
            property(f, "sample", r->sample);
        fputs("    </properties>\n", f);
        if (d->error) {
            class_name(cls, sizeof cls, d->name, NULL);
            testcase(f, cls, "device", d->seconds, 0, 1, d->error, "");
        }
        for (uint32_t i = 0; !d->error && i < d->file_count; i++) {
            const vks_report_file *fi = &d->files[i];
            double half = seconds_or_0(fi->seconds) / 2, golden_half = seconds_or_0(fi->golden_seconds) / 2;
            class_name(cls, sizeof cls, d->name, fi->path);
            stream_case(f, cls, "positions", half, &fi->positions, fi->position_errors, fi->run_error, r);
            if (fi->normals_absent && fi->normals.pass && !fi->run_error)
                absent_case(f, cls, "normals", half, fi->normals_absent);
            else
                stream_case(f, cls, "normals", half, &fi->normals, fi->normal_errors, fi->run_error, r);
            if (fi->has_golden) {
                stream_case(f, cls, "golden positions", golden_half, &fi->golden_positions, fi->golden_errors,
                            fi->golden_error, r);
                if (fi->normals_absent && fi->golden_normals.pass && !fi->golden_error)
                    absent_case(f, cls, "golden normals", golden_half, fi->normals_absent);
                else
                    stream_case(f, cls, "golden normals", golden_half, &fi->golden_normals, NULL, fi->golden_error,
                                r);
            }
            char bind[400];
            vks__report_bind(bind, sizeof bind, fi);
            testcase(f, cls, "bind pose", fi->bind_seconds, fi->bind_pass || fi->bind_allowed, 0, bind, "");
        }
        if (d->validation_layer) {
            class_name(cls, sizeof cls, d->name, NULL);
            snprintf(num, sizeof num, "%u message(s) from the Khronos validation layer", d->validation_messages);
            testcase(f, cls, "validation layer", 0, d->validation_messages == 0, 0, num, "");
        }
        if (d->reduction_check) { /* a sampled run: every chunk's reduction against the host's bound */
            class_name(cls, sizeof cls, d->name, NULL);
            testcase(f, cls, "gpu reduction", 0, d->reduction_pass, 0, d->reduction_check, "");
        }
        fputs("  </testsuite>\n", f);
    }
    fputs("</testsuites>\n", f);
    if (fflush(f) != 0 || ferror(f))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "report/junit", "write failed: %s", strerror(errno));
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_report_junit(const vks_report *r, FILE *f, vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, report_junit_body(r, f, err));
}
