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
