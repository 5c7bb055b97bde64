#include "rtm_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

const char *const rtm_armaio_names[RTM_ARMAIO_BONES] = {"Pelvis", "Torso", "RightArm", "LeftArm"};
const int32_t rtm_armaio_parents[RTM_ARMAIO_BONES] = {-1, 0, 1, 1};

vks_skin *rtm_fixture_skin(const char *const *names, const int32_t *parents, const float (*offsets)[3], uint32_t n)
{
    vks_skin *s = vks_skin_create(NULL);
    if (!s)
        abort();
    s->nodes = vks_skin_alloc_array(s, n ? n : 1, sizeof *s->nodes);
    if (!s->nodes)
        abort();
    s->node_count = n;
    for (uint32_t i = 0; i < n; i++) {
        s->nodes[i].name = vks_skin_strndup(s, names[i], strlen(names[i]));
        s->nodes[i].parent = parents[i];
        s->nodes[i].bind_local = vks_affine_identity();
        for (int k = 0; k < 3; k++)
            s->nodes[i].bind_local.m[9 + k] = offsets[i][k];
    }
    return s;
}

vks_skin *rtm_fixture_armaio_skin(int model_root)
{
    const char *names[RTM_ARMAIO_BONES + 1] = {"(model)"};
    int32_t parents[RTM_ARMAIO_BONES + 1] = {-1};
    float offsets[RTM_ARMAIO_BONES + 1][3] = {{0, 0, 0}};
    /* pelvis at hip height, torso above it, the arms at the shoulders */
    static const float at[RTM_ARMAIO_BONES][3] = {{0, 1.0f, 0}, {0, 0.3f, 0.02f}, {-0.2f, 0.25f, 0}, {0.2f, 0.25f, 0}};
    int o = model_root ? 1 : 0;
    for (int i = 0; i < RTM_ARMAIO_BONES; i++) {
        names[i + o] = rtm_armaio_names[i];
        parents[i + o] = rtm_armaio_parents[i] >= 0 ? rtm_armaio_parents[i] + o : -1;
        memcpy(offsets[i + o], at[i], sizeof at[i]);
    }
    return rtm_fixture_skin(names, parents, (const float(*)[3])offsets, RTM_ARMAIO_BONES + (uint32_t)o);
}

uint8_t *rtm_fixture_sample(const char *file, size_t *size)
{
    char rel[256];
    snprintf(rel, sizeof rel, "anim/rtm/%s", file);
    const char *path = vks_test_dataset(rel);
    uint8_t *b = vks_test_read_file(path, size);
    if (!b) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    return b;
}

vks_clip_set *rtm_fixture_read(const uint8_t *bytes, size_t size, float duration, const char *label)
{
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_read_options opt = {0};
    opt.clip.duration = duration;
    if (vks_rtm_read(&opt, bytes, size, &set, &err) != VKS_OK) {
        char buf[512];
        fprintf(stderr, "%s\n", vks_error_format(&err, label, buf, sizeof buf));
        exit(1);
    }
    return set;
}

static int try_accepted; /* whether the last try_bytes read its input */

static int try_bytes(const uint8_t *bytes, size_t n, int must_fail, const char *label, size_t where)
{
    uint8_t *copy = malloc(n ? n : 1);
    if (n)
        memcpy(copy, bytes, n);
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r = vks_rtm_read(NULL, copy, n, &set, &err);
    int bad = 0;
    try_accepted = r == VKS_OK;
    if (r == VKS_OK) {
        vks_error e2 = {0};
        if (must_fail || !set || vks_clip_set_validate(set, &e2) != VKS_OK) {
            fprintf(stderr, "%s: %s %zu: accepted%s\n", label, must_fail ? "prefix" : "corruption at", where,
                    must_fail ? "" : " but does not validate");
            bad = 1;
        }
        vks_clip_set_free(set);
    } else {
        if (set || err.code != r || !err.msg[0]) {
            fprintf(stderr, "%s: %zu: failure without a message or with an output\n", label, where);
            bad = 1;
        }
        if (must_fail && (err.offset == VKS_NO_OFFSET || err.offset > n)) {
            char buf[512];
            fprintf(stderr, "%s: prefix %zu: offset not within the prefix: %s\n", label, n,
                    vks_error_format(&err, label, buf, sizeof buf));
            bad = 1;
        }
    }
    free(copy);
    return bad;
}

int rtm_fixture_truncations(const uint8_t *bytes, size_t size, size_t step, const char *label)
{
    int bad = 0;
    size_t tried = 0;
    if (step == 0)
        step = 1;
    for (size_t n = 0; n < size; n++)
        if (n % step == 0 || n + 64 >= size)
            bad += try_bytes(bytes, n, 1, label, n), tried++;
    printf("%s: %zu prefixes of %zu bytes, %d wrongly handled\n", label, tried, size, bad);
    return bad;
}

int rtm_fixture_corruptions(const uint8_t *bytes, size_t size, size_t stride, const char *label)
{
    int bad = 0, accepted = 0, tried = 0;
    uint8_t *copy = malloc(size ? size : 1);
    if (stride == 0)
        stride = 1;
    for (size_t i = 0; i < size; i += stride) {
        const uint8_t vals[5] = {0x00, 0xFF, (uint8_t)(bytes[i] ^ 0x80), (uint8_t)(bytes[i] + 1), (uint8_t)(bytes[i] ^ 0x01)};
        for (int v = 0; v < 5; v++) {
            memcpy(copy, bytes, size);
            copy[i] = vals[v];
            bad += try_bytes(copy, size, 0, label, i);
            accepted += try_accepted;
            tried++;
        }
    }
    printf("%s: %d corrupted copies, %d read (and validate), %d wrongly handled\n", label, tried, accepted, bad);
    free(copy);
    return bad;
}

static void pose_worlds(const vks_clip *c, const vks_skin *skin, double t, vks_affine_d *world)
{
    vks_clip_binding b;
    vks_error err = {0};
    vks_affine *locals = malloc(skin->node_count * sizeof *locals);
    if (!locals || vks_clip_bind(c, skin, &b, &err) != VKS_OK)
        abort();
    vks_clip_sample_locals_d(c, &b, skin, t, locals);
    vks_cpu_world_d(skin, locals, world);
    vks_clip_binding_free(&b);
    free(locals);
}

double rtm_fixture_world_diff(const vks_clip *a, const vks_clip *b, const vks_skin *skin, double t)
{
    vks_affine_d *wa = malloc(skin->node_count * sizeof *wa), *wb = malloc(skin->node_count * sizeof *wb);
    if (!wa || !wb)
        abort();
    pose_worlds(a, skin, t, wa);
    pose_worlds(b, skin, t, wb);
    double worst = 0;
    for (uint32_t n = 0; n < skin->node_count; n++) {
        double d = vks_affine_d_max_diff(&wa[n], &wb[n]);
        if (d > worst)
            worst = d;
    }
    free(wa);
    free(wb);
    return worst;
}
