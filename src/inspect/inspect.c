/* vkskin inspect as a library call (inspect.h): tells a clip file from a model, reads it, runs
 * the checks, and writes the report as text or JSON; the vkskin program prints what it returns. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/c_numeric.h"
#include "core/text_name.h"
#include "inspect/findings.h"
#include "inspect/inspect_internal.h"

static const vks_logger *logger_of(const vks_inspect_options *opt)
{
    return opt->logger.func ? &opt->logger : &opt->read.logger;
}

vks_result vks_inspect_model(const char *path, const vks_skin *skin, const vks_inspect_options *opt,
                             vks_inspect **out, vks_error *err)
{
    const vks_inspect_options none = {0};
    opt = opt ? opt : &none;
    vks_inspect *in = vks__inspect_new(path, err);
    if (!in)
        return VKS_ERR_NOMEM;
    in->skin = skin;
    in->allow_mismatch = opt->allow_bind_mismatch;
    vks_result r = vks__bind_check_say(in->path, skin, in->allow_mismatch, logger_of(opt), &in->bc, &in->exit_code,
                                       err);
    if (r != VKS_OK) {
        vks_inspect_free(in);
        return r;
    }
    vks_skin_stats_compute(skin, &in->st);
    *out = in;
    return VKS_OK;
}

vks_result vks_inspect_bytes(const char *path, const uint8_t *bytes, size_t size, const vks_inspect_options *opt,
                             vks_inspect **out, vks_error *err)
{
    const vks_inspect_options none = {0};
    opt = opt ? opt : &none;
    if (vks_inspect_is_clip_file(path, bytes, size, &opt->read, opt->model != NULL, opt->clips))
        return vks_inspect_clip_bytes(path, bytes, size, opt, out, err);
    vks_skin *skin = NULL;
    vks_result r = vks_load_model_bytes(&opt->read, path, bytes, size, &skin, err);
    if (r == VKS_OK)
        r = vks_inspect_model(path, skin, opt, out, err);
    if (r != VKS_OK) {
        vks_skin_free(skin);
        return r;
    }
    (*out)->owned_skin = skin;
    return VKS_OK;
}

vks_result vks_inspect_file(const char *path, const vks_inspect_options *opt, vks_inspect **out, vks_error *err)
{
    const vks_inspect_options none = {0};
    opt = opt ? opt : &none;
    const vks_file_options *fo = &opt->read.file;
    uint64_t max = fo->max_size ? fo->max_size : (uint64_t)2 << 30; /* the read options' default */
    void *bytes = NULL;
    size_t size = 0;
    vks_result r = fo->read ? fo->read(fo->user, path, max, &bytes, &size, err)
                            : vks_file_read_default(NULL, path, max, &bytes, &size, err);
    if (r != VKS_OK)
        return r;
    r = vks_inspect_bytes(path, bytes, size, opt, out, err);
    if (fo->read && fo->release)
        fo->release(fo->user, bytes);
    else if (!fo->read)
        vks_file_release_default(NULL, bytes);
    return r;
}

static vks_result write_text(const vks_inspect *in, FILE *f, vks_error *err)
{
    if (in->skin)
        vks__model_text(f, in);
    else
        vks__clips_text(f, in);
    if (ferror(f))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "inspect/text", "write failed: %s", strerror(errno));
    return VKS_OK;
}

vks_result vks_inspect_write_text(const vks_inspect *in, FILE *f, vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, write_text(in, f, err));
}

/* cJSON_Print's text (which escapes the controls) with every byte that is not UTF-8 replaced
 * by \ufffd, so that a name from a file in another encoding does not make the document invalid. */
static char *json_utf8(const char *json)
{
    size_t n = strlen(json);
    char *out = malloc(n * 6 + 1); /* each byte at most "\ufffd" */
    if (!out)
        return NULL;
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *)json; *p;) {
        size_t len = vks__utf8_length(p);
        if (len) {
            memcpy(out + at, p, len), at += len, p += len;
        } else { /* only inside a string: cJSON writes its structure in ASCII */
            memcpy(out + at, "\\ufffd", 6), at += 6, p++;
        }
    }
    out[at] = '\0';
    return out;
}

static char *inspect_json(const vks_inspect *const *in, uint32_t count, int as_array)
{
    cJSON *root = count == 1 && !as_array ? NULL : cJSON_CreateArray();
    for (uint32_t i = 0; i < count; i++) {
        cJSON *o = in[i]->skin ? vks__model_json(in[i]) : vks__clips_json(in[i]);
        if (!root)
            root = o;
        else
            cJSON_AddItemToArray(root, o);
    }
    char *text = root ? cJSON_Print(root) : NULL, *utf8 = text ? json_utf8(text) : NULL;
    free(text);
    cJSON_Delete(root);
    return utf8;
}

char *vks_inspect_json(const vks_inspect *const *in, uint32_t count, int as_array)
{
    VKS_RETURN_IN_C_NUMERIC(char *, inspect_json(in, count, as_array));
}

vks_result vks_inspect_write_json(const vks_inspect *const *in, uint32_t count, int as_array, FILE *f,
                                  vks_error *err)
{
    char *s = vks_inspect_json(in, count, as_array);
    if (!s)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "inspect/json", "out of memory for the report");
    int bad = fprintf(f, "%s\n", s) < 0 || ferror(f);
    free(s);
    if (bad)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "inspect/json", "write failed: %s", strerror(errno));
    return VKS_OK;
}
