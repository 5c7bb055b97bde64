/* See crowd_check.h. */
#include "crowd_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_zero(const vks_affine *a)
{
    for (int k = 0; k < 12; k++)
        if (a->m[k] != 0.0f)
            return 0;
    return 1;
}

vks_result crowd_reference(const vks_skin *s, const vks_instance *in, float time, const vks_affine *locals,
                           float *pos, float *nrm)
{
    vks_affine *l = malloc((s->node_count ? s->node_count : 1) * sizeof *l);
    if (!l)
        return VKS_ERR_NOMEM;
    if (in->pose == VKS_POSE_PROCEDURAL)
        vks_pose_procedural(s, in->seed, in->pose_instance, time, in->max_angle, l);
    else if (locals)
        memcpy(l, locals, s->node_count * sizeof *l);
    else
        vks_pose_bind(s, l);
    vks_deform_job j = {s, l, 1, pos, nrm, NULL};
    vks_error err = {0};
    vks_result r = vks_cpu_reference_run(&j, &err);
    free(l);
    if (r != VKS_OK || is_zero(&in->root))
        return r;
    const float *m = in->root.m; /* columns x, y, z, translation */
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        double p[3] = {pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]}, n[3] = {nrm[3 * v], nrm[3 * v + 1], nrm[3 * v + 2]};
        for (int k = 0; k < 3; k++) {
            pos[3 * v + k] = (float)(m[k] * p[0] + m[3 + k] * p[1] + m[6 + k] * p[2] + m[9 + k]);
            nrm[3 * v + k] = (float)(m[k] * n[0] + m[3 + k] * n[1] + m[6 + k] * n[2]);
        }
    }
    return VKS_OK;
}

int crowd_check_instance(const vks_skin *s, const vks_instance *in, float time, const vks_affine *locals,
                         const float *gpu_pos, const float *gpu_nrm, double *worst)
{
    size_t floats = (size_t)s->vertex_count * 3 + 3;
    float *rp = malloc(floats * sizeof *rp), *rn = malloc(floats * sizeof *rn);
    int pass = rp && rn && crowd_reference(s, in, time, locals, rp, rn) == VKS_OK;
    if (pass) {
        const float *t = in->root.m + 9;
        vks_diff_tolerance tp = vks_diff_default_tolerance(), tn = vks_diff_default_normal_tolerance();
        tp.scale = vks_skin_error_scale(s) + sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
        vks_diff_report rpos, rnrm;
        vks_diff(gpu_pos, rp, 1, s->vertex_count, tp.scale, &tp, &rpos);
        pass = rpos.pass;
        if (gpu_nrm) {
            vks_diff(gpu_nrm, rn, 1, s->vertex_count, 1.0, &tn, &rnrm);
            pass &= rnrm.pass;
        }
        if (worst && rpos.max_rel > *worst)
            *worst = rpos.max_rel;
        if (!pass)
            fprintf(stderr, "    pos max %.3g (rel %.3g, vertex %u) over %llu\n", rpos.max_abs, rpos.max_rel,
                    rpos.worst_vertex, (unsigned long long)rpos.over);
    }
    free(rp), free(rn);
    return pass;
}

int crowd_check(vks_crowd *crowd, const vks_skin *const *skins, const vks_instance *inst, uint32_t n, float time,
                const vks_affine *const *locals, const char *label)
{
    size_t floats = 0;
    for (uint32_t i = 0; i < n; i++)
        floats += (size_t)skins[inst[i].model]->vertex_count * 3;
    float *pos = malloc((floats + 3) * sizeof *pos), *nrm = malloc((floats + 3) * sizeof *nrm);
    vks_error err = {0};
    int pass = pos && nrm && vks_crowd_read(crowd, 0, n, pos, nrm, &err) == VKS_OK;
    uint32_t failed = 0;
    double worst = 0;
    size_t at = 0;
    for (uint32_t i = 0; pass && i < n; i++) {
        const vks_skin *s = skins[inst[i].model];
        if (!crowd_check_instance(s, &inst[i], time, locals ? locals[i] : NULL, pos + at, nrm + at, &worst)) {
            fprintf(stderr, "    instance %u (model %u, pose %d) differs\n", i, inst[i].model, (int)inst[i].pose);
            failed++;
        }
        at += (size_t)s->vertex_count * 3;
    }
    fprintf(stderr, "  %s, t=%g: %u instances, %u differ, worst position error %.3g of scale%s%s\n", label,
            (double)time, n, failed, worst, err.msg[0] ? ": " : "", err.msg);
    free(pos), free(nrm);
    return pass && failed == 0;
}
