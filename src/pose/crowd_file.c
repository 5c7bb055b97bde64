/* Crowd files (crowd_file.h): per instance a model, a clip, start, speed, cycle and root, in
 * JSON (crowd_file_json.c) or CSV (crowd_file_csv.c), both building the spec through
 * crowd_file_spec.c. Here: the entry points, which pick the form, and the spec's lifetime. */
#include "crowd_file_internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "core/vec.h"
#include "vkskin/clip.h"
#include "vkskin/skin.h"
#include "core/c_numeric.h"


/* ---- the spec ---- */

vks_result vks_crowd_file_parse(const char *text, size_t size, const char *name, vks_crowd_spec **out, vks_error *err)
{
    return vks_crowd_file_parse_with(text, size, name, NULL, out, err);
}

static vks_result crowd_file_parse_with_body(const char *text, size_t size, const char *name,
                                             const vks_allocator *allocator, vks_crowd_spec **out, vks_error *err)
{
    if (out)
        *out = NULL;
    vks__crowd_parser p = {0};
    p.err = err;
    p.name = name ? name : "crowd";
    if (!out || (!text && size))
        return vks__crowd_fail(&p, VKS_ERR_INVALID, 0, "", "expected crowd text and a place for the result");
    vks_allocator a;
    vks_skin_arena *arena;
    vks_crowd_spec *spec = vks__arena_owner_create(allocator, sizeof *spec, &a, &arena);
    if (!spec)
        return vks__crowd_nomem(&p, 0, "");
    spec->allocator = a;
    spec->arena = arena;
    p.spec = spec, p.a = a;
    spec->name = vks__arena_strndup(arena, &a, p.name, strlen(p.name));
    if (name) {
        const char *slash = strrchr(name, '/');
        p.dir_len = slash ? (size_t)(slash - name) + 1 : 0;
    }
    const char *c = text ? text : "";
    const char *e = c + size;
    if (e - c >= 3 && memcmp(c, "\xEF\xBB\xBF", 3) == 0)
        c += 3;
    while (c < e && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'))
        c++;
    vks_result r;
    if (!spec->name)
        r = vks__crowd_nomem(&p, 0, "");
    else if (c < e && *c == '{')
        spec->format = "json", r = vks__crowd_parse_json(&p, text, size);
    else
        spec->format = "csv", r = vks__crowd_parse_csv(&p, text ? text : "", size);
    if (p.models.slot)
        a.free(a.user, p.models.slot);
    if (p.clips.slot)
        a.free(a.user, p.clips.slot);
    if (r != VKS_OK) {
        vks_crowd_spec_free(spec);
        return r;
    }
    *out = spec;
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_crowd_file_parse_with(const char *text, size_t size, const char *name, const vks_allocator *allocator,
                                     vks_crowd_spec **out, vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, crowd_file_parse_with_body(text, size, name, allocator, out, err));
}

void vks_crowd_spec_free(vks_crowd_spec *spec)
{
    if (!spec)
        return;
    vks_allocator a = spec->allocator;
    if (spec->instances)
        a.free(a.user, spec->instances);
    if (spec->models)
        a.free(a.user, spec->models);
    if (spec->clips)
        a.free(a.user, spec->clips);
    if (spec->layers)
        a.free(a.user, spec->layers);
    vks__arena_owner_free(spec, &a, spec->arena);
}

const char *vks_crowd_spec_where(const vks_crowd_spec *spec, uint32_t i, char *buf, size_t size)
{
    if (!buf || !size)
        return "";
    const char *name = spec && spec->name ? spec->name : "crowd";
    if (spec && i < spec->instance_count && spec->instances[i].line)
        snprintf(buf, size, "%s:%u", name, spec->instances[i].line);
    else
        snprintf(buf, size, "%s: instances[%u]", name, i);
    return buf;
}
