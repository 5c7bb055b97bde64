/* The models and clips a crowd file names, each distinct text once (crowd_file_internal.h): a
 * hash on the text as written, so a crowd of a million rows naming four clips holds four clip
 * sources; relative paths are joined to the crowd file's folder. */
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

/* ---- sources: each distinct text once ---- */

static uint64_t hash_text(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int table_grow(vks__crowd_parser *p, vks__crowd_table *t, const vks_crowd_source *src, uint32_t count)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    uint32_t *slot = p->a.alloc(p->a.user, cap * sizeof *slot);
    if (!slot)
        return 0;
    memset(slot, 0, cap * sizeof *slot);
    for (uint32_t i = 0; i < count; i++) {
        size_t h = (size_t)hash_text(src[i].text, strlen(src[i].text)) & (cap - 1);
        while (slot[h])
            h = (h + 1) & (cap - 1);
        slot[h] = i + 1;
    }
    if (t->slot)
        p->a.free(p->a.user, t->slot);
    t->slot = slot, t->cap = cap;
    return 1;
}

/* The path as the host should open it: relative paths joined to the crowd file's folder. */
static const char *resolve(vks__crowd_parser *p, const char *path, size_t n)
{
    if (n && path[0] == '/')
        return vks__arena_strndup(p->spec->arena, &p->a, path, n);
    char *s = vks__arena_alloc(p->spec->arena, &p->a, p->dir_len + n + 1);
    if (s) {
        memcpy(s, p->name, p->dir_len);
        memcpy(s + p->dir_len, path, n);
        s[p->dir_len + n] = 0;
    }
    return s;
}

/* Index of the source written as text[0..n) (a model when !clip), added when new; -1 with
 * the error recorded on failure. */
int32_t vks__crowd_intern(vks__crowd_parser *p, int clip, const char *text, size_t n, uint32_t instance, uint32_t line,
                          const char *path)
{
    vks__crowd_table *t = clip ? &p->clips : &p->models;
    vks_crowd_source **arr = clip ? &p->spec->clips : &p->spec->models;
    uint32_t *count = clip ? &p->spec->clip_count : &p->spec->model_count;
    size_t *cap = clip ? &p->clip_cap : &p->model_cap;
    uint64_t h = hash_text(text, n);
    if (t->cap)
        for (size_t i = (size_t)h & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1)) {
            const char *s = (*arr)[t->slot[i] - 1].text;
            if (strlen(s) == n && memcmp(s, text, n) == 0)
                return (int32_t)(t->slot[i] - 1);
        }
    /* new: split a clip at its last '#' into file and clip name */
    size_t file_len = n;
    const char *name = "";
    if (clip) {
        const char *hash = NULL;
        for (size_t i = 0; i < n; i++)
            if (text[i] == '#')
                hash = text + i;
        if (hash) {
            file_len = (size_t)(hash - text);
            name = vks__arena_strndup(p->spec->arena, &p->a, hash + 1, n - file_len - 1);
        }
        if (file_len == 0) {
            vks__crowd_fail(p, VKS_ERR_FORMAT, line, path,
                            "expected \"FILE#name\" or \"FILE#index\", got no file before '#'");
            return -1;
        }
    }
    vks_crowd_source *grown = vks__grow_array(&p->a, *arr, *count, cap, 1, sizeof **arr, 8);
    if (!grown) {
        vks__crowd_nomem(p, line, path);
        return -1;
    }
    *arr = grown;
    vks_crowd_source *s = &grown[*count];
    s->text = vks__arena_strndup(p->spec->arena, &p->a, text, n);
    s->path = resolve(p, text, file_len);
    s->name = name;
    s->first_instance = instance;
    if (!s->text || !s->path || !s->name) {
        vks__crowd_nomem(p, line, path);
        return -1;
    }
    (*count)++;
    if ((size_t)*count * 2 > t->cap && !table_grow(p, t, *arr, *count)) {
        (*count)--;
        vks__crowd_nomem(p, line, path);
        return -1;
    }
    if ((size_t)*count * 2 <= t->cap) {
        size_t i = (size_t)h & (t->cap - 1);
        while (t->slot[i] && t->slot[i] != *count)
            i = (i + 1) & (t->cap - 1);
        t->slot[i] = *count;
    }
    return (int32_t)(*count - 1);
}

