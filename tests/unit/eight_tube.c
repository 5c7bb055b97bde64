/* See eight_tube.h. */
#include "eight_tube.h"
#include "vkskin/build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUBE_JOINTS 10

/* The `count` joints nearest height y, weights exp(-((y - j) / 2)^2) over their sum, largest
 * first, into slots 0..count-1 of bone/weight (8 slots). */
static void nearest(double y, uint32_t count, uint16_t bone[8], float weight[8])
{
    double w[TUBE_JOINTS], sum = 0;
    int used[TUBE_JOINTS] = {0};
    for (int j = 0; j < TUBE_JOINTS; j++)
        w[j] = exp(-((y - j) / 2.0) * ((y - j) / 2.0));
    memset(weight, 0, 8 * sizeof *weight);
    memset(bone, 0, 8 * sizeof *bone);
    for (uint32_t k = 0; k < count; k++) {
        int best = -1;
        for (int j = 0; j < TUBE_JOINTS; j++)
            if (!used[j] && (best < 0 || w[j] > w[best]))
                best = j;
        used[best] = 1;
        bone[k] = (uint16_t)best;
        sum += w[best];
    }
    for (uint32_t k = 0; k < count; k++)
        weight[k] = (float)(w[bone[k]] / sum);
}

/* One tube mesh of the skeleton's joints: `fixed` influences a vertex (0: 5 + ring % 4). */
static vks_result add_tube(vks_skin_builder *b, const vks_bone *bones, uint32_t rings, uint32_t segs, uint32_t fixed,
                           float radius, vks_error *err)
{
    uint32_t nv = rings * segs, nt = (rings - 1) * segs * 2;
    float (*pos)[3] = calloc(nv, sizeof *pos), (*nrm)[3] = calloc(nv, sizeof *nrm);
    uint16_t (*bone)[4] = calloc(nv, sizeof *bone), (*more_b)[4] = calloc(nv, sizeof *more_b);
    float (*weight)[4] = calloc(nv, sizeof *weight), (*more_w)[4] = calloc(nv, sizeof *more_w);
    uint32_t (*tri)[3] = calloc(nt, sizeof *tri);
    vks_result r = VKS_ERR_NOMEM;
    if (pos && nrm && bone && more_b && weight && more_w && tri) {
        for (uint32_t ri = 0; ri < rings; ri++) {
            double y = (TUBE_JOINTS - 1.0) * ri / (rings - 1);
            uint16_t jb[8];
            float jw[8];
            nearest(y, fixed ? fixed : 5 + ri % 4, jb, jw);
            for (uint32_t s = 0; s < segs; s++) {
                uint32_t v = ri * segs + s;
                double a = 6.283185307179586 * s / segs;
                pos[v][0] = (float)(radius * cos(a)), pos[v][1] = (float)y, pos[v][2] = (float)(radius * sin(a));
                nrm[v][0] = (float)cos(a), nrm[v][2] = (float)sin(a);
                memcpy(bone[v], jb, sizeof bone[v]), memcpy(more_b[v], jb + 4, sizeof more_b[v]);
                memcpy(weight[v], jw, sizeof weight[v]), memcpy(more_w[v], jw + 4, sizeof more_w[v]);
            }
        }
        uint32_t t = 0;
        for (uint32_t ri = 0; ri + 1 < rings; ri++)
            for (uint32_t s = 0; s < segs; s++) {
                uint32_t a = ri * segs + s, c = ri * segs + (s + 1) % segs;
                tri[t][0] = a, tri[t][1] = a + segs, tri[t][2] = c, t++;
                tri[t][0] = c, tri[t][1] = a + segs, tri[t][2] = c + segs, t++;
            }
        vks_mesh_source m = {0};
        m.name = fixed ? "four" : "eight";
        m.vertex_count = nv;
        m.positions = (const float(*)[3])pos;
        m.normals = (const float(*)[3])nrm;
        m.bone = (const uint16_t(*)[4])bone;
        m.weight = (const float(*)[4])weight;
        if (!fixed || fixed > 4) {
            m.bone_more = (const uint16_t(*)[4])more_b;
            m.weight_more = (const float(*)[4])more_w;
        }
        m.triangle_count = nt;
        m.triangles = (const uint32_t(*)[3])tri;
        m.bone_count = TUBE_JOINTS;
        m.bones = bones;
        m.space_node = -1;
        m.flags = VKS_MESH_RENORMALIZE;
        r = vks_builder_add_mesh(b, &m, err);
    }
    free(pos), free(nrm), free(bone), free(more_b), free(weight), free(more_w), free(tri);
    return r;
}

vks_skin *eight_tube(uint32_t rings, uint32_t segments)
{
    vks_error err = {0};
    vks_skin *s = vks_skin_create(NULL);
    vks_node *nodes = s ? vks_skin_alloc_array(s, TUBE_JOINTS, sizeof *nodes) : NULL;
    vks_bone bones[TUBE_JOINTS];
    if (!nodes) {
        vks_skin_free(s);
        return NULL;
    }
    s->format = "test";
    s->format_detail = "eight_tube";
    s->nodes = nodes;
    s->node_count = TUBE_JOINTS;
    for (uint32_t j = 0; j < TUBE_JOINTS; j++) {
        char name[8];
        snprintf(name, sizeof name, "J%u", j);
        nodes[j].name = vks_skin_strndup(s, name, strlen(name));
        nodes[j].parent = (int32_t)j - 1;
        nodes[j].bind_local = vks_affine_identity();
        nodes[j].bind_local.m[10] = j ? 1.0f : 0.0f; /* one up from the parent */
        bones[j].node = j;
        bones[j].inverse_bind = vks_affine_identity();
        bones[j].inverse_bind.m[10] = -(float)j;
    }
    vks_skin_builder *b = vks_builder_create(s);
    vks_result r = b ? add_tube(b, bones, rings, segments, 0, 0.5f, &err) : VKS_ERR_NOMEM;
    if (r == VKS_OK)
        r = add_tube(b, bones, rings / 2 + 2, segments, 4, 0.8f, &err);
    if (b && r == VKS_OK)
        r = vks_builder_finish(b, &err);
    else
        vks_builder_destroy(b);
    if (r == VKS_OK)
        r = vks_skin_validate(s, &err);
    if (r != VKS_OK) {
        char msg[512];
        fprintf(stderr, "eight_tube: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        vks_skin_free(s);
        return NULL;
    }
    return s;
}
