/* The fast CPU engine per core in CPU time, for tools/scripts/bench_ozz.sh's cputime mode (the
 * loop-for-loop comparison with ozz-animation's harness, whose cputime mode times the same way):
 * one thread, one kernel, the bench's generated character (10k vertices, 32 bones, 4
 * influences, seed 1) or FILE, N instances in procedural poses (default 100, as vkskin bench),
 * R timed runs after a warm-up; prints "RESULT best B median M" in M vertex-instances per
 * CPU-second (CLOCK_PROCESS_CPUTIME_ID, which a loaded machine's preemptions do not inflate).
 *   fast_cputime KERNEL [FILE|-] [INSTANCES] [RUNS]     KERNEL: baseline, avx2 or avx512
 * VKSKIN_CPU_CROWD=off times the vertex loops one instance at a time. */
#include <vkskin.h>

#include "character.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !vks_cpu_fast_set_path(argv[1])) {
        fprintf(stderr, "usage: fast_cputime baseline|avx2|avx512 [FILE|-] [INSTANCES] [RUNS] (a kernel this CPU has)\n");
        return 2;
    }
    const char *file = argc > 2 && strcmp(argv[2], "-") ? argv[2] : NULL;
    uint32_t n = argc > 3 ? (uint32_t)atoi(argv[3]) : 100;
    int runs = argc > 4 ? atoi(argv[4]) : 9;
    if (n < 1 || runs < 1 || runs > 1000)
        return 2;
    vks_error err = {0};
    vks_skin *s = NULL;
    if (file) {
        vks_read_file(NULL, file, &s, &err);
    } else {
        vks_gen_params p = {0};
        p.vertices = 10000, p.bones = 32, p.max_influences = 4, p.seed = 1;
        s = vks_gen_character(&p, &err);
    }
    if (!s) {
        fprintf(stderr, "fast_cputime: %s\n", err.msg);
        return 1;
    }
    size_t nl = (size_t)n * s->node_count, nf = (size_t)n * s->vertex_count * 3;
    vks_affine *locals = malloc(nl * sizeof *locals);
    float *pos = malloc(nf * sizeof *pos), *nrm = malloc(nf * sizeof *nrm);
    double *rate = malloc((size_t)runs * sizeof *rate);
    if (!locals || !pos || !nrm || !rate)
        return 1;
    for (uint32_t i = 0; i < n; i++)
        vks_pose_procedural(s, 9, i, 0.1f * (float)i, 0.0f, locals + (size_t)i * s->node_count);
    vks_deform_job job = {s, locals, n, pos, nrm, NULL};
    if (vks_cpu_fast_run(&job, 1, &err) != VKS_OK) {
        fprintf(stderr, "fast_cputime: %s\n", err.msg);
        return 1;
    }
    for (int r = 0; r < runs; r++) {
        double t0 = cpu_seconds();
        vks_cpu_fast_run(&job, 1, &err);
        rate[r] = (double)n * s->vertex_count / (cpu_seconds() - t0) / 1e6;
    }
    qsort(rate, (size_t)runs, sizeof *rate, by_value);
    printf("RESULT best %.1f median %.1f Mvertex-instances/s (%s kernel, CPU time)\n", rate[runs - 1], rate[runs / 2],
           vks_cpu_fast_path());
    free(locals), free(pos), free(nrm), free(rate);
    vks_skin_free(s);
    return 0;
}
