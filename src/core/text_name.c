/* See text_name.h. */
#include "core/text_name.h"

#include <stdio.h>
#include <string.h>

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or 0 when the byte at p does not start one. */
size_t vks__utf8_length(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c == 0xe0)
        lo = 0xa0;
    else if (c == 0xed)
        hi = 0x9f;
    else if (c == 0xf0)
        lo = 0x90;
    else if (c == 0xf4)
        hi = 0x8f;
    if (n == 0 || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

/* Whether the sequence of length len at p is a control: C0, DEL, or C1 (U+0080..U+009F). */
static int is_control(const unsigned char *p, size_t len)
{
    return len == 1 ? p[0] < 0x20 || p[0] == 0x7f : len == 2 && p[0] == 0xc2 && p[1] < 0xa0;
}

const char *vks__text_name(const char *s, char *buf, size_t n)
{
    size_t at = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    if (n == 0)
        return buf;
    while (*p) {
        size_t len = vks__utf8_length(p);
        char piece[16];
        size_t k = 0;
        if (len && !is_control(p, len)) {
            memcpy(piece, p, len), k = len;
        } else {
            size_t bytes = len ? len : 1;
            for (size_t i = 0; i < bytes; i++) {
                const char *c = p[i] == '\n' ? "\\n" : p[i] == '\r' ? "\\r" : p[i] == '\t' ? "\\t" : NULL;
                k += c ? (size_t)snprintf(piece + k, sizeof piece - k, "%s", c)
                       : (size_t)snprintf(piece + k, sizeof piece - k, "\\x%02x", p[i]);
            }
            len = bytes;
        }
        if (at + k + 4 > n) { /* room for "..." and the end */
            if (n >= 4)
                memcpy(buf + (at < n - 4 ? at : n - 4), "...", 4);
            else
                buf[0] = '\0';
            return buf;
        }
        memcpy(buf + at, piece, k);
        at += k;
        p += len;
    }
    buf[at] = '\0';
    return buf;
}

