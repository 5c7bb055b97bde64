/* NIF-decoded curves on the GPU: the hand-encoded .kf with every key type (test_nif_kf_util.c:
 * LINEAR quaternions, QUADRATIC translations and quaternions, TBC scales on uneven times, XYZ
 * Euler groups of three kinds, CONST keys, a pose-only track, compact and float B-splines;
 * frequency 2 and a start of 0.5 s), bound to the nodes of a generated character, played by
 * the crowd's pose pass and checked against the CPU reference posed by the double sampler,
 * with the validation layer on. Also the same clip after a round trip through the 20.2.0.7
 * writer, so the GPU sees the writer's output too. Every cycle, per-instance start and
 * speed, times from negative to well past the clip. Exits 77 without a Vulkan device. */
#include "crowd_check.h"
#include "gpu_check.h"
#include "test_nif_kf_util.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 40, CLIPS = 2 };

int main(void)
{
    vks_gpu *gpu = gpu_check_context_opt(&(vks_gpu_options){0});
    vks_skin *skin = gpu_check_character(2000, 32, 4, 12, 1);
    if (!skin)
        return vks_test_finish("test_gpu_clip_nif");
    const char *names[KFX_TRACKS];
    for (int t = 0; t < KFX_TRACKS; t++)
        names[t] = skin->nodes[(3 + 4 * t) % skin->node_count].name;
    size_t size = 0;
    uint8_t *bytes = kfx_keys_fixture(names, &size);
    vks_clip_set *set = NULL, *again = NULL;
    vks_error err = {0};
    CHECK(vks_nif_kf_read(NULL, bytes, size, &set, &err) == VKS_OK);
    free(bytes);
    uint8_t *written = NULL;
    vks_clip_write_options wo = {0x14020007u, 1, 0}; /* compact B-splines */
    CHECK(set && vks_nif_kf_write(set, skin, &wo, &written, &size, &err) == VKS_OK);
    CHECK(written && vks_nif_kf_read(NULL, written, size, &again, &err) == VKS_OK);
    free(written);
    if (!set || !again) {
        fprintf(stderr, "%s: %s\n", err.path, err.msg);
        return vks_test_finish("test_gpu_clip_nif");
    }
    const vks_clip *clips[CLIPS] = {&set->clips[0], &again->clips[0]};
    const vks_skin *skins[1] = {skin};
    vks_gpu_models *ms = NULL;
    vks_gpu_clips *gc = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 1, &ms, &err) == VKS_OK);
    CHECK(vks_gpu_upload_clips(gpu, ms, skins, clips, CLIPS, &gc, &err) == VKS_OK);
    if (!gc) {
        fprintf(stderr, "%s\n", err.msg);
        return vks_test_finish("test_gpu_clip_nif");
    }
    vks_clip_binding bind[CLIPS];
    for (int c = 0; c < CLIPS; c++) {
        CHECK(vks_clip_bind(clips[c], skin, &bind[c], &err) == VKS_OK);
        CHECK_EQ_INT(bind[c].bound_tracks, KFX_TRACKS);
    }
    static vks_instance in[N];
    for (uint32_t i = 0; i < N; i++) {
        in[i].model = 0;
        in[i].pose = VKS_POSE_CLIP;
        in[i].clip = i % CLIPS;
        in[i].clip_start = 0.07f * (float)i;
        in[i].clip_speed = i % 5 == 4 ? -0.6f : 0.4f + 0.3f * (float)(i % 3);
        in[i].clip_cycle = (vks_cycle)((i / 4) % 4);
        in[i].root = vks_affine_identity();
    }
    vks_crowd *crowd = NULL;
    vks_crowd_desc d = {.models = ms, .instances = in, .instance_count = N, .clips = gc};
    CHECK(vks_crowd_create(gpu, &d, &crowd, &err) == VKS_OK);
    vks_affine *locals = malloc((size_t)N * skin->node_count * sizeof *locals);
    const vks_affine *lp[N];
    const float times[] = {0, 0.21f, 0.5f, 0.93f, 1.0f, 2.7f, -1.3f, 17.0f};
    for (size_t k = 0; crowd && locals && k < sizeof times / sizeof times[0]; k++) {
        for (uint32_t i = 0; i < N; i++) {
            vks_clip_play play = {clips[in[i].clip], &bind[in[i].clip], in[i].clip_start, in[i].clip_speed,
                                  (int)in[i].clip_cycle};
            vks_affine *l = locals + (size_t)i * skin->node_count;
            vks_clip_sample_locals_d(play.clip, play.binding, skin, vks_clip_play_time(&play, times[k]), l);
            lp[i] = l;
        }
        CHECK(vks_crowd_run_frame(crowd, times[k], NULL, &err) == VKS_OK);
        CHECK(crowd_check(crowd, skins, in, N, times[k], lp, "NIF clips"));
    }
    free(locals);
    for (int c = 0; c < CLIPS; c++)
        vks_clip_binding_free(&bind[c]);
    vks_crowd_destroy(crowd);
    vks_gpu_clips_free(gc);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_clip_set_free(set);
    vks_clip_set_free(again);
    vks_skin_free(skin);
    return vks_test_finish("test_gpu_clip_nif");
}
