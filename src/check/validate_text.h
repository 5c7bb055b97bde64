/* Private to validate's writers (validate_text.c, validate_folder.c): the words of a sampled
 * run, which the text report prints and every JUnit suite and the page carry as a property. */
#ifndef VKS_CHECK_VALIDATE_TEXT_H
#define VKS_CHECK_VALIDATE_TEXT_H

#include <stddef.h>

#include "vkskin/validate.h"

/* "C of N instances compared with the reference (--sample N|P%, seed S); the GPU's reduction of
 * every chunk checked" for device d (its files' samples and what the run asked). */
void vks__validate_sample_said(const vks_validate_device *d, char *out, size_t size);

#endif
