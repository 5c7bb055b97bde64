/* Golden results for regression runs (validate --save-golden DIR, --against DIR).
 *
 * DIR/golden.json says what produced the results: per file its name, model hash (FNV-1a 64 of
 * the file's bytes), format, vertex and pose counts and raw file, and for the run the pose spec
 * (the pose and read options as given), the engine, the device and vkskin's version. DIR/<k>.raw
 * holds file k's GPU results, per pose its positions then its normals (float32).
 * --against deforms the same poses again and compares the new GPU results with the stored ones
 * by the same metrics and tolerances as the reference comparison (the per-instance scales come
 * from the reference of this run), so a result that moved on another device, driver or vkskin
 * version is named per file, down to its vertices. A golden made of other models, poses or
 * pose counts is refused per file, never compared. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golden_json.h"
#include "validate.h"

static size_t pose_floats(const vfile *f)
{
    return (size_t)f->skin->vertex_count * 6;
}

static char *raw_path(const char *dir, int k)
{
    size_t n = strlen(dir) + 32;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%d.raw", dir, k);
    return p;
}

int vks_golden_refuse_inputs(const char *dir, int nfiles, const vks_cli_inputs *in)
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

void vks_golden_add_inputs(const char *dir, vks_cli_inputs *in)
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
            vks_cli_inputs_add(in, path, "a file of the --against golden");
        free(path);
    }
    if (d)
        closedir(d);
}

int vks_golden_begin_save(const char *dir, vfile *files, int nfiles)
{
    if (vks_validate_make_dir("--save-golden", dir) != VKS_EXIT_OK)
        return VKS_EXIT_RUNTIME;
    for (int k = 0; k < nfiles; k++) {
        vgold *g = &files[k].gold;
        char *path = raw_path(dir, k);
        vks_error err = {0};
        if (!path || vks_output_open(&g->out, path, &err) != VKS_OK) {
            fprintf(stderr, "vkskin validate: --save-golden: %s\n", path ? err.msg : "out of memory");
            free(path);
            return VKS_EXIT_RUNTIME;
        }
        free(path);
        g->fd = fileno(vks_output_stream(g->out)); /* written by offset, never through the stream */
    }
    return VKS_EXIT_OK;
}

int vks_golden_finish_save(const char *dir, vfile *files, int nfiles, const char *pose_spec, const char *engine,
                           const char *device, int commit)
{
    int rc = VKS_EXIT_OK;
    for (int k = 0; k < nfiles; k++) {
        vgold *g = &files[k].gold;
        vks_error err = {0};
        if (g->io_failed && commit) {
            fprintf(stderr, "vkskin validate: --save-golden: writing %s/%d.raw failed: %s\n", dir, k,
                    strerror(g->io_errno));
            commit = 0, rc = VKS_EXIT_RUNTIME;
        }
        if (g->out && vks_output_close(g->out, commit, &err) != VKS_OK) {
            fprintf(stderr, "vkskin validate: --save-golden: %s\n", err.msg);
            commit = 0, rc = VKS_EXIT_RUNTIME;
        }
        g->out = NULL, g->fd = -1;
    }
    if (!commit)
        return rc;
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "files");
    cJSON_AddStringToObject(root, "vkskin_version", vks_version_string());
    cJSON_AddStringToObject(root, "engine", engine);
    cJSON_AddStringToObject(root, "device", device);
    cJSON_AddStringToObject(root, "pose_spec", pose_spec);
    cJSON_AddStringToObject(root, "layout", "per pose: positions then normals, vertices x 3 float32 each");
    for (int k = 0; k < nfiles; k++) {
        const vfile *f = &files[k];
        cJSON *o = cJSON_CreateObject();
        char hash[32], raw[32];
        snprintf(hash, sizeof hash, "%016" PRIx64, f->hash);
        snprintf(raw, sizeof raw, "%d.raw", k);
        cJSON_AddStringToObject(o, "file", f->path);
        cJSON_AddStringToObject(o, "model_hash", hash);
        cJSON_AddStringToObject(o, "format", f->skin->format ? f->skin->format : "");
        cJSON_AddNumberToObject(o, "vertices", f->skin->vertex_count);
        cJSON_AddNumberToObject(o, "poses", f->poses);
        cJSON_AddStringToObject(o, "raw", raw);
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    size_t n = strlen(dir) + 16;
    char *path = malloc(n);
    vks_output *out = NULL;
    vks_error err = {0};
    if (!text || !path) {
        rc = VKS_EXIT_RUNTIME;
    } else {
        snprintf(path, n, "%s/golden.json", dir);
        if (vks_output_open(&out, path, &err) != VKS_OK) {
            fprintf(stderr, "vkskin validate: --save-golden: %s\n", err.msg);
            rc = VKS_EXIT_RUNTIME;
        } else {
            fprintf(vks_output_stream(out), "%s\n", text);
            if (vks_output_close(out, 1, &err) != VKS_OK) {
                fprintf(stderr, "vkskin validate: --save-golden: %s\n", err.msg);
                rc = VKS_EXIT_RUNTIME;
            }
        }
    }
    free(text), free(path);
    return rc;
}

/* Opens the raw of golden entry e for file f, or says why the file cannot be compared. */
static const char *match(const vgold_entry *e, const vfile *f, int k, const char *dir, int *fd_out, char *why,
                         size_t why_size)
{
    if (e->hash != f->hash) {
        snprintf(why, why_size, "golden.json: files[%d]: model hash %016" PRIx64 ", this file's is %016" PRIx64
                                " (another model)", k, e->hash, f->hash);
        return why;
    }
    if (e->poses != f->poses || e->vertices != f->skin->vertex_count) {
        snprintf(why, why_size, "golden.json: files[%d]: %u poses of %u vertices, this run has %u of %u", k, e->poses,
                 e->vertices, f->poses, f->skin->vertex_count);
        return why;
    }
    size_t n = strlen(dir) + strlen(e->raw) + 2;
    char *path = malloc(n);
    if (!path)
        return "out of memory";
    snprintf(path, n, "%s/%s", dir, e->raw);
    int fd = open(path, O_RDONLY);
    struct stat st;
    uint64_t need = (uint64_t)f->poses * pose_floats(f) * sizeof(float);
    if (fd < 0 || fstat(fd, &st) != 0 || (uint64_t)st.st_size != need) {
        snprintf(why, why_size, "%s: %s (expected %" PRIu64 " bytes)", path,
                 fd < 0 ? strerror(errno) : "not the size the golden's poses make", need);
        if (fd >= 0)
            close(fd);
        free(path);
        return why;
    }
    free(path);
    *fd_out = fd;
    return NULL;
}

int vks_golden_begin_against(const char *dir, vfile *files, int nfiles, const char *pose_spec)
{
    size_t n = strlen(dir) + 16;
    char *path = malloc(n), why[600];
    if (!path)
        return VKS_EXIT_RUNTIME;
    snprintf(path, n, "%s/golden.json", dir);
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(path, &size); /* prints why it cannot */
    vgold_doc doc;
    if (!bytes || !vks_golden_parse((const char *)bytes, size, &doc, why, sizeof why)) {
        if (bytes)
            fprintf(stderr, "vkskin validate: --against: %s: %s\n", path, why);
        free(bytes), free(path);
        return VKS_EXIT_INPUT;
    }
    free(bytes);
    for (int k = 0; k < nfiles; k++) {
        vgold *g = &files[k].gold;
        const char *m = NULL;
        if (strcmp(doc.pose_spec, pose_spec))
            m = why, snprintf(why, sizeof why, "the golden was made with the pose options \"%.200s\", this run has "
                                               "\"%.200s\"", doc.pose_spec, pose_spec);
        else if (k >= doc.count)
            m = "the golden holds fewer files than this run";
        else
            m = match(&doc.files[k], &files[k], k, dir, &g->fd, why, sizeof why);
        if (m) { /* kept as the file's reason in every report */
            g->mismatch = strdup(m);
            fprintf(stderr, "vkskin validate: --against %s: %s: %s\n", dir, files[k].path, m);
        }
    }
    vks_golden_doc_free(&doc);
    free(path);
    return VKS_EXIT_OK;
}

void vks_golden_close(vfile *files, int nfiles)
{
    for (int k = 0; k < nfiles; k++) {
        vgold *g = &files[k].gold;
        if (g->out) {
            vks_error err = {0};
            vks_output_close(g->out, 0, &err);
        } else if (g->fd >= 0) {
            close(g->fd);
        }
        g->out = NULL, g->fd = -1;
        free(g->buf);
        g->buf = NULL;
        free((char *)g->mismatch);
        g->mismatch = NULL;
    }
}
