/* The clip part of the poser (poser.h): the clips a model's instances play, bound to its skin (a
 * note for tracks that drive nothing of it; an error when none drives anything), and each
 * instance's play, layers and root, made by the library's crowd entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/text_name.h"
#include "pose/poser_internal.h"

/* ---- one model's instances ---- */

/* Clip source k bound to the poser's skin: a note for tracks that drive nothing here, an
 * error when no track does. */
static int bind_ref(vks_poser *ps, const vks_pose_plan *plan, uint32_t k, const char *model, vks_error *out)
{
    const struct vks__pose_clips *an = plan->clips;
    const vks__pose_clip_ref *r = &an->refs[k];
    const vks__pose_clip_file *f = &an->files[r->file];
    const vks_clip *clip;
    vks_error err = {0};
    char msg[512];
    if (!f->set) { /* pose JSON: its node names are this model's */
        if (vks_pose_json_clip_read(ps->skin, &plan->read, f->bytes, f->size, &ps->json_sets[k], &err) != VKS_OK) {
            vks__poser_fail(&ps->logger, out, err.code, "%s (the clip %s on the model %s)",
                            vks_error_format(&err, f->path, msg, sizeof msg),
                    r->label, model);
            return 0;
        }
        clip = &ps->json_sets[k]->clips[0];
    } else {
        clip = &f->set->clips[r->clip];
    }
    if (vks_clip_bind(clip, ps->skin, &ps->bindings[k], &err) != VKS_OK) {
        vks__poser_fail(&ps->logger, out, err.code, "%s: %s", model, vks_error_format(&err, NULL, msg, sizeof msg));
        return 0;
    }
    const vks_clip_binding *b = &ps->bindings[k];
    uint32_t morph_meshes = 0; /* meshes whose morph weights the clip drives */
    if (vks_clip_morph_meshes(clip, ps->skin, &morph_meshes, &err) != VKS_OK) {
        vks__poser_fail(&ps->logger, out, err.code, "%s: %s", model, vks_error_format(&err, NULL, msg, sizeof msg));
        return 0;
    }
    if (morph_meshes > ps->morph_meshes)
        ps->morph_meshes = morph_meshes;
    if (b->bound_tracks == 0 && morph_meshes == 0) {
        vks__poser_fail(&ps->logger, out, VKS_ERR_INVALID,
                        "%s: the clip %s drives none of the model's nodes nor morph weights: %s", model,
                r->label,
                clip->track_count || clip->morph_track_count
                    ? "no track matches a node by tag, animation index or name, nor a morph track a mesh's node"
                    : "it has no tracks");
        return 0;
    }
    if (b->unmatched_tracks) {
        char names[200] = "";
        size_t at = 0;
        char safe[VKS__NAME_MAX]; /* a name from the file: escaped  */
        for (uint32_t u = 0; u < b->unmatched_tracks && u < 4 && at + 1 < sizeof names; u++)
            at += (size_t)snprintf(names + at, sizeof names - at, "%s\"%s\"", u ? ", " : "",
                                   vks__text_name(clip->tracks[b->unmatched[u]].node_name, safe, sizeof safe));
        vks__log(&ps->logger, VKS_LOG_INFO, "%s: note: %u of the %u tracks of the clip %s drive no node of this "
                 "model and are ignored (%s%s)", model, b->unmatched_tracks, clip->track_count, r->label, names,
                b->unmatched_tracks > 4 ? ", ..." : "");
    }
    char note[512]; /* the nodes the clip leaves at their bind pose */
    if (vks_clip_binding_note(b, r->label, note, sizeof note))
        vks__log(&ps->logger, VKS_LOG_INFO, "%s: %s", model, note);
    ps->clips[k] = clip;
    return 1;
}

/* The crowd's binding for this model's poser (the library makes its instances of the crowd's
 * entries by it): every model of the crowd is this one, as only its instances are made here;
 * the clips are numbered as the run's clip sources, each bound one's cycle its own. */
static int crowd_binding(vks_poser *ps, const char *model, vks_error *out)
{
    vks_crowd_binding *b = &ps->binding;
    uint32_t *models = calloc(ps->spec->model_count + 1, sizeof *models);
    int32_t *clips = malloc((ps->ref_count + 1) * sizeof *clips);
    vks_cycle *cycles = malloc((ps->ref_count + 1) * sizeof *cycles);
    const vks_skin **skins = malloc(sizeof *skins);
    const char **names = malloc(sizeof *names);
    b->models = models, b->clips = clips, b->clip_cycles = cycles, b->skins = skins, b->model_names = names;
    if (!models || !clips || !cycles || !skins || !names) {
        vks__poser_fail(&ps->logger, out, VKS_ERR_NOMEM, "%s: out of memory for %u instances", model, ps->instances);
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
static int crowd_play(vks_poser *ps, uint32_t j, vks_error *out)
{
    vks_instance in;
    vks_error err = {0};
    if (vks_crowd_spec_instance(ps->spec, ps->entries[j], &ps->binding, &in, &err) != VKS_OK ||
        vks_instance_clip_play(&in, ps->clips, ps->bindings, ps->ref_count, &ps->plays[j],
                               ps->layers ? &ps->layers[j] : NULL, &err) != VKS_OK) {
        vks__poser_fail(&ps->logger, out, err.code, "%s", err.msg); /* the entry, its layer, the model and the node */
        return 0;
    }
    if (ps->roots)
        ps->roots[j] = in.root;
    return 1;
}

/* Which clip sources this model's instances play (an additive layer's reference too), and
 * whether any is layered or stands off the origin. Returns 0 when out of memory. */
static int crowd_uses(vks_poser *ps, uint8_t *used)
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

vks_result vks__poser_clips(vks_poser *ps, const vks_pose_plan *plan, vks_error *err)
{
    const struct vks__pose_clips *an = plan->clips;
    const vks_pose_options *opt = &plan->options;
    const vks_crowd_spec *spec = an->spec;
    uint32_t m = ps->model, n = spec ? an->count[m] : opt->instances;
    const char *model = an->models ? an->models[m] : plan->models[m];
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
        vks__poser_fail(&ps->logger, err, VKS_ERR_NOMEM, "%s: out of memory for %u instances", model, n);
    if (!spec)
        used[0] = 1;
    for (uint32_t k = 0; ok && k < an->ref_count; k++)
        if (used[k])
            ok = bind_ref(ps, plan, k, model, err);
    if (ok && spec)
        ok = crowd_binding(ps, model, err);
    for (uint32_t j = 0; ok && j < plays; j++) {
        vks_clip_play *pl = &ps->plays[j];
        if (spec) {
            ok = crowd_play(ps, j, err);
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
    return ok ? VKS_OK : err && err->code != VKS_OK ? err->code : VKS_ERR_INVALID;
}
