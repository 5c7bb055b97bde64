/* vks_cskla_write against the reader:
 *   - every segment type round-trips key for key: step, linear and Hermite translation,
 *     scale and Euler curves come back with the same interpolation, key count, times and
 *     values, so the clip plays the same (locals to float precision);
 *   - quaternion rotations (slerp, Hermite, stepped) and B-splines come back as Euler curves
 *     (Hermite at every frame and at their keys; stepped key by key) and play within 1e-4;
 *   - LOOP / CLAMP / MIRROR cycles, clip names and the frame rate round-trip;
 *   - on a .cmdl model: the generated character written by vks_cmdl_write and read back, the
 *     clip written against that model and played on it, every node's world transform
 *     against the authored clip on the generated skin;
 *   - every prefix of the written files fails with one line naming the line, column and
 *     element (only the trailing newline may go);
 *   - the writer's refusals (delta clips, names a Path cannot hold, a clip binding nothing). */
#include "character.h"
#include "testutil.h"

#include <math.h>
#include <string.h>

static vks_skin *gen_skin(void)
{
    vks_gen_params p = {0};
    p.vertices = 600;
    p.palette_limit = 20;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    return s;
}

static float *floats(vks_clip_set *set, size_t n, const float *v)
{
    float *f = vks_clip_set_alloc(set, n, sizeof *f);
    memcpy(f, v, n * sizeof *f);
    return f;
}

static vks_curve curve(vks_clip_set *set, vks_interp interp, uint32_t dim, uint32_t n, const float *t, const float *v,
                       const float *tin, const float *tout)
{
    vks_curve c = {n, dim, interp, t ? floats(set, n, t) : NULL, floats(set, (size_t)n * dim, v), NULL, NULL, 0, 0};
    if (tin)
        c.in_tangents = floats(set, (size_t)n * dim, tin), c.out_tangents = floats(set, (size_t)n * dim, tout);
    return c;
}

static void axis_quat(double ax, double ay, double az, double angle, float *q)
{
    double l = sqrt(ax * ax + ay * ay + az * az), s = sin(angle / 2) / l;
    q[0] = (float)(ax * s), q[1] = (float)(ay * s), q[2] = (float)(az * s), q[3] = (float)cos(angle / 2);
}

/* Three clips on nodes 1..5 of the skin, every kind of key. */
static vks_clip_set *make_clips(const vks_skin *s)
{
    vks_clip_set *set = vks_clip_set_create(NULL);
    set->clips = vks_clip_set_alloc(set, 3, sizeof *set->clips);
    set->clip_count = 3;
    set->format = "test";
    const char *names[3] = {"keyed", "resampled", "clamped"};
    const float durations[3] = {1.0f, 2.0f, 0.5f};
    const vks_cycle cycles[3] = {VKS_CYCLE_LOOP, VKS_CYCLE_MIRROR, VKS_CYCLE_CLAMP};
    for (int c = 0; c < 3; c++) {
        vks_clip *cl = &set->clips[c];
        cl->name = names[c];
        cl->duration = durations[c];
        cl->cycle = cycles[c];
        cl->root_track = -1;
        cl->tracks = vks_clip_set_alloc(set, 4, sizeof *cl->tracks);
    }
    /* keyed: linear and step translation/scale, Hermite Euler with an empty angle, linear
       Euler, Hermite translation, a one-key scale */
    vks_clip *k = &set->clips[0];
    vks_track *tr = k->tracks;
    static const float t3[3] = {0, 0.4f, 1.0f}, t2[2] = {0, 0.5f};
    static const float lin[9] = {0, 1, 0, 0.5f, 1.2f, 0, 0, 1, 0.25f};
    static const float step[6] = {1, 1, 1, 1.5f, 1, 0.5f};
    tr[0].node_name = s->nodes[1].name;
    tr[0].translation = curve(set, VKS_INTERP_LINEAR, 3, 3, t3, lin, NULL, NULL);
    tr[0].scale = curve(set, VKS_INTERP_STEP, 3, 2, t2, step, NULL, NULL);
    static const float ex[3] = {0, 0.6f, -0.2f}, exi[3] = {0.5f, -1, 2}, exo[3] = {1, 0.25f, 0};
    static const float ey[2] = {0.1f, -0.3f};
    tr[1].node_name = s->nodes[2].name;
    tr[1].euler[0] = curve(set, VKS_INTERP_HERMITE, 1, 3, t3, ex, exi, exo);
    tr[1].euler[1] = curve(set, VKS_INTERP_LINEAR, 1, 2, t2, ey, NULL, NULL);
    static const float ht[9] = {0, 0.2f, 0, 0.1f, 0.25f, 0, 0, 0.2f, 0}, hi[9] = {0, 0, 0, 0.3f, 0.1f, 0, -1, 0, 0},
                       ho[9] = {0.2f, 0, 0, 0.3f, -0.1f, 0, 0, 0, 0};
    static const float one_s[3] = {1.1f, 0.9f, 1};
    tr[2].node_name = s->nodes[3].name;
    tr[2].translation = curve(set, VKS_INTERP_HERMITE, 3, 3, t3, ht, hi, ho);
    tr[2].scale = curve(set, VKS_INTERP_LINEAR, 3, 1, t2, one_s, NULL, NULL);
    /* a stepped Euler angle */
    static const float ez[2] = {0, 0.7f};
    tr[3].node_name = s->nodes[4].name;
    tr[3].euler[2] = curve(set, VKS_INTERP_STEP, 1, 2, t2, ez, NULL, NULL);
    k->track_count = 4;

    /* resampled: slerped, Hermite and stepped quaternions, a B-spline translation */
    vks_clip *r = &set->clips[1];
    tr = r->tracks;
    float q[5 * 4], qt[5] = {0, 0.5f, 1, 1.5f, 2}, qi[5 * 4] = {0}, qo[5 * 4] = {0};
    for (int i = 0; i < 5; i++)
        axis_quat(1, 0.3, 0.2, 0.8 * sin(i * 1.3), q + 4 * i);
    tr[0].node_name = s->nodes[1].name;
    tr[0].rotation = curve(set, VKS_INTERP_LINEAR, 4, 5, qt, q, NULL, NULL);
    for (int i = 0; i < 5; i++)
        axis_quat(0, 1, 0.1, 0.5 * cos(i), q + 4 * i), qi[4 * i + 1] = qo[4 * i + 1] = 0.2f;
    tr[1].node_name = s->nodes[2].name;
    tr[1].rotation = curve(set, VKS_INTERP_HERMITE, 4, 5, qt, q, qi, qo);
    for (int i = 0; i < 3; i++)
        axis_quat(0.2, 0, 1, 0.4 * i - 0.3, q + 4 * i);
    static const float st[3] = {0, 0.7f, 1.3f};
    tr[2].node_name = s->nodes[3].name;
    tr[2].rotation = curve(set, VKS_INTERP_STEP, 4, 3, st, q, NULL, NULL);
    float bs[6 * 3];
    for (int i = 0; i < 18; i++)
        bs[i] = (float)(0.1 * sin(i * 0.7));
    tr[3].node_name = s->nodes[4].name;
    tr[3].translation = curve(set, VKS_INTERP_BSPLINE, 3, 6, NULL, bs, NULL, NULL);
    tr[3].translation.start = 0, tr[3].translation.stop = 2;
    r->track_count = 4;

    /* clamped: a B-spline quaternion */
    vks_clip *cl = &set->clips[2];
    float bq[5 * 4];
    for (int i = 0; i < 5; i++)
        axis_quat(0, 0, 1, 0.3 * i, bq + 4 * i);
    cl->tracks[0].node_name = s->nodes[5].name;
    cl->tracks[0].rotation = curve(set, VKS_INTERP_BSPLINE, 4, 5, NULL, bq, NULL, NULL);
    cl->tracks[0].rotation.start = 0, cl->tracks[0].rotation.stop = 0.5f;
    /* and a B-spline Euler angle (the others of its track written as one-key 0 curves) */
    static const float be[5] = {0, 0.2f, -0.1f, 0.3f, 0.25f};
    cl->tracks[1].node_name = s->nodes[6].name;
    cl->tracks[1].euler[1] = curve(set, VKS_INTERP_BSPLINE, 1, 5, NULL, be, NULL, NULL);
    cl->tracks[1].euler[1].start = 0, cl->tracks[1].euler[1].stop = 0.5f;
    cl->track_count = 2;
    vks_error err = {0};
    CHECK(vks_clip_set_validate(set, &err) == VKS_OK);
    return set;
}

static vks_clip_set *read_back(const uint8_t *bytes, size_t size, float fps)
{
    vks_read_options opt = {0};
    opt.clip.fps = fps;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (vks_cskla_read(&opt, bytes, size, &set, &err) != VKS_OK) {
        fprintf(stderr, "read back: %s: %s\n", err.path, err.msg);
        vks_test_failures++;
        return NULL;
    }
    return set;
}

/* Largest difference of the locals the two clips give the skin, at the keys' float times
   and between them. */
static double play_diff(const vks_skin *s, const vks_clip *a, const vks_clip *b)
{
    vks_clip_binding ba, bb;
    vks_error err = {0};
    CHECK(vks_clip_bind(a, s, &ba, &err) == VKS_OK && vks_clip_bind(b, s, &bb, &err) == VKS_OK);
    vks_affine *la = calloc(s->node_count, sizeof *la), *lb = calloc(s->node_count, sizeof *lb);
    double worst = 0;
    for (int i = 0; i <= 240; i++) {
        double t = a->duration * i / 240.0;
        vks_clip_sample_locals_d(a, &ba, s, t, la);
        vks_clip_sample_locals_d(b, &bb, s, t, lb);
        for (uint32_t n = 0; n < s->node_count; n++)
            for (int m = 0; m < 12; m++)
                worst = fmax(worst, fabs((double)la[n].m[m] - lb[n].m[m]));
    }
    free(la), free(lb);
    vks_clip_binding_free(&ba);
    vks_clip_binding_free(&bb);
    return worst;
}

static const vks_track *find_track(const vks_clip *c, const char *name)
{
    for (uint32_t t = 0; t < c->track_count; t++)
        if (!strcmp(c->tracks[t].node_name, name))
            return &c->tracks[t];
    return NULL;
}

static void same_curve(const vks_curve *a, const vks_curve *b, const char *what)
{
    CHECK_EQ_INT(a->key_count, b->key_count);
    CHECK_EQ_INT(a->interp, b->interp);
    if (a->key_count != b->key_count || a->interp != b->interp) {
        fprintf(stderr, "  (%s)\n", what);
        return;
    }
    size_t n = (size_t)a->key_count * a->components, dim = a->components;
    for (uint32_t k = 0; k < a->key_count; k++)
        CHECK(a->times[k] == b->times[k]);
    for (size_t i = 0; i < n; i++) {
        CHECK(a->values[i] == b->values[i]);
        /* the first key's in and the last key's out tangent play no part (the sampler holds
           outside the keys): the reader makes them the held side's */
        if (a->interp == VKS_INTERP_HERMITE && i >= dim)
            CHECK_NEAR(a->in_tangents[i], b->in_tangents[i], 1e-6 * fabs(a->in_tangents[i]));
        if (a->interp == VKS_INTERP_HERMITE && i < n - dim)
            CHECK_NEAR(a->out_tangents[i], b->out_tangents[i], 1e-6 * fabs(a->out_tangents[i]));
    }
}

/* A one-line error naming a line, a column and an element, for every prefix that cuts the
   document before its root's end tag; the prefixes after it (the newline) read. */
static void truncations(const uint8_t *bytes, size_t size, float fps, size_t stride, const char *label)
{
    vks_read_options opt = {0};
    opt.clip.fps = fps;
    const char *end_tag = "</NintendoWareIntermediateFile>";
    const uint8_t *root_end = NULL;
    for (size_t i = 0; i + strlen(end_tag) <= size; i++)
        if (!memcmp(bytes + i, end_tag, strlen(end_tag)))
            root_end = bytes + i + strlen(end_tag);
    CHECK(root_end != NULL);
    size_t complete = root_end ? (size_t)(root_end - bytes) : size;
    int bad = 0;
    for (size_t n = 0; n <= size; n += n + stride < complete || n >= complete ? stride : 1) {
        uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees any read past the end */
        memcpy(copy, bytes, n);
        vks_clip_set *set = NULL;
        vks_error err = {0};
        vks_result r = vks_cskla_read(&opt, copy, n, &set, &err);
        free(copy);
        if (n >= complete) {
            if (r != VKS_OK)
                bad++, fprintf(stderr, "%s: whole document (%zu of %zu bytes) refused: %s\n", label, n, size, err.msg);
            vks_clip_set_free(set);
            continue;
        }
        if (r == VKS_OK) {
            bad++;
            fprintf(stderr, "%s: prefix %zu accepted\n", label, n);
            vks_clip_set_free(set);
            continue;
        }
        if (set || !strstr(err.msg, "line ") || !strstr(err.msg, "column ") || strchr(err.msg, '\n') ||
            (n > 60 && !err.path[0]))
            bad++, fprintf(stderr, "%s: prefix %zu: \"%s\" at \"%s\"\n", label, n, err.msg, err.path);
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_roundtrip(void)
{
    vks_skin *s = gen_skin();
    if (!s)
        return;
    vks_clip_set *set = make_clips(s);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    CHECK(vks_cskla_write(set, s, NULL, &bytes, &size, &err) == VKS_OK);
    if (!bytes) {
        fprintf(stderr, "write: %s\n", err.msg);
        return;
    }
    char *text = malloc(size + 1);
    memcpy(text, bytes, size);
    text[size] = 0;
    CHECK(strstr(text, "<StepFloatSegment>") && strstr(text, "<LinearFloatSegment>") &&
          strstr(text, "<HermiteFloatSegment>"));
    CHECK(strstr(text, "PostRepeatMethod=\"Mirror\"") && strstr(text, "LoopMode=\"OneTime\""));
    CHECK(vks_detect_clip_format(bytes, size, NULL, NULL) == vks_cskla_read);
    free(text);
    truncations(bytes, size, 30, 97, "written (every 97th prefix)");
    vks_clip_set *back = read_back(bytes, size, 30);
    if (back) {
        CHECK_EQ_INT(back->clip_count, 3);
        for (uint32_t c = 0; c < 3 && c < back->clip_count; c++) {
            const vks_clip *a = &set->clips[c], *b = &back->clips[c];
            CHECK(!strcmp(a->name, b->name));
            CHECK_EQ_INT(a->cycle, b->cycle);
            CHECK_NEAR(a->duration, b->duration, 0);
            CHECK_NEAR(b->fps, 30, 0);
            double d = play_diff(s, a, b);
            fprintf(stderr, "  clip \"%s\": largest local difference %.3g\n", a->name, d);
            CHECK(d <= (c == 0 ? 2e-6 : 1e-4));
        }
        /* keyed curves come back key for key */
        const vks_clip *a = &set->clips[0], *b = &back->clips[0];
        const vks_track *t1 = find_track(b, s->nodes[1].name), *t2 = find_track(b, s->nodes[2].name),
                        *t3 = find_track(b, s->nodes[3].name), *t4 = find_track(b, s->nodes[4].name);
        CHECK(t1 && t2 && t3 && t4);
        if (t1 && t2 && t3 && t4) {
            same_curve(&a->tracks[0].translation, &t1->translation, "linear translation");
            same_curve(&a->tracks[0].scale, &t1->scale, "step scale");
            same_curve(&a->tracks[1].euler[0], &t2->euler[0], "Hermite euler");
            same_curve(&a->tracks[1].euler[1], &t2->euler[1], "linear euler");
            CHECK_EQ_INT(t2->euler[2].key_count, 1); /* the empty angle: a one-key 0 */
            same_curve(&a->tracks[2].translation, &t3->translation, "Hermite translation");
            same_curve(&a->tracks[3].euler[2], &t4->euler[2], "step euler");
        }
        /* a stepped quaternion: step Euler keys, one per key */
        const vks_track *q = find_track(&back->clips[1], s->nodes[3].name);
        CHECK(q && q->euler[0].interp == VKS_INTERP_STEP && q->euler[0].key_count == 3);
    }
    vks_clip_set_free(back);
    free(bytes);

    /* at 24 fps (the first clip's rate): frames are time x 24; the reader needs 24 */
    set->clips[0].fps = 24;
    CHECK(vks_cskla_write(set, s, NULL, &bytes, &size, &err) == VKS_OK);
    back = bytes ? read_back(bytes, size, 24) : NULL;
    if (back)
        CHECK(play_diff(s, &set->clips[0], &back->clips[0]) <= 2e-6);
    vks_clip_set_free(back);
    free(bytes);
    /* opt->frames: the resampling grid */
    vks_clip_write_options o = {0};
    o.frames = 5;
    set->clips[0].fps = 0;
    CHECK(vks_cskla_write(set, s, &o, &bytes, &size, &err) == VKS_OK);
    back = bytes ? read_back(bytes, size, 30) : NULL;
    if (back) {
        const vks_track *t = find_track(&back->clips[2], s->nodes[5].name);
        CHECK(t && t->euler[2].key_count == 5); /* x and y stay 0: one key each */
    }
    vks_clip_set_free(back);
    free(bytes);
    vks_clip_set_free(set);
    vks_skin_free(s);
}

/* World transforms of every node of b posed by cb against the node of a with its name posed
   by ca, at 61 times. */
static double world_diff(const vks_skin *sa, const vks_clip *ca, const vks_skin *sb, const vks_clip *cb)
{
    vks_clip_binding ba, bb;
    vks_error err = {0};
    CHECK(vks_clip_bind(ca, sa, &ba, &err) == VKS_OK && vks_clip_bind(cb, sb, &bb, &err) == VKS_OK);
    vks_affine *la = calloc(sa->node_count, sizeof *la), *lb = calloc(sb->node_count, sizeof *lb);
    vks_affine_d *wa = calloc(sa->node_count, sizeof *wa), *wb = calloc(sb->node_count, sizeof *wb);
    double worst = 0;
    uint32_t matched = 0;
    for (int i = 0; i <= 60; i++) {
        double t = ca->duration * i / 60.0;
        vks_clip_sample_locals_d(ca, &ba, sa, t, la);
        vks_clip_sample_locals_d(cb, &bb, sb, t, lb);
        vks_cpu_world_d(sa, la, wa);
        vks_cpu_world_d(sb, lb, wb);
        for (uint32_t n = 0; n < sb->node_count; n++) {
            int32_t m = vks_skin_find_node(sa, sb->nodes[n].name);
            if (m < 0)
                continue;
            matched += i == 0;
            for (int k = 0; k < 12; k++)
                worst = fmax(worst, fabs(wa[m].m[k] - wb[n].m[k]));
        }
    }
    CHECK_EQ_INT(matched, sa->node_count);
    free(la), free(lb), free(wa), free(wb);
    vks_clip_binding_free(&ba);
    vks_clip_binding_free(&bb);
    return worst;
}

/* The generated character as a .cmdl (written, read back: NW4C's own layout) and the clips
   written against that model: they pose it as the authored clips pose the generated skin. */
static void test_on_cmdl(void)
{
    vks_skin *s = gen_skin();
    if (!s)
        return;
    uint8_t *mb = NULL, *cb = NULL;
    size_t ms = 0, cs = 0;
    vks_write_options wo = {0};
    vks_error err = {0};
    vks_skin *model = NULL;
    CHECK(vks_cmdl_write(s, &wo, &mb, &ms, &err) == VKS_OK);
    CHECK(mb && vks_cmdl_read(NULL, mb, ms, &model, &err) == VKS_OK);
    vks_clip_set *set = make_clips(s);
    CHECK(model && vks_cskla_write(set, model, NULL, &cb, &cs, &err) == VKS_OK);
    vks_clip_set *back = cb ? read_back(cb, cs, 30) : NULL;
    for (uint32_t c = 0; back && c < back->clip_count; c++) {
        double d = world_diff(s, &set->clips[c], model, &back->clips[c]);
        fprintf(stderr, "  on the .cmdl model, clip \"%s\": largest world difference %.3g\n", set->clips[c].name, d);
        CHECK(d <= 2e-4);
    }
    vks_clip_set_free(back);
    vks_clip_set_free(set);
    free(mb), free(cb);
    vks_skin_free(model);
    vks_skin_free(s);
}

static void test_refusals(void)
{
    vks_skin *s = gen_skin();
    if (!s)
        return;
    vks_clip_set *set = make_clips(s);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    CHECK_EQ_INT(vks_cskla_write(NULL, s, NULL, &bytes, &size, &err), VKS_ERR_INVALID);
    set->clips[1].space = VKS_CLIP_MODEL_DELTA;
    err = (vks_error){0};
    CHECK_EQ_INT(vks_cskla_write(set, s, NULL, &bytes, &size, &err), VKS_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "deltas") != NULL);
    set->clips[1].space = VKS_CLIP_LOCAL;
    const char *keep = s->nodes[2].name;
    s->nodes[2].name = s->nodes[3].name;
    err = (vks_error){0};
    CHECK_EQ_INT(vks_cskla_write(set, s, NULL, &bytes, &size, &err), VKS_ERR_UNSUPPORTED);
    CHECK(strstr(err.msg, "twice") != NULL);
    s->nodes[2].name = "a\"b";
    err = (vks_error){0};
    CHECK_EQ_INT(vks_cskla_write(set, s, NULL, &bytes, &size, &err), VKS_ERR_UNSUPPORTED);
    s->nodes[2].name = keep;
    for (uint32_t t = 0; t < set->clips[2].track_count; t++)
        set->clips[2].tracks[t].node_name = "nobody";
    err = (vks_error){0};
    CHECK_EQ_INT(vks_cskla_write(set, s, NULL, &bytes, &size, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "none of its") != NULL);
    CHECK(bytes == NULL);
    vks_clip_set_free(set);
    vks_skin_free(s);
}

/* A three-node skin and a short clip of every kind: small enough to cut at every byte. */
static void test_truncation(void)
{
    vks_skin *s = vks_skin_create(NULL);
    s->nodes = vks_skin_alloc_array(s, 3, sizeof *s->nodes);
    s->node_count = 3;
    const char *names[3] = {"root", "arm", "hand"};
    for (int i = 0; i < 3; i++) {
        s->nodes[i].name = vks_skin_strndup(s, names[i], strlen(names[i]));
        s->nodes[i].parent = i - 1;
        s->nodes[i].bind_local = vks_affine_identity();
        s->nodes[i].bind_local.m[9] = (float)i;
    }
    vks_clip_set *set = vks_clip_set_create(NULL);
    set->clips = vks_clip_set_alloc(set, 1, sizeof *set->clips);
    set->clip_count = 1;
    vks_clip *c = &set->clips[0];
    c->name = "short";
    c->duration = 0.1f;
    c->root_track = -1;
    c->tracks = vks_clip_set_alloc(set, 3, sizeof *c->tracks);
    c->track_count = 3;
    static const float t2[2] = {0, 0.1f}, v3[6] = {0, 0, 0, 1, 0.5f, 0}, e[2] = {0, 0.5f}, ei[2] = {1, 2};
    float q[8];
    axis_quat(0, 0, 1, 0, q);
    axis_quat(0, 0, 1, 0.6, q + 4);
    c->tracks[0].node_name = "root";
    c->tracks[0].translation = curve(set, VKS_INTERP_LINEAR, 3, 2, t2, v3, NULL, NULL);
    c->tracks[0].scale = curve(set, VKS_INTERP_STEP, 3, 1, t2, v3 + 3, NULL, NULL);
    c->tracks[1].node_name = "arm";
    c->tracks[1].euler[1] = curve(set, VKS_INTERP_HERMITE, 1, 2, t2, e, ei, ei);
    c->tracks[2].node_name = "hand";
    c->tracks[2].rotation = curve(set, VKS_INTERP_LINEAR, 4, 2, t2, q, NULL, NULL);
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_error err = {0};
    CHECK(vks_cskla_write(set, s, NULL, &bytes, &size, &err) == VKS_OK);
    if (bytes) {
        fprintf(stderr, "  every prefix of a written file of %zu bytes\n", size);
        truncations(bytes, size, 30, 1, "small written");
        vks_clip_set *back = read_back(bytes, size, 30);
        CHECK(back && play_diff(s, c, &back->clips[0]) <= 1e-5);
        vks_clip_set_free(back);
    }
    free(bytes);
    vks_clip_set_free(set);
    vks_skin_free(s);
}

int main(void)
{
    test_truncation();
    test_roundtrip();
    test_on_cmdl();
    test_refusals();
    return vks_test_finish("test_cskla_write");
}
