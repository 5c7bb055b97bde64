/* Crowd files in CSV (crowd_file.h): a header row naming the columns, then one row per
 * instance; errors name the line and the column. */
#include "crowd_file_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "core/vec.h"
#include "vkskin/clip.h"
#include "vkskin/skin.h"

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
static int split_cells(vks__crowd_parser *p, const char *s, const char *e, uint32_t line, cell *cells, int max,
                       char *buf, uint32_t want)
{
    int n = 0;
    size_t used = 0;
    for (;;) {
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        if (n == max) {
            vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "expected at most %u cells, got more", want);
            return -1;
        }
        cell *c = &cells[n++];
        if (s < e && *s == '"') {
            c->s = buf + used, c->n = 0;
            for (s++;; s++) {
                if (s >= e) {
                    vks__crowd_fail(p, VKS_ERR_FORMAT, line, "",
                                    "expected a closing '\"' in cell %d before the line ends", n);
                    return -1;
                }
                if (*s == '"') {
                    if (s + 1 < e && s[1] == '"')
                        s++;
                    else
                        break;
                }
                if (c->n >= MAX_TEXT) {
                    vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "cell %d is longer than %d bytes", n, MAX_TEXT);
                    return -1;
                }
                buf[used + c->n++] = *s;
            }
            used += c->n;
            s++; /* past the closing quote */
            while (s < e && (*s == ' ' || *s == '\t'))
                s++;
            if (s < e && *s != ',') {
                vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "expected ',' after the quoted cell %d", n);
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
                vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "cell %d is longer than %d bytes", n, MAX_TEXT);
                return -1;
            }
        }
        if (s >= e)
            return n;
        s++; /* past ',' */
    }
}

static vks_result csv_number(vks__crowd_parser *p, const cell *c, uint32_t line, const char *col, float *out)
{
    char tmp[64];
    if (c->n >= sizeof tmp)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, col, "expected a finite number, got a %zu-byte cell", c->n);
    memcpy(tmp, c->s, c->n);
    tmp[c->n] = 0;
    char *end = NULL;
    double v = strtod(tmp, &end);
    if (end == tmp || *end || !vks__crowd_finite(v))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, col, "expected a finite number, got \"%s\"", tmp);
    *out = (float)v;
    return VKS_OK;
}

/* A layer column's cell into y (layer 0's clip, start, speed and cycle: the plain columns). */
static vks_result csv_layer_cell(vks__crowd_parser *p, const cell *c, int field, uint32_t i, uint32_t line,
                                 const char *name, vks_crowd_entry_layer *y)
{
    switch (field) {
    case F_CLIP:
        y->clip = vks__crowd_intern(p, 1, c->s, c->n, i, line, name);
        return y->clip < 0 ? (p->err ? p->err->code : VKS_ERR_NOMEM) : VKS_OK;
    case F_START: return csv_number(p, c, line, name, &y->start);
    case F_SPEED: return csv_number(p, c, line, name, &y->speed);
    case F_CYCLE:
        y->cycle = vks__crowd_parse_cycle(c->s, c->n);
        if (y->cycle < 0)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name, "expected loop, clamp, mirror or reset, got \"%.*s\"",
                        (int)(c->n < 40 ? c->n : 40), c->s);
        return VKS_OK;
    case F_WEIGHT: {
        vks_result r = csv_number(p, c, line, name, &y->weight);
        if (r == VKS_OK && !(y->weight >= 0))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name, "expected a weight >= 0, got %g", (double)y->weight);
        return r;
    }
    case F_BLEND:
        y->mode = vks__crowd_parse_blend(c->s, c->n);
        if (y->mode < 0)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name, "expected normal or additive, got \"%.*s\"",
                        (int)(c->n < 40 ? c->n : 40), c->s);
        return VKS_OK;
    case F_MASK:
        y->mask = vks__arena_strndup(p->spec->arena, &p->a, c->s, c->n);
        return y->mask ? VKS_OK : vks__crowd_nomem(p, line, name);
    case F_REFERENCE:
        y->reference = vks__crowd_intern(p, 1, c->s, c->n, i, line, name);
        return y->reference < 0 ? (p->err ? p->err->code : VKS_ERR_NOMEM) : VKS_OK;
    case F_REF_TIME: {
        vks_result r = csv_number(p, c, line, name, &y->ref_time);
        if (r == VKS_OK && !(y->ref_time >= 0))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name, "expected a clip time >= 0, got %g",
                                   (double)y->ref_time);
        return r;
    }
    default: /* F_FADE */
        if (c->n == 2 && strncasecmp(c->s, "in", 2) == 0)
            y->fade = VKS_FADE_IN;
        else if (c->n == 3 && strncasecmp(c->s, "out", 3) == 0)
            y->fade = VKS_FADE_OUT;
        else
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name, "expected in or out, got \"%.*s\"",
                        (int)(c->n < 40 ? c->n : 40), c->s);
        return VKS_OK;
    }
}

/* The layers a row's layer columns gave (layered: any column beyond the plain ones). */
static vks_result csv_layers(vks__crowd_parser *p, vks_crowd_entry *e, vks_crowd_entry_layer *ys, const int *given,
                             const int *referenced, int transition, uint32_t line)
{
    uint32_t n = 0;
    int fades_in = 0;
    for (int k = 0; k < VKS_MAX_LAYERS; k++) {
        if (!given[k])
            continue;
        if (ys[k].clip < 0)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS] : "clip",
                        "expected the clip of layer %d, whose other columns are given", k + 1);
        if (n != (uint32_t)k)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS],
                        "expected layers in order: layer %d is given without layer %u", k + 1, n + 1);
        if (referenced[k] && ys[k].mode != VKS_LAYER_ADDITIVE)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, col_names[referenced[k]],
                        "a reference pose is for an additive layer (%s additive)",
                        k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS + F_BLEND] : "blend");
        if (ys[k].mode == VKS_LAYER_ADDITIVE && ys[k].weight > VKS_MAX_ADDITIVE_WEIGHT)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line,
                                   k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS + F_WEIGHT] : "weight",
                                   ADDITIVE_WEIGHT_MESSAGE, (double)ys[k].weight);
        fades_in += ys[k].fade == VKS_FADE_IN;
        n++;
    }
    if (n == 0)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, "clip",
                               "expected a clip for the layer, transition or root motion columns");
    if (transition && !fades_in)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, "fade",
                               "expected a layer with fade \"in\": the set the transition enters");
    for (uint32_t k = 0; k < n; k++)
        if (transition && ys[k].fade == VKS_FADE_NONE)
            ys[k].fade = VKS_FADE_OUT; /* the set left */
        else if (!transition && ys[k].fade != VKS_FADE_NONE)
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line,
                                   k ? col_names[COL_LAYER2 + (k - 1) * LAYER_FIELDS + F_FADE] : "fade",
                                   "expected transition_start with a fade");
    return vks__crowd_add_layers(p, e, ys, n, line, "");
}

static vks_result csv_row(vks__crowd_parser *p, const int *col_of, int cols, const cell *cells, uint32_t line)
{
    vks_crowd_entry *e = vks__crowd_add_instance(p, line, "");
    if (!e)
        return p->err ? p->err->code : VKS_ERR_NOMEM;
    uint32_t i = p->spec->instance_count - 1;
    float t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
    int has_root = 0, has_q = 0, layered = 0, transition = 0, yaw = 0, given[VKS_MAX_LAYERS] = {0};
    int referenced[VKS_MAX_LAYERS] = {0}; /* a reference column of the layer, or 0 */
    vks_crowd_entry_layer ys[VKS_MAX_LAYERS];
    for (int k = 0; k < VKS_MAX_LAYERS; k++)
        ys[k] = vks__crowd_default_layer();
    for (int k = 0; k < cols; k++) {
        const cell *c = &cells[k];
        int col = col_of[k], layer, field;
        const char *name = col_names[col];
        if (c->n == 0)
            continue; /* empty: the default */
        vks_result r = VKS_OK;
        if (memchr(c->s, 0, c->n))
            return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name, "expected text, got a NUL byte");
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
            int32_t idx = vks__crowd_intern(p, 0, c->s, c->n, i, line, name);
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
                return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name, "expected a duration >= 0, got %g",
                                       (double)e->fade_duration);
            transition |= col == COL_TSTART;
            layered = 1;
            break;
        case COL_ROOT_MOTION:
            e->root_motion = vks__crowd_parse_root_motion(c->s, c->n);
            if (e->root_motion < 0)
                return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name,
                                       "expected 0, 1, y, z, true or false, got \"%.*s\"", (int)(c->n < 40 ? c->n : 40),
                                       c->s);
            layered |= e->root_motion != 0;
            break;
        case COL_ROOT_YAW:
            yaw = vks__crowd_parse_yes_no(c->s, c->n);
            if (yaw < 0)
                return vks__crowd_fail(p, VKS_ERR_FORMAT, line, name,
                                       "expected 0, 1, true, false, yes or no, got \"%.*s\"",
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
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, "qx..qw", "expected a rotation quaternion, got a zero one");
    if (has_root) {
        e->root = vks_affine_from_trs(t, q, s);
        vks_result r = vks__crowd_check_root(p, &e->root, line, "root");
        if (r != VKS_OK)
            return r;
    }
    if (yaw && !e->root_motion)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, "root_yaw", "expected root_motion (the up axis) with it");
    if (yaw)
        e->root_motion |= VKS_ROOT_MOTION_YAW;
    if (!layered && e->fade_duration == 0)
        return VKS_OK; /* a plain row, as before layers */
    if (e->fade_duration != 0 && !transition)
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, "transition_duration", "expected transition_start with it");
    return csv_layers(p, e, ys, given, referenced, transition, line);
}

vks_result vks__crowd_parse_csv(vks__crowd_parser *p, const char *text, size_t size)
{
    const char *s = text, *end = text + size;
    if (size >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3; /* a UTF-8 byte order mark */
    int col_of[COL_COUNT], cols = 0;
    cell cells[COL_COUNT];
    char *buf = p->a.alloc(p->a.user, (size_t)COL_COUNT * MAX_TEXT);
    if (!buf)
        return vks__crowd_nomem(p, 0, "");
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
            r = vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "expected text, got a NUL byte");
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
                    r = vks__crowd_fail(p, VKS_ERR_FORMAT, line, "header",
                             "unknown column \"%.*s\" (expected model, clip, start, speed, cycle, tx, ty, tz, qx, qy, "
                             "qz, qw, sx, sy, sz, the layer columns, root_motion or root_yaw)",
                             (int)(cells[k].n < 40 ? cells[k].n : 40), cells[k].s);
                else if (seen[col]++)
                    r = vks__crowd_fail(p, VKS_ERR_FORMAT, line, "header", "column \"%s\" named twice", col_names[col]);
                col_of[k] = col;
            }
            cols = n;
        } else {
            int n = split_cells(p, s, e, line, cells, cols, buf, (uint32_t)cols);
            if (n < 0)
                r = p->err ? p->err->code : VKS_ERR_FORMAT;
            else if (n != cols)
                r = vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "expected %d cells as the header names, got %d", cols,
                                    n);
            else
                r = csv_row(p, col_of, cols, cells, line);
        }
        s = next;
    }
    p->a.free(p->a.user, buf);
    if (r == VKS_OK && !cols)
        r = vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "expected a header row naming the columns, got no rows");
    else if (r == VKS_OK && p->spec->instance_count == 0)
        r = vks__crowd_fail(p, VKS_ERR_FORMAT, line, "", "expected at least one instance after the header");
    return r;
}

