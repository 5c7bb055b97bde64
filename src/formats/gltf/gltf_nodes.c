/* A glTF node's local transform: a column-major 4x4 matrix, or translation, rotation
 * (x, y, z, w) and scale, never both (the specification forbids it). A matrix must be affine
 * (last row 0 0 0 1); a rotation must not be zero (it is normalised, as the specification
 * asks of unit quaternions). */
#include <math.h>
#include <stdio.h>

#include "gltf_internal.h"

int vks__gltfr_matrix_affine(const float m[16], vks_affine *out)
{
    if (fabsf(m[3]) > 1e-5f || fabsf(m[7]) > 1e-5f || fabsf(m[11]) > 1e-5f || fabsf(m[15] - 1.0f) > 1e-5f)
        return 0;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 3; r++)
            out->m[c * 3 + r] = m[c * 4 + r];
    return 1;
}

vks_result vks__gltfr_node_local(gltf_doc *d, uint32_t n, vks_affine *out)
{
    char path[32];
    snprintf(path, sizeof path, "nodes[%u]", n);
    const cJSON *o = d->node_at[n];
    float m[16], t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    if (cJSON_GetObjectItemCaseSensitive(o, "matrix")) {
        if (cJSON_GetObjectItemCaseSensitive(o, "translation") || cJSON_GetObjectItemCaseSensitive(o, "rotation") ||
            cJSON_GetObjectItemCaseSensitive(o, "scale"))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "has both a matrix and translation/rotation/scale");
        vks_result r = vks__gltfr_get_floats(d, o, path, "matrix", 16, m);
        if (r != VKS_OK)
            return r;
        if (!vks__gltfr_matrix_affine(m, out))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "matrix's last row is (%g, %g, %g, %g), not (0, 0, 0, 1)", m[3],
                             m[7], m[11], m[15]);
        return VKS_OK;
    }
    vks_result r = vks__gltfr_get_floats(d, o, path, "translation", 3, t);
    if (r == VKS_OK)
        r = vks__gltfr_get_floats(d, o, path, "rotation", 4, q);
    if (r == VKS_OK)
        r = vks__gltfr_get_floats(d, o, path, "scale", 3, s);
    if (r != VKS_OK)
        return r;
    double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    if (!(len > 1e-6))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "rotation is a zero quaternion");
    *out = vks_affine_from_trs(t, q, s);
    return VKS_OK;
}
