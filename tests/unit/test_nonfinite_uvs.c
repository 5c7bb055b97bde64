/* Non-finite UVs are refused by every reader (issue 37), as they refuse a non-finite position:
 * VKS_ERR_FORMAT naming the offset of the bad float and the structure that holds it. Before,
 * the RenderWare geometry struct, the NIF NiTriShapeData and the MLOD P3D face records passed
 * NaN and infinite UVs through to convert's and bake's glTF with exit 0 (the glTF, CMDL and
 * SSE NIF readers refused them already). A generated character gets one vertex's u set to a
 * sentinel (then its v), each format's writer writes it, and the sentinel's first bytes in the
 * file (a UV is written as it is, v from the top in every one of these formats) become a NaN,
 * then +inf, then -inf. */
#include <math.h>
#include <string.h>

#include "character.h"
#include "testutil.h"
#include "vkskin.h"

#define SENTINEL 1234.5f

typedef vks_result (*writer)(const vks_skin *, const vks_write_options *, uint8_t **, size_t *, vks_error *);

static size_t find_f32(const uint8_t *b, size_t n, float f)
{
    uint8_t pat[4];
    uint32_t u;
    memcpy(&u, &f, 4);
    for (int i = 0; i < 4; i++)
        pat[i] = (uint8_t)(u >> (8 * i)); /* every format here is little-endian */
    for (size_t i = 0; i + 4 <= n; i++)
        if (!memcmp(b + i, pat, 4))
            return i;
    return SIZE_MAX;
}

static void put_f32(uint8_t *b, uint32_t bits)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(bits >> (8 * i));
}

static vks_result read_back(const char *format, const uint8_t *b, size_t n, const uint8_t *cfg, size_t nc,
                            vks_error *err)
{
    vks_read_options o = {0};
    o.p3d.model_cfg = (const char *)cfg;
    o.p3d.model_cfg_size = nc;
    o.p3d.model_name = "gen_character";
    vks_skin *s = NULL;
    vks_result r = !strcmp(format, "dff") ? vks_rw_read(&o, b, n, &s, err)
                   : !strcmp(format, "nif") ? vks_nif_read(&o, b, n, &s, err)
                                            : vks_p3d_read(&o, b, n, &s, err);
    vks_skin_free(s);
    return r;
}

static const char *dump_dir; /* --dump DIR */

static void dump(const char *format, const uint8_t *b, size_t n)
{
    char path[600];
    snprintf(path, sizeof path, "%s/nan_uv.%s", dump_dir, format);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL && fwrite(b, 1, n, f) == n);
    if (f)
        fclose(f);
}

static void check_format(const char *format, writer write, const char *structure, int component)
{
    vks_gen_params p = {0};
    p.vertices = 100;
    p.bones = 20;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL && s->uv_set_count >= 1);
    if (!s || !s->uv_set_count)
        return;
    s->uv[0][s->vertex_count / 2][component] = SENTINEL; /* u, then v: each at its own offset */
    uint8_t *b = NULL, *cfg = NULL;
    size_t n = 0, nc = 0;
    CHECK_EQ_INT(write(s, NULL, &b, &n, &err), VKS_OK);
    if (write == vks_p3d_write)
        CHECK_EQ_INT(vks_p3d_write_model_cfg(s, "gen_character", &cfg, &nc, &err), VKS_OK);
    size_t at = b ? find_f32(b, n, SENTINEL) : SIZE_MAX;
    CHECK(at != SIZE_MAX);
    CHECK_EQ_INT(read_back(format, b, n, cfg, nc, &err), VKS_OK); /* a large UV is a UV */
    static const uint32_t bad[] = {0x7fc00000u, 0x7f800000u, 0xff800000u}; /* NaN, +inf, -inf */
    for (size_t i = 0; at != SIZE_MAX && i < sizeof bad / sizeof *bad; i++) {
        put_f32(b + at, bad[i]);
        if (dump_dir && i == 0 && component == 0)
            dump(format, b, n);
        memset(&err, 0, sizeof err);
        CHECK_EQ_INT(read_back(format, b, n, cfg, nc, &err), VKS_ERR_FORMAT);
        char line[512], offset[32];
        vks_error_format(&err, format, line, sizeof line);
        snprintf(offset, sizeof offset, "0x%zx:", at);
        if (!strstr(line, offset) || !strstr(line, structure) || !strstr(line, "not finite")) {
            fprintf(stderr, "%s: want the offset %s, \"%s\" and \"not finite\" in: %s\n", format, offset, structure,
                    line);
            vks_test_failures++;
        }
    }
    free(b);
    free(cfg);
    vks_skin_free(s);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--dump"))
        dump_dir = argv[2];
    for (int component = 0; component < 2; component++) {
        check_format("dff", vks_rw_write, "geometry", component);
        check_format("nif", vks_nif_write, "NiTriShapeData", component);
        check_format("p3d", vks_p3d_write, "face[", component);
    }
    return vks_test_finish("test_nonfinite_uvs");
}
