/* The block walk (nif.md 3.3-3.4): for every block its type (a name in front of the block
 * before 5.0.0.1, the type table after), the zero separator of 10.0.x-10.1.x, and its body.
 * With block sizes (20.2.0.5+) unknown types are skipped by size and the model's blocks (and,
 * for the clip reader, the animation blocks) must consume exactly their size; without sizes
 * every block must be understood, and an unknown type stops the read with an error naming
 * it. Then the footer's root list. */
#include "nif_kf_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct model_type {
    const char *type;
    nif_block_fn fn;
    int prefix; /* a subclass with more fields: readable only where block sizes exist */
} model_type;

static const model_type model_types[] = {
    {"NiNode", nif_read_node, 0},
    {"BSFadeNode", nif_read_node, 0},
    {"NiBSAnimationNode", nif_read_node, 0},
    {"NiBSParticleNode", nif_read_node, 0},
    {"RootCollisionNode", nif_read_node, 0},
    {"AvoidNode", nif_read_node, 0},
    {"BSLeafAnimNode", nif_read_node, 0},
    {"NiBone", nif_read_node, 0},
    {"NiSwitchNode", nif_read_switch_node, 0},
    {"NiLODNode", nif_read_lod_node, 0},
    {"NiBillboardNode", nif_read_billboard_node, 0},
    {"BSMultiBoundNode", nif_read_node, 1},
    {"BSOrderedNode", nif_read_node, 1},
    {"BSValueNode", nif_read_node, 1},
    {"BSTreeNode", nif_read_node, 1},
    {"NiTriShape", nif_read_tri_geometry, 0},
    {"NiTriStrips", nif_read_tri_geometry, 0},
    {"BSSegmentedTriShape", nif_read_tri_geometry, 1},
    {"BSTriShape", nif_read_bstrishape, 0},
    {"NiTriShapeData", nif_read_trishape_data, 0},
    {"NiTriStripsData", nif_read_tristrips_data, 0},
    {"NiSkinInstance", nif_read_skin_instance, 0},
    {"BSDismemberSkinInstance", nif_read_dismember_instance, 0},
    {"NiSkinData", nif_read_skin_data, 0},
    {"NiSkinPartition", nif_read_skin_partition, 0},
    /* Skyrim's surface: the shader property is read through its alpha, the rest by size */
    {"BSLightingShaderProperty", nif_read_lighting_shader, 1},
    {"BSShaderTextureSet", nif_read_texture_set, 0},
};

static const model_type *find_model_type(const nif_file *f, const char *type)
{
    for (size_t i = 0; i < sizeof model_types / sizeof model_types[0]; i++)
        if (strcmp(model_types[i].type, type) == 0) {
            /* BSTriShape's vertex format is read for Skyrim SE only; elsewhere it is skipped */
            if (model_types[i].fn == nif_read_bstrishape && f->bsver != 100)
                return NULL;
            return &model_types[i];
        }
    return NULL;
}

nif_block_fn nif_model_reader(const char *type)
{
    for (size_t i = 0; i < sizeof model_types / sizeof model_types[0]; i++)
        if (strcmp(model_types[i].type, type) == 0 && !model_types[i].prefix)
            return model_types[i].fn;
    return NULL;
}

static const char *version_text(uint32_t v, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
    return buf;
}

vks_result nif_parse(nif_file *f, const void *bytes, size_t size, vks_error *err)
{
    vks_cursor c = vks_cur_make(bytes, size);
    vks_result rc = nif_read_header(f, &c, err);
    if (rc != VKS_OK)
        return rc;
    nif_rd r = {c, f, err, 0, NULL};
    /* The block table costs sizeof(nif_block) per declared block: a block must bring bytes
       for it first. Before 5.0.0.1 each starts with a type name (a 4-byte length and at
       least 2 characters); later ones without sizes read at least a byte; with sizes the
       header already held 6 bytes per block. */
    uint64_t min_bytes = f->ver < NIF_V(5, 0, 0, 1) ? 6u : f->block_size ? 0u : 1u;
    if (min_bytes && !vks_cur_fits(&r.c, f->block_count, (size_t)min_bytes))
        return vks_error_set(err, VKS_ERR_TRUNCATED, vks_cur_offset(&r.c), "nif/blocks",
                             "%u blocks need at least %llu bytes, %zu left after the header", f->block_count,
                             (unsigned long long)f->block_count * min_bytes, vks_cur_left(&r.c));
    f->blocks = nif_alloc(&r, f->block_count, sizeof *f->blocks, "blocks");
    if (!f->blocks)
        return err->code;
    char vbuf[32];
    for (uint32_t i = 0; i < f->block_count; i++) {
        nif_block *b = &f->blocks[i];
        r.block = i;
        r.type = NULL;
        if (f->ver < NIF_V(5, 0, 0, 1)) {
            uint32_t len;
            char field[32];
            snprintf(field, sizeof field, "block[%u]/type_name", i);
            uint64_t at = vks_cur_offset(&r.c);
            if (vks_cur_left(&r.c) >= 4) {
                len = vks_le32(r.c.p); /* peeked: nif_sized_string reads it again */
                if (len < 2 || len > 80)
                    return vks_error_set(err, VKS_ERR_FORMAT, at, field,
                                         "type name length %u is outside 2..80 (not a block start)", len);
            }
            if (!nif_sized_string(&r, &b->type, field))
                return err->code;
        } else {
            b->type = f->types[f->type_index[i]];
        }
        r.type = b->type;
        if (f->ver >= NIF_V(10, 0, 0, 0) && f->ver < NIF_V(10, 2, 0, 0) && strncmp(b->type, "bhk", 3) != 0) {
            uint32_t sep;
            if (!nif_u32(&r, &sep, "separator"))
                return err->code;
            if (sep != 0)
                return nif_fail(&r, VKS_ERR_FORMAT, "separator", "block separator is %u, expected 0", sep), err->code;
        }
        b->offset = vks_cur_offset(&r.c);
        const model_type *mt = find_model_type(f, b->type);
        nif_block_fn anim = mt ? NULL : nif_anim_reader(b->type);
        if (f->block_size) {
            vks_cursor body;
            if (!vks_cur_sub(&r.c, f->block_size[i], &body))
                return nif_fail(&r, VKS_ERR_TRUNCATED, "size", "block size %u exceeds the %zu bytes left",
                                f->block_size[i], vks_cur_left(&r.c)),
                       err->code;
            /* the morph blocks are the model's too (nif_morph_model.c) */
            nif_block_fn fn = mt ? mt->fn : f->want_anim || nif_morph_reader(b->type) ? anim : NULL;
            if (fn) {
                nif_rd br = r;
                br.c = body;
                if (!fn(&br, b))
                    return err->code;
                if (!(mt && mt->prefix) && vks_cur_left(&br.c) != 0)
                    return nif_fail(&br, VKS_ERR_FORMAT, "size",
                                    "the block's fields end %zu byte(s) before its size %u says",
                                    vks_cur_left(&br.c), f->block_size[i]),
                           err->code;
            }
            vks_cur_skip(&r.c, f->block_size[i]);
            continue;
        }
        nif_block_fn fn = mt && !mt->prefix ? mt->fn : anim ? anim : nif_aux_reader(b->type);
        if (!fn)
            return nif_fail(&r, VKS_ERR_UNSUPPORTED, "type",
                            "unknown block type \"%s\" at index %u in a NIF %s file without block sizes: "
                            "its length is unknown, so the blocks after it cannot be read",
                            b->type, i, version_text(f->ver, vbuf, sizeof vbuf)),
                   err->code;
        if (!fn(&r, b))
            return err->code;
    }
    r.type = NULL;
    uint32_t nroots;
    const int32_t *roots;
    if (!nif_refs(&r, &nroots, &roots, "footer/roots"))
        return err->code;
    f->root_count = nroots;
    f->roots = roots;
    return VKS_OK;
}
