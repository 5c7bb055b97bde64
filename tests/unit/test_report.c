/* Error maps and the report writers (report.h) on numbers worked out by hand: which bin an
 * error lands in, which instance is the worst and which vertices are over, a thread's map
 * merged into another, and the JUnit XML and HTML page of a run with a failing file, a
 * passing one and a device that could not run (counts, escaping, the tolerances printed). */
#include <math.h>
#include <string.h>

#include "testutil.h"

/* The text a writer produced, from a temporary file. */
static char *written(vks_result (*w)(const vks_report *, FILE *, vks_error *), const vks_report *r)
{
    FILE *f = tmpfile();
    vks_error err = {0};
    CHECK(f && w(r, f, &err) == VKS_OK);
    if (!f)
        return NULL;
    long n = ftell(f);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        CHECK(0);
    fclose(f);
    return s;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

static void test_map(void)
{
    vks_error_map m, part;
    vks_diff_tolerance tol = {1e-3, 0, 0, 1e-9}; /* 1e-3 x the radius (1), nothing relative */
    CHECK(vks_error_map_init(&m, 2) == VKS_OK);
    CHECK(vks_error_map_init(&part, 2) == VKS_OK);
    /* instance 0: vertex 0 off by 6e-4 in y (error 0.6), vertex 1 exact;
       instance 1: vertex 0 exact, vertex 1 off by 2e-3 in z (error 2) */
    float ref[12] = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
    float gpu[12] = {1, 2.0006f, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6.002f};
    float draw[12] = {9, 9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6};
    vks_error_map_add(&m, &tol, 1.0, gpu, ref, 10, 1, NULL, draw, NULL);
    vks_error_map_add(&part, &tol, 1.0, gpu + 6, ref + 6, 11, 1, NULL, draw + 6, NULL);
    CHECK_NEAR(m.worst, 0.6, 1e-3);
    CHECK_EQ_INT(m.worst_instance, 10);
    vks_error_map_merge(&m, &part);
    CHECK_EQ_INT(m.worst_instance, 11);
    CHECK_NEAR(m.worst, 2.0, 1e-2);
    CHECK_NEAR(m.error[1], 2.0, 1e-2);
    CHECK_NEAR(m.error[0], 0.0, 1e-9);
    CHECK_NEAR(m.max_error[0], 0.6, 1e-3);
    CHECK_NEAR(m.max_error[1], 2.0, 1e-2);
    CHECK(m.positions[0] == 7 && m.positions[3] == 6); /* the worst instance's vertices to draw */
    CHECK_EQ_INT(m.hist[0], 2); /* the two exact vertices */
    CHECK_EQ_INT(m.hist[5], 1); /* 0.5 .. 1 */
    CHECK_EQ_INT(m.hist[6], 1); /* 1 .. 10: over */
    uint32_t v[4];
    CHECK_EQ_INT(vks_error_map_over(&m, v, 4), 1);
    CHECK_EQ_INT(v[0], 1);
    CHECK_EQ_INT(vks_error_map_worst_over(&m, v, 4), 1);
    /* an instance's own, larger scale widens its tolerance as in vks_diff_add_scaled */
    double scale = 4.0;
    vks_error_map_reset(&m);
    vks_error_map_add(&m, &tol, 1.0, gpu + 6, ref + 6, 0, 1, &scale, NULL, NULL);
    CHECK_NEAR(m.worst, 0.5, 1e-2);
    CHECK_EQ_INT(vks_error_map_over(&m, v, 4), 0);
    /* exactly the tolerance passes; a NaN is its own bin and over */
    float nan_gpu[6] = {NAN, 2, 3, 4, 5, 6.001f};
    vks_error_map_reset(&m);
    vks_error_map_add(&m, &tol, 1.0, nan_gpu, ref, 0, 1, NULL, NULL, NULL);
    CHECK_EQ_INT(m.hist[VKS_REPORT_BINS - 1], 1);
    CHECK(!isfinite(m.max_error[0]));
    CHECK_EQ_INT(vks_error_map_over(&m, v, 4), 1);
    CHECK_EQ_INT(v[0], 0);
    /* largest first among several */
    float many_ref[12] = {0}, many[12] = {0.002f, 0, 0, 0.005f, 0, 0, 0, 0, 0, 0.003f, 0, 0};
    vks_error_map m4;
    CHECK(vks_error_map_init(&m4, 4) == VKS_OK);
    vks_error_map_add(&m4, &tol, 1.0, many, many_ref, 0, 1, NULL, NULL, NULL);
    CHECK_EQ_INT(vks_error_map_over(&m4, v, 2), 3);
    CHECK(v[0] == 1 && v[1] == 3);
    vks_error_map_free(&m4);
    vks_error_map_free(&m);
    vks_error_map_free(&part);
}

static void test_colors(void)
{
    uint8_t lo[3], at[3], far[3];
    vks_report_error_color(0, lo);
    vks_report_error_color(1, at);
    vks_report_error_color(1e6, far);
    CHECK(lo[2] > lo[0]);                  /* blue: far under the tolerance */
    CHECK(at[0] > 200 && at[1] < 60);      /* red: at it */
    CHECK(far[0] > 200 && far[2] > 200);   /* magenta: far over */
}

static void test_writers(void)
{
    vks_diff_report good = {0}, bad = {0};
    good.pass = 1, good.tolerance = vks_diff_default_tolerance(), good.radius = 1;
    bad = good;
    bad.pass = 0, bad.over = 3, bad.compared = 30, bad.max_abs = 0.5, bad.worst_vertex = 7;
    vks_error_map m;
    CHECK(vks_error_map_init(&m, 1) == VKS_OK);
    vks_report_file files[2] = {{0}, {0}};
    files[0].path = "a<&>\"b'.dff", files[0].format = "renderware", files[0].vertices = 1, files[0].poses = 2;
    files[0].positions = bad, files[0].normals = good, files[0].position_errors = &m, files[0].bind_pass = 1;
    files[1].path = "c.nif", files[1].format = "nif", files[1].positions = good, files[1].normals = good;
    files[1].bind_pass = 0, files[1].bind_allowed = 0; /* a bind-pose failure is its own failing case */
    files[0].seconds = 0.5, files[0].bind_seconds = 0.125, files[1].seconds = -1; /* -1: not measured */
    vks_report_device devs[2] = {{0}, {0}};
    devs[0].name = "llvmpipe (LLVM 15.0.6, 256 bits)", devs[0].type = "cpu", devs[0].files = files, devs[0].file_count = 2;
    devs[0].validation_layer = 1, devs[0].exit_code = 6;
    devs[1].name = "other 1.2", devs[1].type = "discrete", devs[1].error = "device lost", devs[1].exit_code = 5;
    devs[1].seconds = 2;
    vks_report r = {0};
    r.version = "9.9.9", r.tolerance_scale = 2.5, r.nmse = 3e-9, r.devices = devs, r.device_count = 2;
    r.exit_code = 6, r.three_js_missing = "no three here";
    char *x = written(vks_report_junit, &r);
    CHECK(x != NULL);
    if (x) {
        /* device 0: 2 files x (positions, normals, bind pose) + the validation layer = 7 cases,
           2 failing (positions of a, bind pose of c); device 1: one error */
        CHECK(strstr(x, "<testsuites name=\"vkskin validate\" tests=\"8\" failures=\"2\" errors=\"1\"") != NULL);
        CHECK(strstr(x, "tests=\"7\" failures=\"2\" errors=\"0\"") != NULL);
        CHECK_EQ_INT(count(x, "<testcase "), 8);
        CHECK_EQ_INT(count(x, "<failure "), 2);
        CHECK_EQ_INT(count(x, "<error "), 1);
        CHECK(strstr(x, "a&lt;&amp;&gt;&quot;b&#39;_dff") != NULL);
        CHECK(strstr(x, "a<&") == NULL);
        CHECK(strstr(x, "<property name=\"tolerance_scale\" value=\"2.5\"/>") != NULL);
        CHECK(strstr(x, "<property name=\"nmse\" value=\"3e-09\"/>") != NULL);
        CHECK(strstr(x, "tolerance scale 2.5, NMSE bound 3e-09") != NULL);
        CHECK(strstr(x, "worst vertex 7") != NULL);
        /* no dot inside a part of a class name (CI servers split class names at dots): package
           validate.DEVICE, class FILE */
        CHECK(strstr(x, "classname=\"validate.llvmpipe (LLVM 15_0_6, 256 bits).a&lt;&amp;&gt;&quot;b&#39;_dff\" "
                        "name=\"positions\"") != NULL);
        CHECK(strstr(x, "classname=\"validate.llvmpipe (LLVM 15_0_6, 256 bits).c_nif\" name=\"bind pose\"") != NULL);
        CHECK(strstr(x, "classname=\"validate.llvmpipe (LLVM 15_0_6, 256 bits)\" name=\"validation layer\"") != NULL);
        CHECK(strstr(x, "classname=\"validate.other 1_2\" name=\"device\" time=\"2.000000\"") != NULL);
        /* each case's time: a file's seconds shared by positions and normals, its bind check's */
        CHECK(strstr(x, "b&#39;_dff\" name=\"positions\" time=\"0.250000\"") != NULL);
        CHECK(strstr(x, "b&#39;_dff\" name=\"normals\" time=\"0.250000\"") != NULL);
        CHECK(strstr(x, "b&#39;_dff\" name=\"bind pose\" time=\"0.125000\"") != NULL);
        CHECK(strstr(x, "c_nif\" name=\"positions\" time=\"0.000000\"") != NULL);
        CHECK(strstr(x, "name=\"validation layer\" time=\"0.000000\"") != NULL);
        CHECK_EQ_INT(count(x, " time=\""), 8 + 3); /* every case, every suite, the suites' root */
    }
    char *h = written(vks_report_html, &r);
    CHECK(h != NULL);
    if (h) {
        CHECK_EQ_INT(count(h, "<tr class=\"fail\">"), 2);
        CHECK(strstr(h, "tolerance scale <b>2.5</b>") != NULL);
        CHECK(strstr(h, "NMSE bound <b>3e-09</b>") != NULL);
        CHECK(strstr(h, "could not run: device lost") != NULL);
        CHECK(strstr(h, "a&lt;&amp;&gt;") != NULL);
        CHECK(strstr(h, "<script") == NULL); /* no 3D view: no skin given, no script */
        CHECK(strstr(h, "http") == NULL);    /* nothing fetched from the network */
    }
    free(x), free(h);
    vks_error_map_free(&m);
}

int main(void)
{
    test_map();
    test_colors();
    test_writers();
    return vks_test_finish("test_report");
}
