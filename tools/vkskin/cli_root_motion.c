/* See cli_root_motion.h: where the CSV goes. The library writes it (vks_poser_root_motion_write,
 * poser.h). */
#include "cli_root_motion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


char *vks_cli_root_motion_path(const char *out_path)
{
    size_t n = strlen(out_path) + sizeof ".root_motion.csv";
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s.root_motion.csv", out_path);
    return p;
}
