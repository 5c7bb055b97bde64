/* vkskin procedural character generator: a humanoid-like skinned figure for tests, datasets
 * and benchmarks, built through the model builder (include/vkskin/build.h).
 *
 * STEP BY STEP
 *   vks_gen_params p = {0};          // zeroed: defaults (seed 1, 32 bones, ~2000 vertices, 4 influences)
 *   p.vertices = 100000;
 *   vks_error err = {0};
 *   vks_skin *s = vks_gen_character(&p, &err);   // NULL on failure, err says why
 *   ... vks_skin_free(s);
 *
 * The figure: a non-identity root node "Character" (node 0, the mesh's skin-space node), then
 * pelvis, spine chain, neck, head, clavicles, arms, forearms, hands, thighs, calves, feet and
 * toes, then extra bones up to the requested count (twist bones, finger joints, jaw, hair).
 * Every bone but the twist bones gets a capsule-like tube (rings x segments) whose size makes
 * the total vertex count close to the target. Weights fall off smoothly near the joints and
 * are sorted descending and normalised; materials follow body regions.
 *
 * Surface: one UV set, a mirrored cylindrical projection of the bind pose about the figure's
 * vertical axis (character_uv.c): u = (1 - cos a) / 2 with a the angle from the front (+Z)
 * around the axis through the centre of the bounds, so u runs 0 at the front to 1 at the back
 * on both sides and has no seam (no vertex is split, the geometry is the same with or without
 * it); v = (top - y) / height, 0 at the top of the head (glTF's convention). Each material
 * (one per region, wrapping at params.materials) is "char_skin_<n>" (+ material_suffix) with a base colour from a
 * fixed table and params.texture as its base-colour texture.
 *
 * The figure is built Y up, facing +Z, its left on +X (glTF's and NW4C's axes); params.frame
 * turns or mirrors the finished model into a format's own axes (vks_gen_frame), exactly:
 * every coordinate and matrix entry is moved or negated, none rounded.
 *
 * Deterministic: the same params give a byte-identical model on every machine (integer PRNG,
 * no libm beyond sqrt/floor, no FP contraction in the generator's sources).
 */
#ifndef VKSKIN_GEN_CHARACTER_H
#define VKSKIN_GEN_CHARACTER_H

#include <stdint.h>

#include "vkskin/skin.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VKS_GEN_MIN_BONES 20u
/* The generator weighs a vertex by its bone, the parent, the chain child, the twist bone and a
 * neighbour and writes one set of four (the formats it writes store 4): at most 4 influences. */
#define VKS_GEN_MAX_INFLUENCES 4
#define VKS_GEN_MAX_BONES 64u
#define VKS_GEN_MAX_VERTICES (1u << 24)

/* The axes a model is written in. A file stands upright in its format's own convention, and
 * vkskin's conversion to glTF (vks_gltf_correction, the inverse of each frame's map below)
 * gives back the figure as built, whatever the format. */
typedef enum vks_gen_frame {
    VKS_GEN_FRAME_Y_UP = 0,  /* right-handed, Y up: as built (NW4C .cmdl, glTF) */
    VKS_GEN_FRAME_Z_UP,      /* right-handed, Z up (RenderWare, NIF): (x, y, z) -> (x, -z, y) */
    VKS_GEN_FRAME_LEFT_Y_UP, /* left-handed, Y up (Bohemia P3D): (x, y, z) -> (x, y, -z), the
                                triangles reversed so that they still face out */
    VKS_GEN_FRAME_COUNT
} vks_gen_frame;

typedef struct vks_gen_params { /* zeroed = defaults */
    uint64_t seed;           /* default 1 (0 means default) */
    uint32_t bones;          /* 20..64 (default 32); humanoid core + extra bones (fingers, twist, ...) */
    uint32_t vertices;       /* target vertex count (default 2000; 10k..100k+ for benchmarks) */
    uint32_t max_influences; /* 1..VKS_GEN_MAX_INFLUENCES (default 4) */
    uint32_t palette_limit;  /* bones per group; 0 = one group with all bones (default 0) */
    uint32_t materials;      /* default 3; 1..256 */
    const char *name;        /* mesh name, default "character" */
    uint32_t max_mesh_vertices; /* split the body into several meshes (whole limb tubes each) of
                                   at most this many file vertices; 0 = one mesh (default).
                                   Formats with 16-bit indices (DFF, NIF, .cmdl) need <= 65535 */
    vks_gen_frame frame;     /* the axes to write in (default Y up: as built) */
    const char *texture;     /* every material's base-colour texture name, a name only (no image
                                is written); default "char_skin". Formats name textures their own
                                way: the generator's format table gives e.g. "char_skin.dds" */
    const char *material_suffix; /* after each material's name (P3D names an .rvmat file); "" */
} vks_gen_params;

/* Builds the character. Returns NULL and fills err on bad params (VKS_ERR_INVALID), a palette
 * limit below the bones one triangle needs (VKS_ERR_LIMIT, from the builder) or out of memory.
 * The result passes vks_skin_validate; format is "generated". err may be NULL. */
vks_skin *vks_gen_character(const vks_gen_params *p, vks_error *err);

/* The params with every default applied (p may be NULL). */
vks_gen_params vks_gen_params_defaults(const vks_gen_params *p);

#ifdef __cplusplus
}
#endif
#endif
