/* Truncation of the morph structures a test file carries (tests/cli/cli_seed_morph.sh): for
 * each line "START END SIZE_FIELD..." of FILE.cuts (tests/cli/seed_morph_golden.py), FILE cut
 * back to every byte p from START to END (exclusive), the bytes from END on kept, and each u32
 * size at SIZE_FIELD... (the enclosing chunks' or the block's) reduced by END - p, so that the
 * structure itself, not the file, ends early. Each such file, in an allocation of its exact
 * size, must be refused with a message naming an offset. Exit 1 on any that is not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vkskin/formats.h"

static int try_cut(vks_reader_fn read, const uint8_t *b, size_t n, size_t p, size_t end, const size_t *fields,
                   int nf, int *shown)
{
    size_t cut = end - p, size = n - cut;
    uint8_t *copy = malloc(size);
    memcpy(copy, b, p);
    memcpy(copy + p, b + end, n - end);
    for (int k = 0; k < nf; k++) {
        uint32_t v;
        memcpy(&v, copy + fields[k], 4);
        v -= (uint32_t)cut;
        memcpy(copy + fields[k], &v, 4);
    }
    vks_skin *s = NULL;
    vks_error e = {0};
    vks_result rc = read(NULL, copy, size, &s, &e);
    int bad = rc == VKS_OK || !e.msg[0] || e.offset == VKS_NO_OFFSET;
    if (bad || (*shown)++ < 3 || p + 1 == end) {
        char line[512];
        printf("  cut at %zu: %s%s\n", p, rc == VKS_OK ? "ACCEPTED" : vks_error_format(&e, "x", line, sizeof line),
               bad ? "  <- FAIL" : "");
    }
    vks_skin_free(s);
    free(copy);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seed_morph_cuts FILE (FILE.cuts beside it)\n");
        return 2;
    }
    size_t n = 0;
    uint8_t *b = vks_test_read_file(argv[1], &n);
    char spec[1024];
    snprintf(spec, sizeof spec, "%s.cuts", argv[1]);
    FILE *f = fopen(spec, "r");
    if (!b || !f) {
        fprintf(stderr, "cannot read %s or %s\n", argv[1], spec);
        return 1;
    }
    size_t len = strlen(argv[1]);
    vks_reader_fn read = len > 4 && !strcmp(argv[1] + len - 4, ".nif") ? vks_nif_read : vks_rw_read;
    char line[1024];
    int bad = 0, tried = 0;
    while (fgets(line, sizeof line, f)) {
        size_t start, end, fields[8];
        int nf = 0, used = 0, shown = 0;
        char *at = line;
        if (sscanf(at, "%zu %zu%n", &start, &end, &used) != 2 || end > n || start >= end)
            continue;
        at += used;
        while (nf < 8 && sscanf(at, "%zu%n", &fields[nf], &used) == 1)
            at += used, nf++;
        printf("structure at %zu..%zu:\n", start, end);
        for (size_t p = start; p < end; p++, tried++)
            bad += try_cut(read, b, n, p, end, fields, nf, &shown);
    }
    fclose(f);
    free(b);
    printf("%d of %d cuts not refused with an offset\n", bad, tried);
    return bad ? 1 : 0;
}
