/* Bohemia P3D in the format registry (registry.h): MLOD and ODOL models with the model.cfg
 * that holds their skeleton, and Arma RTM clips (plain and binarised). */
#include "formats/registry.h"
#include "p3d_format.h"

static int probe_p3d(const void *bytes, size_t size)
{
    return vks__bytes_start(bytes, size, "MLOD") || vks__bytes_start(bytes, size, "ODOL") ? VKS__PROBE_MAGIC
                                                                                          : VKS__PROBE_NO;
}

static int probe_rtm(const void *bytes, size_t size)
{
    return vks__bytes_start(bytes, size, "RTM_0101") || vks__bytes_start(bytes, size, "RTM_MDAT") ||
                   vks__bytes_start(bytes, size, "BMTR")
               ? VKS__PROBE_MAGIC
               : VKS__PROBE_NO;
}

static const char *const model_extensions[] = {".p3d", NULL};
static const char *const rtm_extensions[] = {".rtm", NULL};

static const vks__clip_kind clips[] = {
    {"rtm", vks_rtm_read, probe_rtm, rtm_extensions},
};

const vks__format vks__format_p3d = {
    .info = {"p3d", "Bohemia", model_extensions, rtm_extensions, "model.cfg",
             vks_p3d_read, vks_p3d_write, 0, VKS_AXES_LEFT_Y_UP},
    .probe = probe_p3d,
    .prepare = vks__p3d_prepare,
    .side_files = vks__p3d_side_files,
    .clips = clips,
    .clip_kind_count = sizeof clips / sizeof clips[0],
};
