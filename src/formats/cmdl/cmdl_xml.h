/* The expat walk both NintendoWare intermediate-file readers share (the .cmdl model reader here
 * and the .cskla clip reader, src/formats/cmdl/cskla_*.c): the element stack with its structure path
 * ("GraphicsContentCtr/Models/SkeletalModel[0]/Shapes/SeparateDataShapeCtr[2]"), skipped
 * subtrees, the position of the element being read for errors ("line L, column C: ..."),
 * the text of collecting elements, refused entity declarations, and the parse call with its
 * malformed-XML report. A reader embeds a cmdl_xml first in its own parser state and gives
 * the callbacks that know its schema. */
#ifndef VKS_FORMATS_CMDL_XML_H
#define VKS_FORMATS_CMDL_XML_H

#include <expat.h>

#include "cmdl_internal.h"

#define CMDL_XML_MAX_DEPTH 24

typedef struct cmdl_xml cmdl_xml;

typedef struct cmdl_xml_schema {
    const char *format;   /* "cmdl", "cskla": error paths and messages */
    /* The kind of a child (>= 0), or -1 to skip it and its subtree; may fail. The root
       element (NintendoWareIntermediateFile, checked here) has kind 0. */
    int (*child)(cmdl_xml *x, int parent, const char *name, const XML_Char **atts);
    /* Is the child numbered in paths ("Bone[3]")? */
    int (*numbered)(int parent, const char *name);
    /* Does an element of this kind collect its text into x->text? */
    int (*collects)(int kind);
    /* An element of this kind ends (its text in x->text); may fail. NULL: nothing to do. */
    void (*end)(cmdl_xml *x, int kind);
} cmdl_xml_schema;

struct cmdl_xml {
    cmdl_ctx *c;
    const cmdl_xml_schema *schema;
    XML_Parser xp;
    struct {
        int kind;
        uint32_t children;
        size_t path_len; /* the path's length before this element's part */
    } stack[CMDL_XML_MAX_DEPTH];
    int depth;
    unsigned long skip; /* > 0: inside a skipped subtree */
    char path[512];
    size_t path_len;
    vks_vec text; /* the collecting element's characters */
    int failed;
};

/* Where the element being started or ended sits (expat's position) and its path; the tail of
   a long path (the innermost elements say the most), the root's name for an empty one. */
void vks__cmdl_xml_where(cmdl_xml *x, cmdl_where *w);
/* Records an error at the current element and stops the parse (only the first counts). */
void vks__cmdl_xml_fail(cmdl_xml *x, vks_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
const char *vks__cmdl_xml_attr(const XML_Char **atts, const char *name);

/* Parses bytes with the schema, x->c's allocator (through expat) and error; x is zeroed
   here except the fields the caller keeps after it. */
vks_result vks__cmdl_xml_parse(cmdl_xml *x, cmdl_ctx *c, const cmdl_xml_schema *schema, const void *bytes,
                               size_t size);

#endif
