/* What hosts say about clips besides reading them (clip_formats.h, clip_sample.h): a name for
 * an unnamed clip and the note on nodes a clip leaves in bind pose. The vkskin program and the
 * bake job engine each had a copy, worded alike; one wording here keeps them so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vkskin/clip_formats.h"
#include "vkskin/clip_sample.h"

char *vks_clip_unnamed_name(const char *path, uint32_t k, uint32_t clip_count)
{
    path = path ? path : "";
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    int n = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
    char *name = malloc((size_t)n + 16);
    if (name && clip_count > 1)
        snprintf(name, (size_t)n + 16, "%.*s %u", n, base, k);
    else if (name)
        snprintf(name, (size_t)n + 16, "%.*s", n, base);
    return name;
}

const char *vks_clip_binding_note(const vks_clip_binding *b, const char *label, char *buf, size_t size)
{
    if (!b || !b->untouched_nodes || !buf || size == 0)
        return NULL;
    uint32_t n = b->node_count, rest = b->untouched_nodes;
    snprintf(buf, size, "note: the clip %s animates %u of the model's %u nodes; the other %u %s bind pose",
             label ? label : "", n - rest, n, rest, rest == 1 ? "keeps its" : "keep their");
    return buf;
}
