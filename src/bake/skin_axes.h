/* The axes a skin's file was authored in, from its format's registry record (vks_format_info's
 * axes): the one place the writers of glTF (gltf_skin.c) and of the VAT sidecar
 * (vat_sidecar.c) learn them, so neither names a format. */
#ifndef VKS_BAKE_SKIN_AXES_H
#define VKS_BAKE_SKIN_AXES_H

#include "vkskin/formats.h"

/* The axes of skin->format's record; Y up, right-handed where the skin names no format the
 * registry knows (a skin a host built). */
vks_axes vks__skin_axes(const vks_skin *skin);

#endif
