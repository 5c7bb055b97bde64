/* vkskin vertex animation textures and bone-matrix atlases: where every (clip, frame, vertex)
 * or (clip, frame, bone) lands in a texture, and the encodings' arithmetic (half floats,
 * 16-bit values normalised to bounds). No file format lives here: the vkskin program writes
 * the textures (OpenEXR, PNG) and a host or a test reads them back with the same layout.
 *
 * STEP BY STEP
 *   vks_vat_layout l; vks_vat_layout_make(vertex_count, total_frames, 0, &l);
 *   texel of vertex v in frame g (frames of all clips stacked, clip after clip):
 *       column vks_vat_column(&l, v), row vks_vat_row(&l, g, v)
 *   the rest mesh's UV of vertex v: vks_vat_uv(&l, v, uv)   (frame 0; a shader adds
 *       g * rows_per_frame / height to v, 0 = the texture's first row)
 *   encodings: vks_half_from_float / vks_half_to_float; vks_vat_quantize16 / vks_vat_dequantize16
 *
 * Layout (VAT). One column per vertex (model vertex order, as inspect prints it), one row per
 * frame; a vertex list longer than max_width wraps into rows_per_frame rows per frame, so
 * frame g occupies rows [g * rows_per_frame, (g + 1) * rows_per_frame). Rows run top to bottom
 * as stored (row 0 is the file's first scanline).
 *
 * Layout (atlas). Per frame one row of 3 * bone_count texels: bone b's skin matrix K (skin.h)
 * as its three rows (x, y, z), each an RGBA texel (m00 m01 m02 m03), so p' = (dot(t0, p1),
 * dot(t1, p1), dot(t2, p1)) with p1 = (p, 1). Frames of clips stacked as for the VAT.
 *
 * THREADS: pure functions.
 */
#ifndef VKSKIN_VAT_H
#define VKSKIN_VAT_H

#include "core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Widest texture made by default: what every engine's texture units take (8192 would exceed
 * some mobile GPUs). */
#define VKS_VAT_DEFAULT_MAX_WIDTH 4096u

typedef struct vks_vat_layout {
    uint32_t vertex_count;   /* columns used over a frame's rows */
    uint32_t width;          /* texels per row: min(vertex_count, max_width) */
    uint32_t rows_per_frame; /* ceil(vertex_count / width) */
    uint32_t frames;         /* all clips' frames together */
    uint32_t height;         /* frames * rows_per_frame */
} vks_vat_layout;

/* max_width 0: VKS_VAT_DEFAULT_MAX_WIDTH. VKS_ERR_LIMIT when a count is 0 or the height would
 * exceed INT32_MAX (what image formats take). */
VKS_API vks_result vks_vat_layout_make(uint32_t vertex_count, uint32_t frames, uint32_t max_width,
                                       vks_vat_layout *out, vks_error *err);

static inline uint32_t vks_vat_column(const vks_vat_layout *l, uint32_t v) { return v % l->width; }
static inline uint32_t vks_vat_row(const vks_vat_layout *l, uint32_t frame, uint32_t v)
{
    return frame * l->rows_per_frame + v / l->width;
}
/* Texel centre of vertex v in frame 0, in [0, 1]: u = (column + 0.5) / width, v = (row + 0.5) /
 * height, with v measured from the first row (flip it for APIs whose v = 0 is the last row). */
VKS_API void vks_vat_uv(const vks_vat_layout *l, uint32_t v, float uv[2]);

/* IEEE 754 binary16 from a float, rounded to nearest even (overflow: infinity; NaN stays NaN). */
VKS_API uint16_t vks_half_from_float(float f);
VKS_API float vks_half_to_float(uint16_t h);

/* 16-bit code of x in [lo, hi]: round((x - lo) / (hi - lo) * 65535), clamped; 0 when hi <= lo.
 * Decoding gives back x within (hi - lo) / 65535 / 2. */
VKS_API uint16_t vks_vat_quantize16(float x, float lo, float hi);
VKS_API float vks_vat_dequantize16(uint16_t q, float lo, float hi);

/* Axis-aligned bounds of count vec3 (min[3], max[3]); count 0 gives zeros. */
VKS_API void vks_vat_bounds(const float *xyz, size_t count, float min[3], float max[3]);

#ifdef __cplusplus
}
#endif
#endif
