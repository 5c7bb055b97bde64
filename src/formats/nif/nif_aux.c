/* Auxiliary blocks that files without block sizes (before 20.2.0.5) force a reader to walk:
 * properties, textures, extra data, the controllers, interpolators and key data that are no
 * transform animation, LOD data (nif_blocks.md Part B; version conditions from nif.xml as
 * summarised there). Each reader consumes its block's exact span; what the model keeps of a
 * character's surface is recorded: NiMaterialProperty's name, diffuse colour and alpha,
 * NiTexturingProperty's base texture (its NiSourceTexture and UV set), NiSourceTexture's file.
 * Transform animation and text keys are the clip reader's (nif_kf_blocks.c),
 * which the walk asks first. */
#include "nif_internal.h"

#include <string.h>

#define V(a, b, c, d) NIF_V(a, b, c, d)

/* ---- properties ---- */

static int prop_flags16(nif_rd *r, nif_block *b)
{
    uint16_t fl;
    return nif_read_objectnet(r, NULL) && nif_u16(r, &fl, "flags");
}

static int material_prop(nif_rd *r, nif_block *b)
{
    uint16_t fl;
    uint32_t v = r->f->ver;
    b->kind = NIF_K_MATPROP;
    b->u.matprop.diffuse[0] = b->u.matprop.diffuse[1] = b->u.matprop.diffuse[2] = 1;
    if (!nif_read_objectnet(r, &b->u.matprop.name))
        return 0;
    if (v <= V(10, 0, 1, 2) && !nif_u16(r, &fl, "flags"))
        return 0;
    float c[8];
    if (r->f->bsver < 26) { /* ambient, then diffuse */
        if (!vks_cur_fits(&r->c, 6, 4))
            return nif_skip(r, 6, 4, "ambient_diffuse");
        vks_cur_f32n(&r->c, c, 6);
        memcpy(b->u.matprop.diffuse, c + 3, sizeof b->u.matprop.diffuse);
    }
    if (!vks_cur_fits(&r->c, 8, 4)) /* specular, emissive, glossiness, alpha */
        return nif_skip(r, 8, 4, "specular_emissive_gloss_alpha");
    vks_cur_f32n(&r->c, c, 8);
    b->u.matprop.alpha = c[7];
    return r->f->bsver <= 21 || nif_skip(r, 1, 4, "emissive_mult");
}

static int alpha_prop(nif_rd *r, nif_block *b)
{
    return prop_flags16(r, b) && nif_skip(r, 1, 1, "threshold");
}

static int zbuffer_prop(nif_rd *r, nif_block *b)
{
    uint32_t v = r->f->ver;
    return prop_flags16(r, b) && (v < V(4, 1, 0, 12) || v > V(20, 0, 0, 5) || nif_skip(r, 1, 4, "function"));
}

static int vertex_color_prop(nif_rd *r, nif_block *b)
{
    return prop_flags16(r, b) && (r->f->ver > V(20, 0, 0, 5) || nif_skip(r, 2, 4, "vertex_lighting_mode"));
}

static int stencil_prop(nif_rd *r, nif_block *b)
{
    uint32_t v = r->f->ver;
    uint16_t fl;
    if (!nif_read_objectnet(r, NULL))
        return 0;
    if (v <= V(10, 0, 1, 2) && !nif_u16(r, &fl, "flags"))
        return 0;
    if (v <= V(20, 0, 0, 5))
        return nif_skip(r, 1, 1, "enabled") && nif_skip(r, 7, 4, "stencil_state");
    return nif_u16(r, &fl, "flags") && nif_skip(r, 2, 4, "ref_mask");
}

/* A TexDesc; source and uv_set (may be NULL) get its NiSourceTexture ref and UV set. */
static int tex_desc(nif_rd *r, int32_t *source, uint32_t *uv_set)
{
    uint32_t v = r->f->ver;
    int has;
    int32_t src;
    if (!nif_i32(r, &src, "tex_desc/source"))
        return 0;
    if (source)
        *source = src;
    if (v <= V(20, 0, 0, 5) && !nif_skip(r, 2, 4, "tex_desc/clamp_filter"))
        return 0;
    if (v >= V(20, 1, 0, 3) && !nif_skip(r, 1, 2, "tex_desc/flags"))
        return 0;
    if (v >= V(20, 5, 0, 4) && !nif_skip(r, 1, 2, "tex_desc/max_anisotropy"))
        return 0;
    if (v <= V(20, 0, 0, 5)) {
        uint32_t set;
        if (!nif_u32(r, &set, "tex_desc/uv_set"))
            return 0;
        if (uv_set)
            *uv_set = set;
    }
    if (v <= V(10, 4, 0, 1) && !nif_skip(r, 2, 2, "tex_desc/ps2"))
        return 0;
    if (v <= V(4, 1, 0, 12) && !nif_skip(r, 1, 2, "tex_desc/unknown"))
        return 0;
    if (v >= V(10, 1, 0, 0)) {
        if (!nif_bool(r, &has, "tex_desc/has_transform"))
            return 0;
        if (has && !nif_skip(r, 1, 32, "tex_desc/transform")) /* 2f + 2f + f + u32 + 2f */
            return 0;
    }
    return 1;
}

static int texturing_prop(nif_rd *r, nif_block *b)
{
    uint32_t v = r->f->ver, count;
    uint16_t fl;
    int has;
    b->kind = NIF_K_TEXPROP;
    b->u.texprop.base_source = -1;
    if (!nif_read_objectnet(r, NULL))
        return 0;
    if ((v <= V(10, 0, 1, 2) || v >= V(20, 1, 0, 2)) && !nif_u16(r, &fl, "flags"))
        return 0;
    if (v >= V(3, 3, 0, 13) && v <= V(20, 1, 0, 1) && !nif_skip(r, 1, 4, "apply_mode"))
        return 0;
    if (!nif_u32(r, &count, "texture_count"))
        return 0;
    if (v >= V(20, 2, 0, 5))
        return nif_fail(r, VKS_ERR_UNSUPPORTED, "texture_count", "texturing property layout of this version");
    for (uint32_t slot = 0; slot < 10; slot++) {
        if (slot >= 5 && count <= slot)
            break;
        if (!nif_bool(r, &has, "texture/has"))
            return 0;
        /* slot 0 is the base texture */
        if (has && !tex_desc(r, slot == 0 ? &b->u.texprop.base_source : NULL, slot == 0 ? &b->u.texprop.uv_set : NULL))
            return 0;
        if (has && slot == 5 && !nif_skip(r, 6, 4, "bump_map/luma_matrix"))
            return 0;
    }
    if (v >= V(10, 0, 1, 0)) {
        uint32_t n;
        if (!nif_count32(r, &n, 1, "num_shader_textures"))
            return 0;
        for (uint32_t i = 0; i < n; i++) {
            if (!nif_bool(r, &has, "shader_texture/has"))
                return 0;
            if (has && (!tex_desc(r, NULL, NULL) || !nif_skip(r, 1, 4, "shader_texture/map_id")))
                return 0;
        }
    }
    return 1;
}

static int source_texture(nif_rd *r, nif_block *b)
{
    uint32_t v = r->f->ver;
    uint8_t ext, internal = 0;
    b->kind = NIF_K_SOURCETEX;
    b->u.srctex.file = "";
    if (!nif_read_objectnet(r, NULL) || !nif_u8(r, &ext, "use_external"))
        return 0;
    if (v < V(10, 1, 0, 0)) {
        if (ext == 0 && !nif_u8(r, &internal, "use_internal"))
            return 0;
        if (ext == 1 && !nif_sized_string(r, &b->u.srctex.file, "file_name"))
            return 0;
        if (ext == 0 && internal == 1 && !nif_skip(r, 1, 4, "pixel_data"))
            return 0;
    } else if (!nif_string(r, &b->u.srctex.file, "file_name") || !nif_skip(r, 1, 4, "pixel_data")) {
        return 0;
    }
    if (!b->u.srctex.file)
        b->u.srctex.file = "";
    if (!nif_skip(r, 3, 4, "format_prefs") || !nif_skip(r, 1, 1, "is_static"))
        return 0;
    if (v >= V(10, 1, 0, 103) && !nif_skip(r, 1, 1, "direct_render"))
        return 0;
    return v < V(20, 2, 0, 4) || nif_skip(r, 1, 1, "persist_render_data");
}

/* ---- extra data ---- */

static int extra_base(nif_rd *r)
{
    uint32_t v = r->f->ver;
    if (v >= V(10, 0, 1, 0) && !nif_string(r, NULL, "name"))
        return 0;
    return v > V(4, 2, 2, 0) || nif_skip(r, 1, 4, "next_extra_data");
}

static int binary_extra(nif_rd *r, nif_block *b)
{
    uint32_t n;
    return extra_base(r) && nif_count32(r, &n, 1, "binary_data") && nif_skip(r, n, 1, "binary_data");
}

static int int_extra(nif_rd *r, nif_block *b) { return extra_base(r) && nif_skip(r, 1, 4, "data"); }
static int bool_extra(nif_rd *r, nif_block *b) { return extra_base(r) && nif_skip(r, 1, 1, "data"); }
static int vector_extra(nif_rd *r, nif_block *b) { return extra_base(r) && nif_skip(r, 4, 4, "data"); }
static int bsbound_extra(nif_rd *r, nif_block *b) { return extra_base(r) && nif_skip(r, 6, 4, "center_dimensions"); }

static int ints_extra(nif_rd *r, nif_block *b)
{
    uint32_t n;
    return extra_base(r) && nif_count32(r, &n, 4, "num_data") && nif_skip(r, n, 4, "data");
}

/* ---- controllers, interpolators, key data ---- */

static int time_controller(nif_rd *r)
{
    return nif_skip(r, 1, 4, "next_controller") && nif_skip(r, 1, 2, "flags") &&
           nif_skip(r, 4, 4, "frequency_phase_start_stop") && nif_skip(r, 1, 4, "target");
}

/* NiVisController, NiAlphaController: a data ref until 10.1.0.103, an interpolator ref from
   10.1.0.104. */
static int single_interp_controller(nif_rd *r, nif_block *b)
{
    uint32_t v = r->f->ver;
    if (!time_controller(r))
        return 0;
    if (v >= V(10, 1, 0, 104) && v <= V(10, 1, 0, 108) && !nif_skip(r, 1, 1, "manager_controlled"))
        return 0;
    if (v >= V(10, 1, 0, 104) && !nif_skip(r, 1, 4, "interpolator"))
        return 0;
    return v > V(10, 1, 0, 103) || nif_skip(r, 1, 4, "data");
}

/* KeyGroup<T>: u32 n, [n] u32 interpolation, keys (time, value, tangents or TBC). */
static int key_group(nif_rd *r, size_t value_size, const char *field)
{
    uint32_t n, type;
    if (!nif_count32(r, &n, 4 + value_size, field))
        return 0;
    if (n == 0)
        return 1;
    if (!nif_u32(r, &type, field))
        return 0;
    size_t key = 4 + value_size;
    if (type == 2)
        key += 2 * value_size;
    else if (type == 3)
        key += 12;
    else if (type != 1 && type != 5)
        return nif_fail(r, VKS_ERR_FORMAT, field, "key type %u is not 1, 2, 3 or 5", type);
    return nif_skip(r, n, key, field);
}

static int float_data(nif_rd *r, nif_block *b) { return key_group(r, 4, "keys"); }
static int pos_data(nif_rd *r, nif_block *b) { return key_group(r, 12, "keys"); }
static int bool_data(nif_rd *r, nif_block *b) { return key_group(r, 1, "keys"); }

static int vis_data(nif_rd *r, nif_block *b)
{
    uint32_t n;
    return nif_count32(r, &n, 5, "num_keys") && nif_skip(r, n, 5, "keys");
}

static int float_interp(nif_rd *r, nif_block *b) { return nif_skip(r, 2, 4, "value_data"); }
static int point3_interp(nif_rd *r, nif_block *b) { return nif_skip(r, 4, 4, "value_data"); }

static int bool_interp(nif_rd *r, nif_block *b)
{
    int v;
    return nif_bool(r, &v, "value") && nif_skip(r, 1, 4, "data");
}

static int range_lod_data(nif_rd *r, nif_block *b)
{
    uint32_t n;
    return nif_skip(r, 3, 4, "lod_center") && nif_count32(r, &n, 8, "num_lod_levels") &&
           nif_skip(r, n, 8, "lod_levels");
}

static const struct {
    const char *type;
    nif_block_fn fn;
} aux[] = {
    {"NiMaterialProperty", material_prop},
    {"NiAlphaProperty", alpha_prop},
    {"NiZBufferProperty", zbuffer_prop},
    {"NiSpecularProperty", prop_flags16},
    {"NiWireframeProperty", prop_flags16},
    {"NiDitherProperty", prop_flags16},
    {"NiShadeProperty", prop_flags16},
    {"NiVertexColorProperty", vertex_color_prop},
    {"NiStencilProperty", stencil_prop},
    {"NiTexturingProperty", texturing_prop},
    {"NiSourceTexture", source_texture},
    {"NiBinaryExtraData", binary_extra},
    {"NiIntegerExtraData", int_extra},
    {"BSXFlags", int_extra},
    {"NiFloatExtraData", int_extra},
    {"NiBooleanExtraData", bool_extra},
    {"NiVectorExtraData", vector_extra},
    {"NiColorExtraData", vector_extra},
    {"NiIntegersExtraData", ints_extra},
    {"NiFloatsExtraData", ints_extra},
    {"BSBound", bsbound_extra},
    {"NiVisController", single_interp_controller},
    {"NiAlphaController", single_interp_controller},
    {"NiFloatData", float_data},
    {"NiPosData", pos_data},
    {"NiBoolData", bool_data},
    {"NiVisData", vis_data},
    {"NiFloatInterpolator", float_interp},
    {"NiPoint3Interpolator", point3_interp},
    {"NiBoolInterpolator", bool_interp},
    {"NiRangeLODData", range_lod_data},
};

nif_block_fn nif_aux_reader(const char *type)
{
    for (size_t i = 0; i < sizeof aux / sizeof aux[0]; i++)
        if (strcmp(aux[i].type, type) == 0)
            return aux[i].fn;
    return NULL;
}
