/* What Skyrim paints a shape with (bsver 83 LE and 100 SE; nif.xml's BSLightingShaderProperty,
 * BSShaderTextureSet and BSVertexDataSSE, nif.md 4.11): the shape's Shader Property ref leads to
 * a BSLightingShaderProperty whose Texture Set ref leads to a BSShaderTextureSet, textures[0]
 * being the diffuse map; SSE packed vertices carry one half-float UV pair when VertexDesc has
 * the UV attribute. Fallout 4 and later (bsver >= 130) lay the shader property out otherwise:
 * there it is left unread, as before. */
#include "nif_internal.h"

#include <math.h>

/* Through Alpha, the last field every Skyrim shader type stores (the tail that depends on the
   shader type is left to the block size, which 20.2.0.7 always has):
   [Shader Type] NiObjectNET, Shader Flags 1 and 2, UV Offset, UV Scale, Texture Set,
   Emissive Color, Emissive Multiple, Texture Clamp Mode, Alpha. */
int nif_read_lighting_shader(nif_rd *r, nif_block *b)
{
    uint32_t bsver = r->f->bsver, shader_type;
    if (bsver < 83 || bsver >= 130)
        return 1;
    b->kind = NIF_K_BSSHADER;
    b->u.bsshader.texture_set = NIF_NONE;
    b->u.bsshader.alpha = 1.0f;
    /* NiObjectNET starts with the shader type for this one subclass (nif.xml's onlyT) */
    if (!nif_u32(r, &shader_type, "shader_type") || !nif_read_objectnet(r, &b->u.bsshader.name))
        return 0;
    if (!b->u.bsshader.name)
        b->u.bsshader.name = "";
    return nif_skip(r, 2, 4, "shader_flags") && nif_skip(r, 4, 4, "uv_offset_scale") &&
           nif_i32(r, &b->u.bsshader.texture_set, "texture_set") && nif_skip(r, 4, 4, "emissive") &&
           nif_skip(r, 1, 4, "texture_clamp_mode") && nif_f32(r, &b->u.bsshader.alpha, "alpha");
}

/* u32 Num Textures, SizedString Textures[Num Textures]: 0 diffuse, 1 normal, 2 glow/skin, ... */
int nif_read_texture_set(nif_rd *r, nif_block *b)
{
    uint32_t n;
    b->kind = NIF_K_TEXSET;
    b->u.texset.diffuse = "";
    if (!nif_count32(r, &n, 4, "num_textures"))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        const char *t = NULL;
        if (!nif_sized_string(r, i == 0 ? &t : NULL, "textures"))
            return 0;
        if (i == 0 && t)
            b->u.texset.diffuse = t;
    }
    return 1;
}

int nif_read_sse_uvs(nif_rd *r, vks_cursor at, uint64_t desc, uint32_t count, uint32_t stride, float (**uv)[2])
{
    uint32_t attr = (uint32_t)(desc >> 44) & 0xFFFu;
    *uv = NULL;
    if (!(attr & 0x2))
        return 1;
    float (*t)[2] = nif_alloc(r, count, sizeof *t, "vertex_data/uv");
    if (!t)
        return 0;
    /* after the position (Vector3) and BitangentX or the unused word: 16 bytes when there is a
       position, which nif_read_sse_vertices requires */
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *q = at.p + (size_t)i * stride + 16;
        t[i][0] = nif_half(vks_le16(q));
        t[i][1] = nif_half(vks_le16(q + 2));
        if (!isfinite(t[i][0]) || !isfinite(t[i][1])) { /* refused like a non-finite position */
            r->c = at;
            vks_cur_skip(&r->c, (size_t)i * stride + 16); /* the error's offset is the UV's */
            return nif_fail(r, VKS_ERR_FORMAT, "vertex_data/uv", "vertex %u UV (%g, %g) is not finite", i, t[i][0],
                            t[i][1]);
        }
    }
    *uv = t;
    return 1;
}
