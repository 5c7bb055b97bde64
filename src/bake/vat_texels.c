/* Frames into VAT texels, and texels into 16-bit codes (vat_write.h). */
#include "vkskin/vat_write.h"

#include <string.h>

#include "vat_encode.h"

void vks_vat_texels(const float *frames, const vks_vat_layout *l, float *out)
{
    /* row by row: a frame's vertices fill its rows in order, so each row is one copy and only
       the texels no vertex uses (a frame's last row past its vertices, rows past the frames)
       are cleared, instead of clearing everything and copying a vertex at a time */
    size_t row = (size_t)l->width * 3, filled = 0;
    for (uint32_t g = 0; g < l->frames; g++)
        for (uint32_t r = 0; r < l->rows_per_frame; r++) {
            uint32_t v0 = r * l->width, n = l->vertex_count - v0 < l->width ? l->vertex_count - v0 : l->width;
            float *dst = out + ((size_t)g * l->rows_per_frame + r) * row;
            memcpy(dst, frames + ((size_t)g * l->vertex_count + v0) * 3, (size_t)n * 3 * sizeof *out);
            memset(dst + (size_t)n * 3, 0, (row - (size_t)n * 3) * sizeof *out);
            filled += row;
        }
    size_t all = vks_vat_texel_floats(l);
    if (filled < all)
        memset(out + filled, 0, (all - filled) * sizeof *out);
}

void vks_vat_quantize_texels(const float *texels, size_t count, const float lo[3], const float hi[3], uint16_t *out)
{
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < 3; c++)
            out[i * 3 + c] = vks__vat_quantize16(texels[i * 3 + c], lo[c], hi[c]);
}
