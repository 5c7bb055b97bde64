/* vkskin formats: one reader per file format, all with the same shape, and the writers the
 * project needs for its generated fixtures.
 *
 * STEP BY STEP
 *   vks_read_options opt = {0};                       // zeroed: defaults
 *   vks_skin *skin = NULL; vks_error err = {0};
 *   if (vks_read_any(&opt, bytes, size, "hero.dff", &skin, &err) != VKS_OK) ... report err
 *   ... vks_skin_free(skin);
 *
 * Readers take bytes and a length, never open files, never trust a count: each count is
 * checked against the bytes left (and the limits below) before anything is allocated.
 * *out is written only on success; a failing reader frees its partial result.
 * Format knowledge ends here: nothing after a reader asks which format a skin came from.
 */
#ifndef VKSKIN_FORMATS_H
#define VKSKIN_FORMATS_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_read_options {
    vks_allocator allocator;   /* default: malloc/free */
    uint32_t max_vertices;     /* default: 1 << 24, over all meshes */
    uint32_t max_triangles;    /* default: 1 << 25 */
    uint32_t max_nodes;        /* default: 1 << 16 */
    uint32_t max_meshes;       /* default: 4096 */

    /* P3D only. */
    struct {
        const char *model_cfg;    /* model.cfg text (not a path); NULL: no config */
        size_t model_cfg_size;
        const char *model_cfg_name; /* the config's file name, for errors in it; default "model.cfg" */
        const char *model_name;   /* CfgModels class to use; default: the file's base name */
        const char *lod;          /* LOD to read ("1", "shadow", resolution text); default: first visual */
        const char *bones;        /* comma-separated bone selections when there is no skeleton */
        uint32_t bone_limit;      /* palette size per section; default 64 */
    } p3d;
} vks_read_options;

/* Applies the defaults to a copy of opt (opt may be NULL). */
VKS_API vks_read_options vks_read_options_defaults(const vks_read_options *opt);

typedef vks_result (*vks_reader_fn)(const vks_read_options *opt, const void *bytes, size_t size,
                                    vks_skin **out, vks_error *err);

VKS_API vks_result vks_rw_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                       vks_error *err);
VKS_API vks_result vks_nif_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err);
VKS_API vks_result vks_cmdl_read(const vks_read_options *opt, const void *bytes, size_t size,
                         vks_skin **out, vks_error *err);
VKS_API vks_result vks_p3d_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err);

/* The reader for these bytes (by magic, then by the file name's extension), or NULL.
 * name may be NULL. *format_name gets "renderware", "nif", "nw4c", "p3d" when not NULL. */
VKS_API vks_reader_fn vks_detect_format(const void *bytes, size_t size, const char *name,
                                const char **format_name);

/* Detects the format and reads. An unknown format is VKS_ERR_FORMAT naming what was seen. */
VKS_API vks_result vks_read_any(const vks_read_options *opt, const void *bytes, size_t size,
                        const char *name, vks_skin **out, vks_error *err);

/* ---- writers (fixtures for tests, datasets and benchmarks) ----
 * Each writes a whole file into a growable buffer. The caller frees *out_bytes with free(). */
typedef struct vks_write_options {
    uint32_t version;    /* format version to write; 0: the writer's default */
    int triangle_strips; /* write strips instead of lists where the format has both */
    int quantize;        /* NW4C: quantized vertex streams */
} vks_write_options;

VKS_API vks_result vks_rw_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                        size_t *out_size, vks_error *err);
VKS_API vks_result vks_nif_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                         size_t *out_size, vks_error *err);
VKS_API vks_result vks_cmdl_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                          size_t *out_size, vks_error *err);
VKS_API vks_result vks_p3d_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                         size_t *out_size, vks_error *err);

/* P3D extras. vks_p3d_write writes an MLOD (one visual LOD per mesh plus a memory LOD with a
 * pivot point per node); its skeleton goes into a model.cfg written by vks_p3d_write_model_cfg
 * (CfgSkeletons class "<model_name>_Skeleton", CfgModels class model_name; NULL: "model").
 * vks_p3d_parse_model_cfg parses model.cfg text and resolves the skeleton of CfgModels class
 * model_name (NULL: the only model class); *bone_count (may be NULL) gets its bone count, 0
 * when no class matched. */
VKS_API vks_result vks_p3d_write_model_cfg(const vks_skin *skin, const char *model_name, uint8_t **out_bytes,
                                   size_t *out_size, vks_error *err);
VKS_API vks_result vks_p3d_parse_model_cfg(const char *text, size_t size, const char *model_name,
                                   uint32_t *bone_count, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
