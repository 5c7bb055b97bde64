/* Which clip reader takes these bytes: by magic first, then by the file name's extension
 * (legacy .ska has no magic). Pose JSON needs a skin and is chosen by the caller. A NIF's
 * header text (a .kf's, and a .nif's: it may hold keyframes too) picks the NIF clip reader:
 * vks_detect_format calls the same bytes a model, and a caller that asks for clips gets the
 * clip reader. */
#include <string.h>

#include "file_internal.h"
#include "vkskin/clip.h"

static int contains(const void *bytes, size_t size, size_t within, const char *needle)
{
    size_t n = size < within ? size : within, k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp((const char *)bytes + i, needle, k) == 0)
            return 1;
    return 0;
}

vks_clip_reader_fn vks_detect_clip_format(const void *bytes, size_t size, const char *name, const char **format_name)
{
    const unsigned char *b = bytes;
    const char *f = NULL;
    vks_clip_reader_fn fn = NULL;
    if (size >= 8 && (memcmp(b, "RTM_0101", 8) == 0 || memcmp(b, "RTM_MDAT", 8) == 0))
        fn = vks_rtm_read, f = "rtm";
    else if (size >= 4 && memcmp(b, "BMTR", 4) == 0)
        fn = vks_rtm_read, f = "rtm";
    else if (size >= 4 && (memcmp(b, "ANPK", 4) == 0 || memcmp(b, "ANP2", 4) == 0 || memcmp(b, "ANP3", 4) == 0))
        fn = vks_ifp_read, f = "ifp";
    else if (size >= 4 && b[0] == 0x1B && b[1] == 0 && b[2] == 0 && b[3] == 0)
        fn = vks_rw_anm_read, f = "renderware-anm";
    else if ((size >= 22 && memcmp(b, "NetImmerse File Format", 22) == 0) ||
             (size >= 20 && memcmp(b, "Gamebryo File Format", 20) == 0))
        fn = vks_nif_kf_read, f = "nif";
    /* NW4C XML: the root in the first 4 KiB (as the .cmdl detection looks), a skeletal
       animation in the first 64 KiB (EditData may come first) */
    else if (contains(bytes, size, 4096, "NintendoWareIntermediateFile") &&
             contains(bytes, size, 65536, "<SkeletalAnimationData"))
        fn = vks_cskla_read, f = "cskla";
    else if (size >= 4 && memcmp(b, "glTF", 4) == 0)
        fn = vks_gltf_clip_read, f = "gltf"; /* .glb */
    else if (vks__name_has_ext(name, ".ska"))
        fn = vks_rw_ska_read, f = "renderware-ska";
    else if (vks__name_has_ext(name, ".rtm"))
        fn = vks_rtm_read, f = "rtm";
    else if (vks__name_has_ext(name, ".ifp"))
        fn = vks_ifp_read, f = "ifp";
    else if (vks__name_has_ext(name, ".anm"))
        fn = vks_rw_anm_read, f = "renderware-anm";
    else if (vks__name_has_ext(name, ".cskla"))
        fn = vks_cskla_read, f = "cskla";
    else if (vks__name_has_ext(name, ".kf"))
        fn = vks_nif_kf_read, f = "nif";
    else if (vks__name_has_ext(name, ".gltf") || vks__name_has_ext(name, ".glb"))
        fn = vks_gltf_clip_read, f = "gltf";
    if (format_name)
        *format_name = f;
    return fn;
}
