/* The channels of a texture's EXR file, written (vat_exr.c) and read back (vat_read_exr.c) by
 * the same names: R, G, B and A. */
#ifndef VKS_BAKE_VAT_EXR_CHANNELS_H
#define VKS_BAKE_VAT_EXR_CHANNELS_H

#include <string.h>

static const char *const vks__exr_channel_names[4] = {"R", "G", "B", "A"};

/* The index (0..3) of the channel called name; -1 for another. */
static inline int vks__exr_channel_of(const char *name)
{
    for (int c = 0; c < 4; c++)
        if (!strcmp(name, vks__exr_channel_names[c]))
            return c;
    return -1;
}

#endif
