/* validate's reports as files (validate.h): the JUnit XML, the report folder (DIR/index.html,
 * three.min.js beside it for the page's 3D view) and the heat maps drawn into that folder, each
 * file put in place through the output module (a temporary, then renamed), also when the
 * validation failed. The documents are report.h's writers'; this file turns a validate result
 * into their vks_report and finds three.js. */
#include <stdlib.h>
#include <string.h>

#include "check/validate_text.h"
#include "core/path_join.h"
#include "vkskin/output.h"
#include "vkskin/render.h"
#include "vkskin/vat_write.h"
#include "vkskin/version.h"

enum { HEAT_W = 480, HEAT_H = 360 };

const char *vks_validate_heatmap_missing(const vks_report_file *file)
{
    const vks_error_map *m = file->position_errors;
    if (!file->skin || !file->skin->vertex_count)
        return "the model has no vertices";
    if (!m || m->worst < 0)
        return "no instance of it was compared";
    return NULL;
}

/* The worst instance drawn on gpu, its vertices coloured by their error, as a PNG at path. */
static vks_result draw_png(vks_gpu *gpu, const vks_report_file *file, const char *path, vks_error *err)
{
    const vks_error_map *m = file->position_errors;
    uint8_t *colors = malloc((size_t)m->vertices * 4 + 4);
    if (!colors)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "heat map", "out of memory");
    for (uint32_t v = 0; v < m->vertices; v++) {
        vks_report_error_color(m->error[v], colors + (size_t)v * 4);
        colors[(size_t)v * 4 + 3] = 255;
    }
    const vks_skin *skins[1] = {file->skin};
    vks_render_desc desc = {0};
    desc.skins = skins, desc.skin_count = 1, desc.width = HEAT_W, desc.height = HEAT_H;
    vks_render *rd = NULL;
    uint32_t model = 0, w = 0, h = 0;
    vks_result res = vks_render_create(gpu, &desc, &rd, err);
    if (res == VKS_OK)
        res = vks_render_host_colored(rd, &model, 1, m->positions, m->normals, colors, err);
    if (res == VKS_OK) {
        vks_png_image im = {vks_render_pixels(rd, &w, &h), 0, 0, 8, 4, 0, 0};
        im.width = w, im.height = h;
        res = vks_png_write(path, &im, err);
    }
    vks_render_destroy(rd);
    free(colors);
    return res;
}

vks_result vks_validate_draw_heatmap(vks_gpu *gpu, const vks_report_file *file, const char *dir, uint32_t device,
                                     uint32_t index, char *name, size_t name_size, vks_error *err)
{
    if (name && name_size)
        name[0] = 0;
    if (!gpu || !file || !dir || !name || name_size < 2)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "heat map", "no context, file, folder or name");
    const char *none = vks_validate_heatmap_missing(file);
    if (none)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "heat map", "%s", none);
    char own[64];
    snprintf(own, sizeof own, "heatmap_d%u_f%u.png", device, index);
    char *path = vks__path_join(dir, own);
    vks_result res = path ? draw_png(gpu, file, path, err)
                          : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "heat map", "out of memory");
    free(path);
    if (res == VKS_OK)
        snprintf(name, name_size, "%s", own);
    return res;
}

/* three.js for the page: the options', else $VKSKIN_THREE_JS, else the copy the build fetched
 * from npm; NULL: none (an empty name says so on purpose). */
static const char *three_source(const vks_validate_report_options *o)
{
    const char *src = o && o->three_js ? o->three_js : getenv("VKSKIN_THREE_JS");
    if (src)
        return *src ? src : NULL;
#ifdef VKSKIN_THREE_JS_BUILD
    return VKSKIN_THREE_JS_BUILD;
#else
    return NULL;
#endif
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *b = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (f)
        fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return b;
}

/* Copies the script beside the page; 0 with why in `why` when it cannot (the page says it). */
static int copy_three(const vks_validate_report_options *o, const char *dir, char *why, size_t why_size)
{
    const char *src = three_source(o);
    if (!src) {
        snprintf(why, why_size, "three.js was not available when vkskin was built (npm install three; or set "
                                "VKSKIN_THREE_JS to a three.min.js)");
        return 0;
    }
    size_t size = 0;
    uint8_t *bytes = read_all(src, &size);
    if (!bytes) {
        snprintf(why, why_size, "three.js could not be read from %s", src);
        return 0;
    }
    char *path = vks__path_join(dir, "three.min.js");
    vks_output *out = NULL;
    vks_error err = {0};
    int ok = 0;
    if (path && vks_output_open(&out, path, &err) == VKS_OK) {
        fwrite(bytes, 1, size, vks_output_stream(out));
        ok = vks_output_close(out, 1, &err) == VKS_OK;
    }
    if (!ok)
        snprintf(why, why_size, "three.js could not be copied beside the page: %s", err.msg);
    free(path), free(bytes);
    return ok;
}

typedef vks_result (*writer)(const vks_report *r, FILE *f, vks_error *err);

static vks_result write_one(const char *path, writer w, const vks_report *rep, vks_error *err)
{
    vks_output *o = NULL;
    vks_result res = vks_output_open(&o, path, err);
    if (res == VKS_OK) {
        res = w(rep, vks_output_stream(o), err);
        vks_result closed = vks_output_close(o, res == VKS_OK, err);
        res = res == VKS_OK ? closed : res;
    }
    return res;
}

/* Writes through w (the JUnit or the page) what r says, at path. */
static vks_result write_report(const vks_validate_result *r, const vks_validate_report_options *o, const char *path,
                               writer w, const char *dir, vks_error *err)
{
    vks_report_device *rd = calloc(r->device_count + 1, sizeof *rd);
    if (!rd)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "report", "out of memory");
    for (uint32_t k = 0; k < r->device_count; k++)
        vks_validate_report_device(&r->devices[k], &rd[k]);
    vks_report rep = {0};
    rep.version = vks_version_string();
    rep.command = o ? o->command : NULL, rep.against = o ? o->against : NULL;
    rep.tolerance_scale = r->tolerance_scale, rep.nmse = r->nmse;
    rep.devices = rd, rep.device_count = r->device_count;
    rep.exit_code = r->exit_code;
    char sample[400], why[512] = "";
    for (uint32_t k = r->device_count; k-- > 0;) /* the last run's sample (every run draws the same) */
        if (r->devices[k].sampled && (r->devices[k].ran || k == 0)) {
            vks__validate_sample_said(&r->devices[k], sample, sizeof sample), rep.sample = sample;
            break;
        }
    if (dir) {
        if (copy_three(o, dir, why, sizeof why))
            rep.three_js = "three.min.js";
        else
            rep.three_js_missing = why;
    }
    vks_result res = write_one(path, w, &rep, err);
    free(rd);
    return res;
}

vks_result vks_validate_write_junit(const vks_validate_result *r, const vks_validate_report_options *o,
                                    const char *path, vks_error *err)
{
    if (!r || !path)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "junit", "no result or path");
    return write_report(r, o, path, vks_report_junit, NULL, err);
}

vks_result vks_validate_write_report(const vks_validate_result *r, const vks_validate_report_options *o,
                                     const char *dir, vks_error *err)
{
    if (!r || !dir)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "report", "no result or folder");
    char *path = vks__path_join(dir, "index.html");
    vks_result res = path ? write_report(r, o, path, vks_report_html, dir, err)
                          : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "report", "out of memory");
    free(path);
    return res;
}
