/* vkskin glTF 2.0 writer: any skin vkskin reads, with its clips, as a .glb or .gltf that
 * Blender, three.js and every glTF viewer open (issue 14).
 *
 * STEP BY STEP
 *   vks_gltf_clip clips[1] = {{clip, &binding, NULL}};  // bound with vks_clip_bind (clip_sample.h)
 *   vks_gltf_options o = {0};                          // zeroed: defaults (container from path)
 *   vks_gltf_report rep;
 *   if (vks_gltf_write_skin("hero.glb", skin, clips, 1, &o, &rep, &err) != VKS_OK) ... report err
 *
 * What is written
 *   - One mesh per skinned mesh of the model, one triangle primitive with POSITION, NORMAL
 *     (where the mesh has normals), JOINTS_0, WEIGHTS_0 and unsigned int indices, in the file's
 *     own vertex order (vertices the model duplicated for its groups collapse back to the file's
 *     vertex, as the bake writers do), so vertex i of mesh m is vertex i of `deform`'s outputs.
 *   - Each mesh's UV sets as TEXCOORD_0.., and one primitive per material of the mesh (they share
 *     the attributes), with the skin's materials: base colour, base-colour texture (PNG and
 *     JPEG images embedded as the source embeds them, or referenced by their relative URI;
 *     other textures named in the material's extras.vkskin.base_texture, see
 *     vks_gltf_material_texture), samplers; metallicFactor 0 (the model keeps no metal).
 *   - One skin per mesh: the groups' palettes resolved to the mesh's bones, so JOINTS_0 index the
 *     skin's joints (a node that is two bones of one mesh, NW4C rigid and smooth, gets a child
 *     node with an identity transform for its second inverse bind). Weights are written
 *     normalised (glTF requires it); the report counts vertices whose stored sum was off 1.
 *   - A rigid part (a mesh whose every group is VKS_GROUP_RIGID on its one bone: a sword on a
 *     hand, a helmet, a prop at a root) is a mesh node without a skin, a child of its bone's
 *     node: its vertices as the source stores them (the part's own space), its local transform
 *     the bone's inverse bind (identity for glTF, RenderWare and NW4C; the shape's transform
 *     under its node for NIF; a matrix where it is no TRS), so its world is the skin matrix
 *     vkskin gives the part. Named "<name> (mesh)" where a skeleton node has its name.
 *   - The skeleton's nodes with their bind locals as TRS, under a root node that carries
 *     C * S: S the mesh's skin-space transform at bind (skin.h: space_pre * inverse world of
 *     space_node), so that glTF's joint matrices equal vkskin's skin matrices, and C the axis
 *     correction to glTF's right-handed Y-up frame (vks_gltf_correction). Vertex data stay as the
 *     source stores them; the skinned mesh nodes sit at the scene root with no transform (the
 *     spec ignores it). Meshes whose S differ get a skeleton copy each (its nodes named
 *     "<name> (skin space c)", so tools that bind by name tell the copies apart). The asset's
 *     extras.vkskin.correction holds C (16 numbers, column-major): a posed vertex in glTF
 *     equals C times vkskin's deformation of the source at the same pose.
 *   - One animation per clip. Tracks of LOCAL clips whose curves glTF can play keep their keys:
 *     STEP -> STEP, LINEAR -> LINEAR (rotations slerp), HERMITE -> CUBICSPLINE (vkskin's
 *     tangents are glTF's, value per second). Everything else is resampled at opt.fps (30)
 *     into LINEAR translation/rotation/scale of the node's sampled local: Euler-angle tracks,
 *     B-splines, key times that repeat, Hermite rotations with non-unit keys, and every node of a
 *     delta-space clip (Arma RTM). Each channel ends with a key at the clip's duration, so
 *     players loop over the clip's own length. Resampled channels match the source exactly at
 *     multiples of 1 / fps and interpolate linearly between.
 *   - Containers: .glb (JSON and BIN chunks, 4-byte aligned), or .gltf with the buffer
 *     embedded as a base64 data URI (one file, so the temporary-and-rename of output.h covers
 *     it whole). Written through vks_output: temporary name, renamed when complete.
 *
 * Limitations: a mesh's skin space is taken at bind; a clip that moves the space node
 * (RenderWare's atomic frame) moves the glTF mesh, where vkskin's deformation stays in mesh
 * space. Node transforms with shear are written as their nearest TRS.
 *
 * THREADS: reentrant; the skin, clips and bindings are only read.
 */
#ifndef VKSKIN_GLTF_H
#define VKSKIN_GLTF_H

#include "clip.h"
#include "clip_sample.h"
#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vks_gltf_container {
    VKS_GLTF_FROM_PATH = 0, /* .gltf: embedded; anything else: GLB */
    VKS_GLTF_GLB,
    VKS_GLTF_EMBEDDED
} vks_gltf_container;

typedef struct vks_gltf_clip {
    const vks_clip *clip;
    const vks_clip_binding *binding; /* the clip bound to the skin written */
    const char *name;                /* the animation's name; NULL: the clip's own */
} vks_gltf_clip;

typedef struct vks_gltf_options {
    vks_gltf_container container; /* default: from the path */
    float fps;                    /* resampling rate (default 30) */
    const char *generator;        /* asset.generator (default "vkskin <version>") */
    uint32_t max_influences;      /* joints written per vertex: 0 (or 8) all the model's, with
                                     JOINTS_1/WEIGHTS_1 where a mesh has more than 4; 1..7 the
                                     largest so many, renormalised (a file for an engine shader
                                     that reads fewer), counted in the report */
} vks_gltf_options;

typedef struct vks_gltf_report {
    uint32_t nodes, meshes, skins, joints, animations;
    uint32_t channels_kept;        /* channels written with the source's own keys */
    uint32_t channels_resampled;   /* channels sampled at opt.fps */
    uint32_t weights_normalised;   /* file vertices whose stored weights did not sum to 1 */
    uint32_t influences_dropped;   /* file vertices that lost influences to max_influences */
    float influence_max_dropped;   /* the largest weight so dropped (of the vertex's sum 1) */
    uint32_t normals_replaced;     /* zero or non-finite normals written as +Y (glTF needs unit) */
    uint32_t skeleton_copies;      /* distinct skin spaces (1 for most files) */
    uint32_t uv_sets;              /* TEXCOORD sets of the mesh with the most */
    uint32_t materials, images;    /* glTF materials and images written */
    uint64_t bytes;                /* the file's size */
} vks_gltf_report;

/* How vks_gltf_write_skin keeps material i's base-colour texture: not at all (the material has
 * none), as a glTF texture and image (PNG or JPEG, embedded or by a relative URI, read through a
 * UV set every mesh of the material has), or only by name in the material's
 * extras.vkskin.base_texture (a .tga, .dds, .paa, a texture dictionary name, an image of another
 * kind): a caller warns about the last. name (cap bytes) gets the texture's name, or
 * "image i (type)" for an unnamed embedded image. */
typedef enum vks_gltf_texture_kept {
    VKS_GLTF_TEXTURE_NONE = 0,
    VKS_GLTF_TEXTURE_IMAGE,
    VKS_GLTF_TEXTURE_BY_NAME
} vks_gltf_texture_kept;
VKS_API vks_gltf_texture_kept vks_gltf_material_texture(const vks_skin *skin, uint32_t material, char *name,
                                                        size_t cap);

/* .gltf -> VKS_GLTF_EMBEDDED, anything else VKS_GLTF_GLB. */
VKS_API vks_gltf_container vks_gltf_container_from_path(const char *path);

/* The axis correction from the format's space to glTF's (right-handed, Y up, metres):
 * RenderWare and NIF are Z-up: (x, y, z) -> (x, z, -y); P3D is left-handed Y-up:
 * (x, y, z) -> (x, y, -z) (formats/p3d.md); NW4C is already Y-up right-handed: identity. */
VKS_API vks_affine vks_gltf_correction(const vks_skin *skin);

/* Writes skin (validated) and its clips (each bound to it) to path. err names the path
 * and what could not be written. O(vertices + keys + clips * nodes * duration * fps). */
VKS_API vks_result vks_gltf_write_skin(const char *path, const vks_skin *skin, const vks_gltf_clip *clips,
                                       uint32_t clip_count, const vks_gltf_options *opt, vks_gltf_report *report,
                                       vks_error *err);

/* Writes skin's bind mesh, unskinned, to path: every model vertex in model order (the order of
 * inspect and of vertex textures) with POSITION, NORMAL where the model has normals (as
 * stored), the character's UV sets and the texcoords given (2 floats a vertex, glTF's v from
 * the top: a vertex texture's lookup) as Houdini's VAT and Unreal's AnimToTexture lay them out:
 * TEXCOORD_0 the character's UV set 0, TEXCOORD_1 the lookup, TEXCOORD_2.. the character's sets
 * 1..; a character without UVs has the lookup as TEXCOORD_0 (vks_gltf_bind_mesh_lookup_set says
 * which). One primitive per material of the character (its materials as vks_gltf_write_skin
 * writes them, texCoord following its set), under a node carrying vks_gltf_correction. What
 * vkskin bake writes beside a vertex animation texture; opt as for vks_gltf_write_skin
 * (container, generator; fps unused). */
VKS_API vks_result vks_gltf_write_bind_mesh(const char *path, const vks_skin *skin, const float *texcoords,
                                            const vks_gltf_options *opt, vks_error *err);

/* The TEXCOORD set of vks_gltf_write_bind_mesh's texcoords: 1 when the skin has UV sets of
 * its own (UV0 stays the character's), else 0. */
VKS_API uint32_t vks_gltf_bind_mesh_lookup_set(const vks_skin *skin);

#ifdef __cplusplus
}
#endif
#endif
