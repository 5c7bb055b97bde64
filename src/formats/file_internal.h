/* File access of vks_read_file, shared by the model read (read_file.c) and the P3D config
 * search (p3d/p3d_files.c): the options' callbacks, or the default over the options'
 * allocator. o has had vks_read_options_defaults applied. */
#ifndef VKS_FORMATS_FILE_INTERNAL_H
#define VKS_FORMATS_FILE_INTERNAL_H

#include "vkskin/formats.h"

vks_result vks__file_read(const vks_read_options *o, const char *path, void **bytes, size_t *size, vks_error *err);
void vks__file_release(const vks_read_options *o, void *bytes);

/* What the P3D step of vks_read_file read or made for the reader, released afterwards. */
typedef struct vks__p3d_files {
    void *cfg_bytes; /* through vks__file_read */
    char *cfg_path;  /* through o->allocator */
    char *stem;      /* through o->allocator */
} vks__p3d_files;

/* Fills o->p3d.model_cfg (and its size and name) and o->p3d.model_name for the model at path
 * as vks_read_file documents; keep holds what to release with vks__p3d_files_release. */
vks_result vks__p3d_prepare(vks_read_options *o, const char *path, vks__p3d_files *keep, vks_error *err);
void vks__p3d_files_release(const vks_read_options *o, vks__p3d_files *keep);

/* Whether name ends with ext (lower-case, with its dot), ignoring case. name may be NULL. */
int vks__name_has_ext(const char *name, const char *ext);

#endif
