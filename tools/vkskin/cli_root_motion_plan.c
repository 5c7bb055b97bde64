/* Where a crowd's root-motion CSVs go, decided and checked before any model is read, by the
 * rules of every output (the library's vks_output_plan_side): a name no other output of the
 * run shares, never one of the inputs, a folder that exists and can be written, a file that
 * may be replaced, room for at least its rows. What is said here is the command's own: its
 * options, and where a CSV goes when none is named. (Before this the CSV was named only once
 * its model was deformed, so a vertex output could replace another model's CSV and an
 * unwritable one failed after the work.) */
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

/* --root-motion PATH: one model's; none wanted is said, not refused (a script may always pass it). */
static int named_path(const vks_cli_pose *p, const char *option, vks_output_plan *rm)
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

int vks_cli_plan_root_motion(const vks_cli_pose *p, const char *option, const vks_output_plan *vertex,
                             const vks_output_inputs *in, vks_output_plan *rm)
{
    memset(rm, 0, sizeof *rm);
    uint32_t n = vertex->count;
    int rc = VKS_EXIT_OK;
    uint64_t *least = calloc((size_t)n + 1, sizeof *least);
    if (!least || !(rm->paths = calloc((size_t)n + 1, sizeof *rm->paths))) {
        free(least);
        return VKS_EXIT_RUNTIME;
    }
    rm->count = n;
    if (option)
        rc = named_path(p, option, rm);
    for (uint32_t m = 0; !option && m < n && rc == VKS_EXIT_OK; m++)
        if (vks_cli_model_root_motion(p, m))
            rc = beside(vertex->paths[m], p->plan.models[m], &rm->paths[m]);
    for (uint32_t m = 0; m < n; m++)
        if (rm->paths[m])
            least[m] = least_bytes((uint64_t)vks_pose_plan_instances(&p->plan, m) * p->o.frames);
    vks_output_side what = {"vertex output", "root-motion CSV", option ? "--root-motion" : "--out's root-motion CSV",
                            least};
    if (rc == VKS_EXIT_OK)
        rc = vks_cli_output_exit(vks_output_plan_side(vertex, rm, &what, p->plan.models, in, &vks_cli_output_log, NULL));
    free(least);
    return rc;
}
