/* vkskin inspect on clip files: every clip's name, duration, frame rate, cycle, space, events
 * and tracks (node, tag or index, each channel's key count and interpolation), and, given
 * --model, how the clip binds to that skin: tracks that bind, tracks that name no node, nodes
 * no track drives. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inspect_clip.h"
#include "cli_text.h"

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
    char name[VKS_CLI_NAME_MAX];
    int at = snprintf(buf, cap, "\"%s\"", vks_cli_name(tr->node_name, name, sizeof name));
    if (tr->has_tag && at >= 0 && (size_t)at < cap)
        at += snprintf(buf + at, cap - (size_t)at, " tag %d", (int)tr->node_tag);
    if (tr->has_index && at >= 0 && (size_t)at < cap)
        snprintf(buf + at, cap - (size_t)at, " index %d", (int)tr->node_index);
}

static void print_binding(const vks_clip *clip, const vks_skin *skin, const char *model, const vks_clip_binding *b)
{
    printf("    on %s: %u of %u tracks bind, %u name no node, %u of %u nodes keep their bind pose\n", model,
           b->bound_tracks, clip->track_count, b->unmatched_tracks, b->untouched_nodes, skin->node_count);
    for (uint32_t u = 0; u < b->unmatched_tracks && u < 16; u++) {
        char label[VKS_CLI_NAME_MAX + 64];
        track_label(&clip->tracks[b->unmatched[u]], label, sizeof label);
        printf("      unmatched track %d %s\n", (int)b->unmatched[u], label);
    }
}

static void print_clip(const vks_clip *clip, uint32_t index, const vks_skin *skin, const char *model,
                       const vks_clip_binding *b)
{
    char a[VKS_CLI_NAME_MAX], v[VKS_CLI_NAME_MAX]; /* names as data: escaped (cli_text.h) */
    printf("  clip %u \"%s\": %.4g s", index, vks_cli_name(clip->name, a, sizeof a), (double)clip->duration);
    if (clip->fps > 0)
        printf(" (%g fps)", (double)clip->fps);
    printf(", cycle %s, space %s, %u tracks, %u events", PICK(cycle_names, clip->cycle),
           PICK(space_names, clip->space), clip->track_count, clip->event_count);
    if (clip->motion[0] != 0 || clip->motion[1] != 0 || clip->motion[2] != 0)
        printf(", motion (%g, %g, %g)", (double)clip->motion[0], (double)clip->motion[1], (double)clip->motion[2]);
    if (clip->root_track >= 0)
        printf(", root motion on track %d", (int)clip->root_track);
    printf("\n");
    for (uint32_t e = 0; e < clip->event_count; e++)
        printf("    event %.4g s \"%s\"%s%s%s\n", (double)clip->events[e].time,
               vks_cli_name(clip->events[e].name, a, sizeof a), clip->events[e].value[0] ? " = \"" : "",
               vks_cli_name(clip->events[e].value, v, sizeof v), clip->events[e].value[0] ? "\"" : "");
    for (uint32_t t = 0; t < clip->track_count; t++) {
        char label[VKS_CLI_NAME_MAX + 64];
        track_label(&clip->tracks[t], label, sizeof label);
        printf("    track %u %s:", t, label);
        channel_view cv[6];
        int n = channels(&clip->tracks[t], cv);
        for (int k = 0; k < n; k++)
            printf("%s %s %u keys %s", k ? "," : "", cv[k].name, cv[k].c->key_count, PICK(interp_names, cv[k].c->interp));
        printf("%s\n", n ? "" : " no keys");
    }
    if (skin)
        print_binding(clip, skin, model, b);
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

int vks_cli_is_clip_file(const char *path, const uint8_t *bytes, size_t size, const vks_read_options *opt,
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

int vks_cli_inspect_clips(const char *path, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                          const vks_skin *skin, const char *model, cJSON *json_out)
{
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_clip_reader_fn reader = vks_detect_clip_format(bytes, size, path, NULL);
    vks_read_options ro = *opt;
    ro.gltf.path = path; /* a .gltf's external buffers sit beside it */
    vks_result r = reader ? reader(&ro, bytes, size, &set, &err)
                   : skin ? vks_pose_json_clip_read(skin, opt, bytes, size, &set, &err)
                          : vks_error_set(&err, VKS_ERR_UNSUPPORTED, 0, "file", "not a clip file vkskin reads");
    if (r != VKS_OK) {
        char buf[512];
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, path, buf, sizeof buf));
        return vks_cli_exit_code(r);
    }
    cJSON *o = json_out ? cJSON_CreateObject() : NULL;
    cJSON *clips = NULL;
    if (o) {
        cJSON_AddStringToObject(o, "file", path);
        cJSON_AddStringToObject(o, "format", set->format);
        cJSON_AddStringToObject(o, "version", set->format_detail);
        clips = cJSON_AddArrayToObject(o, "clips");
        cJSON_AddItemToArray(json_out, o);
    } else
        printf("%s: %s %s, %u clip%s\n", path, set->format, set->format_detail, set->clip_count,
               set->clip_count == 1 ? "" : "s");
    int rc = VKS_EXIT_OK;
    for (uint32_t c = 0; c < set->clip_count; c++) {
        vks_clip_binding b = {0};
        if (skin && vks_clip_bind(&set->clips[c], skin, &b, &err) != VKS_OK) {
            fprintf(stderr, "vkskin: %s: clip %u: %s\n", path, c, err.msg);
            rc = VKS_EXIT_RUNTIME;
            continue;
        }
        if (o)
            cJSON_AddItemToArray(clips, json_clip(&set->clips[c], c, skin, model, &b));
        else
            print_clip(&set->clips[c], c, skin, model, &b);
        vks_clip_binding_free(&b);
    }
    vks_clip_set_free(set);
    return rc;
}
