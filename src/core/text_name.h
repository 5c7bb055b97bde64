/* Names read from files, made safe to print (issue 37): a node, material or clip name is data,
 * but printed raw its newline forges a line of a report and its escape sequence drives the
 * terminal. The library's messages and the vkskin program (cli_text.h) escape them alike. */
#ifndef VKS_CORE_TEXT_NAME_H
#define VKS_CORE_TEXT_NAME_H

#include <stddef.h>

/* A buffer that holds any name the readers keep, escaped (a long one is cut with "..."). */
#define VKS__NAME_MAX 1024

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or 0 when the byte at p does not start one. */
size_t vks__utf8_length(const unsigned char *p);

/* s for a line of text output, in buf[n] (returned): UTF-8 is kept as it is; a control
 * character (C0, DEL, and C1 written as UTF-8) and a byte that is not UTF-8 are written as
 * escapes: \n, \r, \t, else \xNN for each byte. A backslash stays as it is (texture paths are
 * full of them), so "\n" in a name may be two characters or one: the line stays one line. */
const char *vks__text_name(const char *s, char *buf, size_t n);

#endif
