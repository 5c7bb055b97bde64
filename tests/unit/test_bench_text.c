/* bench.h's text writers on results made by hand (no device, no timing): vks_bench_write_text
 * gives the CPU engines' lines and leaves the GPU's out when none ran; vks_bench_crowd_write_text
 * the crowd's ratios from the figures it is given. Under a host's de_DE locale (where the
 * system has it) the numbers keep their points. */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vkskin.h"

static char *bench_text(const vks_bench_result *r)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    CHECK(f && vks_bench_write_text(r, f, NULL) == VKS_OK);
    if (f)
        fclose(f);
    return text;
}

static char *crowd_text(const vks_bench_crowd_result *r)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    CHECK(f && vks_bench_crowd_write_text(r, f, NULL) == VKS_OK);
    if (f)
        fclose(f);
    return text;
}

int main(void)
{
    setlocale(LC_ALL, "de_DE.UTF-8"); /* NULL where absent: the C locale, checked the same */
    vks_bench_result *r = calloc(1, sizeof *r);
    CHECK(r != NULL);
    if (!r)
        return vks_test_finish("test_bench_text");
    r->vertices = 1000, r->bones = 24, r->groups = 2, r->instances = 10, r->ref_instances = 5, r->threads = 2;
    r->ref_rate = 2e6, r->fast_rate = 5e6;
    snprintf(r->fast_kernel, sizeof r->fast_kernel, "avx2");
    r->per_core[0] = 1.5e6;
    char *text = bench_text(r);
    CHECK(text && strstr(text, "workload: 1000 vertices, 24 bones, 2 group(s), 10 instances (reference: 5)"));
    CHECK(text && strstr(text, "device:   none (); CPU threads 2\n"));
    CHECK(text && strstr(text, "  cpu reference        2.000 M vertex-instances/s\n"));
    CHECK(text && strstr(text, "x2.50 reference (avx2 kernel, 2 threads)\n"));
    CHECK(text && strstr(text, "(baseline kernel)\n") && !strstr(text, "(avx2 kernel)\n")); /* per_core 0: none */
    CHECK(text && !strstr(text, "gpu")); /* no context: no GPU lines */
    free(text);
    free(r);

    vks_bench_crowd_result *c = calloc(1, sizeof *c);
    CHECK(c != NULL);
    if (!c)
        return vks_test_finish("test_bench_text");
    c->instances = 100, c->vertices = 1000, c->bones = 24, c->frames = 10;
    snprintf(c->device, sizeof c->device, "dev"), snprintf(c->device_type, sizeof c->device_type, "cpu");
    snprintf(c->shape.text, sizeof c->shape.text, "wg=64");
    snprintf(c->shape.source, sizeof c->shape.source, "table");
    c->steady_ms = 2, c->percall_ms = 5, c->gpu_sampled_ms = 4, c->uploaded_ms = 6;
    c->layers_pose_gpu_ms[0] = 0.5, c->layers_pose_gpu_ms[2] = 1.5;
    text = crowd_text(c);
    CHECK(text && strstr(text, "workload: 100 instances of 1000 vertices, 24 bones, procedural poses, 10 frames\n"));
    CHECK(text && strstr(text, "launch shape: wg=64 (table: )\n"));
    CHECK(text && strstr(text, "  per call / crowd steady   x2.50\n"));
    CHECK(text && strstr(text, "  host-sampled / GPU-sampled x1.50\n"));
    CHECK(text && strstr(text, "  pose pass, 4 layers / 1   x3.00\n"));
    CHECK(text && strstr(text, " 50.00 M vertex-instances/s\n")); /* 100 x 1000 in 2 ms */
    free(text);
    free(c);
    return vks_test_finish("test_bench_text");
}
