/* A layered bake job's root motion (docs/baking.md "Batch baking", issue 27): with "root_motion" the
 * job's instance plays in place, and the motion taken out of it is written beside the bake as
 * NAME.root_motion.csv, one row per baked frame, from the CPU reference in double whatever
 * engine deformed the vertices (as deform --crowd's CSV). Every output kind's sidecar lists it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake/job_internal.h"
#include "vkskin/crowd_file.h"
#include "vkskin/output.h"

int vks__bake_root_motion_of(const vks_bake_job *job)
{
    return job->layers && job->layers->instance_count ? job->layers->instances[0].root_motion : 0;
}

char *vks__bake_root_motion_name(const vks_bake_job *job, const char *dir)
{
    size_t n = (dir ? strlen(dir) + 1 : 0) + strlen(job->name) + sizeof VKS_BAKE_ROOT_MOTION_SUFFIX;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s" VKS_BAKE_ROOT_MOTION_SUFFIX, dir ? dir : "", dir ? "/" : "", job->name);
    return p;
}

const char *vks__bake_root_motion_role(const vks_bake_job *job)
{
    return vks__bake_root_motion_of(job) & VKS_ROOT_MOTION_YAW
               ? "root motion (CSV: frame, time, x, y, z, yaw in radians)"
               : "root motion (CSV: frame, time, x, y, z)";
}

int vks__bake_write_root_motion(const vks_bake_job *job, const vks_bake_loaded *l, const char *dir)
{
    char *path = vks__bake_root_motion_name(job, dir);
    vks_output *o = NULL;
    vks_error err = {0};
    vks_result r = path ? vks_output_open(&o, path, &err)
                        : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
    if (r == VKS_OK) {
        FILE *f = vks_output_stream(o);
        int yaw = (vks__bake_root_motion_of(job) & VKS_ROOT_MOTION_YAW) != 0, ok = 1;
        const vks_bake_clip *bc = &l->clips[0]; /* a layered job bakes one clip */
        ok &= fprintf(f, "frame,time,x,y,z%s\n", yaw ? ",yaw" : "") > 0;
        for (uint32_t fr = 0; ok && fr < bc->frames; fr++) {
            /* the time the frame was posed at (job_engine.c: rounded to float, as the GPU) */
            float T = (float)vks__bake_frame_time(job, bc, fr);
            double m[4]; /* x, y, z, yaw */
            vks_clip_layers_root_track(l->layers, l->skin, T, m);
            ok &= fprintf(f, "%u,%.9g,%.9g,%.9g,%.9g", bc->first_frame + fr, (double)T, m[0], m[1], m[2]) > 0;
            if (yaw)
                ok &= fprintf(f, ",%.9g", m[3]) > 0;
            ok &= fputc('\n', f) != EOF;
        }
        r = vks_output_close(o, ok, &err);
    }
    free(path);
    if (r != VKS_OK) {
        char msg[512];
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %s", job->where, vks_error_format(&err, NULL, msg, sizeof msg));
    }
    return r == VKS_OK;
}
