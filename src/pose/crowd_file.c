/* Crowd files (crowd_file.h): per instance a model, a clip, start, speed, cycle and root, in
 * JSON (cJSON) or CSV (a header row, then one row per instance). Text in, a flat table out:
 * repeated model and clip names are stored once (a hash on the text as written), so a crowd
 * of a million rows naming four clips holds four clip sources. Errors say where (the CSV
 * line, or the JSON entry and key) and what was expected. */
#include "vkskin/crowd_file.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "core/vec.h"
#include "vkskin/clip.h"
#include "vkskin/skin.h"
#include "core/c_numeric.h"

/* An additive layer past its full delta would extrapolate: the rotation's nlerp saturates, a
   scale can turn negative and float engines part from the reference by the weight's factor. */
#define ADDITIVE_WEIGHT_MESSAGE "expected an additive weight <= 1 (its whole delta), got %g"

enum { MAX_TEXT = 4096 }; /* longest path or clip source in a cell */

typedef struct table { /* open addressing over source indices + 1 */
    uint32_t *slot;
    size_t cap;
} table;

typedef struct parser {
    vks_crowd_spec *spec;
    vks_allocator a;
    const char *name; /* for errors */
    size_t dir_len;   /* name's folder, up to and including its last '/' */
    size_t inst_cap, model_cap, clip_cap, layer_cap;
    table models, clips;
    vks_error *err;
} parser;

static vks_result failv(parser *p, vks_result code, uint32_t line, const char *path, const char *fmt, va_list ap)
{
    if (p->err && p->err->code == VKS_OK) {
        char msg[sizeof p->err->msg];
        vsnprintf(msg, sizeof msg, fmt, ap);
        vks_error_set(p->err, code, VKS_NO_OFFSET, path, "%s", msg);
        snprintf(p->err->file, sizeof p->err->file, "%s", p->name);
        p->err->line = line;
    }
    return code;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static vks_result fail(parser *p, vks_result code, uint32_t line, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vks_result r = failv(p, code, line, path, fmt, ap);
    va_end(ap);
    return r;
}

static vks_result nomem(parser *p, uint32_t line, const char *path)
{
    return fail(p, VKS_ERR_NOMEM, line, path, "out of memory");
}

/* ---- sources: each distinct text once ---- */

static uint64_t hash_text(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int table_grow(parser *p, table *t, const vks_crowd_source *src, uint32_t count)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    uint32_t *slot = p->a.alloc(p->a.user, cap * sizeof *slot);
    if (!slot)
        return 0;
    memset(slot, 0, cap * sizeof *slot);
    for (uint32_t i = 0; i < count; i++) {
        size_t h = (size_t)hash_text(src[i].text, strlen(src[i].text)) & (cap - 1);
        while (slot[h])
            h = (h + 1) & (cap - 1);
        slot[h] = i + 1;
    }
    if (t->slot)
        p->a.free(p->a.user, t->slot);
    t->slot = slot, t->cap = cap;
    return 1;
}

/* The path as the host should open it: relative paths joined to the crowd file's folder. */
static const char *resolve(parser *p, const char *path, size_t n)
{
    if (n && path[0] == '/')
        return vks__arena_strndup(p->spec->arena, &p->a, path, n);
    char *s = vks__arena_alloc(p->spec->arena, &p->a, p->dir_len + n + 1);
    if (s) {
        memcpy(s, p->name, p->dir_len);
        memcpy(s + p->dir_len, path, n);
        s[p->dir_len + n] = 0;
    }
    return s;
}

/* Index of the source written as text[0..n) (a model when !clip), added when new; -1 with
 * the error recorded on failure. */
static int32_t intern(parser *p, int clip, const char *text, size_t n, uint32_t instance, uint32_t line,
                      const char *path)
{
    table *t = clip ? &p->clips : &p->models;
    vks_crowd_source **arr = clip ? &p->spec->clips : &p->spec->models;
    uint32_t *count = clip ? &p->spec->clip_count : &p->spec->model_count;
    size_t *cap = clip ? &p->clip_cap : &p->model_cap;
    uint64_t h = hash_text(text, n);
    if (t->cap)
        for (size_t i = (size_t)h & (t->cap - 1); t->slot[i]; i = (i + 1) & (t->cap - 1)) {
            const char *s = (*arr)[t->slot[i] - 1].text;
            if (strlen(s) == n && memcmp(s, text, n) == 0)
                return (int32_t)(t->slot[i] - 1);
        }
    /* new: split a clip at its last '#' into file and clip name */
    size_t file_len = n;
    const char *name = "";
    if (clip) {
        const char *hash = NULL;
        for (size_t i = 0; i < n; i++)
            if (text[i] == '#')
                hash = text + i;
        if (hash) {
            file_len = (size_t)(hash - text);
            name = vks__arena_strndup(p->spec->arena, &p->a, hash + 1, n - file_len - 1);
        }
        if (file_len == 0) {
            fail(p, VKS_ERR_FORMAT, line, path, "expected \"FILE#name\" or \"FILE#index\", got no file before '#'");
            return -1;
        }
    }
    vks_crowd_source *grown = vks__grow_array(&p->a, *arr, *count, cap, 1, sizeof **arr, 8);
    if (!grown) {
        nomem(p, line, path);
        return -1;
    }
    *arr = grown;
    vks_crowd_source *s = &grown[*count];
    s->text = vks__arena_strndup(p->spec->arena, &p->a, text, n);
    s->path = resolve(p, text, file_len);
    s->name = name;
    s->first_instance = instance;
    if (!s->text || !s->path || !s->name) {
        nomem(p, line, path);
        return -1;
    }
    (*count)++;
    if ((size_t)*count * 2 > t->cap && !table_grow(p, t, *arr, *count)) {
        (*count)--;
        nomem(p, line, path);
        return -1;
    }
    if ((size_t)*count * 2 <= t->cap) {
        size_t i = (size_t)h & (t->cap - 1);
        while (t->slot[i] && t->slot[i] != *count)
            i = (i + 1) & (t->cap - 1);
        t->slot[i] = *count;
    }
    return (int32_t)(*count - 1);
}

/* ---- values shared by both forms ---- */

static int parse_cycle(const char *s, size_t n)
{
    static const char *names[] = {"loop", "clamp", "mirror", "reset"};
    for (int c = 0; c < 4; c++)
        if (strlen(names[c]) == n && strncasecmp(s, names[c], n) == 0)
            return c;
    return -1;
}

static int finite_float(double v)
{
    return isfinite(v) && fabs(v) <= FLT_MAX;
}

/* The root's 3x3 must be something float32 engines deform faithfully (skin.h). */
static vks_result check_root(parser *p, const vks_affine *root, uint32_t line, const char *path)
{
    double lo, hi;
    if (!vks_affine_is_finite(root) || !vks_affine_scale_range(root, &lo, &hi) || !vks_float32_scale_ok(lo, hi))
        return fail(p, VKS_ERR_FORMAT, line, path,
                    "expected a root whose 3x3 is invertible, scales within 2^-48..2^48 and stretches at most "
                    "2^9 between axes");
    return VKS_OK;
}

/* A new instance with the defaults; NULL with the error recorded. */
static vks_crowd_entry *add_instance(parser *p, uint32_t line, const char *path)
{
    vks_crowd_spec *s = p->spec;
    if (s->instance_count >= VKS_CROWD_MAX_INSTANCES) {
        fail(p, VKS_ERR_LIMIT, line, path, "more than %u instances", VKS_CROWD_MAX_INSTANCES);
        return NULL;
    }
    vks_crowd_entry *grown = vks__grow_array(&p->a, s->instances, s->instance_count, &p->inst_cap, 1,
                                             sizeof *grown, 256);
    if (!grown) {
        nomem(p, line, path);
        return NULL;
    }
    s->instances = grown;
    vks_crowd_entry *e = &grown[s->instance_count++];
    memset(e, 0, sizeof *e);
    e->model = -1, e->clip = -1, e->speed = 1, e->cycle = -1;
    e->root = vks_affine_identity();
    e->line = line;
    return e;
}

/* ---- layers, shared by both forms ---- */

static vks_crowd_entry_layer default_layer(void)
{
    vks_crowd_entry_layer y = {0};
    y.clip = -1, y.speed = 1, y.cycle = -1, y.weight = 1, y.reference = -1;
    return y;
}

static int parse_blend(const char *s, size_t n)
{
    if (n == 6 && strncasecmp(s, "normal", 6) == 0)
        return VKS_LAYER_NORMAL;
    if (n == 8 && strncasecmp(s, "additive", 8) == 0)
        return VKS_LAYER_ADDITIVE;
    return -1;
}

/* root_motion's text: 1 / true / y, z, 0 / false; -1 otherwise. */
static int parse_root_motion(const char *s, size_t n)
{
    static const struct {
        const char *text;
        int value;
    } words[] = {{"0", 0}, {"false", 0}, {"no", 0}, {"1", 1}, {"true", 1}, {"yes", 1}, {"y", 1}, {"z", 2}};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k].text) == n && strncasecmp(s, words[k].text, n) == 0)
            return words[k].value;
    return -1;
}

/* root_yaw's text: 1 / true / yes, 0 / false / no; -1 otherwise. */
static int parse_yes_no(const char *s, size_t n)
{
    int v = parse_root_motion(s, n);
    return v == 0 || (v == 1 && !(n == 1 && (s[0] == 'y' || s[0] == 'Y'))) ? v : -1;
}

/* Stores entry e's n layers (ys) in the spec; the entry plays layer 0's clip where a host
 * knows no layers. */
static vks_result add_layers(parser *p, vks_crowd_entry *e, const vks_crowd_entry_layer *ys, uint32_t n,
                             uint32_t line, const char *path)
{
    vks_crowd_spec *s = p->spec;
    vks_crowd_entry_layer *grown = vks__grow_array(&p->a, s->layers, s->layer_count, &p->layer_cap, n,
                                                   sizeof *grown, 64);
    if (!grown)
        return nomem(p, line, path);
    s->layers = grown;
    memcpy(grown + s->layer_count, ys, n * sizeof *ys);
    e->first_layer = s->layer_count, e->layer_count = n;
    s->layer_count += n;
    e->clip = ys[0].clip, e->start = ys[0].start, e->speed = ys[0].speed, e->cycle = ys[0].cycle;
    return VKS_OK;
}

/* ---- JSON ---- */

static const char *json_kind(const cJSON *v)
{
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsNumber(v))
        return isfinite(v->valuedouble) && fabs(v->valuedouble) <= FLT_MAX ? "a number" : "a number outside float range";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsObject(v))
        return "an object";
    if (cJSON_IsBool(v))
        return "a boolean";
    if (cJSON_IsNull(v))
        return "null";
    return "something else";
}

static vks_result json_number(parser *p, const cJSON *v, const char *path, float *out)
{
    if (!cJSON_IsNumber(v) || !finite_float(v->valuedouble))
        return fail(p, VKS_ERR_FORMAT, 0, path, "expected a finite number, got %s", json_kind(v));
    *out = (float)v->valuedouble;
    return VKS_OK;
}

static vks_result json_numbers(parser *p, const cJSON *v, const char *path, double *out, int n, int n2)
{
    int size = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (size != n && size != n2) {
        if (n2 != n)
            return fail(p, VKS_ERR_FORMAT, 0, path, "expected an array of %d or %d numbers, got %s%s", n, n2,
                        json_kind(v), size >= 0 ? " of another length" : "");
        return fail(p, VKS_ERR_FORMAT, 0, path, "expected an array of %d numbers, got %s%s", n, json_kind(v),
                    size >= 0 ? " of another length" : "");
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, v)
    {
        if (!cJSON_IsNumber(e) || !finite_float(e->valuedouble))
            return fail(p, VKS_ERR_FORMAT, 0, path, "element %d: expected a finite number, got %s", i, json_kind(e));
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

static vks_result json_root(parser *p, const cJSON *root, const char *prefix, vks_affine *out)
{
    char path[128];
    snprintf(path, sizeof path, "%.100s", prefix);
    if (!cJSON_IsObject(root))
        return fail(p, VKS_ERR_FORMAT, 0, path,
                    "expected an object with \"translation\", \"rotation\", \"scale\" or \"matrix\", got %s",
                    json_kind(root));
    const cJSON *mat = NULL, *tra = NULL, *rot = NULL, *sca = NULL, *e;
    cJSON_ArrayForEach(e, root)
    {
        const char *k = e->string ? e->string : "";
        if (key_seen_before(root, e))
            return fail(p, VKS_ERR_FORMAT, 0, path, "the key \"%.40s\" is given twice", k);
        if (!strcmp(k, "matrix"))
            mat = e;
        else if (!strcmp(k, "translation"))
            tra = e;
        else if (!strcmp(k, "rotation"))
            rot = e;
        else if (!strcmp(k, "scale"))
            sca = e;
        else
            return fail(p, VKS_ERR_FORMAT, 0, path,
                        "unknown key \"%.40s\" (expected translation, rotation, scale or matrix)", k);
    }
    double v[16];
    if (mat) {
        snprintf(path, sizeof path, "%.100s.matrix", prefix);
        if (tra || rot || sca)
            return fail(p, VKS_ERR_FORMAT, 0, path, "expected \"matrix\" alone, not with translation, rotation or scale");
        vks_result r = json_numbers(p, mat, path, v, 12, 16);
        if (r != VKS_OK)
            return r;
        if (cJSON_GetArraySize(mat) == 16) {
            if (v[3] != 0 || v[7] != 0 || v[11] != 0 || v[15] != 1)
                return fail(p, VKS_ERR_FORMAT, 0, path, "expected a 4x4 whose last row is 0 0 0 1 (an affine)");
            for (int c = 0; c < 4; c++)
                for (int row = 0; row < 3; row++)
                    out->m[c * 3 + row] = (float)v[c * 4 + row];
        } else {
            for (int k = 0; k < 12; k++)
                out->m[k] = (float)v[k];
        }
        return check_root(p, out, 0, path);
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
            return fail(p, VKS_ERR_FORMAT, 0, path, "expected a rotation quaternion (x, y, z, w), got a zero one");
        for (int k = 0; k < ch[c].n; k++)
            ch[c].dst[k] = (float)v[k];
    }
    *out = vks_affine_from_trs(t, q, s);
    return check_root(p, out, 0, prefix);
}

static vks_result json_string(parser *p, const cJSON *v, const char *path, const char *what)
{
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return fail(p, VKS_ERR_FORMAT, 0, path, "expected %s, got %s%s", what, json_kind(v),
                    cJSON_IsString(v) ? " that is empty" : "");
    if (strlen(v->valuestring) > MAX_TEXT)
        return fail(p, VKS_ERR_FORMAT, 0, path, "longer than %d bytes", MAX_TEXT);
    return VKS_OK;
}

static vks_result json_cycle(parser *p, const cJSON *v, const char *path, int32_t *out)
{
    int c = cJSON_IsString(v) ? parse_cycle(v->valuestring, strlen(v->valuestring)) : -1;
    if (c < 0)
        return fail(p, VKS_ERR_FORMAT, 0, path, "expected \"loop\", \"clamp\", \"mirror\" or \"reset\", got %s%s%.40s%s",
                    json_kind(v), cJSON_IsString(v) ? " \"" : "", cJSON_IsString(v) ? v->valuestring : "",
                    cJSON_IsString(v) ? "\"" : "");
    *out = c;
    return VKS_OK;
}

/* "root_motion": true, false, "y", "z" (translation only, as before yaw), or an object
 * {"up": "y" | "z" (default "y"), "yaw": true | false (default false)}. */
static vks_result json_root_motion(parser *p, const cJSON *v, const char *path, int32_t *out)
{
    if (!cJSON_IsObject(v)) {
        int rm = cJSON_IsBool(v) ? cJSON_IsTrue(v)
                                 : cJSON_IsString(v) ? parse_root_motion(v->valuestring, strlen(v->valuestring)) : -1;
        if (rm < 0)
            return fail(p, VKS_ERR_FORMAT, 0, path,
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
            return fail(p, VKS_ERR_FORMAT, 0, at, "the key is given twice");
        if (!strcmp(k, "up")) {
            const char *u = cJSON_IsString(c) ? c->valuestring : "";
            up = (u[0] == 'y' || u[0] == 'Y') && !u[1] ? VKS_ROOT_MOTION_Y_UP
                 : (u[0] == 'z' || u[0] == 'Z') && !u[1] ? VKS_ROOT_MOTION_Z_UP : -1;
            if (up < 0)
                return fail(p, VKS_ERR_FORMAT, 0, at, "expected \"y\" or \"z\" (the up axis), got %s", json_kind(c));
        } else if (!strcmp(k, "yaw")) {
            if (!cJSON_IsBool(c))
                return fail(p, VKS_ERR_FORMAT, 0, at, "expected true or false, got %s", json_kind(c));
            yaw = cJSON_IsTrue(c);
        } else {
            return fail(p, VKS_ERR_FORMAT, 0, at, "unknown key (expected up or yaw)");
        }
    }
    *out = up | (yaw ? VKS_ROOT_MOTION_YAW : 0);
    return VKS_OK;
}

/* A layer's or a reference's "clip": a clip source, interned for instance i into *out. */
static vks_result json_clip(parser *p, const cJSON *v, const char *path, uint32_t i, int32_t *out)
{
    vks_result r = json_string(p, v, path, "a clip source \"FILE#name\" or \"FILE#index\"");
    if (r != VKS_OK)
        return r;
    *out = intern(p, 1, v->valuestring, strlen(v->valuestring), i, 0, path);
    return *out >= 0 ? VKS_OK : p->err ? p->err->code : VKS_ERR_NOMEM;
}

/* A layer's "reference": {"clip", "time"} (either optional) at path. */
static vks_result json_reference(parser *p, const cJSON *o, const char *where, uint32_t i, vks_crowd_entry_layer *y)
{
    char path[240];
    if (!cJSON_IsObject(o))
        return fail(p, VKS_ERR_FORMAT, 0, where, "expected an object with \"clip\" and/or \"time\", got %s",
                    json_kind(o));
    const cJSON *v;
    cJSON_ArrayForEach(v, o)
    {
        const char *k = v->string ? v->string : "";
        snprintf(path, sizeof path, "%.180s.%.40s", where, k);
        vks_result r = VKS_OK;
        if (key_seen_before(o, v))
            return fail(p, VKS_ERR_FORMAT, 0, path, "the key is given twice");
        if (!strcmp(k, "clip")) {
            r = json_clip(p, v, path, i, &y->reference);
        } else if (!strcmp(k, "time")) {
            r = json_number(p, v, path, &y->ref_time);
            if (r == VKS_OK && !(y->ref_time >= 0))
                return fail(p, VKS_ERR_FORMAT, 0, path, "expected a clip time >= 0, got %g", (double)y->ref_time);
        } else {
            return fail(p, VKS_ERR_FORMAT, 0, path, "unknown key (expected clip or time)");
        }
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
}

/* One layer object at path ("instances[3].layers[1]"). */
static vks_result json_layer(parser *p, const cJSON *o, const char *where, uint32_t i, vks_crowd_entry_layer *y)
{
    char path[192];
    *y = default_layer();
    if (!cJSON_IsObject(o))
        return fail(p, VKS_ERR_FORMAT, 0, where, "expected a layer object with \"clip\", got %s", json_kind(o));
    const cJSON *v, *reference = NULL;
    cJSON_ArrayForEach(v, o)
    {
        const char *k = v->string ? v->string : "";
        snprintf(path, sizeof path, "%.120s.%.40s", where, k);
        vks_result r = VKS_OK;
        if (key_seen_before(o, v))
            return fail(p, VKS_ERR_FORMAT, 0, path, "the key is given twice");
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
                return fail(p, VKS_ERR_FORMAT, 0, path, "expected a weight >= 0, got %g", (double)y->weight);
        } else if (!strcmp(k, "blend")) {
            y->mode = cJSON_IsString(v) ? parse_blend(v->valuestring, strlen(v->valuestring)) : -1;
            if (y->mode < 0)
                return fail(p, VKS_ERR_FORMAT, 0, path, "expected \"normal\" or \"additive\", got %s", json_kind(v));
        } else if (!strcmp(k, "mask")) {
            if ((r = json_string(p, v, path, "a node name")) != VKS_OK)
                return r;
            if (!(y->mask = vks__arena_strndup(p->spec->arena, &p->a, v->valuestring, strlen(v->valuestring))))
                return nomem(p, 0, path);
        } else if (!strcmp(k, "reference")) {
            reference = v;
            r = json_reference(p, v, path, i, y);
        } else {
            return fail(p, VKS_ERR_FORMAT, 0, path,
                        "unknown key (expected clip, start, speed, cycle, weight, blend, mask or reference)");
        }
        if (r != VKS_OK)
            return r;
    }
    if (y->clip < 0)
        return fail(p, VKS_ERR_FORMAT, 0, where, "expected a layer with \"clip\", got none");
    if (reference && y->mode != VKS_LAYER_ADDITIVE) {
        snprintf(path, sizeof path, "%.120s.reference", where);
        return fail(p, VKS_ERR_FORMAT, 0, path,
                    "a reference pose is for an additive layer (\"blend\": \"additive\")");
    }
    if (y->mode == VKS_LAYER_ADDITIVE && y->weight > VKS_MAX_ADDITIVE_WEIGHT) {
        snprintf(path, sizeof path, "%.120s.weight", where);
        return fail(p, VKS_ERR_FORMAT, 0, path, ADDITIVE_WEIGHT_MESSAGE, (double)y->weight);
    }
    return VKS_OK;
}

/* The layers of array v (at path) after the *n already in ys, each with fade. */
static vks_result json_layers(parser *p, const cJSON *v, const char *path, uint32_t i, vks_crowd_entry_layer *ys,
                              uint32_t *n, int fade)
{
    int size = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (size < 1)
        return fail(p, VKS_ERR_FORMAT, 0, path, "expected a non-empty array of layers, got %s", json_kind(v));
    if ((uint32_t)size > VKS_MAX_LAYERS - *n)
        return fail(p, VKS_ERR_FORMAT, 0, path, "%d layers here and %u before: more than %d in all", size, *n,
                    VKS_MAX_LAYERS);
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
static vks_result json_transition(parser *p, const cJSON *v, const char *path, uint32_t i, vks_crowd_entry *e,
                                  vks_crowd_entry_layer *ys, uint32_t *n)
{
    char at[160];
    if (!cJSON_IsObject(v))
        return fail(p, VKS_ERR_FORMAT, 0, path, "expected an object with \"start\", \"duration\" and \"to\", got %s",
                    json_kind(v));
    const cJSON *to = NULL, *c;
    cJSON_ArrayForEach(c, v)
    {
        const char *k = c->string ? c->string : "";
        snprintf(at, sizeof at, "%.120s.%.30s", path, k);
        vks_result r = VKS_OK;
        if (key_seen_before(v, c))
            return fail(p, VKS_ERR_FORMAT, 0, at, "the key is given twice");
        if (!strcmp(k, "start"))
            r = json_number(p, c, at, &e->fade_start);
        else if (!strcmp(k, "duration")) {
            r = json_number(p, c, at, &e->fade_duration);
            if (r == VKS_OK && !(e->fade_duration >= 0))
                return fail(p, VKS_ERR_FORMAT, 0, at, "expected a duration >= 0, got %g", (double)e->fade_duration);
        } else if (!strcmp(k, "to"))
            to = c;
        else
            return fail(p, VKS_ERR_FORMAT, 0, at, "unknown key (expected start, duration or to)");
        if (r != VKS_OK)
            return r;
    }
    if (!to)
        return fail(p, VKS_ERR_FORMAT, 0, path, "expected \"to\": the layers the transition enters");
    for (uint32_t k = 0; k < *n; k++)
        ys[k].fade = VKS_FADE_OUT;
    snprintf(at, sizeof at, "%.120s.to", path);
    return json_layers(p, to, at, i, ys, n, VKS_FADE_IN);
}

static vks_result json_instance(parser *p, const cJSON *o, uint32_t i)
{
    char where[48], path[128];
    snprintf(where, sizeof where, "instances[%u]", i);
    if (!cJSON_IsObject(o))
        return fail(p, VKS_ERR_FORMAT, 0, where, "expected an object, got %s", json_kind(o));
    vks_crowd_entry *e = add_instance(p, 0, where);
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
            return fail(p, VKS_ERR_FORMAT, 0, path, "the key is given twice");
        if (!strcmp(k, "model") || !strcmp(k, "clip")) {
            int clip = k[0] == 'c';
            if (!cJSON_IsString(v) || !v->valuestring[0])
                return fail(p, VKS_ERR_FORMAT, 0, path, "expected %s, got %s%s",
                            clip ? "a clip source \"FILE#name\" or \"FILE#index\"" : "a model file name",
                            json_kind(v), cJSON_IsString(v) ? " that is empty" : "");
            size_t n = strlen(v->valuestring);
            if (n > MAX_TEXT)
                return fail(p, VKS_ERR_FORMAT, 0, path, "longer than %d bytes", MAX_TEXT);
            int32_t idx = intern(p, clip, v->valuestring, n, i, 0, path);
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
            return fail(p, VKS_ERR_FORMAT, 0, path,
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
            return fail(p, VKS_ERR_FORMAT, 0, path, "expected \"layers\" or clip, start, speed and cycle, not both");
        r = json_layers(p, layers, path, i, ys, &n, VKS_FADE_NONE);
    } else if (e->clip >= 0) { /* the plain clip is the one layer (the set a transition leaves) */
        ys[0] = default_layer();
        ys[0].clip = e->clip, ys[0].start = e->start, ys[0].speed = e->speed, ys[0].cycle = e->cycle;
        n = 1;
    }
    if (r == VKS_OK && transition) {
        snprintf(path, sizeof path, "%s.transition", where);
        r = json_transition(p, transition, path, i, e, ys, &n);
    }
    if (r == VKS_OK && n == 0)
        return fail(p, VKS_ERR_FORMAT, 0, where, "expected a clip or layers for root_motion, got none");
    return r == VKS_OK ? add_layers(p, e, ys, n, 0, where) : r;
}

static vks_result parse_json(parser *p, const char *text, size_t size)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, size, &end, 0);
    if (!root) {
        uint32_t line = 1;
        const char *stop = end && end >= text && end <= text + size ? end : text;
        for (const char *c = text; c < stop; c++)
            line += *c == '\n';
        return fail(p, VKS_ERR_FORMAT, line, "", "malformed JSON");
    }
    vks_result r = VKS_OK;
    const cJSON *inst = NULL, *v;
    if (!cJSON_IsObject(root)) {
        r = fail(p, VKS_ERR_FORMAT, 0, "", "expected an object with \"instances\", got %s", json_kind(root));
        goto done;
    }
    cJSON_ArrayForEach(v, root)
    {
        if (key_seen_before(root, v)) {
            r = fail(p, VKS_ERR_FORMAT, 0, v->string, "the key is given twice");
            goto done;
        } else if (v->string && !strcmp(v->string, "instances")) {
            inst = v;
        } else {
            r = fail(p, VKS_ERR_FORMAT, 0, v->string ? v->string : "", "unknown key (expected \"instances\")");
            goto done;
        }
    }
    if (!cJSON_IsArray(inst) || cJSON_GetArraySize(inst) < 1) {
        r = fail(p, VKS_ERR_FORMAT, 0, "instances", "expected a non-empty array of instances, got %s",
                 inst ? json_kind(inst) : "nothing");
        goto done;
    }
    if ((uint64_t)cJSON_GetArraySize(inst) > VKS_CROWD_MAX_INSTANCES) {
        r = fail(p, VKS_ERR_LIMIT, 0, "instances", "%d instances, more than %u", cJSON_GetArraySize(inst),
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

/* ---- CSV ---- */

/* Layer 1's clip, start, speed and cycle are the plain columns; its other fields and layers
 * 2..4 follow the root's columns, LAYER_FIELDS a layer (names suffixed 2, 3, 4). */
enum {
    F_CLIP, F_START, F_SPEED, F_CYCLE, F_WEIGHT, F_BLEND, F_MASK, F_FADE, F_REFERENCE, F_REF_TIME, LAYER_FIELDS
};
enum {
    COL_MODEL, COL_CLIP, COL_START, COL_SPEED, COL_CYCLE,
    COL_TX, COL_TY, COL_TZ, COL_QX, COL_QY, COL_QZ, COL_QW, COL_SX, COL_SY, COL_SZ,
    COL_WEIGHT, COL_BLEND, COL_MASK, COL_FADE, COL_REFERENCE, COL_REF_TIME,
    COL_LAYER2, /* LAYER_FIELDS columns for each of layers 2..4 */
    COL_TSTART = COL_LAYER2 + 3 * LAYER_FIELDS, COL_TDURATION, COL_ROOT_MOTION, COL_ROOT_YAW,
    COL_COUNT
};
static const char *const col_names[COL_COUNT] = {
    "model", "clip", "start", "speed", "cycle", "tx", "ty", "tz", "qx", "qy", "qz", "qw", "sx", "sy", "sz",
    "weight", "blend", "mask", "fade", "reference", "reference_time",
    "clip2", "start2", "speed2", "cycle2", "weight2", "blend2", "mask2", "fade2", "reference2", "reference_time2",
    "clip3", "start3", "speed3", "cycle3", "weight3", "blend3", "mask3", "fade3", "reference3", "reference_time3",
    "clip4", "start4", "speed4", "cycle4", "weight4", "blend4", "mask4", "fade4", "reference4", "reference_time4",
    "transition_start", "transition_duration", "root_motion", "root_yaw"};

/* The layer (0..3) and field of a layer column, or 0 for other columns. */
static int layer_column(int col, int *layer, int *field)
{
    static const int first[4] = {F_CLIP, F_START, F_SPEED, F_CYCLE};
    if (col >= COL_CLIP && col <= COL_CYCLE)
        return *layer = 0, *field = first[col - COL_CLIP], 1;
    if (col >= COL_WEIGHT && col <= COL_REF_TIME)
        return *layer = 0, *field = F_WEIGHT + (col - COL_WEIGHT), 1;
    if (col >= COL_LAYER2 && col < COL_TSTART)
        return *layer = 1 + (col - COL_LAYER2) / LAYER_FIELDS, *field = (col - COL_LAYER2) % LAYER_FIELDS, 1;
    return 0;
}

typedef struct cell {
    const char *s; /* unquoted text (into the line, or into buf for a quoted cell) */
    size_t n;
} cell;

/* Cuts line [s, e) into at most max cells; quoted cells are unescaped into buf (MAX_TEXT
 * bytes per cell). Returns the cell count, or -1 with the error recorded. */
static int split_cells(parser *p, const char *s, const char *e, uint32_t line, cell *cells, int max, char *buf,
                       uint32_t want)
{
    int n = 0;
    size_t used = 0;
    for (;;) {
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        if (n == max) {
            fail(p, VKS_ERR_FORMAT, line, "", "expected at most %u cells, got more", want);
            return -1;
        }
        cell *c = &cells[n++];
        if (s < e && *s == '"') {
            c->s = buf + used, c->n = 0;
            for (s++;; s++) {
                if (s >= e) {
                    fail(p, VKS_ERR_FORMAT, line, "", "expected a closing '\"' in cell %d before the line ends", n);
                    return -1;
                }
                if (*s == '"') {
                    if (s + 1 < e && s[1] == '"')
                        s++;
                    else
                        break;
                }
                if (c->n >= MAX_TEXT) {
                    fail(p, VKS_ERR_FORMAT, line, "", "cell %d is longer than %d bytes", n, MAX_TEXT);
                    return -1;
                }
                buf[used + c->n++] = *s;
            }
            used += c->n;
            s++; /* past the closing quote */
            while (s < e && (*s == ' ' || *s == '\t'))
                s++;
            if (s < e && *s != ',') {
                fail(p, VKS_ERR_FORMAT, line, "", "expected ',' after the quoted cell %d", n);
                return -1;
            }
        } else {
            const char *start = s;
            while (s < e && *s != ',')
                s++;
            const char *stop = s;
            while (stop > start && (stop[-1] == ' ' || stop[-1] == '\t'))
                stop--;
            c->s = start, c->n = (size_t)(stop - start);
            if (c->n > MAX_TEXT) {
                fail(p, VKS_ERR_FORMAT, line, "", "cell %d is longer than %d bytes", n, MAX_TEXT);
                return -1;
            }
        }
        if (s >= e)
            return n;
        s++; /* past ',' */
    }
}

static vks_result csv_number(parser *p, const cell *c, uint32_t line, const char *col, float *out)
{
    char tmp[64];
    if (c->n >= sizeof tmp)
        return fail(p, VKS_ERR_FORMAT, line, col, "expected a finite number, got a %zu-byte cell", c->n);
    memcpy(tmp, c->s, c->n);
    tmp[c->n] = 0;
    char *end = NULL;
    double v = strtod(tmp, &end);
    if (end == tmp || *end || !finite_float(v))
        return fail(p, VKS_ERR_FORMAT, line, col, "expected a finite number, got \"%s\"", tmp);
    *out = (float)v;
    return VKS_OK;
}

/* A layer column's cell into y (layer 0's clip, start, speed and cycle: the plain columns). */
static vks_result csv_layer_cell(parser *p, const cell *c, int field, uint32_t i, uint32_t line, const char *name,
                                 vks_crowd_entry_layer *y)
{
    switch (field) {
    case F_CLIP:
        y->clip = intern(p, 1, c->s, c->n, i, line, name);
        return y->clip < 0 ? (p->err ? p->err->code : VKS_ERR_NOMEM) : VKS_OK;
    case F_START: return csv_number(p, c, line, name, &y->start);
    case F_SPEED: return csv_number(p, c, line, name, &y->speed);
    case F_CYCLE:
        y->cycle = parse_cycle(c->s, c->n);
        if (y->cycle < 0)
            return fail(p, VKS_ERR_FORMAT, line, name, "expected loop, clamp, mirror or reset, got \"%.*s\"",
                        (int)(c->n < 40 ? c->n : 40), c->s);
        return VKS_OK;
    case F_WEIGHT: {
        vks_result r = csv_number(p, c, line, name, &y->weight);
        if (r == VKS_OK && !(y->weight >= 0))
            return fail(p, VKS_ERR_FORMAT, line, name, "expected a weight >= 0, got %g", (double)y->weight);
        return r;
    }
    case F_BLEND:
        y->mode = parse_blend(c->s, c->n);
        if (y->mode < 0)
            return fail(p, VKS_ERR_FORMAT, line, name, "expected normal or additive, got \"%.*s\"",
                        (int)(c->n < 40 ? c->n : 40), c->s);
        return VKS_OK;
    case F_MASK:
        y->mask = vks__arena_strndup(p->spec->arena, &p->a, c->s, c->n);
        return y->mask ? VKS_OK : nomem(p, line, name);
    case F_REFERENCE:
        y->reference = intern(p, 1, c->s, c->n, i, line, name);
        return y->reference < 0 ? (p->err ? p->err->code : VKS_ERR_NOMEM) : VKS_OK;
    case F_REF_TIME: {
        vks_result r = csv_number(p, c, line, name, &y->ref_time);
        if (r == VKS_OK && !(y->ref_time >= 0))
            return fail(p, VKS_ERR_FORMAT, line, name, "expected a clip time >= 0, got %g", (double)y->ref_time);
        return r;
    }
    default: /* F_FADE */
        if (c->n == 2 && strncasecmp(c->s, "in", 2) == 0)
            y->fade = VKS_FADE_IN;
        else if (c->n == 3 && strncasecmp(c->s, "out", 3) == 0)
            y->fade = VKS_FADE_OUT;
        else
            return fail(p, VKS_ERR_FORMAT, line, name, "expected in or out, got \"%.*s\"",
                        (int)(c->n < 40 ? c->n : 40), c->s);
        return VKS_OK;
    }
}

/* The layers a row's layer columns gave (layered: any column beyond the plain ones). */
static vks_result csv_layers(parser *p, vks_crowd_entry *e, vks_crowd_entry_layer *ys, const int *given,
                             const int *referenced, int transition, uint32_t line)
{
    uint32_t n = 0;
    int fades_in = 0;
    for (int k = 0; k < VKS_MAX_LAYERS; k++) {
        if (!given[k])
            continue;
        if (ys[k].clip < 0)
            return fail(p, VKS_ERR_FORMAT, line, k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS] : "clip",
                        "expected the clip of layer %d, whose other columns are given", k + 1);
        if (n != (uint32_t)k)
            return fail(p, VKS_ERR_FORMAT, line, col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS],
                        "expected layers in order: layer %d is given without layer %u", k + 1, n + 1);
        if (referenced[k] && ys[k].mode != VKS_LAYER_ADDITIVE)
            return fail(p, VKS_ERR_FORMAT, line, col_names[referenced[k]],
                        "a reference pose is for an additive layer (%s additive)",
                        k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS + F_BLEND] : "blend");
        if (ys[k].mode == VKS_LAYER_ADDITIVE && ys[k].weight > VKS_MAX_ADDITIVE_WEIGHT)
            return fail(p, VKS_ERR_FORMAT, line, k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS + F_WEIGHT] : "weight",
                        ADDITIVE_WEIGHT_MESSAGE, (double)ys[k].weight);
        fades_in += ys[k].fade == VKS_FADE_IN;
        n++;
    }
    if (n == 0)
        return fail(p, VKS_ERR_FORMAT, line, "clip", "expected a clip for the layer, transition or root motion columns");
    if (transition && !fades_in)
        return fail(p, VKS_ERR_FORMAT, line, "fade", "expected a layer with fade \"in\": the set the transition enters");
    for (uint32_t k = 0; k < n; k++)
        if (transition && ys[k].fade == VKS_FADE_NONE)
            ys[k].fade = VKS_FADE_OUT; /* the set left */
        else if (!transition && ys[k].fade != VKS_FADE_NONE)
            return fail(p, VKS_ERR_FORMAT, line, k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS + F_FADE] : "fade",
                        "expected transition_start with a fade");
    return add_layers(p, e, ys, n, line, "");
}

static vks_result csv_row(parser *p, const int *col_of, int cols, const cell *cells, uint32_t line)
{
    vks_crowd_entry *e = add_instance(p, line, "");
    if (!e)
        return p->err ? p->err->code : VKS_ERR_NOMEM;
    uint32_t i = p->spec->instance_count - 1;
    float t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    int has_root = 0, has_q = 0, layered = 0, transition = 0, yaw = 0, given[VKS_MAX_LAYERS] = {0};
    int referenced[VKS_MAX_LAYERS] = {0}; /* a reference column of the layer, or 0 */
    vks_crowd_entry_layer ys[VKS_MAX_LAYERS];
    for (int k = 0; k < VKS_MAX_LAYERS; k++)
        ys[k] = default_layer();
    for (int k = 0; k < cols; k++) {
        const cell *c = &cells[k];
        int col = col_of[k], layer, field;
        const char *name = col_names[col];
        if (c->n == 0)
            continue; /* empty: the default */
        vks_result r = VKS_OK;
        if (memchr(c->s, 0, c->n))
            return fail(p, VKS_ERR_FORMAT, line, name, "expected text, got a NUL byte");
        if (layer_column(col, &layer, &field)) {
            r = csv_layer_cell(p, c, field, i, line, name, &ys[layer]);
            given[layer] = 1;
            layered |= layer > 0 || field >= F_WEIGHT;
            if (field >= F_REFERENCE)
                referenced[layer] = col;
            if (r != VKS_OK)
                return r;
        }
        switch (col) {
        case COL_MODEL: {
            int32_t idx = intern(p, 0, c->s, c->n, i, line, name);
            if (idx < 0)
                return p->err ? p->err->code : VKS_ERR_NOMEM;
            e->model = idx;
            break;
        }
        case COL_CLIP: e->clip = ys[0].clip; break;
        case COL_START: e->start = ys[0].start; break;
        case COL_SPEED: e->speed = ys[0].speed; break;
        case COL_CYCLE: e->cycle = ys[0].cycle; break;
        case COL_TSTART:
        case COL_TDURATION:
            r = csv_number(p, c, line, name, col == COL_TSTART ? &e->fade_start : &e->fade_duration);
            if (r == VKS_OK && col == COL_TDURATION && !(e->fade_duration >= 0))
                return fail(p, VKS_ERR_FORMAT, line, name, "expected a duration >= 0, got %g", (double)e->fade_duration);
            transition |= col == COL_TSTART;
            layered = 1;
            break;
        case COL_ROOT_MOTION:
            e->root_motion = parse_root_motion(c->s, c->n);
            if (e->root_motion < 0)
                return fail(p, VKS_ERR_FORMAT, line, name, "expected 0, 1, y, z, true or false, got \"%.*s\"",
                            (int)(c->n < 40 ? c->n : 40), c->s);
            layered |= e->root_motion != 0;
            break;
        case COL_ROOT_YAW:
            yaw = parse_yes_no(c->s, c->n);
            if (yaw < 0)
                return fail(p, VKS_ERR_FORMAT, line, name, "expected 0, 1, true, false, yes or no, got \"%.*s\"",
                            (int)(c->n < 40 ? c->n : 40), c->s);
            break;
        default: {
            if (col >= COL_WEIGHT)
                break; /* a layer's, taken above */
            float *dst = col <= COL_TZ ? &t[col - COL_TX] : col <= COL_QW ? &q[col - COL_QX] : &s[col - COL_SX];
            r = csv_number(p, c, line, name, dst);
            has_root = 1;
            has_q |= col >= COL_QX && col <= COL_QW;
            break;
        }
        }
        if (r != VKS_OK)
            return r;
    }
    if (has_q && (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3] < 1e-12)
        return fail(p, VKS_ERR_FORMAT, line, "qx..qw", "expected a rotation quaternion, got a zero one");
    if (has_root) {
        e->root = vks_affine_from_trs(t, q, s);
        vks_result r = check_root(p, &e->root, line, "root");
        if (r != VKS_OK)
            return r;
    }
    if (yaw && !e->root_motion)
        return fail(p, VKS_ERR_FORMAT, line, "root_yaw", "expected root_motion (the up axis) with it");
    if (yaw)
        e->root_motion |= VKS_ROOT_MOTION_YAW;
    if (!layered && e->fade_duration == 0)
        return VKS_OK; /* a plain row, as before layers */
    if (e->fade_duration != 0 && !transition)
        return fail(p, VKS_ERR_FORMAT, line, "transition_duration", "expected transition_start with it");
    return csv_layers(p, e, ys, given, referenced, transition, line);
}

static vks_result parse_csv(parser *p, const char *text, size_t size)
{
    const char *s = text, *end = text + size;
    if (size >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3; /* a UTF-8 byte order mark */
    int col_of[COL_COUNT], cols = 0;
    cell cells[COL_COUNT];
    char *buf = p->a.alloc(p->a.user, (size_t)COL_COUNT * MAX_TEXT);
    if (!buf)
        return nomem(p, 0, "");
    vks_result r = VKS_OK;
    uint32_t line = 0;
    while (s < end && r == VKS_OK) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end, *next = nl ? nl + 1 : end;
        line++;
        if (e > s && e[-1] == '\r')
            e--;
        const char *first = s;
        while (first < e && (*first == ' ' || *first == '\t'))
            first++;
        if (first == e || *first == '#') { /* blank or a comment */
            s = next;
            continue;
        }
        if (memchr(s, 0, (size_t)(e - s))) {
            r = fail(p, VKS_ERR_FORMAT, line, "", "expected text, got a NUL byte");
            break;
        }
        if (!cols) { /* the header */
            int n = split_cells(p, s, e, line, cells, COL_COUNT, buf, COL_COUNT);
            if (n < 0) {
                r = p->err ? p->err->code : VKS_ERR_FORMAT;
                break;
            }
            int seen[COL_COUNT] = {0};
            for (int k = 0; k < n && r == VKS_OK; k++) {
                int col = -1;
                for (int c = 0; c < COL_COUNT; c++)
                    if (strlen(col_names[c]) == cells[k].n && strncasecmp(cells[k].s, col_names[c], cells[k].n) == 0)
                        col = c;
                if (col < 0)
                    r = fail(p, VKS_ERR_FORMAT, line, "header",
                             "unknown column \"%.*s\" (expected model, clip, start, speed, cycle, tx, ty, tz, qx, qy, "
                             "qz, qw, sx, sy, sz, the layer columns, root_motion or root_yaw)",
                             (int)(cells[k].n < 40 ? cells[k].n : 40), cells[k].s);
                else if (seen[col]++)
                    r = fail(p, VKS_ERR_FORMAT, line, "header", "column \"%s\" named twice", col_names[col]);
                col_of[k] = col;
            }
            cols = n;
        } else {
            int n = split_cells(p, s, e, line, cells, cols, buf, (uint32_t)cols);
            if (n < 0)
                r = p->err ? p->err->code : VKS_ERR_FORMAT;
            else if (n != cols)
                r = fail(p, VKS_ERR_FORMAT, line, "", "expected %d cells as the header names, got %d", cols, n);
            else
                r = csv_row(p, col_of, cols, cells, line);
        }
        s = next;
    }
    p->a.free(p->a.user, buf);
    if (r == VKS_OK && !cols)
        r = fail(p, VKS_ERR_FORMAT, line, "", "expected a header row naming the columns, got no rows");
    else if (r == VKS_OK && p->spec->instance_count == 0)
        r = fail(p, VKS_ERR_FORMAT, line, "", "expected at least one instance after the header");
    return r;
}

/* ---- the spec ---- */

vks_result vks_crowd_file_parse(const char *text, size_t size, const char *name, vks_crowd_spec **out, vks_error *err)
{
    return vks_crowd_file_parse_with(text, size, name, NULL, out, err);
}

static vks_result crowd_file_parse_with_body(const char *text, size_t size, const char *name,
                                             const vks_allocator *allocator, vks_crowd_spec **out, vks_error *err)
{
    if (out)
        *out = NULL;
    parser p = {0};
    p.err = err;
    p.name = name ? name : "crowd";
    if (!out || (!text && size))
        return fail(&p, VKS_ERR_INVALID, 0, "", "expected crowd text and a place for the result");
    vks_allocator a;
    vks_skin_arena *arena;
    vks_crowd_spec *spec = vks__arena_owner_create(allocator, sizeof *spec, &a, &arena);
    if (!spec)
        return nomem(&p, 0, "");
    spec->allocator = a;
    spec->arena = arena;
    p.spec = spec, p.a = a;
    spec->name = vks__arena_strndup(arena, &a, p.name, strlen(p.name));
    if (name) {
        const char *slash = strrchr(name, '/');
        p.dir_len = slash ? (size_t)(slash - name) + 1 : 0;
    }
    const char *c = text ? text : "";
    const char *e = c + size;
    if (e - c >= 3 && memcmp(c, "\xEF\xBB\xBF", 3) == 0)
        c += 3;
    while (c < e && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'))
        c++;
    vks_result r;
    if (!spec->name)
        r = nomem(&p, 0, "");
    else if (c < e && *c == '{')
        spec->format = "json", r = parse_json(&p, text, size);
    else
        spec->format = "csv", r = parse_csv(&p, text ? text : "", size);
    if (p.models.slot)
        a.free(a.user, p.models.slot);
    if (p.clips.slot)
        a.free(a.user, p.clips.slot);
    if (r != VKS_OK) {
        vks_crowd_spec_free(spec);
        return r;
    }
    *out = spec;
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_crowd_file_parse_with(const char *text, size_t size, const char *name, const vks_allocator *allocator,
                                     vks_crowd_spec **out, vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, crowd_file_parse_with_body(text, size, name, allocator, out, err));
}

void vks_crowd_spec_free(vks_crowd_spec *spec)
{
    if (!spec)
        return;
    vks_allocator a = spec->allocator;
    if (spec->instances)
        a.free(a.user, spec->instances);
    if (spec->models)
        a.free(a.user, spec->models);
    if (spec->clips)
        a.free(a.user, spec->clips);
    if (spec->layers)
        a.free(a.user, spec->layers);
    vks__arena_owner_free(spec, &a, spec->arena);
}

const char *vks_crowd_spec_where(const vks_crowd_spec *spec, uint32_t i, char *buf, size_t size)
{
    if (!buf || !size)
        return "";
    const char *name = spec && spec->name ? spec->name : "crowd";
    if (spec && i < spec->instance_count && spec->instances[i].line)
        snprintf(buf, size, "%s:%u", name, spec->instances[i].line);
    else
        snprintf(buf, size, "%s: instances[%u]", name, i);
    return buf;
}
