/* vkskin VAT writers: the vertex animation textures, their rest mesh and their sidecar, as the
 * vkskin program's bake writes them (DESIGN.md section 9), for a host that bakes through the
 * library itself (vat.h has the layout and the encodings' arithmetic; stream.h deforms the
 * frames). Every file goes through the output module (output.h): a temporary renamed into
 * place when complete.
 *
 * STEP BY STEP (frames: frame-major positions, vertex_count * 3 floats a frame)
 *   vks_vat_layout lay; vks_vat_layout_make(skin->vertex_count, frames, 0, &lay, &err);
 *   float *tex = malloc(vks_vat_texel_floats(&lay) * sizeof *tex);
 *   vks_vat_texels(positions, &lay, tex);
 *   vks_vat_exr_write("hero.vat.pos.f32.exr", tex, lay.width, lay.height, 3, VKS_VAT_TEXEL_FLOAT, &err);
 *     or 16-bit PNG: vks_vat_bounds(positions, n, lo, hi); vks_vat_quantize_texels(tex, n3, lo, hi, codes);
 *                    vks_vat_png16_write("hero.vat.pos.png", codes, lay.width, lay.height, &err)
 *   vks_vat_write_rest_obj("hero.vat.obj", skin, &lay, "hero.dff", &err)   (or _glb)
 *   vks_vat_sidecar sc = {...}; vks_vat_sidecar_write("hero.vat.json", &sc, &err)
 *
 * THREADS: reentrant; separate files from separate threads.
 */
#ifndef VKSKIN_VAT_WRITE_H
#define VKSKIN_VAT_WRITE_H

#include "clip.h"
#include "skin.h"
#include "vat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The model's space as its file stores it (bakes do not convert vertices): RenderWare and NIF
 * are Z-up right-handed, P3D Y-up left-handed, NW4C and glTF Y-up right-handed. *up_axis gets
 * "+z" or "+y", *handedness "right" or "left"; sidecars add one unit = one metre. */
VKS_API void vks_vat_space(const vks_skin *skin, const char **up_axis, const char **handedness);

/* ---- texels ---- */

/* Floats of a layout's RGB texture: width * height * 3. */
static inline size_t vks_vat_texel_floats(const vks_vat_layout *l)
{
    return (size_t)l->width * l->height * 3;
}
/* Frame-major vertices (frames * vertex_count vec3) into the layout's texels (out:
 * vks_vat_texel_floats floats); texels no vertex uses (a wrapped frame's last row, pow2
 * padding) are 0. */
VKS_API void vks_vat_texels(const float *frames, const vks_vat_layout *l, float *out);
/* count RGB texels as 16-bit codes of vks_vat_quantize16 per channel against lo[c], hi[c]. */
VKS_API void vks_vat_quantize_texels(const float *texels, size_t count, const float lo[3], const float hi[3],
                                     uint16_t *out);

/* ---- texture files ---- */

typedef enum vks_vat_texel { VKS_VAT_TEXEL_FLOAT, VKS_VAT_TEXEL_HALF } vks_vat_texel;

/* 1 when this library writes OpenEXR (built with libopenexr-dev). */
VKS_API int vks_vat_exr_available(void);
/* width x height texels of `channels` floats (3: RGB, 4: RGBA; interleaved, rows top to
 * bottom) as an OpenEXR scanline image without compression (the same texels give the same
 * bytes), each stored as type (HALF: vks_half_from_float). VKS_ERR_UNSUPPORTED without OpenEXR,
 * VKS_ERR_IO naming path. */
VKS_API vks_result vks_vat_exr_write(const char *path, const float *texels, uint32_t width, uint32_t height,
                                     int channels, vks_vat_texel type, vks_error *err);
/* width x height texels of 3 codes each as a 16-bit RGB PNG with gAMA 1.0 (linear data),
 * zlib's fastest level and the UP filter (a texture's next row is the next frame of the
 * same vertices). */
VKS_API vks_result vks_vat_png16_write(const char *path, const uint16_t *rgb, uint32_t width, uint32_t height,
                                       vks_error *err);

/* Any PNG: width x height pixels of `channels` (3: RGB, 4: RGBA) samples of depth bits (8 or 16,
 * 16-bit samples in the host's byte order), rows top to bottom and contiguous. fast: zlib's
 * fastest level with the UP filter alone. linear: a gAMA chunk of 1.0 (samples are data). */
typedef struct vks_png_image {
    const void *pixels;
    uint32_t width, height;
    int depth, channels, fast, linear;
} vks_png_image;
VKS_API vks_result vks_png_write(const char *path, const vks_png_image *img, vks_error *err);

/* ---- the rest mesh: the bind pose, each vertex's UV its texel in frame 0 ---- */

/* OBJ: v (bind positions), vt (vks_vat_uv, v flipped: OBJ's v = 0 is the bottom row), vn, one
 * o per mesh; model names the model in the header comment. */
VKS_API vks_result vks_vat_write_rest_obj(const char *path, const vks_skin *skin, const vks_vat_layout *l,
                                          const char *model, vks_error *err);
/* Binary glTF: the bind mesh (vks_gltf_write_bind_mesh) with the texel as TEXCOORD_0. */
VKS_API vks_result vks_vat_write_rest_glb(const char *path, const vks_skin *skin, const vks_vat_layout *l,
                                          vks_error *err);

/* ---- the sidecar: what a shader needs to play the textures ---- */

typedef struct vks_vat_sidecar_clip {
    const char *name;
    const char *file;     /* the clip file it came from, as the host names it */
    uint32_t index;       /* in its file */
    const vks_clip *clip; /* its duration and cycle */
    float start, end;     /* the baked range, clip seconds */
    uint32_t first_frame; /* among the texture's frames, clips stacked */
    uint32_t frame_count;
    const float *times;   /* frame_count clip times, one per baked frame */
} vks_vat_sidecar_clip;

typedef struct vks_vat_sidecar_file {
    const char *path;     /* relative to the sidecar */
    const char *role;     /* "position", "normal", "rest mesh (OBJ, vt = texel)", ... */
    uint64_t bytes;
} vks_vat_sidecar_file;

/* A split bake's texture (bake's "split"): frames [first_frame, first_frame + frame_count) of
 * the bake, height rows like every part, so the rest mesh's UV addresses frame 0 of each. */
typedef struct vks_vat_sidecar_part {
    uint32_t first_frame, frame_count, height;
    const char *position, *normal; /* its files, relative to the sidecar (normal NULL: none) */
} vks_vat_sidecar_part;

typedef struct vks_vat_sidecar {
    const char *tool;             /* who wrote it (NULL: "vkskin") */
    const char *kind;             /* "vat-exr-float", "vat-exr-half", "vat-png16" */
    const char *const *extra;     /* more string keys after "kind": key, value, ..., NULL (the
                                     vkskin program's entry, entry_hash, engine); may be NULL */
    const char *model;            /* the model file, as the host names it */
    const vks_skin *skin;         /* its format, vertex and bone counts, space */
    uint32_t frame_count;
    double fps;
    const char *encoding;         /* "float32", "float16", "unorm16" */
    const vks_vat_layout *layout;
    int pow2;                     /* the layout was padded to powers of two */
    float bounds_min[3], bounds_max[3]; /* of every baked position (unorm16 decodes with them) */
    const vks_vat_sidecar_clip *clips;
    uint32_t clip_count;
    const vks_vat_sidecar_file *files;
    uint32_t file_count;
    /* split over several textures: frame f is in part f / frames_per_part (0 and no parts: one
       texture holds every frame) */
    uint32_t frames_per_part;
    const vks_vat_sidecar_part *parts;
    uint32_t part_count;
} vks_vat_sidecar;

/* The sidecar as JSON, with the keys of the vkskin program's VAT sidecars (docs/baking.md, "Batch
 * baking"). */
VKS_API vks_result vks_vat_sidecar_write(const char *path, const vks_vat_sidecar *s, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
