/* The words the report writers share (report_internal.h). */
#include <inttypes.h>
#include <string.h>

#include "report_internal.h"

void vks__report_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(c < 0x20 && c != '\t' && c != '\n' ? '?' : c, f);
        }
    }
}

void vks__report_metrics(char *buf, size_t size, const vks_diff_report *r)
{
    double scale = r->tolerance.scale > 0 ? r->tolerance.scale : r->radius;
    snprintf(buf, size,
             "max abs %.3g, max rel %.3g, NMSE %.3g (at most %.3g), %" PRIu64 " of %" PRIu64
             " components over tolerance (%.3g x scale %.4g + %.3g x |ref|), worst vertex %u of instance %u: %s",
             r->max_abs, r->max_rel, r->nmse, r->tolerance.nmse, r->over, r->compared, r->tolerance.abs_radius, scale,
             r->tolerance.rel, r->worst_vertex, r->worst_instance, r->pass ? "PASS" : "FAIL");
}

void vks__report_over(char *buf, size_t size, const vks_error_map *m)
{
    enum { SHOWN = 12 };
    uint32_t v[SHOWN];
    buf[0] = 0;
    uint32_t n = m ? vks_error_map_over(m, v, SHOWN) : 0;
    if (!n)
        return;
    size_t at = (size_t)snprintf(buf, size, "vertices over tolerance: %u (largest first:", n);
    for (uint32_t i = 0; i < n && i < SHOWN && at < size; i++)
        at += (size_t)snprintf(buf + at, size - at, " %u (%.3g x)", v[i], m->max_error[v[i]]);
    if (at < size)
        snprintf(buf + at, size - at, "%s)", n > SHOWN ? " ..." : "");
}

void vks__report_bind(char *buf, size_t size, const vks_report_file *f)
{
    snprintf(buf, size, "bind pose max error %.3g (%.3g of the bounding radius), tolerance %.3g: %s", f->bind_max_error,
             f->bind_max_relative, f->bind_tolerance,
             f->bind_pass ? "PASS" : f->bind_allowed ? "FAIL (allowed by --allow-bind-mismatch)" : "FAIL");
}

const char *vks__report_base(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "";
}

int vks__report_file_fails(const vks_report_file *f)
{
    int golden_bad = f->has_golden && (f->golden_error || !f->golden_positions.pass || !f->golden_normals.pass);
    return f->run_error || !f->positions.pass || !f->normals.pass || golden_bad || (!f->bind_pass && !f->bind_allowed);
}

void vks__report_absent(char *buf, size_t size, const char *why)
{
    snprintf(buf, size, "absent: %s (not compared)", why);
}
