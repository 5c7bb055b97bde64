/* The clip files the generator writes beside a model (character_clips.h): each format's own
 * clip files where vkskin writes them (RenderWare .anm, .ska and a GTA .ifp beside a .dff; Arma
 * RTM, plain and binarised, beside a .p3d; NW4C .cskla beside a .cmdl; NIF .kf beside a .nif),
 * and pose JSON frames beside a format without clip files of its own. Clips are written
 * against the model as it reads back, so a file plays on the model beside it exactly as the
 * clip plays on the generated skin. */
#include "character_clips.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "character_clip_files.h"

typedef vks_result (*clip_writer)(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                                  uint8_t **out, size_t *size, vks_error *err);

static vks_result write_one(const char *model_path, const char *suffix, const uint8_t *bytes, size_t size,
                            vks_gen_clip_log *log, const char *what, vks_error *err)
{
    size_t n = strlen(model_path) + strlen(suffix) + 2;
    char *path = malloc(n);
    if (!path)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clips", "out of memory");
    snprintf(path, n, "%s.%s", model_path, suffix);
    vks_result r = vks_gen_write_file(path, bytes, size, err);
    if (r == VKS_OK && log && log->on_file)
        log->on_file(log->user, path, size, what);
    free(path);
    return r;
}

static vks_result write_clip(const char *model_path, const char *suffix, clip_writer w, const vks_clip *clip,
                             const vks_skin *skin, const vks_clip_write_options *o, vks_gen_clip_log *log,
                             const char *what, vks_error *err)
{
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_result r = w(clip, skin, o, &bytes, &size, err);
    if (r == VKS_OK)
        r = write_one(model_path, suffix, bytes, size, log, what, err);
    free(bytes);
    return r;
}

/* vks_cskla_write takes a set: a set of this one clip. */
static vks_result cskla_one(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt,
                            uint8_t **out, size_t *size, vks_error *err)
{
    vks_clip_set one = {.format = "generated", .format_detail = "", .clips = (vks_clip *)clip, .clip_count = 1};
    return vks_cskla_write(&one, skin, opt, out, size, err);
}

/* vks_nif_kf_write takes a set: a set of this one clip. */
static vks_result kf_one(const vks_clip *clip, const vks_skin *skin, const vks_clip_write_options *opt, uint8_t **out,
                         size_t *size, vks_error *err)
{
    vks_clip_set one = {.format = "generated", .format_detail = "", .clips = (vks_clip *)clip, .clip_count = 1};
    return vks_nif_kf_write(&one, skin, opt, out, size, err);
}

static vks_result write_json(const char *model_path, const vks_clip *clip, const vks_skin *skin, float fps,
                             vks_gen_clip_log *log, vks_error *err)
{
    char *text = NULL, suffix[64], what[96];
    size_t size = 0;
    vks_result r = vks_gen_pose_json(clip, skin, fps, &text, &size, err);
    snprintf(suffix, sizeof suffix, "%s.json", clip->name);
    snprintf(what, sizeof what, "pose JSON frames of \"%s\" at %g fps", clip->name, (double)fps);
    if (r == VKS_OK)
        r = write_one(model_path, suffix, (const uint8_t *)text, size, log, what, err);
    free(text);
    return r;
}

/* The model as a reader sees it (P3D with its model.cfg). */
static vks_skin *read_back(const vks_gen_format *fmt, const vks_skin *authored, const uint8_t *bytes, size_t size,
                           const char *name, vks_error *err)
{
    vks_read_options opt = {0};
    uint8_t *cfg = NULL;
    size_t cfg_size = 0;
    if (!strcmp(fmt->name, "p3d")) {
        if (vks_p3d_write_model_cfg(authored, name, &cfg, &cfg_size, err) != VKS_OK)
            return NULL;
        opt.p3d.model_cfg = (const char *)cfg;
        opt.p3d.model_cfg_size = cfg_size;
        opt.p3d.model_name = name;
    }
    vks_skin *s = NULL;
    if (vks_read_any(&opt, bytes, size, NULL, &s, err) != VKS_OK)
        s = NULL;
    free(cfg);
    return s;
}

vks_result vks_gen_write_clip_files(const char *model_path, const vks_gen_format *fmt, const vks_skin *authored,
                                    const uint8_t *model_bytes, size_t model_size, const char *model_name,
                                    float json_fps, vks_gen_clip_log *log, vks_error *err)
{
    vks_clip_set *set = NULL;
    vks_result r = vks_gen_clips(authored, &set, err);
    if (r != VKS_OK)
        return r;
    vks_skin *model = read_back(fmt, authored, model_bytes, model_size, model_name, err);
    if (!model) {
        vks_clip_set_free(set);
        return err && err->code ? err->code : VKS_ERR_INVALID;
    }
    const vks_clip *walk = &set->clips[0], *wave = &set->clips[1];
    vks_clip_write_options o = {0};
    if (!strcmp(fmt->name, "dff")) {
        /* RenderWare keys are absolute locals, which the read-back DFF shares with the generated
           skin: the clips bind to it as authored (HAnim order from the DFF) */
        r = write_clip(model_path, "walk.anm", vks_rw_anm_write, walk, model, &o, log,
                       "RenderWare .anm, standard keys: walk", err);
        o.compressed = 1;
        if (r == VKS_OK)
            r = write_clip(model_path, "wave.anm", vks_rw_anm_write, wave, model, &o, log,
                           "RenderWare .anm, compressed keys: wave", err);
        o.compressed = 0;
        if (r == VKS_OK)
            r = write_clip(model_path, "walk.ska", vks_rw_ska_write, walk, model, &o, log, "legacy .ska: walk", err);
        if (r == VKS_OK) {
            uint8_t *bytes = NULL;
            size_t size = 0;
            o.version = 3;
            r = vks_ifp_write(set, model, &o, &bytes, &size, err);
            if (r == VKS_OK)
                r = write_one(model_path, "ifp", bytes, size, log, "GTA .ifp (ANP3): walk and wave", err);
            free(bytes);
        }
    } else if (!strcmp(fmt->name, "p3d")) {
        o.frames = (uint32_t)(walk->duration * json_fps + 0.5f) + 1; /* frames at the JSON's rate */
        /* RTM stores skinning matrices: made from the generated skin, where the clip is authored,
           they deform the P3D's vertices (the same, in the same space) the same way */
        r = write_clip(model_path, "walk.rtm", vks_rtm_write, walk, authored, &o, log, "Arma RTM_0101: walk", err);
        o.version = 4;
        o.compressed = 1;
        o.frames = (uint32_t)(wave->duration * json_fps + 0.5f) + 1;
        if (r == VKS_OK)
            r = write_clip(model_path, "wave.rtm", vks_rtm_write, wave, authored, &o, log,
                           "Arma BMTR v4, LZO arrays: wave", err);
    } else if (!strcmp(fmt->name, "cmdl")) {
        /* NW4C .cskla: Paths and Skeleton name the read-back model's bones; frames at 30 per
           second (the clips' fps is 0), the reader's default: the file stores no rate */
        r = write_clip(model_path, "walk.cskla", cskla_one, walk, model, &o, log, "NW4C .cskla (30 fps): walk", err);
        if (r == VKS_OK)
            r = write_clip(model_path, "wave.cskla", cskla_one, wave, model, &o, log, "NW4C .cskla (30 fps): wave",
                           err);
    } else if (!strcmp(fmt->name, "nif")) {
        /* both .kf layouts: the walk as 10.1.0.0 (NiKeyframeController + NiKeyframeData, inline
           names), the wave as 20.2.0.7 (its head nods on a B-spline, which 10.1.0.0 cannot hold) */
        o.version = 0x0A010000u;
        r = write_clip(model_path, "walk.kf", kf_one, walk, model, &o, log, "NIF .kf 10.1.0.0: walk", err);
        o.version = 0x14020007u;
        if (r == VKS_OK)
            r = write_clip(model_path, "wave.kf", kf_one, wave, model, &o, log,
                           "NIF .kf 20.2.0.7 (transform and B-spline interpolators): wave", err);
    } else {
        r = write_json(model_path, walk, model, json_fps, log, err);
        if (r == VKS_OK)
            r = write_json(model_path, wave, model, json_fps, log, err);
    }
    vks_skin_free(model);
    vks_clip_set_free(set);
    return r;
}
