/* The registry's formats as the CLI lists them (cli_formats.h). */
#include "cli_formats.h"

#include <string.h>

#include "vkskin/formats.h"

static const char *axes_words(vks_axes axes)
{
    switch (axes) {
    case VKS_AXES_Z_UP: return "Z up";
    case VKS_AXES_LEFT_Y_UP: return "left-handed, Y up";
    default: return "Y up";
    }
}

/* exts joined by spaces into out (cap bytes). */
static void join_extensions(const char *const *exts, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = 0;
    for (; exts && *exts && at < cap; exts++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", at ? " " : "", *exts);
}

void vks_cli_print_formats(FILE *f)
{
    fprintf(f, "formats (models; clip files; axes):\n");
    for (uint32_t i = 0; i < vks_format_count(); i++) {
        const vks_format_info *info = vks_format_at(i);
        char models[64], clips[64];
        join_extensions(info->model_extensions, models, sizeof models);
        join_extensions(info->clip_extensions, clips, sizeof clips);
        fprintf(f, "  %-18s %-11s %-15s %s\n", info->title, models, clips[0] ? clips : "-", axes_words(info->axes));
    }
}

const char *vks_cli_clip_format_list(char *out, size_t cap)
{
    size_t at = 0;
    out[0] = 0;
    for (uint32_t i = 0; i < vks_format_count() && at < cap; i++) {
        const vks_format_info *info = vks_format_at(i);
        char clips[64];
        join_extensions(info->clip_extensions, clips, sizeof clips);
        if (clips[0])
            at += (size_t)snprintf(out + at, cap - at, "%s%s %s", at ? ", " : "", info->title, clips);
    }
    return out;
}
