/* vkskin root motion: a layered instance's travel (and turn) taken out of its motion node,
 * for in-place playback. The layers themselves: pose.h and clip_layers.h.
 *
 * THREADS: nothing here writes shared state.
 */
#ifndef VKSKIN_CLIP_ROOT_MOTION_H
#define VKSKIN_CLIP_ROOT_MOTION_H

#include "pose.h"
#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Root motion (in-place playback). The motion node is the first skin node (parents come
 * first) that the first layer's clip drives; root_motion names the up axis
 * (VKS_ROOT_MOTION_Y_UP or _Z_UP), or'ed with VKS_ROOT_MOTION_YAW to take the turn out too.
 * The motion at T is the node's blended local translation
 * minus its bind local translation, with the up component zeroed (a walk's bob stays in the
 * pose), in the node's parent space; in-place playback subtracts it from the node's
 * translation. Over a loop the motion at the end minus the motion at the start is the clip's
 * own root displacement.
 * Yaw (VKS_ROOT_MOTION_YAW): the node's blended local rotation q against its bind local
 * rotation b, d = q b^-1 (the turn in the parent space), split by swing-twist about the up axis
 * u: the twist is d's (u-component, w) normalised, taken with w >= 0, and the yaw its angle,
 * 2 atan2(d.u, d.w) in radians within [-pi, pi], counter-clockwise seen from +u. That pair's
 * length is cos(s / 2), s the swing: the angle between u and d u. Near a half swing (the node
 * upside down: flips, cartwheels) the twist is ill-conditioned, its angle moving by the pose's
 * rounding over that length, so float and double engines would take out different turns.
 * There is no yaw (0, the rotation kept as it is) where the pair is shorter than
 * VKS_ROOT_YAW_MIN_TWIST = 1/32, i.e. d u within 2 asin(1/32) = 3.58 degrees of -u; past that
 * bound the engines' yaws agree to within 64 times their rounding. In-place playback
 * pre-multiplies the node's rotation by the twist's inverse; its in-place translation is the
 * same as without yaw. So the original local is L = T(g + m) R_u(yaw) T(-g) L', with L' the
 * in-place local, m the motion and g the bind local translation with its up component zeroed:
 * the agent turns about the node's bind ground point. Translation alone keeps every number of
 * before yaw. The float GPU pose pass (compute/layers.glsl) takes the same steps. The
 * root_motion values (VKS_ROOT_MOTION_*) are pose.h's, beside vks_clip_layers. */
/* The shortest twist pair (d.u, d.w) a yaw is taken from (above); a power of two, so float
   and double compare against the same number. */
#define VKS_ROOT_YAW_MIN_TWIST 0.03125
VKS_API int32_t vks_clip_layers_motion_node(const vks_clip_layers *l, const vks_skin *skin);
/* The motion at T in double (zero without root_motion or a motion node). */
VKS_API void vks_clip_layers_root_motion(const vks_clip_layers *l, const vks_skin *skin, float T, double out[3]);
/* The yaw at T in radians, in double (zero without VKS_ROOT_MOTION_YAW or a motion node). */
VKS_API double vks_clip_layers_root_yaw(const vks_clip_layers *l, const vks_skin *skin, float T);
/* Both from one sampling of the layers (a root-motion track writes them per frame): out[0..2]
 * the motion as vks_clip_layers_root_motion, out[3] the yaw as vks_clip_layers_root_yaw. */
VKS_API void vks_clip_layers_root_track(const vks_clip_layers *l, const vks_skin *skin, float T, double out[4]);

#ifdef __cplusplus
}
#endif
#endif
