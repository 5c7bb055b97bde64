/* The character's skeleton plan: a T-posed humanoid in metres (Y up, facing +Z, the figure's
 * left on +X), then extra bones in a fixed order up to the requested count. Each bone gets an
 * ideal frame (x along the bone, a seed-dependent roll so bind locals are not axis-aligned),
 * from which the generator derives float bind locals and inverse binds. */
#if defined(__clang__) /* gcc in ISO C mode (-std=c11) already contracts nothing */
#pragma STDC FP_CONTRACT OFF
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "character_internal.h"

uint64_t vks__gen_next(gen_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double vks__gen_unit(gen_rng *r)
{
    return (double)(vks__gen_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

void vks__gen_sincos(double a, double *s, double *c)
{
    const double two_pi = 6.283185307179586476925286766559;
    a -= floor(a / two_pi + 0.5) * two_pi; /* now within [-pi, pi] (up to rounding) */
    double x2 = a * a, ts = a, tc = 1.0, ss = a, cc = 1.0;
    for (int n = 1; n <= 14; n++) { /* pi^29/29! < 1e-16 */
        ts *= -x2 / (double)((2 * n) * (2 * n + 1));
        tc *= -x2 / (double)((2 * n - 1) * (2 * n));
        ss += ts;
        cc += tc;
    }
    *s = ss;
    *c = cc;
}

static void normalize3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n > 0) {
        v[0] /= n;
        v[1] /= n;
        v[2] /= n;
    }
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(out, r, sizeof r);
}

/* Appends a bone; head and tail in metres (skin space). */
static int add(gen_skeleton *sk, const char *name, int parent, double hx, double hy, double hz,
               double tx, double ty, double tz, double radius, int region, int geometry)
{
    gen_bone *b = &sk->bone[sk->count];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->parent = parent;
    b->chain_child = -1;
    b->twist = -1;
    b->geometry = geometry;
    b->region = region;
    b->head[0] = hx, b->head[1] = hy, b->head[2] = hz;
    b->tail[0] = tx, b->tail[1] = ty, b->tail[2] = tz;
    b->radius = radius;
    return sk->count++;
}

/* Adds a bone continuing `parent` from its tail to (tx, ty, tz) and links the chain. */
static int cont(gen_skeleton *sk, const char *name, int parent, double tx, double ty, double tz,
                double radius, int region)
{
    const double *h = sk->bone[parent].tail;
    int i = add(sk, name, parent, h[0], h[1], h[2], tx, ty, tz, radius, region, 1);
    sk->bone[parent].chain_child = i;
    return i;
}

void vks__gen_skeleton(const vks_gen_params *p, gen_rng *rng, gen_skeleton *sk)
{
    memset(sk, 0, sizeof *sk);
    const int want = (int)p->bones;
    const int nspine = want >= 22 ? 3 : want - 19; /* core = 19 + nspine bones */
    const char *side_name[2] = {"l", "r"};
    char nm[24];

    int pelvis = add(sk, "pelvis", -1, 0, 0.95, 0, 0, 1.08, 0.0, 0.14, GEN_TORSO, 1);
    int top = pelvis;
    for (int i = 0; i < nspine; i++) {
        snprintf(nm, sizeof nm, "spine_%02d", i + 1);
        top = cont(sk, nm, top, 0, 1.08 + 0.37 * (i + 1) / nspine, -0.01 * (i + 1), 0.13, GEN_TORSO);
    }
    int neck = cont(sk, "neck_01", top, 0, 1.55, 0.0, 0.05, GEN_TORSO);
    int head = cont(sk, "head", neck, 0, 1.80, 0.01, 0.10, GEN_HEAD);

    int upperarm[2], lowerarm[2], hand[2], thigh[2];
    for (int sd = 0; sd < 2; sd++) {
        double s = sd == 0 ? 1.0 : -1.0;
        snprintf(nm, sizeof nm, "clavicle_%s", side_name[sd]);
        int cl = add(sk, nm, top, s * 0.03, 1.42, 0.02, s * 0.17, 1.43, -0.01, 0.05, GEN_TORSO, 1);
        snprintf(nm, sizeof nm, "upperarm_%s", side_name[sd]);
        upperarm[sd] = cont(sk, nm, cl, s * 0.45, 1.42, -0.02, 0.05, GEN_ARMS);
        snprintf(nm, sizeof nm, "lowerarm_%s", side_name[sd]);
        lowerarm[sd] = cont(sk, nm, upperarm[sd], s * 0.71, 1.42, 0.0, 0.04, GEN_ARMS);
        snprintf(nm, sizeof nm, "hand_%s", side_name[sd]);
        hand[sd] = cont(sk, nm, lowerarm[sd], s * 0.81, 1.415, 0.01, 0.035, GEN_HANDS);
    }
    for (int sd = 0; sd < 2; sd++) {
        double s = sd == 0 ? 1.0 : -1.0;
        snprintf(nm, sizeof nm, "thigh_%s", side_name[sd]);
        thigh[sd] = add(sk, nm, pelvis, s * 0.10, 0.95, 0.0, s * 0.11, 0.52, 0.01, 0.08, GEN_LEGS, 1);
        snprintf(nm, sizeof nm, "calf_%s", side_name[sd]);
        int calf = cont(sk, nm, thigh[sd], s * 0.11, 0.10, -0.01, 0.06, GEN_LEGS);
        snprintf(nm, sizeof nm, "foot_%s", side_name[sd]);
        int foot = cont(sk, nm, calf, s * 0.11, 0.04, 0.11, 0.045, GEN_FEET);
        snprintf(nm, sizeof nm, "ball_%s", side_name[sd]);
        cont(sk, nm, foot, s * 0.11, 0.025, 0.18, 0.035, GEN_FEET);
    }
    (void)head;

    /* Extras in a fixed order, so a count always means the same skeleton: twist bones,
       finger joints (first joints of every finger, then second, then third), jaw, hair. */
    static const char *twist_of[3] = {"upperarm", "lowerarm", "thigh"};
    for (int k = 0; k < 3; k++)
        for (int sd = 0; sd < 2 && sk->count < want; sd++) {
            int host = k == 0 ? upperarm[sd] : k == 1 ? lowerarm[sd] : thigh[sd];
            const gen_bone *hb = &sk->bone[host];
            snprintf(nm, sizeof nm, "%s_twist_01_%s", twist_of[k], side_name[sd]);
            int t = add(sk, nm, host, (hb->head[0] + hb->tail[0]) * 0.5, (hb->head[1] + hb->tail[1]) * 0.5,
                        (hb->head[2] + hb->tail[2]) * 0.5, hb->tail[0], hb->tail[1], hb->tail[2],
                        hb->radius, hb->region, 0);
            sk->bone[host].twist = t;
        }
    static const char *finger_name[5] = {"thumb", "index", "middle", "ring", "pinky"};
    static const double finger_z[5] = {0.045, 0.03, 0.01, -0.01, -0.03};
    static const double seg_len[3] = {0.035, 0.027, 0.02};
    int last_seg[2][5];
    for (int seg = 0; seg < 3; seg++)
        for (int f = 0; f < 5; f++)
            for (int sd = 0; sd < 2 && sk->count < want; sd++) {
                double s = sd == 0 ? 1.0 : -1.0;
                double dir[3] = {s * (f == 0 ? 0.6 : 1.0), f == 0 ? -0.2 : -0.05, f == 0 ? 0.75 : 0.0};
                normalize3(dir);
                snprintf(nm, sizeof nm, "%s_%02d_%s", finger_name[f], seg + 1, side_name[sd]);
                int parent = seg == 0 ? hand[sd] : last_seg[sd][f];
                double h[3];
                if (seg == 0) {
                    const double *ht = sk->bone[hand[sd]].tail;
                    h[0] = ht[0] - s * (f == 0 ? 0.04 : 0.0);
                    h[1] = ht[1] - 0.01;
                    h[2] = ht[2] + finger_z[f];
                } else {
                    memcpy(h, sk->bone[parent].tail, sizeof h);
                }
                double len = seg_len[seg];
                int i = add(sk, nm, parent, h[0], h[1], h[2], h[0] + dir[0] * len, h[1] + dir[1] * len,
                            h[2] + dir[2] * len, 0.011 - 0.002 * seg, GEN_HANDS, 1);
                if (seg > 0)
                    sk->bone[parent].chain_child = i;
                last_seg[sd][f] = i;
            }
    if (sk->count < want)
        add(sk, "jaw", head, 0, 1.62, 0.03, 0, 1.60, 0.10, 0.03, GEN_HEAD, 1);
    int hair = head;
    for (int i = 0; sk->count < want; i++) {
        snprintf(nm, sizeof nm, "hair_%02d", i + 1);
        if (hair == head)
            hair = add(sk, nm, head, 0, 1.78, -0.08, 0, 1.70, -0.12, 0.025, GEN_HAIR, 1);
        else
            hair = cont(sk, nm, hair, 0, sk->bone[hair].tail[1] - 0.08, sk->bone[hair].tail[2] - 0.02 * (i % 2),
                        0.02, GEN_HAIR);
    }

    /* Seed-dependent variation: radii +-10 %, a roll about each bone's axis (up to +-0.3 rad). */
    for (int i = 0; i < sk->count; i++) {
        gen_bone *b = &sk->bone[i];
        b->radius *= 0.9 + 0.2 * vks__gen_unit(rng);
        double x[3] = {b->tail[0] - b->head[0], b->tail[1] - b->head[1], b->tail[2] - b->head[2]};
        normalize3(x);
        double ref[3] = {0, 1, 0};
        if (x[1] > 0.7 || x[1] < -0.7)
            ref[1] = 0, ref[2] = 1;
        double z[3], y[3];
        cross3(x, ref, z);
        normalize3(z);
        cross3(z, x, y);
        double sr, cr;
        vks__gen_sincos((vks__gen_unit(rng) - 0.5) * 0.6, &sr, &cr);
        for (int k = 0; k < 3; k++) {
            b->frame[k] = x[k];
            b->frame[3 + k] = cr * y[k] + sr * z[k];
            b->frame[6 + k] = -sr * y[k] + cr * z[k];
            b->frame[9 + k] = b->head[k];
        }
    }

    /* The root "Character" node: 0.3 rad about Y and a small offset, so skin space (the
       root's space) differs from world space and S_mesh = inverse(W(root)) matters. */
    double sy, cy;
    vks__gen_sincos(0.3, &sy, &cy);
    double root[12] = {cy, 0, -sy, 0, 1, 0, sy, 0, cy, 0.25, 0.0, -0.4};
    memcpy(sk->root_local, root, sizeof root);
}
