/* The generator's clips: both bind every track to a generated character, loop without a jump,
 * move what they say (the knees bend by the planned angle, the pelvis bobs 2 cm), and come back
 * through pose JSON frames within float precision. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "character_clips.h"
#include "testutil.h"

static double max_diff(const vks_affine *a, const vks_affine *b, uint32_t n)
{
    double m = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 12; k++)
            m = fmax(m, fabs((double)a[i].m[k] - b[i].m[k]));
    return m;
}

/* The angle between two rotations' columns (the bone's x axis before and after). */
static double turn_angle(const vks_affine *a, const vks_affine *b)
{
    double dot = 0, la = 0, lb = 0;
    for (int i = 0; i < 3; i++)
        dot += (double)a->m[i] * b->m[i], la += (double)a->m[i] * a->m[i], lb += (double)b->m[i] * b->m[i];
    return acos(fmin(1, dot / sqrt(la * lb)));
}

int main(void)
{
    vks_gen_params p = {0};
    p.bones = 32;
    vks_error err = {0};
    vks_skin *skin = vks_gen_character(&p, &err);
    CHECK(skin != NULL);
    if (!skin)
        return vks_test_finish("test_gen_clips");
    vks_clip_set *set = NULL;
    CHECK(vks_gen_clips(skin, &set, &err) == VKS_OK);
    if (!set)
        return vks_test_finish("test_gen_clips");
    CHECK_EQ_INT(set->clip_count, 2);
    CHECK(strcmp(set->clips[0].name, "walk") == 0 && strcmp(set->clips[1].name, "wave") == 0);
    uint32_t nn = skin->node_count;
    vks_affine *a = calloc(nn, sizeof *a), *b = calloc(nn, sizeof *b), *bind = calloc(nn, sizeof *bind);
    vks_pose_bind(skin, bind);
    int kinds[4] = {0};
    for (uint32_t c = 0; c < set->clip_count; c++) {
        const vks_clip *clip = &set->clips[c];
        vks_clip_binding bd;
        CHECK(vks_clip_bind(clip, skin, &bd, &err) == VKS_OK);
        CHECK_EQ_INT(bd.bound_tracks, clip->track_count);
        CHECK_EQ_INT(bd.unmatched_tracks, 0);
        for (uint32_t t = 0; t < clip->track_count; t++) {
            const vks_track *tr = &clip->tracks[t];
            const vks_curve *cs[3] = {&tr->rotation, &tr->translation, &tr->euler[0]};
            for (int k = 0; k < 3; k++)
                if (cs[k]->key_count)
                    kinds[cs[k]->interp] = 1;
        }
        /* loops: the end equals the start */
        vks_clip_sample_locals_d(clip, &bd, skin, 0, a);
        vks_clip_sample_locals_d(clip, &bd, skin, clip->duration, b);
        CHECK(max_diff(a, b, nn) < 1e-5);
        /* and moves */
        vks_clip_sample_locals_d(clip, &bd, skin, clip->duration * 0.3, b);
        CHECK(max_diff(a, b, nn) > 0.05);

        /* pose JSON frames at 30 fps read back as a clip: the same locals at every frame */
        char *json = NULL;
        size_t size = 0;
        CHECK(vks_gen_pose_json(clip, skin, 30, &json, &size, &err) == VKS_OK);
        vks_clip_set *back = NULL;
        CHECK(json && vks_pose_json_clip_read(skin, NULL, json, size, &back, &err) == VKS_OK);
        if (back) {
            vks_clip_binding bb;
            CHECK(vks_clip_bind(&back->clips[0], skin, &bb, &err) == VKS_OK);
            CHECK_NEAR(back->clips[0].duration, clip->duration, 1e-6);
            for (int f = 0; f <= 30 * (int)clip->duration; f += 7) {
                vks_clip_sample_locals_d(clip, &bd, skin, f / 30.0, a);
                vks_clip_sample_locals_d(&back->clips[0], &bb, skin, f / 30.0, b);
                CHECK(max_diff(a, b, nn) < 2e-5);
            }
            vks_clip_binding_free(&bb);
            vks_clip_set_free(back);
        }
        free(json);
        vks_clip_binding_free(&bd);
    }
    CHECK(kinds[VKS_INTERP_STEP] && kinds[VKS_INTERP_LINEAR] && kinds[VKS_INTERP_HERMITE] && kinds[VKS_INTERP_BSPLINE]);

    /* the walk's left knee at phase 0: 0.35 + 0.35 sin(pi/2) = 0.7 rad from its bind rotation */
    vks_clip_binding bd;
    CHECK(vks_clip_bind(&set->clips[0], skin, &bd, &err) == VKS_OK);
    vks_clip_sample_locals_d(&set->clips[0], &bd, skin, 0, a);
    int32_t calf = vks_skin_find_node(skin, "calf_l"), pelvis = vks_skin_find_node(skin, "pelvis");
    CHECK(calf >= 0 && pelvis >= 0);
    if (calf >= 0)
        CHECK_NEAR(turn_angle(&a[calf], &bind[calf]), 0.7, 1e-5);
    if (pelvis >= 0)
        CHECK_NEAR(a[pelvis].m[10] - bind[pelvis].m[10], 0.02, 1e-6);
    vks_clip_binding_free(&bd);
    free(a), free(b), free(bind);
    vks_clip_set_free(set);
    vks_skin_free(skin);
    return vks_test_finish("test_gen_clips");
}
