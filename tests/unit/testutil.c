#include "testutil.h"

#include <locale.h>
#include <string.h>
#include <sys/stat.h>

int vks_test_failures = 0;

int vks_test_finish(const char *name)
{
    if (vks_test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, vks_test_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

uint8_t *vks_test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        *size = (size_t)n;
    return buf;
}

const char *vks_test_dataset(const char *relative)
{
    static char path[4096];
    const char *root = getenv("VKSKIN_REAL_DATASETS");
    if (!root || !*root)
        root = "../shared/datasets";
    struct stat st;
    if (stat(root, &st) != 0) {
        printf("real datasets not found at %s: skipped\n", root);
        exit(77);
    }
    snprintf(path, sizeof path, "%s/%s", root, relative);
    if (stat(path, &st) != 0) {
        printf("%s not found: skipped\n", path);
        exit(77);
    }
    return path;
}

const char *vks_test_source_path(const char *relative)
{
    static char path[4096];
    const char *root = getenv("VKSKIN_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/%s", root && *root ? root : ".", relative);
    return path;
}

static int try_prefix(vks_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes, size_t n)
{
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, bytes, n);
    vks_skin *s = NULL;
    vks_error err = {0};
    vks_result r = fn(opt, copy, n, &s, &err);
    int bad = 0;
    if (r == VKS_OK) {
        /* a prefix may still be a complete file (trailing padding); then it must validate */
        vks_error e2 = {0};
        if (!s || vks_skin_validate(s, &e2) != VKS_OK)
            bad = 1;
        vks_skin_free(s);
    } else if (err.code == VKS_OK || err.msg[0] == 0) {
        fprintf(stderr, "prefix %zu: failure without a message\n", n);
        bad = 1;
    }
    free(copy);
    return bad;
}

int vks_test_truncations(vks_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes, size_t size,
                         size_t all_limit, const size_t *boundaries, size_t nb, size_t samples)
{
    int bad = 0;
    if (size <= all_limit) {
        for (size_t n = 0; n < size; n++)
            bad += try_prefix(fn, opt, bytes, n);
        return bad;
    }
    for (size_t i = 0; i < nb; i++)
        for (int d = -1; d <= 1; d++) {
            size_t n = boundaries[i] + (size_t)d;
            if (boundaries[i] + d < size && (d >= 0 || boundaries[i] > 0))
                bad += try_prefix(fn, opt, bytes, n);
        }
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < samples; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        bad += try_prefix(fn, opt, bytes, (size_t)(x % size));
    }
    return bad;
}

int vks_test_corruptions(vks_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes, size_t size,
                         const size_t *positions, size_t npos, size_t width)
{
    static const uint32_t values[] = {0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 0x00010000u, 0};
    int bad = 0;
    uint8_t *copy = malloc(size ? size : 1);
    size_t count = positions ? npos : size;
    if (width < 1 || width > 4)
        width = 4;
    for (size_t i = 0; i < count; i++) {
        size_t at = positions ? positions[i] : i;
        if (at >= size)
            continue;
        for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
            memcpy(copy, bytes, size);
            for (size_t k = 0; k < width && at + k < size; k++)
                copy[at + k] = (uint8_t)(values[v] >> (8 * k));
            vks_skin *s = NULL;
            vks_error err = {0};
            vks_result r = fn(opt, copy, size, &s, &err);
            if (r == VKS_OK) {
                vks_error e2 = {0};
                if (!s || vks_skin_validate(s, &e2) != VKS_OK) {
                    fprintf(stderr, "corruption at %zu (value %08x) accepted but invalid: %s: %s\n", at,
                            values[v], e2.path, e2.msg);
                    bad++;
                }
                vks_skin_free(s);
            } else if (err.msg[0] == 0) {
                fprintf(stderr, "corruption at %zu: failure without a message\n", at);
                bad++;
            }
        }
    }
    free(copy);
    return bad;
}

int vks_test_comma_locale(char *dir)
{
    if (!mkdtemp(dir))
        return 0;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 > /dev/null 2>&1", dir);
    int made = system(cmd) == 0;
    if (made) {
        setenv("LOCPATH", dir, 1);
        made = setlocale(LC_ALL, "de_DE.UTF-8") != NULL;
    }
    char t[16];
    snprintf(t, sizeof t, "%.1f", 1.5);
    if (made && !strcmp(t, "1,5"))
        return 1;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir); /* nothing is left behind by a skip */
    if (system(cmd) != 0)
        fprintf(stderr, "vks_test_comma_locale: %s left behind\n", dir);
    return 0;
}
