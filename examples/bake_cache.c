/* bake_cache: a host program that bakes a vertex cache of a character through the library's
 * bake jobs (bake_job.h), as `vkskin bake` does, with the public headers only.
 *
 * It writes no manifest file: one job, in memory (vks_bake_manifest_parse), plays the clip
 * file's clips at 30 fps over FRAMES frames on the CPU reference engine and asks for a PC2
 * point cache and a raw cache (float32 x y z nx ny nz per file vertex, frame-major). Then it
 * checks what the run says it wrote (vks_bake_job_get, vks_bake_job_file), the files' sizes
 * against their formats, the raw sidecar's "frame_count", and every float of the raw cache
 * against REF.raw, the same frames deformed by the CLI:
 *   vkskin deform MODEL --cpu --clip CLIP --frames FRAMES --fps 30 --out REF.raw
 * Usage: bake_cache MODEL CLIP OUTDIR REF.raw FRAMES
 * Exit: 0 baked and matching, 1 a mismatch or an error. */
#include <vkskin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void log_line(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    fprintf(stderr, "bake_cache: %s\n", msg);
}

static void progress(void *user, const vks_bake_progress_info *p)
{
    (void)user;
    if (p->final)
        fprintf(stderr, "bake_cache: %u of %u jobs, %llu frames\n", p->jobs_done, p->jobs,
                (unsigned long long)p->frames_done);
}

/* A whole file read (malloc'ed), NULL when it cannot be. */
static float *read_floats(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        if (f)
            fclose(f);
        return NULL;
    }
    float *v = malloc((size_t)st.st_size + 1);
    *count = v && fread(v, 1, (size_t)st.st_size, f) == (size_t)st.st_size ? (size_t)st.st_size / 4 : 0;
    fclose(f);
    return v;
}

static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The number after "key": in a sidecar (the library's JSON, one key a line); -1 when missing. */
static double json_number(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    char line[1024], pat[64];
    double v = -1;
    snprintf(pat, sizeof pat, "\"%s\":", key);
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, pat)) {
            v = atof(strstr(line, pat) + strlen(pat));
            break;
        }
    if (f)
        fclose(f);
    return v;
}

/* The cache's floats against the CLI's: positions and normals within 1e-4 of their scale (the
 * bake samples each frame's time rounded to float, deform in double). */
static int compare(const char *baked, const char *ref)
{
    size_t n = 0, m = 0;
    float *a = read_floats(baked, &n), *b = read_floats(ref, &m);
    int ok = a && b && n == m && n > 0;
    if (!ok)
        fprintf(stderr, "bake_cache: MISMATCH: %s has %zu floats, %s %zu\n", baked, n, ref, m);
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; ok && i < n; i++) {
        double d = fabs((double)a[i] - b[i]) / (1.0 + fabs((double)b[i]));
        if (d > worst || d != d)
            worst = d, at = i;
    }
    if (ok && !(worst <= 1e-4)) {
        fprintf(stderr, "bake_cache: MISMATCH: float %zu (frame-major, 6 a vertex): %.9g baked, %.9g by deform\n", at,
                a[at], b[at]);
        ok = 0;
    }
    if (ok)
        printf("bake_cache: %zu floats match vkskin deform (largest relative difference %.3g)\n", n, worst);
    free(a);
    free(b);
    return ok;
}

/* What the run says of its one job, and the files against their formats. */
static int check_job(const vks_bake_manifest *m, const char *out, uint32_t frames, char *raw, size_t cap)
{
    vks_bake_job_info info;
    if (vks_bake_job_get(m, 0, &info) != VKS_OK || info.status != VKS_BAKE_JOB_BAKED || info.frames != frames) {
        fprintf(stderr, "bake_cache: MISMATCH: the job was not baked with %u frames (status %d, %u frames)\n", frames,
                (int)info.status, info.frames);
        return 0;
    }
    /* the file's vertices, as the cache stores them: the raw cache's 24 bytes each a frame */
    uint64_t want_raw = 0, want_pc2 = 0, points = 0;
    int ok = 1;
    for (uint32_t i = 0; i < info.file_count; i++) {
        vks_bake_file f;
        vks_bake_job_file(m, 0, i, &f);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", out, f.path);
        printf("bake_cache: %s (%s, %llu bytes)\n", f.path, f.kind, (unsigned long long)f.bytes);
        ok = ok && file_bytes(path) == f.bytes;
        if (strstr(f.path, ".raw") && !strstr(f.path, ".json"))
            snprintf(raw, cap, "%s", path), want_raw = f.bytes;
        if (strstr(f.path, ".pc2") && !strstr(f.path, ".json"))
            want_pc2 = f.bytes;
    }
    points = want_raw / 24 / frames;
    ok = ok && want_raw == points * frames * 24 && points > 0 && want_pc2 == 32 + points * frames * 12;
    char sidecar[4096];
    snprintf(sidecar, sizeof sidecar, "%s.json", raw);
    ok = ok && json_number(sidecar, "frame_count") == frames;
    if (!ok)
        fprintf(stderr, "bake_cache: MISMATCH: sizes (raw %llu, pc2 %llu bytes for %llu points) or the sidecar's "
                        "frame_count\n", (unsigned long long)want_raw, (unsigned long long)want_pc2,
                (unsigned long long)points);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bake_cache MODEL CLIP OUTDIR REF.raw FRAMES\n");
        return 1;
    }
    uint32_t frames = (uint32_t)atoi(argv[5]);
    vks_bake_options o;
    vks_bake_options_init(&o);
    o.engine = VKS_BAKE_CPU;
    o.out_dir = argv[3];
    o.force = 1; /* a run again writes again: the test checks this run's files */
    o.logger.func = log_line;
    o.progress = progress;
    char job[8192];
    snprintf(job, sizeof job,
             "{\"version\": 1, \"jobs\": [{\"name\": \"cache\", \"model\": \"%s\", \"clips\": [\"%s\"], "
             "\"fps\": 30, \"range\": [0, %.9g], \"outputs\": [\"pc2\", \"raw\"]}]}",
             argv[1], argv[2], (frames - 1) / 30.0);
    vks_bake_manifest *m = NULL;
    vks_error err = {0};
    vks_bake_summary sum;
    char raw[4096] = "";
    if (vks_bake_manifest_parse(&m, "bake_cache.json", job, strlen(job), &o, &err) != VKS_OK ||
        vks_bake_run(m, &o, &sum, &err) != VKS_OK) {
        fprintf(stderr, "bake_cache: %s\n", err.msg);
        vks_bake_manifest_free(m);
        return 1;
    }
    int ok = check_job(m, argv[3], frames, raw, sizeof raw) && compare(raw, argv[4]);
    vks_bake_manifest_free(m);
    return ok ? 0 : 1;
}
