/* validate --junit FILE and --report DIR: the library draws the heat maps and writes the XML
 * and the folder (vkskin/validate.h: vks_validate_draw_heatmap, vks_validate_write_junit,
 * vks_validate_write_report); this file keeps each heat map's name for the page, says what
 * could not be written, and refuses report files that are inputs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "validate.h"

void vks_validate_heatmap(const vrun *r, vks_gpu *gpu, vdevice *d, int f)
{
    const char *none = vks_validate_heatmap_missing(&d->files[f]);
    if (none) { /* the page says why (nothing is drawn) */
        d->heatmap_missing[f] = strdup(none);
        return;
    }
    char name[64], msg[512];
    vks_error err = {0};
    if (vks_validate_draw_heatmap(gpu, &d->files[f], r->report_dir, (uint32_t)r->device_number, (uint32_t)f, name,
                                  sizeof name, &err) == VKS_OK) {
        d->heatmaps[f] = strdup(name);
    } else { /* on stderr and on the page */
        fprintf(stderr, "vkskin validate: %s: no heat map: %s\n", r->files[f].path,
                vks_error_format(&err, NULL, msg, sizeof msg));
        d->heatmap_missing[f] = strdup(msg);
    }
}

/* A report the library could not write, said; the exit code. */
static int report_failed(const char *what, const vks_error *err)
{
    char msg[512];
    fprintf(stderr, "vkskin validate: %s: %s\n", what, vks_error_format(err, NULL, msg, sizeof msg));
    return VKS_EXIT_RUNTIME;
}

int vks_validate_reports(const vreport_opts *o, const vks_validate_result *r)
{
    vks_validate_report_options lo = {o->command, o->against, NULL};
    vks_error err = {0};
    int rc = VKS_EXIT_OK;
    if (o->junit && vks_validate_write_junit(r, &lo, o->junit, &err) != VKS_OK)
        rc = report_failed(o->junit, &err);
    vks_error rerr = {0};
    if (o->report_dir && vks_validate_write_report(r, &lo, o->report_dir, &rerr) != VKS_OK) {
        size_t n = strlen(o->report_dir) + 16;
        char *path = malloc(n);
        if (path)
            snprintf(path, n, "%s/index.html", o->report_dir);
        rc = path ? report_failed(path, &rerr) : VKS_EXIT_RUNTIME;
        free(path);
    }
    return rc;
}

int vks_validate_reports_refuse_inputs(const vreport_opts *o, const vks_output_inputs *in)
{
    int rc = o->junit ? vks_cli_refuse_input(in, "--junit", o->junit) : VKS_EXIT_OK;
    static const char *const pages[] = {"index.html", "three.min.js"};
    for (int k = 0; k < 2 && o->report_dir && rc == VKS_EXIT_OK; k++) {
        size_t n = strlen(o->report_dir) + strlen(pages[k]) + 2;
        char *path = malloc(n);
        if (!path)
            return VKS_EXIT_RUNTIME;
        snprintf(path, n, "%s/%s", o->report_dir, pages[k]);
        rc = vks_cli_refuse_input(in, "--report", path);
        free(path);
    }
    if (o->report_dir && rc == VKS_EXIT_OK) /* heatmap_d<device>_f<file>.png (vks_validate_heatmap) */
        rc = vks_cli_refuse_input_like(in, "--report", o->report_dir, "heatmap_d", ".png");
    return rc;
}

int vks_validate_make_dir(const char *option, const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
        fprintf(stderr, "vkskin validate: %s %s: cannot make the folder: %s\n", option, dir, strerror(errno));
        return VKS_EXIT_RUNTIME;
    }
    return VKS_EXIT_OK;
}
