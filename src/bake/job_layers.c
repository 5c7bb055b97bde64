/* A bake job that names layers (docs/baking.md "Batch baking", issue 27): its clips are the layer
 * clips of one crowd entry, and its frames the layered pose at each frame's time, as
 * `deform --crowd` plays that entry. The manifest's keys are parsed by the crowd file's own
 * parser (job_manifest.c), so they mean what they mean there. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "bake/job_internal.h"
#include "vkskin/crowd_file.h"
#include "vkskin/instance.h"

/* The job's layers as `deform --crowd` makes them of a crowd entry: the library's instance of
 * it (vks_crowd_spec_instance: each clip's own cycle by default, masks by node name, additive
 * references) played on the CPU (vks_instance_clip_play), every layer's play pointing into
 * clip_of and l->bindings (one per clips[] spec). A mask the model lacks is said as the job's. */
static int layers_of_entry(const vks_bake_job *job, vks_bake_loaded *l, const vks_clip *const *clip_of)
{
    uint32_t model = 0;
    int32_t *clips = malloc((job->clip_count + 1) * sizeof *clips);
    vks_cycle *cycles = malloc((job->clip_count + 1) * sizeof *cycles);
    const vks_skin *skins[1] = {l->skin};
    const char *names[1] = {job->model_given};
    vks_error err = {0};
    vks_result r = clips && cycles ? VKS_OK : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
    for (uint32_t s = 0; r == VKS_OK && s < job->clip_count; s++)
        clips[s] = (int32_t)s, cycles[s] = clip_of[s]->cycle;
    vks_crowd_binding b = {&model, 0, skins, clips, cycles, names};
    vks_instance in;
    vks_clip_play play;
    if (r == VKS_OK)
        r = vks_crowd_spec_instance(job->layers, 0, &b, &in, &err);
    if (r == VKS_OK)
        r = vks_instance_clip_play(&in, clip_of, l->bindings, job->clip_count, &play, l->layers, &err);
    if (r != VKS_OK) { /* the entry is the job's "layers": named so, not as a crowd file's */
        char where[256];
        size_t n = strlen(vks_crowd_spec_where(job->layers, 0, where, sizeof where));
        const char *what = !strncmp(err.msg, where, n) && err.msg[n] == ':' ? err.msg + n + 2 : err.msg;
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s.layers: %s", job->where, what);
    }
    free(clips), free(cycles);
    return r == VKS_OK;
}

int vks__bake_load_layers(const vks_bake_job *job, vks_bake_loaded *l)
{
    const vks_crowd_spec *spec = job->layers;
    const vks_crowd_entry *e = &spec->instances[0];
    l->set_count = job->clip_count;
    l->sets = calloc(job->clip_count, sizeof *l->sets);
    l->bindings = calloc(job->clip_count, sizeof *l->bindings);
    l->layers = calloc(1, sizeof *l->layers);
    l->clips = calloc(1, sizeof *l->clips);
    if (!l->sets || !l->bindings || !l->layers || !l->clips) {
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: no memory", job->where);
        return 0;
    }
    const vks_clip **clip_of = calloc(job->clip_count, sizeof *clip_of);
    if (!clip_of)
        return 0;
    int ok = 1;
    for (uint32_t s = 0; ok && s < job->clip_count; s++) {
        const vks_bake_clip_spec *cs = &job->clips[s];
        if (!(l->sets[s] = vks__bake_read_clips(cs, l->skin))) {
            ok = 0;
            break;
        }
        int32_t k = vks_clip_set_find(l->sets[s], cs->name);
        if (k < 0) {
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %s has no clip \"%s\" (it has %u; or give an index, #0 to #%u)", cs->where,
                    cs->file_given, cs->name, l->sets[s]->clip_count,
                    l->sets[s]->clip_count ? l->sets[s]->clip_count - 1 : 0);
            ok = 0;
            break;
        }
        clip_of[s] = &l->sets[s]->clips[k];
        vks_error err = {0};
        if (vks_clip_bind(clip_of[s], l->skin, &l->bindings[s], &err) != VKS_OK || !l->bindings[s].bound_tracks) {
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: clip \"%s\" of %s drives no node of %s", cs->where, clip_of[s]->name,
                    cs->file_given, job->model_given);
            ok = 0;
        }
    }
    ok = ok && layers_of_entry(job, l, clip_of);
    if (ok) {
        /* one baked clip: frame time from 0 (or range's start), layer 1's clip length by default */
        const vks_crowd_entry_layer *y0 = &spec->layers[e->first_layer];
        vks_bake_clip *c = &l->clips[0];
        l->clip_count = 1;
        c->clip = clip_of[y0->clip];
        c->file = job->clips[y0->clip].file_given;
        c->index = (uint32_t)(c->clip - l->sets[y0->clip]->clips);
        c->label = strdup("layers");
        c->t0 = job->has_range ? job->range[0] : 0.0f;
        c->t1 = job->has_range ? job->range[1] : c->clip->duration;
        double n = (double)(c->t1 - c->t0) * job->fps + 1e-3;
        n = (double)(long long)n + 1.0;
        if (!c->label || n > 1e6) {
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: the layers would make %.0f frames (limit 1000000)", job->where, n);
            ok = 0;
        } else {
            c->frames = (uint32_t)n;
            l->frames = c->frames;
        }
    }
    free(clip_of);
    return ok;
}

/* A float as its shortest decimal (0.6, not 0.600000023841858): what the manifest wrote. */
static double short_decimal(float v)
{
    char b[32];
    snprintf(b, sizeof b, "%.7g", (double)v);
    return strtod(b, NULL);
}

void vks__bake_layers_sidecar(cJSON *clip, const vks_bake_job *job, const vks_bake_loaded *l)
{
    static const char *const cycles[4] = {"loop", "clamp", "mirror", "reset"};
    static const char *const fades[3] = {"none", "out", "in"};
    const vks_clip_layers *ly = l->layers;
    cJSON *a = cJSON_AddArrayToObject(clip, "layers");
    int faded = 0;
    for (uint32_t k = 0; a && k < ly->count; k++) {
        const vks_clip_layer *y = &ly->layer[k];
        uint32_t s = (uint32_t)(y->play.binding - l->bindings);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", job->clips[s].file_given);
        cJSON_AddNumberToObject(o, "index", (double)(y->play.clip - l->sets[s]->clips));
        cJSON_AddNumberToObject(o, "start", short_decimal(y->play.start));
        cJSON_AddNumberToObject(o, "speed", short_decimal(y->play.speed));
        cJSON_AddStringToObject(o, "cycle", (unsigned)y->play.cycle < 4 ? cycles[y->play.cycle] : "loop");
        cJSON_AddNumberToObject(o, "weight", short_decimal(y->weight));
        cJSON_AddStringToObject(o, "blend", y->mode == VKS_LAYER_ADDITIVE ? "additive" : "normal");
        cJSON_AddStringToObject(o, "fade", (unsigned)y->fade < 3 ? fades[y->fade] : "none");
        if (y->mask)
            cJSON_AddStringToObject(o, "mask", l->skin->nodes[y->mask - 1].name);
        if (y->ref_clip || y->ref_time != 0) { /* only when given: other bakes' sidecars stay as they were */
            cJSON *r = cJSON_AddObjectToObject(o, "reference");
            uint32_t rs = y->ref_clip ? (uint32_t)(y->ref_binding - l->bindings) : s;
            const vks_clip *rc = y->ref_clip ? y->ref_clip : y->play.clip;
            cJSON_AddStringToObject(r, "file", job->clips[rs].file_given);
            cJSON_AddNumberToObject(r, "index", (double)(rc - l->sets[rs]->clips));
            cJSON_AddNumberToObject(r, "time", short_decimal(y->ref_time));
        }
        faded |= y->fade != VKS_FADE_NONE;
        cJSON_AddItemToArray(a, o);
    }
    int rm = vks__bake_root_motion_of(job);
    if (rm) { /* in place: what was taken out, and where it is */
        cJSON *o = cJSON_AddObjectToObject(clip, "root_motion");
        char *name = vks__bake_root_motion_name(job, NULL);
        cJSON_AddStringToObject(o, "up", VKS_ROOT_MOTION_UP(rm) == VKS_ROOT_MOTION_Z_UP ? "z" : "y");
        cJSON_AddBoolToObject(o, "yaw", (rm & VKS_ROOT_MOTION_YAW) != 0);
        int32_t node = vks_clip_layers_motion_node(ly, l->skin);
        if (node >= 0)
            cJSON_AddStringToObject(o, "motion_node", l->skin->nodes[node].name);
        if (name)
            cJSON_AddStringToObject(o, "file", name);
        free(name);
    }
    if (faded) {
        cJSON *t = cJSON_AddObjectToObject(clip, "transition");
        cJSON_AddNumberToObject(t, "start", short_decimal(ly->fade_start));
        cJSON_AddNumberToObject(t, "duration", ly->fade_duration > 0 ? short_decimal(ly->fade_duration) : 0);
    }
}
