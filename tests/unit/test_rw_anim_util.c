/* See test_rw_anim_util.h. */
#include "test_rw_anim_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "testutil.h"

void tb_str(tb *b, const char *s, size_t field)
{
    char buf[64] = {0};
    size_t n = strlen(s);
    memcpy(buf, s, n < field ? n : field);
    vks_buf_put(b, buf, field);
}

void rwa_expect(vks_clip_reader_fn fn, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                vks_result code, uint64_t at, const char *what)
{
    vks_clip_set *s = NULL;
    vks_error err = {0};
    vks_result r = fn(opt, bytes, size, &s, &err);
    if (r != code || s || (at != VKS_NO_OFFSET && err.offset != at) || !err.msg[0])
        fprintf(stderr, "%s: got %d at %llu (%s: %s), expected %d at %llu\n", what, (int)r,
                (unsigned long long)err.offset, err.path, err.msg, (int)code, (unsigned long long)at);
    CHECK_EQ_INT(r, code);
    CHECK(s == NULL && err.msg[0]);
    if (at != VKS_NO_OFFSET)
        CHECK_EQ_INT(err.offset, at);
    vks_clip_set_free(s);
}

int rwa_sample_all(const vks_clip_set *set)
{
    int bad = 0;
    for (uint32_t c = 0; c < set->clip_count; c++) {
        const vks_clip *clip = &set->clips[c];
        for (uint32_t t = 0; t < clip->track_count; t++) {
            const vks_track *tr = &clip->tracks[t];
            const vks_curve *curves[] = {&tr->translation, &tr->rotation, &tr->scale};
            for (int k = 0; k < 3; k++)
                for (int i = 0; i <= 4; i++) {
                    float out[4] = {0};
                    vks_curve_sample(curves[k], clip->duration * (float)i / 4, out);
                    for (uint32_t j = 0; j < curves[k]->components && curves[k]->key_count; j++)
                        bad += !isfinite(out[j]);
                }
        }
    }
    return bad;
}

int rwa_truncations(vks_clip_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes, size_t size,
                    const char *name)
{
    int bad = 0;
    for (size_t n = 0; n < size; n++) {
        uint8_t *copy = n ? malloc(n) : NULL;
        if (n)
            memcpy(copy, bytes, n);
        vks_clip_set *s = NULL;
        vks_error err = {0};
        vks_result r = fn(opt, copy, n, &s, &err);
        if (r == VKS_OK || s) {
            fprintf(stderr, "%s: prefix %zu of %zu accepted\n", name, n, size);
            bad++;
            vks_clip_set_free(s);
        } else if (err.code == VKS_OK || !err.msg[0] || err.offset == VKS_NO_OFFSET) {
            fprintf(stderr, "%s: prefix %zu: failure without a message or an offset (%s: %s)\n", name, n, err.path,
                    err.msg);
            bad++;
        }
        free(copy);
    }
    return bad;
}

int rwa_corruptions(vks_clip_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes, size_t size,
                    const char *name)
{
    static const uint8_t values[] = {0xFF, 0x00, 0x80, 0x7F, 0x01};
    int bad = 0;
    uint8_t *copy = malloc(size ? size : 1);
    for (size_t at = 0; at < size; at++)
        for (size_t v = 0; v < sizeof values; v++) {
            memcpy(copy, bytes, size);
            if (copy[at] == values[v])
                continue;
            copy[at] = values[v];
            vks_clip_set *s = NULL;
            vks_error err = {0};
            vks_result r = fn(opt, copy, size, &s, &err);
            if (r == VKS_OK) {
                vks_error e2 = {0};
                if (!s || vks_clip_set_validate(s, &e2) != VKS_OK || rwa_sample_all(s)) {
                    fprintf(stderr, "%s: byte %zu = 0x%02x accepted but invalid: %s: %s\n", name, at, values[v],
                            e2.path, e2.msg);
                    bad++;
                }
                vks_clip_set_free(s);
            } else if (!err.msg[0] || s) {
                fprintf(stderr, "%s: byte %zu = 0x%02x: failure without a message\n", name, at, values[v]);
                bad++;
            }
        }
    free(copy);
    return bad;
}

double rwa_locals_diff_at(const vks_clip *a, const vks_clip *b, const vks_skin *skin, const float *times, int n)
{
    vks_clip_binding ba, bb;
    vks_error err = {0};
    if (vks_clip_bind(a, skin, &ba, &err) != VKS_OK)
        return -1;
    if (vks_clip_bind(b, skin, &bb, &err) != VKS_OK) {
        vks_clip_binding_free(&ba);
        return -1;
    }
    vks_affine *la = malloc(skin->node_count * sizeof *la), *lb = malloc(skin->node_count * sizeof *lb);
    double worst = 0;
    for (int i = 0; i < n; i++) {
        vks_clip_sample_locals(a, &ba, skin, times[i], la);
        vks_clip_sample_locals(b, &bb, skin, times[i], lb);
        for (uint32_t k = 0; k < skin->node_count; k++)
            for (int e = 0; e < 12; e++) {
                double d = fabs((double)la[k].m[e] - lb[k].m[e]);
                if (!(d <= worst))
                    worst = d;
            }
    }
    free(la), free(lb);
    vks_clip_binding_free(&ba);
    vks_clip_binding_free(&bb);
    return worst;
}

double rwa_locals_diff(const vks_clip *a, const vks_clip *b, const vks_skin *skin, int n)
{
    float *t = malloc((size_t)(n + 1) * sizeof *t);
    for (int i = 0; i <= n; i++)
        t[i] = a->duration * (float)i / (float)n;
    double d = rwa_locals_diff_at(a, b, skin, t, n + 1);
    free(t);
    return d;
}

const char *rwa_seed_dir(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--write-seeds") == 0)
            return argv[i + 1];
    return NULL;
}

void rwa_write_seed(const char *dir, const char *name, const uint8_t *bytes, size_t size)
{
    if (!dir)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, size, f) != size)
        fprintf(stderr, "cannot write %s\n", path);
    if (f)
        fclose(f);
}

vks_skin *rwa_dff_character(uint8_t **dff, size_t *dff_size)
{
    vks_gen_params p = {0};
    p.bones = 24;
    p.vertices = 600;
    vks_error err = {0};
    vks_skin *gen = vks_gen_character(&p, &err);
    if (!gen)
        return NULL;
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_skin *s = NULL;
    if (vks_rw_write(gen, NULL, &bytes, &size, &err) == VKS_OK)
        vks_rw_read(NULL, bytes, size, &s, &err);
    vks_skin_free(gen);
    if (!s)
        fprintf(stderr, "DFF character: %s: %s\n", err.path, err.msg);
    if (dff) {
        *dff = bytes;
        *dff_size = size;
    } else {
        free(bytes);
    }
    return s;
}
