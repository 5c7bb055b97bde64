/* Crowd files in JSON (crowd_file.h; cJSON): {"instances": [...]}, each entry's keys checked
 * and named in errors ("instances[12].speed"). */
#include "crowd_file_internal.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "core/json_keys.h"
#include "core/vec.h"
#include "vkskin/clip.h"
#include "vkskin/skin.h"

/* ---- JSON ---- */

/* The value's kind for messages, a number naming why a float cannot hold it. */
static const char *json_kind(const cJSON *v)
{
    if (cJSON_IsNumber(v) && !(isfinite(v->valuedouble) && fabs(v->valuedouble) <= FLT_MAX))
        return "a number outside float range";
    return vks__json_kind(v);
}

static vks_result json_number(vks__crowd_parser *p, const cJSON *v, const char *path, float *out)
{
    if (!cJSON_IsNumber(v) || !vks__crowd_finite(v->valuedouble))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected a finite number, got %s", json_kind(v));
    *out = (float)v->valuedouble;
    return VKS_OK;
}

static vks_result json_numbers(vks__crowd_parser *p, const cJSON *v, const char *path, double *out, int n, int n2)
{
    int size = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (size != n && size != n2) {
        if (n2 != n)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected an array of %d or %d numbers, got %s%s", n, n2,
                        json_kind(v), size >= 0 ? " of another length" : "");
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected an array of %d numbers, got %s%s", n, json_kind(v),
                    size >= 0 ? " of another length" : "");
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        if (!cJSON_IsNumber(e) || !vks__crowd_finite(e->valuedouble))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "element %d: expected a finite number, got %s", i,
                                   json_kind(e));
        out[i++] = e->valuedouble;
    }
    return VKS_OK;
}

/* Whether item's key came before it in object: cJSON keeps both, and a lookup would read one
 * of them as if the other were not there. Each loop below stops at the first unknown key, so
 * this scan never passes more siblings than the object has known keys. */
static int key_seen_before(const cJSON *object, const cJSON *item)
{
    for (const cJSON *s = object->child; s && s != item; s = s->next)
        if (s->string && item->string && !strcmp(s->string, item->string))
            return 1;
    return 0;
}

static vks_result json_root(vks__crowd_parser *p, const cJSON *root, const char *prefix, vks_affine *out)
{
    char path[128];
    snprintf(path, sizeof path, "%.100s", prefix);
    if (!cJSON_IsObject(root))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                    "expected an object with \"translation\", \"rotation\", \"scale\" or \"matrix\", got %s",
                    json_kind(root));
    const cJSON *mat = NULL, *tra = NULL, *rot = NULL, *sca = NULL, *e;
    cJSON_ArrayForEach(e, root)
    {
        const char *k = e->string ? e->string : "";
        if (key_seen_before(root, e))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "the key \"%.40s\" is given twice", k);
        if (!strcmp(k, "matrix"))
            mat = e;
        else if (!strcmp(k, "translation"))
            tra = e;
        else if (!strcmp(k, "rotation"))
            rot = e;
        else if (!strcmp(k, "scale"))
            sca = e;
        else
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                        "unknown key \"%.40s\" (expected translation, rotation, scale or matrix)", k);
    }
    double v[16];
    if (mat) {
        snprintf(path, sizeof path, "%.100s.matrix", prefix);
        if (tra || rot || sca)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                                   "expected \"matrix\" alone, not with translation, rotation or scale");
        vks_result r = json_numbers(p, mat, path, v, 12, 16);
        if (r != VKS_OK)
            return r;
        if (cJSON_GetArraySize(mat) == 16) {
            if (v[3] != 0 || v[7] != 0 || v[11] != 0 || v[15] != 1)
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                                       "expected a 4x4 whose last row is 0 0 0 1 (an affine)");
            for (int c = 0; c < 4; c++)
                for (int row = 0; row < 3; row++)
                    out->m[c * 3 + row] = (float)v[c * 4 + row];
        } else {
            for (int k = 0; k < 12; k++)
                out->m[k] = (float)v[k];
        }
        return vks__crowd_check_root(p, out, 0, path);
    }
    float t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    const struct {
        const cJSON *item;
        const char *key;
        float *dst;
        int n;
    } ch[3] = {{tra, "translation", t, 3}, {rot, "rotation", q, 4}, {sca, "scale", s, 3}};
    for (int c = 0; c < 3; c++) {
        if (!ch[c].item)
            continue;
        snprintf(path, sizeof path, "%.100s.%s", prefix, ch[c].key);
        vks_result r = json_numbers(p, ch[c].item, path, v, ch[c].n, ch[c].n);
        if (r != VKS_OK)
            return r;
        if (ch[c].n == 4 && v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3] < 1e-12)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                                   "expected a rotation quaternion (x, y, z, w), got a zero one");
        for (int k = 0; k < ch[c].n; k++)
            ch[c].dst[k] = (float)v[k];
    }
    *out = vks_affine_from_trs(t, q, s);
    return vks__crowd_check_root(p, out, 0, prefix);
}

static vks_result json_string(vks__crowd_parser *p, const cJSON *v, const char *path, const char *what)
{
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected %s, got %s%s", what, json_kind(v),
                    cJSON_IsString(v) ? " that is empty" : "");
    if (strlen(v->valuestring) > MAX_TEXT)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "longer than %d bytes", MAX_TEXT);
    return VKS_OK;
}

static vks_result json_cycle(vks__crowd_parser *p, const cJSON *v, const char *path, int32_t *out)
{
    int c = cJSON_IsString(v) ? vks__crowd_parse_cycle(v->valuestring, strlen(v->valuestring)) : -1;
    if (c < 0)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                               "expected \"loop\", \"clamp\", \"mirror\" or \"reset\", got %s%s%.40s%s", json_kind(v),
                               cJSON_IsString(v) ? " \"" : "", cJSON_IsString(v) ? v->valuestring : "",
                               cJSON_IsString(v) ? "\"" : "");
    *out = c;
    return VKS_OK;
}

/* "root_motion": true, false, "y", "z" (translation only, as before yaw), or an object
 * {"up": "y" | "z" (default "y"), "yaw": true | false (default false)}. */
static vks_result json_root_motion(vks__crowd_parser *p, const cJSON *v, const char *path, int32_t *out)
{
    if (!cJSON_IsObject(v)) {
        int rm = cJSON_IsBool(v)     ? cJSON_IsTrue(v)
                 : cJSON_IsString(v) ? vks__crowd_parse_root_motion(v->valuestring, strlen(v->valuestring))
                                     : -1;
        if (rm < 0)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                        "expected true, false, \"y\" or \"z\" (the up axis) or {\"up\": ..., \"yaw\": ...}, got %s",
                        json_kind(v));
        *out = rm;
        return VKS_OK;
    }
    char at[192];
    int up = VKS_ROOT_MOTION_Y_UP, yaw = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, v)
    {
        const char *k = c->string ? c->string : "";
        snprintf(at, sizeof at, "%.120s.%.30s", path, k);
        if (key_seen_before(v, c))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, at, "the key is given twice");
        if (!strcmp(k, "up")) {
            const char *u = cJSON_IsString(c) ? c->valuestring : "";
            up = (u[0] == 'y' || u[0] == 'Y') && !u[1] ? VKS_ROOT_MOTION_Y_UP
                 : (u[0] == 'z' || u[0] == 'Z') && !u[1] ? VKS_ROOT_MOTION_Z_UP : -1;
            if (up < 0)
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, at, "expected \"y\" or \"z\" (the up axis), got %s",
                                       json_kind(c));
        } else if (!strcmp(k, "yaw")) {
            if (!cJSON_IsBool(c))
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, at, "expected true or false, got %s", json_kind(c));
            yaw = cJSON_IsTrue(c);
        } else {
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, at, "unknown key (expected up or yaw)");
        }
    }
    *out = up | (yaw ? VKS_ROOT_MOTION_YAW : 0);
    return VKS_OK;
}

/* A layer's or a reference's "clip": a clip source, interned for instance i into *out. */
static vks_result json_clip(vks__crowd_parser *p, const cJSON *v, const char *path, uint32_t i, int32_t *out)
{
    vks_result r = json_string(p, v, path, "a clip source \"FILE#name\" or \"FILE#index\"");
    if (r != VKS_OK)
        return r;
    *out = vks__crowd_intern(p, 1, v->valuestring, strlen(v->valuestring), i, 0, path);
    return *out >= 0 ? VKS_OK : p->err ? p->err->code : VKS_ERR_NOMEM;
}

/* A layer's "reference": {"clip", "time"} (either optional) at path. */
static vks_result json_reference(vks__crowd_parser *p, const cJSON *o, const char *where, uint32_t i,
                                 vks_crowd_entry_layer *y)
{
    char path[240];
    if (!cJSON_IsObject(o))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, where, "expected an object with \"clip\" and/or \"time\", got %s",
                    json_kind(o));
    const cJSON *v;
    cJSON_ArrayForEach(v, o)
    {
        const char *k = v->string ? v->string : "";
        snprintf(path, sizeof path, "%.180s.%.40s", where, k);
        vks_result r = VKS_OK;
        if (key_seen_before(o, v))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "the key is given twice");
        if (!strcmp(k, "clip")) {
            r = json_clip(p, v, path, i, &y->reference);
        } else if (!strcmp(k, "time")) {
            r = json_number(p, v, path, &y->ref_time);
            if (r == VKS_OK && !(y->ref_time >= 0))
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected a clip time >= 0, got %g",
                                       (double)y->ref_time);
        } else {
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "unknown key (expected clip or time)");
        }
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

/* One layer object at path ("instances[3].layers[1]"). */
static vks_result json_layer(vks__crowd_parser *p, const cJSON *o, const char *where, uint32_t i,
                             vks_crowd_entry_layer *y)
{
    char path[192];
    *y = vks__crowd_default_layer();
    if (!cJSON_IsObject(o))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, where, "expected a layer object with \"clip\", got %s",
                               json_kind(o));
    const cJSON *v, *reference = NULL;
    cJSON_ArrayForEach(v, o)
    {
        const char *k = v->string ? v->string : "";
        snprintf(path, sizeof path, "%.120s.%.40s", where, k);
        vks_result r = VKS_OK;
        if (key_seen_before(o, v))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "the key is given twice");
        if (!strcmp(k, "clip")) {
            r = json_clip(p, v, path, i, &y->clip);
        } else if (!strcmp(k, "start")) {
            r = json_number(p, v, path, &y->start);
        } else if (!strcmp(k, "speed")) {
            r = json_number(p, v, path, &y->speed);
        } else if (!strcmp(k, "cycle")) {
            r = json_cycle(p, v, path, &y->cycle);
        } else if (!strcmp(k, "weight")) {
            r = json_number(p, v, path, &y->weight);
            if (r == VKS_OK && !(y->weight >= 0))
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected a weight >= 0, got %g", (double)y->weight);
        } else if (!strcmp(k, "blend")) {
            y->mode = cJSON_IsString(v) ? vks__crowd_parse_blend(v->valuestring, strlen(v->valuestring)) : -1;
            if (y->mode < 0)
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected \"normal\" or \"additive\", got %s",
                                       json_kind(v));
        } else if (!strcmp(k, "mask")) {
            if ((r = json_string(p, v, path, "a node name")) != VKS_OK)
                return r;
            if (!(y->mask = vks__arena_strndup(p->spec->arena, &p->a, v->valuestring, strlen(v->valuestring))))
                return vks__crowd_nomem(p, 0, path);
        } else if (!strcmp(k, "reference")) {
            reference = v;
            r = json_reference(p, v, path, i, y);
        } else {
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                        "unknown key (expected clip, start, speed, cycle, weight, blend, mask or reference)");
        }
        if (r != VKS_OK)
            return r;
    }
    if (y->clip < 0)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, where, "expected a layer with \"clip\", got none");
    if (reference && y->mode != VKS_LAYER_ADDITIVE) {
        snprintf(path, sizeof path, "%.120s.reference", where);
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                    "a reference pose is for an additive layer (\"blend\": \"additive\")");
    }
    if (y->mode == VKS_LAYER_ADDITIVE && y->weight > VKS_MAX_ADDITIVE_WEIGHT) {
        snprintf(path, sizeof path, "%.120s.weight", where);
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, ADDITIVE_WEIGHT_MESSAGE, (double)y->weight);
    }
    return VKS_OK;
}

/* The layers of array v (at path) after the *n already in ys, each with fade. */
static vks_result json_layers(vks__crowd_parser *p, const cJSON *v, const char *path, uint32_t i,
                              vks_crowd_entry_layer *ys, uint32_t *n, int fade)
{
    int size = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (size < 1)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected a non-empty array of layers, got %s",
                               json_kind(v));
    if ((uint32_t)size > VKS_MAX_LAYERS - *n)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "%d layers here and %u before: more than %d in all", size,
                               *n, VKS_MAX_LAYERS);
    const cJSON *e;
    int k = 0;
    cJSON_ArrayForEach(e, v)
    {
        char where[160];
        snprintf(where, sizeof where, "%.120s[%d]", path, k++);
        vks_result r = json_layer(p, e, where, i, &ys[*n]);
        if (r != VKS_OK)
            return r;
        ys[(*n)++].fade = fade;
    }
    return VKS_OK;
}

/* "transition": {"start", "duration", "to"}: the layers entered after the *n left. */
static vks_result json_transition(vks__crowd_parser *p, const cJSON *v, const char *path, uint32_t i,
                                  vks_crowd_entry *e, vks_crowd_entry_layer *ys, uint32_t *n)
{
    char at[160];
    if (!cJSON_IsObject(v))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                               "expected an object with \"start\", \"duration\" and \"to\", got %s", json_kind(v));
    const cJSON *to = NULL, *c;
    cJSON_ArrayForEach(c, v)
    {
        const char *k = c->string ? c->string : "";
        snprintf(at, sizeof at, "%.120s.%.30s", path, k);
        vks_result r = VKS_OK;
        if (key_seen_before(v, c))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, at, "the key is given twice");
        if (!strcmp(k, "start"))
            r = json_number(p, c, at, &e->fade_start);
        else if (!strcmp(k, "duration")) {
            r = json_number(p, c, at, &e->fade_duration);
            if (r == VKS_OK && !(e->fade_duration >= 0))
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, at, "expected a duration >= 0, got %g",
                                       (double)e->fade_duration);
        } else if (!strcmp(k, "to"))
            to = c;
        else
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, at, "unknown key (expected start, duration or to)");
        if (r != VKS_OK)
            return r;
    }
    if (!to)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected \"to\": the layers the transition enters");
    for (uint32_t k = 0; k < *n; k++)
        ys[k].fade = VKS_FADE_OUT;
    snprintf(at, sizeof at, "%.120s.to", path);
    return json_layers(p, to, at, i, ys, n, VKS_FADE_IN);
}

static vks_result json_instance(vks__crowd_parser *p, const cJSON *o, uint32_t i)
{
    char where[48], path[128];
    snprintf(where, sizeof where, "instances[%u]", i);
    if (!cJSON_IsObject(o))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, where, "expected an object, got %s", json_kind(o));
    vks_crowd_entry *e = vks__crowd_add_instance(p, 0, where);
    if (!e)
        return p->err ? p->err->code : VKS_ERR_NOMEM;
    const cJSON *v, *layers = NULL, *transition = NULL;
    int plain_keys = 0;
    cJSON_ArrayForEach(v, o)
    {
        const char *k = v->string ? v->string : "";
        snprintf(path, sizeof path, "%s.%.40s", where, k);
        vks_result r = VKS_OK;
        if (key_seen_before(o, v))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "the key is given twice");
        if (!strcmp(k, "model") || !strcmp(k, "clip")) {
            int clip = k[0] == 'c';
            if (!cJSON_IsString(v) || !v->valuestring[0])
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "expected %s, got %s%s",
                            clip ? "a clip source \"FILE#name\" or \"FILE#index\"" : "a model file name",
                            json_kind(v), cJSON_IsString(v) ? " that is empty" : "");
            size_t n = strlen(v->valuestring);
            if (n > MAX_TEXT)
                return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path, "longer than %d bytes", MAX_TEXT);
            int32_t idx = vks__crowd_intern(p, clip, v->valuestring, n, i, 0, path);
            if (idx < 0)
                return p->err ? p->err->code : VKS_ERR_NOMEM;
            *(clip ? &e->clip : &e->model) = idx;
        } else if (!strcmp(k, "start")) {
            r = json_number(p, v, path, &e->start);
        } else if (!strcmp(k, "speed")) {
            r = json_number(p, v, path, &e->speed);
        } else if (!strcmp(k, "cycle")) {
            r = json_cycle(p, v, path, &e->cycle);
        } else if (!strcmp(k, "root")) {
            r = json_root(p, v, path, &e->root);
        } else if (!strcmp(k, "layers")) {
            layers = v;
        } else if (!strcmp(k, "transition")) {
            transition = v;
        } else if (!strcmp(k, "root_motion")) {
            r = json_root_motion(p, v, path, &e->root_motion);
        } else {
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                        "unknown key (expected model, clip, start, speed, cycle, root, layers, transition or "
                        "root_motion)");
        }
        if (r != VKS_OK)
            return r;
        plain_keys |= !strcmp(k, "clip") || !strcmp(k, "start") || !strcmp(k, "speed") || !strcmp(k, "cycle");
    }
    if (!layers && !transition && !e->root_motion)
        return VKS_OK; /* a plain entry, as before layers */
    vks_crowd_entry_layer ys[VKS_MAX_LAYERS];
    uint32_t n = 0;
    vks_result r = VKS_OK;
    if (layers) {
        snprintf(path, sizeof path, "%s.layers", where);
        if (plain_keys)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, path,
                                   "expected \"layers\" or clip, start, speed and cycle, not both");
        r = json_layers(p, layers, path, i, ys, &n, VKS_FADE_NONE);
    } else if (e->clip >= 0) { /* the plain clip is the one layer (the set a transition leaves) */
        ys[0] = vks__crowd_default_layer();
        ys[0].clip = e->clip, ys[0].start = e->start, ys[0].speed = e->speed, ys[0].cycle = e->cycle;
        n = 1;
    }
    if (r == VKS_OK && transition) {
        snprintf(path, sizeof path, "%s.transition", where);
        r = json_transition(p, transition, path, i, e, ys, &n);
    }
    if (r == VKS_OK && n == 0)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, 0, where, "expected a clip or layers for root_motion, got none");
    return r == VKS_OK ? vks__crowd_add_layers(p, e, ys, n, 0, where) : r;
}

vks_result vks__crowd_parse_json(vks__crowd_parser *p, const char *text, size_t size)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, 0);
    if (!root) {
        uint32_t line = 1;
        const char *stop = end && end >= text && end <= text + size ? end : text;
        for (const char *c = text; c < stop; c++)
            line += *c == '\n';
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "malformed JSON");
    }
    vks_result r = VKS_OK;
    const cJSON *inst = NULL, *v;
    if (!cJSON_IsObject(root)) {
        r = vks__crowd_fail(p, VKS_ERR_FORMAT, 0, "", "expected an object with \"instances\", got %s", json_kind(root));
        goto done;
    }
    cJSON_ArrayForEach(v, root)
    {
        if (key_seen_before(root, v)) {
            r = vks__crowd_fail(p, VKS_ERR_FORMAT, 0, v->string, "the key is given twice");
            goto done;
        } else if (v->string && !strcmp(v->string, "instances")) {
            inst = v;
        } else {
            r = vks__crowd_fail(p, VKS_ERR_FORMAT, 0, v->string ? v->string : "",
                                "unknown key (expected \"instances\")");
            goto done;
        }
    }
    if (!cJSON_IsArray(inst) || cJSON_GetArraySize(inst) < 1) {
        r = vks__crowd_fail(p, VKS_ERR_FORMAT, 0, "instances", "expected a non-empty array of instances, got %s",
                 inst ? json_kind(inst) : "nothing");
        goto done;
    }
    if ((uint64_t)cJSON_GetArraySize(inst) > VKS_CROWD_MAX_INSTANCES) {
        r = vks__crowd_fail(p, VKS_ERR_LIMIT, 0, "instances", "%d instances, more than %u", cJSON_GetArraySize(inst),
                 VKS_CROWD_MAX_INSTANCES);
        goto done;
    }
    uint32_t i = 0;
    cJSON_ArrayForEach(v, inst)
    {
        if ((r = json_instance(p, v, i++)) != VKS_OK)
            break;
    }
done:
    cJSON_Delete(root);
    return r;
}

