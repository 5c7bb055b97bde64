/* The generator's frames (vks_gen_frame): a character built in RenderWare's and NIF's Z-up
 * axes or in P3D's left-handed ones is the Y-up figure mapped by the frame's L, exactly
 * (positions, normals, a mirror's triangles reversed so that they face out), and its walk and
 * wave move it as they move the Y-up figure: every skin matrix at every sampled time is
 * L K L^-1 of the Y-up one, and the pelvis bobs along the new up. Before the frames, the
 * generator wrote its Y-up figure into the Z-up formats, where it lay on its back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "character_clips.h"
#include "testutil.h"
#include "vkskin/cpu.h"

/* L as a matrix (row r, column c): the frame's map of the figure's axes */
static void frame_matrix(vks_gen_frame f, double L[3][3])
{
    memset(L, 0, 9 * sizeof(double));
    if (f == VKS_GEN_FRAME_Z_UP) /* (x, y, z) -> (x, -z, y) */
        L[0][0] = 1, L[1][2] = -1, L[2][1] = 1;
    else if (f == VKS_GEN_FRAME_LEFT_Y_UP) /* (x, y, z) -> (x, y, -z) */
        L[0][0] = 1, L[1][1] = 1, L[2][2] = -1;
    else
        L[0][0] = L[1][1] = L[2][2] = 1;
}

static void map_point(double L[3][3], const float p[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = L[r][0] * p[0] + L[r][1] * p[1] + L[r][2] * p[2];
}

/* max |L K_y L^T - K_f| over the 3x4 entries */
static double conj_diff(double L[3][3], const vks_affine_d *ky, const vks_affine_d *kf)
{
    double d = 0;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            double v = 0;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    v += L[r][i] * ky->m[3 * j + i] * L[c][j];
            d = fmax(d, fabs(v - kf->m[3 * c + r]));
        }
        double t = L[r][0] * ky->m[9] + L[r][1] * ky->m[10] + L[r][2] * ky->m[11];
        d = fmax(d, fabs(t - kf->m[9 + r]));
    }
    return d;
}

static void skin_matrices(const vks_skin *s, const vks_clip *clip, double t, vks_affine_d *k)
{
    vks_clip_binding b;
    vks_error err = {0};
    vks_affine *locals = calloc(s->node_count, sizeof *locals);
    vks_affine_d *world = calloc(s->node_count, sizeof *world);
    CHECK(vks_clip_bind(clip, s, &b, &err) == VKS_OK);
    vks_clip_sample_locals_d(clip, &b, s, t, locals);
    vks_cpu_world_d(s, locals, world);
    vks_cpu_skin_matrices_d(s, world, k);
    vks_clip_binding_free(&b);
    free(locals);
    free(world);
}

/* The pelvis's skin-space position at time t of the walk. */
static void pelvis_at(const vks_skin *s, const vks_clip *walk, double t, double out[3])
{
    vks_clip_binding b;
    vks_error err = {0};
    vks_affine *locals = calloc(s->node_count, sizeof *locals);
    vks_affine_d *world = calloc(s->node_count, sizeof *world);
    CHECK(vks_clip_bind(walk, s, &b, &err) == VKS_OK);
    vks_clip_sample_locals_d(walk, &b, s, t, locals);
    vks_cpu_world_d(s, locals, world);
    int32_t root = vks_skin_find_node(s, "Character"), pelvis = vks_skin_find_node(s, "pelvis");
    vks_affine_d inv;
    CHECK(root >= 0 && pelvis >= 0 && vks_affine_d_inverse(&world[root], &inv));
    vks_affine_d skin_space = vks_affine_d_mul(&inv, &world[pelvis]);
    for (int i = 0; i < 3; i++)
        out[i] = skin_space.m[9 + i];
    vks_clip_binding_free(&b);
    free(locals);
    free(world);
}

int main(void)
{
    vks_gen_params p = {0};
    p.bones = 48;
    p.vertices = 1500;
    p.palette_limit = 20;
    vks_error err = {0};
    vks_skin *y = vks_gen_character(&p, &err);
    vks_clip_set *yc = NULL;
    CHECK(y && vks_gen_clips(y, &yc, &err) == VKS_OK);
    if (!y || !yc)
        return vks_test_finish("test_gen_frame");

    /* an unknown frame is refused */
    p.frame = VKS_GEN_FRAME_COUNT;
    CHECK(vks_gen_character(&p, &err) == NULL && err.code == VKS_ERR_INVALID);

    for (int f = VKS_GEN_FRAME_Z_UP; f < VKS_GEN_FRAME_COUNT; f++) {
        p.frame = (vks_gen_frame)f;
        vks_skin *s = vks_gen_character(&p, &err);
        vks_clip_set *sc = NULL;
        CHECK(s && vks_gen_clips(s, &sc, &err) == VKS_OK);
        if (!s || !sc)
            break;
        double L[3][3];
        frame_matrix(p.frame, L);
        const int mirror = f == VKS_GEN_FRAME_LEFT_Y_UP;
        CHECK_EQ_INT(s->vertex_count, y->vertex_count);
        CHECK_EQ_INT(s->triangle_count, y->triangle_count);
        CHECK_EQ_INT(s->bone_count, y->bone_count);
        /* the model: exactly L of the figure */
        int exact = 1;
        for (uint32_t v = 0; v < s->vertex_count; v++) {
            double q[3], n[3];
            map_point(L, y->positions[v], q);
            map_point(L, y->normals[v], n);
            for (int c = 0; c < 3; c++)
                exact &= q[c] == s->positions[v][c] && n[c] == s->normals[v][c];
        }
        CHECK(exact);
        int order = 1;
        for (uint32_t t = 0; t < s->triangle_count; t++)
            order &= s->triangles[t][0] == y->triangles[t][0] &&
                     s->triangles[t][1] == y->triangles[t][mirror ? 2 : 1] &&
                     s->triangles[t][2] == y->triangles[t][mirror ? 1 : 2];
        CHECK(order);
        /* the figure's up is the frame's: the tallest extent along it, feet at 0, head above */
        double lo[3] = {1e9, 1e9, 1e9}, hi[3] = {-1e9, -1e9, -1e9};
        for (uint32_t v = 0; v < s->vertex_count; v++)
            for (int c = 0; c < 3; c++)
                lo[c] = fmin(lo[c], s->positions[v][c]), hi[c] = fmax(hi[c], s->positions[v][c]);
        int up = f == VKS_GEN_FRAME_Z_UP ? 2 : 1;
        CHECK(hi[up] > 1.7 && lo[up] > -0.05);
        for (int c = 0; c < 3; c++)
            CHECK(c == up || hi[c] - lo[c] < hi[up] - lo[up]);

        /* the clips move it as they move the figure: the walk at any time (slerped and Hermite
           keys interpolate the same in any axes), the wave at its forearm's keys (Euler angles,
           the one kind of key that interpolates in the axes they are written in) */
        CHECK_EQ_INT(sc->clip_count, yc->clip_count);
        vks_affine_d *ky = calloc(y->bone_count, sizeof *ky), *kf = calloc(s->bone_count, sizeof *kf);
        double worst = 0;
        for (uint32_t c = 0; c < sc->clip_count; c++)
            for (int k = 0; k <= 16; k++) {
                double t = sc->clips[c].duration * k / 16.0 + (c == 0 ? 0.013 * (k % 3) : 0);
                skin_matrices(y, &yc->clips[c], t, ky);
                skin_matrices(s, &sc->clips[c], t, kf);
                for (uint32_t b = 0; b < s->bone_count; b++)
                    worst = fmax(worst, conj_diff(L, &ky[b], &kf[b]));
            }
        if (worst > 1e-5)
            fprintf(stderr, "frame %d: skin matrices off L K L^-1 by %g\n", f, worst);
        CHECK(worst < 1e-5);
        /* the pelvis bobs along the new up: 4 cm between a quarter and half the walk */
        double a[3], b[3];
        pelvis_at(s, &sc->clips[0], 0.25, a);
        pelvis_at(s, &sc->clips[0], 0.0, b);
        CHECK_NEAR(b[up] - a[up], 0.04, 1e-4);
        free(ky);
        free(kf);
        vks_clip_set_free(sc);
        vks_skin_free(s);
    }
    vks_clip_set_free(yc);
    vks_skin_free(y);
    return vks_test_finish("test_gen_frame");
}
