/* A glTF's external file URIs resolved to paths, the one rule of the buffer reader
 * (gltf_buffers.c) and of vks_list_side_files (gltf_side_files.c): a relative URI,
 * percent-decoded first and judged after, that stays inside the model's folder, or inside the
 * folder the read options' gltf.root names. Refused: a scheme ("file:", "http:"), an absolute
 * path (also when percent-encoded: "%2Fetc%2Fpasswd"), a backslash, a NUL byte, a ".." that
 * climbs above the model's folder, and a name on the file system that leads out of the
 * allowed folders through a link (a conversion service must not hand out any
 * file the process can read). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* "%41" escapes decoded into out (cap >= strlen(s) + 1); 0 on a malformed escape or a NUL. */
static int percent_decode(const char *s, char *out)
{
    size_t o = 0;
    for (; *s; s++) {
        char c = *s;
        if (c == '%') {
            int hi = hex_value(s[1]), lo = hi >= 0 ? hex_value(s[2]) : -1;
            if (hi < 0 || lo < 0)
                return 0;
            c = (char)(hi * 16 + lo);
            s += 2;
        }
        if (c == 0)
            return 0;
        out[o++] = c;
    }
    out[o] = 0;
    return 1;
}

/* 1 when the decoded relative path climbs above its start with "..": "a/../../b" does,
 * "a/../b" does not. */
static int climbs_out(const char *p)
{
    long depth = 0;
    while (*p) {
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') {
            if (--depth < 0)
                return 1;
        } else if (n > 0 && !(n == 1 && p[0] == '.')) {
            depth++;
        }
        p += n + (end ? 1 : 0);
    }
    return 0;
}

/* 1 when the real path of file lies in folder (itself a real path). */
static int real_inside(const char *real_file, const char *folder)
{
    char real_dir[PATH_MAX];
    if (!realpath(folder, real_dir))
        return 0;
    size_t n = strlen(real_dir);
    if (n == 1 && real_dir[0] == '/')
        return 1;
    return !strncmp(real_file, real_dir, n) && real_file[n] == '/';
}

/* Where the name is a file on the file system: its real path, links followed, inside the
   model's folder or the allowed root. A name that is not there passes (a host's callback may
   serve it from an archive; on the file system its read says it is missing). Checked whatever
   the callback, since a host's callback (the CLI's among them) often reads the file system. */
static int stays_inside(const vks_read_options *o, const char *file, const char *dir)
{
    char real_file[PATH_MAX];
    if (!realpath(file, real_file))
        return 1;
    if (real_inside(real_file, dir[0] ? dir : "."))
        return 1;
    return o->gltf.root && real_inside(real_file, o->gltf.root);
}

vks_result vks__gltfr_resolve_uri(const vks_read_options *o, const char *base, const char *uri, char **out,
                                  char *why, size_t why_cap)
{
    *out = NULL;
    const vks_allocator *a = &o->allocator;
    if (strchr(uri, ':')) {
        snprintf(why, why_cap, "only relative file URIs and data: URIs are read");
        return VKS_ERR_UNSUPPORTED;
    }
    const char *slash = strrchr(base, '/');
    size_t dir = slash ? (size_t)(slash - base) + 1 : 0;
    char *file = a->alloc(a->user, dir + strlen(uri) + 2);
    if (!file) {
        snprintf(why, why_cap, "out of memory");
        return VKS_ERR_NOMEM;
    }
    memcpy(file, base, dir);
    char *rel = file + dir;
    vks_result r = VKS_OK;
    if (!percent_decode(uri, rel)) {
        snprintf(why, why_cap, "malformed URI (a bad %% escape or a NUL byte)");
        r = VKS_ERR_FORMAT;
    } else if (rel[0] == '/' || strchr(rel, '\\') || rel[0] == 0) {
        snprintf(why, why_cap, "not a relative file name once decoded");
        r = VKS_ERR_UNSUPPORTED;
    } else if (!o->gltf.root && climbs_out(rel)) {
        snprintf(why, why_cap, "leaves the model's folder (a folder may be allowed: read options' gltf.root, "
                               "--uri-root DIR)");
        r = VKS_ERR_UNSUPPORTED;
    } else {
        char keep = *rel;
        *rel = 0; /* file now names the model's folder, "" for the current one */
        char *folder = a->alloc(a->user, dir + 1);
        if (folder)
            memcpy(folder, file, dir + 1);
        *rel = keep;
        if (!folder) {
            snprintf(why, why_cap, "out of memory");
            r = VKS_ERR_NOMEM;
        } else if (!stays_inside(o, file, folder)) {
            snprintf(why, why_cap, "leads out of the model's folder%s through a link", o->gltf.root ? " and the URI root" : "");
            r = VKS_ERR_UNSUPPORTED;
        }
        if (folder)
            a->free(a->user, folder);
    }
    if (r != VKS_OK) {
        a->free(a->user, file);
        return r;
    }
    *out = file;
    return VKS_OK;
}
