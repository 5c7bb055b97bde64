/* The formats vkskin reads, as the CLI lists them to people: built from the format registry
 * (vks_format_at) at run time, so that a format added to the library shows in every help text
 * and message without an edit here. */
#ifndef VKSKIN_CLI_FORMATS_H
#define VKSKIN_CLI_FORMATS_H

#include <stdio.h>

/* One line per format: its title, model extensions, clip extensions and axes, under a heading
 * line, each line indented by two spaces (help texts). */
void vks_cli_print_formats(FILE *f);

/* The clip files of every format, "RenderWare .anm .ska .ifp, Gamebryo .kf, ...", into out
 * (cap bytes, cut short if it must); returns out. */
const char *vks_cli_clip_format_list(char *out, size_t cap);

#endif
