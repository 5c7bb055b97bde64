/* validate --junit FILE and --report DIR: the library writes the XML and the page
 * (report.h); this file draws the heat maps with the renderer on the device that ran, finds
 * three.js for the page's 3D view, and puts every file in place through the output module
 * (temporary, then rename), also when the validation failed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_png.h"
#include "validate.h"
#include "vkskin/render.h"

enum { HEAT_W = 480, HEAT_H = 360 };

void vks_validate_heatmap(const vrun *r, vks_gpu *gpu, vdevice *d, int f)
{
    const vinput *vf = &r->files[f];
    const vks_error_map *m = d->files[f].position_errors;
    if (!m || m->worst < 0 || !vf->skin->vertex_count) { /* the page says why (nothing is drawn) */
        d->heatmap_missing[f] = strdup(!vf->skin->vertex_count ? "the model has no vertices"
                                                                : "no instance of it was compared");
        return;
    }
    uint8_t *colors = malloc((size_t)m->vertices * 4);
    if (!colors)
        return;
    for (uint32_t v = 0; v < m->vertices; v++) {
        vks_report_error_color(m->error[v], colors + (size_t)v * 4);
        colors[(size_t)v * 4 + 3] = 255;
    }
    const vks_skin *skins[1] = {vf->skin};
    vks_render_desc desc = {0};
    desc.skins = skins, desc.skin_count = 1, desc.width = HEAT_W, desc.height = HEAT_H;
    vks_render *rd = NULL;
    vks_error err = {0};
    uint32_t model = 0, w = 0, h = 0;
    char name[64], msg[512];
    snprintf(name, sizeof name, "heatmap_d%d_f%d.png", r->device_number, f);
    size_t n = strlen(r->report_dir) + sizeof name + 2;
    char *path = malloc(n);
    vks_result res = path ? vks_render_create(gpu, &desc, &rd, &err) : VKS_ERR_NOMEM;
    if (res == VKS_OK)
        res = vks_render_host_colored(rd, &model, 1, m->positions, m->normals, colors, &err);
    if (res == VKS_OK) {
        snprintf(path, n, "%s/%s", r->report_dir, name);
        const uint8_t *px = vks_render_pixels(rd, &w, &h);
        res = vks_cli_write_png(path, px, w, h, &err);
    }
    if (res == VKS_OK) {
        d->heatmaps[f] = strdup(name);
    } else { /* on stderr and on the page */
        fprintf(stderr, "vkskin validate: %s: no heat map: %s\n", vf->path,
                vks_error_format(&err, NULL, msg, sizeof msg));
        d->heatmap_missing[f] = strdup(msg);
    }
    vks_render_destroy(rd);
    free(path), free(colors);
}

/* three.js for the page: $VKSKIN_THREE_JS, else the copy the build fetched from npm. */
static const char *three_source(void)
{
    const char *env = getenv("VKSKIN_THREE_JS");
    if (env)
        return *env ? env : NULL; /* set empty: a report without the 3D view */
#ifdef VKSKIN_THREE_JS_BUILD
    return VKSKIN_THREE_JS_BUILD;
#else
    return NULL;
#endif
}

/* Copies the script beside the page; 0 with why in `why` when it cannot. */
static int copy_three(const char *dir, char *why, size_t why_size)
{
    const char *src = three_source();
    if (!src) {
        snprintf(why, why_size, "three.js was not available when vkskin was built (npm install three; or set "
                                "VKSKIN_THREE_JS to a three.min.js)");
        return 0;
    }
    size_t size = 0;
    uint64_t keep = vks_cli_max_input_bytes;
    uint8_t *bytes = vks_cli_read_file(src, &size);
    vks_cli_max_input_bytes = keep;
    if (!bytes) {
        snprintf(why, why_size, "three.js could not be read from %s", src);
        return 0;
    }
    size_t n = strlen(dir) + 16;
    char *path = malloc(n);
    vks_output *o = NULL;
    vks_error err = {0};
    int ok = 0;
    if (path) {
        snprintf(path, n, "%s/three.min.js", dir);
        if (vks_output_open(&o, path, &err) == VKS_OK) {
            fwrite(bytes, 1, size, vks_output_stream(o));
            ok = vks_output_close(o, 1, &err) == VKS_OK;
        }
    }
    if (!ok)
        snprintf(why, why_size, "three.js could not be copied beside the page: %s", err.msg);
    free(path), free(bytes);
    return ok;
}

typedef vks_result (*writer)(const vks_report *r, FILE *f, vks_error *err);

static int write_one(const char *path, writer w, const vks_report *rep, const char *what)
{
    vks_output *o = NULL;
    vks_error err = {0};
    char msg[512];
    vks_result res = vks_output_open(&o, path, &err);
    if (res == VKS_OK) {
        res = w(rep, vks_output_stream(o), &err);
        vks_result closed = vks_output_close(o, res == VKS_OK, &err);
        res = res == VKS_OK ? closed : res;
    }
    if (res != VKS_OK) {
        fprintf(stderr, "vkskin validate: %s: %s\n", what, vks_error_format(&err, NULL, msg, sizeof msg));
        return VKS_EXIT_RUNTIME;
    }
    return VKS_EXIT_OK;
}

int vks_validate_reports(const vreport_opts *o, vdevice *devs, int ndev, int nfiles)
{
    vks_report_device *rd = calloc((size_t)(ndev ? ndev : 1), sizeof *rd);
    if (!rd)
        return VKS_EXIT_RUNTIME;
    for (int k = 0; k < ndev; k++) {
        vdevice *d = &devs[k];
        const vks_validate_device *l = &d->lib;
        rd[k].name = l->name[0] ? l->name : "(no device)";
        rd[k].type = l->type[0] ? l->type : "?";
        rd[k].error = l->ran ? NULL : l->error[0] ? l->error : "the device did not run";
        rd[k].validation_layer = l->validation_layer;
        rd[k].validation_messages = l->validation_messages;
        rd[k].exit_code = l->exit_code;
        rd[k].seconds = l->stats.total_ms / 1e3;
        rd[k].files = d->files;
        rd[k].file_count = l->ran ? (uint32_t)nfiles : 0;
        if (o->sample && l->ran) /* a sampled run: its reduction check is a case of its own */
            rd[k].reduction_check = d->reduction_text, rd[k].reduction_pass = l->bound_failures == 0;
        for (int f = 0; l->ran && f < nfiles; f++)
            d->files[f].heatmap = d->heatmaps[f], d->files[f].heatmap_missing = d->heatmap_missing[f];
    }
    vks_report rep = {0};
    rep.version = vks_version_string();
    rep.command = o->command;
    rep.tolerance_scale = o->tolerance_scale, rep.nmse = o->nmse;
    rep.against = o->against;
    rep.devices = rd, rep.device_count = (uint32_t)ndev;
    rep.exit_code = o->exit_code;
    rep.sample = o->sample;
    int rc = VKS_EXIT_OK;
    if (o->junit)
        rc = vks_cli_worse_exit(rc, write_one(o->junit, vks_report_junit, &rep, o->junit));
    if (o->report_dir) {
        char why[512] = "";
        if (copy_three(o->report_dir, why, sizeof why))
            rep.three_js = "three.min.js";
        else
            rep.three_js_missing = why;
        size_t n = strlen(o->report_dir) + 16;
        char *path = malloc(n);
        if (!path) {
            rc = VKS_EXIT_RUNTIME;
        } else {
            snprintf(path, n, "%s/index.html", o->report_dir);
            rc = vks_cli_worse_exit(rc, write_one(path, vks_report_html, &rep, path));
            free(path);
        }
    }
    free(rd);
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
