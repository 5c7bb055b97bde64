/* "vkstest": a sixth model format that exists only in a test build (registry.c, with
 * VKSKIN_TEST_FORMAT). It is what adding a format takes: this folder and one line of
 * registry.c, nothing else in src/ or tools/. A file is the magic line "VKSTEST 1" and then
 * anything; the model read is always the same: two bones along x, one triangle, authored Z up
 * (so that the glTF correction and the VAT sidecar must take its axes from this record). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/registry.h"
#include "vkskin/build.h"

static const char magic[] = "VKSTEST 1\n";

static int probe_vkstest(const void *bytes, size_t size)
{
    return vks__bytes_start(bytes, size, magic) ? VKS__PROBE_MAGIC : VKS__PROBE_NO;
}

static vks_result build(vks_skin *s, vks_error *err)
{
    static const char *const names[2] = {"root", "tip"};
    s->node_count = 2;
    s->nodes = vks_skin_alloc_array(s, 2, sizeof *s->nodes);
    if (!s->nodes)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vkstest", "out of memory");
    for (int i = 0; i < 2; i++) {
        s->nodes[i].name = names[i];
        s->nodes[i].parent = i - 1;
        s->nodes[i].bind_local = vks_affine_identity();
    }
    s->nodes[1].bind_local.m[9] = 1.0f; /* tip one unit along x */
    static const float pos[3][3] = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}};
    static const uint16_t bone[3][4] = {{0}, {1}, {1}};
    static const float weight[3][4] = {{1}, {1}, {1}};
    static const uint32_t tri[1][3] = {{0, 1, 2}};
    vks_bone bones[2] = {{0, vks_affine_identity()}, {1, vks_affine_identity()}};
    bones[1].inverse_bind.m[9] = -1.0f;
    vks_mesh_source m = {0};
    m.name = "triangle";
    m.vertex_count = 3;
    m.positions = pos;
    m.bone = bone;
    m.weight = weight;
    m.triangle_count = 1;
    m.triangles = tri;
    m.bone_count = 2;
    m.bones = bones;
    m.space_node = -1;
    vks_skin_builder *b = vks_builder_create(s);
    if (!b)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vkstest", "out of memory");
    vks_result r = vks_builder_add_mesh(b, &m, err);
    vks_result f = vks_builder_finish(b, err);
    return r != VKS_OK ? r : f;
}

static vks_result read_vkstest(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                               vks_error *err)
{
    (void)opt;
    *out = NULL;
    if (!probe_vkstest(bytes, size))
        return vks_error_set(err, VKS_ERR_FORMAT, 0, "magic", "not a vkstest file (no \"VKSTEST 1\" line)");
    vks_skin *s = vks_skin_create(NULL);
    if (!s)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vkstest", "out of memory");
    s->format = "vkstest";
    vks_result r = build(s, err);
    if (r != VKS_OK) {
        vks_skin_free(s);
        return r;
    }
    *out = s;
    return VKS_OK;
}

/* The magic line and the vertex count: enough for the generator to write one. */
static vks_result write_vkstest(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                                size_t *out_size, vks_error *err)
{
    (void)opt;
    char text[64];
    int n = snprintf(text, sizeof text, "%svertices %u\n", magic, skin->vertex_count);
    *out_bytes = malloc((size_t)n);
    if (!*out_bytes)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vkstest", "out of memory");
    memcpy(*out_bytes, text, (size_t)n);
    *out_size = (size_t)n;
    return VKS_OK;
}

static const char *const model_extensions[] = {".vkstest", NULL};
static const char *const no_extensions[] = {NULL};

const vks__format vks__format_vkstest = {
    .info = {"vkstest", "vkskin test", model_extensions, no_extensions, NULL,
             read_vkstest, write_vkstest, 0, VKS_AXES_Z_UP},
    .probe = probe_vkstest,
};
