/* The library inside a host that calls setlocale() for a comma (de_DE): its text numbers stay
 * the C locale's (core/c_numeric.h). Each writer's bytes under de_DE must equal its bytes under
 * "C" (the CMDL and CSKLA writers, JUnit, the HTML report, a CSV vertex cache), and the text
 * readers take "0.5" as before (a crowd file, P3D's material colours, CMDL read back).
 * The de_DE locale is compiled into a temporary folder with localedef (LOCPATH), so the test
 * needs no installed locale (vks_test_comma_locale); it skips (77) where localedef or its
 * sources are missing. The tuning cache's numbers: test_tuning_cache (GPU builds). */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vkskin/bake.h"
#include "vkskin/clip.h"
#include "vkskin/clip_formats.h"
#include "vkskin/crowd_file.h"
#include "vkskin/report.h"

typedef struct outputs {
    uint8_t *cmdl, *cskla, *p3d_bytes, *tube_bytes;
    size_t cmdl_n, cskla_n, p3d_n, tube_n;
    char *junit, *html, *csv;
    size_t junit_n, html_n, csv_n;
    float crowd_start, crowd_speed;
} outputs;

static char *memstream_report(vks_result (*fn)(const vks_report *, FILE *, vks_error *), const vks_report *r,
                              size_t *n)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, n);
    vks_error err = {0};
    CHECK(f && fn(r, f, &err) == VKS_OK);
    if (f)
        fclose(f);
    return text;
}

static void run_all(outputs *o, const char *csv_path)
{
    vks_error err = {0};
    vks_skin *s = NULL, *p3d = NULL;
    vks_clip_set *set = NULL;
    CHECK(vks_read_file(NULL, vks_test_source_path("datasets/char_b24_pl8.cmdl"), &s, &err) == VKS_OK);
    CHECK(s && vks_cmdl_write(s, NULL, &o->cmdl, &o->cmdl_n, &err) == VKS_OK);
    CHECK(vks_read_clips(NULL, vks_test_source_path("datasets/char_b24_pl8.cmdl.walk.cskla"), &set, &err) == VKS_OK);
    CHECK(set && s && vks_cskla_write(set, s, NULL, &o->cskla, &o->cskla_n, &err) == VKS_OK);
    /* the P3D reader's text: a LOD asked for by its resolution ("1.0", strtod), and where the
       real samples are, procedural colour textures ("#(argb,8,8,3)color(0.5,...)", sscanf) */
    vks_read_options ro = {0};
    ro.p3d.lod = "1.0";
    CHECK(vks_read_file(&ro, vks_test_source_path("datasets/char_b24_pl8.p3d"), &p3d, &err) == VKS_OK);
    CHECK(p3d && vks_p3d_write(p3d, NULL, &o->p3d_bytes, &o->p3d_n, &err) == VKS_OK);
    const char *real = getenv("VKSKIN_REAL_DATASETS");
    char tube[1024];
    snprintf(tube, sizeof tube, "%s/p3d/synthetic_skinned_tube.p3d", real ? real : "");
    vks_skin *t = NULL;
    if (real && access(tube, R_OK) == 0) {
        CHECK(vks_read_file(NULL, tube, &t, &err) == VKS_OK);
        CHECK(t && vks_p3d_write(t, NULL, &o->tube_bytes, &o->tube_n, &err) == VKS_OK);
        vks_skin_free(t);
    }

    const char *crowd = "model,clip,start,speed\nhero.dff,walk.anm,0.25,1.5\n";
    vks_crowd_spec *spec = NULL;
    CHECK(vks_crowd_file_parse(crowd, strlen(crowd), "c.csv", &spec, &err) == VKS_OK);
    if (spec) {
        o->crowd_start = spec->instances[0].start, o->crowd_speed = spec->instances[0].speed;
        vks_crowd_spec_free(spec);
    }

    vks_report_file file = {.path = "a.dff", .format = "dff", .vertices = 3, .poses = 2, .seconds = 0.25,
                            .bind_pass = 1, .bind_max_error = 1.5e-7, .bind_tolerance = 2.5e-5};
    vks_report_device dev = {.name = "lavapipe", .type = "cpu", .seconds = 1.5, .files = &file, .file_count = 1};
    vks_report rep = {.version = "x", .tolerance_scale = 1.5, .nmse = 2.5e-9, .devices = &dev, .device_count = 1};
    o->junit = memstream_report(vks_report_junit, &rep, &o->junit_n);
    o->html = memstream_report(vks_report_html, &rep, &o->html_n);

    vks_bake *b = NULL;
    if (s && vks_bake_open(&b, csv_path, VKS_BAKE_CSV, s, 1, 1, &err) == VKS_OK) {
        CHECK(vks_bake_write(b, 0, 0, &s->positions[0][0], s->normals ? &s->normals[0][0] : NULL, &err) == VKS_OK);
        CHECK(vks_bake_close(b, 1, &err) == VKS_OK);
        o->csv = (char *)vks_test_read_file(csv_path, &o->csv_n);
    }
    vks_clip_set_free(set);
    vks_skin_free(p3d);
    vks_skin_free(s);
}

static void same(const char *what, const void *a, size_t an, const void *b, size_t bn)
{
    int ok = a && b && an == bn && !memcmp(a, b, an);
    if (!ok)
        fprintf(stderr, "  %s: %zu bytes under C, %zu under de_DE%s\n", what, an, bn,
                a && b && an == bn ? " (different)" : "");
    CHECK(ok);
}

int main(void)
{
    char csv_path[] = "test_c_locale.csv";
    outputs c = {0}, de = {0};
    run_all(&c, csv_path);
    char dir[] = "/tmp/vkskin-locale.XXXXXX";
    if (!vks_test_comma_locale(dir)) {
        fprintf(stderr, "test_c_locale: no de_DE locale could be made (localedef, /usr/share/i18n): skipped\n");
        return 77;
    }
    run_all(&de, csv_path);
    same("vks_cmdl_write", c.cmdl, c.cmdl_n, de.cmdl, de.cmdl_n);
    same("vks_cskla_write", c.cskla, c.cskla_n, de.cskla, de.cskla_n);
    same("P3D read and written", c.p3d_bytes, c.p3d_n, de.p3d_bytes, de.p3d_n);
    if (c.tube_bytes || de.tube_bytes)
        same("P3D with colour textures (real sample)", c.tube_bytes, c.tube_n, de.tube_bytes, de.tube_n);
    same("vks_report_junit", c.junit, c.junit_n, de.junit, de.junit_n);
    same("vks_report_html", c.html, c.html_n, de.html, de.html_n);
    same("CSV vertex cache", c.csv, c.csv_n, de.csv, de.csv_n);
    CHECK(c.crowd_start == 0.25f && c.crowd_speed == 1.5f);
    CHECK(de.crowd_start == 0.25f && de.crowd_speed == 1.5f);
    char t[16];
    snprintf(t, sizeof t, "%.1f", 1.5);
    CHECK(!strcmp(t, "1,5")); /* the host's own locale is left as it set it */
    unlink(csv_path);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_c_locale: %s left behind\n", dir);
    free(c.cmdl), free(c.cskla), free(c.p3d_bytes), free(c.tube_bytes), free(c.junit), free(c.html), free(c.csv);
    free(de.cmdl), free(de.cskla), free(de.p3d_bytes), free(de.tube_bytes), free(de.junit), free(de.html), free(de.csv);
    return vks_test_finish("test_c_locale");
}
