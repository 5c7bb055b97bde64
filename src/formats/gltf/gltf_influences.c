/* glTF skin weights: the JOINTS_n / WEIGHTS_n sets of a primitive, read and checked (u8 / u16
 * joints inside the skin, float or normalized u8 / u16 weights, one element per vertex), then
 * merged per vertex into the 8 largest weights of all sets (all of them with JOINTS_0 and
 * JOINTS_1, the sets glTF asks every client to support), scaled to sum 1. The specification
 * asks for weights that sum to 1; viewers (three.js's GLTFLoader) normalise them anyway, and
 * so does this reader, which also keeps the sum as stored for inspect's report. */
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

vks_result vks__gltfr_influences(gltf_doc *d, const char *ppath, const cJSON *attrs, uint32_t vcount,
                                 uint32_t joint_count, gltf_influence_sets *is)
{
    memset(is, 0, sizeof *is);
    for (uint32_t s = 0; s < 8; s++) {
        char jn[16], wn[16], jp[160], wp[160];
        snprintf(jn, sizeof jn, "JOINTS_%u", s);
        snprintf(wn, sizeof wn, "WEIGHTS_%u", s);
        snprintf(jp, sizeof jp, "%s.attributes.%s", ppath, jn);
        snprintf(wp, sizeof wp, "%s.attributes.%s", ppath, wn);
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(attrs, jn), *w = cJSON_GetObjectItemCaseSensitive(attrs, wn);
        if (!j && !w) {
            if (s == 0)
                return vks__gltfr_fail(d, VKS_ERR_FORMAT, ppath, "the node has a skin, so the primitive needs JOINTS_0 and "
                                 "WEIGHTS_0");
            break;
        }
        if (!j || !w)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, j ? wp : jp, "is missing while %s is present", j ? jn : wn);
        gltf_accessor_want wj = {"VEC4", GLTF_BIT(GLTF_UNSIGNED_BYTE) | GLTF_BIT(GLTF_UNSIGNED_SHORT), 0, 0, 1};
        gltf_accessor_want ww = {"VEC4", GLTF_BIT(GLTF_FLOAT) | GLTF_BIT(GLTF_UNSIGNED_BYTE) |
                                 GLTF_BIT(GLTF_UNSIGNED_SHORT), 1, 0, 1};
        gltf_values ji, wi;
        char ap[160];
        snprintf(ap, sizeof ap, "%s.attributes", ppath);
        int32_t ja = -1, wa = -1;
        vks_result r = vks__gltfr_get_index(d, attrs, ap, jn, 1, d->accessor_count, "accessors", &ja);
        if (r == VKS_OK)
            r = vks__gltfr_get_index(d, attrs, ap, wn, 1, d->accessor_count, "accessors", &wa);
        if (r == VKS_OK)
            r = vks__gltfr_accessor_uints(d, ja, jp, &wj, &ji, &is->joints[s]);
        if (r == VKS_OK)
            r = vks__gltfr_accessor_floats(d, wa, wp, &ww, &wi, &is->weights[s]);
        if (r != VKS_OK)
            return r;
        if (ji.count != vcount || wi.count != vcount)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, ji.count != vcount ? jp : wp, "accessor %d has %u elements, POSITION %u",
                             ji.count != vcount ? ja : wa, ji.count != vcount ? ji.count : wi.count, vcount);
        for (uint32_t v = 0; v < vcount; v++)
            for (uint32_t k = 0; k < 4; k++)
                if (is->joints[s][4 * v + k] >= joint_count)
                    return vks__gltfr_fail(d, VKS_ERR_FORMAT, jp, "vertex %u slot %u: joint %u, but the skin has %u joints", v,
                                     k, is->joints[s][4 * v + k], joint_count);
        is->sets = s + 1;
    }
    return VKS_OK;
}

vks_result vks__gltfr_largest_eight(gltf_doc *d, const char *ppath, const gltf_influence_sets *is, uint32_t vcount,
                                    gltf_influence_out *out, gltf_influence_counts *c)
{
    memset(out, 0, sizeof *out);
    out->bone = vks__gltfr_alloc(d, vcount, sizeof *out->bone);
    out->weight = vks__gltfr_alloc(d, vcount, sizeof *out->weight);
    out->stored = vks__gltfr_alloc(d, vcount, sizeof *out->stored);
    if (is->sets > 1) { /* slots 4..7 only where a second set can fill them */
        out->bone_more = vks__gltfr_alloc(d, vcount, sizeof *out->bone_more);
        out->weight_more = vks__gltfr_alloc(d, vcount, sizeof *out->weight_more);
    }
    if (!out->bone || !out->weight || !out->stored || (is->sets > 1 && (!out->bone_more || !out->weight_more)))
        return vks__gltfr_nomem(d, ppath);
    for (uint32_t v = 0; v < vcount; v++) {
        uint32_t jj[32];
        float ww[32];
        uint32_t n = 0, positive = 0;
        double sum = 0;
        for (uint32_t s = 0; s < is->sets; s++)
            for (uint32_t k = 0; k < 4; k++) {
                float w = is->weights[s][4 * v + k];
                if (w == 0)
                    continue;
                /* insertion by weight, largest first (stable: earlier sets and slots win ties) */
                uint32_t at = n;
                while (at > 0 && ww[at - 1] < w) {
                    ww[at] = ww[at - 1], jj[at] = jj[at - 1];
                    at--;
                }
                ww[at] = w, jj[at] = is->joints[s][4 * v + k];
                n++;
                if (w > 0)
                    sum += w, positive++;
            }
        out->stored[v] = (float)sum;
        c->over_four += positive > 4;
        if (positive > VKS_MAX_INFLUENCES) {
            c->truncated++;
            if (ww[VKS_MAX_INFLUENCES] > c->truncated_max) /* sorted: the largest one dropped */
                c->truncated_max = ww[VKS_MAX_INFLUENCES];
        }
        double kept = 0;
        for (uint32_t k = 0; k < VKS_MAX_INFLUENCES && k < n; k++)
            kept += ww[k] > 0 ? ww[k] : 0;
        for (uint32_t k = 0; k < VKS_MAX_INFLUENCES; k++) {
            uint16_t j = k < n ? (uint16_t)jj[k] : 0;
            float w = k < n ? (ww[k] > 0 && kept > 0 ? (float)(ww[k] / kept) : ww[k]) : 0;
            if (k < 4) {
                out->bone[v][k] = j, out->weight[v][k] = w;
            } else if (out->bone_more) {
                out->bone_more[v][k - 4] = j, out->weight_more[v][k - 4] = w;
            }
        }
    }
    return VKS_OK;
}
