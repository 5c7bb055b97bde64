/* play_crowd: a host program that plays a crowd file, layers and root motion included, through
 * the public headers alone.
 *
 * It parses the crowd file (vks_crowd_file_parse), loads every model it names (vks_load_model)
 * and every clip source (vks_read_clips, then the clip by name or index: vks_clip_set_find),
 * turns each entry into an instance (vks_crowd_spec_instance: layers, masks by node name,
 * additive references, cycles, transition, root motion, root), and streams the instances over a
 * few frames on the GPU (vks_stream_run: clips sampled and layers blended in the crowd's pose
 * pass, frames read back into a callback). Then it plays the same instances on the CPU reference
 * (vks_instance_clip_play: the instance as a pose source; vks_cpu_reference_run;
 * vks_apply_root) and checks a few vertices of every instance and frame against what the GPU
 * gave, and prints where the layered instances' root motion has taken them (the travel the
 * pose pass took out of the motion node, which a host adds to where the agent stands).
 * Usage: play_crowd CROWD.json|CROWD.csv [FRAMES]
 * Exit: 0 played and matching, 1 a mismatch or an error, 77 no Vulkan device. */
#include <vkskin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(what, detail)                                                                             \
    do {                                                                                               \
        fprintf(stderr, "play_crowd: %s %s\n", what, detail);                                          \
        return 1;                                                                                      \
    } while (0)

/* What the crowd file names, loaded: its models and clip sources, and the binding that tells
 * vks_crowd_spec_instance where they went (model k uploaded as k, clip source c as clip c). */
typedef struct crowd {
    vks_crowd_spec *spec;
    vks_skin **skins;
    vks_clip_set **sets;     /* per clip source: its file, read (a file named twice is read twice:
                                a small crowd; a host with many would share them) */
    const vks_clip **clips;  /* per clip source: the clip it names */
    uint32_t *model_index;
    int32_t *clip_index;
    vks_cycle *cycles;
    vks_crowd_binding binding;
    vks_instance *in;        /* per entry */
} crowd;

/* The library's notes on what it reads (a P3D's skeleton config, lost influences). */
static void log_line(void *user, vks_log_level level, const char *msg)
{
    (void)user, (void)level;
    fprintf(stderr, "play_crowd: %s\n", msg);
}

static char *read_text(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n)
        *size = (size_t)n;
    else
        free(text), text = NULL;
    if (f)
        fclose(f);
    return text;
}

/* The crowd file, its models and clips loaded and every entry made an instance. */
static int load(const char *path, crowd *c)
{
    char msg[512];
    size_t size = 0;
    char *text = read_text(path, &size);
    vks_error err = {0};
    if (!text)
        FAIL(path, "cannot be read");
    vks_result r = vks_crowd_file_parse(text, size, path, &c->spec, &err);
    free(text);
    if (r != VKS_OK)
        FAIL("crowd file:", vks_error_format(&err, path, msg, sizeof msg));
    const vks_crowd_spec *s = c->spec;
    c->skins = calloc(s->model_count + 1, sizeof *c->skins);
    c->sets = calloc(s->clip_count + 1, sizeof *c->sets);
    c->clips = calloc(s->clip_count + 1, sizeof *c->clips);
    c->model_index = calloc(s->model_count + 1, sizeof *c->model_index);
    c->clip_index = calloc(s->clip_count + 1, sizeof *c->clip_index);
    c->cycles = calloc(s->clip_count + 1, sizeof *c->cycles);
    c->in = calloc(s->instance_count, sizeof *c->in);
    if (!c->skins || !c->sets || !c->clips || !c->model_index || !c->clip_index || !c->cycles || !c->in)
        FAIL("out of memory", "");
    for (uint32_t k = 0; k < s->model_count; k++) {
        vks_read_options ro = {0};
        ro.logger.func = log_line;
        if (vks_load_model(&ro, s->models[k].path, &c->skins[k], &err) != VKS_OK)
            FAIL("model:", vks_load_error_format(&err, s->models[k].path, NULL, msg, sizeof msg));
        c->model_index[k] = k;
    }
    for (uint32_t k = 0; k < s->clip_count; k++) {
        const vks_crowd_source *src = &s->clips[k];
        if (vks_read_clips(NULL, src->path, &c->sets[k], &err) != VKS_OK)
            FAIL("clip file:", vks_load_error_format(&err, src->path, NULL, msg, sizeof msg));
        int32_t at = vks_clip_set_find(c->sets[k], src->name);
        if (at < 0)
            FAIL(src->text, ": no such clip in the file");
        c->clips[k] = &c->sets[k]->clips[at];
        c->clip_index[k] = (int32_t)k, c->cycles[k] = c->clips[k]->cycle;
    }
    vks_crowd_binding b = {c->model_index, 0, (const vks_skin *const *)c->skins, c->clip_index, c->cycles, NULL};
    c->binding = b;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        if (s->instances[i].model < 0)
            FAIL(path, ": every entry of this example names its model");
        if (vks_crowd_spec_instance(s, i, &c->binding, &c->in[i], &err) != VKS_OK)
            FAIL("", err.msg);
    }
    return 0;
}

/* The GPU's frames, every instance's vertices at offset[i] within a frame of `per` floats. */
typedef struct sink {
    const crowd *c;
    size_t *offset, per;
    float *frames;
    uint32_t delivered;
} sink;

static int take(void *user, const vks_stream_delivery *d)
{
    sink *s = user;
    size_t at = 0;
    for (uint32_t i = d->first; i < d->first + d->count; i++) {
        size_t n = (size_t)s->c->skins[s->c->in[i].model]->vertex_count * 3;
        memcpy(s->frames + (size_t)d->frame * s->per + s->offset[i], d->positions + at, n * sizeof(float));
        at += n;
    }
    s->delivered++;
    return 0;
}

/* Instance i at time t on the CPU reference, placed by its root: pos (vertex_count * 3). Its
 * clips bound to its model first; the layered pose's root motion into motion (x, y, z, yaw). */
static int reference(const crowd *c, uint32_t i, float t, float *pos, double motion[4])
{
    const vks_instance *in = &c->in[i];
    const vks_skin *skin = c->skins[in->model];
    uint32_t n = c->spec->clip_count;
    vks_error err = {0};
    vks_clip_binding *bound = calloc(n + 1, sizeof *bound);
    vks_affine *locals = malloc(sizeof *locals * skin->node_count);
    int ok = bound && locals;
    for (uint32_t k = 0; ok && k < n; k++) /* a host binds each clip to each model once */
        ok = vks_clip_bind(c->clips[k], skin, &bound[k], &err) == VKS_OK;
    vks_clip_play play;
    vks_clip_layers layers;
    ok = ok && vks_instance_clip_play(in, c->clips, bound, n, &play, &layers, &err) == VKS_OK;
    if (ok) {
        vks_pose_source src = {0};
        src.kind = VKS_POSE_CLIP, src.plays = &play, src.layers = &layers, src.play_count = 1;
        src.start_time = t; /* frame 0 of the source is at t */
        vks_pose_source_locals(&src, skin, 0, 0, locals);
        vks_deform_job job = {skin, locals, 1, pos, NULL, NULL};
        ok = vks_cpu_reference_run(&job, &err) == VKS_OK;
        vks_apply_root(skin, &in->root, pos, NULL);
        memset(motion, 0, 4 * sizeof *motion);
        if (layers.count)
            vks_clip_layers_root_track(&layers, skin, t, motion);
    }
    if (!ok)
        fprintf(stderr, "play_crowd: instance %u: %s\n", i, err.msg);
    for (uint32_t k = 0; bound && k < n; k++)
        vks_clip_binding_free(&bound[k]);
    free(bound), free(locals);
    return ok;
}

/* Three vertices of instance i in frame f, the GPU's against the reference's. */
static int check(const crowd *c, const sink *s, uint32_t i, uint32_t f, float t, double *worst)
{
    const vks_skin *skin = c->skins[c->in[i].model];
    float *pos = malloc(sizeof *pos * skin->vertex_count * 3);
    double motion[4];
    int ok = pos && reference(c, i, t, pos, motion);
    double tolerance = 1e-5 * fmax(1.0, vks_skin_bounding_radius(skin)); /* float against double */
    uint32_t shown[3] = {0, skin->vertex_count / 2, skin->vertex_count - 1};
    for (int k = 0; ok && k < 3; k++) {
        const float *g = s->frames + (size_t)f * s->per + s->offset[i] + (size_t)shown[k] * 3;
        const float *r = pos + (size_t)shown[k] * 3;
        double d = fmax(fabs((double)g[0] - r[0]), fmax(fabs((double)g[1] - r[1]), fabs((double)g[2] - r[2])));
        *worst = fmax(*worst, d);
        if (d > tolerance)
            printf("instance %u frame %u vertex %u: GPU (%.6f %.6f %.6f), reference (%.6f %.6f %.6f)  MISMATCH\n", i,
                   f, shown[k], g[0], g[1], g[2], r[0], r[1], r[2]);
        ok = d <= tolerance;
    }
    if (ok && c->in[i].pose == VKS_POSE_LAYERS && c->in[i].root_motion)
        printf("instance %u at t %.3f: root motion (%.4f %.4f %.4f), yaw %.4f rad\n", i, (double)t, motion[0],
               motion[1], motion[2], motion[3]);
    free(pos);
    return ok;
}

/* Every instance over frames times on the GPU, into s; 77 without a device. */
static int play(const crowd *c, const float *times, uint32_t frames, sink *s, uint32_t *messages)
{
    vks_error err = {0};
    vks_gpu_options opt = {0};
    opt.validation = 1; /* its messages are counted: any fails the example */
    opt.logger.func = log_line;
    vks_gpu *gpu = NULL;
    vks_result r = vks_gpu_create(&opt, &gpu, &err);
    if (r == VKS_ERR_NO_DEVICE) {
        fprintf(stderr, "play_crowd: no Vulkan device (skipped): %s\n", err.msg);
        return 77;
    }
    if (r != VKS_OK)
        FAIL("vks_gpu_create:", err.msg);
    const vks_crowd_spec *spec = c->spec;
    vks_gpu_models *models = NULL;
    vks_stream_desc d = {0};
    d.skins = (const vks_skin *const *)c->skins, d.model_count = spec->model_count;
    d.clips = c->clips, d.clip_count = spec->clip_count;
    d.instances = c->in, d.instance_count = spec->instance_count;
    d.times = times, d.frame_count = frames;
    d.no_normals = 1;
    d.layers = 1; /* some instances are VKS_POSE_LAYERS */
    d.deliver = take, d.user = s;
    r = vks_gpu_upload(gpu, d.skins, spec->model_count, &models, &err);
    d.models = models;
    if (r == VKS_OK)
        r = vks_stream_run(gpu, &d, NULL, &err);
    *messages = vks_gpu_validation_messages(gpu);
    vks_gpu_models_free(models);
    vks_gpu_destroy(gpu);
    if (r != VKS_OK)
        FAIL("streaming:", err.msg);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        FAIL("usage: play_crowd CROWD.json|CROWD.csv [FRAMES]", "");
    uint32_t frames = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 6;
    if (frames < 1 || frames > 1000)
        FAIL("FRAMES must be 1..1000", "");
    crowd c;
    memset(&c, 0, sizeof c);
    if (load(argv[1], &c))
        return 1;
    const vks_crowd_spec *spec = c.spec;
    sink s = {&c, calloc(spec->instance_count, sizeof(size_t)), 0, NULL, 0};
    for (uint32_t i = 0; s.offset && i < spec->instance_count; i++)
        s.offset[i] = s.per, s.per += (size_t)c.skins[c.in[i].model]->vertex_count * 3;
    float *times = malloc(sizeof *times * frames);
    s.frames = malloc(sizeof(float) * s.per * frames);
    if (!s.offset || !times || !s.frames)
        FAIL("out of memory", "");
    for (uint32_t f = 0; f < frames; f++)
        times[f] = 0.2f * (float)f; /* seconds: past the transitions and around the clips' loops */
    uint32_t messages = 0;
    int rc = play(&c, times, frames, &s, &messages);
    if (rc)
        return rc;
    double worst = 0;
    int ok = s.delivered > 0;
    for (uint32_t i = 0; i < spec->instance_count; i++)
        for (uint32_t f = 0; f < frames; f++)
            ok &= check(&c, &s, i, f, times[f], &worst);
    printf("play_crowd: %s: %u instance(s) of %u model(s) over %u frame(s), worst difference %.3g, %u validation "
           "message(s): %s\n", argv[1], spec->instance_count, spec->model_count, frames, worst, messages,
           ok && !messages ? "match" : "MISMATCH");
    for (uint32_t k = 0; k < spec->model_count; k++)
        vks_skin_free(c.skins[k]);
    for (uint32_t k = 0; k < spec->clip_count; k++)
        vks_clip_set_free(c.sets[k]);
    free(c.skins), free(c.sets), free(c.clips), free(c.model_index), free(c.clip_index), free(c.cycles), free(c.in);
    vks_crowd_spec_free(c.spec);
    free(s.offset), free(s.frames), free(times);
    return ok && !messages ? 0 : 1;
}
