/* What both forms of a crowd file (crowd_file_json.c, crowd_file_csv.c) build the spec with
 * (crowd_file_internal.h): the first error, naming the file, line and path; a new instance with
 * the defaults; the values both take (cycles, blends, root motion, roots); an entry's layers
 * stored in the spec. Below the forms and the entry points (crowd_file.c), calling neither. */
#include "crowd_file_internal.h"

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


vks_result vks__crowd_failv(vks__crowd_parser *p, vks_result code, uint32_t line, const char *path, const char *fmt,
                            va_list ap)
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

vks_result vks__crowd_fail(vks__crowd_parser *p, vks_result code, uint32_t line, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vks_result r = vks__crowd_failv(p, code, line, path, fmt, ap);
    va_end(ap);
    return r;
}

vks_result vks__crowd_nomem(vks__crowd_parser *p, uint32_t line, const char *path)
{
    return vks__crowd_fail(p, VKS_ERR_NOMEM, line, path, "out of memory");
}

/* ---- values shared by both forms ---- */

int vks__crowd_parse_cycle(const char *s, size_t n)
{
    static const char *names[] = {"loop", "clamp", "mirror", "reset"};
    for (int c = 0; c < 4; c++)
        if (strlen(names[c]) == n && strncasecmp(s, names[c], n) == 0)
            return c;
    return -1;
}

int vks__crowd_finite(double v)
{
    return isfinite(v) && fabs(v) <= FLT_MAX;
}

/* The root's 3x3 must be something float32 engines deform faithfully (skin.h). */
vks_result vks__crowd_check_root(vks__crowd_parser *p, const vks_affine *root, uint32_t line, const char *path)
{
    double lo, hi;
    if (!vks_affine_is_finite(root) || !vks_affine_scale_range(root, &lo, &hi) || !vks_float32_scale_ok(lo, hi))
        return vks__crowd_fail(p, VKS_ERR_FORMAT, line, path,
                    "expected a root whose 3x3 is invertible, scales within 2^-48..2^48 and stretches at most "
                    "2^9 between axes");
    return VKS_OK;
}

/* A new instance with the defaults; NULL with the error recorded. */
vks_crowd_entry *vks__crowd_add_instance(vks__crowd_parser *p, uint32_t line, const char *path)
{
    vks_crowd_spec *s = p->spec;
    if (s->instance_count >= VKS_CROWD_MAX_INSTANCES) {
        vks__crowd_fail(p, VKS_ERR_LIMIT, line, path, "more than %u instances", VKS_CROWD_MAX_INSTANCES);
        return NULL;
    }
    vks_crowd_entry *grown = vks__grow_array(&p->a, s->instances, s->instance_count, &p->inst_cap, 1,
                                             sizeof *grown, 256);
    if (!grown) {
        vks__crowd_nomem(p, line, path);
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

vks_crowd_entry_layer vks__crowd_default_layer(void)
{
    vks_crowd_entry_layer y = {0};
    y.clip = -1, y.speed = 1, y.cycle = -1, y.weight = 1, y.reference = -1;
    return y;
}

int vks__crowd_parse_blend(const char *s, size_t n)
{
    if (n == 6 && strncasecmp(s, "normal", 6) == 0)
        return VKS_LAYER_NORMAL;
    if (n == 8 && strncasecmp(s, "additive", 8) == 0)
        return VKS_LAYER_ADDITIVE;
    return -1;
}

/* root_motion's text: 1 / true / y, z, 0 / false; -1 otherwise. */
int vks__crowd_parse_root_motion(const char *s, size_t n)
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
int vks__crowd_parse_yes_no(const char *s, size_t n)
{
    int v = vks__crowd_parse_root_motion(s, n);
    return v == 0 || (v == 1 && !(n == 1 && (s[0] == 'y' || s[0] == 'Y'))) ? v : -1;
}

/* Stores entry e's n layers (ys) in the spec; the entry plays layer 0's clip where a host
 * knows no layers. */
vks_result vks__crowd_add_layers(vks__crowd_parser *p, vks_crowd_entry *e, const vks_crowd_entry_layer *ys, uint32_t n,
                                 uint32_t line, const char *path)
{
    vks_crowd_spec *s = p->spec;
    vks_crowd_entry_layer *grown = vks__grow_array(&p->a, s->layers, s->layer_count, &p->layer_cap, n,
                                                   sizeof *grown, 64);
    if (!grown)
        return vks__crowd_nomem(p, line, path);
    s->layers = grown;
    memcpy(grown + s->layer_count, ys, n * sizeof *ys);
    e->first_layer = s->layer_count, e->layer_count = n;
    s->layer_count += n;
    e->clip = ys[0].clip, e->start = ys[0].start, e->speed = ys[0].speed, e->cycle = ys[0].cycle;
    return VKS_OK;
}
