/* The animation blocks of a NIF walk (nif_kf_internal.h): what the NIF walk (nif_walk.c) asks
 * for each block before its auxiliary skip-readers, for the model reader as for the clip
 * reader. Layouts from nif.xml, version conditions inclusive ("since"/"until"). Every count
 * is checked against the bytes left before anything is allocated. For the clip reader
 * (want_anim) keys also add up against opt.clip.max_keys, controlled blocks against
 * opt.max_nodes, and values are checked as they are read (finite, times non-decreasing,
 * quaternions not zero), so an error names the key's offset; the model reader only walks
 * these blocks, and animation it does not play cannot make a model unreadable. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "nif_kf_internal.h"

#define V(a, b, c, d) NIF_V(a, b, c, d)

const void *nif_anim_get(const nif_file *f, int32_t i, nif_anim_tag tag)
{
    if (i < 0 || (uint32_t)i >= f->block_count)
        return NULL;
    const nif_block *b = &f->blocks[i];
    return b->kind == NIF_K_ANIM && b->u.anim.tag == (uint32_t)tag ? b->u.anim.data : NULL;
}

#define keep nif_kf_keep
void *nif_kf_keep(nif_rd *r, nif_block *b, nif_anim_tag tag, size_t size)
{
    void *p = nif_alloc(r, 1, size, "block");
    if (p) {
        b->kind = NIF_K_ANIM;
        b->u.anim.tag = (uint32_t)tag;
        b->u.anim.data = p;
    }
    return p;
}

/* Fails with the cursor put back at `at` (so the offset is the field's, not the one after). */
#define FAIL_AT(r, at, code, field, ...) ((r)->c.p = (at), nif_fail((r), (code), (field), __VA_ARGS__))

/* Whether values are checked and limits applied: the clip reader's walk. */
static int strict(const nif_rd *r) { return r->f->want_anim; }

static int add_keys(nif_rd *r, const uint8_t *at, uint64_t n, const char *field)
{
    r->f->key_total += n;
    if (strict(r) && r->f->key_total > r->f->opt.clip.max_keys)
        return FAIL_AT(r, at, VKS_ERR_LIMIT, field, "%llu keys in the file pass the key limit %u",
                       (unsigned long long)r->f->key_total, r->f->opt.clip.max_keys);
    return 1;
}

static int floats_at(nif_rd *r, float *v, uint32_t n, const char *field)
{
    const uint8_t *at = r->c.p;
    if (!vks_cur_f32n(&r->c, v, n))
        return nif_fail(r, VKS_ERR_TRUNCATED, field, "needs %u bytes, %zu left", 4 * n, vks_cur_left(&r->c));
    for (uint32_t i = 0; strict(r) && i < n; i++)
        if (!isfinite(v[i]))
            return FAIL_AT(r, at, VKS_ERR_FORMAT, field, "value %u is %g, not finite", i, (double)v[i]);
    return 1;
}

static int is_marker(float v) { return v == -FLT_MAX || v == FLT_MAX; }

/* w, x, y, z in the file -> x, y, z, w */
static void wxyz(const float in[4], float out[4])
{
    out[0] = in[1], out[1] = in[2], out[2] = in[3], out[3] = in[0];
}

static int zero_quat(const float q[4]) { return q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0; }

/* ---- keys ---- */

/* Keys of one group after its count and type: time, value (dim floats; quaternions w,x,y,z),
   then QUADRATIC tangents (not for quaternions) or TBC. */
static int keys(nif_rd *r, nif_keygroup *g, int quat, const char *field)
{
    uint32_t dim = g->dim, n = g->count;
    int quad = g->type == NIF_KEY_QUADRATIC && !quat, tbc = g->type == NIF_KEY_TBC;
    size_t per = 4u * (1 + dim + (quad ? 2 * dim : 0) + (tbc ? 3 : 0));
    if (!vks_cur_fits(&r->c, n, per))
        return nif_fail(r, VKS_ERR_TRUNCATED, field, "%u keys of %zu bytes do not fit in the %zu bytes left", n, per,
                        vks_cur_left(&r->c));
    float *t = nif_alloc(r, n, sizeof *t, field), *v = nif_alloc(r, (uint64_t)n * dim, sizeof *v, field);
    float *fw = quad ? nif_alloc(r, (uint64_t)n * dim, sizeof *fw, field) : NULL;
    float *bw = quad ? nif_alloc(r, (uint64_t)n * dim, sizeof *bw, field) : NULL;
    float *tb = tbc ? nif_alloc(r, (uint64_t)n * 3, sizeof *tb, field) : NULL;
    if (!t || !v || (quad && (!fw || !bw)) || (tbc && !tb))
        return 0;
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *at = r->c.p;
        float val[4];
        if (!floats_at(r, &t[k], 1, field) || !floats_at(r, val, dim, field))
            return 0;
        if (strict(r) && k && t[k] < t[k - 1])
            return FAIL_AT(r, at, VKS_ERR_FORMAT, field, "key %u at %g s comes before key %u at %g s", k,
                           (double)t[k], k - 1, (double)t[k - 1]);
        if (quat) {
            if (strict(r) && zero_quat(val))
                return FAIL_AT(r, at, VKS_ERR_FORMAT, field, "key %u: zero quaternion", k);
            wxyz(val, v + 4 * (size_t)k);
        } else {
            memcpy(v + (size_t)k * dim, val, dim * sizeof *val);
        }
        if (quad && (!floats_at(r, fw + (size_t)k * dim, dim, field) || !floats_at(r, bw + (size_t)k * dim, dim, field)))
            return 0;
        if (tbc && !floats_at(r, tb + 3 * (size_t)k, 3, field))
            return 0;
    }
    g->times = t, g->values = v, g->fwd = fw, g->bwd = bw, g->tbc = tb;
    return 1;
}

static int key_type_ok(nif_rd *r, const uint8_t *at, uint32_t type, const char *field)
{
    if (type == NIF_KEY_LINEAR || type == NIF_KEY_QUADRATIC || type == NIF_KEY_TBC || type == NIF_KEY_CONST)
        return 1;
    return FAIL_AT(r, at, VKS_ERR_FORMAT, field, "key type %u is not 1 (linear), 2 (quadratic), 3 (TBC) or 5 (constant)",
                   type);
}

int nif_kf_keys(nif_rd *r, nif_keygroup *g, const char *field)
{
    const uint8_t *at = r->c.p;
    return g->count == 0 || (key_type_ok(r, at, g->type, field) && add_keys(r, at, g->count, field) &&
                             keys(r, g, 0, field));
}

/* KeyGroup<T>: u32 count, u32 type (count > 0), keys. */
static int keygroup(nif_rd *r, uint32_t dim, const char *field, nif_keygroup *g)
{
    const uint8_t *at = r->c.p;
    memset(g, 0, sizeof *g);
    g->dim = dim;
    g->offset = vks_cur_offset(&r->c);
    if (!nif_count32(r, &g->count, 4 + 4 * (size_t)dim, field) || !add_keys(r, at, g->count, field))
        return 0;
    if (g->count == 0)
        return 1;
    const uint8_t *tat = r->c.p;
    return nif_u32(r, &g->type, field) && key_type_ok(r, tat, g->type, field) && keys(r, g, 0, field);
}

int nif_kf_keygroup(nif_rd *r, uint32_t dim, const char *field, nif_keygroup *g)
{
    return keygroup(r, dim, field, g);
}

/* NiKeyframeData / NiTransformData. */
static int kfdata(nif_rd *r, nif_block *b)
{
    nif_kfdata *d = keep(r, b, NIF_A_KFDATA, sizeof *d);
    if (!d)
        return 0;
    const uint8_t *at = r->c.p;
    uint32_t n;
    d->rot.dim = 4;
    d->rot.offset = vks_cur_offset(&r->c);
    if (!nif_u32(r, &n, "num_rotation_keys"))
        return 0;
    if (n) {
        const uint8_t *tat = r->c.p;
        if (!nif_u32(r, &d->rot_type, "rotation_type"))
            return 0;
        if (d->rot_type == NIF_KEY_XYZ) {
            float order;
            if (r->f->ver <= V(10, 1, 0, 0) && !nif_f32(r, &order, "order"))
                return 0;
            static const char *const axes[3] = {"xyz_rotations[x]", "xyz_rotations[y]", "xyz_rotations[z]"};
            for (int a = 0; a < 3; a++)
                if (!keygroup(r, 1, axes[a], &d->xyz[a]))
                    return 0;
        } else {
            if (!key_type_ok(r, tat, d->rot_type, "rotation_type") || !add_keys(r, at, n, "num_rotation_keys"))
                return 0;
            d->rot.count = n;
            d->rot.type = d->rot_type;
            if (!keys(r, &d->rot, 1, "quaternion_keys"))
                return 0;
        }
    }
    return keygroup(r, 3, "translations", &d->trans) && keygroup(r, 1, "scales", &d->scale);
}

/* ---- interpolators ---- */

/* NiQuatTransform: T, R (w,x,y,z), S, and until 10.1.0.109 three "valid" bools. */
static int quat_xform(nif_rd *r, nif_quat_xform *x)
{
    float v[8];
    const uint8_t *at = r->c.p;
    if (!vks_cur_f32n(&r->c, v, 8))
        return nif_fail(r, VKS_ERR_TRUNCATED, "transform", "needs 32 bytes, %zu left", vks_cur_left(&r->c));
    for (int i = 0; strict(r) && i < 8; i++)
        if (!isfinite(v[i]))
            return FAIL_AT(r, at, VKS_ERR_FORMAT, "transform", "component %d is %g, not finite", i, (double)v[i]);
    memcpy(x->t, v, 12);
    wxyz(v + 3, x->q);
    x->s = v[7];
    x->has_t = !is_marker(v[0]) && !is_marker(v[1]) && !is_marker(v[2]);
    x->has_q = !is_marker(v[3]) && !is_marker(v[4]) && !is_marker(v[5]) && !is_marker(v[6]);
    x->has_s = !is_marker(v[7]);
    if (strict(r) && x->has_q && zero_quat(x->q))
        return FAIL_AT(r, at + 12, VKS_ERR_FORMAT, "transform", "zero rotation quaternion");
    if (r->f->ver <= V(10, 1, 0, 109)) {
        int valid[3];
        for (int i = 0; i < 3; i++)
            if (!nif_bool(r, &valid[i], "transform/trs_valid"))
                return 0;
        x->has_t &= valid[0], x->has_q &= valid[1], x->has_s &= valid[2];
    }
    return 1;
}

static int transform_interp(nif_rd *r, nif_block *b)
{
    nif_tinterp *t = keep(r, b, NIF_A_TINTERP, sizeof *t);
    return t && quat_xform(r, &t->pose) && nif_i32(r, &t->data, "data");
}

static int bspline_interp(nif_rd *r, nif_block *b)
{
    nif_bsinterp *s = keep(r, b, NIF_A_BSINTERP, sizeof *s);
    if (!s)
        return 0;
    s->offset_in_file = vks_cur_offset(&r->c);
    s->compact = strstr(b->type, "Comp") != NULL;
    if (!nif_f32(r, &s->start, "start_time") || !nif_f32(r, &s->stop, "stop_time") ||
        !nif_i32(r, &s->spline_data, "spline_data") || !nif_i32(r, &s->basis_data, "basis_data") ||
        !quat_xform(r, &s->pose))
        return 0;
    static const char *const handles[3] = {"translation_handle", "rotation_handle", "scale_handle"};
    for (int i = 0; i < 3; i++)
        if (!nif_u32(r, &s->handle[i], handles[i]))
            return 0;
    if (!s->compact)
        return 1;
    for (int i = 0; i < 3; i++) /* offset, half range: translation, rotation, scale */
        if (!floats_at(r, &s->offset[i], 1, "compact_offset") || !floats_at(r, &s->half_range[i], 1, "compact_half_range"))
            return 0;
    return 1;
}

static int bspline_data(nif_rd *r, nif_block *b)
{
    nif_bsdata *d = keep(r, b, NIF_A_BSDATA, sizeof *d);
    if (!d)
        return 0;
    const uint8_t *at = r->c.p;
    if (!nif_count32(r, &d->float_count, 4, "num_float_control_points") ||
        !add_keys(r, at, d->float_count, "num_float_control_points"))
        return 0;
    float *fl = nif_alloc(r, d->float_count, sizeof *fl, "float_control_points");
    if (!fl || !floats_at(r, fl, d->float_count, "float_control_points"))
        return 0;
    at = r->c.p;
    if (!nif_count32(r, &d->short_count, 2, "num_compact_control_points") ||
        !add_keys(r, at, d->short_count, "num_compact_control_points"))
        return 0;
    int16_t *sh = nif_alloc(r, d->short_count, sizeof *sh, "compact_control_points");
    if (!sh)
        return 0;
    for (uint32_t i = 0; i < d->short_count; i++) {
        uint16_t u = 0;
        vks_cur_u16(&r->c, &u); /* fits: counted above */
        memcpy(&sh[i], &u, 2);
    }
    d->floats = fl, d->shorts = sh;
    return 1;
}

static int bspline_basis(nif_rd *r, nif_block *b)
{
    nif_bsbasis *d = keep(r, b, NIF_A_BSBASIS, sizeof *d);
    return d && nif_u32(r, &d->control_points, "num_control_points");
}

/* ---- controllers ---- */

static int time_fields(nif_rd *r, nif_ctrl *c)
{
    c->offset = vks_cur_offset(&r->c);
    c->data = c->interp = NIF_NONE;
    return nif_i32(r, &c->next, "next_controller") && nif_u16(r, &c->flags, "flags") &&
           nif_f32(r, &c->frequency, "frequency") && nif_f32(r, &c->phase, "phase") &&
           nif_f32(r, &c->start, "start_time") && nif_f32(r, &c->stop, "stop_time") && nif_i32(r, &c->target, "target");
}

static int time_controller(nif_rd *r, nif_block *b, nif_ctrl **out)
{
    nif_ctrl *c = keep(r, b, NIF_A_CONTROLLER, sizeof *c);
    *out = c;
    return c && time_fields(r, c);
}

/* NiInterpController's "manager controlled" (10.1.0.104 .. 10.1.0.108). */
static int manager_controlled(nif_rd *r)
{
    int managed;
    uint32_t v = r->f->ver;
    return v < V(10, 1, 0, 104) || v > V(10, 1, 0, 108) || nif_bool(r, &managed, "manager_controlled");
}

static int interp_controller(nif_rd *r, nif_block *b, nif_ctrl **out)
{
    return time_controller(r, b, out) && manager_controlled(r);
}

int nif_kf_interp_controller_fields(nif_rd *r, nif_ctrl *c)
{
    return time_fields(r, c) && manager_controlled(r);
}

/* NiKeyframeController, NiTransformController: an interpolator from 10.1.0.104, key data
   until 10.1.0.103. */
static int keyframe_controller(nif_rd *r, nif_block *b)
{
    nif_ctrl *c;
    uint32_t v = r->f->ver;
    if (!interp_controller(r, b, &c))
        return 0;
    if (v >= V(10, 1, 0, 104) && !nif_i32(r, &c->interp, "interpolator"))
        return 0;
    return v > V(10, 1, 0, 103) || nif_i32(r, &c->data, "data");
}

static int multi_target_controller(nif_rd *r, nif_block *b)
{
    nif_ctrl *c;
    uint32_t n;
    return interp_controller(r, b, &c) && nif_count16(r, &n, 4, "num_extra_targets") &&
           nif_skip(r, n, 4, "extra_targets");
}

static int controller_manager(nif_rd *r, nif_block *b)
{
    nif_ctrl *c;
    int cumulative;
    int32_t palette;
    if (!time_controller(r, b, &c) || !nif_bool(r, &cumulative, "cumulative") ||
        !nif_refs(r, &c->sequence_count, &c->sequences, "controller_sequences"))
        return 0;
    c->manager = 1;
    return nif_i32(r, &palette, "object_palette");
}

/* ---- sequences ---- */

static int offset_u32(nif_rd *r, uint32_t *v, const char *field) { return nif_u32(r, v, field); }

static int controlled_block(nif_rd *r, nif_cblock *cb)
{
    uint32_t v = r->f->ver, unused;
    int32_t ref;
    uint16_t index;
    uint8_t priority;
    cb->offset = vks_cur_offset(&r->c);
    cb->interp = cb->controller = cb->palette = NIF_NONE;
    cb->node_offset = cb->property_offset = cb->controller_offset = UINT32_MAX;
    if (v <= V(10, 1, 0, 103) && !nif_sized_string(r, &cb->node_name, "controlled_block/target_name"))
        return 0;
    if (v >= V(10, 1, 0, 106) && !nif_i32(r, &cb->interp, "controlled_block/interpolator"))
        return 0;
    if (v <= V(20, 5, 0, 0) && !nif_i32(r, &cb->controller, "controlled_block/controller"))
        return 0;
    if (v >= V(10, 1, 0, 104) && v <= V(10, 1, 0, 110) &&
        (!nif_i32(r, &ref, "controlled_block/blend_interpolator") || !nif_u16(r, &index, "controlled_block/blend_index")))
        return 0;
    if (v >= V(10, 1, 0, 106) && r->f->bsver > 0 && !nif_u8(r, &priority, "controlled_block/priority"))
        return 0;
    if ((v >= V(10, 1, 0, 104) && v <= V(10, 1, 0, 113)) || v >= V(20, 1, 0, 1))
        return nif_string(r, &cb->node_name, "controlled_block/node_name") &&
               nif_string(r, &cb->property_type, "controlled_block/property_type") &&
               nif_string(r, &cb->controller_type, "controlled_block/controller_type") &&
               nif_string(r, NULL, "controlled_block/controller_id") &&
               nif_string(r, NULL, "controlled_block/interpolator_id");
    if (v >= V(10, 2, 0, 0) && v <= V(20, 1, 0, 0))
        return nif_i32(r, &cb->palette, "controlled_block/string_palette") &&
               offset_u32(r, &cb->node_offset, "controlled_block/node_name_offset") &&
               offset_u32(r, &cb->property_offset, "controlled_block/property_type_offset") &&
               offset_u32(r, &cb->controller_offset, "controlled_block/controller_type_offset") &&
               offset_u32(r, &unused, "controlled_block/controller_id_offset") &&
               offset_u32(r, &unused, "controlled_block/interpolator_id_offset");
    return 1;
}

static int controller_sequence(nif_rd *r, nif_block *b)
{
    nif_sequence *s = keep(r, b, NIF_A_SEQUENCE, sizeof *s);
    if (!s)
        return 0;
    uint32_t v = r->f->ver, bs = r->f->bsver, n, grow;
    s->offset = vks_cur_offset(&r->c);
    s->text_keys = s->palette = NIF_NONE;
    s->frequency = 1;
    if (!nif_string(r, &s->name, "name"))
        return 0;
    if (v <= V(10, 1, 0, 103) &&
        (!nif_string(r, &s->accum_root, "accum_root_name") || !nif_i32(r, &s->text_keys, "text_keys")))
        return 0;
    const uint8_t *at = r->c.p;
    if (!nif_count32(r, &n, 8, "num_controlled_blocks"))
        return 0;
    if (strict(r) && n > r->f->opt.max_nodes)
        return FAIL_AT(r, at, VKS_ERR_LIMIT, "num_controlled_blocks", "%u controlled blocks pass the node limit %u", n,
                       r->f->opt.max_nodes);
    if (v >= V(10, 1, 0, 106) && !nif_u32(r, &grow, "array_grow_by"))
        return 0;
    nif_cblock *blocks = nif_alloc(r, n, sizeof *blocks, "controlled_blocks");
    if (!blocks)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (!controlled_block(r, &blocks[i]))
            return 0;
    s->blocks = blocks;
    s->block_count = n;
    if (v < V(10, 1, 0, 106))
        return 1;
    float weight, phase;
    int32_t manager, notes;
    int backwards;
    s->timed = 1;
    if (!nif_f32(r, &weight, "weight") || !nif_i32(r, &s->text_keys, "text_keys") ||
        !nif_u32(r, &s->cycle, "cycle_type") || !nif_f32(r, &s->frequency, "frequency"))
        return 0;
    if (v <= V(10, 4, 0, 1) && !nif_f32(r, &phase, "phase"))
        return 0;
    if (!nif_f32(r, &s->start, "start_time") || !nif_f32(r, &s->stop, "stop_time"))
        return 0;
    if (v == V(10, 1, 0, 106) && !nif_bool(r, &backwards, "play_backwards"))
        return 0;
    if (!nif_i32(r, &manager, "manager") || !nif_string(r, &s->accum_root, "accum_root_name"))
        return 0;
    if (v >= V(20, 3, 0, 8) && !nif_u32(r, &grow, "accum_flags"))
        return 0;
    if (v >= V(10, 1, 0, 113) && v <= V(20, 1, 0, 0) && !nif_i32(r, &s->palette, "string_palette"))
        return 0;
    if (v >= V(20, 2, 0, 7) && bs >= 24 && bs <= 28 && !nif_i32(r, &notes, "anim_notes"))
        return 0;
    if (v >= V(20, 2, 0, 7) && bs > 28) {
        uint32_t nn;
        if (!nif_count16(r, &nn, 4, "num_anim_note_arrays") || !nif_skip(r, nn, 4, "anim_note_arrays"))
            return 0;
    }
    return 1;
}

static int string_palette(nif_rd *r, nif_block *b)
{
    nif_palette *p = keep(r, b, NIF_A_PALETTE, sizeof *p);
    uint32_t n, again;
    if (!p)
        return 0;
    p->offset = vks_cur_offset(&r->c);
    if (!nif_count32(r, &n, 1, "palette"))
        return 0;
    char *s = nif_alloc(r, (uint64_t)n + 1, 1, "palette");
    if (!s)
        return 0;
    vks_cur_bytes(&r->c, s, n); /* fits: counted */
    s[n] = 0;
    p->bytes = s;
    p->len = n;
    return nif_u32(r, &again, "length");
}

/* ---- extra data, the Morrowind helper, the object palette ---- */

/* NiExtraData: a name from 10.0.1.0, the next link until 4.2.2.0, a byte count 4.0.0.0 .. 4.2.2.0. */
static int extra_data(nif_rd *r, int32_t *next)
{
    uint32_t v = r->f->ver, bytes;
    *next = NIF_NONE;
    if (v >= V(10, 0, 1, 0) && !nif_string(r, NULL, "name"))
        return 0;
    if (v <= V(4, 2, 2, 0) && (!nif_i32(r, next, "next_extra_data") || !nif_u32(r, &bytes, "num_bytes")))
        return 0;
    return 1;
}

static int text_keys(nif_rd *r, nif_block *b)
{
    nif_textkeys *t = keep(r, b, NIF_A_TEXTKEYS, sizeof *t);
    if (!t || !extra_data(r, &t->next))
        return 0;
    const uint8_t *at = r->c.p;
    if (!nif_count32(r, &t->count, 8, "num_text_keys") || !add_keys(r, at, t->count, "num_text_keys"))
        return 0;
    float *times = nif_alloc(r, t->count, sizeof *times, "text_keys");
    const char **texts = nif_alloc(r, t->count, sizeof *texts, "text_keys");
    if (!times || !texts)
        return 0;
    for (uint32_t k = 0; k < t->count; k++)
        if (!floats_at(r, &times[k], 1, "text_keys/time") || !nif_string(r, &texts[k], "text_keys/value"))
            return 0;
    t->times = times;
    t->texts = texts;
    return 1;
}

static int string_extra(nif_rd *r, nif_block *b)
{
    nif_strextra *s = keep(r, b, NIF_A_STRING, sizeof *s);
    return s && extra_data(r, &s->next) && nif_string(r, &s->text, "string_data");
}

static int stream_helper(nif_rd *r, nif_block *b)
{
    nif_helper *h = keep(r, b, NIF_A_HELPER, sizeof *h);
    return h && nif_read_objectnet_links(r, &h->name, &h->extra, &h->controller);
}

static int object_palette(nif_rd *r, nif_block *b)
{
    int32_t scene, obj;
    uint32_t n;
    if (!keep(r, b, NIF_A_OBJPALETTE, 1) || !nif_i32(r, &scene, "scene") || !nif_count32(r, &n, 8, "num_objs"))
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (!nif_sized_string(r, NULL, "objs/name") || !nif_i32(r, &obj, "objs/av_object"))
            return 0;
    return 1;
}

static const struct {
    const char *type;
    nif_block_fn fn;
} readers[] = {
    {"NiKeyframeData", kfdata},
    {"NiTransformData", kfdata},
    {"NiTransformInterpolator", transform_interp},
    {"BSRotAccumTransfInterpolator", transform_interp},
    {"NiBSplineTransformInterpolator", bspline_interp},
    {"NiBSplineCompTransformInterpolator", bspline_interp},
    {"NiBSplineData", bspline_data},
    {"NiBSplineBasisData", bspline_basis},
    {"NiKeyframeController", keyframe_controller},
    {"NiTransformController", keyframe_controller},
    {"NiMultiTargetTransformController", multi_target_controller},
    {"NiControllerManager", controller_manager},
    {"NiControllerSequence", controller_sequence},
    {"NiStringPalette", string_palette},
    {"NiTextKeyExtraData", text_keys},
    {"NiStringExtraData", string_extra},
    {"NiSequenceStreamHelper", stream_helper},
    {"NiDefaultAVObjectPalette", object_palette},
};

nif_block_fn nif_kf_reader(const char *type)
{
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (strcmp(readers[i].type, type) == 0)
            return readers[i].fn;
    return NULL;
}
