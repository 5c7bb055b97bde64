/* The poser's root motion as CSV (poser.h), beside a crowd's vertex output (issue 27). The
 * motion is the reference's (double), whatever engine deformed the vertices, so the CSV is the
 * same for every engine. */
#include <stdio.h>

#include "vkskin/output.h"
#include "vkskin/poser.h"

int vks_poser_root_motion_wanted(const vks_poser *ps)
{
    for (uint32_t j = 0; ps->layers && j < ps->instances; j++)
        if (ps->layers[j].count && ps->layers[j].root_motion)
            return 1;
    return 0;
}

/* Whether any instance takes the yaw out: only then the CSV has the yaw column, so a crowd of
 * translation alone keeps the bytes it had before yaw. */
static int yaw_wanted(const vks_poser *ps)
{
    for (uint32_t j = 0; ps->layers && j < ps->instances; j++)
        if (ps->layers[j].count && (ps->layers[j].root_motion & VKS_ROOT_MOTION_YAW))
            return 1;
    return 0;
}

vks_result vks_poser_root_motion_write(const vks_poser *ps, const char *path, vks_error *err)
{
    vks_output *o = NULL;
    vks_result r = vks_output_open(&o, path, err);
    if (r != VKS_OK)
        return r;
    FILE *f = vks_output_stream(o);
    int yaw = yaw_wanted(ps);
    fprintf(f, "instance,frame,time,x,y,z%s\n", yaw ? ",yaw" : "");
    for (uint32_t j = 0; j < ps->instances; j++)
        for (uint32_t fr = 0; fr < ps->frames; fr++) {
            float T = vks_pose_source_time(&ps->source, fr);
            double m[4] = {0, 0, 0, 0}; /* x, y, z, yaw */
            if (ps->layers && ps->layers[j].count)
                vks_clip_layers_root_track(&ps->layers[j], ps->skin, T, m);
            fprintf(f, "%u,%u,%.9g,%.9g,%.9g,%.9g", j, fr, (double)T, m[0], m[1], m[2]);
            if (yaw)
                fprintf(f, ",%.9g", m[3]);
            fputc('\n', f);
        }
    return vks_output_close(o, 1, err);
}
