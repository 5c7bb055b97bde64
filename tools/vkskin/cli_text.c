/* See cli_text.h. */
#include "cli_text.h"
#include "core/text_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *vks_cli_name(const char *s, char *buf, size_t n)
{
    return vks__text_name(s, buf, n); /* the library's, so its messages escape names alike */
}

char *vks_cli_json_utf8(const char *json)
{
    size_t n = strlen(json);
    char *out = malloc(n * 6 + 1); /* each byte at most "\ufffd" */
    if (!out)
        return NULL;
    size_t at = 0;
    for (const unsigned char *p = (const unsigned char *)json; *p;) {
        size_t len = vks__utf8_length(p);
        if (len) {
            memcpy(out + at, p, len), at += len, p += len;
        } else { /* only inside a string: cJSON writes its structure in ASCII */
            memcpy(out + at, "\\ufffd", 6), at += 6, p++;
        }
    }
    out[at] = '\0';
    return out;
}
