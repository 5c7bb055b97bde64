/* glTF animations as clips: one LOCAL clip per animation, one track per target node (named as
 * the model reader names nodes, so a file's clips bind to its own skin), translation /
 * rotation / scale channels with their sampler's interpolation:
 *   LINEAR      -> VKS_INTERP_LINEAR (rotations slerp, as the specification asks)
 *   STEP        -> VKS_INTERP_STEP
 *   CUBICSPLINE -> VKS_INTERP_HERMITE: outputs are (in-tangent, value, out-tangent) per key,
 *                  and the specification's p(t) = (2s^3 - 3s^2 + 1) v_k + td (s^3 - 2s^2 + s) b_k
 *                  + (-2s^3 + 3s^2) v_k+1 + td (s^3 - s^2) a_k+1 (td the key interval) is the
 *                  clip model's Hermite with tangents in value per second: b_k is key k's out
 *                  tangent and a_k+1 key k+1's in tangent, copied unscaled.
 * Rotation and weights outputs may be normalized integers, as the specification allows (byte and
 * short, signed or not; decoded by its formulas): gltfpack stores weights keys as bytes.
 * LINEAR and STEP rotation keys are normalised at load: the specification stores unit
 * quaternions, and a key off unit length (integer rounding, sloppy exporters) would make slerp
 * turn unevenly; CUBICSPLINE keys stay as stored, since their tangents refer to them (the
 * sampler normalises the result). `weights` channels become the clip's morph tracks (clip.h,
 * vks_morph_track: one per node, every target's weight a component; keys x targets values).
 * Duration: the largest input time of the animation (an animation whose keys all sit at 0
 * lasts opt->clip.duration). Names: the animation's name, or its index ("0") when unnamed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "gltf_internal.h"

typedef struct sampler_info {
    int decoded;
    vks_interp interp;
    int cubic;
    uint32_t keys;
    float *times;
    float *values; /* as decoded: keys (x3 for CUBICSPLINE) elements */
    uint32_t comps;
    uint32_t per_key; /* weights: values per key (the morph target count); else comps */
} sampler_info;

static vks_result read_sampler(gltf_doc *d, const cJSON **samplers, uint32_t a, uint32_t s, const char *target_path,
                               uint32_t comps, int normalized_ints, sampler_info *out, float *max_time, uint32_t *keys_total)
{
    char path[64];
    snprintf(path, sizeof path, "animations[%u].samplers[%u]", a, s);
    const cJSON *o = samplers[s];
    if (!cJSON_IsObject(o))
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "must be an object");
    const cJSON *ip = cJSON_GetObjectItemCaseSensitive(o, "interpolation");
    const char *interp = ip ? (cJSON_IsString(ip) ? ip->valuestring : "") : "LINEAR";
    vks_interp kind;
    int cubic = 0;
    if (!strcmp(interp, "LINEAR"))
        kind = VKS_INTERP_LINEAR;
    else if (!strcmp(interp, "STEP"))
        kind = VKS_INTERP_STEP;
    else if (!strcmp(interp, "CUBICSPLINE"))
        kind = VKS_INTERP_HERMITE, cubic = 1;
    else
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "interpolation \"%.20s\" is not LINEAR, STEP or CUBICSPLINE", interp);
    uint32_t accessors = d->accessor_count;
    int32_t in = -1, outp = -1;
    vks_result r = vks__gltfr_get_index(d, o, path, "input", 1, accessors, "accessors", &in);
    if (r == VKS_OK)
        r = vks__gltfr_get_index(d, o, path, "output", 1, accessors, "accessors", &outp);
    if (r != VKS_OK)
        return r;
    char ipath[80], opath[80];
    snprintf(ipath, sizeof ipath, "%s.input", path);
    snprintf(opath, sizeof opath, "%s.output", path);
    gltf_accessor_want wi = {"SCALAR", GLTF_BIT(GLTF_FLOAT), -1, 0, 0};
    gltf_values ii, oi;
    float *times = NULL, *values = NULL;
    if ((r = vks__gltfr_accessor_floats(d, in, ipath, &wi, &ii, &times)) != VKS_OK)
        return r;
    if (ii.count > d->opt.clip.max_keys - *keys_total)
        return vks__gltfr_fail(d, VKS_ERR_LIMIT, ipath, "%u keys pass the limit of %u in a file", ii.count,
                         d->opt.clip.max_keys);
    *keys_total += ii.count;
    for (uint32_t k = 0; k < ii.count; k++) {
        if (times[k] < 0 || (k && !(times[k] > times[k - 1])))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, ipath, "time %u is %g: times must be >= 0 and strictly increasing", k,
                             times[k]);
        if (times[k] > *max_time)
            *max_time = times[k];
    }
    uint32_t types = GLTF_BIT(GLTF_FLOAT);
    if (normalized_ints)
        types |= GLTF_BIT(GLTF_BYTE) | GLTF_BIT(GLTF_UNSIGNED_BYTE) | GLTF_BIT(GLTF_SHORT) | GLTF_BIT(GLTF_UNSIGNED_SHORT);
    gltf_accessor_want wo = {comps == 4 ? "VEC4" : comps == 3 ? "VEC3" : "SCALAR", types, 1, 0, 0};
    if ((r = vks__gltfr_accessor_floats(d, outp, opath, &wo, &oi, &values)) != VKS_OK)
        return r;
    uint64_t want = (uint64_t)ii.count * (cubic ? 3 : 1);
    if (comps == 1) { /* weights: count = keys x targets; only the multiple is checked */
        if (oi.count % want)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, opath, "%u values are not a multiple of %llu keys (%s)", oi.count,
                             (unsigned long long)want, target_path);
    } else if (oi.count != want) {
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, opath, "accessor %d has %u elements, %s needs %llu for %u %s keys", outp,
                         oi.count, target_path, (unsigned long long)want, ii.count, interp);
    }
    out->decoded = 1;
    out->interp = kind;
    out->cubic = cubic;
    out->keys = ii.count;
    out->times = times;
    out->values = values;
    out->comps = comps;
    out->per_key = comps == 1 && want ? (uint32_t)(oi.count / want) : comps;
    return VKS_OK;
}

/* The curve of a sampler, its arrays copied into the set (weights: per_key components). */
static vks_result make_curve(gltf_doc *d, vks_clip_set *set, const sampler_info *si, vks_curve *c, const char *path)
{
    uint32_t n = si->keys, m = si->per_key;
    float *t = vks_clip_set_alloc(set, n, sizeof *t), *v = vks_clip_set_alloc(set, (size_t)n * m, sizeof *v);
    if (!t || !v)
        return vks__gltfr_nomem(d, path);
    memcpy(t, si->times, n * sizeof *t);
    c->key_count = n;
    c->components = m;
    c->interp = si->interp;
    c->times = t;
    c->values = v;
    if (!si->cubic) {
        memcpy(v, si->values, (size_t)n * m * sizeof *v);
        if (si->comps == 4) /* rotations: unit keys, so that slerp turns at a steady rate between them */
            for (uint32_t k = 0; k < n; k++) {
                float *q = v + 4 * k;
                double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
                for (int i = 0; len > 0 && i < 4; i++)
                    q[i] = (float)(q[i] / len);
            }
        return VKS_OK;
    }
    float *a = vks_clip_set_alloc(set, (size_t)n * m, sizeof *a), *b = vks_clip_set_alloc(set, (size_t)n * m, sizeof *b);
    if (!a || !b)
        return vks__gltfr_nomem(d, path);
    for (uint32_t k = 0; k < n; k++) /* per key: in-tangent, value, out-tangent */
        for (uint32_t i = 0; i < m; i++) {
            a[k * m + i] = si->values[(3 * k + 0) * m + i];
            v[k * m + i] = si->values[(3 * k + 1) * m + i];
            b[k * m + i] = si->values[(3 * k + 2) * m + i];
        }
    c->in_tangents = a;
    c->out_tangents = b;
    return VKS_OK;
}

/* A `weights` channel of node `node` as the clip's next morph track. */
static vks_result morph_track(gltf_doc *d, vks_clip_set *set, vks_clip *clip, uint32_t node, const sampler_info *si,
                              const char *cp)
{
    for (uint32_t t = 0; t < clip->morph_track_count; t++)
        if (!strcmp(clip->morph_tracks[t].node_name, d->names[node]))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, cp, "node %u's weights are already the target of another channel",
                                   node);
    vks_morph_track *mt = &clip->morph_tracks[clip->morph_track_count];
    mt->node_name = vks_clip_set_strndup(set, d->names[node], strlen(d->names[node]));
    if (!mt->node_name)
        return vks__gltfr_nomem(d, cp);
    if (si->per_key == 0)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, cp, "a weights channel without values");
    clip->morph_track_count++;
    return make_curve(d, set, si, &mt->weights, cp);
}

static vks_result read_animation(gltf_doc *d, vks_clip_set *set, uint32_t a, const cJSON *anim, vks_clip *clip,
                                 int32_t *track_of, uint32_t *weights_channels, uint32_t *keys_total)
{
    char path[48];
    snprintf(path, sizeof path, "animations[%u]", a);
    const cJSON *channels = cJSON_GetObjectItemCaseSensitive(anim, "channels");
    const cJSON *samplers = cJSON_GetObjectItemCaseSensitive(anim, "samplers");
    int nc = cJSON_IsArray(channels) ? cJSON_GetArraySize(channels) : 0;
    int ns = cJSON_IsArray(samplers) ? cJSON_GetArraySize(samplers) : 0;
    if (nc < 1 || ns < 1)
        return vks__gltfr_fail(d, VKS_ERR_FORMAT, path, "channels and samplers must be non-empty arrays");
    sampler_info *si = vks__gltfr_alloc(d, (size_t)ns, sizeof *si);
    const cJSON **sampler_at = vks__gltfr_alloc(d, (size_t)ns, sizeof *sampler_at);
    vks_track *tracks = vks_clip_set_alloc(set, (size_t)nc, sizeof *tracks);
    clip->morph_tracks = vks_clip_set_alloc(set, (size_t)nc, sizeof *clip->morph_tracks);
    if (!si || !sampler_at || !tracks || !clip->morph_tracks)
        return vks__gltfr_nomem(d, path);
    int k = 0;
    for (const cJSON *e = samplers->child; e; e = e->next)
        sampler_at[k++] = e;
    for (uint32_t n = 0; n < d->node_count; n++)
        track_of[n] = -1;
    uint32_t count = 0;
    float max_time = 0;
    uint32_t c = 0;
    for (const cJSON *ch = channels->child; ch; ch = ch->next, c++) {
        char cp[80], tp[96];
        snprintf(cp, sizeof cp, "%s.channels[%u]", path, c);
        snprintf(tp, sizeof tp, "%s.target", cp);
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
        if (!cJSON_IsObject(ch) || !cJSON_IsObject(target))
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, cp, "must be an object with a target object");
        int32_t s = -1, node = -1;
        vks_result r = vks__gltfr_get_index(d, ch, cp, "sampler", 1, (uint32_t)ns, "samplers in the animation", &s);
        if (r == VKS_OK)
            r = vks__gltfr_get_index(d, target, tp, "node", 0, d->node_count, "nodes", &node);
        if (r != VKS_OK)
            return r;
        const cJSON *pj = cJSON_GetObjectItemCaseSensitive(target, "path");
        const char *p = cJSON_IsString(pj) ? pj->valuestring : "";
        uint32_t comps = !strcmp(p, "rotation") ? 4 : !strcmp(p, "translation") || !strcmp(p, "scale") ? 3
                         : !strcmp(p, "weights")                                                         ? 1
                                                                                                         : 0;
        if (!comps)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, tp, "path \"%.20s\" is not translation, rotation, scale or weights", p);
        if (node < 0) /* a target without a node belongs to an extension: nothing to play */
            continue;
        char what[160];
        snprintf(what, sizeof what, "%s (%s of node %d)", tp, p, node);
        if (!si[s].decoded &&
            (r = read_sampler(d, sampler_at, a, (uint32_t)s, what, comps, comps == 4 || comps == 1, &si[s], &max_time, keys_total)) !=
                VKS_OK)
            return r;
        if (si[s].comps != comps)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, cp, "sampler %d also drives a channel of another kind", s);
        if (comps == 1) {
            (*weights_channels)++;
            if ((r = morph_track(d, set, clip, (uint32_t)node, &si[s], cp)) != VKS_OK)
                return r;
            continue;
        }
        if (track_of[node] < 0) {
            track_of[node] = (int32_t)count;
            tracks[count].node_name = vks_clip_set_strndup(set, d->names[node], strlen(d->names[node]));
            if (!tracks[count].node_name)
                return vks__gltfr_nomem(d, cp);
            count++;
        }
        vks_track *t = &tracks[track_of[node]];
        vks_curve *cv = comps == 4 ? &t->rotation : !strcmp(p, "translation") ? &t->translation : &t->scale;
        if (cv->key_count)
            return vks__gltfr_fail(d, VKS_ERR_FORMAT, tp, "node %d's %s is already the target of another channel", node, p);
        if ((r = make_curve(d, set, &si[s], cv, cp)) != VKS_OK)
            return r;
    }
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(anim, "name");
    char index[16];
    snprintf(index, sizeof index, "%u", a);
    const char *name = cJSON_IsString(nm) && nm->valuestring[0] ? nm->valuestring : index;
    clip->name = vks_clip_set_strndup(set, name, strlen(name));
    if (!clip->name)
        return vks__gltfr_nomem(d, path);
    clip->duration = max_time > 0 ? max_time : d->opt.clip.duration;
    clip->cycle = VKS_CYCLE_LOOP;
    clip->space = VKS_CLIP_LOCAL;
    clip->tracks = tracks;
    clip->track_count = count;
    clip->root_track = -1;
    return VKS_OK;
}

vks_result vks_gltf_clip_read(const vks_read_options *opt, const void *bytes, size_t size, vks_clip_set **out,
                              vks_error *err)
{
    gltf_doc d;
    vks_clip_set *set = NULL;
    vks_result r = vks__gltfr_doc_open(&d, opt, bytes, size, err);
    uint32_t count = (uint32_t)cJSON_GetArraySize(d.animations);
    uint32_t weights = 0, keys = 0;
    if (r != VKS_OK)
        goto done;
    if (count == 0) {
        r = vks__gltfr_fail(&d, VKS_ERR_FORMAT, "animations", "the file has no animations");
        goto done;
    }
    if (count > d.opt.clip.max_clips) {
        r = vks__gltfr_fail(&d, VKS_ERR_LIMIT, "animations", "%u animations pass the limit of %u", count,
                      d.opt.clip.max_clips);
        goto done;
    }
    int32_t *track_of = vks__gltfr_alloc(&d, d.node_count, sizeof *track_of);
    set = vks_clip_set_create(&d.opt.allocator);
    if (!set || !track_of) {
        r = vks__gltfr_nomem(&d, "animations");
        goto done;
    }
    set->clips = vks_clip_set_alloc(set, count, sizeof *set->clips);
    if (!set->clips) {
        r = vks__gltfr_nomem(&d, "animations");
        goto done;
    }
    set->clip_count = count;
    uint32_t a = 0;
    for (const cJSON *anim = d.animations->child; anim; anim = anim->next, a++)
        if ((r = read_animation(&d, set, a, anim, &set->clips[a], track_of, &weights, &keys)) != VKS_OK)
            goto done;
    char detail[160];
    snprintf(detail, sizeof detail, "%s%s%u morph weights channel(s)", d.detail, weights ? ", " : "", weights);
    if (!weights)
        snprintf(detail, sizeof detail, "%s", d.detail);
    set->format = "gltf";
    set->format_detail = vks_clip_set_strndup(set, detail, strlen(detail));
    if (!set->format_detail) {
        r = vks__gltfr_nomem(&d, "animations");
        goto done;
    }
    r = vks_clip_set_finish(set, err);
done:
    vks__gltfr_doc_free(&d);
    if (r != VKS_OK) {
        vks_clip_set_free(set);
        if (err && err->code == VKS_OK)
            vks_error_set(err, r, VKS_NO_OFFSET, "gltf", "read failed");
        return r;
    }
    *out = set;
    return VKS_OK;
}
