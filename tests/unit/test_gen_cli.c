/* The generator's command line (shared by `vkskin generate` and vkskin-gen): exit codes,
 * option checks, and that --out writes exactly the writer's bytes for the generated model
 * (and nothing else: no temporary file left behind). */
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "character_cli.h"
#include "testutil.h"

static int run(const char *a0, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, a0);
    for (const char *a = a0; a && argc < 31; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    fflush(stdout);
    return vks_gen_cli("vkskin generate", argc, argv);
}

static int count_files(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    const char *bin = getenv("VKSKIN_BINARY_DIR");
    char tmpl[1024];
    snprintf(tmpl, sizeof tmpl, "%s/gen_cli_XXXXXX", bin && *bin ? bin : ".");
    char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir)
        return vks_test_finish("test_gen_cli");
    char out[1200];
    snprintf(out, sizeof out, "%s/hero.dff", dir);

    CHECK_EQ_INT(run("generate", "--help", NULL), 0);
    CHECK_EQ_INT(run("generate", NULL), 2);                                   /* no --out */
    CHECK_EQ_INT(run("generate", "--bogus", NULL), 2);
    CHECK_EQ_INT(run("generate", "--out", NULL), 2);                          /* missing value */
    CHECK_EQ_INT(run("generate", "--bones", "19", "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--bones", "65", "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--bones", "x", "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--influences", "0", "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--influences", "5", "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--seed", "-1", "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--format", "obj", "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--datasets", dir, "--out", out, NULL), 2);
    CHECK_EQ_INT(run("generate", "--datasets", dir, "--formats", "dff,obj", NULL), 2);
    CHECK_EQ_INT(run("generate", "--palette-limit", "2", "--out", out, NULL), 1); /* a triangle needs more */
    CHECK_EQ_INT(count_files(dir), 0);

    /* --out: exactly the writer's bytes for the model with these params, in the format's axes
       (a DFF is Z up) */
    int rc = run("generate", "--bones", "24", "--vertices", "1200", "--palette-limit", "8", "--seed", "5", "--out", out,
                 NULL);
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&(vks_gen_params){.bones = 24, .vertices = 1200, .palette_limit = 8, .seed = 5,
                                                      .frame = VKS_GEN_FRAME_Z_UP},
                                    &err);
    uint8_t *want = NULL;
    size_t want_size = 0;
    vks_write_options wo = {0};
    vks_result wr = vks_rw_write(s, &wo, &want, &want_size, &err);
    if (wr == VKS_ERR_UNSUPPORTED) {
        CHECK_EQ_INT(rc, 5);
    } else {
        CHECK_EQ_INT(rc, 0);
        size_t got_size = 0;
        uint8_t *got = vks_test_read_file(out, &got_size);
        CHECK(got && got_size == want_size && !memcmp(got, want, want_size));
        free(got);
        CHECK_EQ_INT(count_files(dir), 5); /* the model and its 4 clip files, no temporary left */
        CHECK(vks_detect_format(want, want_size, NULL, NULL) == vks_rw_read);
    }
    free(want);
    vks_skin_free(s);
    remove(out);
    static const char *const clip_files[] = {"walk.anm", "wave.anm", "walk.ska", "ifp"};
    for (int k = 0; k < 4; k++) {
        char cp[1300];
        snprintf(cp, sizeof cp, "%s.%s", out, clip_files[k]);
        CHECK(remove(cp) == 0 || wr == VKS_ERR_UNSUPPORTED);
    }

    /* --datasets with a format list writes only those files and the manifest */
    char ds[1200];
    snprintf(ds, sizeof ds, "%s/ds", dir);
    CHECK_EQ_INT(run("generate", "--datasets", ds, "--formats", "dff", NULL), 0);
    int n = count_files(ds);
    CHECK(n == 1 || n == 1 + 5 * VKS_GEN_DATASET_COUNT); /* manifest alone when the DFF writer is missing; else
                                                              each model and its 4 clip files */
    DIR *d = opendir(ds);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(e->d_name);
        /* the models and the clips written beside them (x.dff.walk.anm, x.dff.ifp, ...) */
        CHECK(!strcmp(e->d_name, "MANIFEST.md") || (len > 4 && !strcmp(e->d_name + len - 4, ".dff")) ||
              strstr(e->d_name, ".dff.") != NULL);
        char p[1500];
        snprintf(p, sizeof p, "%s/%s", ds, e->d_name);
        remove(p);
    }
    if (d)
        closedir(d);
    rmdir(ds);
    rmdir(dir);
    return vks_test_finish("test_gen_cli");
}
