/* The bake manifest (docs/baking.md "Batch baking"): JSON read with cJSON into jobs, every default
 * applied, every value checked, errors naming the entry. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bake/job_internal.h"
#include "core/json_keys.h"
#include "vkskin/crowd_file.h"
#include "vkskin/formats.h"
#include "vkskin/vat.h"

static const char *const out_names[VKS_BAKE_OUT_KINDS] = {"vat-exr-float", "vat-exr-half", "vat-png16",
                                                          "atlas", "pc2", "raw", "gltf-morph"};

const char *vks_bake_out_name(int k) { return k >= 0 && k < VKS_BAKE_OUT_KINDS ? out_names[k] : NULL; }

/* The host of the parse under way on this thread: a parse is one call on one thread, and
 * passing it down to every field's check would only repeat it. */
static _Thread_local const vks__bake_host *parse_host;

static int fail(const char *file, const char *where, const char *fmt, ...)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "%s: %s: ", file, where);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof msg)
        vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    vks__log(parse_host ? &parse_host->logger : NULL, VKS_LOG_ERROR, "%s", msg);
    return 0;
}

/* path as written, or joined to the manifest's folder when relative. */
static char *resolve(const char *dir, const char *path)
{
    if (path[0] == '/' || !dir[0])
        return strdup(path);
    size_t a = strlen(dir), b = strlen(path);
    char *r = malloc(a + b + 2);
    if (r) {
        memcpy(r, dir, a);
        r[a] = '/';
        memcpy(r + a + 1, path, b + 1);
    }
    return r;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

/* A number field: absent keeps *out; present must be a finite number within [lo, hi]. */
static int num_field(const char *file, const char *where, const cJSON *o, const char *key, double lo, double hi,
                     double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return 1;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo || v->valuedouble > hi)
        return fail(file, where, "\"%s\" must be a number in [%g, %g]", key, lo, hi);
    *out = v->valuedouble;
    return 1;
}

static int str_field(const char *file, const char *where, const cJSON *o, const char *key, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return 1;
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return fail(file, where, "\"%s\" must be a non-empty string", key);
    *out = v->valuestring;
    return 1;
}

static int bool_field(const char *file, const char *where, const cJSON *o, const char *key, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return 1;
    if (!cJSON_IsBool(v))
        return fail(file, where, "\"%s\" must be true or false", key);
    *out = cJSON_IsTrue(v);
    return 1;
}

/* Refuses keys the schema does not have: a misspelt option must not be silently ignored; nor
 * a key given twice, whose second value would be. */
static int known_keys(const char *file, const char *where, const cJSON *o, const char *const *keys)
{
    const char *dup = vks__json_duplicate_key(o);
    if (dup)
        return fail(file, where, "the key \"%s\" is given twice", dup);
    for (const cJSON *it = o->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *k = keys; *k; k++)
            ok |= !strcmp(*k, it->string);
        if (!ok)
            return fail(file, where, "unknown key \"%s\"", it->string);
    }
    return 1;
}

static int parse_outputs(const char *file, const char *where, const cJSON *v, uint32_t *out)
{
    if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v))
        return fail(file, where, "\"outputs\" must be a non-empty array of names (%s, %s, %s, %s, %s, %s, %s)",
                    out_names[0], out_names[1], out_names[2], out_names[3], out_names[4], out_names[5],
                    out_names[6]);
    uint32_t bits = 0, i = 0;
    for (const cJSON *it = v->child; it; it = it->next, i++) {
        int k = -1;
        for (int j = 0; j < VKS_BAKE_OUT_KINDS && cJSON_IsString(it); j++)
            if (!strcmp(it->valuestring, out_names[j]))
                k = j;
        if (k < 0) {
            char w[64];
            snprintf(w, sizeof w, "%s.outputs[%u]", where, i);
            return fail(file, w, "unknown output %s%s%s (one of %s, %s, %s, %s, %s, %s, %s)",
                        cJSON_IsString(it) ? "\"" : "", cJSON_IsString(it) ? it->valuestring : "(not a string)",
                        cJSON_IsString(it) ? "\"" : "", out_names[0], out_names[1], out_names[2], out_names[3],
                        out_names[4], out_names[5], out_names[6]);
        }
        bits |= 1u << k;
    }
    *out = bits;
    return 1;
}

static int parse_clip(const char *file, const char *dir, const cJSON *v, vks_bake_clip_spec *c)
{
    static const char *const keys[] = {"file", "name", "all", "duration", "fps", NULL};
    const char *path = NULL, *name = NULL;
    if (cJSON_IsString(v) && v->valuestring[0]) {
        /* "file#name" picks one clip; a bare "file" every clip of the file */
        const char *hash = strrchr(v->valuestring, '#');
        size_t n = hash ? (size_t)(hash - v->valuestring) : strlen(v->valuestring);
        c->file_given = malloc(n + 1);
        if (!c->file_given)
            return fail(file, c->where, "no memory");
        memcpy(c->file_given, v->valuestring, n);
        c->file_given[n] = 0;
        if (hash && hash[1])
            c->name = strdup(hash + 1);
    } else if (cJSON_IsObject(v)) {
        int all = 0;
        double d = 0, fps = 0;
        if (!known_keys(file, c->where, v, keys) || !str_field(file, c->where, v, "file", &path) ||
            !str_field(file, c->where, v, "name", &name) || !bool_field(file, c->where, v, "all", &all) ||
            !num_field(file, c->where, v, "duration", 1e-3, 1e6, &d) ||
            !num_field(file, c->where, v, "fps", 1e-3, 1e4, &fps))
            return 0;
        if (!path)
            return fail(file, c->where, "\"file\" is missing");
        if (all && name)
            return fail(file, c->where, "\"all\" and \"name\" exclude each other");
        c->file_given = strdup(path);
        if (name)
            c->name = strdup(name);
        c->duration = (float)d;
        c->fps = (float)fps;
    } else {
        return fail(file, c->where, "a clip is \"FILE\" (every clip of it), \"FILE#name\" or {\"file\": ..., "
                                    "\"name\": ...}");
    }
    c->file = c->file_given ? resolve(dir, c->file_given) : NULL;
    return c->file ? 1 : fail(file, c->where, "no memory");
}

/* "layers", "transition" and "root_motion" of a job: given to the crowd file's parser as the
 * one entry of a crowd, so that they mean, and are checked, exactly as in a crowd file; its
 * messages name the job ("jobs[3].layers[1].weight") instead of the crowd's entry. Relative
 * clip paths start in the manifest's folder (the parser resolves them against the manifest's
 * name). The layer clips become the job's clips, each read whole and its one clip picked by
 * the text after '#'. */
static int parse_layers(const char *file, const cJSON *layers, const cJSON *transition, const cJSON *root_motion,
                        vks_bake_job *j)
{
    cJSON *root = cJSON_CreateObject(), *inst = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(root, "instances");
    if (!root || !inst || !arr) {
        cJSON_Delete(root), cJSON_Delete(inst);
        return fail(file, j->where, "no memory");
    }
    cJSON_AddItemToObject(inst, "layers", cJSON_Duplicate(layers, 1));
    if (transition)
        cJSON_AddItemToObject(inst, "transition", cJSON_Duplicate(transition, 1));
    if (root_motion)
        cJSON_AddItemToObject(inst, "root_motion", cJSON_Duplicate(root_motion, 1));
    cJSON_AddItemToArray(arr, inst);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        return fail(file, j->where, "no memory");
    vks_error err = {0};
    vks_result r = vks_crowd_file_parse(text, strlen(text), file, &j->layers, &err);
    free(text);
    if (r != VKS_OK) {
        const char *path = err.path;
        if (!strncmp(path, "instances[0]", 12))
            path += 12;
        char w[640];
        snprintf(w, sizeof w, "%s%s%s", j->where, path[0] && path[0] != '.' ? "." : "", path);
        return fail(file, w, "%s", err.msg);
    }
    const vks_crowd_spec *spec = j->layers;
    const vks_crowd_entry *e = &spec->instances[0];
    j->clip_count = spec->clip_count;
    j->clips = calloc(spec->clip_count, sizeof *j->clips);
    if (!j->clips)
        return fail(file, j->where, "no memory");
    for (uint32_t c = 0; c < spec->clip_count; c++) {
        vks_bake_clip_spec *cs = &j->clips[c];
        const char *given = spec->clips[c].text, *hash = strrchr(given, '#');
        size_t n = hash ? (size_t)(hash - given) : strlen(given);
        snprintf(cs->where, sizeof cs->where, "%s.layers", j->where);
        cs->file = strdup(spec->clips[c].path);
        cs->file_given = malloc(n + 1);
        cs->name = strdup(spec->clips[c].name);
        if (!cs->file || !cs->file_given || !cs->name)
            return fail(file, j->where, "no memory");
        memcpy(cs->file_given, given, n);
        cs->file_given[n] = 0;
    }
    /* the layers as parsed (defaults applied), for the hash: the same however written */
    cJSON *h = cJSON_CreateObject(), *ys = cJSON_AddArrayToObject(h, "layers");
    for (uint32_t k = 0; ys && k < e->layer_count; k++) {
        const vks_crowd_entry_layer *y = &spec->layers[e->first_layer + k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "clip", spec->clips[y->clip].text);
        cJSON_AddNumberToObject(o, "start", y->start);
        cJSON_AddNumberToObject(o, "speed", y->speed);
        cJSON_AddNumberToObject(o, "cycle", y->cycle);
        cJSON_AddNumberToObject(o, "weight", y->weight);
        cJSON_AddNumberToObject(o, "mode", y->mode);
        cJSON_AddNumberToObject(o, "fade", y->fade);
        if (y->mask)
            cJSON_AddStringToObject(o, "mask", y->mask);
        if (y->reference >= 0) /* only when given, so every other layered job keeps its hash */
            cJSON_AddStringToObject(o, "reference", spec->clips[y->reference].text);
        if (y->ref_time != 0)
            cJSON_AddNumberToObject(o, "reference_time", y->ref_time);
        cJSON_AddItemToArray(ys, o);
    }
    cJSON_AddNumberToObject(h, "fade_start", e->fade_start);
    cJSON_AddNumberToObject(h, "fade_duration", e->fade_duration);
    if (e->root_motion) /* only when asked for, so every other layered job keeps its hash */
        cJSON_AddNumberToObject(h, "root_motion", e->root_motion);
    j->layers_json = cJSON_PrintUnformatted(h);
    cJSON_Delete(h);
    return j->layers_json ? 1 : fail(file, j->where, "no memory");
}

static int is_p3d(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    return dot && !strchr(dot, '/') && !strcasecmp(dot, ".p3d");
}

/* An input file as the hash sees it: its size and modification time, so a re-run redoes the
 * job when the file was changed since (as make does); given names, so every node of a cluster
 * that mounts the manifest elsewhere agrees. A file that cannot be read counts as missing: the
 * bake reports it. */
static void add_input(cJSON *inputs, const char *given, const char *path)
{
    cJSON *e = cJSON_CreateObject();
    struct stat st;
    cJSON_AddStringToObject(e, "file", given);
    if (path && stat(path, &st) == 0) {
        cJSON_AddNumberToObject(e, "bytes", (double)st.st_size);
        cJSON_AddNumberToObject(e, "mtime_s", (double)st.st_mtim.tv_sec);
        cJSON_AddNumberToObject(e, "mtime_ns", (double)st.st_mtim.tv_nsec);
    } else {
        cJSON_AddBoolToObject(e, "missing", 1);
    }
    cJSON_AddItemToArray(inputs, e);
}

/* The job as baked, defaults applied, as canonical JSON: what its hash covers, with the state
 * of every file it reads (the model, a P3D model's skeleton config, the clip files). */
static void job_hash(vks_bake_job *j)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", j->name);
    cJSON_AddStringToObject(o, "model", j->model_given);
    const char *ropt[4] = {j->ropt.p3d.model_cfg_name, j->ropt.p3d.model_name, j->ropt.p3d.lod, j->ropt.p3d.bones};
    static const char *const rk[4] = {"model_cfg", "model_name", "lod", "bones"};
    for (int k = 0; k < 4; k++)
        if (ropt[k])
            cJSON_AddStringToObject(o, rk[k], ropt[k]);
    cJSON_AddNumberToObject(o, "bone_limit", j->ropt.p3d.bone_limit);
    cJSON *clips = cJSON_AddArrayToObject(o, "clips");
    for (uint32_t c = 0; c < j->clip_count; c++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "file", j->clips[c].file_given);
        if (j->clips[c].name)
            cJSON_AddStringToObject(e, "name", j->clips[c].name);
        cJSON_AddNumberToObject(e, "duration", j->clips[c].duration);
        cJSON_AddNumberToObject(e, "fps", j->clips[c].fps);
        cJSON_AddItemToArray(clips, e);
    }
    /* only for a layered job, so every other entry keeps its hash */
    if (j->layers_json)
        cJSON_AddStringToObject(o, "layers", j->layers_json);
    cJSON_AddNumberToObject(o, "fps", j->fps);
    if (j->has_range) {
        cJSON_AddNumberToObject(o, "range0", j->range[0]);
        cJSON_AddNumberToObject(o, "range1", j->range[1]);
    }
    cJSON_AddNumberToObject(o, "normals", j->normals);
    cJSON_AddNumberToObject(o, "max_width", j->max_width);
    /* only when not the defaults, so entries baked before these keys keep their hash */
    if (j->max_height != VKS_BAKE_DEFAULT_MAX_HEIGHT)
        cJSON_AddNumberToObject(o, "max_height", j->max_height);
    if (j->pow2)
        cJSON_AddBoolToObject(o, "pow2", 1);
    cJSON *inputs = cJSON_AddArrayToObject(o, "inputs");
    add_input(inputs, j->model_given, j->model);
    char cfg[4096];
    if (j->ropt_strings[0])
        add_input(inputs, j->ropt_strings[0], j->ropt_strings[0]);
    else if (is_p3d(j->model) && vks_p3d_find_model_cfg(NULL, j->model, cfg, sizeof cfg) == 1)
        add_input(inputs, "model.cfg", cfg);
    for (uint32_t c = 0; c < j->clip_count; c++)
        add_input(inputs, j->clips[c].file_given, j->clips[c].file);
    char *text = cJSON_PrintUnformatted(o);
    snprintf(j->hash, sizeof j->hash, "%016llx", (unsigned long long)(text ? fnv1a(text) : 0));
    free(text);
    cJSON_Delete(o);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* A job's "read" object: the model's read options (model_cfg resolved against the manifest's
 * folder). */
static int parse_read(const char *file, const char *dir, const cJSON *read, vks_bake_job *j)
{
    static const char *const rkeys[] = {"model_cfg", "model_name", "lod", "bones", "bone_limit", NULL};
    char w[48];
    snprintf(w, sizeof w, "%s.read", j->where);
    const char *s[4] = {NULL, NULL, NULL, NULL};
    double limit = 0;
    if (!cJSON_IsObject(read) || !known_keys(file, w, read, rkeys) ||
        !str_field(file, w, read, "model_cfg", &s[0]) || !str_field(file, w, read, "model_name", &s[1]) ||
        !str_field(file, w, read, "lod", &s[2]) || !str_field(file, w, read, "bones", &s[3]) ||
        !num_field(file, w, read, "bone_limit", 1, 65535, &limit))
        return cJSON_IsObject(read) ? 0 : fail(file, w, "must be an object");
    for (int k = 0; k < 4; k++)
        if (s[k])
            j->ropt_strings[k] = k == 0 ? resolve(dir, s[k]) : strdup(s[k]);
    j->ropt.p3d.model_cfg_name = j->ropt_strings[0];
    j->ropt.p3d.model_name = j->ropt_strings[1];
    j->ropt.p3d.lod = j->ropt_strings[2];
    j->ropt.p3d.bones = j->ropt_strings[3];
    j->ropt.p3d.bone_limit = (uint32_t)limit;
    return 1;
}

static int parse_job(const char *file, const char *dir, const cJSON *v, const cJSON *defaults, vks_bake_job *j)
{
    static const char *const keys[] = {"name", "model", "read", "clips", "fps", "range", "outputs", "normals",
                                       "max_width", "max_height", "pow2", "split", "contact_sheet", "layers",
                                       "transition", "root_motion", NULL};
    if (!cJSON_IsObject(v))
        return fail(file, j->where, "a job is an object with \"model\" and \"clips\"");
    if (!known_keys(file, j->where, v, keys))
        return 0;
    const char *model = NULL, *name = NULL;
    if (!str_field(file, j->where, v, "model", &model) || !str_field(file, j->where, v, "name", &name))
        return 0;
    if (!model)
        return fail(file, j->where, "\"model\" is missing");
    if (name && (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")))
        return fail(file, j->where, "\"name\" \"%s\" must be a file name, not a path", name);
    j->model_given = strdup(model);
    j->model = resolve(dir, model);
    j->name = strdup(name ? name : base_name(model));

    /* defaults first, then the job's own values */
    double fps = 30, width = VKS_VAT_DEFAULT_MAX_WIDTH, height = VKS_BAKE_DEFAULT_MAX_HEIGHT;
    j->normals = 1;
    j->outputs = 0;
    const cJSON *srcs[2] = {defaults, v};
    for (int s = 0; s < 2; s++) {
        const cJSON *o = srcs[s];
        if (!o)
            continue;
        const char *w = s ? j->where : "defaults";
        if (!num_field(file, w, o, "fps", 1e-3, 1e4, &fps) || !num_field(file, w, o, "max_width", 1, 16384, &width) ||
            !num_field(file, w, o, "max_height", 1, INT32_MAX, &height) || !bool_field(file, w, o, "pow2", &j->pow2) ||
            !bool_field(file, w, o, "normals", &j->normals) || !bool_field(file, w, o, "contact_sheet", &j->contact_sheet) ||
            !bool_field(file, w, o, "split", &j->split))
            return 0;
        const cJSON *outs = cJSON_GetObjectItemCaseSensitive(o, "outputs");
        if (outs && !parse_outputs(file, w, outs, &j->outputs))
            return 0;
    }
    j->fps = (float)fps;
    j->max_width = (uint32_t)width;
    j->max_height = (uint32_t)height;
    if (!j->outputs)
        return fail(file, j->where, "no \"outputs\" (in the job or in \"defaults\")");

    const cJSON *range = cJSON_GetObjectItemCaseSensitive(v, "range");
    if (range) {
        if (!cJSON_IsArray(range) || cJSON_GetArraySize(range) != 2 || !cJSON_IsNumber(range->child) ||
            !cJSON_IsNumber(range->child->next) || !(range->child->valuedouble >= 0) ||
            !(range->child->next->valuedouble >= range->child->valuedouble) ||
            !isfinite(range->child->next->valuedouble))
            return fail(file, j->where, "\"range\" must be [start, end] in seconds with 0 <= start <= end");
        j->has_range = 1;
        j->range[0] = (float)range->child->valuedouble;
        j->range[1] = (float)range->child->next->valuedouble;
    }

    const cJSON *read = cJSON_GetObjectItemCaseSensitive(v, "read");
    if (read && !parse_read(file, dir, read, j))
        return 0;

    const cJSON *clips = cJSON_GetObjectItemCaseSensitive(v, "clips");
    const cJSON *layers = cJSON_GetObjectItemCaseSensitive(v, "layers");
    const cJSON *transition = cJSON_GetObjectItemCaseSensitive(v, "transition");
    if (layers && clips)
        return fail(file, j->where, "\"layers\" and \"clips\" exclude each other (a layered job bakes one clip)");
    const cJSON *root_motion = cJSON_GetObjectItemCaseSensitive(v, "root_motion");
    if (transition && !layers)
        return fail(file, j->where, "\"transition\" needs \"layers\" (the set it leaves)");
    if (root_motion && !layers)
        return fail(file, j->where, "\"root_motion\" needs \"layers\" (the instance that plays in place; one clip: "
                                    "\"layers\": [{\"clip\": ...}])");
    if (layers) {
        if (!parse_layers(file, layers, transition, root_motion, j))
            return 0;
        job_hash(j);
        return 1;
    }
    if (!cJSON_IsArray(clips) || !cJSON_GetArraySize(clips))
        return fail(file, j->where, "\"clips\" must be a non-empty array");
    j->clip_count = (uint32_t)cJSON_GetArraySize(clips);
    j->clips = calloc(j->clip_count, sizeof *j->clips);
    if (!j->clips)
        return fail(file, j->where, "no memory");
    uint32_t c = 0;
    for (const cJSON *it = clips->child; it; it = it->next, c++) {
        snprintf(j->clips[c].where, sizeof j->clips[c].where, "%s.clips[%u]", j->where, c);
        if (!parse_clip(file, dir, it, &j->clips[c]))
            return 0;
    }
    job_hash(j);
    return 1;
}

static int parse_root(const char *path, const void *bytes, size_t size, int contact_sheet, vks_bake_manifest *m);

int vks__bake_manifest_parse(const char *path, const void *bytes, size_t size, int contact_sheet,
                             const vks__bake_host *host, vks_bake_manifest *m)
{
    memset(m, 0, sizeof *m);
    const vks__bake_host *outer = parse_host;
    parse_host = host;
    int rc = parse_root(path, bytes, size, contact_sheet, m);
    parse_host = outer;
    if (rc != VKS__BAKE_EXIT_OK)
        return rc;
    m->host = malloc(sizeof *m->host);
    if (!m->host) {
        vks__bake_manifest_free(m);
        vks__log(host ? &host->logger : NULL, VKS_LOG_ERROR, "%s: out of memory", path);
        return VKS__BAKE_EXIT_INPUT;
    }
    *m->host = host ? *host : (vks__bake_host){{0}, 0};
    for (uint32_t j = 0; j < m->job_count; j++) {
        m->jobs[j].host = m->host;
        for (uint32_t c = 0; c < m->jobs[j].clip_count; c++)
            m->jobs[j].clips[c].host = m->host;
    }
    return VKS__BAKE_EXIT_OK;
}

static int parse_root(const char *path, const void *bytes, size_t size, int contact_sheet, vks_bake_manifest *m)
{
    cJSON *root = cJSON_ParseWithLength((const char *)bytes, size);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        long off = at && at >= (const char *)bytes && at <= (const char *)bytes + size ? (long)(at - (const char *)bytes) : -1;
        vks__log(parse_host ? &parse_host->logger : NULL, VKS_LOG_ERROR, "%s:0x%lx: not valid JSON", path,
                 off < 0 ? 0 : off);
        return VKS__BAKE_EXIT_INPUT;
    }
    m->path = strdup(path);
    const char *slash = strrchr(path, '/');
    m->dir = slash ? malloc((size_t)(slash - path) + 1) : strdup("");
    if (!m->path || !m->dir) {
        cJSON_Delete(root);
        vks__bake_manifest_free(m);
        vks__log(parse_host ? &parse_host->logger : NULL, VKS_LOG_ERROR, "%s: out of memory", path);
        return VKS__BAKE_EXIT_INPUT;
    }
    if (slash && m->dir) {
        memcpy(m->dir, path, (size_t)(slash - path));
        m->dir[slash - path] = 0;
        if (!m->dir[0])
            strcpy(m->dir, "/");
    }
    int ok = 1;
    static const char *const keys[] = {"version", "out", "defaults", "jobs", NULL};
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(root, "jobs");
    const cJSON *defaults = cJSON_GetObjectItemCaseSensitive(root, "defaults");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
    const char *out = NULL;
    if (!cJSON_IsObject(root))
        ok = fail(path, "(root)", "the manifest is an object with \"jobs\"");
    else if (!known_keys(path, "(root)", root, keys) || !str_field(path, "(root)", root, "out", &out))
        ok = 0;
    else if (version && !(cJSON_IsNumber(version) && version->valuedouble == 1))
        ok = fail(path, "version", "this vkskin reads manifest version 1");
    else if (defaults && !cJSON_IsObject(defaults))
        ok = fail(path, "defaults", "must be an object");
    else if (!cJSON_IsArray(jobs) || !cJSON_GetArraySize(jobs))
        ok = fail(path, "jobs", "must be a non-empty array");
    if (ok && defaults) {
        static const char *const dkeys[] = {"fps", "outputs", "normals", "max_width", "max_height", "pow2",
                                            "split", "contact_sheet", NULL};
        ok = known_keys(path, "defaults", defaults, dkeys);
    }
    if (ok && out)
        m->out = resolve(m->dir, out);
    if (ok) {
        m->job_count = (uint32_t)cJSON_GetArraySize(jobs);
        m->jobs = calloc(m->job_count, sizeof *m->jobs);
        ok = m->jobs != NULL;
    }
    uint32_t i = 0;
    for (const cJSON *it = ok ? jobs->child : NULL; it && ok; it = it->next, i++) {
        vks_bake_job *j = &m->jobs[i];
        j->index = i;
        snprintf(j->where, sizeof j->where, "jobs[%u]", i);
        ok = parse_job(path, m->dir, it, defaults, j);
        if (contact_sheet)
            j->contact_sheet = 1;
        /* two jobs writing the same files would overwrite each other */
        for (uint32_t k = 0; ok && k < i; k++)
            if (!strcmp(m->jobs[k].name, j->name))
                ok = fail(path, j->where, "name \"%s\" is also jobs[%u]'s: outputs would collide (give \"name\")",
                          j->name, k);
    }
    cJSON_Delete(root);
    if (!ok) {
        vks__bake_manifest_free(m);
        return VKS__BAKE_EXIT_INPUT;
    }
    return VKS__BAKE_EXIT_OK;
}

void vks__bake_manifest_free(vks_bake_manifest *m)
{
    for (uint32_t i = 0; m->jobs && i < m->job_count; i++) {
        vks_bake_job *j = &m->jobs[i];
        for (uint32_t c = 0; j->clips && c < j->clip_count; c++) {
            free(j->clips[c].file);
            free(j->clips[c].file_given);
            free(j->clips[c].name);
        }
        free(j->clips);
        if (j->layers)
            vks_crowd_spec_free(j->layers);
        free(j->layers_json);
        for (int k = 0; k < 4; k++)
            free(j->ropt_strings[k]);
        free(j->name);
        free(j->model);
        free(j->model_given);
    }
    free(m->jobs);
    free(m->path);
    free(m->dir);
    free(m->out);
    free(m->host);
    for (uint32_t j = 0; m->res && j < m->job_count; j++)
        cJSON_Delete(m->res[j].files);
    free(m->res);
    free(m->mine);
    free(m->inputs_checked);
    memset(m, 0, sizeof *m);
}
