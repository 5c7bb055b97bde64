/* Names read from files, made safe to print (issue 37; cli_text.c): a node, material or clip
 * name is data, but printed raw its newline forges a line of the report and its escape
 * sequence drives the terminal. */
#ifndef VKSKIN_CLI_TEXT_H
#define VKSKIN_CLI_TEXT_H

#include <stddef.h>

/* A buffer that holds any name the readers keep, escaped (a long one is cut with "..."). */
#define VKS_CLI_NAME_MAX 1024

/* s for a line of text output, in buf[n] (returned): UTF-8 is kept as it is; a control
 * character (C0, DEL, and C1 written as UTF-8) and a byte that is not UTF-8 are written as
 * escapes: \n, \r, \t, else \xNN for each byte. A backslash stays as it is (texture paths are
 * full of them), so "\n" in a name may be two characters or one: the line stays one line. */
const char *vks_cli_name(const char *s, char *buf, size_t n);

#endif
