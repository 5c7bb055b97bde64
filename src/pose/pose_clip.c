/* A pose JSON's frames as a clip (clip.h): frame f at f / fps, linear between frames, so every
 * skin has at least one clip source. Only nodes that move in some frame get a track: the
 * others keep their bind local bit for bit. */
#include <string.h>

#include "vkskin/clip.h"
#include "vkskin/clip_formats.h"
#include "vkskin/pose.h"

static int same_local(const vks_affine *a, const vks_affine *b) { return memcmp(a, b, sizeof *a) == 0; }

static vks_curve make_curve(vks_clip_set *set, uint32_t frames, uint32_t comps, const float *times)
{
    vks_curve c = {0};
    c.values = vks_clip_set_alloc(set, (size_t)frames * comps, sizeof(float));
    c.key_count = c.values ? frames : 0;
    c.components = comps;
    c.interp = VKS_INTERP_LINEAR;
    c.times = times;
    return c;
}

vks_result vks_pose_json_clip_read(const vks_skin *skin, const vks_read_options *opt, const void *bytes, size_t size,
                                   vks_clip_set **out, vks_error *err)
{
    vks_read_options o = vks_read_options_defaults(opt);
    vks_pose_set ps = {0};
    vks_result r = vks_pose_file_parse_with(skin, bytes, size, &o.allocator, &ps, err);
    if (r != VKS_OK)
        return r;
    vks_clip_set *set = vks_clip_set_create(&o.allocator);
    uint32_t nn = skin->node_count, nf = ps.frame_count ? ps.frame_count : 1;
    vks_clip *clip = set ? vks_clip_set_alloc(set, 1, sizeof *clip) : NULL;
    float *times = set ? vks_clip_set_alloc(set, nf, sizeof *times) : NULL;
    vks_track *tracks = set ? vks_clip_set_alloc(set, nn ? nn : 1, sizeof *tracks) : NULL;
    if (!clip || !times || !tracks)
        goto nomem;
    set->format = "pose-json";
    set->format_detail = ps.frame_count > 1 ? "frames" : "one pose";
    set->clips = clip;
    set->clip_count = 1;
    clip->name = "frames";
    clip->fps = o.clip.fps;
    clip->duration = nf > 1 ? (float)(nf - 1) / o.clip.fps : 1.0f / o.clip.fps;
    clip->cycle = VKS_CYCLE_LOOP;
    clip->root_track = -1;
    clip->tracks = tracks;
    for (uint32_t f = 0; f < nf; f++)
        times[f] = (float)f / o.clip.fps;
    if (times[nf - 1] > clip->duration) /* f / fps may round past (nf - 1) / fps */
        times[nf - 1] = clip->duration;
    for (uint32_t n = 0; n < nn; n++) {
        int moves = 0;
        for (uint32_t f = 0; f < ps.frame_count && !moves; f++)
            moves = !same_local(&ps.locals[(size_t)f * nn + n], &skin->nodes[n].bind_local);
        if (!moves)
            continue;
        vks_track *tr = &tracks[clip->track_count++];
        tr->node_name = skin->nodes[n].name;
        tr->translation = make_curve(set, nf, 3, times);
        tr->rotation = make_curve(set, nf, 4, times);
        tr->scale = make_curve(set, nf, 3, times);
        if (!tr->translation.key_count || !tr->rotation.key_count || !tr->scale.key_count)
            goto nomem;
        for (uint32_t f = 0; f < nf; f++) {
            float *t = (float *)tr->translation.values + 3 * f, *q = (float *)tr->rotation.values + 4 * f;
            vks_affine_to_trs(&ps.locals[(size_t)f * nn + n], t, q, (float *)tr->scale.values + 3 * f);
            if (f && q[0] * q[-4] + q[1] * q[-3] + q[2] * q[-2] + q[3] * q[-1] < 0)
                for (int k = 0; k < 4; k++) /* keep neighbours in one hemisphere */
                    q[k] = -q[k];
        }
    }
    vks_pose_set_free(&ps);
    r = vks_clip_set_finish(set, err);
    if (r != VKS_OK) {
        vks_clip_set_free(set);
        return r;
    }
    *out = set;
    return VKS_OK;
nomem:
    vks_pose_set_free(&ps);
    vks_clip_set_free(set);
    return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "pose clip", "out of memory");
}
