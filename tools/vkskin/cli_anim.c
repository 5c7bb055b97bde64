/* Clips and crowds for deform, validate and render (cli_anim.h): --clip FILE[#name] plays one
 * clip on N instances of each FILE, --crowd FILE gives every instance its model, clip, start,
 * speed, cycle and root. Each clip file is read once (pose JSON once per model, since its node
 * names are resolved against the model); each model binds the clips its instances play. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_anim.h"
#include "cli_text.h"

static char *dup_text(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

int vks_cli_is_json(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcasecmp(path + n - 5, ".json") == 0;
}

vks_clip_set *vks_cli_read_clips(const char *where, const char *path, const uint8_t *bytes, size_t size,
                                 const vks_skin *json_skin, const vks_read_options *ropt)
{
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (vks_read_clip_bytes(ropt, path, bytes, size, json_skin, &set, &err) == VKS_OK)
        return set;
    char msg[512];
    fprintf(stderr, "vkskin: %s%s%s\n", where ? where : "", where ? ": " : "",
            vks_load_error_format(&err, path, NULL, msg, sizeof msg));
    return NULL;
}

/* The index of the clip file at path, read now when new; -1 when it cannot be read (said). */
static int32_t clip_file(vks_cli_anim *an, const char *path, size_t n)
{
    for (uint32_t k = 0; k < an->file_count; k++)
        if (strlen(an->files[k].path) == n && !memcmp(an->files[k].path, path, n))
            return (int32_t)k;
    vks_cli_clip_file f = {dup_text(path, n), NULL, 0, NULL};
    if (!f.path) {
        fprintf(stderr, "vkskin: out of memory\n");
        return -1;
    }
    size_t size = 0;
    uint8_t *bytes = vks_cli_read_file(f.path, &size);
    if (!bytes) {
        free(f.path);
        return -1;
    }
    if (vks_cli_is_json(f.path)) {
        f.bytes = bytes, f.size = size; /* read against each model's node names */
    } else {
        f.set = vks_cli_read_clips(NULL, f.path, bytes, size, NULL, &an->ropt);
        free(bytes);
        if (!f.set) {
            free(f.path);
            return -1;
        }
    }
    an->files[an->file_count] = f;
    return (int32_t)an->file_count++;
}

/* Finds the clip a source names in its file; says which ones there are when it is not there. */
static int find_clip(vks_cli_anim *an, vks_cli_clip_ref *r, const char *name)
{
    const vks_cli_clip_file *f = &an->files[r->file];
    if (!f->set) {
        r->clip = 0;
        if (!name[0] || !strcmp(name, "0") || !strcasecmp(name, "frames"))
            return 1;
        fprintf(stderr, "vkskin: %s %s: %s is pose JSON, whose one clip is \"frames\" (#0), not \"%s\"\n", r->where,
                r->label, f->path, name);
        return 0;
    }
    r->clip = vks_clip_set_find(f->set, name);
    if (r->clip >= 0)
        return 1;
    char names[160] = "";
    size_t at = 0;
    char safe[VKS_CLI_NAME_MAX]; /* a name from the file: escaped (cli_text.h) */
    for (uint32_t c = 0; c < f->set->clip_count && at + 1 < sizeof names; c++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s\"%s\"", c ? ", " : "",
                               vks_cli_name(f->set->clips[c].name, safe, sizeof safe));
    fprintf(stderr, "vkskin: %s %s: %s has no clip \"%s\" (its %u clip(s): %s; or give an index, #0 to #%u)\n",
            r->where, r->label, f->path, name, f->set->clip_count, names,
            f->set->clip_count ? f->set->clip_count - 1 : 0);
    return 0;
}

/* One clip source: its file read (or found), its clip found. */
static int add_ref(vks_cli_anim *an, const char *path, size_t path_len, const char *name, const char *label,
                   const char *where)
{
    vks_cli_clip_ref *r = &an->refs[an->ref_count];
    r->label = strdup(label);
    r->where = strdup(where);
    if (!r->label || !r->where) {
        free(r->label), free(r->where);
        fprintf(stderr, "vkskin: out of memory\n");
        return 0;
    }
    an->ref_count++;
    int32_t f = clip_file(an, path, path_len);
    if (f < 0) {
        if (strcmp(where, "--clip"))
            fprintf(stderr, "vkskin: %s %s: the clip file could not be read\n", where, label);
        return 0;
    }
    r->file = (uint32_t)f;
    return find_clip(an, r, name);
}

/* --crowd: the models (the command's FILEs first, then the crowd's others), each instance's
 * model, the instances grouped by model, and the clip sources. Returns an exit code. */
static int crowd_models(vks_cli_anim *an, char **files, int nfiles, const char *crowd, uint32_t *model_count)
{
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
    int rc = VKS_EXIT_OK;
    if (!map || !model_of || !fill || !an->models || !an->first || !an->count || !an->order || !an->refs || !an->files) {
        fprintf(stderr, "vkskin: out of memory for a crowd of %u instances\n", s->instance_count);
        rc = VKS_EXIT_RUNTIME;
        goto done;
    }
    for (int f = 0; f < nfiles; f++)
        an->models[mc++] = files[f];
    for (uint32_t k = 0; k < s->model_count; k++) { /* the same file as a FILE is that model */
        map[k] = -1;
        for (uint32_t m = 0; m < mc && map[k] < 0; m++)
            if (!strcmp(an->models[m], s->models[k].path) || vks_output_same_file(an->models[m], s->models[k].path))
                map[k] = (int32_t)m;
        if (map[k] < 0) {
            map[k] = (int32_t)mc;
            an->models[mc++] = s->models[k].path;
        }
    }
    for (uint32_t i = 0; i < s->instance_count; i++) {
        const vks_crowd_entry *e = &s->instances[i];
        if (e->model < 0 && nfiles != 1) {
            char where[256];
            fprintf(stderr, "vkskin: %s: the instance names no model, and %s; name it in the crowd's \"model\"\n",
                    vks_crowd_spec_where(s, i, where, sizeof where),
                    nfiles ? "the command gives several FILEs to take it from" : "the command gives no FILE");
            rc = VKS_EXIT_USAGE;
            goto done;
        }
        model_of[i] = e->model < 0 ? 0 : (uint32_t)map[e->model];
        an->count[model_of[i]]++;
    }
    for (int f = 0; f < nfiles; f++)
        if (!an->count[f]) {
            fprintf(stderr, "vkskin: %s: no instance of %s plays this model (instances that name no model take the "
                            "command's FILE)\n", files[f], crowd);
            rc = VKS_EXIT_USAGE;
            goto done;
        }
    for (uint32_t m = 1; m < mc; m++) /* instances grouped by model, crowd order within each */
        an->first[m] = an->first[m - 1] + an->count[m - 1];
    for (uint32_t i = 0; i < s->instance_count; i++)
        an->order[an->first[model_of[i]] + fill[model_of[i]]++] = i;
    for (uint32_t k = 0; k < s->clip_count && rc == VKS_EXIT_OK; k++) {
        const vks_crowd_source *c = &s->clips[k];
        char where[300];
        vks_crowd_spec_where(s, c->first_instance, where, sizeof where - 8);
        strcat(where, ": clip");
        if (!add_ref(an, c->path, strlen(c->path), c->name, c->text, where))
            rc = VKS_EXIT_INPUT;
    }
    *model_count = mc;
done:
    free(map), free(model_of), free(fill);
    return rc;
}

int vks_cli_anim_load(vks_cli_pose *p, char **files, int nfiles, const vks_read_options *ropt)
{
    p->models = (const char **)files;
    p->model_count = (uint32_t)nfiles;
    if (!p->clip && !p->crowd)
        return VKS_EXIT_OK;
    vks_cli_anim *an = calloc(1, sizeof *an);
    if (!an)
        return VKS_EXIT_RUNTIME;
    p->anim = an;
    an->ropt = ropt ? *ropt : (vks_read_options){0};
    an->ropt.file.max_size = vks_cli_max_input_bytes;
    an->ropt.logger.func = vks_log_stderr;
    an->ropt.clip.duration = p->clip_duration;
    an->ropt.clip.fps = p->clip_fps;
    if (p->clip) {
        const char *hash = strrchr(p->clip, '#');
        size_t n = hash ? (size_t)(hash - p->clip) : strlen(p->clip);
        an->refs = calloc(1, sizeof *an->refs);
        an->files = calloc(1, sizeof *an->files);
        if (!an->refs || !an->files)
            return VKS_EXIT_RUNTIME;
        if (n == 0) {
            fprintf(stderr, "vkskin: --clip %s: expected FILE#name or FILE#index, got no file before '#'\n", p->clip);
            return VKS_EXIT_USAGE;
        }
        return add_ref(an, p->clip, n, hash ? hash + 1 : "", p->clip, "--clip") ? VKS_EXIT_OK : VKS_EXIT_INPUT;
    }
    size_t size = 0;
    char *text = (char *)vks_cli_read_file(p->crowd, &size);
    if (!text)
        return VKS_EXIT_INPUT;
    vks_error err = {0};
    vks_result r = vks_crowd_file_parse(text, size, p->crowd, &an->spec, &err);
    free(text);
    if (r != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, p->crowd, msg, sizeof msg));
        return vks_cli_exit_code(r);
    }
    uint32_t mc = 0;
    int rc = crowd_models(an, files, nfiles, p->crowd, &mc);
    if (rc == VKS_EXIT_OK)
        p->models = an->models, p->model_count = mc;
    return rc;
}

void vks_cli_anim_free(vks_cli_pose *p)
{
    vks_cli_anim *an = p->anim;
    if (!an)
        return;
    for (uint32_t k = 0; k < an->file_count; k++) {
        free(an->files[k].path), free(an->files[k].bytes);
        vks_clip_set_free(an->files[k].set);
    }
    for (uint32_t k = 0; k < an->ref_count; k++)
        free(an->refs[k].label), free(an->refs[k].where);
    vks_crowd_spec_free(an->spec);
    free(an->files), free(an->refs), free(an->models), free(an->order), free(an->first), free(an->count);
    free(an);
    p->anim = NULL;
    p->models = NULL;
    p->model_count = 0;
}

uint32_t vks_cli_model_instances(const vks_cli_pose *p, uint32_t m)
{
    return p->anim && p->anim->spec ? p->anim->count[m] : p->instances;
}

const char **vks_cli_anim_inputs(const vks_cli_pose *p, int *count)
{
    uint32_t files = p->anim ? p->anim->file_count : 0;
    const char **out = p->crowd || files ? malloc((files + 1) * sizeof *out) : NULL;
    int n = 0;
    if (out && p->crowd)
        out[n++] = p->crowd;
    for (uint32_t k = 0; out && k < files; k++)
        out[n++] = p->anim->files[k].path;
    *count = n;
    return out;
}

void vks_cli_note_untouched(const char *where, const char *model, const char *label, const vks_clip_binding *b)
{
    char note[512];
    if (vks_clip_binding_note(b, label, note, sizeof note))
        fprintf(stderr, "vkskin: %s%s%s: %s\n", where ? where : "", where ? ": " : "", model, note);
}

/* ---- one model's instances ---- */

/* Clip source k bound to the poser's skin: a note for tracks that drive nothing here, an
 * error when no track does. */
static int bind_ref(vks_cli_poser *ps, const vks_cli_anim *an, uint32_t k, const char *model)
{
    const vks_cli_clip_ref *r = &an->refs[k];
    const vks_cli_clip_file *f = &an->files[r->file];
    const vks_clip *clip;
    vks_error err = {0};
    char msg[512];
    if (!f->set) { /* pose JSON: its node names are this model's */
        if (vks_pose_json_clip_read(ps->skin, &an->ropt, f->bytes, f->size, &ps->json_sets[k], &err) != VKS_OK) {
            fprintf(stderr, "vkskin: %s (the clip %s on the model %s)\n", vks_error_format(&err, f->path, msg, sizeof msg),
                    r->label, model);
            return 0;
        }
        clip = &ps->json_sets[k]->clips[0];
    } else {
        clip = &f->set->clips[r->clip];
    }
    if (vks_clip_bind(clip, ps->skin, &ps->bindings[k], &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s: %s\n", model, vks_error_format(&err, NULL, msg, sizeof msg));
        return 0;
    }
    const vks_clip_binding *b = &ps->bindings[k];
    uint32_t morph_meshes = 0; /* meshes whose morph weights the clip drives */
    if (vks_clip_morph_meshes(clip, ps->skin, &morph_meshes, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s: %s\n", model, vks_error_format(&err, NULL, msg, sizeof msg));
        return 0;
    }
    if (morph_meshes > ps->morph_meshes)
        ps->morph_meshes = morph_meshes;
    if (b->bound_tracks == 0 && morph_meshes == 0) {
        fprintf(stderr, "vkskin: %s: the clip %s drives none of the model's nodes nor morph weights: %s\n", model,
                r->label,
                clip->track_count || clip->morph_track_count
                    ? "no track matches a node by tag, animation index or name, nor a morph track a mesh's node"
                    : "it has no tracks");
        return 0;
    }
    if (b->unmatched_tracks) {
        char names[200] = "";
        size_t at = 0;
        char safe[VKS_CLI_NAME_MAX]; /* a name from the file: escaped (cli_text.h) */
        for (uint32_t u = 0; u < b->unmatched_tracks && u < 4 && at + 1 < sizeof names; u++)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s\"%s\"", u ? ", " : "",
                                   vks_cli_name(clip->tracks[b->unmatched[u]].node_name, safe, sizeof safe));
        fprintf(stderr, "vkskin: %s: note: %u of the %u tracks of the clip %s drive no node of this model and are "
                        "ignored (%s%s)\n", model, b->unmatched_tracks, clip->track_count, r->label, names,
                b->unmatched_tracks > 4 ? ", ..." : "");
    }
    vks_cli_note_untouched(NULL, model, r->label, b);
    ps->clips[k] = clip;
    return 1;
}

/* The crowd's binding for this model's poser (the library makes its instances of the crowd's
 * entries by it): every model of the crowd is this one, as only its instances are made here;
 * the clips are numbered as the run's clip sources, each bound one's cycle its own. */
static int crowd_binding(vks_cli_poser *ps, const char *model)
{
    vks_crowd_binding *b = &ps->binding;
    uint32_t *models = calloc(ps->spec->model_count + 1, sizeof *models);
    int32_t *clips = malloc((ps->ref_count + 1) * sizeof *clips);
    vks_cycle *cycles = malloc((ps->ref_count + 1) * sizeof *cycles);
    const vks_skin **skins = malloc(sizeof *skins);
    const char **names = malloc(sizeof *names);
    b->models = models, b->clips = clips, b->clip_cycles = cycles, b->skins = skins, b->model_names = names;
    if (!models || !clips || !cycles || !skins || !names) {
        fprintf(stderr, "vkskin: %s: out of memory for %u instances\n", model, ps->instances);
        return 0;
    }
    skins[0] = ps->skin, names[0] = model;
    for (uint32_t k = 0; k < ps->ref_count; k++) {
        clips[k] = ps->clips[k] ? (int32_t)k : -1;
        cycles[k] = ps->clips[k] ? ps->clips[k]->cycle : VKS_CYCLE_LOOP;
    }
    return 1;
}

/* Instance j: the library's instance of its crowd entry (layers, masks by node name, additive
 * references, cycles, transition, root motion, root) as the CPU engines play it. */
static int crowd_play(vks_cli_poser *ps, uint32_t j)
{
    vks_instance in;
    vks_error err = {0};
    if (vks_crowd_spec_instance(ps->spec, ps->entries[j], &ps->binding, &in, &err) != VKS_OK ||
        vks_instance_clip_play(&in, ps->clips, ps->bindings, ps->ref_count, &ps->plays[j],
                               ps->layers ? &ps->layers[j] : NULL, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", err.msg); /* the entry, its layer, the model and the node */
        return 0;
    }
    if (ps->roots)
        ps->roots[j] = in.root;
    return 1;
}

/* Which clip sources this model's instances play (an additive layer's reference too), and
 * whether any is layered or stands off the origin. Returns 0 when out of memory. */
static int crowd_uses(vks_cli_poser *ps, uint8_t *used)
{
    const vks_crowd_spec *spec = ps->spec;
    vks_affine id = vks_affine_identity();
    for (uint32_t j = 0; j < ps->instances; j++) {
        const vks_crowd_entry *e = &spec->instances[ps->entries[j]];
        if (e->clip >= 0)
            used[e->clip] = 1;
        for (uint32_t k = 0; k < e->layer_count; k++) {
            const vks_crowd_entry_layer *y = &spec->layers[e->first_layer + k];
            used[y->clip] = 1;
            if (y->reference >= 0) /* an additive layer's reference pose is sampled too */
                used[y->reference] = 1;
        }
        if (e->layer_count && !ps->layers && !(ps->layers = calloc(ps->instances, sizeof *ps->layers)))
            return 0;
        if (!ps->roots && memcmp(&e->root, &id, sizeof id) && !(ps->roots = calloc(ps->instances, sizeof *ps->roots)))
            return 0;
    }
    return 1;
}

int vks__cli_poser_clips(vks_cli_poser *ps, const vks_cli_pose *opt)
{
    const vks_cli_anim *an = opt->anim;
    const vks_crowd_spec *spec = an->spec;
    uint32_t m = ps->model, n = spec ? an->count[m] : opt->instances;
    const char *model = an->models ? an->models[m] : opt->models[m];
    ps->instances = n;
    ps->ref_count = an->ref_count;
    ps->spec = spec;
    ps->entries = spec ? an->order + an->first[m] : NULL;
    ps->clips = calloc(an->ref_count + 1, sizeof *ps->clips);
    ps->bindings = calloc(an->ref_count + 1, sizeof *ps->bindings);
    ps->json_sets = calloc(an->ref_count + 1, sizeof *ps->json_sets);
    uint8_t *used = calloc(an->ref_count + 1, 1);
    uint32_t plays = spec || opt->stagger ? n : 1;
    ps->plays = calloc(plays, sizeof *ps->plays);
    int ok = ps->clips && ps->bindings && ps->json_sets && used && ps->plays && (!spec || crowd_uses(ps, used));
    if (!ok)
        fprintf(stderr, "vkskin: %s: out of memory for %u instances\n", model, n);
    if (!spec)
        used[0] = 1;
    for (uint32_t k = 0; ok && k < an->ref_count; k++)
        if (used[k])
            ok = bind_ref(ps, an, k, model);
    if (ok && spec)
        ok = crowd_binding(ps, model);
    for (uint32_t j = 0; ok && j < plays; j++) {
        vks_clip_play *pl = &ps->plays[j];
        if (spec) {
            ok = crowd_play(ps, j);
        } else { /* --clip: instance j of N starts j / N of the way through with --stagger */
            pl->clip = ps->clips[0], pl->binding = &ps->bindings[0];
            pl->start = opt->stagger ? (float)((double)j * pl->clip->duration / n) : 0.0f;
            pl->speed = opt->clip_speed;
            pl->cycle = opt->clip_cycle >= 0 ? opt->clip_cycle : (int)pl->clip->cycle;
        }
    }
    free(used);
    ps->source.kind = VKS_POSE_CLIP;
    ps->source.layers = ps->layers;
    ps->source.plays = ps->plays;
    ps->source.play_count = plays;
    return ok;
}
