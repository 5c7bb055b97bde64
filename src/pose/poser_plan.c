/* The pose plan (poser.h): clip FILE[#name] plays one clip on N instances of each FILE, a crowd
 * file gives every instance its model, clip, start, speed, cycle and root. Each clip file is
 * read once (pose JSON once per model, since its node names are resolved against the model). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "core/text_name.h"
#include "pose/poser_internal.h"
#include "vkskin/output.h"

vks_result vks__poser_fail(const vks_logger *l, vks_error *err, vks_result code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vks__log(l, VKS_LOG_ERROR, "%s", msg);
    if (err && err->code == VKS_OK) {
        memset(err, 0, sizeof *err);
        err->code = code;
        err->offset = VKS_NO_OFFSET;
        size_t n = strlen(msg) < sizeof err->msg - 1 ? strlen(msg) : sizeof err->msg - 1; /* cut to fit */
        memcpy(err->msg, msg, n);
        err->msg[n] = 0;
    }
    return code;
}

void vks_pose_options_defaults(vks_pose_options *o)
{
    memset(o, 0, sizeof *o);
    o->instances = 1;
    o->frames = 1;
    o->seed = 1;
    o->fps = 30.0f;
    o->clip_speed = 1.0f;
    o->clip_cycle = -1;
}

static char *dup_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static int is_json(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcasecmp(path + n - 5, ".json") == 0;
}

/* A whole file under the plan's input limit; said ("path: why") when it cannot be read. */
static uint8_t *read_file(const vks_pose_plan *plan, const char *path, size_t *size, vks_error *err)
{
    void *bytes = NULL;
    vks_error e = {0};
    uint64_t max = plan->read.file.max_size ? plan->read.file.max_size : (uint64_t)2048 << 20;
    vks_result r = vks_file_read_default(NULL, path, max, &bytes, size, &e);
    if (r != VKS_OK) {
        int hint = r == VKS_ERR_LIMIT && plan->limit_hint;
        vks__poser_fail(&plan->read.logger, err, r, "%s: %s%s%s", path, e.msg, hint ? " " : "",
                        hint ? plan->limit_hint : "");
        return NULL;
    }
    return bytes;
}

/* The index of the clip file at path, read now when new; -1 when it cannot be read (said). */
static int32_t clip_file(vks_pose_plan *plan, const char *path, size_t n, vks_error *err)
{
    struct vks__pose_clips *an = plan->clips;
    for (uint32_t k = 0; k < an->file_count; k++)
        if (strlen(an->files[k].path) == n && !memcmp(an->files[k].path, path, n))
            return (int32_t)k;
    vks__pose_clip_file f = {dup_text(path, n), NULL, 0, NULL};
    if (!f.path) {
        vks__poser_fail(&plan->read.logger, err, VKS_ERR_NOMEM, "out of memory");
        return -1;
    }
    size_t size = 0;
    uint8_t *bytes = read_file(plan, f.path, &size, err);
    if (!bytes) {
        free(f.path);
        return -1;
    }
    if (is_json(f.path)) {
        f.bytes = bytes, f.size = size; /* read against each model's node names */
    } else {
        vks_error e = {0};
        vks_result r = vks_read_clip_bytes(&plan->read, f.path, bytes, size, NULL, &f.set, &e);
        free(bytes);
        if (r != VKS_OK) {
            char msg[512];
            vks__poser_fail(&plan->read.logger, err, r == VKS_ERR_INVALID ? VKS_ERR_FORMAT : r, "%s",
                            vks_load_error_format(&e, f.path, NULL, msg, sizeof msg));
            free(f.path);
            return -1;
        }
    }
    an->files[an->file_count] = f;
    return (int32_t)an->file_count++;
}

/* Finds the clip a source names in its file; says which ones there are when it is not there. */
static int find_clip(const vks_pose_plan *plan, vks__pose_clip_ref *r, const char *name, vks_error *err)
{
    const vks__pose_clip_file *f = &plan->clips->files[r->file];
    const vks_logger *l = &plan->read.logger;
    if (!f->set) {
        r->clip = 0;
        if (!name[0] || !strcmp(name, "0") || !strcasecmp(name, "frames"))
            return 1;
        vks__poser_fail(l, err, VKS_ERR_FORMAT, "%s %s: %s is pose JSON, whose one clip is \"frames\" (#0), not \"%s\"",
                        r->where, r->label, f->path, name);
        return 0;
    }
    r->clip = vks_clip_set_find(f->set, name);
    if (r->clip >= 0)
        return 1;
    char names[160] = "";
    size_t at = 0;
    char safe[VKS__NAME_MAX]; /* a name from the file: escaped */
    for (uint32_t c = 0; c < f->set->clip_count && at + 1 < sizeof names; c++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s\"%s\"", c ? ", " : "",
                               vks__text_name(f->set->clips[c].name, safe, sizeof safe));
    vks__poser_fail(l, err, VKS_ERR_FORMAT, "%s %s: %s has no clip \"%s\" (its %u clip(s): %s; or give an index, #0 to #%u)",
                    r->where, r->label, f->path, name, f->set->clip_count, names,
                    f->set->clip_count ? f->set->clip_count - 1 : 0);
    return 0;
}

/* One clip source: its file read (or found), its clip found. */
static int add_ref(vks_pose_plan *plan, const char *path, size_t path_len, const char *name, const char *label,
                   const char *where, vks_error *err)
{
    struct vks__pose_clips *an = plan->clips;
    vks__pose_clip_ref *r = &an->refs[an->ref_count];
    r->label = strdup(label);
    r->where = strdup(where);
    if (!r->label || !r->where) {
        free(r->label), free(r->where);
        vks__poser_fail(&plan->read.logger, err, VKS_ERR_NOMEM, "out of memory");
        return 0;
    }
    an->ref_count++;
    int32_t f = clip_file(plan, path, path_len, err);
    if (f < 0) {
        if (strcmp(where, "--clip"))
            vks__poser_fail(&plan->read.logger, err, VKS_ERR_IO, "%s %s: the clip file could not be read", where,
                            label);
        return 0;
    }
    r->file = (uint32_t)f;
    return find_clip(plan, r, name, err);
}

/* Each crowd model as an index into the run's models: the same file as a FILE is that model,
 * the others follow the FILEs. */
static void crowd_model_map(struct vks__pose_clips *an, const vks_crowd_spec *s, int32_t *map, uint32_t *mc)
{
    for (uint32_t k = 0; k < s->model_count; k++) {
        map[k] = -1;
        for (uint32_t m = 0; m < *mc && map[k] < 0; m++)
            if (!strcmp(an->models[m], s->models[k].path) || vks_output_same_file(an->models[m], s->models[k].path))
                map[k] = (int32_t)m;
        if (map[k] < 0) {
            map[k] = (int32_t)*mc;
            an->models[(*mc)++] = s->models[k].path;
        }
    }
}

/* Each instance's model, checked: one that names none takes the one FILE; every FILE is played. */
static vks_result crowd_instance_models(vks_pose_plan *plan, const int32_t *map, int nfiles, uint32_t *model_of,
                                        vks_error *err)
{
    struct vks__pose_clips *an = plan->clips;
    const vks_crowd_spec *s = an->spec;
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const vks_crowd_entry *e = &s->instances[i];
        if (e->model < 0 && nfiles != 1) {
            char where[256];
            return vks__poser_fail(&plan->read.logger, err, VKS_ERR_INVALID,
                                   "%s: the instance names no model, and %s; name it in the crowd's \"model\"",
                                   vks_crowd_spec_where(s, i, where, sizeof where),
                                   nfiles ? "the command gives several FILEs to take it from"
                                          : "the command gives no FILE");
        }
        model_of[i] = e->model < 0 ? 0 : (uint32_t)map[e->model];
        an->count[model_of[i]]++;
    }
    for (int f = 0; f < nfiles; f++)
        if (!an->count[f])
            return vks__poser_fail(&plan->read.logger, err, VKS_ERR_INVALID,
                                   "%s: no instance of %s plays this model (instances that name no model take the "
                                   "command's FILE)", an->models[f], plan->options.crowd);
    return VKS_OK;
}

/* With a crowd: the models (the FILEs first, then the crowd's others), each instance's model,
 * the instances grouped by model, and the clip sources. */
static vks_result crowd_models(vks_pose_plan *plan, const char *const *files, int nfiles, vks_error *err)
{
    struct vks__pose_clips *an = plan->clips;
    const vks_crowd_spec *s = an->spec;
    uint32_t cap = (uint32_t)nfiles + s->model_count, mc = 0;
    int32_t *map = malloc((s->model_count + 1) * sizeof *map);
    uint32_t *model_of = malloc(s->instance_count * sizeof *model_of), *fill = calloc(cap + 1, sizeof *fill);
    an->models = malloc((cap + 1) * sizeof *an->models);
    an->first = calloc(cap + 1, sizeof *an->first);
    an->count = calloc(cap + 1, sizeof *an->count);
    an->order = malloc(s->instance_count * sizeof *an->order);
    an->refs = calloc(s->clip_count + 1, sizeof *an->refs);
    an->files = calloc(s->clip_count + 1, sizeof *an->files);
    vks_result r = VKS_OK;
    if (!map || !model_of || !fill || !an->models || !an->first || !an->count || !an->order || !an->refs || !an->files) {
        r = vks__poser_fail(&plan->read.logger, err, VKS_ERR_NOMEM, "out of memory for a crowd of %u instances",
                            s->instance_count);
        goto done;
    }
    for (int f = 0; f < nfiles; f++)
        an->models[mc++] = files[f];
    crowd_model_map(an, s, map, &mc);
    if ((r = crowd_instance_models(plan, map, nfiles, model_of, err)) != VKS_OK)
        goto done;
    for (uint32_t m = 1; m < mc; m++) /* instances grouped by model, crowd order within each */
        an->first[m] = an->first[m - 1] + an->count[m - 1];
    for (uint32_t i = 0; i < s->instance_count; i++)
        an->order[an->first[model_of[i]] + fill[model_of[i]]++] = i;
    for (uint32_t k = 0; k < s->clip_count && r == VKS_OK; k++) {
        const vks_crowd_source *c = &s->clips[k];
        char where[300];
        vks_crowd_spec_where(s, c->first_instance, where, sizeof where - 8);
        strcat(where, ": clip");
        if (!add_ref(plan, c->path, strlen(c->path), c->name, c->text, where, err))
            r = err && err->code != VKS_OK ? err->code : VKS_ERR_FORMAT;
    }
    if (r == VKS_OK)
        plan->models = an->models, plan->model_count = mc;
done:
    free(map), free(model_of), free(fill);
    return r;
}

/* One clip on every instance: "FILE#name", "FILE#index" or "FILE" (clip 0). */
static vks_result one_clip(vks_pose_plan *plan, vks_error *err)
{
    struct vks__pose_clips *an = plan->clips;
    const char *clip = plan->options.clip, *hash = strrchr(clip, '#');
    size_t n = hash ? (size_t)(hash - clip) : strlen(clip);
    an->refs = calloc(1, sizeof *an->refs);
    an->files = calloc(1, sizeof *an->files);
    if (!an->refs || !an->files)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clip", "out of memory");
    if (n == 0)
        return vks__poser_fail(&plan->read.logger, err, VKS_ERR_INVALID,
                               "--clip %s: expected FILE#name or FILE#index, got no file before '#'", clip);
    if (add_ref(plan, clip, n, hash ? hash + 1 : "", clip, "--clip", err))
        return VKS_OK;
    return err && err->code != VKS_OK ? err->code : VKS_ERR_FORMAT;
}

vks_result vks_pose_plan_load(vks_pose_plan *plan, const vks_pose_options *o, const char *const *files, int nfiles,
                              const vks_read_options *read, const char *limit_hint, vks_error *err)
{
    memset(plan, 0, sizeof *plan);
    plan->options = *o;
    plan->models = (const char **)files;
    plan->model_count = (uint32_t)nfiles;
    plan->read = read ? *read : (vks_read_options){0};
    plan->read.clip.duration = o->clip_duration;
    plan->read.clip.fps = o->clip_fps;
    plan->limit_hint = limit_hint;
    if (!o->clip && !o->crowd)
        return VKS_OK;
    if (!(plan->clips = calloc(1, sizeof *plan->clips)))
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "clip", "out of memory");
    if (o->clip)
        return one_clip(plan, err);
    size_t size = 0;
    char *text = (char *)read_file(plan, o->crowd, &size, err);
    if (!text)
        return err && err->code != VKS_OK ? err->code : VKS_ERR_IO;
    vks_error e = {0};
    vks_result r = vks_crowd_file_parse(text, size, o->crowd, &plan->clips->spec, &e);
    free(text);
    if (r != VKS_OK) {
        char msg[512];
        return vks__poser_fail(&plan->read.logger, err, r, "%s", vks_error_format(&e, o->crowd, msg, sizeof msg));
    }
    return crowd_models(plan, files, nfiles, err);
}

void vks_pose_plan_free(vks_pose_plan *plan)
{
    struct vks__pose_clips *an = plan->clips;
    if (an) {
        for (uint32_t k = 0; k < an->file_count; k++) {
            free(an->files[k].path), free(an->files[k].bytes);
            vks_clip_set_free(an->files[k].set);
        }
        for (uint32_t k = 0; k < an->ref_count; k++)
            free(an->refs[k].label), free(an->refs[k].where);
        vks_crowd_spec_free(an->spec);
        free(an->files), free(an->refs), free(an->models), free(an->order), free(an->first), free(an->count);
        free(an);
    }
    plan->clips = NULL;
    plan->models = NULL;
    plan->model_count = 0;
}

uint32_t vks_pose_plan_instances(const vks_pose_plan *plan, uint32_t m)
{
    return plan->clips && plan->clips->spec ? plan->clips->count[m] : plan->options.instances;
}

const char **vks_pose_plan_inputs(const vks_pose_plan *plan, int *count)
{
    uint32_t files = plan->clips ? plan->clips->file_count : 0;
    const char *crowd = plan->options.crowd;
    const char **out = crowd || files ? malloc((files + 1) * sizeof *out) : NULL;
    int n = 0;
    if (out && crowd)
        out[n++] = crowd;
    for (uint32_t k = 0; out && k < files; k++)
        out[n++] = plan->clips->files[k].path;
    *count = n;
    return out;
}

int vks_pose_plan_root_motion(const vks_pose_plan *plan, uint32_t m)
{
    const struct vks__pose_clips *an = plan->clips;
    if (!an || !an->spec || m >= plan->model_count)
        return 0;
    for (uint32_t j = 0; j < an->count[m]; j++) {
        const vks_crowd_entry *e = &an->spec->instances[an->order[an->first[m] + j]];
        if (e->layer_count && e->root_motion) /* as vks_poser_root_motion_wanted sees the poser */
            return 1;
    }
    return 0;
}
