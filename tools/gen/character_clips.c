/* The generator's walk and wave clips (character_clips.h). Each key is the bind local turned
 * about a skin-space axis through the joint: local' = bind_local * R(axis in the bone's bind
 * frame, angle). The axes are the figure's (left, up, forward: +X, +Y, +Z as built), found in
 * skin space from the joints, so a character turned or mirrored into a format's axes
 * (vks_gen_frame) moves as the one built: each axis a becomes det(F) F a (a mirror turns the
 * other way about the mirrored axis), the pelvis bobs along F's up. */
#include "character_clips.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytebuf.h"

#define PI 3.14159265358979323846

typedef struct gen_clip_ctx {
    const vks_skin *skin;
    vks_clip_set *set;
    vks_affine_d *world; /* bind worlds */
    double figure[3][3]; /* the figure's left, up and forward axes in skin space (F's columns) */
    double det;          /* det F: -1 for a mirrored figure */
    int failed;
} gen_clip_ctx;

/* F from the joints' bind positions: up from the pelvis to the head, left from the right thigh
 * to the left, forward from the left foot to its ball, each snapped to its nearest signed axis.
 * A skin without those joints, or whose directions do not make three distinct axes, keeps the
 * axes as built (F = identity). */
static void find_figure(gen_clip_ctx *c)
{
    static const char *from_to[3][2] = {{"thigh_r", "thigh_l"}, {"pelvis", "head"}, {"foot_l", "ball_l"}};
    double F[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int used = 0, ok = 1;
    for (int a = 0; a < 3 && ok; a++) {
        int32_t n0 = vks_skin_find_node(c->skin, from_to[a][0]), n1 = vks_skin_find_node(c->skin, from_to[a][1]);
        if (n0 < 0 || n1 < 0) {
            ok = 0;
            break;
        }
        double d[3];
        int best = 0;
        for (int i = 0; i < 3; i++) {
            d[i] = c->world[n1].m[9 + i] - c->world[n0].m[9 + i];
            if (fabs(d[i]) > fabs(d[best]))
                best = i;
        }
        ok = d[best] != 0 && !(used & (1 << best));
        used |= 1 << best;
        for (int i = 0; i < 3; i++)
            F[a][i] = i == best ? (d[best] > 0 ? 1 : -1) : 0;
    }
    if (!ok)
        for (int a = 0; a < 3; a++)
            for (int i = 0; i < 3; i++)
                F[a][i] = a == i;
    memcpy(c->figure, F, sizeof F);
    c->det = F[0][0] * (F[1][1] * F[2][2] - F[1][2] * F[2][1]) - F[1][0] * (F[0][1] * F[2][2] - F[0][2] * F[2][1]) +
             F[2][0] * (F[0][1] * F[1][2] - F[0][2] * F[1][1]);
}

/* A figure axis (left, up, forward components) as the skin-space axis to turn about. */
static void skin_axis(const gen_clip_ctx *c, const double figure_axis[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = c->det * (c->figure[0][i] * figure_axis[0] + c->figure[1][i] * figure_axis[1] +
                           c->figure[2][i] * figure_axis[2]);
}

static void quat_mul(const double a[4], const double b[4], double out[4])
{
    double r[4] = {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                   a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
                   a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
                   a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
    memcpy(out, r, sizeof r);
}

/* The bind local's rotation turned by angle about a figure axis (its skin-space axis) at the joint. */
static void turned(gen_clip_ctx *c, uint32_t node, const double figure_axis[3], double angle, double q[4])
{
    const vks_affine_d *w = &c->world[node];
    double a[3], axis[3];
    skin_axis(c, figure_axis, axis);
    for (int i = 0; i < 3; i++) { /* R^T axis: the axis in the bone's bind frame */
        double col[3] = {w->m[3 * i], w->m[3 * i + 1], w->m[3 * i + 2]};
        double l = sqrt(col[0] * col[0] + col[1] * col[1] + col[2] * col[2]);
        a[i] = (col[0] * axis[0] + col[1] * axis[1] + col[2] * axis[2]) / (l > 0 ? l : 1);
    }
    double l = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), s = sin(angle / 2) / (l > 0 ? l : 1);
    double d[4] = {a[0] * s, a[1] * s, a[2] * s, cos(angle / 2)};
    float t[3], qb[4], sc[3];
    vks_affine_to_trs(&c->skin->nodes[node].bind_local, t, qb, sc);
    double b[4] = {qb[0], qb[1], qb[2], qb[3]};
    quat_mul(b, d, q);
}

static float *floats(gen_clip_ctx *c, size_t n)
{
    float *f = vks_clip_set_alloc(c->set, n ? n : 1, sizeof *f);
    if (!f)
        c->failed = 1;
    return f;
}

static float *key_times(gen_clip_ctx *c, uint32_t keys, double duration)
{
    float *t = floats(c, keys);
    for (uint32_t k = 0; t && k < keys; k++)
        t[k] = (float)(duration * k / (keys - 1));
    return t;
}

typedef double (*angle_fn)(double phase);

/* A track turning node about axis by f(phase), keys at phases k / (keys - 1). */
static vks_track *turn_track(gen_clip_ctx *c, vks_track *tr, int32_t node, const double axis[3], angle_fn f,
                             uint32_t keys, const float *times, vks_interp interp)
{
    tr->node_name = c->skin->nodes[node].name;
    float *q = floats(c, (size_t)keys * 4);
    if (!q)
        return tr;
    for (uint32_t k = 0; k < keys; k++) {
        double d[4];
        turned(c, (uint32_t)node, axis, f((double)k / (keys - 1)), d);
        double dot = 0;
        for (int i = 0; k && i < 4; i++)
            dot += d[i] * q[4 * (k - 1) + i];
        for (int i = 0; i < 4; i++) /* neighbours in one hemisphere */
            q[4 * k + i] = (float)(dot < 0 ? -d[i] : d[i]);
    }
    tr->rotation = (vks_curve){.key_count = keys, .components = 4, .interp = interp, .times = times, .values = q};
    return tr;
}

static double swing(double p) { return 0.45 * sin(2 * PI * p); }
static double swing_neg(double p) { return -swing(p); }
static double knee(double p) { return 0.35 + 0.35 * sin(2 * PI * p + PI / 2); }
static double knee_late(double p) { return 0.35 + 0.35 * sin(2 * PI * p - PI / 2); }
static double arm_swing(double p) { return 0.3 * sin(2 * PI * p); }
static double arm_swing_neg(double p) { return -arm_swing(p); }
static double spine_twist(double p) { return 0.12 * sin(2 * PI * p); }
static double raise(double p) { return 1.25 + 0.05 * sin(2 * PI * p); }
static double hand_flick(double p) { return p < 0.25 ? 0.0 : p < 0.5 ? 0.3 : p < 0.75 ? -0.2 : p < 1 ? 0.1 : 0.0; }
static double nod(double p) { return 0.25 * sin(4 * PI * p); }

static const double AX[3] = {1, 0, 0}, AY[3] = {0, 1, 0}, AZ[3] = {0, 0, 1};

/* Euler XYZ angles (R = Rz Ry Rx) of a unit quaternion. */
static void quat_euler(const double q[4], double e[3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y);
    double r10 = 2 * (x * y + z * w), r00 = 1 - 2 * (y * y + z * z);
    e[1] = asin(r20 < -1 ? 1 : r20 > 1 ? -1 : -r20);
    e[0] = atan2(r21, r22);
    e[2] = atan2(r10, r00);
}

/* The forearm's wave as three Euler angle curves with Hermite keys (tangents by central
 * differences over the loop). */
static void wave_forearm(gen_clip_ctx *c, vks_track *tr, int32_t node, uint32_t keys, const float *times,
                         double duration)
{
    tr->node_name = c->skin->nodes[node].name;
    float *v[3], *tin[3];
    for (int a = 0; a < 3; a++)
        if (!(v[a] = floats(c, keys)) || !(tin[a] = floats(c, keys)))
            return;
    for (uint32_t k = 0; k < keys; k++) {
        double q[4], e[3];
        turned(c, (uint32_t)node, AY, 0.5 * sin(4 * PI * (double)k / (keys - 1)), q);
        quat_euler(q, e);
        for (int a = 0; a < 3; a++) {
            double prev = k ? v[a][k - 1] : e[a];
            while (e[a] - prev > PI) /* unwrap: no key jumps a turn */
                e[a] -= 2 * PI;
            while (e[a] - prev < -PI)
                e[a] += 2 * PI;
            v[a][k] = (float)e[a];
        }
    }
    double dt = duration / (keys - 1);
    for (int a = 0; a < 3; a++) {
        for (uint32_t k = 0; k < keys; k++) {
            uint32_t kp = k ? k - 1 : keys - 2, kn = k + 1 < keys ? k + 1 : 1;
            tin[a][k] = (float)((v[a][kn] - v[a][kp]) / (2 * dt));
        }
        tr->euler[a] = (vks_curve){.key_count = keys, .components = 1, .interp = VKS_INTERP_HERMITE, .times = times,
                                   .values = v[a], .in_tangents = tin[a], .out_tangents = tin[a]};
    }
}

/* The pelvis bob: its bind translation plus 2 cm of height on Hermite keys. */
static void bob(gen_clip_ctx *c, vks_track *tr, int32_t node, uint32_t keys, const float *times)
{
    float *v = floats(c, (size_t)keys * 3), *tan = floats(c, (size_t)keys * 3);
    if (!v || !tan)
        return;
    const float *bt = c->skin->nodes[node].bind_local.m + 9;
    const double *up = c->figure[1]; /* the pelvis's parent is the skin-space root */
    for (uint32_t k = 0; k < keys; k++) {
        double p = (double)k / (keys - 1);
        for (int i = 0; i < 3; i++) {
            v[3 * k + i] = bt[i], tan[3 * k + i] = 0;
            if (up[i] != 0) {
                v[3 * k + i] = (float)(bt[i] + up[i] * (0.02 * cos(4 * PI * p)));
                tan[3 * k + i] = (float)(up[i] * (-0.08 * PI * sin(4 * PI * p))); /* per second: the walk lasts 1 s */
            }
        }
    }
    tr->translation = (vks_curve){.key_count = keys, .components = 3, .interp = VKS_INTERP_HERMITE, .times = times,
                                  .values = v, .in_tangents = tan, .out_tangents = tan};
}

/* The head's nod as a clamped B-spline of quaternion control points over the clip. */
static void nod_track(gen_clip_ctx *c, vks_track *tr, int32_t node, double duration)
{
    enum { POINTS = 8 };
    static float unused[1];
    turn_track(c, tr, node, AX, nod, POINTS, unused, VKS_INTERP_BSPLINE);
    tr->rotation.times = NULL;
    tr->rotation.start = 0, tr->rotation.stop = (float)duration;
}

static vks_clip *begin_clip(gen_clip_ctx *c, vks_clip *clip, const char *name, double duration, uint32_t tracks)
{
    clip->name = name;
    clip->duration = (float)duration;
    clip->cycle = VKS_CYCLE_LOOP;
    clip->root_track = -1;
    clip->tracks = vks_clip_set_alloc(c->set, tracks, sizeof *clip->tracks);
    if (!clip->tracks)
        c->failed = 1;
    return clip;
}

vks_result vks_gen_clips(const vks_skin *skin, vks_clip_set **out, vks_error *err)
{
    gen_clip_ctx c = {skin, vks_clip_set_create(NULL), NULL, {{0}}, 1, 0};
    c.world = calloc(skin->node_count ? skin->node_count : 1, sizeof *c.world);
    vks_clip *clips = c.set ? vks_clip_set_alloc(c.set, 2, sizeof *clips) : NULL;
    if (!clips || !c.world) {
        free(c.world);
        vks_clip_set_free(c.set);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clips", "out of memory");
    }
    for (uint32_t n = 0; n < skin->node_count; n++) {
        vks_affine_d l = vks_affine_d_from(&skin->nodes[n].bind_local);
        int32_t p = skin->nodes[n].parent;
        c.world[n] = p >= 0 ? vks_affine_d_mul(&c.world[p], &l) : l;
    }
    /* axes are the figure's: bind worlds in the first mesh's skin space (the root may turn it) */
    if (skin->mesh_count) {
        const vks_mesh *m = &skin->meshes[0];
        vks_affine_d space = vks_affine_d_from(&m->space_pre), inv;
        if (m->space_node >= 0 && vks_affine_d_inverse(&c.world[m->space_node], &inv))
            space = vks_affine_d_mul(&space, &inv);
        for (uint32_t n = 0; n < skin->node_count; n++)
            c.world[n] = vks_affine_d_mul(&space, &c.world[n]);
    }
    find_figure(&c);
    c.set->format = "generated";
    c.set->format_detail = "walk and wave";
    c.set->clips = clips;
    c.set->clip_count = 2;
#define NODE(name) vks_skin_find_node(skin, name)
    /* walk: 1 s, 9 keys */
    vks_clip *walk = begin_clip(&c, &clips[0], "walk", 1.0, 8);
    float *wt = key_times(&c, 9, 1.0);
    struct { const char *name; const double *axis; angle_fn f; } walk_joints[] = {
        {"thigh_l", AX, swing},        {"thigh_r", AX, swing_neg},   {"calf_l", AX, knee},
        {"calf_r", AX, knee_late},     {"upperarm_l", AX, arm_swing_neg}, {"upperarm_r", AX, arm_swing},
        {"spine_01", AY, spine_twist}};
    for (size_t j = 0; !c.failed && j < sizeof walk_joints / sizeof walk_joints[0]; j++) {
        int32_t n = NODE(walk_joints[j].name);
        if (n >= 0)
            turn_track(&c, &walk->tracks[walk->track_count++], n, walk_joints[j].axis, walk_joints[j].f, 9, wt,
                       VKS_INTERP_LINEAR);
    }
    int32_t pelvis = NODE("pelvis");
    if (!c.failed && pelvis >= 0) {
        vks_track *tr = &walk->tracks[walk->track_count++];
        tr->node_name = skin->nodes[pelvis].name;
        bob(&c, tr, pelvis, 9, wt);
    }
    /* wave: 2 s */
    vks_clip *wave = begin_clip(&c, &clips[1], "wave", 2.0, 4);
    float *vt = key_times(&c, 5, 2.0), *ft = key_times(&c, 17, 2.0), *ht = key_times(&c, 5, 2.0);
    int32_t n;
    if (!c.failed && (n = NODE("upperarm_r")) >= 0)
        turn_track(&c, &wave->tracks[wave->track_count++], n, AZ, raise, 5, vt, VKS_INTERP_LINEAR);
    if (!c.failed && (n = NODE("lowerarm_r")) >= 0)
        wave_forearm(&c, &wave->tracks[wave->track_count++], n, 17, ft, 2.0);
    if (!c.failed && (n = NODE("hand_r")) >= 0)
        turn_track(&c, &wave->tracks[wave->track_count++], n, AZ, hand_flick, 5, ht, VKS_INTERP_STEP);
    if (!c.failed && (n = NODE("head")) >= 0)
        nod_track(&c, &wave->tracks[wave->track_count++], n, 2.0);
#undef NODE
    free(c.world);
    vks_result r = c.failed ? vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clips", "out of memory")
                   : walk->track_count == 0 && wave->track_count == 0
                       ? vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "clips",
                                       "the skin has none of the generated character's joints")
                       : vks_clip_set_validate(c.set, err);
    if (r != VKS_OK) {
        vks_clip_set_free(c.set);
        return r;
    }
    *out = c.set;
    return VKS_OK;
}

vks_result vks_gen_pose_json(const vks_clip *clip, const vks_skin *skin, float fps, char **out, size_t *size,
                             vks_error *err)
{
    vks_clip_binding b;
    vks_result r = vks_clip_bind(clip, skin, &b, err);
    if (r != VKS_OK)
        return r;
    vks_affine *locals = malloc((skin->node_count ? skin->node_count : 1) * sizeof *locals);
    vks_bytebuf t = {0};
    uint32_t frames = (uint32_t)floor((double)clip->duration * fps + 0.5) + 1;
    vks_buf_printf(&t, "{\"frames\": [\n");
    for (uint32_t f = 0; locals && f < frames; f++) {
        vks_clip_sample_locals_d(clip, &b, skin, (double)clip->duration * f / (frames - 1), locals);
        vks_buf_printf(&t, "  {\"nodes\": [");
        int first = 1;
        for (uint32_t n = 0; n < skin->node_count; n++) {
            if (b.track_of_node[n] < 0)
                continue;
            const float *m = locals[n].m;
            vks_buf_printf(&t, "%s\n    {\"name\": \"%s\", \"matrix\": [", first ? "" : ",", skin->nodes[n].name);
            for (int col = 0; col < 4; col++)
                vks_buf_printf(&t, "%.9g, %.9g, %.9g, %s%s", m[3 * col], m[3 * col + 1], m[3 * col + 2],
                                   col == 3 ? "1" : "0", col == 3 ? "" : ", ");
            vks_buf_printf(&t, "]}");
            first = 0;
        }
        vks_buf_printf(&t, "]}%s\n", f + 1 < frames ? "," : "");
    }
    vks_buf_printf(&t, "]}\n");
    vks_buf_u8(&t, 0);
    free(locals);
    vks_clip_binding_free(&b);
    if (!t.data || t.failed) {
        free(t.data);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "pose json", "out of memory");
    }
    *out = (char *)t.data;
    *size = t.size - 1;
    return VKS_OK;
}
