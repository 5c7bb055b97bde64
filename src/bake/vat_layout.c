/* Texture layouts and encodings for vertex animation textures and bone atlases (vat.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "vkskin/vat.h"

#include "vat_encode.h"

vks_result vks_vat_layout_make(uint32_t vertex_count, uint32_t frames, uint32_t max_width, vks_vat_layout *out,
                               vks_error *err)
{
    if (!max_width)
        max_width = VKS_VAT_DEFAULT_MAX_WIDTH;
    if (!vertex_count || !frames)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "vat", "%u vertices x %u frames: nothing to bake",
                             vertex_count, frames);
    vks_vat_layout l;
    l.vertex_count = vertex_count;
    l.width = vertex_count < max_width ? vertex_count : max_width;
    l.rows_per_frame = (vertex_count + l.width - 1) / l.width;
    l.frames = frames;
    uint64_t h = (uint64_t)frames * l.rows_per_frame;
    if (h > INT32_MAX)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "vat",
                             "%u frames x %u rows per frame exceed an image's %d rows", frames, l.rows_per_frame,
                             INT32_MAX);
    l.height = (uint32_t)h;
    *out = l;
    return VKS_OK;
}

void vks_vat_uv(const vks_vat_layout *l, uint32_t v, float uv[2])
{
    uv[0] = ((float)vks_vat_column(l, v) + 0.5f) / (float)l->width;
    uv[1] = ((float)vks_vat_row(l, 0, v) + 0.5f) / (float)l->height;
}

uint16_t vks_half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xffu) /* infinity, or NaN with a quiet bit so it stays NaN */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        /* subnormal half (or zero): shift the mantissa with its hidden bit into place, then
           round to nearest even on the bits shifted out */
        if (e < -10)
            return sign;
        uint32_t m = man | 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is right, up to infinity */
    return (uint16_t)(sign | h);
}

float vks_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, x;
    if (exp == 0) {
        float v = ldexpf((float)man, -24);
        return sign ? -v : v;
    }
    if (exp == 31)
        x = sign | 0x7f800000u | (man << 13);
    else
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    float f;
    memcpy(&f, &x, 4);
    return f;
}

uint16_t vks_vat_quantize16(float x, float lo, float hi)
{
    return vks__vat_quantize16(x, lo, hi);
}

float vks_vat_dequantize16(uint16_t q, float lo, float hi)
{
    if (!(hi > lo))
        return lo;
    return (float)((double)lo + (double)q / 65535.0 * ((double)hi - lo));
}

void vks_vat_bounds(const float *xyz, size_t count, float min[3], float max[3])
{
    for (int k = 0; k < 3; k++)
        min[k] = max[k] = count ? xyz[k] : 0.0f;
    for (size_t i = 1; i < count; i++)
        for (int k = 0; k < 3; k++) {
            float v = xyz[i * 3 + k];
            if (v < min[k])
                min[k] = v;
            if (v > max[k])
                max[k] = v;
        }
}
