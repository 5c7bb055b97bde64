/* The VAT readers (vat_read.h) against the writers (vat_write.h): what vks_vat_png16_write and
 * vks_vat_exr_write (float and half, RGB and RGBA) wrote comes back texel for texel (halves as
 * vks_half_to_float(vks_half_from_float(x))); a file cut short fails with VKS_ERR_TRUNCATED at
 * its end (every cut of a small PNG, cuts of an EXR in its header, its chunk table and its
 * rows); an 8-bit PNG with VKS_ERR_FORMAT at the header's bit depth (24), another kind of file
 * at its start; a missing one with VKS_ERR_IO. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "vkskin/vat.h"
#include "vkskin/vat_read.h"
#include "vkskin/vat_write.h"

static char dir[512];

static const char *at(const char *name)
{
    static char buf[2][640];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* The first n bytes of src as dst. */
static void cut(const char *src, const char *dst, size_t n)
{
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(src, &size);
    CHECK(bytes && n <= size);
    FILE *f = fopen(dst, "wb");
    CHECK(f != NULL);
    if (f && bytes && n <= size)
        fwrite(bytes, 1, n, f);
    if (f)
        fclose(f);
    free(bytes);
}

static size_t file_size(const char *path)
{
    size_t size = 0;
    free(vks_test_read_file(path, &size));
    return size;
}

/* A failure of the kind wanted at the offset wanted, its words naming the file and offset. */
static void expect_failure(const char *path, vks_result got, const vks_error *err, vks_result want, uint64_t offset)
{
    char msg[512];
    vks_error_format(err, path, msg, sizeof msg);
    if (got != want || err->offset != offset) {
        fprintf(stderr, "%s: got %s at %llu, wanted %s at %llu: %s\n", path, vks_result_str(got),
                (unsigned long long)err->offset, vks_result_str(want), (unsigned long long)offset, msg);
        vks_test_failures++;
    }
    CHECK(strstr(msg, path) == msg);
    if (offset != VKS_NO_OFFSET) {
        char hex[32];
        snprintf(hex, sizeof hex, ":0x%llx: ", (unsigned long long)offset);
        CHECK(strstr(msg, hex) != NULL);
    }
}

static void png_round_trip(void)
{
    enum { W = 7, H = 5 };
    uint16_t codes[W * H * 3];
    for (int i = 0; i < W * H * 3; i++)
        codes[i] = (uint16_t)(i * 2654435761u >> 16);
    vks_error err = {0};
    CHECK(vks_vat_png16_write(at("t.png"), codes, W, H, &err) == VKS_OK);
    uint16_t *back = NULL;
    uint32_t w = 0, h = 0;
    CHECK(vks_vat_png16_read(at("t.png"), &back, &w, &h, &err) == VKS_OK);
    CHECK_EQ_INT(w, W);
    CHECK_EQ_INT(h, H);
    CHECK(back && !memcmp(back, codes, sizeof codes));
    free(back);
    /* every cut: the error is at the file's end (the 8-byte signature alone too) */
    size_t size = file_size(at("t.png"));
    for (size_t n = 0; n < size; n++) {
        cut(at("t.png"), at("cut.png"), n);
        vks_error e = {0};
        uint16_t *none = (uint16_t *)1;
        vks_result r = vks_vat_png16_read(at("cut.png"), &none, &w, &h, &e);
        expect_failure(at("cut.png"), r, &e, VKS_ERR_TRUNCATED, n);
        CHECK(none == NULL);
    }
}

static void png_refusals(void)
{
    uint8_t rgba[4 * 4 * 4] = {0};
    vks_png_image img = {rgba, 4, 4, 8, 4, 0, 0};
    vks_error err = {0};
    CHECK(vks_png_write(at("rgba8.png"), &img, &err) == VKS_OK);
    uint16_t *back = NULL;
    uint32_t w, h;
    vks_result r = vks_vat_png16_read(at("rgba8.png"), &back, &w, &h, &err);
    expect_failure(at("rgba8.png"), r, &err, VKS_ERR_FORMAT, 24);
    CHECK(!strcmp(err.path, "IHDR"));
    FILE *f = fopen(at("text.png"), "wb");
    if (f) {
        fputs("not a picture at all, but long enough to be read as one\n", f);
        fclose(f);
    }
    vks_error e2 = {0};
    r = vks_vat_png16_read(at("text.png"), &back, &w, &h, &e2);
    CHECK(r == VKS_ERR_FORMAT && e2.msg[0]);
    vks_error e3 = {0};
    r = vks_vat_png16_read(at("missing.png"), &back, &w, &h, &e3);
    expect_failure(at("missing.png"), r, &e3, VKS_ERR_IO, VKS_NO_OFFSET);
}

/* An EXR of channels written as type, read back with want channels (0: what it has). */
static void exr_round_trip(int channels, vks_vat_texel type)
{
    enum { W = 9, H = 4 };
    float tex[W * H * 4];
    for (int i = 0; i < W * H * channels; i++)
        tex[i] = (float)((i * 37) % 101) * 0.173f - 8.0f;
    vks_error err = {0};
    CHECK(vks_vat_exr_write(at("t.exr"), tex, W, H, channels, type, &err) == VKS_OK);
    float *back = NULL;
    uint32_t w = 0, h = 0;
    int got = 0;
    CHECK(vks_vat_exr_read(at("t.exr"), &got, &back, &w, &h, &err) == VKS_OK);
    CHECK_EQ_INT(got, channels);
    CHECK_EQ_INT(w, W);
    CHECK_EQ_INT(h, H);
    int wrong = 0;
    for (int i = 0; back && got == channels && i < W * H * channels; i++) {
        float want = type == VKS_VAT_TEXEL_HALF ? vks_half_to_float(vks_half_from_float(tex[i])) : tex[i];
        if (back[i] != want && ++vks_test_failures && ++wrong < 4)
            fprintf(stderr, "t.exr (%d channels, %s): texel float %d: %.9g read, %.9g written\n", channels,
                    type == VKS_VAT_TEXEL_HALF ? "half" : "float", i, back[i], want);
    }
    free(back);
    if (channels == 3) { /* an A asked of an RGB image */
        int four = 4;
        vks_error e = {0};
        CHECK(vks_vat_exr_read(at("t.exr"), &four, &back, &w, &h, &e) == VKS_ERR_FORMAT && back == NULL);
    }
}

static void exr_cuts(void)
{
    enum { W = 64, H = 64 };
    float *tex = calloc(W * H * 3, sizeof *tex);
    vks_error err = {0};
    CHECK(tex && vks_vat_exr_write(at("big.exr"), tex, W, H, 3, VKS_VAT_TEXEL_FLOAT, &err) == VKS_OK);
    free(tex);
    size_t size = file_size(at("big.exr"));
    const size_t cuts[] = {4, 20, 200, size / 2, size - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        cut(at("big.exr"), at("cut.exr"), cuts[i]);
        float *back = (float *)1;
        uint32_t w, h;
        int three = 3;
        vks_error e = {0};
        vks_result r = vks_vat_exr_read(at("cut.exr"), &three, &back, &w, &h, &e);
        expect_failure(at("cut.exr"), r, &e, VKS_ERR_TRUNCATED, cuts[i]);
        CHECK(back == NULL);
    }
    float *back = NULL;
    uint32_t w, h;
    int three = 3;
    vks_error e = {0};
    vks_result r = vks_vat_exr_read(at("t.png"), &three, &back, &w, &h, &e); /* another kind of file */
    expect_failure(at("t.png"), r, &e, VKS_ERR_FORMAT, 0);
}

int main(void)
{
    const char *bin = getenv("VKSKIN_BINARY_DIR");
    snprintf(dir, sizeof dir, "%s/vat_read_XXXXXX", bin && *bin ? bin : ".");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    png_round_trip();
    png_refusals();
    if (vks_vat_exr_available()) {
        exr_round_trip(3, VKS_VAT_TEXEL_FLOAT);
        exr_round_trip(4, VKS_VAT_TEXEL_FLOAT);
        exr_round_trip(3, VKS_VAT_TEXEL_HALF);
        exr_round_trip(4, VKS_VAT_TEXEL_HALF);
        exr_cuts();
    } else {
        float *back;
        uint32_t w, h;
        int three = 3;
        vks_error e = {0};
        CHECK(vks_vat_exr_read(at("t.png"), &three, &back, &w, &h, &e) == VKS_ERR_UNSUPPORTED);
    }
    const char *names[] = {"t.png", "cut.png", "rgba8.png", "text.png", "t.exr", "big.exr", "cut.exr"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unlink(at(names[i]));
    rmdir(dir);
    return vks_test_finish("test_vat_read");
}
