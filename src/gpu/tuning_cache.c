/* See tuning_cache.h. The launch-shape entry is a few lines of text, so a person can read what
 * was measured and delete it:
 *   vkskin launch-shape cache 1
 *   vkskin 0.9.0
 *   device 0x10de 0x2330 driver 0x91158300 uuid 00112233445566778899aabbccddeeff
 *   shape wg=256,pose_wg=64,run=8,palette=off,texels=off
 *   rate 1.2e+11 */
#define _POSIX_C_SOURCE 200809L
#include "tuning_cache.h"
#include "core/c_numeric.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHAPE_MAGIC "vkskin launch-shape cache 1"

int vks__cache_dir(const char *option, char *out, size_t n)
{
    if (option)
        return *option ? snprintf(out, n, "%s", option) < (int)n : 0;
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg && *xdg == '/') /* the XDG spec ignores relative values */
        return snprintf(out, n, "%s/vkskin", xdg) < (int)n;
    const char *home = getenv("HOME");
    if (home && *home)
        return snprintf(out, n, "%s/.cache/vkskin", home) < (int)n;
    return 0;
}

static void uuid_hex(const uint8_t uuid[16], char out[33])
{
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", uuid[i]);
}

void vks__cache_path(const char *dir, const vks__cache_key *key, const char *kind, char *out, size_t n)
{
    char u[33];
    uuid_hex(key->uuid, u);
    snprintf(out, n, "%s/%04x-%04x-%08x-%.8s-%s", dir, key->vendor_id, key->device_id, key->driver_version, u, kind);
}

void *vks__cache_read_blob(const char *path, size_t max, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(max + 1);
    size_t got = buf ? fread(buf, 1, max + 1, f) : 0;
    fclose(f);
    if (!buf || got > max) { /* larger than any entry we write: not ours */
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    *size = got;
    return buf;
}

/* mkdir -p of dir (the cache's parents may not exist yet on a fresh machine). */
static int make_dirs(const char *dir)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p)
        return 0;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                return 0;
            *s = '/';
        }
    return mkdir(p, 0700) == 0 || errno == EEXIST;
}

int vks__cache_write_blob(const char *dir, const char *path, const void *data, size_t size)
{
    if (!make_dirs(dir))
        return 0;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return 0;
    int ok = fwrite(data, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    if (ok)
        ok = rename(tmp, path) == 0;
    if (!ok)
        remove(tmp);
    return ok;
}

static void key_line(const vks__cache_key *key, char *out, size_t n)
{
    char u[33];
    uuid_hex(key->uuid, u);
    snprintf(out, n, "device 0x%x 0x%x driver 0x%x uuid %s", key->vendor_id, key->device_id, key->driver_version,
             u);
}

/* The next line of *p (its newline replaced by '\0'), or NULL at the end. */
static char *next_line(char **p)
{
    if (!*p || !**p)
        return NULL;
    char *line = *p, *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *p = nl + 1;
    } else {
        *p = line + strlen(line);
    }
    return line;
}

static int cache_read_shape_body(const char *dir, const vks__cache_key *key, char *shape, size_t n, double *rate,
                                 char *why, size_t wn)
{
    char path[4200];
    vks__cache_path(dir, key, "launch-shape.txt", path, sizeof path);
    size_t size = 0;
    char *text = vks__cache_read_blob(path, 4096, &size);
    if (!text)
        return 0;
    int complete = size > 0 && text[size - 1] == '\n'; /* a file cut short is damaged */
    char *p = text, *line[5];
    int lines = 0;
    while (lines < 5 && (line[lines] = next_line(&p)) != NULL)
        lines++;
    char want_key[128], want_version[128];
    key_line(key, want_key, sizeof want_key);
    snprintf(want_version, sizeof want_version, "vkskin %s", key->vkskin_version);
    int res = -1;
    char *end = NULL;
    double r = 0;
    if (lines < 5 || strcmp(line[0], SHAPE_MAGIC) != 0 || !complete)
        snprintf(why, wn, "%s: not a launch-shape cache entry (ignored)", path);
    else if (strcmp(line[1], want_version) != 0 || strcmp(line[2], want_key) != 0)
        res = 0; /* measured by another vkskin or driver: measure again */
    else if (strncmp(line[3], "shape ", 6) != 0 || strlen(line[3] + 6) >= n || strncmp(line[4], "rate ", 5) != 0 ||
             !((r = strtod(line[4] + 5, &end)) > 0) || *end != '\0')
        snprintf(why, wn, "%s: a damaged launch-shape entry (ignored)", path);
    else {
        snprintf(shape, n, "%s", line[3] + 6);
        if (rate)
            *rate = r;
        res = 1;
    }
    free(text);
    return res;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
int vks__cache_read_shape(const char *dir, const vks__cache_key *key, char *shape, size_t n, double *rate,
                          char *why, size_t wn)
{
    VKS_RETURN_IN_C_NUMERIC(int, cache_read_shape_body(dir, key, shape, n, rate, why, wn));
}

static int cache_write_shape_body(const char *dir, const vks__cache_key *key, const char *shape, double rate, char *why,
                                  size_t wn)
{
    char path[4200], k[128], text[1024];
    vks__cache_path(dir, key, "launch-shape.txt", path, sizeof path);
    key_line(key, k, sizeof k);
    int len = snprintf(text, sizeof text, "%s\nvkskin %s\n%s\nshape %s\nrate %.6g\n", SHAPE_MAGIC,
                       key->vkskin_version, k, shape, rate);
    if (len <= 0 || len >= (int)sizeof text || !vks__cache_write_blob(dir, path, text, (size_t)len)) {
        snprintf(why, wn, "%s: cannot write the launch-shape cache: %s", path, strerror(errno));
        return 0;
    }
    return 1;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
int vks__cache_write_shape(const char *dir, const vks__cache_key *key, const char *shape, double rate, char *why,
                           size_t wn)
{
    VKS_RETURN_IN_C_NUMERIC(int, cache_write_shape_body(dir, key, shape, rate, why, wn));
}
