/* Private to bake/: the VAT encodings as inline functions, so that the loops over a whole
 * texture (vat_texels.c, vat_exr.c) do not make a call per component; vks_vat_quantize16 and
 * vks_half_from_float (vat_layout.c) are these same functions. */
#ifndef VKS_BAKE_VAT_ENCODE_H
#define VKS_BAKE_VAT_ENCODE_H

#include <stddef.h>
#include <stdint.h>

/* x in [lo, hi] to 0..65535, nearest; 0 when hi <= lo. */
static inline uint16_t vks__vat_quantize16(float x, float lo, float hi)
{
    if (!(hi > lo))
        return 0;
    double t = ((double)x - lo) / ((double)hi - lo) * 65535.0;
    if (!(t > 0.0))
        return 0;
    if (t >= 65535.0)
        return 65535;
    /* t + 0.5 is positive here: truncation is floor(), without libm's call */
    return (uint16_t)(t + 0.5);
}

/* n floats to IEEE half, round to nearest even (vks_half_from_float's rule), on the CPU's
 * conversion instruction where it has one. */
void vks__half_from_floats(const float *in, uint16_t *out, size_t n);

#endif
