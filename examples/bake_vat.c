/* bake_vat: a host program that bakes a vertex animation texture through the library alone.
 *
 * It reads a model and a clip file (vks_read_file, vks_read_clips), streams the file's first
 * clip over N frames on the GPU (vks_stream_run: the clip sampled in the crowd's pose pass, the
 * frames read back through the ring into a callback), writes the VAT's positions texture
 * (OpenEXR float where the library has OpenEXR, else 16-bit PNG), its rest mesh (OBJ) and its
 * sidecar (JSON) with the library's writers (vat_write.h), and checks a few vertices of a few
 * frames, as the texture holds them, against the CPU reference posed by the same clip.
 * Usage: bake_vat MODEL CLIPFILE OUTDIR [FRAMES]
 * Exit: 0 baked and matching, 1 a mismatch or an error, 77 no Vulkan device. */
#include <vkskin.h>
#include <vkskin/vat_write.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TRY(ok, what)                                                                                  \
    do {                                                                                               \
        if (!(ok)) {                                                                                   \
            fprintf(stderr, "bake_vat: %s %s\n", what, err.msg);                                       \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

/* The stream's deliveries: frame f of the one instance into frames[f]. */
typedef struct sink {
    float *frames; /* frame_count * vertex_count * 3, frame-major: what vks_vat_texels takes */
    size_t per;    /* floats a frame */
    uint32_t delivered;
} sink;

static int take(void *user, const vks_stream_delivery *d)
{
    sink *s = user;
    memcpy(s->frames + (size_t)d->frame * s->per, d->positions, s->per * sizeof(float));
    s->delivered++;
    return 0;
}

/* The context's log: validation messages, printed so that the test shows them. */
static void log_line(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    if (level <= VKS_LOG_WARNING)
        fprintf(stderr, "bake_vat: %s\n", msg);
}

static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* Vertex v of frame f on the CPU reference: the clip sampled (double) at the time the GPU
 * played it (vks_clip_play_time_f), the skeleton posed and the vertex skinned. */
static int check(const vks_skin *skin, const vks_clip *clip, const vks_vat_layout *lay, const float *texels,
                 const float *times, uint32_t f, double tolerance, double *worst)
{
    vks_error err = {0};
    vks_clip_binding b;
    vks_affine *locals = malloc(sizeof *locals * skin->node_count);
    float *pos = malloc(sizeof *pos * skin->vertex_count * 3);
    int ok = locals && pos && vks_clip_bind(clip, skin, &b, &err) == VKS_OK;
    if (ok) {
        double t = vks_clip_play_time_f(clip, VKS_CYCLE_CLAMP, 0.0f, 1.0f, times[f]);
        vks_clip_sample_locals_d(clip, &b, skin, t, locals);
        vks_deform_job job = {skin, locals, 1, pos, NULL, NULL};
        ok = vks_cpu_reference_run(&job, &err) == VKS_OK;
        vks_clip_binding_free(&b);
    }
    uint32_t shown[3] = {0, skin->vertex_count / 2, skin->vertex_count - 1};
    for (int k = 0; ok && k < 3; k++) {
        uint32_t v = shown[k];
        const float *tx = texels + ((size_t)vks_vat_row(lay, f, v) * lay->width + vks_vat_column(lay, v)) * 3;
        double d = 0;
        for (int c = 0; c < 3; c++)
            d = fmax(d, fabs((double)tx[c] - pos[(size_t)v * 3 + c]));
        *worst = fmax(*worst, d);
        printf("frame %u (t %.4f) vertex %u: texel (%.6f %.6f %.6f), reference (%.6f %.6f %.6f)%s\n", f,
               (double)times[f], v, tx[0], tx[1], tx[2], pos[(size_t)v * 3], pos[(size_t)v * 3 + 1],
               pos[(size_t)v * 3 + 2], d <= tolerance ? "" : "  MISMATCH");
        ok = d <= tolerance;
    }
    free(locals);
    free(pos);
    return ok;
}

int main(int argc, char **argv)
{
    vks_error err = {0};
    TRY(argc >= 4, "usage: bake_vat MODEL CLIPFILE OUTDIR [FRAMES]");
    uint32_t frames = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 10) : 16;
    TRY(frames >= 2 && frames <= 4096, "FRAMES must be 2..4096");
    TRY(mkdir(argv[3], 0777) == 0 || errno == EEXIST, "OUTDIR cannot be made");

    /* 1. The model and its clip, through the library's file access. */
    vks_skin *skin = NULL;
    vks_clip_set *set = NULL;
    TRY(vks_read_file(NULL, argv[1], &skin, &err) == VKS_OK && vks_skin_validate(skin, &err) == VKS_OK,
        "reading the model:");
    TRY(vks_read_clips(NULL, argv[2], &set, &err) == VKS_OK && set->clip_count > 0, "reading the clips:");
    const vks_clip *clip = &set->clips[0];

    /* 2. A GPU context (the validation layer on: its messages are counted) and the model on it. */
    vks_gpu_options opt = {0};
    opt.validation = 1;
    opt.logger.func = log_line;
    vks_gpu *gpu = NULL;
    vks_result r = vks_gpu_create(&opt, &gpu, &err);
    if (r == VKS_ERR_NO_DEVICE) {
        fprintf(stderr, "bake_vat: no Vulkan device (skipped): %s\n", err.msg);
        return 77;
    }
    TRY(r == VKS_OK, "vks_gpu_create:");
    const vks_skin *skins[1] = {skin};
    vks_gpu_models *models = NULL;
    TRY(vks_gpu_upload(gpu, skins, 1, &models, &err) == VKS_OK, "vks_gpu_upload:");

    /* 3. One instance playing the clip from its start, streamed over `frames` times from 0 to
       the clip's end (both included). */
    float *times = malloc(sizeof *times * frames);
    sink s = {malloc(sizeof(float) * frames * skin->vertex_count * 3), (size_t)skin->vertex_count * 3, 0};
    TRY(times && s.frames, "out of memory");
    for (uint32_t f = 0; f < frames; f++)
        times[f] = clip->duration * (float)f / (float)(frames - 1);
    vks_instance in = {0};
    in.pose = VKS_POSE_CLIP;
    in.clip = 0, in.clip_start = 0.0f, in.clip_speed = 1.0f, in.clip_cycle = VKS_CYCLE_CLAMP;
    const vks_clip *clips[1] = {clip};
    vks_stream_desc d = {0};
    d.models = models, d.skins = skins, d.model_count = 1;
    d.clips = clips, d.clip_count = 1;
    d.instances = &in, d.instance_count = 1;
    d.times = times, d.frame_count = frames;
    d.no_normals = 1;
    d.deliver = take, d.user = &s;
    vks_stream_stats st = {0};
    TRY(vks_stream_run(gpu, &d, &st, &err) == VKS_OK && s.delivered == frames, "vks_stream_run:");

    /* 4. The VAT: positions texture, rest mesh, sidecar. */
    vks_vat_layout lay;
    TRY(vks_vat_layout_make(skin->vertex_count, frames, 0, &lay, &err) == VKS_OK, "vks_vat_layout_make:");
    float *texels = malloc(vks_vat_texel_floats(&lay) * sizeof *texels);
    TRY(texels, "out of memory");
    vks_vat_texels(s.frames, &lay, texels);
    vks_vat_sidecar sc = {0};
    vks_vat_bounds(s.frames, (size_t)frames * skin->vertex_count, sc.bounds_min, sc.bounds_max);
    int exr = vks_vat_exr_available();
    char tex_name[64], tex_path[1024], obj_path[1024], json_path[1024];
    snprintf(tex_name, sizeof tex_name, "vat.pos.%s", exr ? "f32.exr" : "png");
    snprintf(tex_path, sizeof tex_path, "%s/%s", argv[3], tex_name);
    snprintf(obj_path, sizeof obj_path, "%s/vat.obj", argv[3]);
    snprintf(json_path, sizeof json_path, "%s/vat.json", argv[3]);
    if (exr) {
        r = vks_vat_exr_write(tex_path, texels, lay.width, lay.height, 3, VKS_VAT_TEXEL_FLOAT, &err);
    } else {
        uint16_t *codes = malloc(vks_vat_texel_floats(&lay) * sizeof *codes);
        TRY(codes, "out of memory");
        vks_vat_quantize_texels(texels, (size_t)lay.width * lay.height, sc.bounds_min, sc.bounds_max, codes);
        r = vks_vat_png16_write(tex_path, codes, lay.width, lay.height, &err);
        free(codes);
    }
    TRY(r == VKS_OK, "writing the texture:");
    TRY(vks_vat_write_rest_obj(obj_path, skin, &lay, argv[1], &err) == VKS_OK, "writing the rest mesh:");
    vks_vat_sidecar_clip scl = {clip->name, argv[2], 0, clip, 0.0f, clip->duration, 0, frames, times};
    vks_vat_sidecar_file files[2] = {{tex_name, "position", file_bytes(tex_path)},
                                     {"vat.obj", "rest mesh (OBJ, vt = texel)", file_bytes(obj_path)}};
    sc.tool = "bake_vat (vkskin example)", sc.kind = exr ? "vat-exr-float" : "vat-png16";
    sc.model = argv[1], sc.skin = skin, sc.frame_count = frames;
    sc.fps = (double)(frames - 1) / (clip->duration > 0 ? clip->duration : 1);
    sc.encoding = exr ? "float32" : "unorm16", sc.layout = &lay;
    sc.clips = &scl, sc.clip_count = 1, sc.files = files, sc.file_count = 2;
    TRY(vks_vat_sidecar_write(json_path, &sc, &err) == VKS_OK, "writing the sidecar:");
    printf("bake_vat: %s, clip \"%s\" (%.3f s): %u frames of %u vertices into %ux%u texels (%s), %u chunk(s)\n",
           argv[1], clip->name, (double)clip->duration, frames, skin->vertex_count, lay.width, lay.height, tex_name,
           st.chunks);

    /* 5. A few vertices of the first, a middle and the last frame, as the texels the texture
       was written from hold them, against the CPU reference. */
    double ex = 0;
    for (int c = 0; c < 3; c++)
        ex = fmax(ex, (double)sc.bounds_max[c] - sc.bounds_min[c]);
    double tolerance = 1e-4 * (ex > 1 ? ex : 1);
    double worst = 0;
    int ok = 1;
    uint32_t checked[3] = {0, frames / 2, frames - 1};
    for (int k = 0; k < 3; k++)
        ok &= check(skin, clip, &lay, texels, times, checked[k], tolerance, &worst);
    uint32_t messages = vks_gpu_validation_messages(gpu);
    printf("bake_vat: worst difference %.3g (tolerance %.3g), %u validation message(s): %s\n", worst, tolerance,
           messages, ok && !messages ? "match" : "MISMATCH");

    free(texels);
    free(times);
    free(s.frames);
    vks_gpu_models_free(models);
    vks_gpu_destroy(gpu);
    vks_clip_set_free(set);
    vks_skin_free(skin);
    return ok && !messages ? 0 : 1;
}
