/* File access of vks_read_file and vks_read_clips (file_access.c), shared by the reads by path
 * (read_file.c) and the formats' side-file steps (p3d/p3d_files.c): the options' callbacks,
 * or the default over the options' allocator. o has had vks_read_options_defaults applied. */
#ifndef VKS_FORMATS_FILE_INTERNAL_H
#define VKS_FORMATS_FILE_INTERNAL_H

#include "vkskin/formats.h"

vks_result vks__file_read(const vks_read_options *o, const char *path, void **bytes, size_t *size, vks_error *err);
void vks__file_release(const vks_read_options *o, void *bytes);
/* Up to n first bytes of the file at path into buf (fewer where it is shorter): the count read,
 * or -1 when it cannot be read. On the file system only those bytes are read; a callback reads
 * the file whole (within o->file.max_size) and the prefix is copied. */
long vks__file_read_prefix(const vks_read_options *o, const char *path, void *buf, size_t n);

/* What a format's step before its reader read or made for it (registry.h's prepare: a
 * P3D's model.cfg text, its path and the model's name), released after the read. */
typedef struct vks__side_files {
    void *bytes; /* through vks__file_read */
    char *path;  /* through o->allocator */
    char *name;  /* through o->allocator */
} vks__side_files;

void vks__side_files_release(const vks_read_options *o, vks__side_files *keep);

#endif
