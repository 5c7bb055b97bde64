/* The registry's clip formats as the CLI's messages list them (cli_formats.h). */
#include "cli_formats.h"

#include <string.h>

#include "vkskin/formats.h"

/* exts joined by spaces into out (cap bytes). */
static void join_extensions(const char *const *exts, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = 0;
    for (; exts && *exts && at < cap; exts++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", at ? " " : "", *exts);
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
