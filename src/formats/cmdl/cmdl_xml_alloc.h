/* expat's memory suite over a vks_allocator (see cmdl_xml_alloc.c for why a thread-local). */
#ifndef VKS_CMDL_XML_ALLOC_H
#define VKS_CMDL_XML_ALLOC_H

#include <expat.h>

#include "vkskin/core.h"

/* Makes a the allocator of the suite on this thread until cmdl_xml_alloc_end; returns the
 * suite for XML_ParserCreate_MM. Every expat call on the parser must come in between. */
const XML_Memory_Handling_Suite *cmdl_xml_alloc_begin(const vks_allocator *a);
void cmdl_xml_alloc_end(void);

#endif
