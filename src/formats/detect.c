/* Format detection through the registry (registry.h): by content, then by extension; the
 * read-any entry point and the read options' defaults. */
#include "vkskin/formats.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "registry.h"

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

/* The one detection chain (registry.h): every format's probe, then the extensions. */
vks_reader_fn vks_detect_format(const void *bytes, size_t size, const char *name, const char **format_name)
{
    const vks__format *f = vks__format_of_model(bytes, size, name);
    if (format_name)
        *format_name = f ? f->info.name : NULL;
    return f ? f->info.read : NULL;
}

/* Which clip reader takes these bytes, by the same chain over the formats' clip readers. A
 * NIF's header text (a .kf's, and a .nif's: it may hold keyframes too) picks the NIF clip
 * reader: vks_detect_format calls the same bytes a model, and a caller that asks for clips
 * gets the clip reader. Pose JSON needs a skin and is chosen by the caller. */
vks_clip_reader_fn vks_detect_clip_format(const void *bytes, size_t size, const char *name, const char **format_name)
{
    const vks__clip_kind *k = vks__clip_kind_of(bytes, size, name, NULL);
    if (format_name)
        *format_name = k ? k->name : NULL;
    return k ? k->read : NULL;
}

/* The registry's format titles as people read a list: "A, B or C". */
static const char *format_titles(char *out, size_t cap)
{
    size_t at = 0;
    uint32_t n = vks__format_count();
    out[0] = 0;
    for (uint32_t f = 0; f < n && at < cap; f++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", f == 0 ? "" : f + 1 < n ? ", " : " or ",
                               vks__format_get(f)->info.title);
    return out;
}

vks_result vks_read_any(const vks_read_options *opt, const void *bytes, size_t size, const char *name,
                        vks_skin **out, vks_error *err)
{
    vks_reader_fn fn = vks_detect_format(bytes, size, name, NULL);
    if (!fn) {
        const uint8_t *b = bytes;
        char titles[256];
        return vks_error_set(err, VKS_ERR_FORMAT, 0, "file", "not a %s file (first bytes %02x %02x %02x %02x)",
                             format_titles(titles, sizeof titles), size > 0 ? b[0] : 0, size > 1 ? b[1] : 0,
                             size > 2 ? b[2] : 0, size > 3 ? b[3] : 0);
    }
    return fn(opt, bytes, size, out, err);
}
