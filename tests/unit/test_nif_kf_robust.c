/* The NIF clip reader against damaged input: every prefix of each small sample, of the
 * hand-encoded fixture and of written files (20.2.0.7, compact B-splines, 10.1.0.0) fails with
 * a message naming an offset inside it; corrupted bytes fail with a message or read into a set
 * that validates; chosen damage gives the error it should (code, offset, structure); hostile
 * counts are refused before anything is allocated; the limits (keys, nodes, clips); odd
 * timing (frequency 0, stop before start) is read sensibly.
 * `test_nif_kf_robust --write-seeds DIR` also writes the fixture and its written forms into DIR
 * (the fuzz target's seeds, tests/fuzz/nif_kf). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "formats/nif/nif_kf_internal.h"
#include "test_nif_kf_util.h"
#include "testutil.h"

static const char *const NAMES[KFX_TRACKS] = {"A", "B", "C", "D", "E", "F", "G"};

static uint64_t block_offset(const uint8_t *bytes, size_t size, uint32_t block)
{
    nif_file f;
    vks_error err = {0};
    uint64_t at = 0;
    if (nif_open(&f, NULL, 1, bytes, size, &err) == VKS_OK && block < f.block_count)
        at = f.blocks[block].offset;
    else
        vks_test_failures++;
    nif_close(&f);
    return at;
}

/* bytes with n bytes at `at` replaced, read under opt; checks the code, the offset (unless
   VKS_NO_OFFSET is expected) and that path and message contain the given pieces. */
static void expect(const uint8_t *bytes, size_t size, uint64_t at, const void *patch, size_t n,
                   const vks_read_options *opt, vks_result code, uint64_t offset, const char *path, const char *msg)
{
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    if (patch)
        memcpy(copy + at, patch, n);
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r = vks_nif_kf_read(opt, copy, size, &set, &err);
    char buf[512];
    vks_error_format(&err, "damaged", buf, sizeof buf);
    if (r != code || set || err.offset != offset || !strstr(err.path, path) || !strstr(err.msg, msg)) {
        fprintf(stderr, "expected code %d at 0x%llx, %s: ...%s...; got %d: %s\n", (int)code, (unsigned long long)offset,
                path, msg, (int)r, buf);
        vks_test_failures++;
    } else {
        printf("  %s\n", buf);
    }
    vks_clip_set_free(set);
    free(copy);
}

static vks_clip_set *read_patched(const uint8_t *bytes, size_t size, uint64_t at, const void *patch, size_t n)
{
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    memcpy(copy + at, patch, n);
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (vks_nif_kf_read(NULL, copy, size, &set, &err) != VKS_OK) {
        fprintf(stderr, "patched read failed: %s: %s\n", err.path, err.msg);
        vks_test_failures++;
    }
    free(copy);
    return set;
}

static void test_chosen_damage(const uint8_t *fx, size_t size)
{
    uint64_t seq = block_offset(fx, size, 0), d0 = block_offset(fx, size, 3), bs = block_offset(fx, size, 7);
    uint64_t basis = block_offset(fx, size, 9);
    /* data block 3: rotation count, type, 3 keys of 20 bytes; translation count at +68, type
       +72, keys of 40 bytes from +76; scale count at +196 */
    uint32_t six = 6, four = 4, huge = 0x7FFFFFFF, z4[4] = {0}, bad_index = 999, three = 3, thirty = 30;
    float early = 0.1f, nan = NAN;
    printf("chosen damage:\n");
    expect(fx, size, d0 + 4, &six, 4, NULL, VKS_ERR_FORMAT, d0 + 4, "NiTransformData/rotation_type", "key type 6");
    expect(fx, size, d0 + 72, &four, 4, NULL, VKS_ERR_FORMAT, d0 + 72, "NiTransformData/translations", "key type 4");
    expect(fx, size, d0 + 28, &early, 4, NULL, VKS_ERR_FORMAT, d0 + 28, "quaternion_keys", "comes before key 0");
    expect(fx, size, d0 + 52, z4, 16, NULL, VKS_ERR_FORMAT, d0 + 48, "quaternion_keys", "zero quaternion");
    expect(fx, size, d0 + 80, &nan, 4, NULL, VKS_ERR_FORMAT, d0 + 80, "translations", "not finite");
    expect(fx, size, d0 + 68, &huge, 4, NULL, VKS_ERR_TRUNCATED, d0 + 72, "translations", "exceeds");
    expect(fx, size, seq, &bad_index, 4, NULL, VKS_ERR_FORMAT, seq + 4, "NiControllerSequence/name", "string index 999");
    /* B-splines: a handle past the control points, a basis too small for a cubic */
    expect(fx, size, bs + 48, &thirty, 4, NULL, VKS_ERR_FORMAT, bs, "block[7] NiBSplineCompTransformInterpolator",
           "handle 30 + 5 control points x 3");
    expect(fx, size, basis, &three, 4, NULL, VKS_ERR_FORMAT, bs, "block[7] NiBSplineCompTransformInterpolator",
           "at least 4 control points");
    /* limits: keys (text keys 3, then rotation 3, translation 3, scale 3 > 10), controlled
       blocks, clips */
    vks_read_options opt = {0};
    opt.clip.max_keys = 10;
    expect(fx, size, 0, NULL, 0, &opt, VKS_ERR_LIMIT, d0 + 196, "NiTransformData/scales", "key limit 10");
    opt = (vks_read_options){0};
    opt.max_nodes = 6;
    expect(fx, size, 0, NULL, 0, &opt, VKS_ERR_LIMIT, seq + 4, "num_controlled_blocks", "node limit 6");

    /* frequency 2e-6 (accepted) puts a key at 3e38 s past what a float holds */
    uint8_t *slow = malloc(size);
    memcpy(slow, fx, size);
    float tiny = 2e-6f, far = 3e38f;
    memcpy(slow + seq + 220, &tiny, 4);
    expect(slow, size, d0 + 48, &far, 4, NULL, VKS_ERR_FORMAT, d0, "block[3] NiTransformData", "overflows a float");
    free(slow);
    /* timing: frequency 0 is taken as 1; a stop before the start leaves the keys' span */
    float zero = 0;
    vks_clip_set *s = read_patched(fx, size, seq + 220, &zero, 4);
    CHECK(s && fabsf(s->clips[0].duration - 2.0f) < 1e-6f);
    vks_clip_set_free(s);
    s = read_patched(fx, size, seq + 228, &zero, 4);
    CHECK(s && fabsf(s->clips[0].duration - 1.0f) < 1e-6f);
    vks_clip_set_free(s);
    /* a controlled block whose interpolator is no transform one (here the text keys) is
       left out, not an error */
    int32_t text = 1;
    s = read_patched(fx, size, seq + 12, &text, 4);
    CHECK(s && s->clips[0].track_count == KFX_TRACKS - 1 && !strcmp(s->clips[0].tracks[0].node_name, "B"));
    vks_clip_set_free(s);
}

static uint8_t *sample(const char *rel, size_t *size)
{
    const char *root = getenv("VKSKIN_REAL_DATASETS");
    char probe[512];
    snprintf(probe, sizeof probe, "%s/%s", root ? root : "../shared/datasets", rel);
    if (access(probe, R_OK) != 0)
        return NULL;
    return vks_test_read_file(probe, size);
}

static void test_sample_damage(void)
{
    size_t size = 0;
    uint8_t *b = sample("anim/nif/pyffi_test_fix_cleanstringpalette.nif", &size);
    if (b) {
        vks_read_options opt = {0};
        opt.clip.max_clips = 1;
        expect(b, size, 0, NULL, 0, &opt, VKS_ERR_LIMIT, 0, "nif/clip", "2 clips pass the clip limit 1");
        /* sequence 3's first controlled block: interpolator, controller, priority, palette,
           then the node name's palette offset */
        nif_file f;
        vks_error err = {0};
        CHECK(nif_open(&f, NULL, 1, b, size, &err) == VKS_OK);
        const nif_sequence *seq = nif_anim_get(&f, 3, NIF_A_SEQUENCE);
        uint64_t cb = seq ? seq->blocks[0].offset : 0;
        nif_close(&f);
        uint32_t past = 0x1000;
        expect(b, size, cb + 13, &past, 4, NULL, VKS_ERR_FORMAT, cb, "block[3] NiControllerSequence",
               "offset 4096 is past the palette's 67 bytes");
        free(b);
    }
    b = sample("anim/nif/nifly_TestNifFile_Sequence_MW.kf", &size);
    if (b) { /* "NiKeyframeData" at 0x120: unknown, so nothing after it can be walked */
        expect(b, size, 0x120 + 13, "X", 1, NULL, VKS_ERR_UNSUPPORTED, 0x120 + 14, "type", "unknown block type");
        float nan = NAN; /* the second text key's time, at 0x99 */
        expect(b, size, 0x99, &nan, 4, NULL, VKS_ERR_FORMAT, 0x99, "NiTextKeyExtraData/text_keys/time", "not finite");
        free(b);
    }
    b = sample("nif/niftools_bna_4.0.0.2_dance.nif", &size);
    if (b) { /* NiKeyframeData block 5: its second rotation key's time at 623 + 8 + 20 */
        float back = -1;
        expect(b, size, 651, &back, 4, NULL, VKS_ERR_FORMAT, 651, "block[5] NiKeyframeData/quaternion_keys",
               "comes before key 0");
        /* the model reader only walks the animation: keys it does not play spoil no model */
        memcpy(b + 651, &back, 4);
        vks_skin *skin = NULL;
        vks_error err = {0};
        CHECK(vks_nif_read(NULL, b, size, &skin, &err) == VKS_OK);
        vks_skin_free(skin);
        free(b);
    }
    b = sample("nif/niftools_bna_10.1.0.0_lodtest-skinned.nif", &size);
    if (b) {
        expect(b, size, 0, NULL, 0, NULL, VKS_ERR_FORMAT, 0, "nif/clip", "no animation");
        free(b);
    }
}

static void write_seed(const char *dir, const char *name, const uint8_t *bytes, size_t size)
{
    if (!dir)
        return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, size, f) == size);
    if (f)
        fclose(f);
}

static void sweep(const uint8_t *b, size_t size, size_t step, const char *label)
{
    CHECK_EQ_INT(kfx_truncations(b, size, step, label), 0);
    CHECK_EQ_INT(kfx_corruptions(b, size, step, label), 0);
}

int main(int argc, char **argv)
{
    const char *seeds = argc == 3 && !strcmp(argv[1], "--write-seeds") ? argv[2] : NULL;
    size_t size = 0;
    uint8_t *fx = kfx_keys_fixture(NAMES, &size);
    write_seed(seeds, "every_key_type.kf", fx, size);
    test_chosen_damage(fx, size);
    test_sample_damage();
    sweep(fx, size, 1, "every-key fixture");
    vks_clip_set *set = NULL;
    vks_error err = {0};
    CHECK(vks_nif_kf_read(NULL, fx, size, &set, &err) == VKS_OK);
    static const struct {
        uint32_t version;
        int compressed;
        const char *label, *seed;
    } forms[] = {{0x14020007u, 0, "written 20.2.0.7", "written_20207.kf"},
                 {0x14020007u, 1, "written 20.2.0.7, compact", "written_20207_compact.kf"},
                 {0x0A010000u, 0, "written 10.1.0.0", "written_10100.kf"}};
    for (size_t i = 0; set && i < sizeof forms / sizeof forms[0]; i++) {
        vks_clip_write_options o = {forms[i].version, forms[i].compressed, 0};
        uint32_t tracks = set->clips[0].track_count;
        if (forms[i].version == 0x0A010000u)
            set->clips[0].track_count = 3; /* the tracks before the B-splines */
        uint8_t *w = NULL;
        size_t wn = 0;
        CHECK(vks_nif_kf_write(set, NULL, &o, &w, &wn, &err) == VKS_OK);
        set->clips[0].track_count = tracks;
        if (w) {
            write_seed(seeds, forms[i].seed, w, wn);
            sweep(w, wn, 1, forms[i].label);
        }
        free(w);
    }
    vks_clip_set_free(set);
    free(fx);
    static const struct {
        const char *rel;
        size_t step;
    } samples[] = {{"anim/nif/pyffi_test_controllersequence.kf", 1}, {"anim/nif/pyffi_test_controllersequence_fo3.kf", 1},
                   {"anim/nif/nifly_TestNifFile_Sequence_MW.kf", 1}, {"anim/nif/pyffi_test_fix_cleanstringpalette.nif", 1},
                   {"nif/niftools_bna_4.0.0.2_dance.nif", 53}};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        uint8_t *b = sample(samples[i].rel, &size);
        if (!b) {
            printf("%s: not found, skipped\n", samples[i].rel);
            continue;
        }
        sweep(b, size, samples[i].step, samples[i].rel);
        free(b);
    }
    return vks_test_finish("test_nif_kf_robust");
}
