#include "vkskin/pose.h"

void vks_pose_bind(const vks_skin *skin, vks_affine *out)
{
    for (uint32_t i = 0; i < skin->node_count; i++)
        out[i] = skin->nodes[i].bind_local;
}
