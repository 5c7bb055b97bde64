/* The blocks of NIF geometry morphing (nif.xml, NiAnimation): NiGeomMorpherController on a
 * shape, its NiMorphData (the morphs' vectors and, until 10.1.0.0, their weight keys) and,
 * from 10.1.0.106, the NiFloatInterpolator / NiFloatData that carry the weights. Parsed in
 * every walk (the model reader needs them, nif_morph_model.c), kept as NIF_K_ANIM blocks.
 * Version conditions inclusive ("since"/"until"); every count is checked against the bytes
 * left before anything is allocated; vectors must be finite (they move the model). */
#include <math.h>
#include <string.h>

#include "nif_kf_internal.h"

#define V(a, b, c, d) NIF_V(a, b, c, d)

static int geom_morpher(nif_rd *r, nif_block *b)
{
    nif_morpher *m = nif_kf_keep(r, b, NIF_A_MORPHER, sizeof *m);
    uint32_t v = r->f->ver;
    uint16_t flags;
    uint8_t always;
    if (!m || !nif_kf_interp_controller_fields(r, &m->ctrl))
        return 0;
    if ((v >= V(10, 0, 1, 2) && !nif_u16(r, &flags, "morpher_flags")) || !nif_i32(r, &m->data, "data") ||
        (v >= V(4, 0, 0, 2) && !nif_u8(r, &always, "always_update")))
        return 0;
    if (v < V(10, 1, 0, 106))
        return 1;
    int stored = v >= V(20, 1, 0, 3) || v <= V(20, 0, 0, 5); /* 20.0.0.5 < v < 20.1.0.3: the count alone */
    uint32_t n;
    if (!nif_count32(r, &n, v >= V(20, 1, 0, 3) ? 8 : 4, "num_interpolators"))
        return 0;
    if (!stored)
        return 1;
    m->interp_count = n;
    int32_t *interps = nif_alloc(r, n ? n : 1, sizeof *interps, "interpolators");
    float *weights = v >= V(20, 1, 0, 3) ? nif_alloc(r, n ? n : 1, sizeof *weights, "interpolator_weights") : NULL;
    if (!interps || (v >= V(20, 1, 0, 3) && !weights))
        return 0;
    for (uint32_t i = 0; i < n; i++) {
        interps[i] = NIF_NONE;
        if (v <= V(20, 0, 0, 5) && !nif_i32(r, &interps[i], "interpolators"))
            return 0;
        if (weights && (!nif_i32(r, &interps[i], "interpolator_weights/interpolator") ||
                        !nif_f32(r, &weights[i], "interpolator_weights/weight")))
            return 0;
    }
    m->interps = interps, m->interp_weights = weights;
    if (v >= V(10, 2, 0, 0) && v <= V(20, 0, 0, 5) && r->f->bsver > 9) {
        uint32_t k;
        if (!nif_count32(r, &k, 4, "num_unknown_ints") || !nif_skip(r, k, 4, "unknown_ints"))
            return 0;
    }
    return 1;
}

/* One Morph (nif.xml struct Morph) of nv vectors. */
static int morph(nif_rd *r, uint32_t nv, nif_morph *m)
{
    uint32_t v = r->f->ver;
    m->offset = vks_cur_offset(&r->c);
    m->keys.dim = 1;
    if (v >= V(10, 1, 0, 106) && !nif_string(r, &m->name, "morphs/frame_name"))
        return 0;
    if (v <= V(10, 1, 0, 0)) {
        m->keys.offset = vks_cur_offset(&r->c);
        if (!nif_count32(r, &m->keys.count, 8, "morphs/num_keys") || !nif_u32(r, &m->keys.type, "morphs/interpolation") ||
            !nif_kf_keys(r, &m->keys, "morphs/keys"))
            return 0;
    }
    float legacy;
    if (v >= V(10, 1, 0, 104) && v <= V(20, 1, 0, 2) && r->f->bsver < 10 && !nif_f32(r, &legacy, "morphs/legacy_weight"))
        return 0;
    if (!vks_cur_fits(&r->c, nv, 12))
        return nif_fail(r, VKS_ERR_TRUNCATED, "morphs/vectors", "%u vectors need %llu bytes, %zu left", nv,
                        (unsigned long long)nv * 12, vks_cur_left(&r->c));
    float(*vec)[3] = nif_alloc(r, nv ? nv : 1, sizeof *vec, "morphs/vectors");
    if (!vec)
        return 0;
    const uint8_t *at = r->c.p;
    vks_cur_f32n(&r->c, &vec[0][0], (size_t)nv * 3);
    for (uint32_t i = 0; i < nv; i++)
        if (!isfinite(vec[i][0]) || !isfinite(vec[i][1]) || !isfinite(vec[i][2])) {
            r->c.p = at + 12 * (size_t)i;
            return nif_fail(r, VKS_ERR_FORMAT, "morphs/vectors", "vector %u is not finite", i);
        }
    m->vectors = (const float (*)[3])vec;
    return 1;
}

static int morph_data(nif_rd *r, nif_block *b)
{
    nif_morphdata *d = nif_kf_keep(r, b, NIF_A_MORPHDATA, sizeof *d);
    if (!d || !nif_u32(r, &d->morph_count, "num_morphs") || !nif_u32(r, &d->vertex_count, "num_vertices") ||
        !nif_u8(r, &d->relative, "relative_targets"))
        return 0;
    /* each morph is at least its vectors: the count must fit before it buys an array */
    uint64_t least = 12 * (uint64_t)d->vertex_count + (r->f->ver <= V(10, 1, 0, 0) ? 8 : 0);
    if (least && (uint64_t)d->morph_count > vks_cur_left(&r->c) / least)
        return nif_fail(r, VKS_ERR_TRUNCATED, "num_morphs", "%u morphs of %u vertices need at least %llu bytes, %zu left",
                        d->morph_count, d->vertex_count, (unsigned long long)d->morph_count * least,
                        vks_cur_left(&r->c));
    if (!least && d->morph_count > vks_cur_left(&r->c)) /* 0 vertices, no keys: at least a byte each */
        return nif_fail(r, VKS_ERR_TRUNCATED, "num_morphs", "%u morphs, %zu bytes left", d->morph_count,
                        vks_cur_left(&r->c));
    nif_morph *m = nif_alloc(r, d->morph_count ? d->morph_count : 1, sizeof *m, "morphs");
    if (!m)
        return 0;
    memset(m, 0, (size_t)(d->morph_count ? d->morph_count : 1) * sizeof *m);
    for (uint32_t i = 0; i < d->morph_count; i++)
        if (!morph(r, d->vertex_count, &m[i]))
            return 0;
    d->morphs = m;
    return 1;
}

static int float_interp(nif_rd *r, nif_block *b)
{
    nif_finterp *fi = nif_kf_keep(r, b, NIF_A_FINTERP, sizeof *fi);
    return fi && nif_f32(r, &fi->value, "value") && nif_i32(r, &fi->data, "data");
}

static int float_data(nif_rd *r, nif_block *b)
{
    nif_keygroup *g = nif_kf_keep(r, b, NIF_A_FDATA, sizeof *g);
    return g && nif_kf_keygroup(r, 1, "keys", g);
}

nif_block_fn nif_morph_reader(const char *type)
{
    if (!strcmp(type, "NiGeomMorpherController"))
        return geom_morpher;
    if (!strcmp(type, "NiMorphData"))
        return morph_data;
    if (!strcmp(type, "NiFloatInterpolator"))
        return float_interp;
    if (!strcmp(type, "NiFloatData"))
        return float_data;
    return NULL;
}
