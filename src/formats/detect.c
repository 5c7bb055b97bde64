/* Format detection by magic bytes, then by extension, and the read-any entry point. */
#include "vkskin/formats.h"

#include <ctype.h>
#include <string.h>

#include "file_internal.h"

vks_read_options vks_read_options_defaults(const vks_read_options *opt)
{
    vks_read_options o = opt ? *opt : (vks_read_options){0};
    o.allocator = vks_allocator_or_default(&o.allocator);
    if (!o.max_vertices)
        o.max_vertices = 1u << 24;
    if (!o.max_triangles)
        o.max_triangles = 1u << 25;
    if (!o.max_nodes)
        o.max_nodes = 1u << 16;
    if (!o.max_meshes)
        o.max_meshes = 4096;
    if (!o.p3d.bone_limit)
        o.p3d.bone_limit = 64;
    if (!o.file.max_size)
        o.file.max_size = 2048ull << 20;
    if (!(o.clip.duration > 0)) /* also NaN */
        o.clip.duration = 1.0f;
    if (!(o.clip.fps > 0))
        o.clip.fps = 30.0f;
    if (!o.clip.max_keys)
        o.clip.max_keys = 1u << 24;
    if (!o.clip.max_clips)
        o.clip.max_clips = 65536;
    return o;
}

int vks__name_has_ext(const char *name, const char *ext)
{
    if (!name)
        return 0;
    size_t n = strlen(name), e = strlen(ext);
    if (n < e)
        return 0;
    for (size_t i = 0; i < e; i++)
        if (tolower((unsigned char)name[n - e + i]) != ext[i])
            return 0;
    return 1;
}

static int starts(const void *bytes, size_t size, const char *magic)
{
    size_t n = strlen(magic);
    return size >= n && memcmp(bytes, magic, n) == 0;
}

/* An XML document whose first element is NintendoWareIntermediateFile (after an optional
   BOM, XML declaration and comments): look for the name in the first 4 KiB. */
static int looks_cmdl(const void *bytes, size_t size)
{
    const char *p = bytes;
    size_t n = size < 4096 ? size : 4096;
    const char *needle = "NintendoWareIntermediateFile";
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(p + i, needle, k) == 0)
            return 1;
    return 0;
}

vks_reader_fn vks_detect_format(const void *bytes, size_t size, const char *name, const char **format_name)
{
    const uint8_t *b = bytes;
    const char *fmt = NULL;
    vks_reader_fn fn = NULL;
    if (starts(bytes, size, "NetImmerse File Format") || starts(bytes, size, "Gamebryo File Format"))
        fn = vks_nif_read, fmt = "nif";
    else if (starts(bytes, size, "MLOD") || starts(bytes, size, "ODOL"))
        fn = vks_p3d_read, fmt = "p3d";
    else if (size >= 12 && b[0] == 0x10 && b[1] == 0 && b[2] == 0 && b[3] == 0)
        fn = vks_rw_read, fmt = "renderware"; /* a Clump chunk header */
    else if (starts(bytes, size, "glTF"))
        fn = vks_gltf_read, fmt = "gltf"; /* .glb */
    else if (looks_cmdl(bytes, size))
        fn = vks_cmdl_read, fmt = "nw4c";
    else if (vks__name_has_ext(name, ".dff"))
        fn = vks_rw_read, fmt = "renderware";
    else if (vks__name_has_ext(name, ".nif"))
        fn = vks_nif_read, fmt = "nif";
    else if (vks__name_has_ext(name, ".cmdl"))
        fn = vks_cmdl_read, fmt = "nw4c";
    else if (vks__name_has_ext(name, ".p3d"))
        fn = vks_p3d_read, fmt = "p3d";
    else if (vks__name_has_ext(name, ".gltf") || vks__name_has_ext(name, ".glb"))
        fn = vks_gltf_read, fmt = "gltf";
    if (format_name)
        *format_name = fmt;
    return fn;
}

vks_result vks_read_any(const vks_read_options *opt, const void *bytes, size_t size, const char *name,
                        vks_skin **out, vks_error *err)
{
    vks_reader_fn fn = vks_detect_format(bytes, size, name, NULL);
    if (!fn) {
        const uint8_t *b = bytes;
        return vks_error_set(err, VKS_ERR_FORMAT, 0, "file",
                             "not a DFF, NIF, .cmdl, P3D or glTF file (first bytes %02x %02x %02x %02x)",
                             size > 0 ? b[0] : 0, size > 1 ? b[1] : 0, size > 2 ? b[2] : 0,
                             size > 3 ? b[3] : 0);
    }
    return fn(opt, bytes, size, out, err);
}
