/* What a bake job reads, through the run's host (its logger and input limit): files, the model
 * with its notes, the clip files; and the small helpers the program has too, here so that the
 * engine says exactly what `vkskin bake` always said. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "bake/job_internal.h"
#include "vkskin/pose.h"

const vks_logger *vks__bake_log(const vks__bake_host *h)
{
    return h ? &h->logger : NULL;
}

uint64_t vks__bake_max_input(const vks__bake_host *h)
{
    return h && h->max_input_bytes ? h->max_input_bytes : VKS_BAKE_DEFAULT_MAX_INPUT_BYTES;
}

uint8_t *vks__bake_read_file(const vks__bake_host *h, const char *path, size_t *size)
{
    void *bytes = NULL;
    vks_error err = {0};
    vks_result r = vks_file_read_default(NULL, path, vks__bake_max_input(h), &bytes, size, &err);
    if (r != VKS_OK) {
        vks__log(vks__bake_log(h), VKS_LOG_ERROR, "%s: %s%s", path, err.msg,
                 r == VKS_ERR_LIMIT ? " (--max-input-mb N)" : "");
        return NULL;
    }
    return bytes; /* the default allocator's: free() releases it */
}

vks_skin *vks__bake_load_skin(const vks__bake_host *h, const char *path, const vks_read_options *opt_in)
{
    vks_read_options opt = opt_in ? *opt_in : (vks_read_options){0};
    opt.file.max_size = vks__bake_max_input(h);
    if (!opt.logger.func)
        opt.logger = h ? h->logger : (vks_logger){0};
    vks_skin *skin = NULL;
    vks_error err = {0};
    if (vks_load_model(&opt, path, &skin, &err) != VKS_OK) { /* its notes went through the host's logger */
        char msg[512];
        vks__log(vks__bake_log(h), VKS_LOG_ERROR, "%s",
                 vks_load_error_format(&err, path, "(--max-input-mb N)", msg, sizeof msg));
        return NULL;
    }
    return skin;
}

vks_clip_set *vks__bake_read_clips(const vks_bake_clip_spec *spec, const vks_skin *skin)
{
    size_t size = 0;
    uint8_t *bytes = vks__bake_read_file(spec->host, spec->file, &size);
    if (!bytes)
        return NULL;
    vks_read_options o = {0};
    o.clip.duration = spec->duration;
    o.clip.fps = spec->fps;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (vks_read_clip_bytes(&o, spec->file, bytes, size, skin, &set, &err) != VKS_OK) {
        char msg[512];
        vks__log(vks__bake_log(spec->host), VKS_LOG_ERROR, "%s: %s", spec->where,
                 vks_load_error_format(&err, spec->file, NULL, msg, sizeof msg));
        set = NULL;
    }
    free(bytes);
    return set;
}

void vks__bake_note_untouched(const vks__bake_host *h, const char *where, const char *model, const char *label,
                              const vks_clip_binding *b)
{
    char note[512];
    if (vks_clip_binding_note(b, label, note, sizeof note))
        vks__log(vks__bake_log(h), VKS_LOG_INFO, "%s: %s: %s", where, model, note);
}

void vks__bake_influences_json(struct cJSON *o, uint32_t kept, uint32_t vertices, double largest)
{
    cJSON_AddNumberToObject(o, "kept", kept);
    cJSON_AddNumberToObject(o, "vertices", vertices);
    cJSON_AddNumberToObject(o, "largest_weight_dropped", largest);
}

void vks__bake_influences_warning(const vks__bake_host *h, const char *where, const char *what, uint32_t kept,
                                  uint32_t vertices, double largest)
{
    if (vertices)
        vks__log(vks__bake_log(h), VKS_LOG_WARNING,
                 "%s: warning: %u vertices lost influences%s%s: the %u largest kept and renormalised, the "
                 "largest weight dropped %.6g",
                 where, vertices, what ? " in " : "", what ? what : "", kept, largest);
}
