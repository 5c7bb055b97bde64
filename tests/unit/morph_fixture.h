/* Morph targets for tests, on any model (test_morph_engines, test_gpu_morph). */
#ifndef VKS_MORPH_FIXTURE_H
#define VKS_MORPH_FIXTURE_H

#include "vkskin/skin.h"

/* count targets on mesh 0 of s, in turn of three kinds: a smooth dense one with normal deltas,
 * one of positions only, one that moves every seventh vertex; default weights 0. 0 when out of
 * memory. */
int morph_fixture_targets(vks_skin *s, uint32_t count);

#endif
