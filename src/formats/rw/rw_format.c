/* RenderWare in the format registry (registry.h): .dff clumps, and the clip files of
 * RenderWare (.anm, legacy .ska) and of GTA (.ifp). */
#include <stdint.h>

#include "formats/registry.h"

static int probe_dff(const void *bytes, size_t size)
{
    const uint8_t *b = bytes;
    /* a Clump chunk header */
    return size >= 12 && b[0] == 0x10 && b[1] == 0 && b[2] == 0 && b[3] == 0 ? VKS__PROBE_MAGIC : VKS__PROBE_NO;
}

static int probe_anm(const void *bytes, size_t size)
{
    const uint8_t *b = bytes;
    /* an Animation chunk header */
    return size >= 4 && b[0] == 0x1B && b[1] == 0 && b[2] == 0 && b[3] == 0 ? VKS__PROBE_MAGIC : VKS__PROBE_NO;
}

static int probe_ifp(const void *bytes, size_t size)
{
    return vks__bytes_start(bytes, size, "ANPK") || vks__bytes_start(bytes, size, "ANP2") ||
                   vks__bytes_start(bytes, size, "ANP3")
               ? VKS__PROBE_MAGIC
               : VKS__PROBE_NO;
}

static const char *const model_extensions[] = {".dff", NULL};
static const char *const clip_extensions[] = {".anm", ".ska", ".ifp", NULL};
static const char *const anm_extensions[] = {".anm", NULL};
static const char *const ska_extensions[] = {".ska", NULL};
static const char *const ifp_extensions[] = {".ifp", NULL};

static const vks__clip_kind clips[] = {
    {"renderware-anm", vks_rw_anm_read, probe_anm, anm_extensions},
    {"renderware-ska", vks_rw_ska_read, NULL, ska_extensions}, /* legacy .ska has no magic */
    {"ifp", vks_ifp_read, probe_ifp, ifp_extensions},
};

const vks__format vks__format_rw = {
    .info = {"renderware", "RenderWare", model_extensions, clip_extensions, NULL,
             vks_rw_read, vks_rw_write, 0, VKS_AXES_Z_UP},
    .probe = probe_dff,
    .clips = clips,
    .clip_kind_count = sizeof clips / sizeof clips[0],
};
