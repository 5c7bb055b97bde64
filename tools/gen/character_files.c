/* The model formats the generator writes (character_files.h) and how it writes a file: through
 * vks_output (a temporary name and a rename, special files streamed, read-only files kept), so
 * a crash never leaves half a file under the final name. */
#include "character_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/output.h"

static const vks_gen_format formats[VKS_GEN_FORMAT_COUNT] = {
    {"dff", "dff", vks_rw_write, 0, 0, VKS_GEN_FRAME_Z_UP, "char_skin", ""},
    {"nif", "nif", vks_nif_write, 0, 0, VKS_GEN_FRAME_Z_UP, "char_skin.dds", ""},
    /* .cmdl: XML text, ~260 bytes per vertex */
    {"cmdl", "cmdl", vks_cmdl_write, 20, 900, VKS_GEN_FRAME_Y_UP, "char_skin", ""},
    /* .p3d: MLOD, one selection byte per bone per point and face */
    {"p3d", "p3d", vks_p3d_write, 0, 600, VKS_GEN_FRAME_LEFT_Y_UP, "char_skin_co.paa", ".rvmat"},
};

const vks_gen_format *vks_gen_format_find(const char *name)
{
    for (int i = 0; i < VKS_GEN_FORMAT_COUNT; i++)
        if (name && !strcmp(name, formats[i].name))
            return &formats[i];
    return NULL;
}

const vks_gen_format *vks_gen_format_at(int i)
{
    return i >= 0 && i < VKS_GEN_FORMAT_COUNT ? &formats[i] : NULL;
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
