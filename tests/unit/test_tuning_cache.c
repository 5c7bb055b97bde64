/* The launch-shape cache (src/gpu/tuning_cache.c): written and read back; not used for another
 * driver, device or vkskin version; a damaged entry (every truncation, a bad rate, an
 * unknown magic) reported as damaged, never used; an unwritable folder reported, nothing
 * else; the folder from the option, $XDG_CACHE_HOME (absolute only) or $HOME. No device. */
#define _POSIX_C_SOURCE 200809L
#include "gpu/tuning_cache.h"
#include "testutil.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static vks__cache_key key(uint32_t driver, const char *version)
{
    vks__cache_key k = {0x10de, 0x2330, driver, {0}, version, 0};
    for (int i = 0; i < 16; i++)
        k.uuid[i] = (uint8_t)(i * 17);
    return k;
}

static void write_text(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(text, 1, n, f) == n);
        fclose(f);
    }
}

int main(void)
{
    char tmpl[] = "/tmp/vks_tuning_cache_XXXXXX";
    char *root = mkdtemp(tmpl);
    CHECK(root != NULL);
    if (!root)
        return vks_test_finish("test_tuning_cache");
    char dir[600], why[512], shape[128], path[4200];
    snprintf(dir, sizeof dir, "%s/nested/vkskin", root); /* parents made on write */
    vks__cache_key k = key(0x91158300u, "1.2.3");
    double rate = 0;

    CHECK_EQ_INT(vks__cache_read_shape(dir, &k, shape, sizeof shape, &rate, why, sizeof why), 0); /* none yet */
    CHECK(vks__cache_write_shape(dir, &k, "wg=256,pose_wg=64,run=8,palette=off,texels=off", 1.25e11, why, sizeof why));
    CHECK_EQ_INT(vks__cache_read_shape(dir, &k, shape, sizeof shape, &rate, why, sizeof why), 1);
    CHECK(strcmp(shape, "wg=256,pose_wg=64,run=8,palette=off,texels=off") == 0);
    CHECK_NEAR(rate, 1.25e11, 1e6);

    /* another driver, device or vkskin: not this entry */
    vks__cache_key other = key(0x91158301u, "1.2.3");
    CHECK_EQ_INT(vks__cache_read_shape(dir, &other, shape, sizeof shape, NULL, why, sizeof why), 0);
    other = key(0x91158300u, "1.2.4");
    CHECK_EQ_INT(vks__cache_read_shape(dir, &other, shape, sizeof shape, NULL, why, sizeof why), 0);
    other = k;
    other.uuid[3] ^= 1;
    CHECK_EQ_INT(vks__cache_read_shape(dir, &other, shape, sizeof shape, NULL, why, sizeof why), 0);
    /* An entry of another driver copied under this one's name (a file's name is no proof). */
    vks__cache_path(dir, &k, "launch-shape.txt", path, sizeof path);
    size_t n = 0;
    char *good = vks__cache_read_blob(path, 4096, &n, why, sizeof why);
    CHECK(good != NULL);
    char *foreign = good ? strdup(good) : NULL;
    if (foreign) {
        char *d = strstr(foreign, "driver 0x91158300");
        CHECK(d != NULL);
        if (d)
            d[16] = '1';
        write_text(path, foreign, strlen(foreign));
        CHECK_EQ_INT(vks__cache_read_shape(dir, &k, shape, sizeof shape, NULL, why, sizeof why), 0);
        free(foreign);
    }

    /* Every truncation of a good entry is damaged (a rate cut short is another number: an
     * entry must end with its newline). */
    for (size_t cut = 0; good && cut < n; cut++) {
        write_text(path, good, cut);
        why[0] = '\0';
        CHECK_EQ_INT(vks__cache_read_shape(dir, &k, shape, sizeof shape, NULL, why, sizeof why), -1);
        CHECK(strstr(why, "ignored") != NULL);
    }
    /* Lines that are not what they should be. */
    char keyline[128];
    snprintf(keyline, sizeof keyline, "%s", good ? strstr(good, "device ") : "");
    *strchr(keyline, '\n') = '\0';
    const char *bad[][5] = {
        {"vkskin launch-shape cache 2", "vkskin 1.2.3", keyline, "shape wg=64", "rate 1"},
        {"vkskin launch-shape cache 1", "vkskin 1.2.3", keyline, "shape wg=64", "rate nan"},
        {"vkskin launch-shape cache 1", "vkskin 1.2.3", keyline, "shape wg=64", "rate -1"},
        {"vkskin launch-shape cache 1", "vkskin 1.2.3", keyline, "shape wg=64", "rate 12abc"},
        {"vkskin launch-shape cache 1", "vkskin 1.2.3", keyline, "shapes wg=64", "rate 1"},
    };
    for (size_t i = 0; good && i < sizeof bad / sizeof *bad; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s\n%s\n%s\n%s\n%s\n", bad[i][0], bad[i][1], bad[i][2], bad[i][3], bad[i][4]);
        write_text(path, text, strlen(text));
        why[0] = '\0';
        CHECK_EQ_INT(vks__cache_read_shape(dir, &k, shape, sizeof shape, NULL, why, sizeof why), -1);
        CHECK(strstr(why, path) != NULL);
    }
    {
        char text[1024];
        snprintf(text, sizeof text, "vkskin launch-shape cache 1\nvkskin 1.2.3\n%s\nshape wg=64\nrate 1\n", keyline);
        write_text(path, text, strlen(text));
        CHECK_EQ_INT(vks__cache_read_shape(dir, &k, shape, sizeof shape, &rate, why, sizeof why), 1);
        CHECK(strcmp(shape, "wg=64") == 0);
    }
    free(good);

    /* An unwritable folder: refused with the reason (root writes anywhere: a file in the way). */
    char blocked[700];
    snprintf(blocked, sizeof blocked, "%s/file", root);
    write_text(blocked, "x", 1);
    char under[800];
    snprintf(under, sizeof under, "%s/vkskin", blocked);
    why[0] = '\0';
    CHECK(!vks__cache_write_shape(under, &k, "wg=64", 1, why, sizeof why));
    CHECK(strstr(why, "cannot write") != NULL);

    /* The folder */
    char d[600];
    CHECK(!vks__cache_dir("", d, sizeof d));
    CHECK(vks__cache_dir("/x/y", d, sizeof d) && strcmp(d, "/x/y") == 0);
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    setenv("HOME", "/home/someone", 1);
    CHECK(vks__cache_dir(NULL, d, sizeof d) && strcmp(d, "/xdg/vkskin") == 0);
    setenv("XDG_CACHE_HOME", "relative", 1);
    CHECK(vks__cache_dir(NULL, d, sizeof d) && strcmp(d, "/home/someone/.cache/vkskin") == 0);
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    CHECK(!vks__cache_dir(NULL, d, sizeof d));

    /* Programs with different locales share one cache: the rate goes with '.' whatever the
       host's setlocale() (core/c_numeric.h), written under de_DE and read under C, and back. */
    char loc[] = "/tmp/vks_tuning_locale_XXXXXX", comma[700];
    snprintf(comma, sizeof comma, "%s/comma", root);
    if (vks_test_comma_locale(loc)) {
        vks__cache_key c1 = key(0x91158300u, "1.2.3"), c2 = key(0x91158301u, "1.2.3");
        CHECK(vks__cache_write_shape(comma, &c1, "wg=64", 1.25e11, why, sizeof why));
        setlocale(LC_ALL, "C");
        CHECK(vks__cache_write_shape(comma, &c2, "wg=128", 2.5e10, why, sizeof why));
        rate = 0;
        CHECK_EQ_INT(vks__cache_read_shape(comma, &c1, shape, sizeof shape, &rate, why, sizeof why), 1);
        CHECK_NEAR(rate, 1.25e11, 1e6);
        CHECK(setlocale(LC_ALL, "de_DE.UTF-8") != NULL);
        rate = 0;
        CHECK_EQ_INT(vks__cache_read_shape(comma, &c2, shape, sizeof shape, &rate, why, sizeof why), 1);
        CHECK_NEAR(rate, 2.5e10, 1e6);
        setlocale(LC_ALL, "C");
    } else {
        fprintf(stderr, "test_tuning_cache: no de_DE locale could be made: the locale case skipped\n");
    }
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, loc);
    CHECK(system(cmd) == 0);
    return vks_test_finish("test_tuning_cache");
}
