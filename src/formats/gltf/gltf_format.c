/* glTF 2.0 in the format registry (registry.h): .gltf (JSON, buffers beside it) and .glb,
 * one file for the model and its animations. The glTF writer is an output (src/bake), not a
 * model writer of this folder. */
#include "formats/registry.h"
#include "gltf_internal.h"

static int probe_glb(const void *bytes, size_t size)
{
    return vks__bytes_start(bytes, size, "glTF") ? VKS__PROBE_MAGIC : VKS__PROBE_NO;
}

/* External buffers are read beside the .gltf, through the same file callbacks. */
static vks_result own_path(vks_read_options *o, const char *path, vks__side_files *keep, vks_error *err)
{
    if (!o->gltf.path)
        o->gltf.path = path;
    return VKS_OK;
}

static const char *const extensions[] = {".gltf", ".glb", NULL};

static const vks__clip_kind clips[] = {
    {"gltf", vks_gltf_clip_read, probe_glb, extensions},
};

const vks__format vks__format_gltf = {
    .info = {"gltf", "glTF 2.0", extensions, extensions, NULL,
             vks_gltf_read, NULL, 1, VKS_AXES_Y_UP},
    .probe = probe_glb,
    .prepare = own_path,
    .prepare_clips = own_path,
    .side_files = vks__gltfr_side_files,
    .clips = clips,
    .clip_kind_count = sizeof clips / sizeof clips[0],
};
