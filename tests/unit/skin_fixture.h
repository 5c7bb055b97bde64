/* A tiny hand-built skin for analytic tests: a root node, bone A at the root's origin and
 * bone B one unit up the +x axis from A; a strip of vertices along x from 0 to 2, weighted
 * fully to A (x <= 0.5), fully to B (x >= 1.5) and blended in between. */
#ifndef VKS_SKIN_FIXTURE_H
#define VKS_SKIN_FIXTURE_H

#include "vkskin.h"
#include "vkskin/build.h"

/* root_offset: the root node's bind translation (skin space follows the root when
 * space_node_root is set). */
vks_skin *vks_fixture_two_bones(const float root_offset[3], int space_node_root, int renormalize);

#endif
