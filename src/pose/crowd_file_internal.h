/* Crowd files (crowd_file.h), inside: the parser's state and what its units share. The entry
 * points (crowd_file.c) pick one of the two forms (crowd_file_json.c, crowd_file_csv.c), which
 * fill the same flat table through crowd_file_spec.c (errors, defaults, the values both take)
 * and crowd_file_sources.c (the models and clips named, each once). */
#ifndef VKSKIN_POSE_CROWD_FILE_INTERNAL_H
#define VKSKIN_POSE_CROWD_FILE_INTERNAL_H

#include "vkskin/crowd_file.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* An additive layer past its full delta would extrapolate: the rotation's nlerp saturates, a
   scale can turn negative and float engines part from the reference by the weight's factor. */
#define ADDITIVE_WEIGHT_MESSAGE "expected an additive weight <= 1 (its whole delta), got %g"

enum { MAX_TEXT = 4096 }; /* longest path or clip source in a cell */

typedef struct vks__crowd_table { /* open addressing over source indices + 1 */
    uint32_t *slot;
    size_t cap;
} vks__crowd_table;

typedef struct vks__crowd_parser {
    vks_crowd_spec *spec;
    vks_allocator a;
    const char *name; /* for errors */
    size_t dir_len;   /* name's folder, up to and including its last '/' */
    size_t inst_cap, model_cap, clip_cap, layer_cap;
    vks__crowd_table models, clips;
    vks_error *err;
} vks__crowd_parser;

/* ---- errors (crowd_file_spec.c): the first one recorded, naming the file, line and path ---- */

vks_result vks__crowd_failv(vks__crowd_parser *p, vks_result code, uint32_t line, const char *path, const char *fmt,
                            va_list ap);
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
vks_result vks__crowd_fail(vks__crowd_parser *p, vks_result code, uint32_t line, const char *path, const char *fmt,
                           ...);
vks_result vks__crowd_nomem(vks__crowd_parser *p, uint32_t line, const char *path);

/* ---- sources (crowd_file_sources.c) ---- */

/* Index of the source written as text[0..n) (a model when !clip), added when new; -1 with
 * the error recorded on failure. */
int32_t vks__crowd_intern(vks__crowd_parser *p, int clip, const char *text, size_t n, uint32_t instance, uint32_t line,
                          const char *path);

/* ---- values and layers both forms take (crowd_file_spec.c) ---- */

int vks__crowd_parse_cycle(const char *s, size_t n);
int vks__crowd_finite(double v);
/* The root's 3x3 must be something float32 engines deform faithfully (skin.h). */
vks_result vks__crowd_check_root(vks__crowd_parser *p, const vks_affine *root, uint32_t line, const char *path);
/* A new instance with the defaults; NULL with the error recorded. */
vks_crowd_entry *vks__crowd_add_instance(vks__crowd_parser *p, uint32_t line, const char *path);
vks_crowd_entry_layer vks__crowd_default_layer(void);
int vks__crowd_parse_blend(const char *s, size_t n);
/* root_motion's text: 1 / true / y, z, 0 / false; -1 otherwise. */
int vks__crowd_parse_root_motion(const char *s, size_t n);
/* root_yaw's text: 1 / true / yes, 0 / false / no; -1 otherwise. */
int vks__crowd_parse_yes_no(const char *s, size_t n);
/* Stores entry e's n layers (ys) in the spec; the entry plays layer 0's clip where a host
 * knows no layers. */
vks_result vks__crowd_add_layers(vks__crowd_parser *p, vks_crowd_entry *e, const vks_crowd_entry_layer *ys, uint32_t n,
                                 uint32_t line, const char *path);

/* ---- the two forms: each fills p->spec from the whole text ---- */

vks_result vks__crowd_parse_json(vks__crowd_parser *p, const char *text, size_t size); /* crowd_file_json.c */
vks_result vks__crowd_parse_csv(vks__crowd_parser *p, const char *text, size_t size);  /* crowd_file_csv.c */

#endif
