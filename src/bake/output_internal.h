/* What the output files (output_file.c) and their bulk writes (output_span.c) share. */
#ifndef VKS_OUTPUT_INTERNAL_H
#define VKS_OUTPUT_INTERNAL_H

#include "vkskin/output.h"

#include <errno.h>

typedef enum target_kind { TARGET_NEW, TARGET_REGULAR, TARGET_STREAM, TARGET_STDOUT } target_kind;

typedef struct vks__spans vks__spans;

struct vks_output {
    FILE *f;
    char *target;  /* the file that finally holds the output (symlinks followed) */
    char *tmp;     /* NULL for streams */
    int slot;      /* index in the temporaries table, -1 when not recorded */
    int write_errno;
    target_kind kind;
    vks__spans *spans; /* the reserve/commit writes, from the first reserve on */
    char *iobuf;       /* the stream's buffer (OUTPUT_STDIO_BUFFER), freed after it is closed */
};

/* Keeps the first write error of o (errnum 0 counts as EIO): vks_output_note_error's body,
 * here so that the bulk writes record theirs without calling back into output_file.c. */
static inline void vks__output_note_error(vks_output *o, int errnum)
{
    if (o && !o->write_errno)
        o->write_errno = errnum ? errnum : EIO;
}

/* Ends the bulk writes: the rest is written when write_rest, else dropped; the writer thread
 * is stopped and everything freed. Returns errno of the first failed write, 0 when none. */
int vks__spans_finish(vks_output *o, int write_rest);

#endif
