/* Golden folders for regression runs (validate --save-golden DIR, --against DIR): the library
 * stores and compares the results (vks_validate_golden_*, src/check/validate_golden.c, which
 * says what DIR holds); this file makes the folder, refuses a golden file that is one of the
 * inputs, names the folder's files as inputs, and says on stderr what the library found. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "validate.h"

static char *raw_path(const char *dir, int k)
{
    size_t n = strlen(dir) + 32;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%d.raw", dir, k);
    return p;
}

int vks_golden_refuse_inputs(const char *dir, int nfiles, const vks_output_inputs *in)
{
    int rc = VKS_EXIT_OK;
    for (int k = 0; k < nfiles && rc == VKS_EXIT_OK; k++) {
        char *path = raw_path(dir, k);
        rc = path ? vks_cli_refuse_input(in, "--save-golden", path) : VKS_EXIT_RUNTIME;
        free(path);
    }
    size_t n = strlen(dir) + 16;
    char *path = rc == VKS_EXIT_OK ? malloc(n) : NULL;
    if (path) {
        snprintf(path, n, "%s/golden.json", dir);
        rc = vks_cli_refuse_input(in, "--save-golden", path);
    } else if (rc == VKS_EXIT_OK) {
        rc = VKS_EXIT_RUNTIME;
    }
    free(path);
    return rc;
}

void vks_golden_add_inputs(const char *dir, vks_output_inputs *in)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        struct stat st;
        if (!path) {
            in->nomem = 1;
            break;
        }
        snprintf(path, n, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            vks_output_inputs_add(in, path, "a file of the --against golden");
        free(path);
    }
    if (d)
        closedir(d);
}

/* The files as the library's golden takes them (their skins, names and pose counts) and
 * their model hashes; NULL without memory. */
static vks_validate_input *golden_inputs(const vinput *files, int nfiles, uint64_t **hashes)
{
    vks_validate_input *in = calloc((size_t)nfiles + 1, sizeof *in);
    *hashes = calloc((size_t)nfiles + 1, sizeof **hashes);
    for (int k = 0; in && *hashes && k < nfiles; k++) {
        const vinput *f = &files[k];
        in[k].skin = f->skin, in[k].name = f->path;
        in[k].instances = f->frames ? f->poses / f->frames : 0, in[k].frames = f->frames;
        (*hashes)[k] = f->hash;
    }
    return in && *hashes ? in : NULL;
}

int vks_golden_begin_save(const char *dir, const vinput *files, int nfiles, vks_validate_golden **out)
{
    if (vks_validate_make_dir("--save-golden", dir) != VKS_EXIT_OK)
        return VKS_EXIT_RUNTIME;
    uint64_t *hashes = NULL;
    vks_validate_input *in = golden_inputs(files, nfiles, &hashes);
    vks_error err = {0};
    if (!in || vks_validate_golden_save(dir, in, (uint32_t)nfiles, hashes, out, &err) != VKS_OK) {
        fprintf(stderr, "vkskin validate: --save-golden: %s\n", in ? err.msg : "out of memory");
        free(in), free(hashes);
        return VKS_EXIT_RUNTIME;
    }
    free(in), free(hashes);
    return VKS_EXIT_OK;
}

int vks_golden_finish_save(const char *dir, vks_validate_golden *g, const char *pose_spec, const char *engine,
                           const char *device, int commit)
{
    vks_error err = {0};
    (void)dir;
    if (vks_validate_golden_finish(g, pose_spec, engine, device, commit, &err) != VKS_OK) {
        fprintf(stderr, "vkskin validate: --save-golden: %s\n", err.msg);
        return VKS_EXIT_RUNTIME;
    }
    return VKS_EXIT_OK;
}

int vks_golden_begin_against(const char *dir, const vinput *files, int nfiles, const char *pose_spec,
                             vks_validate_golden **out)
{
    uint64_t *hashes = NULL;
    vks_validate_input *in = golden_inputs(files, nfiles, &hashes);
    vks_error err = {0};
    vks_result rc = in ? vks_validate_golden_against(dir, pose_spec, in, (uint32_t)nfiles, hashes, out, &err)
                       : VKS_ERR_NOMEM;
    free(in), free(hashes);
    if (rc == VKS_ERR_NOMEM)
        return VKS_EXIT_RUNTIME;
    if (rc != VKS_OK) { /* golden.json cannot be read (the reader's words) or is no golden */
        if (rc == VKS_ERR_FORMAT)
            fprintf(stderr, "vkskin validate: --against: %s: %s\n", err.path, err.msg);
        else
            fprintf(stderr, "vkskin: %s/golden.json: %s\n", dir, err.msg);
        return VKS_EXIT_INPUT;
    }
    for (int k = 0; k < nfiles; k++) { /* kept as the file's reason in every report */
        const char *m = vks_validate_golden_mismatch(*out, (uint32_t)k);
        if (m)
            fprintf(stderr, "vkskin validate: --against %s: %s: %s\n", dir, files[k].path, m);
    }
    return VKS_EXIT_OK;
}
