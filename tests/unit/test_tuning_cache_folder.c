/* The launch-shape cache's folder trusted no further than its user (issue 37, src/gpu/
 * tuning_cache.c): a symlink planted at the writer's temporary name does not send the entry
 * to the link's target outside the cache; a FIFO, a folder or a symlink at an entry's name is
 * skipped with a note, never opened for a blocking read (the test dies of its alarm if it
 * hangs); a folder that another user owns, or that its group or others may write, is not
 * used (once per process it says why). No device. */
#define _POSIX_C_SOURCE 200809L
#include "gpu/tuning_cache.h"
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static vks__cache_key key(void)
{
    vks__cache_key k = {0x10de, 0x2330, 0x91158300u, {0}, "1.2.3", 0};
    for (int i = 0; i < 16; i++)
        k.uuid[i] = (uint8_t)(i * 17);
    return k;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int file_is(const char *path, const char *text)
{
    size_t n = 0;
    uint8_t *got = vks_test_read_file(path, &n);
    int same = got && n == strlen(text) && memcmp(got, text, n) == 0;
    free(got);
    return same;
}

/* A symlink at "<entry>.tmp.<pid>", the temporary's name, to a file outside the cache. */
static void planted_temporary(const char *root, const char *dir, const vks__cache_key *k)
{
    char victim[700], entry[4200], tmp[4300], why[512] = "";
    snprintf(victim, sizeof victim, "%s/victim.txt", root);
    write_text(victim, "precious\n");
    vks__cache_path(dir, k, "launch-shape.txt", entry, sizeof entry);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", entry, (long)getpid());
    CHECK(symlink(victim, tmp) == 0);
    vks__cache_write_shape(dir, k, "wg=64", 1e9, why, sizeof why);
    CHECK(file_is(victim, "precious\n")); /* the link's target is not written */
    struct stat st;
    CHECK(lstat(victim, &st) == 0 && S_ISREG(st.st_mode));
    unlink(tmp);
    unlink(entry);
}

/* Things at an entry's name that are not regular files: skipped with a note, not waited on. */
static void odd_entries(const char *root, const char *dir, const vks__cache_key *k)
{
    char entry[4200], why[512], shape[128], target[700];
    vks__cache_path(dir, k, "launch-shape.txt", entry, sizeof entry);
    CHECK(mkfifo(entry, 0600) == 0);
    why[0] = '\0';
    alarm(20); /* a blocking open of the FIFO would wait for a writer forever */
    CHECK_EQ_INT(vks__cache_read_shape(dir, k, shape, sizeof shape, NULL, why, sizeof why), -1);
    alarm(0);
    CHECK(strstr(why, entry) != NULL && strstr(why, "not a regular file") != NULL);
    size_t n = 0;
    why[0] = '\0';
    alarm(20);
    CHECK(vks__cache_read_blob(entry, 4096, &n, why, sizeof why) == NULL);
    alarm(0);
    CHECK(strstr(why, "not a regular file") != NULL);
    unlink(entry);

    CHECK(mkdir(entry, 0700) == 0);
    why[0] = '\0';
    CHECK_EQ_INT(vks__cache_read_shape(dir, k, shape, sizeof shape, NULL, why, sizeof why), -1);
    CHECK(strstr(why, "not a regular file") != NULL);
    rmdir(entry);

    /* a good entry elsewhere, linked in: not followed */
    char elsewhere[700];
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", root);
    CHECK(vks__cache_write_shape(elsewhere, k, "wg=128", 1e9, why, sizeof why));
    vks__cache_path(elsewhere, k, "launch-shape.txt", target, sizeof target);
    CHECK(symlink(target, entry) == 0);
    why[0] = '\0';
    CHECK_EQ_INT(vks__cache_read_shape(dir, k, shape, sizeof shape, NULL, why, sizeof why), -1);
    CHECK(strstr(why, "symbolic link") != NULL);
    unlink(entry);
}

/* The folder's owner and mode. */
static void folder_trust(const char *root, const char *dir, const vks__cache_key *k)
{
    char got[600], why[512];
    why[0] = '\0';
    CHECK(vks__cache_dir_trusted(dir, why, sizeof why));
    CHECK(why[0] == '\0');
    char absent[700];
    snprintf(absent, sizeof absent, "%s/not/yet", root);
    CHECK(vks__cache_dir_trusted(absent, why, sizeof why)); /* made 0700 when first written */

    CHECK(chmod(dir, 0777) == 0);
    why[0] = '\0';
    CHECK(!vks__cache_dir_trusted(dir, why, sizeof why));
    CHECK(strstr(why, dir) != NULL && strstr(why, "writ") != NULL);
    CHECK(!vks__cache_write_shape(dir, k, "wg=64", 1e9, why, sizeof why)); /* nothing stored there */
    char entry[4200];
    vks__cache_path(dir, k, "launch-shape.txt", entry, sizeof entry);
    CHECK(access(entry, F_OK) != 0);
    CHECK(chmod(dir, 0770) == 0);
    CHECK(!vks__cache_dir_trusted(dir, why, sizeof why));
    CHECK(chmod(dir, 0755) == 0);
    CHECK(vks__cache_dir_trusted(dir, why, sizeof why)); /* readable by others is fine */
    if (geteuid() == 0) { /* another user's folder (only root can give one away) */
        CHECK(chown(dir, 65534, 65534) == 0);
        why[0] = '\0';
        CHECK(!vks__cache_dir_trusted(dir, why, sizeof why));
        CHECK(strstr(why, "belongs to") != NULL);
        CHECK(chown(dir, 0, 0) == 0);
    }

    /* The option's resolution says why once per process, then stays quiet. */
    CHECK(chmod(dir, 0777) == 0);
    why[0] = '\0';
    CHECK(!vks__cache_dir_usable(dir, got, sizeof got, why, sizeof why));
    CHECK(got[0] == '\0' && strstr(why, "not used") != NULL);
    why[0] = '\0';
    CHECK(!vks__cache_dir_usable(dir, got, sizeof got, why, sizeof why));
    CHECK(why[0] == '\0');
    CHECK(chmod(dir, 0700) == 0);
    CHECK(vks__cache_dir_usable(dir, got, sizeof got, why, sizeof why) && strcmp(got, dir) == 0);
}

int main(void)
{
    char tmpl[] = "/tmp/vks_cache_folder_XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return vks_test_finish("test_tuning_cache_folder");
    char dir[600];
    snprintf(dir, sizeof dir, "%s/vkskin", root);
    CHECK(mkdir(dir, 0700) == 0);
    vks__cache_key k = key();
    planted_temporary(root, dir, &k);
    odd_entries(root, dir, &k);
    folder_trust(root, dir, &k);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_tuning_cache_folder");
}
