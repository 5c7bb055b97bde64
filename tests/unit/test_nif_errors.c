/* Hostile and unsupported NIF input: every prefix of every sample fails cleanly with a
 * message, byte corruption anywhere either fails with a message or gives a valid model, an
 * unsupported version and an unknown block type in a file without block sizes each give one
 * clear error line naming the version / the type and index. */
#include <string.h>

#include "testutil.h"

static const char *files[] = {
    "nifly_skyrimle_cylinders_TestNifFile_Optimize_LE_to_SE.nif", "nifly_sse_cylinders_TestNifFile_Skinned_SE.nif",
    "nifly_sse_cylinders_NoNiSkinDataWeights.nif",               "niftools_bna_10.1.0.0_lodtest-skinned.nif",
    "pyffi_20.0.0.5_test_fix_mergeskeletonroots.nif",            "pyffi_10.1.0.0_test_skincenterradius.nif",
    "pynifly_skyrimle_tetra_reference.nif",                      "niftools_bna_4.0.0.2_dance.nif",
};

static uint8_t *load(const char *name, size_t *n)
{
    char rel[256];
    snprintf(rel, sizeof rel, "nif/%s", name);
    return vks_test_read_file(vks_test_dataset(rel), n);
}

/* Reads bytes expecting failure with code; returns the formatted one-line message. */
static const char *expect_error(const uint8_t *b, size_t n, vks_result code)
{
    static char line[512];
    vks_skin *s = NULL;
    vks_error e = {0};
    vks_result rc = vks_nif_read(NULL, b, n, &s, &e);
    CHECK_EQ_INT(rc, code);
    CHECK(s == NULL);
    vks_skin_free(s);
    vks_error_format(&e, "x.nif", line, sizeof line);
    CHECK(strchr(line, '\n') == NULL);
    printf("  %s\n", line);
    return line;
}

static size_t find(const uint8_t *b, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(b + i, needle, k) == 0)
            return i;
    return SIZE_MAX;
}

int main(void)
{
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t n = 0;
        uint8_t *b = load(files[f], &n);
        CHECK(b != NULL);
        if (!b)
            continue;
        /* small files: every prefix and every byte; larger ones: the header region byte by
           byte plus spread positions (keeps the test to seconds on a shared machine) */
        int small = n < 4096;
        size_t count = small ? n : 256 + 1500, x = 12345;
        size_t *pos = malloc(count * sizeof *pos);
        for (size_t i = 0; i < count; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            pos[i] = small || i < 256 ? i : (size_t)((x >> 17) % n);
        }
        int bad = small ? vks_test_truncations(vks_nif_read, NULL, b, n, n, NULL, 0, 0)
                        : vks_test_truncations(vks_nif_read, NULL, b, n, 0, pos, 256, 1500);
        CHECK_EQ_INT(bad, 0);
        bad = vks_test_corruptions(vks_nif_read, NULL, b, n, pos, small ? count : count / 2, 4);
        CHECK_EQ_INT(bad, 0);
        if (small) {
            bad = vks_test_corruptions(vks_nif_read, NULL, b, n, pos, count, 1);
            CHECK_EQ_INT(bad, 0);
        }
        free(pos);
        printf("%s: truncations and corruptions clean\n", files[f]);
        free(b);
    }

    /* unsupported version: 20.3.0.9 (Divinity 2) written over the version field */
    size_t n = 0;
    uint8_t *b = load("pynifly_skyrimle_tetra_reference.nif", &n);
    size_t at = find(b, n, "\n") + 1;
    uint8_t v20309[4] = {0x09, 0x00, 0x03, 0x14};
    memcpy(b + at, v20309, 4);
    CHECK(strstr(expect_error(b, n, VKS_ERR_UNSUPPORTED), "20.3.0.9") != NULL);
    free(b);

    /* unknown block type, no block sizes (10.1.0.0): rename NiMaterialProperty in the type
       table; block 4 is the first NiMaterialProperty of the lodtest file */
    b = load("niftools_bna_10.1.0.0_lodtest-skinned.nif", &n);
    at = find(b, n, "NiMaterialProperty");
    CHECK(at != SIZE_MAX);
    memcpy(b + at, "NiMysteryProperty!", 18);
    const char *line = expect_error(b, n, VKS_ERR_UNSUPPORTED);
    CHECK(strstr(line, "NiMysteryProperty!") != NULL && strstr(line, "index 4") != NULL);
    free(b);

    /* the same at 4.0.0.2, where the type name precedes each block */
    b = load("niftools_bna_4.0.0.2_dance.nif", &n);
    at = find(b, n, "NiKeyframeController");
    CHECK(at != SIZE_MAX);
    memcpy(b + at, "NiKeyframeControllex", 20);
    line = expect_error(b, n, VKS_ERR_UNSUPPORTED);
    CHECK(strstr(line, "NiKeyframeControllex") != NULL && strstr(line, "4.0.0.2") != NULL);
    free(b);

    /* with block sizes an unknown type is skipped: the Skyrim file's shader blocks renamed */
    b = load("pynifly_skyrimle_tetra_reference.nif", &n);
    at = find(b, n, "BSLightingShaderProperty");
    memcpy(b + at, "BSUnheardOfShaderPropert", 24);
    vks_skin *s = NULL;
    vks_error e = {0};
    CHECK_EQ_INT(vks_nif_read(NULL, b, n, &s, &e), VKS_OK);
    vks_skin_free(s);
    free(b);

    /* Skyrim SE: a half-float UV that is infinite (0x7c00) is refused at its byte, like a
       non-finite position; vertex 0's UV of the first NiSkinPartition's vertex buffer is at
       byte 1817 = 0x719 (the buffer at 1801, 16 bytes of position and bitangent first) */
    b = load("nifly_sse_cylinders_TestNifFile_Skinned_SE.nif", &n);
    CHECK(n > 1821 && b[1817] == 0x00 && b[1818] == 0x3c); /* u = 1.0 */
    if (n > 1821) {
        b[1817] = 0x00, b[1818] = 0x7c;
        line = expect_error(b, n, VKS_ERR_FORMAT);
        CHECK(strstr(line, "vertex_data/uv") != NULL && strstr(line, "0x719:") != NULL &&
              strstr(line, "NiSkinPartition") != NULL);
    }
    free(b);

    /* Skyrim LE: a BSShaderTextureSet (block 9, body at byte 13384) whose texture count
       cannot fit its block fails naming the field */
    b = load("nifly_skyrimle_cylinders_TestNifFile_Optimize_LE_to_SE.nif", &n);
    CHECK(n > 13388 && b[13384] == 9 && b[13385] == 0);
    if (n > 13388) {
        b[13386] = 0x10;
        line = expect_error(b, n, VKS_ERR_TRUNCATED);
        CHECK(strstr(line, "num_textures") != NULL && strstr(line, "BSShaderTextureSet") != NULL);
    }
    free(b);

    /* not a NIF at all, and an empty buffer */
    expect_error((const uint8_t *)"Gamebryo File Format, Version 20.2.0.7", 38, VKS_ERR_TRUNCATED);
    expect_error((const uint8_t *)"", 0, VKS_ERR_TRUNCATED);
    return vks_test_finish("test_nif_errors");
}
