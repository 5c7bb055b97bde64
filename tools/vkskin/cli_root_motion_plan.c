/* Where a crowd's root-motion CSVs go, decided and checked before any model is read, by the
 * rules of every output (cli_output.c): a name no other output of the run shares, never one of
 * the inputs, a folder that exists and can be written, a file that may be replaced, room for
 * at least its rows. Before this the CSV was named only once its model was deformed, so a
 * vertex output could replace another model's CSV and an unwritable one failed after the work. */
#include "cli_root_motion.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "vkskin/output.h"

int vks_cli_model_root_motion(const vks_cli_pose *p, uint32_t m)
{
    return vks_pose_plan_root_motion(&p->plan, m);
}

/* The fewest bytes of a CSV of rows rows: its header and "0,0,0,0,0,0\n" per row. */
static uint64_t least_bytes(uint64_t rows)
{
    return sizeof "instance,frame,time,x,y,z\n" - 1 + rows * 12;
}

/* Model m's root-motion CSV when --root-motion is not given: beside a file output; none
 * beside a character device (a user sending the vertices to /dev/null discards the run's
 * outputs, and "/dev/null.root_motion.csv" is no place for a file); refused for standard
 * output, where only --root-motion can say where it goes. */
static int beside(const char *out, const char *model, char **path)
{
    struct stat st;
    *path = NULL;
    if (!strcmp(out, "-")) {
        fprintf(stderr, "vkskin deform: --out - streams %s's vertices; the instances that take root motion out "
                        "(root_motion in the crowd) need a file for it: give --root-motion PATH\n", model);
        return VKS_EXIT_USAGE;
    }
    if (stat(out, &st) == 0 && S_ISCHR(st.st_mode)) {
        fprintf(stderr, "vkskin: %s: --out %s is a device: the root motion is not written (give --root-motion PATH "
                        "to keep it)\n", model, out);
        return VKS_EXIT_OK;
    }
    *path = vks_cli_root_motion_path(out);
    return *path ? VKS_EXIT_OK : VKS_EXIT_RUNTIME;
}

typedef struct named {
    const char *path;
    int model, root_motion; /* root_motion 0: the model's vertex output */
} named;

static int by_path(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : x->root_motion != y->root_motion ? x->root_motion - y->root_motion : x->model - y->model;
}

static void say_shared(const vks_cli_pose *p, const named *a, const named *b)
{
    fprintf(stderr, "vkskin: the %s of %s and the %s of %s would both be written to %s; give them different file "
                    "names\n", a->root_motion ? "root-motion CSV" : "vertex output", p->plan.models[a->model],
            b->root_motion ? "root-motion CSV" : "vertex output", p->plan.models[b->model], b->path);
}

/* Two outputs of one name, where one is a root-motion CSV (two vertex outputs are refused by
 * vks_cli_plan_outputs already); and a CSV that is its own model's output through a link. */
static int refuse_shared(const vks_cli_pose *p, const vks_cli_outputs *vertex, const vks_cli_outputs *rm)
{
    int n = vertex->count, k = 0, rc = VKS_EXIT_OK;
    named *all = malloc(2 * (size_t)n * sizeof *all);
    if (!all)
        return VKS_EXIT_RUNTIME;
    for (int m = 0; m < n; m++) {
        all[k++] = (named){vertex->paths[m], m, 0};
        if (rm->paths[m])
            all[k++] = (named){rm->paths[m], m, 1};
    }
    qsort(all, (size_t)k, sizeof *all, by_path);
    for (int i = 1; i < k && rc == VKS_EXIT_OK; i++)
        if (!strcmp(all[i - 1].path, all[i].path) && all[i].root_motion) {
            say_shared(p, &all[i - 1], &all[i]);
            rc = VKS_EXIT_USAGE;
        }
    for (int m = 0; m < n && rc == VKS_EXIT_OK; m++)
        if (rm->paths[m] && strcmp(vertex->paths[m], "-") && strcmp(rm->paths[m], "-") &&
            vks_output_same_file(rm->paths[m], vertex->paths[m])) {
            named a = {vertex->paths[m], m, 0}, b = {rm->paths[m], m, 1};
            say_shared(p, &a, &b);
            rc = VKS_EXIT_USAGE;
        }
    free(all);
    return rc;
}

/* --root-motion PATH: one model's; none wanted is said, not refused (a script may always pass it). */
static int named_path(const vks_cli_pose *p, const char *option, vks_cli_outputs *rm)
{
    int wanted = 0;
    for (uint32_t m = 0; m < p->plan.model_count; m++)
        wanted |= vks_cli_model_root_motion(p, m);
    if (p->plan.model_count > 1) {
        fprintf(stderr, "vkskin deform: --root-motion names one file, for one model; this run deforms %u (their "
                        "root motion goes beside each output in --out's folder)\n", p->plan.model_count);
        return VKS_EXIT_USAGE;
    }
    if (!wanted) {
        fprintf(stderr, "vkskin: %s: no instance takes root motion out (root_motion in the crowd): --root-motion %s "
                        "is not written\n", p->plan.models[0], option);
        return VKS_EXIT_OK;
    }
    return (rm->paths[0] = strdup(option)) ? VKS_EXIT_OK : VKS_EXIT_RUNTIME;
}

int vks_cli_plan_root_motion(const vks_cli_pose *p, const char *option, const vks_cli_outputs *vertex,
                             const vks_cli_inputs *in, vks_cli_outputs *rm)
{
    memset(rm, 0, sizeof *rm);
    int n = vertex->count, rc = VKS_EXIT_OK;
    if (!(rm->paths = calloc((size_t)n + 1, sizeof *rm->paths)))
        return VKS_EXIT_RUNTIME;
    rm->count = n;
    if (option)
        rc = named_path(p, option, rm);
    for (int m = 0; !option && m < n && rc == VKS_EXIT_OK; m++)
        if (vks_cli_model_root_motion(p, (uint32_t)m))
            rc = beside(vertex->paths[m], p->plan.models[m], &rm->paths[m]);
    if (rc == VKS_EXIT_OK)
        rc = refuse_shared(p, vertex, rm);
    for (int m = 0; m < n && rc == VKS_EXIT_OK; m++)
        if (rm->paths[m])
            rc = vks_cli_refuse_input(in, option ? "--root-motion" : "--out's root-motion CSV", rm->paths[m]);
    for (int m = 0; m < n && rc == VKS_EXIT_OK; m++) {
        vks_error err = {0};
        uint64_t rows = (uint64_t)vks_pose_plan_instances(&p->plan, (uint32_t)m) * p->o.frames;
        if (rm->paths[m] && vks_output_check(rm->paths[m], least_bytes(rows), &err) != VKS_OK) {
            char msg[512];
            fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
            rc = VKS_EXIT_RUNTIME;
        }
    }
    return rc;
}
