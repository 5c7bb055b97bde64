/* The clip time a playing instance shows (vks_clip_play_time_f, src/anim/clip_time.c): the
 * float time both the GPU's pose pass and the CPU reference sample at. The crowd row that
 * failed validate (issue 22: start 0.839, speed 0.69, frame 7 at 30 fps lands on 1.0 in float
 * but 0.99999998609 in double, either side of a STEP key), every cycle against hand-computed
 * times, and the whole-period step giving one answer whatever the division guessed (a GPU's
 * division is not correctly rounded). */
#include <math.h>

#include "anim/clip_time_internal.h"
#include "testutil.h"
#include "vkskin/pose.h"

static void test_row(void)
{
    vks_clip clip = {.name = "wave", .duration = 2};
    vks_pose_source src = {.kind = VKS_POSE_CLIP, .fps = 30};
    float T = vks_pose_source_time(&src, 7);
    CHECK(T == 7.0f / 30.0f);
    /* in double the time stays below the key at 1.0: the old reference's time */
    CHECK((double)0.839f + (double)0.69f * (double)T < 1.0);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, 0.839f, 0.69f, T) == 1.0f);
    vks_clip_play play = {&clip, NULL, 0.839f, 0.69f, VKS_CYCLE_LOOP};
    CHECK(vks_clip_play_time(&play, T) == 1.0);
}

static void test_cycles(void)
{
    vks_clip clip = {.name = "", .duration = 2};
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, 2.5f, 1, 0) == 0.5f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, -0.5f, 1, 0) == 1.5f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, 0, 1, 4.0f) == 0.0f); /* a whole period: 0 */
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, 0.25f, -1, 0.5f) == 1.75f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_CLAMP, 2.5f, 1, 0) == 2.0f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_CLAMP, -1, 1, 0) == 0.0f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_MIRROR, 2.5f, 1, 0) == 1.5f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_MIRROR, 4.5f, 1, 0) == 0.5f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_MIRROR, -0.5f, 1, 0) == 0.5f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_RESET, 2.5f, 1, 0) == 0.0f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_RESET, 1.25f, 1, 0) == 1.25f);
    /* start + speed * T in float, not fused: 0.1 + 0.2 * 1 rounds twice */
    float start = 0.1f, speed = 0.2f, one = 1.0f, sum = start + speed * one;
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_CLAMP, start, speed, one) == sum);
    /* no time to show: not finite, or a clip without a duration */
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, NAN, 1, 0) == 0.0f);
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, 1, INFINITY, 1) == 0.0f);
    CHECK(vks_clip_play_time_f(NULL, VKS_CYCLE_LOOP, 1, 1, 0) == 0.0f);
    vks_clip none = {.name = "", .duration = 0};
    CHECK(vks_clip_play_time_f(&none, VKS_CYCLE_LOOP, 1, 1, 0) == 0.0f);
    /* 2^24 periods and more from 0: the time means nothing there, and is 0 */
    CHECK(vks_clip_play_time_f(&clip, VKS_CYCLE_LOOP, 1e9f, 1, 0) == 0.0f);
}

/* Times at and around whole periods, where a division off by an ulp guesses the wrong count:
 * every guess within 2 of the correctly rounded division's (the GPU's is off by at most one,
 * and the rule's k can be one from either) gives the same time, and it follows the rule (the
 * largest k with t - period * k >= 0). */
static void test_wrap_guesses(void)
{
    const float periods[] = {2.0f, 1.5333333f, 0.1f, 3.0e-3f, 1000.0f};
    for (size_t pi = 0; pi < sizeof periods / sizeof periods[0]; pi++) {
        float d = periods[pi];
        for (int m = -5; m <= 40; m++) {
            float base = d * (float)m;
            float ts[5] = {base, nextafterf(base, -INFINITY), nextafterf(base, INFINITY), base + d * 0.5f,
                           nextafterf(nextafterf(base, -INFINITY), -INFINITY)};
            for (int ti = 0; ti < 5; ti++) {
                float t = ts[ti], k0 = floorf(t / d);
                float want = vks__clip_wrap_f(t, d, k0);
                CHECK(want >= 0.0f);
                for (int g = -2; g <= 2; g++)
                    if (vks__clip_wrap_f(t, d, k0 + (float)g) != want) {
                        fprintf(stderr, "period %g, t %.9g: guess %+d gives %.9g, not %.9g\n", d, t, g,
                                vks__clip_wrap_f(t, d, k0 + (float)g), want);
                        CHECK(0);
                    }
                /* the rule: k is the largest whole number leaving t - d * k >= 0 */
                float k = (t - want) / d, kr = roundf(k);
                float next = t - d * (kr + 1.0f);
                CHECK(next < 0.0f);
            }
        }
    }
    CHECK(vks__clip_wrap_f(1.0f, 1.0f, INFINITY) == 0.0f);
    CHECK(vks__clip_wrap_f(1.0f, 1.0f, NAN) == 0.0f);
}

int main(void)
{
    test_row();
    test_cycles();
    test_wrap_guesses();
    return vks_test_finish("test_clip_time");
}
