/* The format registry: one record per format, each defined in its own folder
 * (src/formats/<fmt>/<fmt>_format.c) and listed once in registry.c. Detection (detect.c),
 * vks_read_file and vks_read_clips (read_file.c), and through vks_format_at the CLI's help
 * and the generator loop over it; nothing else names a format. Adding a format is its folder
 * and one line of registry.c (tests/formats/vkstest shows it: a sixth record that a test
 * build lists). */
#ifndef VKS_FORMATS_REGISTRY_H
#define VKS_FORMATS_REGISTRY_H

#include "file_internal.h"
#include "vkskin/clip.h"

#include "vkskin/clip_formats.h"
/* How sure a probe is. Detection takes the surest answer over all formats (the first listed
 * on a tie), then the file name's extension when no probe answers: a magic number at the
 * start of the bytes outranks text found somewhere inside them (NW4C XML). */
enum { VKS__PROBE_NO = 0, VKS__PROBE_CONTENT = 1, VKS__PROBE_MAGIC = 2 };

typedef int (*vks__probe_fn)(const void *bytes, size_t size);

/* One clip reader of a format (RenderWare has three: .anm, .ska, .ifp). */
typedef struct vks__clip_kind {
    const char *name;                 /* vks_detect_clip_format's format_name */
    vks_clip_reader_fn read;
    vks__probe_fn probe;              /* NULL: known by extension only (legacy .ska) */
    const char *const *extensions;    /* lower case with the dot, NULL-terminated */
} vks__clip_kind;

typedef struct vks__format {
    vks_format_info info;             /* what the public vks_format_at shows */
    vks__probe_fn probe;              /* the model's bytes */
    /* Before the model reader, with the file's path: reads side files (a P3D's model.cfg)
       through o's file callbacks and points o at them; keep holds what to release after the
       read (vks__side_files_release). NULL: nothing to do. */
    vks_result (*prepare)(vks_read_options *o, const char *path, vks__side_files *keep, vks_error *err);
    /* The same before a clip reader (a .gltf's external buffers beside it). NULL: nothing. */
    vks_result (*prepare_clips)(vks_read_options *o, const char *path, vks__side_files *keep, vks_error *err);
    /* vks_list_side_files for a file of this format (model or clip): the files a read of path
       would read or name besides it. NULL: none. */
    vks_result (*side_files)(const vks_read_options *o, const char *path, vks_side_file_fn visit, void *user,
                             vks_error *err);
    const vks__clip_kind *clips;
    uint32_t clip_kind_count;
} vks__format;

/* The registry's records, in its one list's order. */
uint32_t vks__format_count(void);
const vks__format *vks__format_get(uint32_t index);

/* The record of a model reader's format / of a clip reader's kind (and its format), or NULL. */
const vks__format *vks__format_of_model(const void *bytes, size_t size, const char *name);
const vks__clip_kind *vks__clip_kind_of(const void *bytes, size_t size, const char *name, const vks__format **format);

/* Probe helpers (probe.c): bytes start with magic; needle occurs within the first `within`
 * bytes; name ends with ext (lower-case, with its dot), ignoring case (name may be NULL). */
int vks__bytes_start(const void *bytes, size_t size, const char *magic);
int vks__bytes_contain(const void *bytes, size_t size, size_t within, const char *needle);
int vks__name_has_ext(const char *name, const char *ext);

#endif
