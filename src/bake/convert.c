/* vks_convert_clips_read, vks_convert_write (include/vkskin/convert.h): the job of `vkskin
 * convert` around the glTF writer, its words through the host's logger. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"
#include "core/vec.h"
#include "vkskin/clip_formats.h"
#include "vkskin/convert.h"

struct vks_convert_clips {
    vks_clip_set **sets;
    vks_gltf_clip *list;
    vks_clip_binding *bindings;
    char **names; /* per entry: the animation's name when the clip has none (owned), or NULL */
    uint32_t set_count, count, cap;
    size_t set_cap;
};

/* The failure said (ERROR) and recorded: err holds the words the vkskin program prints (they
 * name the clip file or source), cut to its message's size. */
static vks_result refuse(const vks_convert_options *o, vks_result code, vks_error *err, const char *words)
{
    vks__log(&o->logger, VKS_LOG_ERROR, "%s", words);
    return vks_error_set(err, code, VKS_NO_OFFSET, "", "%s", words);
}

/* Room for one more clip: three arrays in step, each grown from the same capacity. */
static int grow_clips(vks_convert_clips *cc)
{
    if (cc->count < cc->cap)
        return 1;
    size_t cap_l = cc->cap, cap_b = cc->cap, cap_n = cc->cap;
    vks_gltf_clip *l = vks__grow_array(NULL, cc->list, cc->count, &cap_l, 1, sizeof *l, 8);
    if (l)
        cc->list = l;
    vks_clip_binding *b = vks__grow_array(NULL, cc->bindings, cc->count, &cap_b, 1, sizeof *b, 8);
    if (b)
        cc->bindings = b;
    char **nm = vks__grow_array(NULL, cc->names, cc->count, &cap_n, 1, sizeof *nm, 8);
    if (nm)
        cc->names = nm;
    if (!l || !b || !nm)
        return 0;
    /* the list points into the bindings, which may have moved: a file of more than 8 clips
       (RobotExpressive's 14) left the first 8 pointing at freed memory */
    for (uint32_t i = 0; i < cc->count; i++)
        cc->list[i].binding = &cc->bindings[i];
    cc->cap = (uint32_t)cap_l;
    return 1;
}

/* Binds clip (label: as the user named it) to skin and keeps it; name: the animation's name
 * for a clip without one (taken over), or NULL. */
static vks_result add_clip(vks_convert_clips *cc, const vks_clip *clip, const vks_skin *skin, const char *label,
                           char *name, const vks_convert_options *o, vks_error *err)
{
    if (!grow_clips(cc)) {
        free(name);
        return refuse(o, VKS_ERR_NOMEM, err, "out of memory");
    }
    char msg[512];
    vks_clip_binding *b = &cc->bindings[cc->count];
    uint32_t morph_meshes = 0; /* a clip of morph weights only is a clip too */
    vks_result r = vks_clip_bind(clip, skin, b, err);
    if (r == VKS_OK && (r = vks_clip_morph_meshes(clip, skin, &morph_meshes, err)) != VKS_OK)
        vks_clip_binding_free(b);
    if (r != VKS_OK) {
        vks__log(&o->logger, VKS_LOG_ERROR, "%s: %s", label, vks_error_format(err, NULL, msg, sizeof msg));
        free(name);
        return r;
    }
    if (b->bound_tracks == 0 && morph_meshes == 0) {
        vks_clip_binding_free(b);
        free(name);
        snprintf(msg, sizeof msg, "%s: the clip drives none of the model's nodes nor morph weights", label);
        return refuse(o, VKS_ERR_INVALID, err, msg);
    }
    if (b->unmatched_tracks)
        vks__log(&o->logger, VKS_LOG_INFO, "%s: note: %u of the %u tracks drive no node of this model and are left out",
                 label, b->unmatched_tracks, clip->track_count);
    cc->names[cc->count] = name;
    cc->list[cc->count++] = (vks_gltf_clip){clip, b, name};
    return VKS_OK;
}

/* The clip file at path read whole (opt's file access) and its clips read (pose JSON against
 * skin); the set kept in cc. */
static vks_result read_set(vks_convert_clips *cc, const char *path, const vks_skin *skin, const vks_convert_options *o,
                           vks_clip_set **out, vks_error *err)
{
    vks_read_options ro = vks_read_options_defaults(&o->read);
    void *bytes = NULL;
    size_t size = 0;
    char msg[1024];
    vks_result r = ro.file.read ? ro.file.read(ro.file.user, path, ro.file.max_size, &bytes, &size, err)
                                : vks_file_read_default(NULL, path, ro.file.max_size, &bytes, &size, err);
    if (r != VKS_OK) {
        vks__log(&o->logger, VKS_LOG_ERROR, "%s", vks_load_error_format(err, path, o->limit_hint, msg, sizeof msg));
        return r;
    }
    r = vks_read_clip_bytes(&o->read, path, bytes, size, skin, out, err);
    if (ro.file.read) {
        if (ro.file.release)
            ro.file.release(ro.file.user, bytes);
    } else {
        vks_file_release_default(NULL, bytes);
    }
    if (r != VKS_OK) {
        vks__log(&o->logger, VKS_LOG_ERROR, "%s", vks_load_error_format(err, path, NULL, msg, sizeof msg));
        return r;
    }
    vks_clip_set **sets = vks__grow_array(NULL, cc->sets, cc->set_count, &cc->set_cap, 1, sizeof *sets, 4);
    if (!sets) {
        vks_clip_set_free(*out);
        *out = NULL;
        return refuse(o, VKS_ERR_NOMEM, err, "out of memory");
    }
    cc->sets = sets;
    cc->sets[cc->set_count++] = *out;
    return VKS_OK;
}

/* One source, FILE[#name]: its file's clips, or the one named (or numbered), bound to skin. */
static vks_result read_source(vks_convert_clips *cc, const char *arg, const vks_skin *skin,
                              const vks_convert_options *o, vks_error *err)
{
    const char *hash = strrchr(arg, '#');
    char *path = hash ? strndup(arg, (size_t)(hash - arg)) : strdup(arg);
    if (!path)
        return refuse(o, VKS_ERR_NOMEM, err, "out of memory");
    vks_clip_set *set = NULL;
    vks_result r = read_set(cc, path, skin, o, &set, err);
    if (r == VKS_OK && hash) {
        int32_t k = vks_clip_set_find(set, hash + 1);
        if (k < 0) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s: no clip named '%s' (the file has %u)", path, hash + 1, set->clip_count);
            r = refuse(o, VKS_ERR_INVALID, err, msg);
        } else {
            r = add_clip(cc, &set->clips[k], skin, arg,
                         set->clips[k].name[0] ? NULL : vks_clip_unnamed_name(path, (uint32_t)k, set->clip_count), o,
                         err);
        }
    }
    for (uint32_t k = 0; r == VKS_OK && !hash && k < set->clip_count; k++) {
        const char *own = set->clips[k].name;
        size_t n = strlen(path) + strlen(own) + 3;
        char *label = malloc(n);
        if (!label) {
            r = refuse(o, VKS_ERR_NOMEM, err, "out of memory");
            break;
        }
        snprintf(label, n, "%s#%s", path, own[0] ? own : "0");
        r = add_clip(cc, &set->clips[k], skin, label, own[0] ? NULL : vks_clip_unnamed_name(path, k, set->clip_count),
                     o, err);
        free(label);
    }
    free(path);
    return r;
}

/* A clip that moves a mesh's skin-space node (RenderWare's atomic frame) or one of its
 * ancestors: vkskin's deformation takes that motion out (the skin space follows the node), the
 * glTF, whose skin space is fixed at bind, shows it (gltf.h). Said once per clip. */
static void note_space_motion(const vks_skin *skin, const vks_convert_clips *cc, const vks_logger *log)
{
    for (uint32_t i = 0; i < cc->count; i++)
        for (uint32_t m = 0; m < skin->mesh_count; m++) {
            int32_t n = skin->meshes[m].space_node;
            while (n >= 0 && cc->bindings[i].track_of_node[n] < 0 && cc->list[i].clip->space == VKS_CLIP_LOCAL)
                n = skin->nodes[n].parent;
            if (n >= 0) {
                vks__log(log, VKS_LOG_INFO,
                         "note: the clip \"%s\" moves node \"%s\", which carries the skin space of mesh %u: glTF "
                         "players show that motion, vkskin's deform takes it out",
                         cc->list[i].name ? cc->list[i].name : cc->list[i].clip->name, skin->nodes[n].name, m);
                break;
            }
        }
}

vks_result vks_convert_clips_read(const vks_skin *skin, const char *const *sources, uint32_t count,
                                  const vks_convert_options *opt, vks_convert_clips **out, vks_error *err)
{
    static const vks_convert_options none = {0};
    const vks_convert_options *o = opt ? opt : &none;
    if (!out)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "convert", "out is NULL");
    *out = NULL;
    if (!skin || (count && !sources))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "convert", "no skin, or no sources for %u", count);
    vks_convert_clips *cc = calloc(1, sizeof *cc);
    if (!cc)
        return refuse(o, VKS_ERR_NOMEM, err, "out of memory");
    vks_result r = VKS_OK;
    for (uint32_t k = 0; r == VKS_OK && k < count; k++)
        r = read_source(cc, sources[k], skin, o, err);
    if (r != VKS_OK) {
        vks_convert_clips_free(cc);
        return r;
    }
    note_space_motion(skin, cc, &o->logger);
    *out = cc;
    return VKS_OK;
}

uint32_t vks_convert_clips_count(const vks_convert_clips *c)
{
    return c ? c->count : 0;
}

void vks_convert_clips_free(vks_convert_clips *cc)
{
    if (!cc)
        return;
    for (uint32_t i = 0; i < cc->count; i++)
        vks_clip_binding_free(&cc->bindings[i]), free(cc->names[i]);
    for (uint32_t i = 0; i < cc->set_count; i++)
        vks_clip_set_free(cc->sets[i]);
    free(cc->sets), free(cc->list), free(cc->bindings), free(cc->names);
    free(cc);
}

/* One warning per texture name the glTF keeps only by name (a .tga, .dds, a dictionary entry):
 * the file is valid, but a viewer shows the base colour until someone converts the texture. */
static void warn_textures_by_name(const char *in, const vks_skin *skin, const vks_logger *log)
{
    for (uint32_t i = 0; i < skin->material_count; i++) {
        char name[512], other[512];
        if (vks_gltf_material_texture(skin, i, name, sizeof name) != VKS_GLTF_TEXTURE_BY_NAME)
            continue;
        uint32_t j = 0;
        while (j < i && !(vks_gltf_material_texture(skin, j, other, sizeof other) == VKS_GLTF_TEXTURE_BY_NAME &&
                          !strcmp(name, other)))
            j++;
        if (j < i)
            continue;
        vks__log(log, VKS_LOG_WARNING,
                 "warning: %s: texture \"%s\" (material %u \"%s\") is not a PNG or JPEG image glTF can hold or "
                 "reference: kept by name in the material's extras.vkskin.base_texture",
                 in, name, i, skin->materials[i].name);
    }
}

vks_result vks_convert_write(const char *path, const char *model_name, const vks_skin *skin,
                             const vks_convert_clips *clips, const vks_gltf_options *gopt,
                             const vks_convert_options *opt, vks_gltf_report *report, vks_error *err)
{
    static const vks_convert_options none = {0};
    const vks_convert_options *o = opt ? opt : &none;
    const vks_logger *log = &o->logger;
    const char *in = model_name ? model_name : "model";
    vks_gltf_options g = gopt ? *gopt : (vks_gltf_options){0};
    vks_gltf_report rep;
    vks_result r = vks_gltf_write_skin(path, skin, clips ? clips->list : NULL, vks_convert_clips_count(clips), &g,
                                       &rep, err);
    if (r != VKS_OK) {
        char msg[512];
        vks__log(log, VKS_LOG_ERROR, "%s", vks_error_format(err, r == VKS_ERR_IO ? NULL : in, msg, sizeof msg));
        return r;
    }
    vks__log(log, VKS_LOG_INFO,
             "%s -> %s: %u mesh(es), %u joint(s), %u node(s), %u animation(s) (%u channel(s) with their own keys, %u "
             "sampled at %g fps)%s, %u UV set(s), %u material(s), %u image(s), %llu bytes",
             in, path, rep.meshes, rep.joints, rep.nodes, rep.animations, rep.channels_kept, rep.channels_resampled,
             g.fps > 0 ? g.fps : 30.0, rep.skeleton_copies > 1 ? ", one skeleton per skin space" : "", rep.uv_sets,
             rep.materials, rep.images, (unsigned long long)rep.bytes);
    if (rep.weights_normalised)
        vks__log(log, VKS_LOG_INFO, "note: %u vertices' stored weights did not sum to 1; glTF's are normalised",
                 rep.weights_normalised);
    if (rep.normals_replaced)
        vks__log(log, VKS_LOG_INFO, "note: %u zero normals written as +Y (glTF normals are unit)",
                 rep.normals_replaced);
    warn_textures_by_name(in, skin, log);
    if (report)
        *report = rep;
    return VKS_OK;
}
