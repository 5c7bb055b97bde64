/* NintendoWare CTR in the format registry (registry.h): .cmdl models and .cskla skeletal
 * animation, both intermediate XML recognised by their text rather than a magic number. */
#include "formats/registry.h"

/* An XML document whose first element is NintendoWareIntermediateFile (after an optional
   BOM, XML declaration and comments): the name in the first 4 KiB. */
static int probe_cmdl(const void *bytes, size_t size)
{
    return vks__bytes_contain(bytes, size, 4096, "NintendoWareIntermediateFile") ? VKS__PROBE_CONTENT
                                                                                   : VKS__PROBE_NO;
}

/* The same root, and a skeletal animation in the first 64 KiB (EditData may come first). */
static int probe_cskla(const void *bytes, size_t size)
{
    return probe_cmdl(bytes, size) && vks__bytes_contain(bytes, size, 65536, "<SkeletalAnimationData")
               ? VKS__PROBE_CONTENT
               : VKS__PROBE_NO;
}

static const char *const model_extensions[] = {".cmdl", NULL};
static const char *const cskla_extensions[] = {".cskla", NULL};

static const vks__clip_kind clips[] = {
    {"cskla", vks_cskla_read, probe_cskla, cskla_extensions},
};

const vks__format vks__format_cmdl = {
    .info = {"nw4c", "NintendoWare CTR", model_extensions, cskla_extensions, NULL,
             vks_cmdl_read, vks_cmdl_write, 0, VKS_AXES_Y_UP},
    .probe = probe_cmdl,
    .clips = clips,
    .clip_kind_count = sizeof clips / sizeof clips[0],
};
