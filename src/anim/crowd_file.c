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
    size_t inst_cap, model_cap, clip_cap;
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

static vks_result json_instance(parser *p, const cJSON *o, uint32_t i)
{
    char where[48], path[128];
    snprintf(where, sizeof where, "instances[%u]", i);
    if (!cJSON_IsObject(o))
        return fail(p, VKS_ERR_FORMAT, 0, where, "expected an object, got %s", json_kind(o));
    vks_crowd_entry *e = add_instance(p, 0, where);
    if (!e)
        return p->err ? p->err->code : VKS_ERR_NOMEM;
    const cJSON *v;
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
            int c = cJSON_IsString(v) ? parse_cycle(v->valuestring, strlen(v->valuestring)) : -1;
            if (c < 0)
                return fail(p, VKS_ERR_FORMAT, 0, path, "expected \"loop\", \"clamp\", \"mirror\" or \"reset\", got %s%s%.40s%s",
                            json_kind(v), cJSON_IsString(v) ? " \"" : "", cJSON_IsString(v) ? v->valuestring : "",
                            cJSON_IsString(v) ? "\"" : "");
            e->cycle = c;
        } else if (!strcmp(k, "root")) {
            r = json_root(p, v, path, &e->root);
        } else {
            return fail(p, VKS_ERR_FORMAT, 0, path,
                        "unknown key (expected model, clip, start, speed, cycle or root)");
        }
        if (r != VKS_OK)
            return r;
    }
    return VKS_OK;
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

enum {
    COL_MODEL, COL_CLIP, COL_START, COL_SPEED, COL_CYCLE,
    COL_TX, COL_TY, COL_TZ, COL_QX, COL_QY, COL_QZ, COL_QW, COL_SX, COL_SY, COL_SZ,
    COL_COUNT
};
static const char *const col_names[COL_COUNT] = {"model", "clip", "start", "speed", "cycle", "tx", "ty", "tz",
                                                 "qx", "qy", "qz", "qw", "sx", "sy", "sz"};

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

static vks_result csv_row(parser *p, const int *col_of, int cols, const cell *cells, uint32_t line)
{
    vks_crowd_entry *e = add_instance(p, line, "");
    if (!e)
        return p->err ? p->err->code : VKS_ERR_NOMEM;
    uint32_t i = p->spec->instance_count - 1;
    float t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    int has_root = 0, has_q = 0;
    for (int k = 0; k < cols; k++) {
        const cell *c = &cells[k];
        int col = col_of[k];
        const char *name = col_names[col];
        if (c->n == 0)
            continue; /* empty: the default */
        vks_result r = VKS_OK;
        if (memchr(c->s, 0, c->n))
            return fail(p, VKS_ERR_FORMAT, line, name, "expected text, got a NUL byte");
        switch (col) {
        case COL_MODEL:
        case COL_CLIP: {
            int32_t idx = intern(p, col == COL_CLIP, c->s, c->n, i, line, name);
            if (idx < 0)
                return p->err ? p->err->code : VKS_ERR_NOMEM;
            *(col == COL_CLIP ? &e->clip : &e->model) = idx;
            break;
        }
        case COL_START: r = csv_number(p, c, line, name, &e->start); break;
        case COL_SPEED: r = csv_number(p, c, line, name, &e->speed); break;
        case COL_CYCLE:
            e->cycle = parse_cycle(c->s, c->n);
            if (e->cycle < 0)
                return fail(p, VKS_ERR_FORMAT, line, name, "expected loop, clamp, mirror or reset, got \"%.*s\"",
                            (int)(c->n < 40 ? c->n : 40), c->s);
            break;
        default: {
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
        return check_root(p, &e->root, line, "root");
    }
    return VKS_OK;
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
                             "qz, qw, sx, sy, sz)", (int)(cells[k].n < 40 ? cells[k].n : 40), cells[k].s);
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

vks_result vks_crowd_file_parse_with(const char *text, size_t size, const char *name, const vks_allocator *allocator,
                                     vks_crowd_spec **out, vks_error *err)
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
