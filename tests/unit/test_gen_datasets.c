/* The committed datasets/ folder equals what `vkskin generate --datasets` writes now: the set
 * is regenerated into a temporary folder and compared byte for byte. Files of a format whose
 * writer answers "unsupported" today are skipped; files of a format that became writable
 * since the folder was generated are reported (re-run the command), not failed. The DFF set
 * is the baseline and must be complete. Every committed file stays under 300 KB. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "character_cli.h"
#include "testutil.h"

static char *path_join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

/* Every table row ("| char...") of the committed manifest must be a line of the new one. */
static void compare_manifests(const uint8_t *old, size_t old_size, const uint8_t *now, size_t now_size)
{
    char *a = malloc(old_size + 1), *b = malloc(now_size + 1);
    memcpy(a, old, old_size), a[old_size] = 0;
    memcpy(b, now, now_size), b[now_size] = 0;
    int rows = 0;
    for (char *line = strtok(a, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "| char", 6))
            continue;
        rows++;
        char *hit = strstr(b, line);
        int whole = hit && (hit == b || hit[-1] == '\n') && (hit[strlen(line)] == '\n' || !hit[strlen(line)]);
        if (!whole)
            fprintf(stderr, "manifest row no longer generated: %s\n", line);
        CHECK(whole);
    }
    CHECK(rows >= VKS_GEN_DATASET_COUNT);
    free(a);
    free(b);
}

int main(void)
{
    const char *committed = vks_test_source_path("datasets");
    const char *bin = getenv("VKSKIN_BINARY_DIR");
    char tmpl[1024];
    snprintf(tmpl, sizeof tmpl, "%s/gen_datasets_XXXXXX", bin && *bin ? bin : ".");
    char *tmp = mkdtemp(tmpl);
    CHECK(tmp != NULL);
    if (!tmp)
        return vks_test_finish("test_gen_datasets");

    vks_error err = {0};
    int written = 0;
    CHECK_EQ_INT(vks_gen_write_datasets(tmp, NULL, stderr, &written, &err), VKS_OK);
    CHECK(written >= VKS_GEN_DATASET_COUNT);

    /* committed -> regenerated */
    DIR *dir = opendir(committed);
    CHECK(dir != NULL);
    int compared = 0;
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char *old_path = path_join(committed, e->d_name), *new_path = path_join(tmp, e->d_name);
        size_t old_size = 0, new_size = 0;
        uint8_t *old = vks_test_read_file(old_path, &old_size);
        uint8_t *now = vks_test_read_file(new_path, &new_size);
        CHECK(old != NULL);
        if (old && strcmp(e->d_name, "MANIFEST.md"))
            CHECK(old_size < 300 * 1024);
        if (!strcmp(e->d_name, "MANIFEST.md")) {
            CHECK(now != NULL);
            if (old && now)
                compare_manifests(old, old_size, now, new_size);
        } else if (!now) {
            printf("skip %s: its writer answers unsupported now\n", e->d_name);
            CHECK(!ends_with(e->d_name, ".dff"));
        } else {
            int same = old && old_size == new_size && !memcmp(old, now, old_size);
            if (!same)
                fprintf(stderr, "%s differs from what the generator writes now (%zu vs %zu bytes); "
                                "re-run `vkskin generate --datasets datasets` if the change is intended\n",
                        e->d_name, old_size, new_size);
            CHECK(same);
            compared++;
        }
        free(old);
        free(now);
        free(old_path);
        free(new_path);
    }
    if (dir)
        closedir(dir);
    CHECK(compared >= VKS_GEN_DATASET_COUNT);

    /* regenerated -> committed (and clean up) */
    dir = opendir(tmp);
    while (dir && (e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char *old_path = path_join(committed, e->d_name), *new_path = path_join(tmp, e->d_name);
        struct stat st;
        if (stat(old_path, &st) != 0) {
            if (ends_with(e->d_name, ".dff")) {
                fprintf(stderr, "%s is generated but not committed\n", e->d_name);
                CHECK(0);
            } else {
                printf("note: %s is writable now but not committed; re-run "
                       "`vkskin generate --datasets datasets`\n",
                       e->d_name);
            }
        }
        remove(new_path);
        free(old_path);
        free(new_path);
    }
    if (dir)
        closedir(dir);
    rmdir(tmp);
    printf("compared %d committed files\n", compared);
    return vks_test_finish("test_gen_datasets");
}
