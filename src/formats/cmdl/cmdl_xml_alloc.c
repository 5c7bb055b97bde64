/* expat's memory suite over the read options' allocator. expat's suite functions take no user
 * pointer, so the allocator of the parse running on this thread sits in a thread-local: expat
 * calls the suite only from inside XML_ParserCreate_MM / XML_Parse / XML_ParserFree, which
 * vks__cmdl_parse makes on its own thread between cmdl_xml_alloc_begin and _end, so parses on
 * other threads (with other allocators) never see it. Each block carries its size in a header
 * because the allocator has no realloc. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cmdl_xml_alloc.h"

static _Thread_local const vks_allocator *current;

/* a header as large as malloc's alignment, so the block after it keeps that alignment */
#define HEADER sizeof(max_align_t)

static void *xml_malloc(size_t size)
{
    if (size > SIZE_MAX - HEADER)
        return NULL;
    char *p = current->alloc(current->user, size + HEADER);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    return p + HEADER;
}

static void xml_free(void *ptr)
{
    if (ptr)
        current->free(current->user, (char *)ptr - HEADER);
}

static void *xml_realloc(void *ptr, size_t size)
{
    if (!ptr)
        return xml_malloc(size);
    size_t old;
    memcpy(&old, (char *)ptr - HEADER, sizeof old);
    void *p = xml_malloc(size);
    if (!p)
        return NULL; /* realloc's contract: the old block stays valid */
    memcpy(p, ptr, old < size ? old : size);
    xml_free(ptr);
    return p;
}

const XML_Memory_Handling_Suite *cmdl_xml_alloc_begin(const vks_allocator *a)
{
    static const XML_Memory_Handling_Suite suite = {xml_malloc, xml_realloc, xml_free};
    current = a;
    return &suite;
}

void cmdl_xml_alloc_end(void)
{
    current = NULL;
}
