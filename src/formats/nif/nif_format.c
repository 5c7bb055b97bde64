/* Gamebryo / NetImmerse in the format registry (registry.h): .nif models, and clips from .kf
 * files and from a .nif's own keyframes (the header text picks the clip reader for both, for
 * a caller that asks for clips). */
#include "formats/registry.h"

static int probe_nif(const void *bytes, size_t size)
{
    return vks__bytes_start(bytes, size, "NetImmerse File Format") ||
                   vks__bytes_start(bytes, size, "Gamebryo File Format")
               ? VKS__PROBE_MAGIC
               : VKS__PROBE_NO;
}

static const char *const model_extensions[] = {".nif", NULL};
static const char *const kf_extensions[] = {".kf", NULL};

static const vks__clip_kind clips[] = {
    {"nif", vks_nif_kf_read, probe_nif, kf_extensions},
};

const vks__format vks__format_nif = {
    .info = {"nif", "Gamebryo", model_extensions, kf_extensions, NULL,
             vks_nif_read, vks_nif_write, 0, VKS_AXES_Z_UP},
    .probe = probe_nif,
    .clips = clips,
    .clip_kind_count = sizeof clips / sizeof clips[0],
};
