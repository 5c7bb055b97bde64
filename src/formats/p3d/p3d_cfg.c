/* model.cfg: the Real Virtuality config syntax (classes with inheritance, scalar entries,
 * arrays), enough of it to resolve CfgModels/<model>.skeletonName into the flattened bone
 * list of CfgSkeletons (skeletonInherit prepends the base skeleton's bones; class inheritance
 * supplies entries a class does not define), isDiscrete and sections[]. Preprocessor lines
 * are skipped (the CLI passes the text as found; #include is not followed).
 * Every limit is explicit: nesting depth, inheritance depth, token and name lengths.
 * Errors are about the config, not the model being read: they name the config's file and
 * line (vks_error.file/line) and a path of classes inside it, never an offset (which the
 * caller would print as one into the .p3d). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p3d_internal.h"

#define CFG_MAX_DEPTH 64
#define CFG_MAX_INHERIT 32
#define CFG_MAX_TOKEN 4096

enum { ENT_CLASS, ENT_VALUE, ENT_ARRAY, ENT_EXTERN };

typedef struct cfg_entry cfg_entry;
struct cfg_entry {
    int kind;
    int append; /* array += */
    const char *name;
    const char *at;   /* where its name starts in the text (for the line in errors) */
    const char *base; /* class base name or NULL */
    cfg_entry *parent, *first, *last, *next;
    const char *value; /* ENT_VALUE */
    const char **items; /* ENT_ARRAY, flattened */
    uint32_t item_count;
    size_t item_cap;
};

enum { TOK_EOF, TOK_WORD, TOK_STRING, TOK_PUNCT };

/* The text being read and where its errors go. */
typedef struct cfg_src {
    const char *text, *end;
    const char *name; /* the config's file name */
    vks_error *err;
} cfg_src;

static unsigned line_of(const cfg_src *src, const char *at)
{
    unsigned line = 1;
    for (const char *q = src->text; q < at && q < src->end; q++)
        if (*q == '\n')
            line++;
    return line;
}

/* Records an error about the config (the first failure only, as vks_error_set): its file,
 * the line of at (NULL: no line) and path inside the config. */
static vks_result cfg_error(const cfg_src *src, const char *at, vks_result code, const char *path, const char *fmt,
                            ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static vks_result cfg_error(const cfg_src *src, const char *at, vks_result code, const char *path, const char *fmt,
                            ...)
{
    vks_error *err = src->err;
    if (!err || err->code != VKS_OK)
        return code;
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vks_error_set(err, code, VKS_NO_OFFSET, path, "%s", msg);
    snprintf(err->file, sizeof err->file, "%s", src->name);
    err->line = at ? line_of(src, at) : 0;
    return code;
}

/* "CfgSkeletons/Man/skeletonBones": the classes from the top down to cls, then entry. */
static void path_of(const cfg_entry *cls, const char *entry, char *buf, size_t size)
{
    const cfg_entry *chain[CFG_MAX_DEPTH + 2];
    int n = 0;
    for (const cfg_entry *e = cls; e && e->parent && n < CFG_MAX_DEPTH + 2; e = e->parent)
        chain[n++] = e;
    size_t len = 0;
    buf[0] = 0;
    for (int i = n; i-- > 0 && len < size;)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "/" : "", chain[i]->name);
    if (entry && len < size)
        snprintf(buf + len, size - len, "%s%s", len ? "/" : "", entry);
}

typedef struct cfg_parser {
    p3d_pool *pool;
    cfg_src src;
    const char *text, *p, *end;
    const cfg_entry *cls; /* the class being parsed, and the entry in it (for error paths) */
    const char *entry;
    int tok;
    char punct;
    char buf[CFG_MAX_TOKEN + 1];
    size_t len;
    const char *tok_start;
    int failed;
} cfg_parser;

static int fail_at(cfg_parser *ps, const char *at, vks_result code, const char *what)
{
    if (!ps->failed) {
        char path[128];
        path_of(ps->cls, ps->entry, path, sizeof path);
        cfg_error(&ps->src, at, code, path, "%s", what);
    }
    ps->failed = 1;
    return 0;
}

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v'; }
static int is_punct(char ch) { return ch && strchr("{};:=,[]", ch) != NULL; }

/* Skips blanks, comments and preprocessor lines. */
static int skip_blank(cfg_parser *ps)
{
    int line_start = ps->p == ps->text || ps->p[-1] == '\n';
    while (ps->p < ps->end) {
        char ch = *ps->p;
        if (ch == '\n') {
            ps->p++;
            line_start = 1;
        } else if (is_space(ch) || ch == 0) {
            ps->p++;
        } else if (ch == '#' && line_start) {
            while (ps->p < ps->end && *ps->p != '\n') {
                if (*ps->p == '\\' && ps->p + 1 < ps->end && ps->p[1] == '\n')
                    ps->p++;
                ps->p++;
            }
        } else if (ch == '/' && ps->p + 1 < ps->end && ps->p[1] == '/') {
            while (ps->p < ps->end && *ps->p != '\n')
                ps->p++;
        } else if (ch == '/' && ps->p + 1 < ps->end && ps->p[1] == '*') {
            const char *s = ps->p;
            ps->p += 2;
            while (ps->p + 1 < ps->end && !(ps->p[0] == '*' && ps->p[1] == '/'))
                ps->p++;
            if (ps->p + 1 >= ps->end)
                return fail_at(ps, s, VKS_ERR_TRUNCATED, "comment not closed");
            ps->p += 2;
        } else {
            return 1;
        }
        if (ch != '\n' && !is_space(ch))
            line_start = 0;
    }
    return 1;
}

static int next(cfg_parser *ps)
{
    if (!skip_blank(ps))
        return 0;
    ps->len = 0;
    ps->buf[0] = 0;
    ps->tok_start = ps->p;
    if (ps->p >= ps->end) {
        ps->tok = TOK_EOF;
        return 1;
    }
    char ch = *ps->p;
    if (is_punct(ch)) {
        ps->tok = TOK_PUNCT;
        ps->punct = ch;
        ps->p++;
        return 1;
    }
    if (ch == '"') {
        ps->tok = TOK_STRING;
        ps->p++;
        for (;;) {
            if (ps->p >= ps->end)
                return fail_at(ps, ps->tok_start, VKS_ERR_TRUNCATED, "string not closed");
            char c = *ps->p++;
            if (c == '"') {
                if (ps->p < ps->end && *ps->p == '"') { /* "" is a quote inside a string */
                    ps->p++;
                } else {
                    break;
                }
            } else if (c == '\n') {
                return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "string not closed on its line");
            }
            if (ps->len >= CFG_MAX_TOKEN)
                return fail_at(ps, ps->tok_start, VKS_ERR_LIMIT, "string longer than 4096 bytes");
            ps->buf[ps->len++] = c;
        }
        ps->buf[ps->len] = 0;
        return 1;
    }
    ps->tok = TOK_WORD;
    while (ps->p < ps->end && !is_space(*ps->p) && !is_punct(*ps->p) && *ps->p != '"' && *ps->p != 0) {
        if (ps->p + 1 < ps->end && ps->p[0] == '/' && (ps->p[1] == '/' || ps->p[1] == '*'))
            break;
        if (ps->len >= CFG_MAX_TOKEN)
            return fail_at(ps, ps->tok_start, VKS_ERR_LIMIT, "word longer than 4096 bytes");
        ps->buf[ps->len++] = *ps->p++;
    }
    ps->buf[ps->len] = 0;
    return 1;
}

static int is_p(const cfg_parser *ps, char ch) { return ps->tok == TOK_PUNCT && ps->punct == ch; }

static cfg_entry *new_entry(cfg_parser *ps, cfg_entry *parent, int kind, const char *name, const char *at)
{
    cfg_entry *e = p3d_alloc(ps->pool, 1, sizeof *e);
    if (!e || !(e->name = p3d_strndup(ps->pool, name, strlen(name)))) {
        fail_at(ps, ps->p, VKS_ERR_NOMEM, "out of memory");
        return NULL;
    }
    e->kind = kind;
    e->at = at;
    e->parent = parent;
    if (parent->last)
        parent->last->next = e;
    else
        parent->first = e;
    parent->last = e;
    return e;
}

static int add_item(cfg_parser *ps, cfg_entry *e, const char *s, size_t n)
{
    vks_allocator a = p3d_pool_allocator(ps->pool);
    const char **items = vks__grow_array(&a, e->items, e->item_count, &e->item_cap, 1, sizeof *items, 8);
    if (!items)
        return fail_at(ps, ps->p, VKS_ERR_NOMEM, "out of memory");
    e->items = items;
    const char *d = p3d_strndup(ps->pool, s, n);
    if (!d)
        return fail_at(ps, ps->p, VKS_ERR_NOMEM, "out of memory");
    e->items[e->item_count++] = d;
    return 1;
}

/* '{' already read; reads elements up to the matching '}' (nested arrays are flattened). */
static int parse_array(cfg_parser *ps, cfg_entry *e, int depth)
{
    if (depth > CFG_MAX_DEPTH)
        return fail_at(ps, ps->tok_start, VKS_ERR_LIMIT, "arrays nested deeper than 64");
    for (;;) {
        if (!next(ps))
            return 0;
        if (is_p(ps, '}'))
            return 1;
        if (is_p(ps, ','))
            continue;
        if (is_p(ps, '{')) {
            if (!parse_array(ps, e, depth + 1))
                return 0;
        } else if (ps->tok == TOK_STRING || ps->tok == TOK_WORD) {
            if (!add_item(ps, e, ps->buf, ps->len))
                return 0;
        } else if (ps->tok == TOK_EOF) {
            return fail_at(ps, ps->p, VKS_ERR_TRUNCATED, "array not closed");
        } else {
            return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "unexpected character in an array");
        }
    }
}

/* After '=': the value up to ';' (a string, or words joined by single spaces). */
static int parse_value(cfg_parser *ps, cfg_entry *e)
{
    char val[CFG_MAX_TOKEN + 1];
    size_t n = 0;
    for (;;) {
        if (!next(ps))
            return 0;
        if (is_p(ps, ';'))
            break;
        if (ps->tok == TOK_EOF)
            return fail_at(ps, ps->p, VKS_ERR_TRUNCATED, "value without ';'");
        if (ps->tok == TOK_PUNCT && ps->punct != ':' && ps->punct != ',' && ps->punct != '=')
            return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "';' expected after a value");
        const char *s = ps->tok == TOK_PUNCT ? &ps->punct : ps->buf;
        size_t len = ps->tok == TOK_PUNCT ? 1 : ps->len;
        if (n + len + 1 > CFG_MAX_TOKEN)
            return fail_at(ps, ps->tok_start, VKS_ERR_LIMIT, "value longer than 4096 bytes");
        if (n)
            val[n++] = ' ';
        memcpy(val + n, s, len);
        n += len;
    }
    if (!(e->value = p3d_strndup(ps->pool, val, n)))
        return fail_at(ps, ps->p, VKS_ERR_NOMEM, "out of memory");
    return 1;
}

/* Entries of a class body until '}' (or EOF at the top level). */
static int parse_body(cfg_parser *ps, cfg_entry *cls, int depth)
{
    for (;;) {
        ps->cls = cls;
        ps->entry = NULL;
        if (!next(ps))
            return 0;
        if (ps->tok == TOK_EOF) {
            if (depth)
                return fail_at(ps, ps->p, VKS_ERR_TRUNCATED, "class not closed");
            return 1;
        }
        if (is_p(ps, '}')) {
            if (!depth)
                return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "'}' without a class");
            return 1;
        }
        if (is_p(ps, ';'))
            continue;
        if (ps->tok != TOK_WORD)
            return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "entry name expected");
        if (!strcmp(ps->buf, "class")) {
            if (!next(ps))
                return 0;
            if (ps->tok != TOK_WORD)
                return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "class name expected");
            cfg_entry *c = new_entry(ps, cls, ENT_CLASS, ps->buf, ps->tok_start);
            if (!c)
                return 0;
            ps->entry = c->name;
            if (!next(ps))
                return 0;
            if (is_p(ps, ':')) {
                if (!next(ps))
                    return 0;
                if (ps->tok != TOK_WORD)
                    return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "base class name expected");
                if (!(c->base = p3d_strndup(ps->pool, ps->buf, ps->len)))
                    return fail_at(ps, ps->p, VKS_ERR_NOMEM, "out of memory");
                if (!next(ps))
                    return 0;
            }
            if (is_p(ps, ';')) {
                c->kind = ENT_EXTERN;
                continue;
            }
            if (!is_p(ps, '{'))
                return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "'{' or ';' expected after a class name");
            if (depth + 1 > CFG_MAX_DEPTH)
                return fail_at(ps, ps->tok_start, VKS_ERR_LIMIT, "classes nested deeper than 64");
            if (!parse_body(ps, c, depth + 1))
                return 0;
            continue;
        }
        if (!strcmp(ps->buf, "delete")) {
            if (!next(ps) || ps->tok != TOK_WORD)
                return ps->failed ? 0 : fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "class name expected after delete");
            continue; /* deletions only matter to derived configs */
        }
        char name[CFG_MAX_TOKEN + 1];
        memcpy(name, ps->buf, ps->len + 1);
        const char *name_at = ps->tok_start;
        ps->entry = name;
        if (!next(ps))
            return 0;
        if (is_p(ps, '[')) {
            if (!next(ps))
                return 0;
            if (!is_p(ps, ']'))
                return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "']' expected");
            if (!next(ps))
                return 0;
            int append = 0;
            if (ps->tok == TOK_WORD && !strcmp(ps->buf, "+")) {
                append = 1;
                if (!next(ps))
                    return 0;
            }
            if (!is_p(ps, '='))
                return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "'=' expected after an array name");
            if (!next(ps))
                return 0;
            if (!is_p(ps, '{'))
                return fail_at(ps, ps->tok_start, VKS_ERR_FORMAT, "'{' expected to open an array");
            cfg_entry *e = new_entry(ps, cls, ENT_ARRAY, name, name_at);
            if (!e)
                return 0;
            e->append = append;
            if (!parse_array(ps, e, 0))
                return 0;
            continue;
        }
        if (!is_p(ps, '='))
            return fail_at(ps, name_at, VKS_ERR_FORMAT, "'=' expected after an entry name");
        cfg_entry *e = new_entry(ps, cls, ENT_VALUE, name, name_at);
        if (!e || !parse_value(ps, e))
            return 0;
    }
}

/* ---- lookups with inheritance ---- */

static cfg_entry *child_class(const cfg_entry *scope, const char *name)
{
    if (!scope)
        return NULL;
    for (cfg_entry *e = scope->first; e; e = e->next)
        if (e->kind == ENT_CLASS && !p3d_stricmp(e->name, name))
            return e;
    return NULL;
}

static cfg_entry *base_of(const cfg_entry *cls)
{
    if (!cls->base || !cls->base[0])
        return NULL;
    for (const cfg_entry *scope = cls->parent; scope; scope = scope->parent) {
        for (cfg_entry *e = scope->first; e && e != cls; e = e->next)
            if (e->kind == ENT_CLASS && !p3d_stricmp(e->name, cls->base))
                return e;
    }
    return NULL;
}

static cfg_entry *lookup(const cfg_entry *cls, const char *name, int kind)
{
    for (int depth = 0; cls && depth < CFG_MAX_INHERIT; depth++) {
        for (cfg_entry *e = cls->first; e; e = e->next)
            if (e->kind == kind && !p3d_stricmp(e->name, name))
                return e;
        cls = base_of(cls);
    }
    return NULL;
}

static const char *lookup_str(const cfg_entry *cls, const char *name)
{
    cfg_entry *e = lookup(cls, name, ENT_VALUE);
    return e ? e->value : "";
}

typedef struct str_list {
    const char **v;
    uint32_t n;
    size_t cap;
} str_list;

static int list_add(p3d_pool *pool, str_list *l, const char *s)
{
    vks_allocator a = p3d_pool_allocator(pool);
    const char **v = vks__grow_array(&a, l->v, l->n, &l->cap, 1, sizeof *v, 16);
    if (!v)
        return 0;
    l->v = v;
    l->v[l->n++] = s;
    return 1;
}

/* An array with inheritance: += appends to what the base class defines. */
static int lookup_array(p3d_pool *pool, const cfg_entry *cls, const char *name, str_list *out, int depth)
{
    if (!cls || depth > CFG_MAX_INHERIT)
        return 1;
    const cfg_entry *owner = cls;
    cfg_entry *e = NULL;
    for (int d = 0; owner && d < CFG_MAX_INHERIT && !e; d++) {
        for (cfg_entry *x = owner->first; x; x = x->next)
            if (x->kind == ENT_ARRAY && !p3d_stricmp(x->name, name)) {
                e = x;
                break;
            }
        if (!e)
            owner = base_of(owner);
    }
    if (!e)
        return 1;
    if (e->append && !lookup_array(pool, base_of(owner), name, out, depth + 1))
        return 0;
    for (uint32_t i = 0; i < e->item_count; i++)
        if (!list_add(pool, out, e->items[i]))
            return 0;
    return 1;
}

/* Bone pairs of a skeleton class, skeletonInherit first. */
static vks_result collect_bones(p3d_pool *pool, const cfg_src *src, const cfg_entry *skels, const cfg_entry *skel,
                                str_list *names, str_list *parents, p3d_name_map *seen, int depth)
{
    char path[128];
    path_of(skel, NULL, path, sizeof path);
    if (depth > CFG_MAX_INHERIT)
        return cfg_error(src, skel->at, VKS_ERR_LIMIT, path, "skeletonInherit chain deeper than 32");
    const cfg_entry *inherit = lookup(skel, "skeletonInherit", ENT_VALUE);
    if (inherit && inherit->value[0]) {
        const cfg_entry *base = child_class(skels, inherit->value);
        if (!base)
            return cfg_error(src, inherit->at, VKS_ERR_FORMAT, path,
                             "skeletonInherit '%.60s' is not a class of CfgSkeletons", inherit->value);
        vks_result r = collect_bones(pool, src, skels, base, names, parents, seen, depth + 1);
        if (r)
            return r;
    }
    str_list pairs = {0};
    if (!lookup_array(pool, skel, "skeletonBones", &pairs, 0))
        return cfg_error(src, NULL, VKS_ERR_NOMEM, path, "out of memory");
    if (pairs.n % 2)
        return cfg_error(src, skel->at, VKS_ERR_FORMAT, path,
                         "skeletonBones[] has %u strings, expected bone/parent pairs", pairs.n);
    for (uint32_t i = 0; i < pairs.n; i += 2) {
        if (!pairs.v[i][0])
            continue;
        int32_t at = p3d_map_add(pool, seen, pairs.v[i], names->n);
        if (at < 0)
            return cfg_error(src, NULL, VKS_ERR_NOMEM, path, "out of memory");
        if ((uint32_t)at != names->n)
            continue; /* a bone named before (a base skeleton's, or earlier here) */
        if (!list_add(pool, names, pairs.v[i]) || !list_add(pool, parents, pairs.v[i + 1]))
            return cfg_error(src, NULL, VKS_ERR_NOMEM, path, "out of memory");
    }
    return VKS_OK;
}

/* Orders bones parents first (stable) and resolves parent names. The order is the one of
 * repeated passes over the list, each placing (in list order) every bone whose parent is
 * placed: a bone lands in its parent's pass when it comes after the parent in the list, else
 * in the next one. That pass number is computed for each bone once (O(n), not a pass per
 * level), then bones are sorted by (pass, list position). */
static vks_result order_bones(p3d_pool *pool, const char *path, str_list *names, str_list *parents,
                              p3d_skeleton *skel, int32_t *order, vks_error *err)
{
    uint32_t n = names->n;
    int32_t *pidx = p3d_alloc(pool, n, sizeof *pidx);
    int32_t *newidx = p3d_alloc(pool, n, sizeof *newidx);
    int32_t *pass = p3d_alloc(pool, n, sizeof *pass);
    uint32_t *stack = p3d_alloc(pool, n, sizeof *stack);
    uint32_t *start = p3d_alloc(pool, (size_t)n + 1, sizeof *start);
    uint8_t *climbing = p3d_alloc(pool, n, 1);
    skel->names = p3d_alloc(pool, n, sizeof *skel->names);
    skel->parents = p3d_alloc(pool, n, sizeof *skel->parents);
    p3d_name_map index = {0};
    if (!pidx || !newidx || !pass || !stack || !start || !climbing || !skel->names || !skel->parents)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    for (uint32_t i = 0; i < n; i++)
        if (p3d_map_add(pool, &index, names->v[i], i) < 0)
            return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, path, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        pidx[i] = -1;
        newidx[i] = -1;
        pass[i] = -1;
        if (!parents->v[i][0])
            continue;
        pidx[i] = p3d_map_find(&index, parents->v[i]); /* the first bone of that name */
        if (pidx[i] < 0)
            return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path,
                                 "parent '%.60s' of bone '%.60s' is not a bone of the skeleton", parents->v[i],
                                 names->v[i]);
    }
    for (uint32_t i = 0; i < n; i++) {
        /* climb to a bone whose pass is known (or a root), then fill the passes top-down */
        uint32_t sp = 0;
        int32_t j = (int32_t)i;
        while (j >= 0 && pass[j] < 0) {
            if (climbing[j])
                return vks_error_set(err, VKS_ERR_FORMAT, VKS_NO_OFFSET, path, "bone parents form a cycle");
            climbing[j] = 1;
            stack[sp++] = (uint32_t)j;
            j = pidx[j];
        }
        while (sp > 0) {
            uint32_t k = stack[--sp];
            int32_t p = pidx[k];
            pass[k] = p < 0 ? 0 : (uint32_t)p < k ? pass[p] : pass[p] + 1;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        start[pass[i] + 1]++;
    for (uint32_t k = 0; k < n; k++)
        start[k + 1] += start[k];
    for (uint32_t i = 0; i < n; i++)
        newidx[i] = (int32_t)start[pass[i]]++;
    for (uint32_t i = 0; i < n; i++) {
        skel->names[newidx[i]] = names->v[i];
        skel->parents[newidx[i]] = pidx[i] >= 0 ? newidx[pidx[i]] : -1;
    }
    skel->bone_count = n;
    if (order)
        memcpy(order, newidx, n * sizeof *order);
    return VKS_OK;
}

vks_result p3d_skeleton_from_pairs(p3d_pool *pool, const char *path, const char **names, const char **parents,
                                   uint32_t n, p3d_skeleton *skel, int32_t *order, vks_error *err)
{
    str_list ln = {names, n, n}, lp = {parents, n, n};
    return order_bones(pool, path, &ln, &lp, skel, order, err);
}

static int only_model(const cfg_entry *models, const cfg_entry **out)
{
    const cfg_entry *found = NULL;
    int n = 0;
    for (cfg_entry *e = models ? models->first : NULL; e; e = e->next) {
        if (e->kind != ENT_CLASS || !p3d_stricmp(e->name, "Default"))
            continue;
        if (!lookup_str(e, "skeletonName")[0])
            continue;
        found = e;
        n++;
    }
    *out = found;
    return n == 1;
}

/* p3d_cfg_skeleton once the text is known: parse, then resolve the model's skeleton. */
static vks_result cfg_skeleton(p3d_pool *pool, const cfg_src *src, const char *model_name, p3d_skeleton *skel,
                               const char **model_class, int *found)
{
    cfg_parser *ps = calloc(1, sizeof *ps);
    if (!ps)
        return cfg_error(src, NULL, VKS_ERR_NOMEM, "", "out of memory");
    ps->pool = pool;
    ps->src = *src;
    ps->text = ps->p = src->text;
    ps->end = src->end;
    cfg_entry *root = p3d_alloc(pool, 1, sizeof *root);
    int ok = root && parse_body(ps, root, 0);
    if (!root)
        cfg_error(src, NULL, VKS_ERR_NOMEM, "", "out of memory");
    free(ps);
    if (!ok)
        return src->err && src->err->code ? src->err->code : VKS_ERR_FORMAT;
    root->name = "";

    const cfg_entry *models = child_class(root, "CfgModels");
    const cfg_entry *skels = child_class(root, "CfgSkeletons");
    const cfg_entry *model = NULL;
    if (model_name && model_name[0])
        model = child_class(models, model_name);
    else
        only_model(models, &model);
    if (!model)
        return VKS_OK;
    *found = 1;
    if (model_class)
        *model_class = model->name;

    char path[128];
    path_of(model, NULL, path, sizeof path);
    str_list sections = {0};
    const char *sinherit = lookup_str(model, "sectionsInherit");
    if (sinherit[0] && !lookup_array(pool, child_class(models, sinherit), "sections", &sections, 0))
        return cfg_error(src, NULL, VKS_ERR_NOMEM, path, "out of memory");
    if (!lookup_array(pool, model, "sections", &sections, 0))
        return cfg_error(src, NULL, VKS_ERR_NOMEM, path, "out of memory");
    skel->sections = sections.v;
    skel->section_count = sections.n;

    const cfg_entry *sname = lookup(model, "skeletonName", ENT_VALUE);
    const char *skel_name = sname ? sname->value : "";
    skel->name = skel_name;
    if (!skel_name[0])
        return VKS_OK;
    const cfg_entry *sk = child_class(skels, skel_name);
    if (!sk)
        return cfg_error(src, sname->at, VKS_ERR_FORMAT, path, "skeletonName '%.60s' is not a class of CfgSkeletons",
                         skel_name);
    str_list names = {0}, parents = {0};
    p3d_name_map seen = {0};
    vks_result r = collect_bones(pool, src, skels, sk, &names, &parents, &seen, 0);
    if (r)
        return r;
    skel->is_discrete = atoi(lookup_str(sk, "isDiscrete")) != 0;
    path_of(sk, NULL, path, sizeof path);
    vks_error *err = src->err;
    int clear = err && err->code == VKS_OK;
    r = order_bones(pool, path, &names, &parents, skel, NULL, err);
    if (r && clear && err->code) { /* order_bones is shared with ODOL: name the config here */
        snprintf(err->file, sizeof err->file, "%s", src->name);
        err->line = sk->at ? line_of(src, sk->at) : 0;
    }
    return r;
}

vks_result p3d_cfg_skeleton(p3d_pool *pool, const char *text, size_t size, const char *cfg_name,
                            const char *model_name, p3d_skeleton *skel, const char **model_class, int *found,
                            vks_error *err)
{
    memset(skel, 0, sizeof *skel);
    *found = 0;
    if (model_class)
        *model_class = "";
    cfg_src src = {text ? text : "", (text ? text : "") + (text ? size : 0),
                   cfg_name && cfg_name[0] ? cfg_name : "model.cfg", err};
    return cfg_skeleton(pool, &src, model_name, skel, model_class, found);
}

vks_result vks_p3d_parse_model_cfg(const char *text, size_t size, const char *model_name, uint32_t *bone_count,
                                   vks_error *err)
{
    p3d_pool pool = {0};
    p3d_skeleton skel;
    int found;
    vks_result r = p3d_cfg_skeleton(&pool, text, size, NULL, model_name, &skel, NULL, &found, err);
    if (r == VKS_OK && bone_count)
        *bone_count = skel.bone_count;
    p3d_pool_free(&pool);
    return r;
}
