// Layered instances in the pose pass (USE_PARAMS 2): up to four clips, each at its own time,
// blended per node by the rule written in include/vkskin/pose.h, in float, step for step as
// src/core/clip_layers.c does in double: each layer's local split into T, R, S; normal layers
// by renormalised weights (rotations: normalised weighted quaternion sum, each flipped into the
// first one's hemisphere); additive layers' deltas from their reference pose on top; the
// transition's smoothstep ramp on the weights; root motion's ground-plane translation (and with
// yaw, its turn about up: root_yaw) taken out of the motion node. A crowd without layered
// instances never compiles this (USE_PARAMS 1).

// include/vkskin/pose.h's VKS_MAX_ADDITIVE_WEIGHT and VKS_MIN_REFERENCE_SCALE, and FLT_MIN.
const float MAX_ADDITIVE_WEIGHT = 1.0;
const float MIN_REFERENCE_SCALE = 1e-6;
const float FLT_MIN_NORMAL = 1.17549435e-38;
// include/vkskin/clip.h's VKS_ROOT_YAW_MIN_TWIST: the shortest twist pair a yaw is taken from.
const float ROOT_YAW_MIN_TWIST = 0.03125;

// The same binding as Params, read with the layered stride.
layout(std430, binding = 8) readonly buffer LParams { LayeredParam lparams[]; };
// ... and where the root motion is written (a field nothing else reads or writes on the GPU).
layout(std430, binding = 8) writeonly buffer LParamsOut { LayeredParam lparams_out[]; };

// src/core/clip_layers.c's vks_clip_fade_ramp.
float fade_ramp(float start, float dur, float T)
{
    if (!(dur > 0.0) || isinf(dur))
        return T >= start ? 1.0 : 0.0;
    precise float x = (T - start) / dur;
    x = x < 0.0 ? 0.0 : x > 1.0 ? 1.0 : x;
    precise float r = x * x * (3.0 - 2.0 * x);
    return r;
}

bool in_mask(int mask_node, uint node_base, uint n)
{
    if (mask_node < 0)
        return true;
    for (int k = int(n); k >= 0; k = parents[node_base + uint(k)])
        if (k == mask_node)
            return true;
    return false;
}

// vks_affine_to_trs's rule: scales from the columns (a reflection on x), Shepperd's quaternion.
void split_trs(Aff a, out vec3 t, out vec4 q, out vec3 s)
{
    vec3 c[3];
    [[unroll]] for (int k = 0; k < 3; k++) {
        vec3 v = a.c[k];
        float len = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        s[k] = len;
        vec3 unit = vec3(k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0);
        c[k] = len > 0.0 ? v / len : unit;
    }
    if (dot(c[0], cross(c[1], c[2])) < 0.0) {
        s.x = -s.x;
        c[0] = -c[0];
    }
    float m00 = c[0].x, m11 = c[1].y, m22 = c[2].z, tr = m00 + m11 + m22, S;
    if (tr > 0.0) {
        S = sqrt(tr + 1.0) * 2.0;
        q = vec4((c[1].z - c[2].y) / S, (c[2].x - c[0].z) / S, (c[0].y - c[1].x) / S, 0.25 * S);
    } else if (m00 > m11 && m00 > m22) {
        S = sqrt(1.0 + m00 - m11 - m22) * 2.0;
        q = vec4(0.25 * S, (c[1].x + c[0].y) / S, (c[2].x + c[0].z) / S, (c[1].z - c[2].y) / S);
    } else if (m11 > m22) {
        S = sqrt(1.0 + m11 - m00 - m22) * 2.0;
        q = vec4((c[1].x + c[0].y) / S, 0.25 * S, (c[2].y + c[1].z) / S, (c[2].x - c[0].z) / S);
    } else {
        S = sqrt(1.0 + m22 - m00 - m11) * 2.0;
        q = vec4((c[2].x + c[0].z) / S, (c[2].y + c[1].z) / S, 0.25 * S, (c[0].y - c[1].x) / S);
    }
    t = a.c[3];
}

vec4 unit_q(vec4 q)
{
    float l = length(q);
    return l > 0.0 ? q / l : vec4(0, 0, 0, 1);
}

// a b (Hamilton: R(a b) = R(a) R(b))
vec4 qmul(vec4 a, vec4 b)
{
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

// Node n's T, R, S under the clip of entry ce at clip time t (src/core/clip_layers.c's
// node_trs): a local clip's sampled channels over the bind's, directly; a delta clip's local
// (src/core/clip_sample.c's node_local; a model-delta clip needs its parent's delta too)
// split. One call site of track_trs, in a loop (LLVM inlines every call site; see clip.glsl).
// head: the layer's entry, model words, space and tracks offset (LayerHead, once an instance).
// bt, bq, bs: node n's bind T, R, S (the same words for every layer of the model).
void layer_trs(uvec4 head, uint node_base, uint n, int p, float t, vec3 bt, vec4 bq, vec3 bs, out vec3 lt,
               out vec4 lq, out vec3 ls)
{
    uint ce = head.x, cm = head.y, space = head.z, tracks = head.w;
    bool local_space = space == SPACE_LOCAL;
    uint samples = space == SPACE_MODEL_DELTA && p >= 0 ? 2u : 1u;
    Aff d0 = identity_aff(), d1 = identity_aff();
    [[dont_unroll]] for (uint j = 0u; j < samples; j++) {
        uint node = j == 0u ? n : uint(p);
        uint tr = cw[ce + 2u + node], nd = cm + node * NODE_WORDS;
        vec3 tt = local_space ? bt : vec3(0.0), ss = local_space ? bs : vec3(1.0);
        vec4 q = local_space ? bq : vec4(0, 0, 0, 1);
        if (tr != 0xFFFFFFFFu)
            track_trs(tracks + tr * TRACK_WORDS, t, tt, q, ss);
        if (local_space) {
            lt = tt, lq = unit_q(q), ls = ss;
            return;
        }
        if (j == 0u)
            d0 = compose_trs(tt, q, ss);
        else
            d1 = compose_trs(tt, q, ss);
    }
    Aff m = samples == 2u ? mul(inverse_aff(d1), d0) : d0;
    Aff w = mul(m, load_aff_words(cm + n * NODE_WORDS + 10u));
    split_trs(mul(p >= 0 ? load_aff_words(cm + uint(p) * NODE_WORDS + 22u) : load_aff_words(cm - 12u), w), lt, lq, ls);
}

// What a layer's samples read of its clip entry: (entry, model words, space, tracks offset).
uvec4 layer_head(uint ce)
{
    uint cc = cw[ce];
    return uvec4(ce, cw[ce + 1u], cw[cc + 1u], cw[cc + 3u]);
}

// src/core/clip_layers.c's root_yaw (clip.h's rule): the twist of q bq^-1 about axis up, its
// angle in radians; tw the twist as a unit quaternion (identity and 0 near upside down).
float root_yaw(vec4 q, vec4 bq, int up, out vec4 tw)
{
    vec4 d = qmul(q, vec4(-bq.xyz, bq.w));
    float a = d[up], w = d.w;
    float len = sqrt(a * a + w * w);
    tw = vec4(0, 0, 0, 1);
    if (!(len >= ROOT_YAW_MIN_TWIST)) // near upside down: no yaw (clip.h)
        return 0.0;
    if (w < 0.0) {
        a = -a;
        w = -w;
    }
    tw[up] = a / len;
    tw.w = w / len;
    return 2.0 * atan(a, w);
}

// Node n of layered instance i; tl and wl: each layer's clip time and weight at this frame,
// head its layer_head, lflags its flags and lmask its mask node (read once an instance).
Aff layered_local(uint i, uint node_base, uint n, int p, float tl[4], float wl[4], uvec4 head[4], uint lflags[4],
                  int lmask[4])
{
    uint count = lparams[i].count & 7u, up = (lparams[i].count >> 8) & 3u;
    uint cm = head[0].y, nd = cm + n * NODE_WORDS;
    vec3 bt = load_n(nd, 3u).xyz, bs = load_n(nd + 7u, 3u).xyz;
    vec4 bq = load_n(nd + 3u, 4u);
    vec3 at = vec3(0.0), as = vec3(0.0), t = vec3(0.0), s = vec3(1.0), kt = vec3(0.0), ks = vec3(1.0);
    vec4 aq = vec4(0.0), ref = vec4(0.0), q = vec4(0, 0, 0, 1), kq = vec4(0, 0, 0, 1);
    float wsum = 0.0, wmax = 0.0;
    bool have_ref = false, based = false;
    // j even: layer j/2 at its time; j odd: an additive layer's reference pose (its reference
    // clip's entry at its reference time; by default its own entry at 0, the first frame)
    [[dont_unroll]] for (uint j = 0u; j < 2u * count; j++) {
        uint k = j >> 1u;
        bool additive = ((lflags[k] >> 8) & 3u) == 1u, first = (j & 1u) != 0u;
        float w = wl[k];
        if ((first && !additive) || !(w > 0.0) || !in_mask(lmask[k], node_base, n))
            continue;
        if (additive && !based) { // every normal layer is in: the base pose
            based = true;
            if (wsum > 0.0) {
                t = at / wsum, s = as / wsum, q = unit_q(aq);
            } else {
                t = bt, q = bq, s = bs;
            }
        }
        vec3 lt, ls;
        vec4 lq;
        uvec4 h = first ? layer_head(lparams[i].layers[k].ref_entry) : head[k];
        layer_trs(h, node_base, n, p, first ? lparams[i].layers[k].ref_time : tl[k], bt, bq, bs, lt, lq, ls);
        if (!additive) {
            if (!have_ref) {
                ref = lq;
                have_ref = true;
            } else if (dot(lq, ref) < 0.0)
                lq = -lq;
            if (w > wmax) { // the sums so far in units of the new largest weight (no float
                            // overflow at 3e38, no underflow at 1e-25: pose.h step 2)
                float r = wmax / w;
                at *= r, as *= r, aq *= r, wsum *= r;
                wmax = w;
            }
            float u = w / wmax;
            at += u * lt, as += u * ls, aq += u * lq;
            wsum += u;
        } else if (!first) {
            kt = lt, kq = lq, ks = ls;
        } else { // lt, lq, ls: the reference pose
            vec4 dq = qmul(kq, vec4(-lq.xyz, lq.w));
            if (dq.w < 0.0)
                dq = -dq;
            dq = unit_q(vec4(dq.xyz * w, 1.0 + w * (dq.w - 1.0)));
            q = unit_q(qmul(dq, q));
            t += w * (kt - lt);
            [[unroll]] for (int c = 0; c < 3; c++)
                if (abs(ls[c]) >= MIN_REFERENCE_SCALE) // a collapsed reference adds nothing
                    s[c] *= 1.0 + w * (ks[c] / ls[c] - 1.0);
        }
    }
    if (!based) {
        if (wsum > 0.0) {
            t = at / wsum, s = as / wsum, q = unit_q(aq);
        } else {
            t = bt, q = bq, s = bs;
        }
    }
    if (up != 0u && int(n) == lparams[i].motion_node) { // in place: the ground plane's back to the bind's
        vec3 motion = t - bt;
        if (up == 1u)
            motion.y = 0.0;
        else
            motion.z = 0.0;
        float yaw = 0.0;
        if (((lparams[i].count >> 10) & 1u) != 0u) { // ... and the turn about up taken off
            vec4 tw;
            yaw = root_yaw(q, bq, up == 1u ? 1 : 2, tw);
            q = unit_q(qmul(vec4(-tw.xyz, tw.w), q));
        }
        lparams_out[i].motion[0] = motion.x, lparams_out[i].motion[1] = motion.y, lparams_out[i].motion[2] = motion.z;
        lparams_out[i].motion[3] = yaw; // the host's NaN until a frame writes it
        t.x = bt.x;
        if (up == 1u)
            t.z = bt.z;
        else
            t.y = bt.y;
    }
    return compose_trs(t, q, s);
}
