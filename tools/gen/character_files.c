/* The model formats the generator writes, taken from the format registry (character_files.h),
 * and how it writes a file: through vks_output (a temporary name and a rename, special files
 * streamed, read-only files kept), so a crash never leaves half a file under the final name. */
#include "character_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/output.h"

/* What the generator's datasets ask of a format beyond its registry record (names of the
 * registry's records); a format not listed gets the defaults (no limits, "char_skin"). */
static const struct gen_hints {
    const char *format;
    uint32_t palette_limit, max_vertices, max_mesh_vertices;
    const char *texture, *material_suffix;
} hints[] = {
    {"renderware", 0, 0, 60000, "char_skin", ""},
    {"nif", 0, 0, 30000, "char_skin.dds", ""},
    /* .cmdl: XML text, ~260 bytes per vertex */
    {"nw4c", 20, 900, 60000, "char_skin", ""},
    /* .p3d: MLOD, one selection byte per bone per point and face */
    {"p3d", 0, 600, 0, "char_skin_co.paa", ".rvmat"},
};

enum { MAX_FORMATS = 32 };
static vks_gen_format formats[MAX_FORMATS];
static int format_count = -1;

static vks_gen_frame frame_of(vks_axes axes)
{
    switch (axes) {
    case VKS_AXES_Z_UP: return VKS_GEN_FRAME_Z_UP;
    case VKS_AXES_LEFT_Y_UP: return VKS_GEN_FRAME_LEFT_Y_UP;
    default: return VKS_GEN_FRAME_Y_UP;
    }
}

static vks_gen_format from_record(const vks_format_info *info)
{
    vks_gen_format f = {0};
    f.info = info;
    f.name = f.extension = info->model_extensions[0] + 1;
    f.write = info->write;
    f.frame = frame_of(info->axes);
    f.texture = "char_skin";
    f.material_suffix = "";
    for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++)
        if (!strcmp(hints[h].format, info->name)) {
            f.dataset_palette_limit = hints[h].palette_limit;
            f.dataset_max_vertices = hints[h].max_vertices;
            f.max_mesh_vertices = hints[h].max_mesh_vertices;
            f.texture = hints[h].texture;
            f.material_suffix = hints[h].material_suffix;
        }
    return f;
}

/* The table from the registry, on first use (the generator is single-threaded). */
static void load_formats(void)
{
    if (format_count >= 0)
        return;
    format_count = 0;
    for (uint32_t i = 0; i < vks_format_count() && format_count < MAX_FORMATS; i++) {
        const vks_format_info *info = vks_format_at(i);
        if (info->write && info->model_extensions && info->model_extensions[0])
            formats[format_count++] = from_record(info);
    }
}

int vks_gen_format_count(void)
{
    load_formats();
    return format_count;
}

const vks_gen_format *vks_gen_format_find(const char *name)
{
    load_formats();
    if (!name)
        return NULL;
    for (int i = 0; i < format_count; i++)
        if (!strcmp(name, formats[i].name))
            return &formats[i];
    return NULL;
}

const vks_gen_format *vks_gen_format_at(int i)
{
    load_formats();
    return i >= 0 && i < format_count ? &formats[i] : NULL;
}

const char *vks_gen_format_names(const char *sep)
{
    static char out[256];
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < vks_gen_format_count() && at < sizeof out; i++)
        at += (size_t)snprintf(out + at, sizeof out - at, "%s%s", i ? sep : "", formats[i].name);
    return out;
}

vks_result vks_gen_write_file(const char *path, const void *bytes, size_t size, vks_error *err)
{
    vks_output *o = NULL;
    vks_result r = vks_output_check(path, size, err);
    if (r == VKS_OK)
        r = vks_output_open(&o, path, err);
    if (r != VKS_OK)
        return r;
    if (size && fwrite(bytes, 1, size, vks_output_stream(o)) != size)
        vks_output_note_error(o, errno);
    return vks_output_close(o, 1, err);
}

vks_result vks_gen_write_p3d_cfg(const char *p3d_path, const vks_skin *model, vks_error *err)
{
    size_t n = strlen(p3d_path);
    char *cfg = malloc(n + 16), *name = malloc(n + 1);
    if (!cfg || !name) {
        free(cfg);
        free(name);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, p3d_path, "out of memory");
    }
    memcpy(cfg, p3d_path, n + 1);
    char *dot = strrchr(cfg, '.'), *slash = strrchr(cfg, '/');
    if (dot && (!slash || dot > slash))
        *dot = 0;
    const char *base = strrchr(cfg, '/') ? strrchr(cfg, '/') + 1 : cfg;
    memcpy(name, base, strlen(base) + 1);
    strcat(cfg, ".model.cfg");
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_result rc = vks_p3d_write_model_cfg(model, name, &bytes, &size, err);
    if (rc == VKS_OK)
        rc = vks_gen_write_file(cfg, bytes, size, err);
    free(bytes);
    free(cfg);
    free(name);
    return rc;
}
