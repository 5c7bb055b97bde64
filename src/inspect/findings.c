/* What inspect and validate report about a model besides its contents: the bind-pose check's
 * verdict (DESIGN.md 4: deforming with the bind pose must reproduce the stored vertices) and
 * the weights as the file stores them, with what was repaired. Both say the same thing in the
 * same words, so the wording lives here, in the library, for hosts as for the vkskin program. */
#include "inspect/findings.h"

#include <cjson/cJSON.h>
#include <math.h>

#include "core/log.h"
#include "vkskin/check.h"
#include "vkskin/inspect.h"

int vks_bind_promised(const vks_skin *skin)
{
    const vks_format_info *fi = skin->format ? vks_format_find(skin->format) : NULL;
    return !fi || !fi->bind_not_promised;
}

const char *vks_bind_status(const vks_bind_check *bc, int promised, int allow_mismatch)
{
    if (bc->pass)
        return "passed";
    if (!promised)
        return "differs (a note: the format does not promise the bind pose)";
    return allow_mismatch ? "FAILED (allowed by --allow-bind-mismatch)" : "FAILED";
}

/* The notes of a check that passes only with a placement above the skeleton. */
static void say_placed(const char *path, const vks_bind_check *out, const vks_logger *log)
{
    const float *t = out->placement.m + 9, *c = out->placement.m;
    double scale = sqrt((double)c[0] * c[0] + (double)c[1] * c[1] + (double)c[2] * c[2]);
    if (fabs(scale - 1) <= 1e-4)
        vks__log(log, VKS_LOG_INFO,
                 "%s: note: every bone's bind skin matrix is one rigid transform (translation %.4g %.4g "
                 "%.4g), a placement above the skeleton that the inverse binds leave out (as a glTF scene's Z-up "
                 "correction); the bind pose reproduces the stored vertices so placed, max error %.3g",
                 path, t[0], t[1], t[2], out->max_error);
    else
        vks__log(log, VKS_LOG_INFO,
                 "%s: note: every bone's bind skin matrix is one rigid transform with uniform scale %.4g "
                 "(translation %.4g %.4g %.4g), a placement the inverse binds carry for the stored vertices (as "
                 "gltfpack's dequantization of KHR_mesh_quantization positions); the bind pose reproduces the "
                 "stored vertices so placed, max error %.3g",
                 path, scale, t[0], t[1], t[2], out->max_error);
}

vks_result vks__bind_check_say(const char *path, const vks_skin *skin, int allow_mismatch, const vks_logger *log,
                               vks_bind_check *out, int *finding, vks_error *err)
{
    *finding = 0;
    vks_result r = vks_cpu_bind_check(skin, out, err);
    if (r != VKS_OK)
        return r;
    if (out->pass && out->placed)
        say_placed(path, out, log);
    if (out->pass)
        return VKS_OK;
    uint32_t v = out->worst_vertex, m = out->worst_mesh;
    if (!vks_bind_promised(skin)) { /* glTF: rest and bind may differ; the deform is judged on its own */
        vks__log(log, VKS_LOG_INFO,
                "%s: note: the bind pose does not reproduce the stored vertices (max error %.3g at mesh %u "
                "vertex %u, %.3g of the bounding radius): %s does not promise that a mesh is stored at the pose its "
                "inverse binds imply, so this is not a failure",
                path, out->max_error, m, v < skin->vertex_count ? skin->source_vertex[v] : 0, out->max_error_relative,
                skin->format);
        return VKS_OK;
    }
    const char *mesh = m < skin->mesh_count ? skin->meshes[m].name : "?";
    uint32_t file_vertex = v < skin->vertex_count ? skin->source_vertex[v] : 0;
    vks__log(log, VKS_LOG_WARNING,
            "%s: bind-pose check failed%s: max error %.3g at mesh %u \"%.60s\" vertex %u, %.3g of the "
            "bounding radius %.4g, over the tolerance %.3g (%.3g x error scale %.4g): the bind pose does not "
            "reproduce the stored vertices (inverse binds, weights, or a file stored in another pose)%s",
            path, allow_mismatch ? " (allowed by --allow-bind-mismatch)" : "", out->max_error, m, mesh, file_vertex,
            out->max_error_relative, vks_skin_bounding_radius(skin), out->tolerance,
            vks_diff_default_tolerance().abs_radius, out->error_scale,
            allow_mismatch ? "" : "; --allow-bind-mismatch accepts such files");
    *finding = allow_mismatch ? 0 : VKS__INSPECT_BIND;
    return VKS_OK;
}

void vks__weights_text(FILE *f, const vks_weight_report *w)
{
    if (w->vertices == 0)
        return; /* a model not made by the builder has no record of its stored weights */
    fprintf(f, "  stored weights: sums %.6g..%.6g, %u of %u vertices off 1 by > 1e-3; ", w->stored_min_sum,
            w->stored_max_sum, w->stored_sum_off, w->vertices);
    if (w->over_four)
        fprintf(f, "%u with 5 or more weights (glTF JOINTS_1), kept as stored; ", w->over_four);
    if (w->truncated)
        fprintf(f, "%u with more than %d weights (glTF JOINTS_2 and on) kept to the %d largest and renormalised "
                "(largest weight dropped %.6g); ", w->truncated, VKS_MAX_INFLUENCES, VKS_MAX_INFLUENCES,
                (double)w->truncated_max_weight);
    if (w->rule_dropped)
        fprintf(f, "%u with more weights than the format's engines skin with, kept to the largest as they do "
                "(largest weight dropped %.6g); ", w->rule_dropped, (double)w->rule_dropped_max);
    fprintf(f, "repaired: ");
    if (!w->all_zero && !w->negative && !w->renormalised) {
        fprintf(f, "none\n");
        return;
    }
    const char *sep = "";
    if (w->all_zero)
        fprintf(f, "%u with no positive weight (bound to their group's first bone)", w->all_zero), sep = ", ";
    if (w->negative)
        fprintf(f, "%s%u with a negative weight (dropped)", sep, w->negative), sep = ", ";
    if (w->renormalised)
        fprintf(f, "%s%u renormalised to sum 1 by the format's rule", sep, w->renormalised);
    fprintf(f, "\n");
}

void vks__influences_json(struct cJSON *o, uint32_t kept, uint32_t vertices, double largest)
{
    cJSON_AddNumberToObject(o, "kept", kept);
    cJSON_AddNumberToObject(o, "vertices", vertices);
    cJSON_AddNumberToObject(o, "largest_weight_dropped", largest);
}

void vks__weights_json(struct cJSON *o, const vks_weight_report *w)
{
    cJSON_AddNumberToObject(o, "vertices", w->vertices);
    cJSON_AddNumberToObject(o, "min_sum", w->stored_min_sum);
    cJSON_AddNumberToObject(o, "max_sum", w->stored_max_sum);
    cJSON_AddNumberToObject(o, "off_by_more_than_1e-3", w->stored_sum_off);
    cJSON *r = cJSON_AddObjectToObject(o, "repaired");
    cJSON_AddNumberToObject(r, "all_zero", w->all_zero);
    cJSON_AddNumberToObject(r, "negative", w->negative);
    cJSON_AddNumberToObject(r, "renormalised", w->renormalised);
    cJSON_AddNumberToObject(o, "over_four", w->over_four);
    cJSON *t = cJSON_AddObjectToObject(o, "over_eight_kept_to_largest_8");
    cJSON_AddNumberToObject(t, "vertices", w->truncated);
    cJSON_AddNumberToObject(t, "largest_weight_dropped", w->truncated_max_weight);
    cJSON *r2 = cJSON_AddObjectToObject(o, "over_the_format_rule");
    cJSON_AddNumberToObject(r2, "vertices", w->rule_dropped);
    cJSON_AddNumberToObject(r2, "largest_weight_dropped", w->rule_dropped_max);
}
