/* The streaming engine (stream.h) with the validation layer on: every pose source (bind, host
 * locals changing per frame, procedural, clip) on two models with roots, in chunks whose
 * crowd is re-aimed (a slot that held host locals goes back to the bind pose), checked
 * against the CPU reference at every frame (two of them a crowd file's entries); deliveries come chunk by chunk, frame by frame,
 * each (instance, frame) once; the ring gives the very bits the synchronous crowd path gives
 * (vks_crowd_run_frame + vks_crowd_read), whatever its depth, the chunks, or whether
 * instances come as a list or a callback; a consumer's stop, bad descs, and a stream into a
 * bake; the same bits from a context that reads back in a submission of its own (the copy
 * engine's path); with desc.reduce, each delivery's GPU figures equal the host's recomputation
 * from the bytes delivered, over several chunks, rings, positions only and a crowd in parts. Exits 77 where
 * there is no Vulkan device. */
#include "crowd_check.h"
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/stream.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 20, F = 5, LF = 3, MAXV = 4096, MAXN = 64 }; /* MAXV: room for a generated character of ~2000 */

static const float TIMES[F] = {0, 0.4f, 1.3f, -0.7f, 3.1f};
static const vks_skin *skins[2];
static vks_instance inst[N];
static vks_affine host_locals[N][LF * MAXN]; /* frame f at f * node_count */
static float ROT[3][4], KT[3] = {0, 0.8f, 2};
static vks_track tracks[2];
static vks_clip clip;
static vks_clip_binding binding[2];

/* What a stream delivered: every (instance, frame), and the order it came in. */
typedef struct got {
    float *pos, *nrm; /* [instance][frame][vertex * 3], MAXV vertices a slot */
    uint8_t seen[N][F];
    uint32_t next_first, next_frame, calls;
    int order_ok, twice;
    uint32_t stop_after; /* nonzero: stop at that call */
} got;

static size_t at(uint32_t i, uint32_t f)
{
    return ((size_t)i * F + f) * MAXV * 3;
}

static int take(void *user, const vks_stream_delivery *d)
{
    got *g = user;
    g->calls++;
    /* chunk by chunk (first grows), frame by frame within a chunk */
    if (d->frame == 0 ? d->first != g->next_first : (d->first != g->next_first - d->count || d->frame != g->next_frame))
        g->order_ok = 0;
    if (d->frame == 0)
        g->next_first = d->first + d->count;
    g->next_frame = d->frame + 1;
    if (d->time != TIMES[d->frame])
        g->order_ok = 0;
    size_t off = 0;
    for (uint32_t k = 0; k < d->count; k++) {
        uint32_t i = d->first + k, v = skins[inst[i].model]->vertex_count;
        g->twice |= g->seen[i][d->frame]++;
        memcpy(g->pos + at(i, d->frame), d->positions + off, (size_t)v * 12);
        if (d->normals)
            memcpy(g->nrm + at(i, d->frame), d->normals + off, (size_t)v * 12);
        off += (size_t)v * 3;
    }
    return g->stop_after && g->calls == g->stop_after;
}

/* desc.reduce: each delivery's GPU figures against the host's recomputation from the very
 * bytes delivered (exact: sums, xor, non-finite count, extents); the normals' deviation, float
 * arithmetic on both sides, close. */
typedef struct figured {
    uint32_t calls, with, mismatches;
    int extent_ok;
} figured;

static int take_figures(void *user, const vks_stream_delivery *d)
{
    figured *fg = user;
    fg->calls++;
    if (!d->gpu_figures)
        return 0;
    fg->with++;
    size_t vertices = 0;
    for (uint32_t k = 0; k < d->count; k++)
        vertices += skins[inst[d->first + k].model]->vertex_count;
    vks_gpu_figures h;
    vks_gpu_figures_reset(&h);
    vks_gpu_figures_add(&h, d->positions, d->normals, vertices);
    const vks_gpu_figures *g = d->gpu_figures;
    int same = g->sum == h.sum && g->xor_words == h.xor_words && g->nonfinite == h.nonfinite;
    for (int k = 0; k < 3; k++) {
        same &= g->min_key[k] == h.min_key[k] && g->max_key[k] == h.max_key[k];
        fg->extent_ok &= vks_gpu_figures_float(g->min_key[k]) < vks_gpu_figures_float(g->max_key[k]);
    }
    if (d->normals)
        same &= fabsf(g->normal_deviation - vks_gpu_figures_normal_deviation(d->normals, vertices)) < 1e-5f;
    else
        same &= g->normal_deviation == 0;
    if (!same)
        fprintf(stderr, "delivery %u (instances %u+%u, frame %u): GPU sum 0x%08x xor 0x%08x, host 0x%08x 0x%08x\n",
                fg->calls, d->first, d->count, d->frame, g->sum, g->xor_words, h.sum, h.xor_words);
    fg->mismatches += !same;
    return 0;
}

/* desc.reduce: over the stream d (cut into `chunks` chunks), rings, one chunk, positions only,
 * and a crowd in parts (maxStorageBufferRange lowered: a chunk's outputs span buffers, reduced
 * by a dispatch each and merged), every delivery's figures are the host's from its bytes; a
 * stream that does not ask gets none. */
static void figures_hold(vks_gpu *gpu, const vks_stream_desc *d, uint32_t chunks)
{
    vks_stream_desc e;
    vks_stream_stats st = {0};
    vks_error err = {0};
    fprintf(stderr, "the GPU's figures per delivery (desc.reduce) equal the host's from the bytes delivered\n");
    struct {
        uint64_t chunk_bytes;
        uint32_t ring, calls;
        int no_normals;
    } fc[3] = {{d->chunk_bytes, 2, chunks * F, 0}, {0, 3, F, 0}, {1, 4, N * F, 1}};
    for (int k = 0; k < 3; k++) {
        figured fg = {.extent_ok = 1};
        e = *d, e.reduce = 1, e.deliver = take_figures, e.user = &fg;
        e.chunk_bytes = fc[k].chunk_bytes, e.ring = fc[k].ring, e.no_normals = fc[k].no_normals;
        CHECK(vks_stream_run(gpu, &e, &st, &err) == VKS_OK);
        fprintf(stderr, "  ring %u, %u chunks: %u of %u deliveries with figures, %u mismatched\n", fc[k].ring,
                st.chunks, fg.with, fg.calls, fg.mismatches);
        CHECK_EQ_INT(fg.calls, fc[k].calls);
        CHECK_EQ_INT(fg.with, fg.calls); /* lavapipe runs subgroup arithmetic: the pass runs */
        CHECK_EQ_INT(fg.mismatches, 0);
        CHECK(fg.extent_ok);
    }
    { /* a crowd in parts (maxStorageBufferRange lowered): a chunk's outputs span buffers */
        vks_gpu *parted = gpu_check_context_testing(&(vks_gpu_options){0},
                                                    &(vks_gpu_testing){.limit_storage_range = 256 << 10});
        vks_gpu_models *pm = NULL;
        CHECK(parted && vks_gpu_upload(parted, skins, 2, &pm, &err) == VKS_OK);
        figured fg = {.extent_ok = 1};
        e = *d, e.models = pm, e.reduce = 1, e.deliver = take_figures, e.user = &fg, e.chunk_bytes = 0;
        CHECK(pm && vks_stream_run(parted, &e, &st, &err) == VKS_OK);
        fprintf(stderr, "  in parts, %u chunk(s): %u of %u deliveries with figures, %u mismatched\n", st.chunks, fg.with,
                fg.calls, fg.mismatches);
        CHECK_EQ_INT(fg.calls, F);
        CHECK_EQ_INT(fg.with, F);
        CHECK_EQ_INT(fg.mismatches, 0);
        CHECK(fg.extent_ok);
        CHECK_EQ_INT(vks_gpu_validation_messages(parted), 0);
        vks_gpu_models_free(pm);
        vks_gpu_destroy(parted);
    }
    figured none = {.extent_ok = 1};
    e = *d, e.deliver = take_figures, e.user = &none; /* not asked: no figures */
    CHECK(vks_stream_run(gpu, &e, &st, &err) == VKS_OK);
    CHECK(none.calls == chunks * F && none.with == 0);
}

static void get_instance(void *user, uint32_t i, vks_instance *out)
{
    (void)user;
    *out = inst[i];
}

static got *got_new(void)
{
    got *g = calloc(1, sizeof *g);
    g->pos = calloc((size_t)N * F * MAXV * 3, sizeof *g->pos);
    g->nrm = calloc((size_t)N * F * MAXV * 3, sizeof *g->nrm);
    g->order_ok = 1;
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

/* The stream instance as a crowd instance and its locals, for the reference of crowd_check. */
static int check_reference(const got *g)
{
    int pass = 1;
    double worst = 0;
    vks_affine locals[MAXN];
    for (uint32_t i = 0; i < N; i++)
        for (uint32_t f = 0; f < F; f++) {
            const vks_instance *s = &inst[i];
            const vks_skin *skin = skins[s->model];
            vks_instance c = {0};
            c.model = s->model, c.root = s->root, c.pose = VKS_POSE_LOCALS;
            const vks_affine *lp = NULL; /* bind */
            if (s->pose == VKS_POSE_PROCEDURAL) {
                c.pose = VKS_POSE_PROCEDURAL;
                c.seed = s->seed, c.pose_instance = s->pose_instance, c.max_angle = s->max_angle;
            } else if (s->pose == VKS_POSE_LOCALS) {
                lp = host_locals[i] + (size_t)(f % LF) * skin->node_count;
            } else if (s->pose == VKS_POSE_CLIP) {
                vks_clip_play play = {&clip, &binding[s->model], s->clip_start, s->clip_speed, (int)s->clip_cycle};
                vks_clip_sample_locals_d(&clip, &binding[s->model], skin, vks_clip_play_time(&play, TIMES[f]), locals);
                lp = locals;
            }
            double w = 0;
            if (!crowd_check_instance(skin, &c, TIMES[f], lp, g->pos + at(i, f), g->nrm + at(i, f), &w)) {
                fprintf(stderr, "instance %u (pose %d) frame %u: off the reference (%.3g)\n", i, (int)s->pose, f, w);
                pass = 0;
            }
            worst = w > worst ? w : worst;
        }
    fprintf(stderr, "every pose source against the reference: worst %.3g of the scale\n", worst);
    return pass;
}

/* The same instances through one synchronous crowd per frame (vks_crowd_run_frame, then
 * vks_crowd_read): the bits the ring must give. */
static int matches_sync(vks_gpu *gpu, const vks_gpu_models *ms, const vks_gpu_clips *gc, const got *g)
{
    vks_instance c[N];
    for (uint32_t i = 0; i < N; i++) {
        const vks_instance *s = &inst[i];
        memset(&c[i], 0, sizeof c[i]);
        c[i].model = s->model, c[i].root = s->root, c[i].pose = VKS_POSE_LOCALS;
        if (s->pose == VKS_POSE_PROCEDURAL)
            c[i].pose = VKS_POSE_PROCEDURAL, c[i].seed = s->seed, c[i].pose_instance = s->pose_instance;
        if (s->pose == VKS_POSE_CLIP)
            c[i].pose = VKS_POSE_CLIP, c[i].clip = s->clip, c[i].clip_start = s->clip_start,
            c[i].clip_speed = s->clip_speed, c[i].clip_cycle = s->clip_cycle;
    }
    vks_error err = {0};
    vks_crowd *crowd = NULL;
    vks_crowd_desc d = {.models = ms, .instances = c, .instance_count = N, .clips = gc};
    if (vks_crowd_create(gpu, &d, &crowd, &err) != VKS_OK)
        return 0;
    float *pos = malloc((size_t)N * MAXV * 12), *nrm = malloc((size_t)N * MAXV * 12);
    int same = pos && nrm;
    for (uint32_t f = 0; same && f < F; f++) {
        for (uint32_t i = 0; i < N; i++)
            if (inst[i].pose == VKS_POSE_LOCALS)
                vks_crowd_set_locals(crowd, i, host_locals[i] + (size_t)(f % LF) * skins[inst[i].model]->node_count, &err);
        same = vks_crowd_run_frame(crowd, TIMES[f], NULL, &err) == VKS_OK &&
               vks_crowd_read(crowd, 0, N, pos, nrm, &err) == VKS_OK;
        size_t off = 0;
        for (uint32_t i = 0; same && i < N; i++) {
            size_t v = skins[inst[i].model]->vertex_count;
            same = !memcmp(pos + off, g->pos + at(i, f), v * 12) && !memcmp(nrm + off, g->nrm + at(i, f), v * 12);
            if (!same)
                fprintf(stderr, "instance %u frame %u: the ring's bits differ from the synchronous crowd's\n", i, f);
            off += v * 3;
        }
    }
    free(pos), free(nrm);
    vks_crowd_destroy(crowd);
    return same;
}

static int same_bits(const got *a, const got *b)
{
    size_t n = (size_t)N * F * MAXV * 3;
    return !memcmp(a->pos, b->pos, n * sizeof(float)) && !memcmp(a->nrm, b->nrm, n * sizeof(float));
}

/* Two instances from a crowd file (crowd_file.h) through vks_crowd_spec_instance: one playing
 * the clip mirrored at its own start and speed with a root, one without a clip (the bind pose),
 * with the cycle the entry leaves to the clip; an entry whose clip the host did not load is
 * refused, named by its line. */
static int crowd_instances(void)
{
    static const char csv[] = "clip,start,speed,cycle,tx\nsway.anm,0.3,1.5,mirror,2\n,,,,1\nsway.anm,,,,\n";
    vks_crowd_spec *spec = NULL;
    vks_error err = {0};
    if (vks_crowd_file_parse(csv, sizeof csv - 1, "street.csv", &spec, &err) != VKS_OK) {
        fprintf(stderr, "crowd: %s\n", err.msg);
        return 0;
    }
    int ok = spec->instance_count == 3;
    const int32_t clip0[1] = {0}, unloaded[1] = {-1};
    const vks_cycle loop[1] = {VKS_CYCLE_LOOP}, clamp[1] = {VKS_CYCLE_CLAMP};
    for (uint32_t k = 0; ok && k < 2; k++) {
        uint32_t i = 16 + k;
        vks_crowd_binding b = {NULL, inst[i].model, NULL, clip0, loop, NULL};
        ok = vks_crowd_spec_instance(spec, k, &b, &inst[i], &err) == VKS_OK;
    }
    vks_instance own;
    vks_crowd_binding b = {NULL, 1, NULL, clip0, clamp, NULL};
    ok = ok && vks_crowd_spec_instance(spec, 2, &b, &own, &err) == VKS_OK;
    b.clips = unloaded;
    ok = ok && vks_crowd_spec_instance(spec, 2, &b, &own, &err) == VKS_ERR_INVALID &&
         strstr(err.msg, "street.csv:4") != NULL;
    b.clips = clip0;
    ok = ok && vks_crowd_spec_instance(spec, 2, &b, &own, &err) == VKS_OK;
    ok = ok && inst[16].pose == VKS_POSE_CLIP && inst[16].clip_cycle == VKS_CYCLE_MIRROR &&
         inst[16].clip_start == 0.3f && inst[16].clip_speed == 1.5f && inst[16].root.m[9] == 2.0f &&
         inst[17].pose == VKS_POSE_BIND && inst[17].root.m[9] == 1.0f && own.clip_cycle == VKS_CYCLE_CLAMP &&
         own.model == 1 && own.clip_speed == 1.0f;
    vks_crowd_spec_free(spec);
    return ok;
}

static void make_instances(void)
{
    for (int k = 0; k < 3; k++) {
        float ang = 0.6f * (float)k - 0.4f, s = sinf(ang / 2);
        ROT[k][0] = 0.3f * s, ROT[k][1] = 0.9539392f * s, ROT[k][2] = 0, ROT[k][3] = cosf(ang / 2);
    }
    for (int t = 0; t < 2; t++) {
        tracks[t].node_name = skins[0]->nodes[1 + t * 7].name;
        tracks[t].rotation.key_count = 3, tracks[t].rotation.components = 4;
        tracks[t].rotation.interp = VKS_INTERP_LINEAR;
        tracks[t].rotation.times = KT, tracks[t].rotation.values = ROT[0];
    }
    clip = (vks_clip){.name = "sway", .duration = 2, .tracks = tracks, .track_count = 2, .root_track = -1};
    for (uint32_t i = 0; i < N; i++) {
        vks_instance *s = &inst[i];
        memset(s, 0, sizeof *s);
        s->model = i % 3 == 2; /* a, a, b: chunks of three whose crowd is re-aimed */
        static const vks_pose_kind kinds[4] = {VKS_POSE_BIND, VKS_POSE_LOCALS, VKS_POSE_PROCEDURAL, VKS_POSE_CLIP};
        s->pose = kinds[i % 4];
        if (i % 5 == 1) {
            float t[3] = {0.5f * (float)i, 0, -1}, q[4] = {0, 0.2588190f, 0, 0.9659258f}, sc[3] = {1, 1, 1};
            s->root = vks_affine_from_trs(t, q, sc);
        }
        const vks_skin *skin = skins[s->model];
        for (uint32_t f = 0; f < LF; f++)
            vks_pose_procedural(skin, 99, i, 0.3f * (float)f + 0.1f, 0.8f, host_locals[i] + (size_t)f * skin->node_count);
        s->locals = host_locals[i], s->locals_frames = LF;
        s->seed = 7, s->pose_instance = i;
        s->clip = 0, s->clip_start = 0.1f * (float)i, s->clip_speed = i % 3 ? 1.0f : -0.5f;
        s->clip_cycle = (vks_cycle)(i % 4);
    }
}

/* The readback in a submission of its own (a copy engine's queue where the device has one;
 * VKSKIN_TEST_SEPARATE_READBACK takes that path on lavapipe's one queue): a second context with
 * the other setting streams desc d (its models uploaded again there) and must deliver the very
 * bits g holds, with one submission more a frame (the copy's, waiting on the compute's
 * semaphore) on the context that reads back apart. A device with a copy engine reads back
 * apart in either setting: there both contexts make as many submissions. gpu made g. */
static void readback_apart(vks_gpu *gpu, const vks_stream_desc *d, const got *g, uint64_t submissions)
{
    int apart_first = gpu_check_reads_back_apart(gpu);
    const char *was = getenv("VKSKIN_TEST_SEPARATE_READBACK");
    int apart_here = was && *was && strcmp(was, "0") != 0;
    char saved[16] = "";
    if (was)
        snprintf(saved, sizeof saved, "%s", was);
    if (apart_here)
        unsetenv("VKSKIN_TEST_SEPARATE_READBACK");
    else
        setenv("VKSKIN_TEST_SEPARATE_READBACK", "1", 1);
    vks_gpu *other = gpu_check_context_opt(&(vks_gpu_options){0});
    int apart_other = gpu_check_reads_back_apart(other);
    if (*saved)
        setenv("VKSKIN_TEST_SEPARATE_READBACK", saved, 1);
    else
        unsetenv("VKSKIN_TEST_SEPARATE_READBACK");
    /* the setting can only add a way apart: the variable set, the context reads back apart */
    CHECK(apart_here ? apart_first : apart_other);
    /* in the context's own family the copies go to the context's own queue (lavapipe's one) */
    const vks_gpu_device_info *di = vks_gpu_device(other);
    CHECK(di->readback_family < di->queue_family_count);
    if (di->readback_family == di->queue_family)
        CHECK_EQ_INT(di->readback_queue_index, di->queue_index);
    vks_error err = {0};
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(other, skins, 2, &ms, &err) == VKS_OK);
    got *h = got_new();
    vks_stream_desc e = *d;
    e.models = ms, e.user = h;
    vks_gpu_counters c0, c1;
    vks_gpu_get_counters(other, &c0);
    vks_stream_stats st = {0};
    CHECK(vks_stream_run(other, &e, &st, &err) == VKS_OK);
    vks_gpu_get_counters(other, &c1);
    uint64_t here = c1.submissions - c0.submissions;
    fprintf(stderr, "readback %s: %llu submissions for %llu frames, %s: %llu%s\n", apart_here ? "apart" : "in one",
            (unsigned long long)submissions, (unsigned long long)st.frames, apart_here ? "in one" : "apart",
            (unsigned long long)here,
            apart_first && apart_other ? " (this device reads back apart in either setting)" : "");
    CHECK_EQ_INT((long long)(here - submissions), (long long)st.frames * (apart_other - apart_first));
    CHECK(h->order_ok && all_seen(h));
    CHECK(same_bits(g, h));
    CHECK_EQ_INT(vks_gpu_validation_messages(other), 0);
    got_free(h);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(other);
}

int main(void)
{
    vks_gpu *gpu = gpu_check_context_opt(&(vks_gpu_options){0});
    vks_skin *a = gpu_check_character(2000, 32, 4, 12, 1), *b = gpu_check_character(900, 40, 2, 20, 3);
    if (!a || !b)
        return vks_test_finish("test_gpu_stream");
    CHECK(a->node_count <= MAXN && b->node_count <= MAXN && a->vertex_count <= MAXV && b->vertex_count <= MAXV);
    if (a->vertex_count > MAXV || b->vertex_count > MAXV)
        return vks_test_finish("test_gpu_stream");
    skins[0] = a, skins[1] = b;
    make_instances();
    CHECK(crowd_instances());
    vks_error err = {0};
    for (int m = 0; m < 2; m++)
        CHECK(vks_clip_bind(&clip, skins[m], &binding[m], &err) == VKS_OK);
    vks_gpu_models *ms = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 2, &ms, &err) == VKS_OK);
    const vks_clip *clips[1] = {&clip};

    /* chunks of a, a, b (their bytes for a frame): seven chunks, the crowd re-aimed six times */
    got *g = got_new();
    vks_stream_desc d = {0};
    d.models = ms, d.skins = skins, d.model_count = 2;
    d.clips = clips, d.clip_count = 1;
    d.instances = inst, d.instance_count = N;
    d.times = TIMES, d.frame_count = F;
    d.chunk_bytes = (uint64_t)(2 * a->vertex_count + b->vertex_count) * 24;
    d.deliver = take, d.user = g;
    vks_stream_stats st = {0};
    vks_gpu_counters c0, c1;
    vks_gpu_get_counters(gpu, &c0);
    CHECK(vks_stream_run(gpu, &d, &st, &err) == VKS_OK);
    vks_gpu_get_counters(gpu, &c1);
    fprintf(stderr, "ring 2: %u chunks, %llu frames, %u calls (%s)\n", st.chunks, (unsigned long long)st.frames,
            g->calls, err.msg);
    CHECK_EQ_INT(st.chunks, 7);
    CHECK_EQ_INT(g->calls, 7 * F);
    CHECK(g->order_ok);
    CHECK(all_seen(g));
    CHECK(check_reference(g));

    vks_gpu_clips *gc = NULL;
    CHECK(vks_gpu_upload_clips(gpu, ms, skins, clips, 1, &gc, &err) == VKS_OK);
    CHECK(matches_sync(gpu, ms, gc, g));
    readback_apart(gpu, &d, g, c1.submissions - c0.submissions);

    fprintf(stderr, "the same bits from a ring of 3, one chunk, instances by callback, uploaded clips\n");
    got *h = got_new();
    vks_stream_desc e = d;
    e.ring = 3, e.chunk_bytes = 0, e.instances = NULL, e.get_instance = get_instance, e.user = h;
    e.clips = NULL, e.clip_count = 0, e.gpu_clips = gc;
    CHECK(vks_stream_run(gpu, &e, &st, &err) == VKS_OK);
    CHECK_EQ_INT(st.chunks, 1);
    CHECK(h->order_ok && all_seen(h));
    CHECK(same_bits(g, h));
    got_free(h);

    fprintf(stderr, "a ring of 8 with one instance a chunk\n");
    h = got_new();
    e = d, e.ring = 8, e.chunk_bytes = 1, e.user = h;
    CHECK(vks_stream_run(gpu, &e, &st, &err) == VKS_OK);
    CHECK_EQ_INT(st.chunks, N);
    CHECK(h->order_ok && all_seen(h));
    CHECK(same_bits(g, h));
    got_free(h);

    fprintf(stderr, "positions only\n");
    h = got_new();
    e = d, e.no_normals = 1, e.user = h;
    CHECK(vks_stream_run(gpu, &e, &st, &err) == VKS_OK);
    CHECK(all_seen(h));
    CHECK(!memcmp(g->pos, h->pos, (size_t)N * F * MAXV * 12));
    got_free(h);

    figures_hold(gpu, &d, 7);

    fprintf(stderr, "the consumer stops the stream\n");
    h = got_new();
    e = d, e.user = h, h->stop_after = 3;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, &st, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "consumer") != NULL);
    CHECK_EQ_INT(h->calls, 3);
    got_free(h);

    fprintf(stderr, "refused: a model past the set, a clip without clips, no callback, a ring of 9\n");
    vks_instance bad[1] = {inst[3]};
    e = d, e.instances = bad, e.instance_count = 1;
    bad[0].model = 2;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);
    bad[0] = inst[3], e.clips = NULL, e.clip_count = 0;
    err = (vks_error){0}; /* the first error is kept */
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "clip") != NULL);
    e = d, e.deliver = NULL;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);
    e = d, e.ring = 9;
    CHECK_EQ_INT(vks_stream_run(gpu, &e, NULL, &err), VKS_ERR_INVALID);

    err = (vks_error){0};
    fprintf(stderr, "into a bake: the instances of model a, as RAW, held and written instance by instance\n");
    vks_instance of_a[N];
    uint32_t na = 0;
    for (uint32_t i = 0; i < N; i++)
        if (inst[i].model == 0)
            of_a[na++] = inst[i];
    const char *path = "test_gpu_stream.raw";
    vks_bake *bake = NULL;
    CHECK(vks_bake_open(&bake, path, VKS_BAKE_RAW, a, na, F, &err) == VKS_OK);
    e = d, e.instances = of_a, e.instance_count = na, e.deliver = NULL, e.user = NULL;
    CHECK(bake && vks_stream_to_bake(gpu, &e, bake, 3 * (uint64_t)F * a->vertex_count * 24, &st, &err) == VKS_OK);
    CHECK_EQ_INT(st.chunks, (na + 2) / 3);
    CHECK(bake && vks_bake_close(bake, 1, &err) == VKS_OK);
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(path, &size);
    CHECK(bytes && size == vks_bake_size_bound(VKS_BAKE_RAW, a, na, F));
    free(bytes);
    remove(path);

    got_free(g);
    vks_gpu_clips_free(gc);
    for (int m = 0; m < 2; m++)
        vks_clip_binding_free(&binding[m]);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    vks_skin_free(a), vks_skin_free(b);
    return vks_test_finish("test_gpu_stream");
}
