/* Instances (instance.h) streamed (vks_stream_run, vks_stream_to_bake), with the validation
 * layer on: every pose source a crowd instance holds (procedural, the bind pose, a clip with a root, layers with an additive layer's
 * reference pose (a clip at a time, or a time), a crossfade, a mask, root motion with and
 * without yaw) on two models, in chunks whose crowd is re-aimed, checked against the CPU
 * reference at every frame; the very bits the same instances give from a callback in one
 * chunk; a bake from a list with the bytes of the bake from a callback; instances refused by
 * their number in the stream. Exits 77 where there is no Vulkan device. */
#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/stream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 14, F = 4, CLIPS = 2, MAXV = 4096, MAXN = 64 };

static const float TIMES[F] = {0, 0.45f, 1.7f, 3.3f};
static const vks_skin *skins[2];
static vks_instance inst[N];
static float T3[3] = {0, 0.8f, 2}, WALK[3][3] = {{0, 0, 0}, {0.4f, 0, 0.3f}, {1.1f, 0, 0.7f}};
static float TURN[3][4], SWAY[3][4];
static vks_track tracks[CLIPS][2];
static vks_clip clips[CLIPS];
static vks_clip_binding bind[2][CLIPS];

static size_t at(uint32_t i, uint32_t f)
{
    return ((size_t)i * F + f) * MAXV * 3;
}

typedef struct got {
    float *pos, *nrm; /* [instance][frame][vertex * 3] */
    uint8_t seen[N][F];
    int twice;
} got;

static int take(void *user, const vks_stream_delivery *d)
{
    got *g = user;
    size_t off = 0;
    for (uint32_t k = 0; k < d->count; k++) {
        uint32_t i = d->first + k, v = skins[inst[i].model]->vertex_count;
        g->twice |= g->seen[i][d->frame]++;
        memcpy(g->pos + at(i, d->frame), d->positions + off, (size_t)v * 12);
        memcpy(g->nrm + at(i, d->frame), d->normals + off, (size_t)v * 12);
        off += (size_t)v * 3;
    }
    return 0;
}

static void get_crowd_instance(void *user, uint32_t i, vks_instance *out)
{
    (void)user;
    *out = inst[i];
}

static vks_instance of_a[N]; /* model a's instances, for the bake */

static void get_of_a(void *user, uint32_t i, vks_instance *out)
{
    (void)user;
    *out = of_a[i];
}

static got *got_new(void)
{
    got *g = calloc(1, sizeof *g);
    g->pos = calloc((size_t)N * F * MAXV * 3, sizeof *g->pos);
    g->nrm = calloc((size_t)N * F * MAXV * 3, sizeof *g->nrm);
    return g;
}

static void got_free(got *g)
{
    free(g->pos), free(g->nrm), free(g);
}

static int all_seen(const got *g)
{
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t f = 0; f < F; f++)
            if (g->seen[i][f] != 1)
                return 0;
    return !g->twice;
}

static int same_bits(const got *a, const got *b)
{
    size_t n = (size_t)N * F * MAXV * 3;
    return !memcmp(a->pos, b->pos, n * sizeof(float)) && !memcmp(a->nrm, b->nrm, n * sizeof(float));
}

static void quat(float *q, float ax, float ay, float az, float angle)
{
    float l = sqrtf(ax * ax + ay * ay + az * az), s = sinf(angle / 2) / l;
    q[0] = ax * s, q[1] = ay * s, q[2] = az * s, q[3] = cosf(angle / 2);
}

/* Two clips over skin a's nodes: "walk" moves and turns its first node about y (the motion
 * node root motion takes out) and sways another; "wave" sways two others. */
static void make_clips(const vks_skin *a)
{
    for (int k = 0; k < 3; k++)
        quat(TURN[k], 0, 1, 0, 0.7f * (float)k), quat(SWAY[k], 0.3f, 0.2f, 1, 0.5f * (float)k - 0.4f);
    vks_curve turn = {.key_count = 3, .components = 4, .interp = VKS_INTERP_LINEAR, .times = T3, .values = TURN[0]};
    vks_curve walk = {.key_count = 3, .components = 3, .interp = VKS_INTERP_LINEAR, .times = T3, .values = WALK[0]};
    vks_curve sway = {.key_count = 3, .components = 4, .interp = VKS_INTERP_LINEAR, .times = T3, .values = SWAY[0]};
    tracks[0][0] = (vks_track){.node_name = a->nodes[1].name, .rotation = turn, .translation = walk};
    tracks[0][1] = (vks_track){.node_name = a->nodes[6].name, .rotation = sway};
    tracks[1][0] = (vks_track){.node_name = a->nodes[4].name, .rotation = sway};
    tracks[1][1] = (vks_track){.node_name = a->nodes[9].name, .rotation = turn};
    for (int c = 0; c < CLIPS; c++)
        clips[c] = (vks_clip){.name = c ? "wave" : "walk", .duration = 2, .tracks = tracks[c], .track_count = 2,
                              .root_track = -1};
}

/* Instance i: the pose sources in turn, models a, a, b. */
static void make_instance(uint32_t i, vks_instance *in)
{
    memset(in, 0, sizeof *in);
    in->model = i % 3 == 2;
    if (i % 4 == 1) {
        float t[3] = {0.5f * (float)i, 0, -1}, q[4], s[3] = {1, 1, 1};
        quat(q, 0, 1, 0, 0.3f * (float)i);
        in->root = vks_affine_from_trs(t, q, s);
    }
    switch (i % 7) {
    case 0:
        in->pose = VKS_POSE_PROCEDURAL, in->seed = 5, in->pose_instance = i, in->max_angle = 0.7f;
        return;
    case 1:
        in->pose = VKS_POSE_BIND;
        return;
    case 2:
        in->pose = VKS_POSE_CLIP, in->clip = i % CLIPS, in->clip_start = 0.1f * (float)i;
        in->clip_speed = i % 2 ? 1.3f : -0.6f, in->clip_cycle = (vks_cycle)(i % 4);
        return;
    default: /* layers: walk, wave additive with a reference pose, a third masked or fading in */
        break;
    }
    in->pose = VKS_POSE_LAYERS;
    in->layer_count = 2 + (i % 7 == 4 || i % 7 == 6);
    in->layers[0] = (vks_instance_layer){.clip = 0, .start = 0.2f * (float)i, .speed = 1, .cycle = VKS_CYCLE_LOOP,
                                      .weight = 1};
    in->layers[1] = (vks_instance_layer){.clip = 1, .start = 0.3f, .speed = 0.8f, .cycle = VKS_CYCLE_MIRROR,
                                      .weight = 0.7f, .mode = VKS_LAYER_ADDITIVE};
    if (i % 7 == 3) /* the reference pose: walk at 0.5 s */
        in->layers[1].reference = 1, in->layers[1].ref_time = 0.5f;
    else /* wave's own pose at 0.9 s */
        in->layers[1].ref_time = 0.9f;
    if (i % 7 == 4) { /* a third layer, masked to a subtree */
        in->layers[2] = (vks_instance_layer){.clip = 1, .start = 0.6f, .speed = 1.2f, .weight = 0.5f, .mask = 4};
    } else if (i % 7 == 6) { /* a crossfade from walk to another walk */
        in->layers[0].fade = VKS_FADE_OUT;
        in->layers[2] = (vks_instance_layer){.clip = 0, .start = 1.1f, .speed = 1, .weight = 1, .fade = VKS_FADE_IN};
        in->fade_start = 0.3f, in->fade_duration = 0.9f;
    }
    in->root_motion = i % 7 == 5 ? VKS_ROOT_MOTION_Y_UP : VKS_ROOT_MOTION_Y_UP | VKS_ROOT_MOTION_YAW;
}

/* The reference locals of a clip or layered instance at time T (double). */
static void reference_locals(const vks_instance *in, float T, vks_affine *out)
{
    const vks_skin *s = skins[in->model];
    if (in->pose == VKS_POSE_CLIP) {
        vks_clip_play play = {&clips[in->clip], &bind[in->model][in->clip], in->clip_start, in->clip_speed,
                              (int)in->clip_cycle};
        vks_clip_sample_locals_d(play.clip, play.binding, s, vks_clip_play_time(&play, T), out);
        return;
    }
    vks_clip_layers l = {0};
    l.count = in->layer_count;
    l.fade_start = in->fade_start, l.fade_duration = in->fade_duration, l.root_motion = in->root_motion;
    for (uint32_t k = 0; k < in->layer_count; k++) {
        const vks_instance_layer *y = &in->layers[k];
        vks_clip_layer *o = &l.layer[k];
        o->play = (vks_clip_play){&clips[y->clip], &bind[in->model][y->clip], y->start, y->speed, (int)y->cycle};
        o->weight = y->weight, o->mode = y->mode, o->fade = y->fade, o->mask = y->mask, o->ref_time = y->ref_time;
        if (y->reference)
            o->ref_clip = &clips[y->reference - 1], o->ref_binding = &bind[in->model][y->reference - 1];
    }
    vks_clip_layers_locals_d(&l, s, T, out);
}

static int check_reference(const got *g)
{
    int pass = 1;
    double worst = 0;
    vks_affine locals[MAXN];
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t f = 0; f < F; f++) {
            const vks_instance *c = &inst[i];
            const vks_affine *lp = NULL; /* procedural, or the bind pose */
            if (c->pose == VKS_POSE_CLIP || c->pose == VKS_POSE_LAYERS)
                reference_locals(c, TIMES[f], locals), lp = locals;
            double w = 0;
            if (!crowd_check_instance(skins[c->model], c, TIMES[f], lp, g->pos + at(i, f), g->nrm + at(i, f), &w)) {
                fprintf(stderr, "instance %u (pose %d) frame %u: off the reference (%.3g)\n", i, (int)c->pose, f, w);
                pass = 0;
            }
            worst = w > worst ? w : worst;
        }
    fprintf(stderr, "every crowd pose source against the reference: worst %.3g of the scale\n", worst);
    return pass;
}

/* Root motion matters here: the walk's instances with it are not those without. */
static int root_motion_moves(vks_gpu *gpu, const vks_stream_desc *d, const got *g)
{
    static vks_instance plain[N];
    memcpy(plain, inst, sizeof plain);
    for (uint32_t i = 0; i < N; i++)
        plain[i].root_motion = 0;
    got *h = got_new();
    vks_stream_desc e = *d;
    e.user = h;
    e.instances = plain;
    vks_error err = {0};
    int moved = vks_stream_run(gpu, &e, NULL, &err) == VKS_OK;
    for (uint32_t i = 0, yaw = 0, up = 0; moved && i <= N; i++) {
        if (i == N) {
            moved = yaw && up;
            break;
        }
        if (!inst[i].root_motion)
            continue;
        int differs = memcmp(g->pos + at(i, F - 1), h->pos + at(i, F - 1),
                             (size_t)skins[inst[i].model]->vertex_count * 12) != 0;
        yaw += differs && (inst[i].root_motion & VKS_ROOT_MOTION_YAW);
        up += differs && !(inst[i].root_motion & VKS_ROOT_MOTION_YAW);
    }
    got_free(h);
    return moved;
}

int main(void)
{
    vks_gpu *gpu = gpu_check_context_opt(&(vks_gpu_options){0});
    vks_skin *a = gpu_check_character(2000, 32, 4, 12, 1), *b = gpu_check_character(900, 40, 2, 20, 3);
    if (!a || !b)
        return vks_test_finish("test_gpu_stream_crowd");
    CHECK(a->node_count <= MAXN && b->node_count <= MAXN && a->vertex_count <= MAXV && b->vertex_count <= MAXV);
    if (a->node_count > MAXN || b->node_count > MAXN || a->vertex_count > MAXV || b->vertex_count > MAXV)
        return vks_test_finish("test_gpu_stream_crowd");
    skins[0] = a, skins[1] = b;
    make_clips(a);
    vks_error err = {0};
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < CLIPS; c++)
            CHECK(vks_clip_bind(&clips[c], skins[m], &bind[m][c], &err) == VKS_OK);
    for (uint32_t i = 0; i < N; i++)
        make_instance(i, &inst[i]);
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 2, &ms, &err) == VKS_OK);
    const vks_clip *cp[CLIPS] = {&clips[0], &clips[1]};

    /* chunks of a, a, b: five chunks, the crowd re-aimed between them */
    got *g = got_new();
    vks_stream_desc d = {0};
    d.models = ms, d.skins = skins, d.model_count = 2;
    d.clips = cp, d.clip_count = CLIPS;
    d.instance_count = N;
    d.times = TIMES, d.frame_count = F;
    d.chunk_bytes = (uint64_t)(2 * a->vertex_count + b->vertex_count) * 24;
    d.layers = 1;
    d.deliver = take, d.user = g;
    d.instances = inst;
    vks_stream_stats st = {0};
    CHECK(vks_stream_run(gpu, &d, &st, &err) == VKS_OK);
    fprintf(stderr, "crowd instances: %u chunks, %llu frames (%s)\n", st.chunks, (unsigned long long)st.frames, err.msg);
    CHECK_EQ_INT(st.chunks, 5);
    CHECK(all_seen(g));
    CHECK(check_reference(g));
    CHECK(root_motion_moves(gpu, &d, g));

    fprintf(stderr, "the same bits from a callback with a ring of 3 in one chunk\n");
    got *h = got_new();
    vks_stream_desc e = d;
    e.ring = 3, e.chunk_bytes = 0, e.user = h;
    e.instances = NULL, e.get_instance = get_crowd_instance;
    CHECK(vks_stream_run(gpu, &e, &st, &err) == VKS_OK);
    CHECK_EQ_INT(st.chunks, 1);
    CHECK(all_seen(h) && same_bits(g, h));
    got_free(h);

    fprintf(stderr, "refused by their number in the stream: a model past the set, layers in a desc without "
                    "them, a clip past the clips, no instances\n");
    static vks_instance bad[N];
    memcpy(bad, inst, sizeof bad);
    e = d, e.instances = bad;
    bad[9].model = 2;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "instance 9: model 2 of 2") != NULL);
    err = (vks_error){0}; /* the first error is kept */
    bad[9] = inst[9], e.layers = 0;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "instance 3: 2 layers") != NULL);
    err = (vks_error){0};
    e = d, e.instances = bad, bad[2].clip = CLIPS;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "instance 2: clip 2 of 2") != NULL);
    err = (vks_error){0};
    e.instances = NULL, e.get_instance = NULL;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "no instances") != NULL);
    err = (vks_error){0};

    fprintf(stderr, "into a bake: model a's instances as RAW, from a list the bytes from a callback\n");
    uint32_t na = 0;
    for (uint32_t i = 0; i < N; i++)
        if (inst[i].model == 0)
            of_a[na++] = inst[i];
    const char *paths[2] = {"test_gpu_stream_crowd.raw", "test_gpu_stream_crowd_cb.raw"};
    uint8_t *bytes[2] = {NULL, NULL};
    size_t size[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        vks_bake *bake = NULL;
        CHECK(vks_bake_open(&bake, paths[k], VKS_BAKE_RAW, a, na, F, &err) == VKS_OK);
        e = d, e.instance_count = na, e.deliver = NULL, e.user = NULL;
        uint64_t memory = 3 * (uint64_t)F * a->vertex_count * 24; /* three instances a chunk */
        e.instances = k ? NULL : of_a, e.get_instance = k ? get_of_a : NULL;
        vks_result r = !bake ? VKS_ERR_INVALID : vks_stream_to_bake(gpu, &e, bake, memory, &st, &err);
        CHECK_EQ_INT(r, VKS_OK);
        CHECK_EQ_INT(st.chunks, (na + 2) / 3);
        CHECK(bake && vks_bake_close(bake, 1, &err) == VKS_OK);
        bytes[k] = vks_test_read_file(paths[k], &size[k]);
        remove(paths[k]);
    }
    CHECK(bytes[0] && size[0] == vks_bake_size_bound(VKS_BAKE_RAW, a, na, F));
    CHECK(bytes[0] && bytes[1] && size[0] == size[1] && !memcmp(bytes[0], bytes[1], size[0]));
    free(bytes[0]), free(bytes[1]);
    CHECK_EQ_INT(vks_gpu_validation_messages(gpu), 0);

    got_free(g);
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < CLIPS; c++)
            vks_clip_binding_free(&bind[m][c]);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_skin_free(a), vks_skin_free(b);
    return vks_test_finish("test_gpu_stream_crowd");
}
