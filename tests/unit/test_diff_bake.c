/* Diff metrics (a perturbation over tolerance fails and is located; float noise passes;
 * chunked accumulation equals one call) and the output writers (headers, file vertex order,
 * duplicated vertices collapsed, nothing left under the final name on failure). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "skin_fixture.h"
#include "testutil.h"

static int exists(const char *p)
{
    return access(p, F_OK) == 0;
}

int main(void)
{
    /* ---- diff ---- */
    enum { I = 3, V = 4 };
    float ref[I * V * 3], got[I * V * 3];
    for (int i = 0; i < I * V * 3; i++)
        ref[i] = got[i] = (float)(i % 7) - 3.0f;
    vks_diff_tolerance tol = vks_diff_default_tolerance();
    vks_diff_report r;
    vks_diff(got, ref, I, V, 3.0, &tol, &r);
    CHECK(r.pass && r.over == 0 && r.max_abs == 0 && r.nmse == 0);
    got[(1 * V + 2) * 3 + 1] += 1e-6f; /* float noise: passes */
    vks_diff(got, ref, I, V, 3.0, &tol, &r);
    CHECK(r.pass);
    got[(2 * V + 3) * 3 + 0] += 0.01f; /* a visible fault */
    vks_diff(got, ref, I, V, 3.0, &tol, &r);
    CHECK(!r.pass);
    CHECK_EQ_INT(r.over, 1);
    CHECK_EQ_INT(r.worst_instance, 2);
    CHECK_EQ_INT(r.worst_vertex, 3);
    CHECK_NEAR(r.max_abs, 0.01, 1e-6);
    CHECK_NEAR(r.max_rel, 0.01 / 3.0, 1e-6);
    vks_diff_acc acc;
    vks_diff_report r2;
    vks_diff_begin(&acc, 3.0, &tol);
    for (int i = 0; i < I; i++)
        vks_diff_add(&acc, got + i * V * 3, ref + i * V * 3, (uint32_t)i, 1, V);
    vks_diff_end(&acc, &r2);
    CHECK(r2.over == r.over && r2.worst_instance == r.worst_instance && r2.worst_vertex == r.worst_vertex);
    CHECK_NEAR(r2.nmse, r.nmse, 1e-15);
    got[0] = NAN;
    vks_diff(got, ref, I, V, 3.0, &tol, &r);
    CHECK(!r.pass && r.over == 2);

    /* ---- bake ---- */
    const float zero[3] = {0, 0, 0};
    vks_skin *s = vks_fixture_two_bones(zero, 0, 0);
    float pos[5 * 3], nrm[5 * 3];
    for (uint32_t v = 0; v < s->vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            pos[v * 3 + k] = (float)(s->source_vertex[v] * 10 + k);
            nrm[v * 3 + k] = (float)k;
        }
    char dir[] = "/tmp/vks_bake_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    vks_error err = {0};
    vks_bake *b;

    snprintf(path, sizeof path, "%s/out.csv", dir);
    CHECK(vks_bake_open(&b, path, VKS_BAKE_CSV, s, 2, 1, &err) == VKS_OK);
    CHECK(vks_bake_write(b, 0, 0, pos, nrm, &err) == VKS_OK);
    CHECK(vks_bake_write(b, 0, 0, pos, nrm, &err) != VKS_OK); /* out of order */
    CHECK(vks_bake_write(b, 1, 0, pos, nrm, &err) == VKS_OK);
    CHECK(!exists(path)); /* nothing under the final name before close */
    CHECK(vks_bake_close(b, 1, &err) == VKS_OK);
    size_t n = 0;
    char *text = (char *)vks_test_read_file(path, &n);
    CHECK(text && n > 0);
    if (text) {
        text = realloc(text, n + 1);
        text[n] = 0;
        CHECK(strncmp(text, "instance,frame,mesh,vertex,x,y,z,nx,ny,nz\n0,0,0,0,0,1,2,0,1,2\n", 62) == 0);
        CHECK(strstr(text, "\n1,0,0,4,40,41,42,0,1,2\n") != NULL);
        int lines = 0;
        for (size_t i = 0; i < n; i++)
            lines += text[i] == '\n';
        CHECK_EQ_INT(lines, 1 + 2 * 5); /* each file vertex once per pose */
        free(text);
    }

    snprintf(path, sizeof path, "%s/out.pc2", dir);
    CHECK(vks_bake_open(&b, path, VKS_BAKE_PC2, s, 1, 2, &err) == VKS_OK);
    CHECK(vks_bake_write(b, 0, 0, pos, nrm, &err) == VKS_OK);
    CHECK(vks_bake_write(b, 0, 1, pos, nrm, &err) == VKS_OK);
    CHECK(vks_bake_close(b, 1, &err) == VKS_OK);
    uint8_t *pc2 = vks_test_read_file(path, &n);
    CHECK(pc2 && n == 32 + 2 * 5 * 12);
    if (pc2) {
        CHECK(memcmp(pc2, "POINTCACHE2\0", 12) == 0);
        int32_t hdr[5];
        memcpy(hdr, pc2 + 12, 20);
        CHECK(hdr[0] == 1 && hdr[1] == 5 && hdr[4] == 2);
        float f;
        memcpy(&f, pc2 + 32 + 12 * 4, 4);
        CHECK_NEAR(f, 40.0, 0);
        free(pc2);
    }

    /* an aborted output leaves nothing behind, also no temporary */
    snprintf(path, sizeof path, "%s/aborted.raw", dir);
    CHECK(vks_bake_open(&b, path, VKS_BAKE_RAW, s, 1, 1, &err) == VKS_OK);
    CHECK(vks_bake_close(b, 1, &err) != VKS_OK); /* incomplete: refused */
    CHECK(!exists(path));
    snprintf(path, sizeof path, "%s/out.obj", dir);
    memset(&err, 0, sizeof err);
    CHECK(vks_bake_open(&b, path, VKS_BAKE_OBJ, s, 2, 1, &err) == VKS_ERR_INVALID);
    snprintf(path, sizeof path, "%s/no/such/dir/out.csv", dir);
    memset(&err, 0, sizeof err);
    CHECK(vks_bake_open(&b, path, VKS_BAKE_CSV, s, 1, 1, &err) == VKS_ERR_IO && err.msg[0]);

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    vks_skin_free(s);
    return vks_test_finish("test_diff_bake");
}
