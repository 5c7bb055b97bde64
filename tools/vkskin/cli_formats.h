/* The clip formats vkskin reads, as the CLI's messages list them: built from the format
 * registry (vks_format_at) at run time, so that a format added to the library shows without an
 * edit here (the help's format table: vks__cli_formats, cli_help.c). */
#ifndef VKSKIN_CLI_FORMATS_H
#define VKSKIN_CLI_FORMATS_H

#include <stdio.h>

/* The clip files of every format, "RenderWare .anm .ska .ifp, Gamebryo .kf, ...", into out
 * (cap bytes, cut short if it must); returns out. */
const char *vks_cli_clip_format_list(char *out, size_t cap);

#endif
