/* The JSON pose file (DESIGN.md section 6), parsed with cJSON:
 *   {"nodes": [{"name": "Bip01 Pelvis", "matrix": [16 numbers, column-major]},
 *              {"index": 3, "rotation": [x,y,z,w], "translation": [x,y,z], "scale": [x,y,z]}]}
 * or {"frames": [{"nodes": [...]}, ...]}. Each entry replaces one node's bind local with an
 * absolute local; rotation/translation/scale alone keep the bind values of the others. A node
 * set twice in one frame is an error naming both entries: which one should win is a guess.
 * Beside "nodes", a frame may give morph weights per mesh (pose_file_weights.c). */
#include "pose_file_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static vks_result fail(vks_error *err, const char *path, const char *fmt, const char *a)
{
    return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, fmt, a);
}

/* Reads an array of exactly n finite numbers. */
static int read_numbers(const cJSON *arr, double *out, int n)
{
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != n)
        return 0;
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsNumber(e) || !isfinite(e->valuedouble) || fabs(e->valuedouble) > 3.0e38)
            return 0;
        out[i++] = e->valuedouble;
    }
    return 1;
}

static vks_result parse_entry(const vks_skin *skin, const cJSON *e, const char *path, vks_affine *locals,
                              int32_t *node_out, vks_error *err)
{
    if (!cJSON_IsObject(e))
        return fail(err, path, "entry is not an object%s", "");
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
    const cJSON *index = cJSON_GetObjectItemCaseSensitive(e, "index");
    int32_t node = -1;
    if (name) {
        if (!cJSON_IsString(name))
            return fail(err, path, "\"name\" is not a string%s", "");
        node = vks_skin_find_node(skin, name->valuestring);
        if (node < 0)
            return fail(err, path, "unknown node name \"%.80s\"", name->valuestring);
    } else if (index) {
        double d = index->valuedouble;
        if (!cJSON_IsNumber(index) || d != floor(d) || d < 0 || d >= skin->node_count) {
            char buf[64];
            snprintf(buf, sizeof buf, "%u", skin->node_count);
            return fail(err, path, "\"index\" is not a node index below %s", buf);
        }
        node = (int32_t)d;
    } else {
        return fail(err, path, "entry has neither \"name\" nor \"index\"%s", "");
    }
    *node_out = node;
    const cJSON *mat = cJSON_GetObjectItemCaseSensitive(e, "matrix");
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(e, "rotation");
    const cJSON *tra = cJSON_GetObjectItemCaseSensitive(e, "translation");
    const cJSON *sca = cJSON_GetObjectItemCaseSensitive(e, "scale");
    if (mat) {
        double m[16];
        if (rot || tra || sca)
            return fail(err, path, "\"matrix\" cannot be combined with rotation/translation/scale%s", "");
        if (!read_numbers(mat, m, 16))
            return fail(err, path, "\"matrix\" must be 16 finite numbers (column-major 4x4)%s", "");
        vks_affine a;
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 3; r++)
                a.m[c * 3 + r] = (float)m[c * 4 + r];
        locals[node] = a;
        return VKS_OK;
    }
    if (!rot && !tra && !sca)
        return fail(err, path, "entry has no \"matrix\", \"rotation\", \"translation\" or \"scale\"%s", "");
    float t[3], q[4], s[3];
    vks_affine_to_trs(&skin->nodes[node].bind_local, t, q, s);
    double v[4];
    if (rot) {
        if (!read_numbers(rot, v, 4))
            return fail(err, path, "\"rotation\" must be 4 finite numbers (x, y, z, w)%s", "");
        if (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3] < 1e-12)
            return fail(err, path, "\"rotation\" is a zero quaternion%s", "");
        for (int i = 0; i < 4; i++)
            q[i] = (float)v[i];
    }
    if (tra) {
        if (!read_numbers(tra, v, 3))
            return fail(err, path, "\"translation\" must be 3 finite numbers%s", "");
        for (int i = 0; i < 3; i++)
            t[i] = (float)v[i];
    }
    if (sca) {
        if (!read_numbers(sca, v, 3))
            return fail(err, path, "\"scale\" must be 3 finite numbers%s", "");
        for (int i = 0; i < 3; i++)
            s[i] = (float)v[i];
    }
    locals[node] = vks_affine_from_trs(t, q, s);
    return VKS_OK;
}

/* set_by: node_count scratch entries, the entry that set each node in this frame. */
static vks_result parse_nodes(const vks_skin *skin, const cJSON *nodes, const char *prefix, vks_affine *locals,
                              int32_t *set_by, vks_error *err)
{
    char path[96];
    snprintf(path, sizeof path, "%snodes", prefix);
    if (!cJSON_IsArray(nodes))
        return fail(err, path, "\"nodes\" must be an array%s", "");
    int32_t i = 0;
    const cJSON *e;
    vks_pose_bind(skin, locals);
    for (uint32_t n = 0; n < skin->node_count; n++)
        set_by[n] = -1;
    cJSON_ArrayForEach(e, nodes)
    {
        snprintf(path, sizeof path, "%snodes[%d]", prefix, (int)i);
        int32_t node = -1;
        vks_result r = parse_entry(skin, e, path, locals, &node, err);
        if (r != VKS_OK)
            return r;
        if (set_by[node] >= 0) {
            char label[96], msg[160];
            const char *name = skin->nodes[node].name;
            if (name[0])
                snprintf(label, sizeof label, "\"%.80s\"", name);
            else
                snprintf(label, sizeof label, "%d", (int)node); /* an unnamed node: its index */
            snprintf(msg, sizeof msg, "node %s already set by %snodes[%d]", label, prefix, (int)set_by[node]);
            return fail(err, path, "%s", msg);
        }
        set_by[node] = i++;
    }
    return VKS_OK;
}

/* Every frame's weights at the targets' defaults, for the frames to change. */
static vks_result alloc_weights(const vks_skin *skin, vks_allocator a, vks_pose_set *out, vks_error *err)
{
    out->weights = a.alloc(a.user, (size_t)out->frame_count * skin->target_count * sizeof *out->weights);
    if (!out->weights)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "pose", "out of memory for %u weights",
                             skin->target_count);
    out->target_count = skin->target_count;
    for (uint32_t f = 0; f < out->frame_count; f++)
        for (uint32_t t = 0; t < skin->target_count; t++)
            out->weights[(size_t)f * skin->target_count + t] = skin->targets[t].default_weight;
    return VKS_OK;
}

/* Frame f's "weights" (w) into the set; a model without targets refuses them. */
static vks_result frame_weights(const vks_skin *skin, const cJSON *w, const char *prefix, vks_pose_set *out,
                                uint32_t f, vks_error *err)
{
    if (!out->weights) {
        char path[64];
        snprintf(path, sizeof path, "%sweights", prefix);
        return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "the model has no morph targets");
    }
    return vks__pose_file_weights(skin, w, prefix, out->weights + (size_t)f * out->target_count, err);
}

vks_result vks_pose_file_parse(const vks_skin *skin, const char *json, size_t size, vks_pose_set *out,
                               vks_error *err)
{
    return vks_pose_file_parse_with(skin, json, size, NULL, out, err);
}

vks_result vks_pose_file_parse_with(const vks_skin *skin, const char *json, size_t size,
                                    const vks_allocator *allocator, vks_pose_set *out, vks_error *err)
{
    memset(out, 0, sizeof *out);
    vks_allocator a = vks_allocator_or_default(allocator);
    out->allocator = a;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, size, &end, 0);
    if (!root) {
        uint64_t at = end && end >= json ? (uint64_t)(end - json) : VKS_NO_OFFSET;
        return vks_error_set(err, VKS_ERR_FORMAT, at, "pose", "malformed JSON");
    }
    vks_result r = VKS_OK;
    int32_t *set_by = NULL;
    const cJSON *frames = cJSON_GetObjectItemCaseSensitive(root, "frames");
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "nodes");
    uint32_t count = 1;
    if (frames) {
        if (!cJSON_IsArray(frames) || cJSON_GetArraySize(frames) < 1) {
            r = fail(err, "frames", "\"frames\" must be a non-empty array%s", "");
            goto done;
        }
        count = (uint32_t)cJSON_GetArraySize(frames);
    } else if (!nodes) {
        r = fail(err, "pose", "expected an object with \"nodes\" or \"frames\"%s", "");
        goto done;
    }
    size_t per = skin->node_count ? skin->node_count : 1;
    out->locals = a.alloc(a.user, count * per * sizeof *out->locals);
    if (!out->locals) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "pose", "out of memory for %u frames", count);
        goto done;
    }
    out->node_count = skin->node_count;
    out->frame_count = count;
    set_by = a.alloc(a.user, per * sizeof *set_by);
    if (!set_by) {
        r = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "pose", "out of memory for %u nodes", skin->node_count);
        goto done;
    }
    if (skin->target_count && vks__pose_file_has_weights(root) && (r = alloc_weights(skin, a, out, err)) != VKS_OK)
        goto done;
    if (!frames) {
        r = parse_nodes(skin, nodes, "", out->locals, set_by, err);
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(root, "weights");
        if (r == VKS_OK && w)
            r = frame_weights(skin, w, "", out, 0, err);
    } else {
        uint32_t f = 0;
        const cJSON *fr;
        cJSON_ArrayForEach(fr, frames)
        {
            char prefix[48];
            snprintf(prefix, sizeof prefix, "frames[%u].", f);
            const cJSON *fn = cJSON_IsObject(fr) ? cJSON_GetObjectItemCaseSensitive(fr, "nodes") : NULL;
            if (!fn) {
                char path[48];
                snprintf(path, sizeof path, "frames[%u]", f);
                r = fail(err, path, "frame must be an object with \"nodes\"%s", "");
                break;
            }
            r = parse_nodes(skin, fn, prefix, out->locals + (size_t)f * per, set_by, err);
            const cJSON *w = cJSON_GetObjectItemCaseSensitive(fr, "weights");
            if (r == VKS_OK && w)
                r = frame_weights(skin, w, prefix, out, f, err);
            if (r != VKS_OK)
                break;
            f++;
        }
    }
done:
    if (set_by)
        a.free(a.user, set_by);
    cJSON_Delete(root);
    if (r != VKS_OK)
        vks_pose_set_free(out);
    return r;
}

void vks_pose_set_free(vks_pose_set *set)
{
    if (!set)
        return;
    if (set->locals) {
        /* a set zeroed by hand (or from before the allocator field) has malloc's locals */
        vks_allocator a = vks_allocator_or_default(&set->allocator);
        a.free(a.user, set->locals);
        if (set->weights)
            a.free(a.user, set->weights);
    }
    memset(set, 0, sizeof *set);
}
