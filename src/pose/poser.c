/* The poser (poser.h): the plan's options made into the library's pose source for one model:
 * procedural, a pose file, or clips (poser_clips.c binds the plan's clips to the model). */
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "pose/poser_internal.h"

static const char *model_name(const vks_pose_plan *plan, uint32_t m)
{
    return plan->models && m < plan->model_count ? plan->models[m] : "";
}

/* A host whose engines do not take morph weights per instance is told what it drops: the
 * meshes the poses' weights drive and their vertices, which keep their default weights. */
static void note_dropped_weights(const vks_poser *ps, const vks_pose_plan *plan)
{
    uint32_t vertices = 0;
    for (uint32_t m = 0; m < ps->skin->mesh_count; m++)
        if (ps->skin->meshes[m].target_count)
            vertices += ps->skin->meshes[m].source_vertex_count;
    vks__log(&ps->logger, VKS_LOG_WARNING,
             "%s: warning: the poses drive the morph weights of %u mesh(es) (%u vertices with targets), which this "
             "command does not play yet: they keep their default weights (vkskin deform plays them)",
             model_name(plan, ps->model), ps->morph_meshes, vertices);
}

/* A pose file's frames: frame f uses the file's frame f, every instance the same. */
static vks_result pose_file(vks_poser *ps, const vks_pose_plan *plan, vks_error *err)
{
    const char *path = plan->options.pose_file;
    void *json = NULL;
    size_t size = 0;
    vks_error e = {0};
    uint64_t max = plan->read.file.max_size ? plan->read.file.max_size : (uint64_t)2048 << 20;
    vks_result r = vks_file_read_default(NULL, path, max, &json, &size, &e);
    if (r != VKS_OK) {
        int hint = r == VKS_ERR_LIMIT && plan->limit_hint;
        return vks__poser_fail(&ps->logger, err, r, "%s: %s%s%s", path, e.msg, hint ? " " : "",
                               hint ? plan->limit_hint : "");
    }
    r = vks_pose_file_parse(ps->skin, json, size, &ps->set, &e);
    free(json);
    if (r != VKS_OK) {
        char msg[512];
        return vks__poser_fail(&ps->logger, err, r, "%s", vks_error_format(&e, path, msg, sizeof msg));
    }
    ps->source.kind = VKS_POSE_FRAMES;
    ps->source.frames = &ps->set;
    for (uint32_t m = 0; ps->set.weights && m < ps->skin->mesh_count; m++) /* the file gives weights */
        ps->morph_meshes += ps->skin->meshes[m].target_count != 0;
    if (ps->frames == 1)
        ps->frames = ps->set.frame_count; /* a pose file's frames are the frames */
    return VKS_OK;
}

vks_result vks_poser_init(vks_poser *ps, const vks_skin *skin, const vks_pose_plan *plan, uint32_t m,
                          vks_error *err)
{
    const vks_pose_options *o = &plan->options;
    memset(ps, 0, sizeof *ps);
    ps->skin = skin;
    ps->model = m;
    ps->logger = plan->read.logger;
    ps->instances = o->instances;
    ps->frames = o->frames;
    ps->source.kind = VKS_POSE_PROCEDURAL;
    ps->source.seed = o->seed;
    ps->source.fps = o->fps;
    ps->source.start_time = o->time;
    vks_result r = VKS_OK;
    if (plan->clips)
        r = vks__poser_clips(ps, plan, err);
    else if (o->pose_file)
        r = pose_file(ps, plan, err);
    if (r == VKS_OK && ps->morph_meshes && !o->plays_morph_weights)
        note_dropped_weights(ps, plan);
    return r;
}

void vks_poser_locals(const vks_poser *ps, uint32_t instance, uint32_t frame, vks_affine *out)
{
    vks_pose_source_locals(&ps->source, ps->skin, instance, frame, out);
}

uint32_t vks_poser_weights(const vks_poser *ps, uint32_t instance, uint32_t frame, float *out)
{
    return vks_pose_source_weights(&ps->source, ps->skin, instance, frame, out);
}

void vks_poser_apply_root(const vks_poser *ps, uint32_t instance, float *pos, float *nrm)
{
    if (ps->roots)
        vks_apply_root(ps->skin, &ps->roots[instance], pos, nrm);
}

void vks_poser_free(vks_poser *ps)
{
    vks_pose_set_free(&ps->set);
    for (uint32_t k = 0; k < ps->ref_count; k++) {
        if (ps->bindings)
            vks_clip_binding_free(&ps->bindings[k]);
        if (ps->json_sets)
            vks_clip_set_free(ps->json_sets[k]);
    }
    free(ps->plays), free(ps->roots), free(ps->clips), free(ps->bindings), free(ps->json_sets), free(ps->layers);
    const vks_crowd_binding *b = &ps->binding; /* the arrays poser_clips.c made */
    free((void *)b->models), free((void *)b->clips), free((void *)b->clip_cycles), free((void *)b->skins);
    free((void *)b->model_names);
    memset(ps, 0, sizeof *ps);
}
