/* The .cmdl reader's document tree: allocation and growable arrays (core/vec.h) over the
 * read options' allocator, marking the context on exhaustion; the error helper that puts
 * expat's line and column into the message; and the tree's free. */
#include "cmdl_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void *vks__cmdl_alloc(cmdl_ctx *c, size_t count, size_t elem)
{
    if (elem && count > SIZE_MAX / 2 / elem) {
        c->nomem = 1;
        return NULL;
    }
    size_t n = (count && elem) ? count * elem : 1;
    void *p = c->opt.allocator.alloc(c->opt.allocator.user, n);
    if (!p) {
        c->nomem = 1;
        return NULL;
    }
    memset(p, 0, n);
    return p;
}

void vks__cmdl_free(cmdl_ctx *c, void *p)
{
    if (p)
        c->opt.allocator.free(c->opt.allocator.user, p);
}

char *vks__cmdl_strdup(cmdl_ctx *c, const char *s)
{
    size_t n = strlen(s);
    char *p = vks__cmdl_alloc(c, n + 1, 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

void *vks__cmdl_push(cmdl_ctx *c, vks_vec *v, size_t n)
{
    void *r = vks__vec_push(v, &c->opt.allocator, n);
    if (!r)
        c->nomem = 1;
    return r;
}

void vks__cmdl_vec_free(cmdl_ctx *c, vks_vec *v)
{
    vks__vec_free(v, &c->opt.allocator);
}

vks_result vks__cmdl_fail_at(cmdl_ctx *c, vks_result code, const cmdl_where *at, const char *fmt, ...)
{
    char msg[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!at)
        return vks_error_set(c->err, code, VKS_NO_OFFSET, "cmdl", "%s", msg);
    return vks_error_set(c->err, code, at->offset, at->path, "line %lu, column %lu: %s", at->line, at->column,
                         msg);
}

void vks__cmdl_doc_free(cmdl_ctx *c)
{
    cmdl_doc *d = &c->doc;
    cmdl_shape *shapes = d->shapes.data;
    for (size_t i = 0; i < d->shapes.count; i++) {
        cmdl_stream *st = shapes[i].streams.data;
        for (size_t k = 0; k < shapes[i].streams.count; k++)
            vks__cmdl_free(c, st[k].values);
        cmdl_set *sets = shapes[i].sets.data;
        for (size_t k = 0; k < shapes[i].sets.count; k++) {
            vks__cmdl_free(c, sets[k].table);
            vks__cmdl_vec_free(c, &sets[k].tris);
        }
        vks__cmdl_vec_free(c, &shapes[i].streams);
        vks__cmdl_vec_free(c, &shapes[i].sets);
    }
    cmdl_bone *bones = d->bones.data;
    for (size_t i = 0; i < d->bones.count; i++) {
        vks__cmdl_free(c, bones[i].name);
        vks__cmdl_free(c, bones[i].parent);
    }
    char **mats = d->materials.data;
    for (size_t i = 0; i < d->materials.count; i++)
        vks__cmdl_free(c, mats[i]);
    cmdl_meshref *meshes = d->meshes.data;
    for (size_t i = 0; i < d->meshes.count; i++)
        vks__cmdl_free(c, meshes[i].material);
    vks__cmdl_vec_free(c, &d->shapes);
    vks__cmdl_vec_free(c, &d->bones);
    vks__cmdl_vec_free(c, &d->materials);
    vks__cmdl_vec_free(c, &d->meshes);
    vks__cmdl_free(c, d->version);
    vks__cmdl_free(c, d->model_name);
    memset(d, 0, sizeof *d);
}
