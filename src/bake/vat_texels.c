/* Frames into VAT texels, and texels into 16-bit codes (vat_write.h). */
#include "vkskin/vat_write.h"

#include <string.h>

void vks_vat_texels(const float *frames, const vks_vat_layout *l, float *out)
{
    memset(out, 0, vks_vat_texel_floats(l) * sizeof *out);
    for (uint32_t g = 0; g < l->frames; g++)
        for (uint32_t v = 0; v < l->vertex_count; v++) {
            size_t dst = ((size_t)vks_vat_row(l, g, v) * l->width + vks_vat_column(l, v)) * 3;
            memcpy(out + dst, frames + ((size_t)g * l->vertex_count + v) * 3, 12);
        }
}

void vks_vat_quantize_texels(const float *texels, size_t count, const float lo[3], const float hi[3], uint16_t *out)
{
    for (size_t i = 0; i < count * 3; i++)
        out[i] = vks_vat_quantize16(texels[i], lo[i % 3], hi[i % 3]);
}
