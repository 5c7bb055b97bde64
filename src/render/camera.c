/* The contact sheet's cameras: one per model, fitted once to its bind-pose bounds, so every
 * cell of a model shows its instances at the same scale (poses compare at a glance). */
#include "render_internal.h"
#include "vkskin/vat_write.h"

#include <math.h>
#include <string.h>

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0)
        v[0] /= l, v[1] /= l, v[2] /= l;
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void vks__camera_fit(const vks_skin *skin, vks__camera *out)
{
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (uint32_t v = 0; v < skin->vertex_count; v++)
        for (int k = 0; k < 3; k++) {
            float x = skin->positions[v][k];
            if (v == 0 || x < lo[k])
                lo[k] = x;
            if (v == 0 || x > hi[k])
                hi[k] = x;
        }
    float ext[3], r2 = 0;
    for (int k = 0; k < 3; k++) {
        out->center[k] = 0.5f * (lo[k] + hi[k]);
        ext[k] = hi[k] - lo[k];
        r2 += 0.25f * ext[k] * ext[k];
    }
    out->radius = r2 > 0 ? sqrtf(r2) : 1.0f;
    /* The up axis the file's format declares (vks_vat_space, what bake sidecars say: RenderWare
     * and NIF Z up, glTF, NW4C and P3D Y up), never guessed from the shape: a quadruped is
     * longer than tall, and the guess stood Fox.glb on its tail. */
    const char *up_axis, *handedness;
    vks_vat_space(skin, &up_axis, &handedness);
    int z_up = !strcmp(up_axis, "+z");
    float up[3] = {0, z_up ? 0.0f : 1.0f, z_up ? 1.0f : 0.0f};
    float front[3] = {0, z_up ? -1.0f : 0.0f, z_up ? 0.0f : 1.0f};
    float side[3];
    cross3(up, front, side);
    /* A left-handed file (P3D) is seen as its right-handed mirror (x, y, -z) would be: the
     * camera placed where it would stand for the mirror, mapped back to the file's coordinates
     * (the front's z negated, the side kept), and the picture flipped (vks__camera_matrices). */
    out->mirror = !strcmp(handedness, "left");
    if (out->mirror)
        front[2] = -front[2], side[2] = -side[2], up[2] = -up[2];
    /* 30 degrees to the side and 12 above: depth shows, and arms in front of the body too */
    const float az = 0.52f, el = 0.21f;
    /* close enough that the figure fills its cell: the T-pose sphere is loose around any pose */
    const float half_fov = 0.5f * 0.593f;
    float dist = 0.86f * out->radius / sinf(half_fov);
    for (int k = 0; k < 3; k++) {
        float dir = cosf(el) * (cosf(az) * front[k] + sinf(az) * side[k]) + sinf(el) * up[k];
        out->eye[k] = out->center[k] + dist * dir;
        out->up[k] = up[k];
    }
}

/* m = a * b, column-major 4x4 */
static void mul4(const float a[16], const float b[16], float m[16])
{
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) {
            float s = 0;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + r] * b[c * 4 + k];
            m[c * 4 + r] = s;
        }
}

void vks__camera_matrices(const vks__camera *c, float aspect, float clip[16], float view[16])
{
    float f[3], s[3], u[3];
    for (int k = 0; k < 3; k++)
        f[k] = c->center[k] - c->eye[k];
    float dist = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    normalize3(f);
    cross3(f, c->up, s);
    normalize3(s);
    cross3(s, f, u);
    if (c->mirror) /* the view of the right-handed mirror: x flipped (nothing is culled) */
        s[0] = -s[0], s[1] = -s[1], s[2] = -s[2];
    /* right-handed view: x right, y up, the camera looks down -z */
    memset(view, 0, 16 * sizeof *view);
    for (int k = 0; k < 3; k++) {
        view[k * 4 + 0] = s[k];
        view[k * 4 + 1] = u[k];
        view[k * 4 + 2] = -f[k];
    }
    view[12] = -(s[0] * c->eye[0] + s[1] * c->eye[1] + s[2] * c->eye[2]);
    view[13] = -(u[0] * c->eye[0] + u[1] * c->eye[1] + u[2] * c->eye[2]);
    view[14] = f[0] * c->eye[0] + f[1] * c->eye[1] + f[2] * c->eye[2];
    view[15] = 1;
    /* The field of view covers the smaller side of the cell; near and far hug the sphere
     * (posed limbs may leave the bind bounds a little: 1.6 radii of slack). */
    float t = tanf(0.5f * 0.593f), fy = 1.0f / t, fx = fy;
    if (aspect >= 1)
        fx = fy / aspect;
    else
        fy = fx * aspect;
    float zn = dist - 1.6f * c->radius, zf = dist + 1.6f * c->radius;
    if (zn < 0.01f * dist)
        zn = 0.01f * dist;
    float proj[16] = {0};
    proj[0] = fx;
    proj[5] = -fy; /* Vulkan's clip space has y down */
    proj[10] = zf / (zn - zf);
    proj[11] = -1;
    proj[14] = zn * zf / (zn - zf);
    mul4(proj, view, clip);
}
