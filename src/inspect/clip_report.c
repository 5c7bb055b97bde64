/* Inspecting clip files (vkskin inspect on a .kf, a .cskla, a glTF's animations): every
 * clip's name, duration, frame rate, cycle, space, events and tracks (node, tag or index, each
 * channel's key count and interpolation), and, given a model, how the clip binds to that skin:
 * tracks that bind, tracks that name no node, nodes no track drives. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/text_name.h"
#include "inspect/inspect_internal.h"
#include "vkskin/clip_formats.h"
#include "vkskin/pose.h"

static const char *const interp_names[] = {"step", "linear", "hermite", "bspline"};
static const char *const cycle_names[] = {"loop", "clamp", "mirror", "reset"};
static const char *const space_names[] = {"local", "model-delta", "parent-delta"};

static const char *pick(const char *const *names, size_t n, unsigned v) { return v < n ? names[v] : "?"; }
#define PICK(names, v) pick(names, sizeof names / sizeof names[0], (unsigned)(v))

typedef struct channel_view {
    const char *name;
    const vks_curve *c;
} channel_view;

static int channels(const vks_track *tr, channel_view out[6])
{
    const channel_view all[6] = {{"translation", &tr->translation}, {"rotation", &tr->rotation},
                                 {"euler_x", &tr->euler[0]},        {"euler_y", &tr->euler[1]},
                                 {"euler_z", &tr->euler[2]},        {"scale", &tr->scale}};
    int n = 0;
    for (int k = 0; k < 6; k++)
        if (all[k].c->key_count)
            out[n++] = all[k];
    return n;
}

static int track_bound(const vks_clip_binding *b, uint32_t t)
{
    for (uint32_t u = 0; u < b->unmatched_tracks; u++)
        if (b->unmatched[u] == (int32_t)t)
            return 0;
    return 1;
}

static void track_label(const vks_track *tr, char *buf, size_t cap)
{
    char name[VKS__NAME_MAX];
    int at = snprintf(buf, cap, "\"%s\"", vks__text_name(tr->node_name, name, sizeof name));
    if (tr->has_tag && at >= 0 && (size_t)at < cap)
        at += snprintf(buf + at, cap - (size_t)at, " tag %d", (int)tr->node_tag);
    if (tr->has_index && at >= 0 && (size_t)at < cap)
        snprintf(buf + at, cap - (size_t)at, " index %d", (int)tr->node_index);
}

static void print_binding(FILE *f, const vks_clip *clip, const vks_skin *skin, const char *model, const vks_clip_binding *b)
{
    fprintf(f, "    on %s: %u of %u tracks bind, %u name no node, %u of %u nodes keep their bind pose\n", model,
           b->bound_tracks, clip->track_count, b->unmatched_tracks, b->untouched_nodes, skin->node_count);
    for (uint32_t u = 0; u < b->unmatched_tracks && u < 16; u++) {
        char label[VKS__NAME_MAX + 64];
        track_label(&clip->tracks[b->unmatched[u]], label, sizeof label);
        fprintf(f, "      unmatched track %d %s\n", (int)b->unmatched[u], label);
    }
}

static void print_clip(FILE *f, const vks_clip *clip, uint32_t index, const vks_skin *skin, const char *model,
                       const vks_clip_binding *b)
{
    char a[VKS__NAME_MAX], v[VKS__NAME_MAX]; /* names as data: escaped (cli_text.h) */
    fprintf(f, "  clip %u \"%s\": %.4g s", index, vks__text_name(clip->name, a, sizeof a), (double)clip->duration);
    if (clip->fps > 0)
        fprintf(f, " (%g fps)", (double)clip->fps);
    fprintf(f, ", cycle %s, space %s, %u tracks, %u events", PICK(cycle_names, clip->cycle),
           PICK(space_names, clip->space), clip->track_count, clip->event_count);
    if (clip->motion[0] != 0 || clip->motion[1] != 0 || clip->motion[2] != 0)
        fprintf(f, ", motion (%g, %g, %g)", (double)clip->motion[0], (double)clip->motion[1], (double)clip->motion[2]);
    if (clip->root_track >= 0)
        fprintf(f, ", root motion on track %d", (int)clip->root_track);
    fprintf(f, "\n");
    for (uint32_t e = 0; e < clip->event_count; e++)
        fprintf(f, "    event %.4g s \"%s\"%s%s%s\n", (double)clip->events[e].time,
               vks__text_name(clip->events[e].name, a, sizeof a), clip->events[e].value[0] ? " = \"" : "",
               vks__text_name(clip->events[e].value, v, sizeof v), clip->events[e].value[0] ? "\"" : "");
    for (uint32_t t = 0; t < clip->track_count; t++) {
        char label[VKS__NAME_MAX + 64];
        track_label(&clip->tracks[t], label, sizeof label);
        fprintf(f, "    track %u %s:", t, label);
        channel_view cv[6];
        int n = channels(&clip->tracks[t], cv);
        for (int k = 0; k < n; k++)
            fprintf(f, "%s %s %u keys %s", k ? "," : "", cv[k].name, cv[k].c->key_count, PICK(interp_names, cv[k].c->interp));
        fprintf(f, "%s\n", n ? "" : " no keys");
    }
    if (skin)
        print_binding(f, clip, skin, model, b);
}

static cJSON *json_clip(const vks_clip *clip, uint32_t index, const vks_skin *skin, const char *model,
                        const vks_clip_binding *b)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "index", index);
    cJSON_AddStringToObject(o, "name", clip->name);
    cJSON_AddNumberToObject(o, "duration", clip->duration);
    cJSON_AddNumberToObject(o, "fps", clip->fps);
    cJSON_AddStringToObject(o, "cycle", PICK(cycle_names, clip->cycle));
    cJSON_AddStringToObject(o, "space", PICK(space_names, clip->space));
    cJSON_AddNumberToObject(o, "root_track", clip->root_track);
    cJSON *mo = cJSON_AddArrayToObject(o, "motion");
    for (int k = 0; k < 3; k++)
        cJSON_AddItemToArray(mo, cJSON_CreateNumber(clip->motion[k]));
    cJSON *ev = cJSON_AddArrayToObject(o, "events");
    for (uint32_t e = 0; e < clip->event_count; e++) {
        cJSON *je = cJSON_CreateObject();
        cJSON_AddNumberToObject(je, "time", clip->events[e].time);
        cJSON_AddStringToObject(je, "name", clip->events[e].name);
        cJSON_AddStringToObject(je, "value", clip->events[e].value);
        cJSON_AddItemToArray(ev, je);
    }
    cJSON *tracks = cJSON_AddArrayToObject(o, "tracks");
    for (uint32_t t = 0; t < clip->track_count; t++) {
        const vks_track *tr = &clip->tracks[t];
        cJSON *jt = cJSON_CreateObject();
        cJSON_AddStringToObject(jt, "node", tr->node_name);
        if (tr->has_tag)
            cJSON_AddNumberToObject(jt, "tag", tr->node_tag);
        if (tr->has_index)
            cJSON_AddNumberToObject(jt, "index", tr->node_index);
        channel_view cv[6];
        int n = channels(tr, cv);
        for (int k = 0; k < n; k++) {
            cJSON *jc = cJSON_AddObjectToObject(jt, cv[k].name);
            cJSON_AddNumberToObject(jc, "keys", cv[k].c->key_count);
            cJSON_AddStringToObject(jc, "interpolation", PICK(interp_names, cv[k].c->interp));
        }
        if (skin)
            cJSON_AddBoolToObject(jt, "bound", track_bound(b, t));
        cJSON_AddItemToArray(tracks, jt);
    }
    if (skin) {
        cJSON *jb = cJSON_AddObjectToObject(o, "binding");
        cJSON_AddStringToObject(jb, "model", model);
        cJSON_AddNumberToObject(jb, "bound_tracks", b->bound_tracks);
        cJSON_AddNumberToObject(jb, "unmatched_tracks", b->unmatched_tracks);
        cJSON_AddNumberToObject(jb, "untouched_nodes", b->untouched_nodes);
        cJSON *un = cJSON_AddArrayToObject(jb, "untouched");
        for (uint32_t n = 0; n < skin->node_count; n++)
            if (b->track_of_node[n] < 0)
                cJSON_AddItemToArray(un, cJSON_CreateString(skin->nodes[n].name));
    }
    return o;
}

/* Whether the file's name is a clip format's and no model format's (a .kf, a .cskla): of two
 * readers that both refuse it, the clip reader's error is the one that says what is wrong. */
static int named_as_clip(const char *path)
{
    return vks_detect_clip_format(NULL, 0, path, NULL) && !vks_detect_format(NULL, 0, path, NULL);
}

int vks_inspect_is_clip_file(const char *path, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                             int have_model, int want_clips)
{
    vks_reader_fn model = vks_detect_format(bytes, size, path, NULL);
    vks_clip_reader_fn clips = vks_detect_clip_format(bytes, size, path, NULL);
    int clip = clips != NULL;
    if (model && clips && !want_clips) {
        /* both readers take it (a NIF, NW4C XML): with a model to bind to, clips when it holds
           some, else a model when it is one, else what its name says; without, clips when it
           holds no model */
        vks_skin *s = NULL;
        vks_clip_set *set = NULL;
        vks_error err = {0};
        vks_read_options ro = *opt;
        ro.gltf.path = path; /* a .gltf's external buffers sit beside it */
        if (have_model) {
            clip = clips(&ro, bytes, size, &set, &err) == VKS_OK ||
                   (model(&ro, bytes, size, &s, &err) != VKS_OK && named_as_clip(path));
        } else {
            clip = model(&ro, bytes, size, &s, &err) != VKS_OK;
            /* a glTF that is neither (no skinned mesh, no animation): its model error says more */
            if (clip && model == vks_gltf_read)
                clip = clips(&ro, bytes, size, &set, &err) == VKS_OK;
        }
        vks_skin_free(s);
        vks_clip_set_free(set);
    } else if (!clip) {
        clip = !model && have_model && size && bytes[0] == '{';
    }
    return clip;
}

/* Binds each clip of in->set to in->model; a clip that cannot bind is said and left out. */
static vks_result bind_clips(vks_inspect *in, const vks_logger *log, vks_error *err)
{
    uint32_t n = in->set->clip_count;
    in->bindings = calloc(n ? n : 1, sizeof *in->bindings);
    in->bound = calloc(n ? n : 1, 1);
    if (!in->bindings || !in->bound)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "inspect", "out of memory for %u clips", n);
    for (uint32_t c = 0; c < n; c++) {
        vks_error bind_err = {0};
        in->bound[c] = vks_clip_bind(&in->set->clips[c], in->model, &in->bindings[c], &bind_err) == VKS_OK;
        if (!in->bound[c]) {
            vks__log(log, VKS_LOG_WARNING, "%s: clip %u: %s", in->path, c, bind_err.msg);
            in->exit_code = 5; /* vkskin's runtime exit: the report lacks this clip */
        }
    }
    return VKS_OK;
}

vks_result vks_inspect_clip_bytes(const char *path, const uint8_t *bytes, size_t size,
                                  const vks_inspect_options *opt, vks_inspect **out, vks_error *err)
{
    const vks_inspect_options none = {0};
    opt = opt ? opt : &none;
    vks_inspect *in = vks__inspect_new(path, err);
    if (!in)
        return err ? err->code : VKS_ERR_NOMEM;
    vks_clip_reader_fn reader = vks_detect_clip_format(bytes, size, path, NULL);
    vks_read_options ro = opt->read;
    ro.gltf.path = path; /* a .gltf's external buffers sit beside it */
    const vks_skin *skin = opt->model;
    vks_result r = reader ? reader(&ro, bytes, size, &in->set, err)
                   : skin ? vks_pose_json_clip_read(skin, &opt->read, bytes, size, &in->set, err)
                          : vks_error_set(err, VKS_ERR_UNSUPPORTED, 0, "file", "not a clip file vkskin reads");
    if (r == VKS_OK && skin) {
        in->model = skin;
        in->model_name = strdup(opt->model_name ? opt->model_name : "model");
        r = in->model_name ? bind_clips(in, opt->logger.func ? &opt->logger : &opt->read.logger, err)
                           : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "inspect", "out of memory");
    }
    if (r != VKS_OK) {
        vks_inspect_free(in);
        return r;
    }
    *out = in;
    return VKS_OK;
}

void vks__clips_text(FILE *f, const vks_inspect *in)
{
    const vks_clip_set *set = in->set;
    fprintf(f, "%s: %s %s, %u clip%s\n", in->path, set->format, set->format_detail, set->clip_count,
            set->clip_count == 1 ? "" : "s");
    for (uint32_t c = 0; c < set->clip_count; c++)
        if (!in->model || in->bound[c])
            print_clip(f, &set->clips[c], c, in->model, in->model_name, in->model ? &in->bindings[c] : NULL);
}

cJSON *vks__clips_json(const vks_inspect *in)
{
    const vks_clip_set *set = in->set;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", in->path);
    cJSON_AddStringToObject(o, "format", set->format);
    cJSON_AddStringToObject(o, "version", set->format_detail);
    cJSON *clips = cJSON_AddArrayToObject(o, "clips");
    for (uint32_t c = 0; c < set->clip_count; c++)
        if (!in->model || in->bound[c])
            cJSON_AddItemToArray(clips, json_clip(&set->clips[c], c, in->model, in->model_name,
                                                  in->model ? &in->bindings[c] : NULL));
    return o;
}
