/* Clips on the GPU (crowd.h): the clip table (src/gpu/clip_table.c builds it on the host)
 * uploaded once into a device buffer the pose pass reads; a frame adds nothing. */
#include "crowd_internal.h"

#include "gpu/clip_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct loop_check {
    const vks_gpu *gpu;
    const vks_gpu_models *ms;
    const vks_skin *const *skins;
} loop_check;

static vks_result check_loops(void *user, uint32_t m, uint32_t c, uint64_t loops, vks_error *err)
{
    const loop_check *k = user;
    const vks_skin *s = k->skins[m];
    char what[48];
    snprintf(what, sizeof what, "model %u playing clip %u", m, c);
    return vks__check_pose_loops(k->gpu, what, s->node_count, s->bone_count, s->mesh_count, k->ms->models[m].levels,
                                 loops, err);
}

vks_result vks_gpu_upload_clips(vks_gpu *gpu, const vks_gpu_models *ms, const vks_skin *const *skins,
                                const vks_clip *const *clips, uint32_t clip_count, vks_gpu_clips **out,
                                vks_error *err)
{
    *out = NULL;
    if (!gpu || !ms || ms->gpu != gpu || !skins || (clip_count && !clips))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/clips",
                             "clips need a context, models uploaded to it and their skins");
    for (uint32_t m = 0; m < ms->count; m++)
        if (!skins[m] || skins[m]->node_count != ms->models[m].node_count)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "gpu/clips",
                                 "skin %u is not the one uploaded as model %u", m, m);
    vks_gpu_clips *gc = calloc(1, sizeof *gc);
    if (!gc)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "gpu/clips", "out of memory");
    gc->gpu = gpu, gc->ms = ms, gc->clip_count = clip_count;
    loop_check k = {gpu, ms, skins};
    vks__clip_table_check check = {check_loops, &k};
    vks__clip_table t;
    vks_result res = vks__clip_table_build(skins, ms->count, clips, clip_count, &check, &t, err);
    vks__oneshot once = {0};
    if (res == VKS_OK)
        res = vks__upload_table(gpu, &once, "clip", t.words, t.word_count * sizeof *t.words, &gc->words, err);
    vks__oneshot_destroy(gpu, &once);
    gc->entry = t.entry, gc->motion = t.motion, gc->loops = t.loops, gc->morph = t.morph; /* kept */
    free(t.words);
    if (res != VKS_OK) {
        vks_gpu_clips_free(gc);
        return res;
    }
    *out = gc;
    return VKS_OK;
}

void vks_gpu_clips_free(vks_gpu_clips *gc)
{
    if (!gc)
        return;
    vks__buf_destroy(gc->gpu, &gc->words);
    free(gc->entry), free(gc->motion), free(gc->loops);
    free(gc);
}
