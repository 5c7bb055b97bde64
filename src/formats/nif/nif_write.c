/* vks_nif_write: a vks_skin as a NIF file, for fixtures, datasets and benchmarks.
 *
 * Versions: 20.2.0.7 (default; Skyrim LE profile, user 12, bsver 83, with block sizes and a
 * string table) or 10.1.0.0 (opt->version = 0x0A010000; no sizes, block separators).
 * opt->triangle_strips writes NiTriStrips and stripped partitions instead of lists.
 * Layout: one NiNode per skin node (block = node index, plus a "Scene Root" block 0 when the
 * skin has several roots or a mesh without a skin-space node), then per mesh NiTriShape,
 * NiTriShapeData, NiSkinInstance, NiSkinData (weights per bone), NiSkinPartition (one
 * partition per group: palette, vertex map, 4 weights and bone indices per vertex).
 * The reader maps it back to the same model (nif_model.c): skeleton root = the mesh's space
 * node, overall = space_pre, S2B = inverse binds. */
#include "nif_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const type_names[6] = {"NiNode", "NiTriShape", "NiTriShapeData", "NiSkinInstance", "NiSkinData",
                                          "NiSkinPartition"};
static const char *const strip_names[6] = {"NiNode", "NiTriStrips", "NiTriStripsData", "NiSkinInstance", "NiSkinData",
                                           "NiSkinPartition"};

static uint16_t block_type(const nif_writer *w, uint32_t b)
{
    return b < w->mesh_base ? 0 : (uint16_t)(1 + (b - w->mesh_base) % 5);
}

static const char *block_name(const nif_writer *w, uint32_t b)
{
    if (b < w->mesh_base)
        return w->synthetic_root && b == 0 ? "Scene Root" : w->skin->nodes[b - w->node_base].name;
    if ((b - w->mesh_base) % 5 == 0)
        return w->skin->meshes[w->meshes[(b - w->mesh_base) / 5].mesh].name;
    return "";
}

void nif_w_sized(vks_bytebuf *o, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    vks_buf_u32(o, n);
    vks_buf_put(o, s, n);
}

static void export_string(vks_bytebuf *o, const char *s)
{
    uint8_t n = (uint8_t)(strlen(s) + 1);
    vks_buf_u8(o, n);
    vks_buf_put(o, s, n);
}

/* The mesh's UV sets, per source vertex (filled with the positions): NiGeometryData's data
   flags count them, and Skyrim's layout (20.2.0.7, bsver 83) has room for one. 0: no memory. */
static int gather_uv_alloc(const nif_writer *w, nif_wmesh *wm, const vks_mesh *me)
{
    uint32_t sets = me->uv_set_count < w->skin->uv_set_count ? me->uv_set_count : w->skin->uv_set_count;
    if (w->bsver > 34 && sets > 1)
        sets = 1;
    for (uint32_t k = 0; k < sets; k++)
        if (!(wm->uv[k] = calloc(wm->vertex_count, sizeof *wm->uv[k])))
            return 0;
    wm->uv_sets = sets;
    return 1;
}

/* Per mesh: source-vertex positions/normals and NiSkinData's per-bone weight lists. */
static vks_result gather_mesh(nif_writer *w, uint32_t m, vks_error *err)
{
    const vks_skin *s = w->skin;
    nif_wmesh *wm = &w->meshes[m];
    const vks_mesh *me = &s->meshes[m];
    wm->mesh = m;
    wm->vertex_count = me->source_vertex_count;
    uint32_t nv = wm->vertex_count;
    if (nv == 0 || nv > 65535 || me->triangle_count > 65535 || me->bone_count > 65535)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write/mesh",
                             "mesh %u: %u vertices, %u triangles, %u bones; NIF stores 1..65535 of each", m, nv,
                             me->triangle_count, me->bone_count);
    float (*pos)[3] = calloc(nv, sizeof *pos);
    float (*nrm)[3] = s->normals && (me->flags & VKS_MESH_HAS_NORMALS) ? calloc(nv, sizeof *nrm) : NULL;
    uint8_t *seen = calloc(nv, 1);
    wm->positions = (const float (*)[3])pos;
    wm->normals = (const float (*)[3])nrm;
    if (!gather_uv_alloc(w, wm, me)) {
        free(seen);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
    }
    wm->weight_count = calloc(me->bone_count, sizeof *wm->weight_count);
    wm->weight_vertex = calloc(me->bone_count, sizeof *wm->weight_vertex);
    wm->weight_value = calloc(me->bone_count, sizeof *wm->weight_value);
    if (!pos || !seen || (s->normals && (me->flags & VKS_MESH_HAS_NORMALS) && !nrm) || !wm->weight_count ||
        !wm->weight_vertex || !wm->weight_value) {
        free(seen);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
    }
    /* two passes over the groups: count weights per bone, then fill (first copy of a
       duplicated file vertex wins) */
    for (int pass = 0; pass < 2; pass++) {
        memset(seen, 0, nv);
        for (uint32_t gi = 0; gi < me->group_count; gi++) {
            const vks_group *g = &s->groups[me->first_group + gi];
            if (g->palette_count > 256) {
                free(seen);
                return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write/group",
                                     "group %u has %u palette entries; partition bone indices are bytes",
                                     me->first_group + gi, g->palette_count);
            }
            for (uint32_t v = g->first_vertex; v < g->first_vertex + g->vertex_count; v++) {
                uint32_t sv = s->source_vertex[v];
                if (sv >= nv || seen[sv])
                    continue;
                seen[sv] = 1;
                if (pass == 0) {
                    memcpy(pos[sv], s->positions[v], 12);
                    if (nrm)
                        memcpy(nrm[sv], s->normals[v], 12);
                    for (uint32_t k = 0; k < wm->uv_sets; k++)
                        memcpy(wm->uv[k][sv], s->uv[k][v], 8);
                }
                const vks_influence *in = &s->influences[v];
                for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
                    if (!(in->weight[k] > 0))
                        continue;
                    uint32_t b = s->palette[g->first_palette + in->index[k]] - me->first_bone;
                    if (pass == 0) {
                        wm->weight_count[b]++;
                    } else {
                        uint32_t i = wm->weight_count[b]++;
                        wm->weight_vertex[b][i] = (uint16_t)sv;
                        wm->weight_value[b][i] = in->weight[k];
                    }
                }
            }
        }
        if (pass == 0)
            for (uint32_t b = 0; b < me->bone_count; b++) {
                if (wm->weight_count[b] > 65535) {
                    free(seen);
                    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write/bone",
                                         "bone %u weights %u vertices; NiSkinData stores at most 65535", b,
                                         wm->weight_count[b]);
                }
                wm->weight_vertex[b] = calloc(wm->weight_count[b] + 1, sizeof **wm->weight_vertex);
                wm->weight_value[b] = calloc(wm->weight_count[b] + 1, sizeof **wm->weight_value);
                if (!wm->weight_vertex[b] || !wm->weight_value[b]) {
                    free(seen);
                    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
                }
                wm->weight_count[b] = 0;
            }
    }
    free(seen);
    return VKS_OK;
}

static void free_writer(nif_writer *w)
{
    if (w->meshes)
        for (uint32_t m = 0; m < w->skin->mesh_count; m++) {
            nif_wmesh *wm = &w->meshes[m];
            free((void *)wm->positions);
            free((void *)wm->normals);
            for (uint32_t k = 0; k < VKS_MAX_UV_SETS; k++)
                free(wm->uv[k]);
            for (uint32_t b = 0; wm->weight_vertex && b < w->skin->meshes[m].bone_count; b++) {
                free(wm->weight_vertex[b]);
                free(wm->weight_value[b]);
            }
            free(wm->weight_count);
            free(wm->weight_vertex);
            free(wm->weight_value);
        }
    free(w->meshes);
    if (w->children)
        for (uint32_t b = 0; b < w->mesh_base; b++)
            free(w->children[b]);
    free(w->children);
    free(w->child_count);
}

/* Children lists: skin parents, shapes under their skeleton root, roots under the synthetic
   root when there is one. */
static vks_result layout(nif_writer *w, vks_error *err)
{
    const vks_skin *s = w->skin;
    uint32_t roots = 0;
    for (uint32_t i = 0; i < s->node_count; i++)
        roots += s->nodes[i].parent < 0;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        if (s->meshes[m].space_node < 0)
            w->synthetic_root = 1;
    if (roots != 1)
        w->synthetic_root = 1;
    w->node_base = w->synthetic_root ? 1 : 0;
    w->mesh_base = w->node_base + s->node_count;
    w->block_count = w->mesh_base + 5 * s->mesh_count;
    w->children = calloc(w->mesh_base, sizeof *w->children);
    w->child_count = calloc(w->mesh_base, sizeof *w->child_count);
    uint32_t *cap = calloc(w->mesh_base, sizeof *cap);
    if (!w->children || !w->child_count || !cap) {
        free(cap);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
    }
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < s->node_count; i++) {
            int32_t p = s->nodes[i].parent;
            if (p < 0 && !w->synthetic_root)
                continue;
            uint32_t pb = p < 0 ? 0 : w->node_base + (uint32_t)p;
            if (pass == 0)
                cap[pb]++;
            else
                w->children[pb][w->child_count[pb]++] = w->node_base + i;
        }
        for (uint32_t m = 0; m < s->mesh_count; m++) {
            uint32_t pb = nif_w_skeleton_root(w, m);
            if (pass == 0)
                cap[pb]++;
            else
                w->children[pb][w->child_count[pb]++] = w->mesh_base + 5 * m;
        }
        if (pass == 0)
            for (uint32_t b = 0; b < w->mesh_base; b++) {
                w->children[b] = malloc((cap[b] + 1) * sizeof **w->children);
                if (!w->children[b]) {
                    free(cap);
                    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
                }
            }
    }
    free(cap);
    return VKS_OK;
}

void nif_w_file_header(vks_bytebuf *o, uint32_t ver, uint32_t user, uint32_t bsver, const char *const *types,
                       uint16_t type_count, const uint16_t *block_types, uint32_t block_count)
{
    int v20 = ver >= NIF_V(20, 1, 0, 1);
    vks_buf_printf(o, "Gamebryo File Format, Version %u.%u.%u.%u\n", ver >> 24, (ver >> 16) & 255, (ver >> 8) & 255,
                   ver & 255);
    vks_buf_u32(o, ver);
    if (v20)
        vks_buf_u8(o, 1); /* little endian */
    vks_buf_u32(o, user);
    vks_buf_u32(o, block_count);
    if (v20) { /* BS stream header: bsver, author, process script, export script */
        vks_buf_u32(o, bsver);
        export_string(o, "vkskin");
        export_string(o, "");
        export_string(o, "");
    }
    vks_buf_u16(o, type_count);
    for (uint16_t i = 0; i < type_count; i++)
        nif_w_sized(o, types[i]);
    for (uint32_t b = 0; b < block_count; b++)
        vks_buf_u16(o, block_types[b]);
}

static vks_result header(nif_writer *w, vks_error *err)
{
    uint16_t *index = malloc((w->block_count ? w->block_count : 1) * sizeof *index);
    if (!index)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
    for (uint32_t b = 0; b < w->block_count; b++)
        index[b] = block_type(w, b);
    nif_w_file_header(w->out, w->ver, w->user, w->bsver, w->strips ? strip_names : type_names, 6, index,
                      w->block_count);
    free(index);
    return VKS_OK;
}

vks_result vks_nif_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                         size_t *out_size, vks_error *err)
{
    vks_error local = {0};
    if (!err)
        err = &local;
    if (!skin || !out_bytes || !out_size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "nif/write", "skin, out_bytes and out_size are required");
    uint32_t over = vks_skin_vertices_over(skin, 4);
    if (over)
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write",
                             "%u vertices have more than 4 influences; the writer's skin partitions store 4 a vertex "
                             "(glTF keeps up to 8: vkskin convert)", over);
    uint32_t version = opt && opt->version ? opt->version : NIF_V(20, 2, 0, 7);
    if (version != NIF_V(20, 2, 0, 7) && version != NIF_V(10, 1, 0, 0))
        return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif/write/version",
                             "the writer writes 20.2.0.7 (0x14020007) or 10.1.0.0 (0x0A010000), not 0x%08x", version);
    if (skin->mesh_count == 0 || skin->node_count == 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "nif/write", "the skin has no mesh or no node");
    vks_result rc = vks_skin_validate(skin, err);
    if (rc != VKS_OK)
        return rc;
    vks_bytebuf out = {0};
    nif_writer w = {0};
    w.skin = skin;
    w.out = &out;
    w.ver = version;
    w.strips = opt && opt->triangle_strips;
    if (version == NIF_V(20, 2, 0, 7))
        w.user = 12, w.bsver = 83;
    w.meshes = calloc(skin->mesh_count, sizeof *w.meshes);
    if (!w.meshes)
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
    for (uint32_t m = 0; rc == VKS_OK && m < skin->mesh_count; m++)
        rc = gather_mesh(&w, m, err);
    if (rc == VKS_OK)
        rc = layout(&w, err);
    if (rc == VKS_OK && w.block_count > 0x7FFF0000u)
        rc = vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "nif/write", "too many blocks");
    if (rc == VKS_OK)
        rc = header(&w, err);
    if (rc != VKS_OK) {
        free_writer(&w);
        vks_buf_free(&out);
        return rc;
    }

    size_t sizes_at = out.size;
    int v20 = version >= NIF_V(20, 1, 0, 1);
    if (v20) {
        for (uint32_t b = 0; b < w.block_count; b++)
            vks_buf_u32(&out, 0); /* patched below */
        /* string table: one entry per block (names of nodes and shapes, "" elsewhere) */
        uint32_t maxlen = 0;
        for (uint32_t b = 0; b < w.block_count; b++) {
            uint32_t n = (uint32_t)strlen(block_name(&w, b));
            maxlen = n > maxlen ? n : maxlen;
        }
        vks_buf_u32(&out, w.block_count);
        vks_buf_u32(&out, maxlen);
        for (uint32_t b = 0; b < w.block_count; b++)
            nif_w_sized(&out, block_name(&w, b));
    }
    vks_buf_u32(&out, 0); /* groups */
    for (uint32_t b = 0; b < w.block_count; b++) {
        if (!v20)
            vks_buf_u32(&out, 0); /* block separator (10.0.0.0 <= v < 10.2.0.0) */
        size_t start = out.size;
        if (b < w.mesh_base) {
            nif_w_node(&w, b);
        } else {
            uint32_t m = (b - w.mesh_base) / 5;
            switch ((b - w.mesh_base) % 5) {
            case 0: nif_w_shape(&w, m); break;
            case 1: nif_w_geomdata(&w, m); break;
            case 2: nif_w_skin_instance(&w, m); break;
            case 3: nif_w_skin_data(&w, m); break;
            default: nif_w_skin_partition(&w, m); break;
            }
        }
        if (v20)
            vks_buf_patch_u32(&out, sizes_at + 4 * (size_t)b, (uint32_t)(out.size - start));
    }
    vks_buf_u32(&out, 1); /* roots */
    vks_buf_u32(&out, 0);
    free_writer(&w);
    if (out.failed) {
        vks_buf_free(&out);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif/write", "out of memory");
    }
    *out_bytes = out.data;
    *out_size = out.size;
    return VKS_OK;
}
