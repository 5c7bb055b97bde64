/* How the texture writers reach the kernel (src/bake/output_file.c, vat_exr.c): a file output
 * is written through a buffer of its own, so an OpenEXR or a PNG goes out in writes of tens of
 * KiB, not in one or two per row (stdio's 4 KiB block: 15,000 write calls over the
 * all-characters bake). Counted with the process's write-call count (/proc/self/io syscw);
 * skipped where the kernel does not keep it. The images are read back elsewhere
 * (test_vat_encode, test_vat_decode); here only their sizes are checked. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "vkskin/vat_write.h"

/* write(2) calls so far, -1 where /proc/self/io has none */
static long write_calls(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    long n = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "syscw:", 6))
            n = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return n;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(void)
{
    if (write_calls() < 0 || !vks_vat_exr_available()) {
        printf("test_output_writes: skipped (no /proc/self/io write count, or no OpenEXR)\n");
        return 77;
    }
    /* a VAT's shape: 2000 vertices a row, 200 frames (a row each) */
    enum { W = 2000, H = 200 };
    float *tex = malloc(sizeof *tex * W * H * 3);
    uint16_t *codes = malloc(sizeof *codes * W * H * 3);
    CHECK(tex && codes);
    if (!tex || !codes)
        return vks_test_finish("test_output_writes");
    for (size_t i = 0; i < (size_t)W * H * 3; i++) {
        tex[i] = (float)(i % 977) * 0.01f;
        codes[i] = (uint16_t)(i * 2654435761u >> 16); /* noise: the PNG stays near its raw size */
    }
    const char *bin = getenv("VKSKIN_BINARY_DIR"); /* set by CTest; else the current folder */
    char dir[1024], path[1100];
    snprintf(dir, sizeof dir, "%s/output_writes_XXXXXX", bin && *bin ? bin : ".");
    CHECK(mkdtemp(dir) != NULL);
    vks_error err = {0};
    const struct {
        const char *name;
        int kind; /* 0 float EXR, 1 half EXR, 2 PNG16 */
    } cases[] = {{"t.f32.exr", 0}, {"t.f16.exr", 1}, {"t.png", 2}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        snprintf(path, sizeof path, "%s/%s", dir, cases[c].name);
        long before = write_calls();
        vks_result r = cases[c].kind == 2 ? vks_vat_png16_write(path, codes, W, H, &err)
                                          : vks_vat_exr_write(path, tex, W, H, 3,
                                                              cases[c].kind ? VKS_VAT_TEXEL_HALF : VKS_VAT_TEXEL_FLOAT,
                                                              &err);
        long calls = write_calls() - before, bytes = file_size(path);
        CHECK_EQ_INT(r, VKS_OK);
        CHECK(bytes > 200000); /* large enough that a row a write would show */
        /* a write per 16 KiB at most (the buffer is 64 KiB); a row each was 200 and more */
        if (calls > bytes / 16384 + 4) {
            fprintf(stderr, "%s: %ld bytes in %ld write calls\n", cases[c].name, bytes, calls);
            vks_test_failures++;
        }
    }
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    free(tex);
    free(codes);
    return vks_test_finish("test_output_writes");
}
