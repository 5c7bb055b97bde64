/* What the formats' probes and the extension step of detection test bytes and names with
 * (registry.h). Kept apart from the list of formats (registry.c), which every format's
 * record is named by, so that a record using them loops back into nothing. */
#include <ctype.h>
#include <string.h>

#include "registry.h"

int vks__name_has_ext(const char *name, const char *ext)
{
    if (!name)
        return 0;
    size_t n = strlen(name), e = strlen(ext);
    if (n < e)
        return 0;
    for (size_t i = 0; i < e; i++)
        if (tolower((unsigned char)name[n - e + i]) != ext[i])
            return 0;
    return 1;
}

int vks__bytes_start(const void *bytes, size_t size, const char *magic)
{
    size_t n = strlen(magic);
    return bytes && size >= n && memcmp(bytes, magic, n) == 0;
}

int vks__bytes_contain(const void *bytes, size_t size, size_t within, const char *needle)
{
    size_t n = size < within ? size : within, k = strlen(needle);
    for (size_t i = 0; bytes && i + k <= n; i++)
        if (memcmp((const char *)bytes + i, needle, k) == 0)
            return 1;
    return 0;
}
