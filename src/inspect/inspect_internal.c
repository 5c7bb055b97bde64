/* An inspection's life and what a host may read of it (inspect_internal.h, inspect.h). */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"

vks_inspect *vks__inspect_new(const char *path, vks_error *err)
{
    vks_inspect *in = calloc(1, sizeof *in);
    if (in)
        in->path = strdup(path ? path : "");
    if (!in || !in->path) {
        free(in);
        vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "inspect", "out of memory");
        return NULL;
    }
    return in;
}

int vks_inspect_exit_code(const vks_inspect *in) { return in ? in->exit_code : 0; }
const vks_skin *vks_inspect_skin(const vks_inspect *in) { return in ? in->skin : NULL; }
const vks_bind_check *vks_inspect_bind_check(const vks_inspect *in) { return in && in->skin ? &in->bc : NULL; }
const vks_clip_set *vks_inspect_clips(const vks_inspect *in) { return in ? in->set : NULL; }

void vks_inspect_free(vks_inspect *in)
{
    if (!in)
        return;
    if (in->bindings)
        for (uint32_t c = 0; c < in->set->clip_count; c++)
            if (in->bound[c])
                vks_clip_binding_free(&in->bindings[c]);
    free(in->bindings);
    free(in->bound);
    vks_clip_set_free(in->set);
    vks_skin_free(in->owned_skin);
    free(in->model_name);
    free(in->path);
    free(in);
}
