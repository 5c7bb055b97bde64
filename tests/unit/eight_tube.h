/* A model with 5..8 influences per vertex, built through the model builder's second set of
 * four (vks_mesh_source.bone_more / weight_more), for the engines' tests: a tube around a chain
 * of 10 joints along +y, ring r of its vertices weighted to the 5 + r % 4 nearest joints
 * (falling off with the distance, summing to 1), and beside it a second mesh of 4 influences a
 * vertex on the same skeleton, so that one model has groups of both kinds. */
#ifndef VKS_TEST_EIGHT_TUBE_H
#define VKS_TEST_EIGHT_TUBE_H

#include "vkskin.h"

/* rings x segments vertices in the tube (rings >= 2, segments >= 3); NULL on failure (the
 * builder's error on stderr). */
vks_skin *eight_tube(uint32_t rings, uint32_t segments);

#endif
