/* What every host does around a reader, once (formats.h, clip_formats.h): a model read,
 * validated and its lost influences said; a clip file's bytes read by the reader its bytes and
 * name pick, pose JSON against a model; and the one-line message of a failed load. The CLI and
 * the bake job engine had each their own copy of these, with the formats typed into a message;
 * the list is the registry's now, so a format added there shows here. */
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "registry.h"

vks_result vks_load_model(const vks_read_options *opt, const char *path, vks_skin **out, vks_error *err)
{
    if (!path || !out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "file", "path and out must not be NULL");
    vks_skin *skin = NULL;
    vks_result r = vks_read_file(opt, path, &skin, err);
    if (r == VKS_OK)
        r = vks_skin_validate(skin, err);
    if (r != VKS_OK) {
        vks_skin_free(skin);
        return r;
    }
    const vks_logger *log = opt ? &opt->logger : NULL;
    /* no host deforms a model that lost influences unsaid */
    if (skin->weights.truncated)
        vks__log(log, VKS_LOG_WARNING,
                 "%s: warning: %u vertices lost influences: the %u largest kept and renormalised, the largest "
                 "weight dropped %.6g", path, skin->weights.truncated, VKS_MAX_INFLUENCES,
                 (double)skin->weights.truncated_max_weight);
    if (skin->weights.rule_dropped) /* the format's engines drop them too: said, not a warning */
        vks__log(log, VKS_LOG_INFO,
                 "%s: note: %u vertices store more weights than %s's engines skin with (4 a vertex); the "
                 "largest are kept and renormalised as they keep them, the largest weight dropped %.6g",
                 path, skin->weights.rule_dropped, skin->format ? skin->format : "the format",
                 (double)skin->weights.rule_dropped_max);
    *out = skin;
    return VKS_OK;
}

const char *vks_load_error_format(const vks_error *err, const char *path, const char *limit_hint, char *buf,
                                  size_t size)
{
    if (!buf || size == 0)
        return "";
    if (!strcmp(err->path, "file") && !err->file[0]) /* the file as a whole: said plainly */
        snprintf(buf, size, "%s: %s%s%s", path ? path : "", err->msg,
                 err->code == VKS_ERR_LIMIT && limit_hint ? " " : "",
                 err->code == VKS_ERR_LIMIT && limit_hint ? limit_hint : "");
    else
        vks_error_format(err, path, buf, size);
    return buf;
}

/* exts joined by spaces after at bytes of out. */
static size_t join_extensions(const char *const *exts, char *out, size_t at, size_t cap)
{
    for (; exts && *exts && at < cap; exts++)
        at += (size_t)snprintf(out + at, cap - at, " %s", *exts);
    return at;
}

const char *vks_clip_format_list(char *out, size_t cap)
{
    size_t at = 0;
    if (!out || cap == 0)
        return "";
    out[0] = 0;
    for (uint32_t i = 0; i < vks_format_count() && at < cap; i++) {
        const vks_format_info *info = vks_format_at(i);
        if (!info->clip_extensions || !info->clip_extensions[0])
            continue;
        at += (size_t)snprintf(out + at, cap - at, "%s%s", at ? ", " : "", info->title);
        at = join_extensions(info->clip_extensions, out, at, cap);
    }
    return out;
}

vks_result vks_read_clip_bytes(const vks_read_options *opt, const char *path, const void *bytes, size_t size,
                               const vks_skin *json_skin, vks_clip_set **out, vks_error *err)
{
    if (!out || (!bytes && size))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "file", "bytes and out must not be NULL");
    vks_read_options ro = opt ? *opt : (vks_read_options){0};
    ro.gltf.path = path; /* a .gltf's external buffers sit beside it */
    if (json_skin && vks__name_has_ext(path, ".json"))
        return vks_pose_json_clip_read(json_skin, &ro, bytes, size, out, err);
    vks_clip_reader_fn read = vks_detect_clip_format(bytes, size, path, NULL);
    if (read)
        return read(&ro, bytes, size, out, err);
    char list[160];
    return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "file",
                         "not a clip file vkskin reads (%s, or pose JSON named .json)",
                         vks_clip_format_list(list, sizeof list));
}
