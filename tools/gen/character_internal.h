/* Private pieces of the character generator shared by its source files: the deterministic
 * PRNG and sine/cosine, and the skeleton plan (bone table with ideal frames). */
#ifndef VKSKIN_GEN_CHARACTER_INTERNAL_H
#define VKSKIN_GEN_CHARACTER_INTERNAL_H

#include <stdint.h>

#include "character.h"

/* Body regions; triangle material = region % materials. */
enum { GEN_TORSO, GEN_HEAD, GEN_ARMS, GEN_HANDS, GEN_LEGS, GEN_FEET, GEN_HAIR, GEN_REGIONS };

typedef struct gen_bone {
    char name[24];
    int parent;      /* bone index; -1: child of the root node */
    int chain_child; /* the bone continuing this limb (weights blend into it near the tail); -1 */
    int twist;       /* twist bone riding on this bone's tube; -1 */
    int geometry;    /* 1: this bone has its own tube */
    int region;
    double head[3], tail[3];
    double radius;
    double frame[12]; /* ideal skin-space frame: x along the bone, column-major 3x4 */
} gen_bone;

typedef struct gen_skeleton {
    gen_bone bone[VKS_GEN_MAX_BONES];
    int count;
    double root_local[12]; /* the "Character" node: a small rotation + translation */
} gen_skeleton;

/* splitmix64: the generator's only randomness (same sequence everywhere). */
typedef struct gen_rng {
    uint64_t state;
} gen_rng;
uint64_t vks__gen_next(gen_rng *r);
/* Uniform double in [0, 1) from the top 53 bits. */
double vks__gen_unit(gen_rng *r);

/* sin and cos by range reduction and Taylor series: only + - * / and floor, so every
 * IEEE machine gives the same bits (libm's sin/cos may differ in the last place). */
void vks__gen_sincos(double a, double *s, double *c);

/* Plans the skeleton for p (defaults applied, bones in range): bone table, frames, regions. */
void vks__gen_skeleton(const vks_gen_params *p, gen_rng *rng, gen_skeleton *out);

/* The surface (character_surface.c): n bind-pose positions -> UV set 0 by the mirrored
 * cylindrical projection character.h describes; count materials "char_skin_<n><suffix>" with their
 * slot's base colour and texture, every mesh given the whole range. 0 when out of memory. */
void vks__gen_uvs(const float (*pos)[3], uint32_t n, float (*uv)[2]);
int vks__gen_materials(vks_skin *s, uint32_t count, const char *texture, const char *suffix);

/* Turns or mirrors a finished character into frame f's axes (character_frame.c). */
void vks__gen_apply_frame(vks_skin *s, vks_gen_frame f);

#endif
