/* vkskin bake MANIFEST.json: bakes every job of a manifest (README "Batch baking") into VAT
 * textures, bone-matrix atlases and caches, each with a sidecar. Jobs whose sidecars say they
 * are up to date are skipped, so a bake killed halfway finishes where it stopped; --shard I/N
 * takes one share of the jobs for a job array (tools/slurm/bake.sbatch). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "bake_job.h"
#include "cli_gpu.h"

static void help(FILE *f)
{
    fprintf(f,
            "usage: vkskin bake MANIFEST.json [--out DIR] [--shard I/N] [--force] [--jobs N]\n"
            "                   [--cpu | --cpu-fast] [--report FILE.json] [--contact-sheet]\n"
            "                   [--max-memory-mb N] [--quiet]\n"
            "       vkskin bake MANIFEST.json --check [--merge DIR] [--out DIR] [--report FILE.json]\n\n"
            "Bakes every job of the manifest (README \"Batch baking\" has the schema): each clip's frames\n"
            "deformed on the GPU (one crowd instance per frame, all frames of a job in one submission)\n"
            "or on a CPU engine, written as VAT textures (OpenEXR float or half, 16-bit PNG) with the\n"
            "rest mesh, bone-matrix atlases (OpenEXR), PC2 and raw caches; each output kind with a JSON\n"
            "sidecar naming its clips, frames, rows, bounds and encoding.\n\n"
            "  --out DIR         where outputs go (default: the manifest's \"out\", else \"bake\" beside it)\n"
            "  --shard I/N       bake only share I (0-based) of N, balanced by vertices x frames\n"
            "  --force           redo outputs even when their sidecar says they are up to date\n"
            "  --jobs N          jobs in flight at once (default 1; the GPU is shared between them)\n"
            "  --cpu             the CPU reference engine (double); --cpu-fast: the fast CPU engine\n"
            "  --report FILE     a JSON report: per job its outputs, times and bytes\n"
            "  --contact-sheet   a PNG per baked clip, its frames in a grid (GPU renderer)\n"
            "  --max-memory-mb N a job holds all its frames in memory: one that would need more than\n"
            "                    N MB (default 4096; with --jobs J, J jobs at once) is refused before\n"
            "                    it is deformed (exit 5); split its clips or lower its fps or range\n"
            "  --device N|NAME   the Vulkan device; --validation: the Khronos validation layer\n"
            "  --check           bake nothing: exit 1 unless every output of every job is up to date\n"
            "                    (the merge step after a sharded bake); with --merge DIR the shards'\n"
            "                    reports in DIR become one --report\n\n"
            "Outputs are written to a temporary name and renamed; a sidecar is written after its files,\n"
            "so a re-run skips what is complete (same manifest entry and vkskin version) and redoes\n"
            "the rest. Over a long bake a progress line on stderr every 2 s (a bar on a terminal;\n"
            "--quiet: none), then the summary.\n\n"
            "exit codes: 0 ok, 1 bad manifest or input, 2 usage, 4 no Vulkan device, 5 runtime failure\n");
}

typedef struct bake_run {
    vks_bake_manifest *m;
    const uint8_t *mine;
    vks_bake_result *res;
    const char *out;
    int force;
    uint64_t max_memory;  /* bytes a job may take (--max-memory-mb) */
    vks_bake_engine engine;
    vks_gpu *gpu;
    pthread_mutex_t lock; /* the next job, progress, and the GPU (one thread at a time) */
    uint32_t next;
    vks_bake_progress progress;
    int exit_code;
} bake_run;

/* A job between its steps: read, deformed, written. */
typedef struct job_slot {
    uint32_t j;
    vks_bake_job only;  /* the job with the outputs to redo only */
    vks_bake_loaded l;
    vks_bake_frames fr;
    double t0;
} job_slot;

#define GROUP_MAX_JOBS 16u

/* Progress, and the run's exit code, after job j. */
static void account(bake_run *run, uint32_t j)
{
    pthread_mutex_lock(&run->lock);
    run->progress.jobs_done++;
    if (run->res[j].done == 1)
        run->progress.frames_done += run->res[j].frames;
    if (run->res[j].done < 0)
        run->exit_code = vks_cli_worse_exit(run->exit_code, run->res[j].exit_code);
    vks_bake_progress_update(&run->progress, "", 0);
    pthread_mutex_unlock(&run->lock);
}

/* Decides what job j must redo, reads it and makes its frames' arrays. Returns 1 when it is to
 * be deformed and written; 0 when it is finished already (up to date, or failed). */
static int prepare(bake_run *run, uint32_t j, job_slot *s)
{
    const vks_bake_job *job = &run->m->jobs[j];
    vks_bake_result *res = &run->res[j];
    memset(s, 0, sizeof *s);
    s->j = j;
    s->t0 = vks_bake_now();
    res->files = cJSON_CreateArray();
    uint32_t todo = job->outputs;
    if (!run->force) {
        uint32_t fresh = vks_bake_up_to_date(job, run->out, res->files);
        todo &= ~fresh;
        for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++)
            res->outputs_skipped += (fresh >> k) & 1u;
    }
    if (!todo && !job->contact_sheet) {
        res->done = 2;
        res->seconds = vks_bake_now() - s->t0;
        return 0;
    }
    s->only = *job;
    s->only.outputs = todo;
    int ok = vks_bake_load(job, &s->l);
    res->exit_code = ok ? VKS_EXIT_RUNTIME : VKS_EXIT_INPUT; /* past the inputs, a failure is the run's */
    if (ok) {
        res->frames = s->l.frames;
        res->vertices = s->l.skin->vertex_count;
        /* refused before its frames are made: the whole job is held in memory at once */
        uint64_t need = vks_bake_job_memory(&s->only, &s->l, run->engine);
        if (need > run->max_memory) {
            fprintf(stderr,
                    "vkskin: %s: %s: baking %u frames of %u vertices takes about %llu MB of memory, over the "
                    "budget of %llu MB (--max-memory-mb N; or split its clips, lower its fps or range)\n",
                    run->m->path, job->where, s->l.frames, s->l.skin->vertex_count,
                    (unsigned long long)((need + (1u << 20) - 1) >> 20), (unsigned long long)(run->max_memory >> 20));
            ok = 0;
        }
    }
    if (ok)
        ok = vks_bake_frames_alloc(&s->only, &s->l, &s->fr);
    if (!ok) {
        vks_bake_frames_free(&s->fr);
        vks_bake_loaded_free(&s->l);
        res->done = -1;
        res->seconds = vks_bake_now() - s->t0;
    }
    return ok;
}

/* Writes a deformed job (ok: its deformation succeeded) and frees it. */
static void finish(bake_run *run, job_slot *s, int ok)
{
    const vks_bake_job *job = &run->m->jobs[s->j];
    vks_bake_result *res = &run->res[s->j];
    if (ok)
        ok = vks_bake_write_outputs(job, &s->l, &s->fr, run->out, s->only.outputs, run->engine, res);
    vks_bake_frames_free(&s->fr);
    vks_bake_loaded_free(&s->l);
    res->done = ok ? (s->only.outputs ? 1 : 2) : -1;
    res->seconds = vks_bake_now() - s->t0;
    account(run, s->j);
}

/* The GPU's group: every job's frames deformed by one crowd in one submission (the context is
 * taken for it, and for the contact sheets), then each job written. */
static void flush_group(bake_run *run, job_slot *g, uint32_t n)
{
    if (!n)
        return;
    const vks_bake_job *jobs[GROUP_MAX_JOBS];
    const vks_bake_loaded *ls[GROUP_MAX_JOBS];
    vks_bake_frames *frs[GROUP_MAX_JOBS];
    for (uint32_t i = 0; i < n; i++)
        jobs[i] = &g[i].only, ls[i] = &g[i].l, frs[i] = &g[i].fr;
    double d0 = vks_bake_now();
    pthread_mutex_lock(&run->lock);
    int ok = vks_bake_deform_gpu_group(jobs, ls, n, run->gpu, frs);
    int sheet_ok[GROUP_MAX_JOBS];
    for (uint32_t i = 0; i < n; i++)
        sheet_ok[i] = !ok || !jobs[i]->contact_sheet ||
                      vks_bake_contact_sheets(&run->m->jobs[g[i].j], ls[i], frs[i], run->gpu, run->out, &run->res[g[i].j]);
    pthread_mutex_unlock(&run->lock);
    double share = (vks_bake_now() - d0) / n;
    for (uint32_t i = 0; i < n; i++) {
        run->res[g[i].j].deform_seconds = share;
        finish(run, &g[i], ok && sheet_ok[i]);
    }
}

static void *worker(void *arg)
{
    bake_run *run = arg;
    job_slot group[GROUP_MAX_JOBS];
    uint32_t n = 0;
    uint64_t bytes = 0;
    for (;;) {
        pthread_mutex_lock(&run->lock);
        uint32_t j = run->next;
        while (j < run->m->job_count && !run->mine[j])
            j++;
        run->next = j + 1;
        if (j < run->m->job_count)
            vks_bake_progress_update(&run->progress, run->m->jobs[j].name, 0);
        pthread_mutex_unlock(&run->lock);
        if (j >= run->m->job_count) {
            flush_group(run, group, n);
            return NULL;
        }
        job_slot s;
        if (!prepare(run, j, &s)) {
            account(run, j);
            continue;
        }
        if (run->engine != VKS_BAKE_GPU || !vks_bake_needs_vertices(&s.only)) {
            double d0 = vks_bake_now();
            int ok = run->engine == VKS_BAKE_GPU || !vks_bake_needs_vertices(&s.only) ||
                     vks_bake_deform_cpu(&s.only, &s.l, run->engine == VKS_BAKE_CPU_FAST, &s.fr);
            run->res[j].deform_seconds = vks_bake_now() - d0;
            finish(run, &s, ok);
            continue;
        }
        /* the GPU takes jobs in groups whose outputs fit one crowd under the chunk size */
        uint64_t b = (uint64_t)s.l.frames * s.l.skin->vertex_count * 24;
        if (n && (bytes + b > VKS_BAKE_GROUP_BYTES || n == GROUP_MAX_JOBS)) {
            flush_group(run, group, n);
            n = 0, bytes = 0;
        }
        group[n++] = s;
        bytes += b;
    }
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0)
            continue;
        char c = buf[i];
        buf[i] = 0;
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return 0;
        buf[i] = c;
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int read_manifest(const char *path, int contact_sheet, vks_bake_manifest *m)
{
    memset(m, 0, sizeof *m);
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(path, &size);
    if (!bytes)
        return VKS_EXIT_INPUT;
    int rc = vks_bake_manifest_parse(path, bytes, size, contact_sheet, m);
    free(bytes);
    return rc;
}

static int parse_shard(const char *text, uint32_t *i, uint32_t *n)
{
    char *end = NULL;
    unsigned long a = strtoul(text, &end, 10);
    if (end == text || *end != '/')
        return 0;
    const char *rest = end + 1;
    unsigned long b = strtoul(rest, &end, 10);
    if (end == rest || *end || b < 1 || b > 100000 || a >= b)
        return 0;
    *i = (uint32_t)a;
    *n = (uint32_t)b;
    return 1;
}

int vks_cmd_bake(int argc, char **argv)
{
    const char *manifest = NULL, *out = NULL, *report = NULL, *shard = NULL, *merge = NULL;
    uint32_t shard_i = 0, shard_n = 1, jobs = 1;
    uint64_t max_memory_mb = VKS_BAKE_DEFAULT_MAX_MEMORY_MB;
    int force = 0, sheet = 0, check = 0;
    vks_bake_engine engine = VKS_BAKE_GPU;
    vks_cli_gpu_opts gopt = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int taken = vks_cli_gpu_option(&gopt, argc, argv, &i);
        if (taken < 0)
            return VKS_EXIT_USAGE;
        if (taken)
            continue;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help(stdout);
            return VKS_EXIT_OK;
        } else if (!strcmp(a, "--out")) {
            if (!(out = vks_cli_value(argc, argv, &i)))
                return VKS_EXIT_USAGE;
        } else if (!strcmp(a, "--report")) {
            if (!(report = vks_cli_value(argc, argv, &i)))
                return VKS_EXIT_USAGE;
        } else if (!strcmp(a, "--shard")) {
            if (!(v = vks_cli_value(argc, argv, &i)))
                return VKS_EXIT_USAGE;
            if (!parse_shard(v, &shard_i, &shard_n)) {
                fprintf(stderr, "vkskin: --shard %s: expected I/N with 0 <= I < N\n", v);
                return VKS_EXIT_USAGE;
            }
            shard = v;
        } else if (!strcmp(a, "--jobs")) {
            if (!(v = vks_cli_value(argc, argv, &i)) || !vks_cli_parse_u32(a, v, &jobs))
                return VKS_EXIT_USAGE;
            if (jobs < 1 || jobs > 256) {
                fprintf(stderr, "vkskin: --jobs %u: expected 1 to 256\n", jobs);
                return VKS_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--max-memory-mb")) {
            uint32_t mb = 0;
            if (!(v = vks_cli_value(argc, argv, &i)) || !vks_cli_parse_u32(a, v, &mb))
                return VKS_EXIT_USAGE;
            if (mb < 1 || mb > (1u << 24)) {
                fprintf(stderr, "vkskin: --max-memory-mb %u: expected 1 to %u\n", mb, 1u << 24);
                return VKS_EXIT_USAGE;
            }
            max_memory_mb = mb;
        } else if (!strcmp(a, "--merge")) {
            if (!(merge = vks_cli_value(argc, argv, &i)))
                return VKS_EXIT_USAGE;
        } else if (!strcmp(a, "--check")) {
            check = 1;
        } else if (!strcmp(a, "--quiet")) {
            vks_cli_progress_quiet(1);
        } else if (!strcmp(a, "--force")) {
            force = 1;
        } else if (!strcmp(a, "--contact-sheet")) {
            sheet = 1;
        } else if (!strcmp(a, "--cpu") || !strcmp(a, "--cpu-fast")) {
            engine = a[5] ? VKS_BAKE_CPU_FAST : VKS_BAKE_CPU;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "vkskin: bake: unknown option %s (see vkskin bake --help)\n", a);
            return VKS_EXIT_USAGE;
        } else if (manifest) {
            fprintf(stderr, "vkskin: bake takes one manifest (%s and %s given)\n", manifest, a);
            return VKS_EXIT_USAGE;
        } else {
            manifest = a;
        }
    }
    if (!manifest) {
        help(stderr);
        return VKS_EXIT_USAGE;
    }
    if (merge && !check) {
        fprintf(stderr, "vkskin: --merge goes with --check (the merge step after a sharded bake)\n");
        return VKS_EXIT_USAGE;
    }
    if (sheet && engine != VKS_BAKE_GPU) {
        fprintf(stderr, "vkskin: --contact-sheet draws with the GPU renderer: not with --cpu or --cpu-fast\n");
        return VKS_EXIT_USAGE;
    }
    vks_bake_manifest m;
    int rc = read_manifest(manifest, sheet, &m);
    if (rc != VKS_EXIT_OK)
        return rc;
    for (uint32_t j = 0; j < m.job_count && engine != VKS_BAKE_GPU; j++)
        if (m.jobs[j].contact_sheet) {
            fprintf(stderr, "vkskin: %s: %s: \"contact_sheet\" needs the GPU renderer: not with --cpu or --cpu-fast\n",
                    manifest, m.jobs[j].where);
            vks_bake_manifest_free(&m);
            return VKS_EXIT_USAGE;
        }
    char *dflt = NULL;
    if (!out && !m.out) {
        size_t n = strlen(m.dir) + 8;
        dflt = malloc(n);
        if (dflt)
            snprintf(dflt, n, "%s%sbake", m.dir, m.dir[0] ? "/" : "");
    }
    const char *dir = out ? out : m.out ? m.out : dflt ? dflt : "bake";
    if ((rc = vks_bake_refuse_inputs(&m, dir, report, merge, check)) != VKS_EXIT_OK) {
        free(dflt);
        vks_bake_manifest_free(&m);
        return rc;
    }
    uint8_t *mine = calloc(m.job_count, 1);
    vks_bake_result *res = calloc(m.job_count, sizeof *res);
    if (!mine || !res || !make_dirs(dir)) {
        fprintf(stderr, "vkskin: %s: %s\n", dir, mine && res ? "cannot make the output folder" : "out of memory");
        rc = VKS_EXIT_RUNTIME;
        goto done;
    }
    if (check) {
        rc = vks_bake_check_outputs(&m, dir, merge, report);
        goto done;
    }
    if (shard_n > 1)
        vks_bake_shard(&m, shard_i, shard_n, mine);
    else
        memset(mine, 1, m.job_count);

    bake_run run = {0};
    run.m = &m;
    run.mine = mine;
    run.res = res;
    run.out = dir;
    run.force = force;
    run.max_memory = max_memory_mb << 20;
    run.engine = engine;
    pthread_mutex_init(&run.lock, NULL);
    run.progress.tty = isatty(2);
    run.progress.start = vks_bake_now();
    for (uint32_t j = 0; j < m.job_count; j++)
        run.progress.jobs += mine[j];
    if (engine == VKS_BAKE_GPU && run.progress.jobs) {
        for (uint32_t j = 0; j < m.job_count; j++)
            gopt.render |= mine[j] && m.jobs[j].contact_sheet; /* a queue family that can draw the sheets */
        rc = vks_cli_gpu_open(&gopt, &run.gpu);
        if (rc != VKS_EXIT_OK) {
            pthread_mutex_destroy(&run.lock);
            goto done;
        }
    }
    if (jobs > run.progress.jobs)
        jobs = run.progress.jobs ? run.progress.jobs : 1;
    pthread_t threads[256];
    uint32_t started = 0;
    for (uint32_t t = 1; t < jobs; t++)
        if (pthread_create(&threads[started], NULL, worker, &run) == 0)
            started++;
    worker(&run);
    for (uint32_t t = 0; t < started; t++)
        pthread_join(threads[t], NULL);
    double seconds = vks_bake_now() - run.progress.start;
    vks_bake_progress_update(&run.progress, "", 1);
    if (run.gpu && vks_gpu_validation_messages(run.gpu)) {
        fprintf(stderr, "vkskin: the validation layer reported %u messages\n", vks_gpu_validation_messages(run.gpu));
        run.exit_code = VKS_EXIT_RUNTIME;
    }
    vks_gpu_destroy(run.gpu);
    pthread_mutex_destroy(&run.lock);
    vks_bake_summary(stderr, &m, mine, res, seconds);
    rc = run.exit_code;
    if (report) {
        char sh[32];
        snprintf(sh, sizeof sh, "%u/%u", shard_i, shard_n);
        rc = vks_cli_worse_exit(rc, vks_bake_report(report, &m, mine, res, vks_bake_engine_name(engine),
                                                    shard ? sh : "0/1", seconds));
    }
done:
    for (uint32_t j = 0; res && j < m.job_count; j++)
        cJSON_Delete(res[j].files);
    free(res);
    free(mine);
    free(dflt);
    vks_bake_manifest_free(&m);
    return rc;
}
