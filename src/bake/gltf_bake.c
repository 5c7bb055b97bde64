/* Deformed frames as glTF (bake.h, GLB and GLTF): one frame is a plain mesh; several are the
 * first frame plus one morph target per frame and a STEP animation of the weights, one-hot per
 * frame, so any glTF viewer plays the bake back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake_internal.h"
#include "gltf_internal.h"

/* The mesh's vertices of frame f (file vertex order): positions, and normals made unit where
 * the mesh has them (glTF's base normals are unit; a zero normal becomes +Y). */
static void frame_arrays(const vks_bake *b, uint32_t f, uint32_t first, uint32_t n, float *pos, float *nrm)
{
    const float *src = b->kept + ((size_t)f * b->file_vertex_count + first) * 6;
    for (uint32_t j = 0; j < n; j++, src += 6) {
        memcpy(pos + (size_t)j * 3, src, 3 * sizeof *pos);
        vks__gltf_unit(src[3], src[4], src[5], nrm + (size_t)j * 3);
    }
}

/* Frame f's morph target of the mesh at file vertices [first, first + n): its positions less the
 * base's p0, computed straight into the document's buffer (a morph bake is mostly these, and a
 * copy of each through an array of its own cost a pass over them and fresh pages). */
static uint32_t target_positions(vks__gltf *g, const vks_bake *b, uint32_t f, uint32_t first, uint32_t n,
                                 const float *p0)
{
    float *d = vks__gltf_floats_room(g, n, 3);
    const float *src = b->kept + ((size_t)f * b->file_vertex_count + first) * 6;
    for (uint32_t j = 0; d && j < n; j++, src += 6)
        for (int c = 0; c < 3; c++)
            d[(size_t)j * 3 + c] = src[c] - p0[(size_t)j * 3 + c];
    return vks__gltf_floats_placed(g, n, 3, VKS__GL_ARRAY_BUFFER, 1);
}

/* The same for the normals: made unit as the base's (frame_arrays), less the base's n0. */
static uint32_t target_normals(vks__gltf *g, const vks_bake *b, uint32_t f, uint32_t first, uint32_t n,
                               const float *n0)
{
    float *d = vks__gltf_floats_room(g, n, 3);
    const float *src = b->kept + ((size_t)f * b->file_vertex_count + first) * 6;
    for (uint32_t j = 0; d && j < n; j++, src += 6) {
        float u[3];
        vks__gltf_unit(src[3], src[4], src[5], u);
        for (int c = 0; c < 3; c++)
            d[(size_t)j * 3 + c] = u[c] - n0[(size_t)j * 3 + c];
    }
    return vks__gltf_floats_placed(g, n, 3, VKS__GL_ARRAY_BUFFER, 0);
}

/* Mesh m: its base (frame 0) and, for several frames, its targets; returns the mesh index. */
static uint32_t write_mesh(vks__gltf *g, const vks_bake *b, uint32_t m, uint32_t first, float *buf)
{
    const vks_skin *s = b->skin;
    const vks_mesh *me = &s->meshes[m];
    uint32_t n = me->source_vertex_count, F = b->frames;
    int has_n = s->normals && (me->flags & VKS_MESH_HAS_NORMALS);
    float *p0 = buf, *n0 = p0 + (size_t)n * 3;
    cJSON *mesh = cJSON_CreateObject(), *prims = mesh ? cJSON_AddArrayToObject(mesh, "primitives") : NULL;
    cJSON *prim = cJSON_CreateObject(), *attr = prim ? cJSON_AddObjectToObject(prim, "attributes") : NULL;
    if (!prims || !attr || !cJSON_AddItemToArray(prims, prim)) {
        cJSON_Delete(attr && prims ? NULL : prim);
        cJSON_Delete(mesh);
        g->failed = 1;
        return 0;
    }
    if (me->name[0])
        cJSON_AddStringToObject(mesh, "name", me->name);
    frame_arrays(b, 0, first, n, p0, n0);
    cJSON_AddNumberToObject(attr, "POSITION", vks__gltf_floats(g, p0, n, 3, VKS__GL_ARRAY_BUFFER, 1));
    if (has_n)
        cJSON_AddNumberToObject(attr, "NORMAL", vks__gltf_floats(g, n0, n, 3, VKS__GL_ARRAY_BUFFER, 0));
    if (me->triangle_count)
        cJSON_AddNumberToObject(prim, "indices", vks__gltf_mesh_indices(g, s, m));
    if (F > 1) {
        cJSON *targets = cJSON_AddArrayToObject(prim, "targets"), *weights = cJSON_AddArrayToObject(mesh, "weights");
        cJSON *extras = cJSON_AddObjectToObject(mesh, "extras");
        cJSON *names = extras ? cJSON_AddArrayToObject(extras, "targetNames") : NULL;
        if (!targets || !weights || !names)
            g->failed = 1;
        for (uint32_t f = 0; !g->failed && f < F; f++) {
            cJSON *t = cJSON_CreateObject();
            if (t) {
                cJSON_AddNumberToObject(t, "POSITION", target_positions(g, b, f, first, n, p0));
                if (has_n)
                    cJSON_AddNumberToObject(t, "NORMAL", target_normals(g, b, f, first, n, n0));
            }
            vks__gltf_push(g, targets, t);
            vks__gltf_push(g, weights, cJSON_CreateNumber(f == 0));
            char name[32];
            snprintf(name, sizeof name, "frame %u", f);
            vks__gltf_push(g, names, cJSON_CreateString(name));
        }
    }
    return vks__gltf_push(g, g->meshes, mesh);
}

/* The weights animation: frame f at f / fps, its target's weight 1 and every other 0, and a
 * last key at F / fps holding the last frame, so that every frame shows for 1 / fps and a
 * looping player loops over the whole bake. */
static void write_weights(vks__gltf *g, const vks_bake *b, const uint32_t *mesh_nodes, uint32_t count)
{
    uint32_t F = b->frames;
    float *t = malloc(((size_t)F + 1) * sizeof *t), *w = calloc(((size_t)F + 1) * F, sizeof *w);
    cJSON *anim = cJSON_CreateObject();
    cJSON *samplers = anim ? cJSON_AddArrayToObject(anim, "samplers") : NULL;
    cJSON *channels = anim ? cJSON_AddArrayToObject(anim, "channels") : NULL;
    if (!t || !w || !samplers || !channels) {
        free(t), free(w);
        cJSON_Delete(anim);
        g->failed = 1;
        return;
    }
    cJSON_AddStringToObject(anim, "name", "frames");
    for (uint32_t f = 0; f <= F; f++) {
        t[f] = (float)(f / b->fps);
        w[(size_t)f * F + (f < F ? f : F - 1)] = 1;
    }
    uint32_t in = vks__gltf_floats(g, t, F + 1, 1, 0, 1), out = vks__gltf_floats(g, w, (F + 1) * F, 1, 0, 0);
    for (uint32_t m = 0; m < count; m++) {
        cJSON *s = cJSON_CreateObject(), *c = cJSON_CreateObject(), *target = c ? cJSON_AddObjectToObject(c, "target") : NULL;
        if (s) {
            cJSON_AddNumberToObject(s, "input", in);
            cJSON_AddNumberToObject(s, "output", out);
            cJSON_AddStringToObject(s, "interpolation", "STEP");
        }
        uint32_t si = vks__gltf_push(g, samplers, s);
        if (target) {
            cJSON_AddNumberToObject(c, "sampler", si);
            cJSON_AddNumberToObject(target, "node", mesh_nodes[m]);
            cJSON_AddStringToObject(target, "path", "weights");
        }
        vks__gltf_push(g, channels, c);
    }
    free(t), free(w);
    vks__gltf_push(g, g->animations, anim);
}

/* At least the bytes the document's buffer takes: each mesh's base and its F targets (positions,
 * normals), its indices, the weights animation's times and one-hot weights, each array padded
 * to 4 bytes. A low figure only costs the growth it was meant to spare. */
static size_t buffer_bound(const vks_bake *b)
{
    const vks_skin *s = b->skin;
    size_t F = b->frames, bytes = (F + 1) * 4 + (F + 1) * F * 4 + 8;
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        const vks_mesh *me = &s->meshes[m];
        size_t arrays = (F + 1) * (s->normals && (me->flags & VKS_MESH_HAS_NORMALS) ? 2 : 1);
        bytes += arrays * ((size_t)me->source_vertex_count * 12 + 4) + (size_t)me->triangle_count * 12 + 4;
    }
    return bytes;
}

int vks__bake_gltf_finish(vks_bake *b)
{
    const vks_skin *s = b->skin;
    vks__gltf g;
    uint32_t most = 1;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        most = s->meshes[m].source_vertex_count > most ? s->meshes[m].source_vertex_count : most;
    float *buf = malloc((size_t)most * 6 * sizeof *buf);
    uint32_t *mesh_nodes = malloc(((size_t)s->mesh_count + 1) * sizeof *mesh_nodes);
    int ok = buf && mesh_nodes && vks__gltf_init(&g, NULL);
    if (ok) {
        vks_affine C = vks_gltf_correction(s);
        cJSON *root = cJSON_CreateObject();
        if (root) {
            cJSON_AddStringToObject(root, "name", "vkskin root");
            vks__gltf_node_trs(root, &C);
        }
        uint32_t ri = vks__gltf_push(&g, g.nodes, root);
        vks__gltf_push(&g, g.scene_nodes, cJSON_CreateNumber(ri));
        cJSON *kids = root ? cJSON_AddArrayToObject(root, "children") : NULL;
        /* the buffer at its final size at once: grown by doubling, a morph bake's frames were
           copied again at every step, into fresh pages each time */
        vks_buf_reserve(&g.bin, buffer_bound(b));
        uint32_t first = 0;
        for (uint32_t m = 0; m < s->mesh_count && !g.failed; m++) {
            uint32_t mi = write_mesh(&g, b, m, first, buf);
            cJSON *node = cJSON_CreateObject();
            if (node) {
                if (s->meshes[m].name[0])
                    cJSON_AddStringToObject(node, "name", s->meshes[m].name);
                cJSON_AddNumberToObject(node, "mesh", mi);
            }
            mesh_nodes[m] = vks__gltf_push(&g, g.nodes, node);
            vks__gltf_push(&g, kids, cJSON_CreateNumber(mesh_nodes[m]));
            first += s->meshes[m].source_vertex_count;
        }
        if (b->frames > 1 && s->mesh_count)
            write_weights(&g, b, mesh_nodes, s->mesh_count);
        cJSON *vk = vks__gltf_extras(&g, &C);
        if (!vk || !cJSON_AddNumberToObject(vk, "first_frame_time", b->start) || !cJSON_AddNumberToObject(vk, "fps", b->fps))
            g.failed = 1;
        ok = vks__gltf_emit(&g, b->f,
                            b->format == VKS_BAKE_GLTF ? VKS_GLTF_EMBEDDED : VKS_GLTF_GLB);
    }
    if (buf && mesh_nodes)
        vks__gltf_free(&g);
    free(buf), free(mesh_nodes);
    return ok;
}
