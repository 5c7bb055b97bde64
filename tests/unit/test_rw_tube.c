/* vks_rw_read on the project's RenderWare sample tube_rw36003.dff, compared field by field
 * with tube_rw36003.expected.json (read at test time), then the bind-pose check, truncation
 * at every byte, corruption of every chunk size and count field and a width-1 sweep of all
 * positions, native geometry and garbage input. */
#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "test_rw_util.h"
#include "testutil.h"

static cJSON *load_json(const char *path)
{
    size_t n = 0;
    uint8_t *t = vks_test_read_file(path, &n);
    if (!t)
        return NULL;
    cJSON *j = cJSON_ParseWithLength((const char *)t, n);
    free(t);
    return j;
}

static int json_int(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsString(v))
        return (int)strtol(v->valuestring, NULL, 0);
    return v ? v->valueint : -999999;
}

/* Model vertex (global) of file vertex sv in mesh 0's first group that holds it. */
static uint32_t find_source_vertex(const vks_skin *s, uint32_t sv)
{
    const vks_mesh *me = &s->meshes[0];
    for (uint32_t v = me->first_vertex; v < me->first_vertex + me->vertex_count; v++)
        if (s->source_vertex[v] == sv)
            return v;
    return UINT32_MAX;
}

static const vks_group *group_of_vertex(const vks_skin *s, uint32_t v)
{
    for (uint32_t g = 0; g < s->group_count; g++)
        if (v >= s->groups[g].first_vertex && v < s->groups[g].first_vertex + s->groups[g].vertex_count)
            return &s->groups[g];
    return NULL;
}

static void compare_with_json(const vks_skin *s, const cJSON *j, size_t file_size)
{
    CHECK_EQ_INT(json_int(j, "file_size"), file_size);
    char detail[32];
    int v = json_int(j, "rw_version");
    snprintf(detail, sizeof detail, "RW %d.%d.%d.%d", (v >> 16) & 0xF, (v >> 12) & 0xF, (v >> 8) & 0xF, v & 0xFF);
    CHECK(strcmp(s->format, "renderware") == 0);
    CHECK(strcmp(s->format_detail, detail) == 0);

    /* frames */
    int nf = json_int(j, "numFrames");
    CHECK_EQ_INT(s->node_count, nf);
    const cJSON *parents = cJSON_GetObjectItem(j, "frame_parents");
    const cJSON *names = cJSON_GetObjectItem(j, "frame_names");
    const cJSON *ids = cJSON_GetObjectItem(j, "frame_hanim_ids");
    for (int i = 0; i < nf && i < (int)s->node_count; i++) {
        CHECK_EQ_INT(s->nodes[i].parent, cJSON_GetArrayItem(parents, i)->valueint);
        CHECK(strcmp(s->nodes[i].name, cJSON_GetArrayItem(names, i)->valuestring) == 0);
    }

    /* one skinned atomic on atomic_frame */
    CHECK_EQ_INT(s->mesh_count, 1);
    if (s->mesh_count != 1)
        return;
    const vks_mesh *me = &s->meshes[0];
    CHECK_EQ_INT(me->space_node, json_int(j, "atomic_frame"));
    CHECK(!(me->flags & VKS_MESH_RENORMALIZE));
    CHECK(me->flags & VKS_MESH_HAS_NORMALS);

    /* hierarchy: bone i is HAnim node i, attached to the frame carrying that node's ID */
    const cJSON *nodes = cJSON_GetObjectItem(j, "hanim_nodes_id_index_flags");
    const cJSON *skin = cJSON_GetObjectItem(j, "skin");
    CHECK_EQ_INT(me->bone_count, cJSON_GetArraySize(nodes));
    CHECK_EQ_INT(me->bone_count, json_int(skin, "header_numBones"));
    for (int i = 0; i < cJSON_GetArraySize(nodes) && i < (int)me->bone_count; i++) {
        int id = cJSON_GetArrayItem(cJSON_GetArrayItem(nodes, i), 0)->valueint;
        int frame = -1;
        for (int f = 0; f < cJSON_GetArraySize(ids); f++) {
            const cJSON *x = cJSON_GetArrayItem(ids, f);
            if (cJSON_IsNumber(x) && x->valueint == id)
                frame = f;
        }
        CHECK_EQ_INT(s->bones[me->first_bone + i].node, frame);
    }
    CHECK_EQ_INT(s->bones[me->first_bone].node, json_int(j, "hierarchy_frame"));
    /* node parents via PUSH/POP (node flags) must match the frame tree: rebuild here */
    {
        int cur = -1, stack[64], sp = 0;
        stack[sp++] = -1;
        for (int i = 0; i < cJSON_GetArraySize(nodes) && i < (int)me->bone_count; i++) {
            int flags = cJSON_GetArrayItem(cJSON_GetArrayItem(nodes, i), 2)->valueint;
            if (i > 0) {
                uint32_t f = s->bones[me->first_bone + i].node;
                CHECK_EQ_INT(s->nodes[f].parent, (int)s->bones[me->first_bone + cur].node);
            }
            if (flags & 2)
                stack[sp++] = cur;
            cur = i;
            if (flags & 1)
                cur = sp > 0 ? stack[--sp] : -1;
        }
    }

    /* geometry */
    CHECK_EQ_INT(me->source_vertex_count, json_int(j, "numVertices"));
    CHECK_EQ_INT(me->vertex_count, json_int(j, "numVertices")); /* one group: nothing duplicated */
    CHECK_EQ_INT(me->triangle_count, json_int(j, "numTriangles"));
    const cJSON *t0 = cJSON_GetObjectItem(j, "first_triangle_v0_v1_v2_mat");
    const uint32_t *tri = s->triangles[me->first_triangle];
    for (int k = 0; k < 3; k++)
        CHECK_EQ_INT(s->source_vertex[me->first_vertex + tri[k]], cJSON_GetArrayItem(t0, k)->valueint);
    CHECK(s->triangle_material != NULL);
    if (s->triangle_material)
        CHECK_EQ_INT(s->triangle_material[me->first_triangle], cJSON_GetArrayItem(t0, 3)->valueint);

    /* UV set and material (issue 26), values from the file's bytes by a short Python walk: the
       Geometry Struct's UV array after 130 prelit colours gives vertex 0 (0, 0), vertex 1
       (0.1, 0), vertex 129 (0.9, 1); the one Material's struct is RGBA ff ff ff ff, untextured */
    CHECK_EQ_INT(s->uv_set_count, json_int(j, "numTexSets"));
    CHECK_EQ_INT(me->uv_set_count, 1);
    for (uint32_t mv = me->first_vertex; s->uv[0] && mv < me->first_vertex + me->vertex_count; mv++) {
        uint32_t f = s->source_vertex[mv];
        if (f == 0)
            CHECK(s->uv[0][mv][0] == 0.0f && s->uv[0][mv][1] == 0.0f);
        if (f == 1)
            CHECK(s->uv[0][mv][0] == 0.1f && s->uv[0][mv][1] == 0.0f);
        if (f == 129)
            CHECK(s->uv[0][mv][0] == 0.9f && s->uv[0][mv][1] == 1.0f);
    }
    CHECK_EQ_INT(s->material_count, 1);
    CHECK_EQ_INT(me->material_count, 1);
    const vks_material *mat = vks_skin_triangle_material(s, 0, me->first_triangle);
    CHECK(mat != NULL);
    if (mat)
        CHECK(mat->base_color[0] == 1 && mat->base_color[3] == 1 && !mat->base_texture[0] && mat->base_image == -1);

    /* skin facts visible through the model: no split data -> one group with all bones in
       order; used bones = bones with a positive weight; max weights */
    const cJSON *split = cJSON_GetObjectItem(skin, "split");
    CHECK_EQ_INT(json_int(split, "numMeshes"), 0);
    CHECK_EQ_INT(me->group_count, 1);
    const vks_group *g = &s->groups[me->first_group];
    CHECK_EQ_INT(g->palette_count, me->bone_count);
    for (uint32_t i = 0; i < g->palette_count; i++)
        CHECK_EQ_INT(s->palette[g->first_palette + i], me->first_bone + i);
    CHECK_EQ_INT(g->max_influences, json_int(skin, "header_maxWeights"));
    uint8_t used[256] = {0};
    for (uint32_t gv = g->first_vertex; gv < g->first_vertex + g->vertex_count; gv++)
        for (int k = 0; k < 4; k++)
            if (s->influences[gv].weight[k] > 0)
                used[s->palette[g->first_palette + s->influences[gv].index[k]] - me->first_bone] = 1;
    const cJSON *ub = cJSON_GetObjectItem(skin, "usedBones");
    int nused = 0;
    for (int i = 0; i < 256; i++)
        nused += used[i];
    CHECK_EQ_INT(nused, json_int(skin, "header_numUsedBones"));
    for (int i = 0; i < cJSON_GetArraySize(ub); i++)
        CHECK(used[cJSON_GetArrayItem(ub, i)->valueint]);

    /* vertex 0: indices through the palette back to bone indices, weights as stored */
    uint32_t v0 = find_source_vertex(s, 0);
    CHECK(v0 != UINT32_MAX);
    if (v0 != UINT32_MAX) {
        const vks_group *gv = group_of_vertex(s, v0);
        const cJSON *wi = cJSON_GetObjectItem(skin, "vertex0_indices");
        const cJSON *ww = cJSON_GetObjectItem(skin, "vertex0_weights");
        int u = 0;
        for (int k = 0; k < 4; k++) {
            double w = cJSON_GetArrayItem(ww, k)->valuedouble;
            if (!(w > 0))
                continue;
            const vks_influence *in = &s->influences[v0];
            CHECK_NEAR(in->weight[u], w, 0);
            CHECK_EQ_INT(s->palette[gv->first_palette + in->index[u]] - me->first_bone,
                         cJSON_GetArrayItem(wi, k)->valueint);
            u++;
        }
        for (; u < 4; u++)
            CHECK_EQ_INT(s->influences[v0].weight[u], 0);
    }
}

int main(void)
{
    const char *dff = vks_test_dataset("renderware/tube_rw36003.dff");
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(dff, &size);
    CHECK(bytes != NULL);
    cJSON *j = load_json(vks_test_dataset("renderware/tube_rw36003.expected.json"));
    CHECK(j != NULL);
    if (!bytes || !j)
        return vks_test_finish("test_rw_tube");

    vks_read_options opt;
    memset(&opt, 0, sizeof opt);
    vks_skin *s = NULL;
    vks_error err = {0};
    vks_result r = vks_rw_read(&opt, bytes, size, &s, &err);
    if (r != VKS_OK) {
        char buf[512];
        fprintf(stderr, "%s\n", vks_error_format(&err, "tube_rw36003.dff", buf, sizeof buf));
    }
    CHECK_EQ_INT(r, VKS_OK);
    if (s) {
        compare_with_json(s, j, size);
        vks_bind_check bc;
        memset(&bc, 0, sizeof bc);
        CHECK_EQ_INT(vks_cpu_bind_check(s, &bc, &err), VKS_OK);
        printf("tube bind check: max error %.3g (relative %.3g of the bounding radius), normals %.3g\n",
               bc.max_error, bc.max_error_relative, bc.max_normal_error);
        CHECK(bc.max_error_relative < 1e-5);
        CHECK(bc.max_normal_error < 1e-5);
        vks_skin_free(s);
    }

    /* IMG padding after the clump is ignored */
    {
        uint8_t *pad = calloc(size + 2048, 1);
        memcpy(pad, bytes, size);
        vks_skin *p = NULL;
        CHECK_EQ_INT(vks_rw_read(&opt, pad, size + 2048, &p, NULL), VKS_OK);
        vks_skin_free(p);
        free(pad);
    }

    /* truncation at every byte */
    int bad = vks_test_truncations(vks_rw_read, &opt, bytes, size, size, NULL, 0, 0);
    printf("truncations: %zu prefixes, %d bad\n", size, bad);
    CHECK_EQ_INT(bad, 0);

    /* corruption of chunk headers (type, size, stamp) and of the first four words of every
       struct / leaf payload (the counts), then all positions at width 1 */
    rw_test_chunk ch[512];
    size_t nc = vks_test_rw_chunks(bytes, size, ch, 512);
    size_t pos[4096], np = 0;
    for (size_t i = 0; i < nc && np + 8 < 4096; i++) {
        pos[np++] = ch[i].offset;
        pos[np++] = ch[i].offset + 4;
        pos[np++] = ch[i].offset + 8;
        for (size_t k = 0; k < 16 && k < ch[i].size; k += 4)
            pos[np++] = ch[i].offset + 12 + k;
    }
    /* skin header bytes and split counts; HAnim node count; bin mesh per-mesh count */
    size_t sk = vks_test_rw_find(ch, nc, 0x116, 0x03, 0);
    CHECK(sk != (size_t)-1);
    if (sk != (size_t)-1) {
        for (size_t k = 0; k < 4; k++)
            pos[np++] = ch[sk].offset + 12 + k;
        for (size_t k = 0; k < 12; k += 4)
            pos[np++] = ch[sk].offset + 12 + ch[sk].size - 12 + k;
    }
    size_t bm = vks_test_rw_find(ch, nc, 0x50E, 0x03, 0);
    if (bm != (size_t)-1)
        pos[np++] = ch[bm].offset + 12 + 12;
    for (size_t h = 0; h < 8; h++) {
        size_t hi = vks_test_rw_find(ch, nc, 0x11E, 0x03, h);
        if (hi == (size_t)-1)
            break;
        for (size_t k = 0; k < ch[hi].size; k += 4)
            pos[np++] = ch[hi].offset + 12 + k;
    }
    bad = vks_test_corruptions(vks_rw_read, &opt, bytes, size, pos, np, 4);
    printf("corruptions (width 4): %zu positions over %zu chunks, %d bad\n", np, nc, bad);
    CHECK_EQ_INT(bad, 0);
    bad = vks_test_corruptions(vks_rw_read, &opt, bytes, size, NULL, 0, 1);
    printf("corruptions (width 1, every byte): %d bad\n", bad);
    CHECK_EQ_INT(bad, 0);

    /* native geometry: flag 0x01000000 in the geometry struct -> unsupported, with a message */
    {
        size_t gi = vks_test_rw_find(ch, nc, 0x01, 0x0F, 0);
        CHECK(gi != (size_t)-1);
        if (gi != (size_t)-1) {
            uint8_t *copy = malloc(size);
            memcpy(copy, bytes, size);
            uint8_t *flags = copy + ch[gi].offset + 12;
            vks_test_put32(flags, vks_test_le32(flags) | 0x01000000u);
            vks_skin *n = NULL;
            vks_error e = {0};
            CHECK_EQ_INT(vks_rw_read(&opt, copy, size, &n, &e), VKS_ERR_UNSUPPORTED);
            CHECK(n == NULL);
            CHECK(strstr(e.msg, "native") != NULL);
            CHECK(strstr(e.path, "geometry") != NULL);
            CHECK_EQ_INT(e.offset, ch[gi].offset + 12);
            free(copy);
        }
    }
    /* garbage bytes -> format error with a message */
    {
        uint8_t junk[256];
        for (size_t i = 0; i < sizeof junk; i++)
            junk[i] = (uint8_t)(i * 37 + 11);
        vks_skin *n = NULL;
        vks_error e = {0};
        CHECK_EQ_INT(vks_rw_read(&opt, junk, sizeof junk, &n, &e), VKS_ERR_FORMAT);
        CHECK(n == NULL && e.msg[0] != 0);
    }
    cJSON_Delete(j);
    free(bytes);
    return vks_test_finish("test_rw_tube");
}
