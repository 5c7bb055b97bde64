/* The P3D folder's side-file step (p3d_files.c), named by its registry record (p3d_format.c). */
#ifndef VKS_P3D_FORMAT_H
#define VKS_P3D_FORMAT_H

#include "formats/file_internal.h"

/* Fills o->p3d.model_cfg (and its size and name) and o->p3d.model_name for the model at path
 * as vks_read_file documents; keep holds what to release with vks__side_files_release. */
vks_result vks__p3d_prepare(vks_read_options *o, const char *path, vks__side_files *keep, vks_error *err);
/* registry.h's side_files of P3D: the model.cfg a read would use. */
vks_result vks__p3d_side_files(const vks_read_options *o, const char *path, vks_side_file_fn visit, void *user,
                               vks_error *err);

#endif
