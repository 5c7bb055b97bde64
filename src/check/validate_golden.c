/* Golden results for regression runs (validate.h: vks_validate_golden_*, vkskin validate
 * --save-golden DIR, --against DIR).
 *
 * DIR/golden.json says what produced the results: per input its name, model hash (FNV-1a 64 of
 * the file's bytes), format, vertex and pose counts and raw file, and for the run the pose spec
 * (the pose and read options as given), the engine, the device and vkskin's version. DIR/<k>.raw
 * holds input k's GPU results, per pose its positions then its normals (float32).
 * Against a golden the same poses are deformed again and the new GPU results compared with the
 * stored ones by the same metrics and tolerances as the reference comparison (the per-instance
 * scales come from the reference of this run, validate_golden_chunk.c), so a result that moved
 * on another device, driver or vkskin version is named per input, down to its vertices. A
 * golden made of other models, poses or pose counts is refused per input, never compared. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vkskin/formats.h"
#include "vkskin/output.h"
#include "vkskin/validate.h"
#include "vkskin/version.h"
#include "check/golden_json.h"
#include "check/validate_engine.h"
#include "core/path_join.h"

struct vks_validate_golden {
    char *dir;
    uint32_t count;
    vgold *gold;          /* per input: its raw (fd, output) and why it is not compared */
    uint64_t *hash;
    char **name;          /* as golden.json names the input */
    const char **format;
    uint32_t *vertices, *poses;
};

uint64_t vks_validate_model_hash(const void *bytes, size_t size)
{
    const uint8_t *b = bytes;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint32_t poses_of(const vks_validate_input *in)
{
    return in->instances * (in->frames ? in->frames : 1);
}

static vks_result make(const char *dir, const vks_validate_input *inputs, uint32_t count, const uint64_t *hashes,
                       vks_validate_golden **out, vks_error *err)
{
    vks_validate_golden *g = calloc(1, sizeof *g);
    *out = g;
    if (!g || !(g->dir = strdup(dir)) || !(g->gold = calloc(count + 1, sizeof *g->gold)) ||
        !(g->hash = calloc(count + 1, sizeof *g->hash)) || !(g->name = calloc(count + 1, sizeof *g->name)) ||
        !(g->format = calloc(count + 1, sizeof *g->format)) ||
        !(g->vertices = calloc(count + 1, sizeof *g->vertices)) || !(g->poses = calloc(count + 1, sizeof *g->poses)))
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "golden", "out of memory");
    g->count = count;
    for (uint32_t k = 0; k < count; k++) {
        const vks_validate_input *in = &inputs[k];
        g->gold[k].fd = -1;
        g->hash[k] = hashes ? hashes[k] : 0;
        if (!in->skin || !(g->name[k] = strdup(in->name ? in->name : "?")))
            return vks_error_set(err, in->skin ? VKS_ERR_NOMEM : VKS_ERR_INVALID, VKS_NO_OFFSET, "golden",
                                 "input %u: %s", k, in->skin ? "out of memory" : "no skin");
        g->format[k] = in->skin->format ? in->skin->format : "";
        g->vertices[k] = in->skin->vertex_count, g->poses[k] = poses_of(in);
    }
    return VKS_OK;
}

vks_result vks_validate_golden_save(const char *dir, const vks_validate_input *inputs, uint32_t count,
                                    const uint64_t *hashes, vks_validate_golden **out, vks_error *err)
{
    vks_result rc = make(dir, inputs, count, hashes, out, err);
    for (uint32_t k = 0; rc == VKS_OK && k < count; k++) {
        vgold *g = &(*out)->gold[k];
        char raw[32];
        snprintf(raw, sizeof raw, "%u.raw", k);
        char *path = vks__path_join(dir, raw);
        rc = path ? vks_output_open(&g->out, path, err) : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "golden",
                                                                          "out of memory");
        free(path);
        if (rc == VKS_OK)
            g->fd = fileno(vks_output_stream(g->out)); /* written by offset, never through the stream */
    }
    if (rc != VKS_OK) {
        vks_validate_golden_free(*out);
        *out = NULL;
    }
    return rc;
}

/* golden.json's text of what the raws hold. */
static char *golden_json(const vks_validate_golden *g, const char *pose_spec, const char *engine, const char *device)
{
    cJSON *root = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "files");
    cJSON_AddStringToObject(root, "vkskin_version", vks_version_string());
    cJSON_AddStringToObject(root, "engine", engine);
    cJSON_AddStringToObject(root, "device", device);
    cJSON_AddStringToObject(root, "pose_spec", pose_spec);
    cJSON_AddStringToObject(root, "layout", "per pose: positions then normals, vertices x 3 float32 each");
    for (uint32_t k = 0; k < g->count; k++) {
        cJSON *o = cJSON_CreateObject();
        char hash[32], raw[32];
        snprintf(hash, sizeof hash, "%016" PRIx64, g->hash[k]);
        snprintf(raw, sizeof raw, "%u.raw", k);
        cJSON_AddStringToObject(o, "file", g->name[k]);
        cJSON_AddStringToObject(o, "model_hash", hash);
        cJSON_AddStringToObject(o, "format", g->format[k]);
        cJSON_AddNumberToObject(o, "vertices", g->vertices[k]);
        cJSON_AddNumberToObject(o, "poses", g->poses[k]);
        cJSON_AddStringToObject(o, "raw", raw);
        cJSON_AddItemToArray(arr, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

vks_result vks_validate_golden_finish(vks_validate_golden *g, const char *pose_spec, const char *engine,
                                     const char *device, int commit, vks_error *err)
{
    vks_result rc = VKS_OK;
    for (uint32_t k = 0; g && k < g->count; k++) {
        vgold *gd = &g->gold[k];
        vks_error e = {0};
        if (gd->out && gd->io_failed && commit) {
            rc = vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "golden", "writing %s/%u.raw failed: %s", g->dir, k,
                               strerror(gd->io_errno));
            commit = 0;
        }
        if (gd->out && vks_output_close(gd->out, commit, &e) != VKS_OK) {
            if (rc == VKS_OK)
                *err = e, rc = e.code;
            commit = 0;
        }
        gd->out = NULL, gd->fd = -1;
    }
    if (!g || !commit)
        return rc;
    char *text = golden_json(g, pose_spec, engine, device), *path = vks__path_join(g->dir, "golden.json");
    vks_output *out = NULL;
    if (!text || !path)
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "golden", "out of memory");
    else if ((rc = vks_output_open(&out, path, err)) == VKS_OK) {
        fprintf(vks_output_stream(out), "%s\n", text);
        rc = vks_output_close(out, 1, err);
    }
    free(text), free(path);
    return rc;
}

/* Opens the raw of golden entry e for input k, or says why it cannot be compared. */
static const char *match(const vgold_entry *e, const vks_validate_golden *g, uint32_t k, int *fd_out, char *why,
                         size_t why_size)
{
    if (e->hash != g->hash[k]) {
        snprintf(why, why_size, "golden.json: files[%u]: model hash %016" PRIx64 ", this file's is %016" PRIx64
                                " (another model)", k, e->hash, g->hash[k]);
        return why;
    }
    if (e->poses != g->poses[k] || e->vertices != g->vertices[k]) {
        snprintf(why, why_size, "golden.json: files[%u]: %u poses of %u vertices, this run has %u of %u", k, e->poses,
                 e->vertices, g->poses[k], g->vertices[k]);
        return why;
    }
    char *path = vks__path_join(g->dir, e->raw);
    if (!path)
        return "out of memory";
    int fd = open(path, O_RDONLY);
    struct stat st;
    uint64_t need = (uint64_t)g->poses[k] * g->vertices[k] * 6 * sizeof(float);
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

/* golden.json read and checked into doc. */
static vks_result read_doc(const char *dir, vgold_doc *doc, vks_error *err)
{
    char *path = vks__path_join(dir, "golden.json"), why[600];
    void *bytes = NULL;
    size_t size = 0;
    if (!path)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "golden", "out of memory");
    vks_result rc = vks_file_read_default(NULL, path, (uint64_t)1 << 30, &bytes, &size, err);
    if (rc == VKS_OK && !vks__golden_parse((const char *)bytes, size, doc, why, sizeof why))
        rc = vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "%s", why);
    free(bytes), free(path);
    return rc;
}

vks_result vks_validate_golden_against(const char *dir, const char *pose_spec, const vks_validate_input *inputs,
                                       uint32_t count, const uint64_t *hashes, vks_validate_golden **out,
                                       vks_error *err)
{
    vgold_doc doc = {0};
    vks_result rc = make(dir, inputs, count, hashes, out, err);
    if (rc == VKS_OK)
        rc = read_doc(dir, &doc, err);
    for (uint32_t k = 0; rc == VKS_OK && k < count; k++) {
        vgold *g = &(*out)->gold[k];
        char why[600];
        const char *m = NULL;
        if (strcmp(doc.pose_spec, pose_spec ? pose_spec : ""))
            m = why, snprintf(why, sizeof why, "the golden was made with the pose options \"%.200s\", this run has "
                                               "\"%.200s\"", doc.pose_spec, pose_spec ? pose_spec : "");
        else if ((int)k >= doc.count)
            m = "the golden holds fewer files than this run";
        else
            m = match(&doc.files[k], *out, k, &g->fd, why, sizeof why);
        if (m && !(g->mismatch = strdup(m))) /* kept as the input's reason in every report */
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "golden", "out of memory");
    }
    vks__golden_doc_free(&doc);
    if (rc != VKS_OK) {
        vks_validate_golden_free(*out);
        *out = NULL;
    }
    return rc;
}

const char *vks_validate_golden_mismatch(const vks_validate_golden *g, uint32_t input)
{
    return g && input < g->count ? g->gold[input].mismatch : NULL;
}

int vks__validate_golden_saves(const vks_validate_golden *g)
{
    for (uint32_t k = 0; g && k < g->count; k++)
        if (g->gold[k].out)
            return 1;
    return 0;
}

vgold *vks__validate_golden_of(vks_validate_golden *g, uint32_t input)
{
    return g && input < g->count ? &g->gold[input] : NULL;
}

void vks_validate_golden_free(vks_validate_golden *g)
{
    if (!g)
        return;
    for (uint32_t k = 0; g->gold && k < g->count; k++) {
        vgold *gd = &g->gold[k];
        if (gd->out) {
            vks_error err = {0};
            vks_output_close(gd->out, 0, &err);
        } else if (gd->fd >= 0) {
            close(gd->fd);
        }
        free(gd->buf);
        free((char *)gd->mismatch);
    }
    for (uint32_t k = 0; g->name && k < g->count; k++)
        free(g->name[k]);
    free(g->dir), free(g->gold), free(g->hash), free(g->name), free((void *)g->format), free(g->vertices),
        free(g->poses);
    free(g);
}
