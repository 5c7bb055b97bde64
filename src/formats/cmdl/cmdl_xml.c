/* The expat walk shared by the NW4C intermediate-file readers (see cmdl_xml.h). */
#include "cmdl_xml.h"
#include "cmdl_xml_alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ROOT_NAME "NintendoWareIntermediateFile"

void vks__cmdl_xml_where(cmdl_xml *x, cmdl_where *w)
{
    w->offset = (uint64_t)XML_GetCurrentByteIndex(x->xp);
    w->line = (unsigned long)XML_GetCurrentLineNumber(x->xp);
    w->column = (unsigned long)XML_GetCurrentColumnNumber(x->xp);
    size_t n = x->path_len;
    if (n == 0) /* at the root, or before it */
        snprintf(w->path, sizeof w->path, ROOT_NAME);
    else if (n < sizeof w->path)
        memcpy(w->path, x->path, n + 1);
    else
        snprintf(w->path, sizeof w->path, "...%s", x->path + n - (sizeof w->path - 4));
}

void vks__cmdl_xml_fail(cmdl_xml *x, vks_result code, const char *fmt, ...)
{
    if (x->failed)
        return;
    char msg[192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cmdl_where w;
    vks__cmdl_xml_where(x, &w);
    vks__cmdl_fail_at(x->c, code, &w, "%s", msg);
    x->failed = 1;
    XML_StopParser(x->xp, XML_FALSE);
}

const char *vks__cmdl_xml_attr(const XML_Char **atts, const char *name)
{
    for (int i = 0; atts[i]; i += 2)
        if (strcmp(atts[i], name) == 0)
            return atts[i + 1];
    return NULL;
}

static void push_path(cmdl_xml *x, const char *name, int numbered, uint32_t index)
{
    size_t len = x->path_len;
    int n = numbered ? snprintf(x->path + len, sizeof x->path - len, "%s%.48s[%u]", len ? "/" : "", name, index)
                     : snprintf(x->path + len, sizeof x->path - len, "%s%.48s", len ? "/" : "", name);
    if (n > 0)
        x->path_len = len + (size_t)n < sizeof x->path ? len + (size_t)n : sizeof x->path - 1;
}

static void XMLCALL on_start(void *user, const XML_Char *name, const XML_Char **atts)
{
    cmdl_xml *x = user;
    if (x->failed)
        return;
    if (x->skip) {
        x->skip++;
        return;
    }
    int kind = 0;
    size_t len = x->path_len;
    if (x->depth == 0) {
        if (strcmp(name, ROOT_NAME) != 0) {
            vks__cmdl_xml_fail(x, VKS_ERR_FORMAT, "root element is <%.60s>, expected <" ROOT_NAME ">", name);
            return;
        }
    } else {
        int parent = x->stack[x->depth - 1].kind;
        uint32_t index = x->stack[x->depth - 1].children++;
        /* the path names the element before the schema looks at it, so its errors point at it */
        push_path(x, name, x->schema->numbered(parent, name), index);
        kind = x->schema->child(x, parent, name, atts);
        if (x->failed)
            return;
        if (kind < 0 || x->depth >= CMDL_XML_MAX_DEPTH) { /* schemas are shallower: stay safe */
            x->path_len = len;
            x->path[len] = 0;
            x->skip = 1;
            return;
        }
    }
    x->stack[x->depth].kind = kind;
    x->stack[x->depth].children = 0;
    x->stack[x->depth].path_len = len;
    x->depth++;
    x->text.count = 0;
}

static void XMLCALL on_text(void *user, const XML_Char *s, int len)
{
    cmdl_xml *x = user;
    if (x->failed || x->skip || x->depth == 0 || !x->schema->collects(x->stack[x->depth - 1].kind) || len <= 0)
        return;
    char *dst = vks__cmdl_push(x->c, &x->text, (size_t)len);
    if (!dst) {
        vks__cmdl_xml_fail(x, VKS_ERR_NOMEM, "out of memory");
        return;
    }
    memcpy(dst, s, (size_t)len);
}

static void XMLCALL on_end(void *user, const XML_Char *name)
{
    cmdl_xml *x = user;
    (void)name;
    if (x->failed)
        return;
    if (x->skip) {
        x->skip--;
        return;
    }
    int kind = x->stack[x->depth - 1].kind;
    if (x->schema->end)
        x->schema->end(x, kind);
    x->text.count = 0;
    x->depth--;
    x->path_len = x->stack[x->depth].path_len;
    x->path[x->path_len] = 0;
}

/* Entity declarations are refused: NW4C files have none, and refusing them closes the door on
   entity expansion attacks whatever expat's own protections. */
static void XMLCALL on_entity(void *user, const XML_Char *name, int pe, const XML_Char *value, int vlen,
                              const XML_Char *base, const XML_Char *sysid, const XML_Char *pubid,
                              const XML_Char *notation)
{
    cmdl_xml *x = user;
    (void)pe, (void)value, (void)vlen, (void)base, (void)sysid, (void)pubid, (void)notation;
    vks__cmdl_xml_fail(x, VKS_ERR_UNSUPPORTED, "entity declaration \"%.40s\" is not allowed in a .%s file", name,
                       x->schema->format);
}

vks_result vks__cmdl_xml_parse(cmdl_xml *x, cmdl_ctx *c, const cmdl_xml_schema *schema, const void *bytes,
                               size_t size)
{
    memset(x, 0, sizeof *x);
    x->c = c;
    x->schema = schema;
    x->text.elem = 1;
    if (size > (size_t)INT32_MAX)
        return vks_error_set(c->err, VKS_ERR_LIMIT, 0, schema->format, "file of %zu bytes is too large for the XML parser",
                             size);
    /* expat allocates through the read options' allocator (cmdl_xml_alloc.c) */
    x->xp = XML_ParserCreate_MM(NULL, cmdl_xml_alloc_begin(&c->opt.allocator), NULL);
    if (!x->xp) {
        cmdl_xml_alloc_end();
        return vks_error_set(c->err, VKS_ERR_NOMEM, VKS_NO_OFFSET, schema->format, "out of memory creating the XML parser");
    }
    XML_SetUserData(x->xp, x);
    XML_SetElementHandler(x->xp, on_start, on_end);
    XML_SetCharacterDataHandler(x->xp, on_text);
    XML_SetEntityDeclHandler(x->xp, on_entity);
    enum XML_Status st = XML_Parse(x->xp, bytes, (int)size, XML_TRUE);
    vks_result rc = VKS_OK;
    if (x->failed) {
        rc = c->err && c->err->code ? c->err->code : VKS_ERR_FORMAT;
        if (!c->err || !c->err->code)
            vks_error_set(c->err, rc, VKS_NO_OFFSET, schema->format, "parse failed");
    } else if (st != XML_STATUS_OK) {
        enum XML_Error e = XML_GetErrorCode(x->xp);
        cmdl_where w;
        vks__cmdl_xml_where(x, &w);
        rc = (e == XML_ERROR_NO_ELEMENTS || e == XML_ERROR_UNCLOSED_TOKEN || e == XML_ERROR_PARTIAL_CHAR ||
              e == XML_ERROR_UNCLOSED_CDATA_SECTION)
                 ? VKS_ERR_TRUNCATED
                 : VKS_ERR_FORMAT;
        vks__cmdl_fail_at(c, rc, &w, "malformed XML: %s", XML_ErrorString(e));
    }
    XML_ParserFree(x->xp);
    x->xp = NULL;
    cmdl_xml_alloc_end();
    vks__cmdl_vec_free(c, &x->text);
    return rc;
}
