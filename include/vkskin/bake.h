/* vkskin bake: output writers for deformed frames (DESIGN.md section 9).
 *
 * STEP BY STEP
 *   vks_bake *b; vks_bake_open(&b, "out.csv", VKS_BAKE_CSV, skin, instances, frames, &err);
 *   for each (instance, frame): vks_bake_write(b, instance, frame, pos, nrm, &err);
 *   vks_bake_close(b, 1, &err);   // 1: rename the temporary into place; 0: discard it
 *
 * Outputs go through vks_output (output.h): a regular file is written to "<path>.tmp.<pid>"
 * and renamed when complete, so a crash or an error never leaves a half-written output under
 * the final name; "-", character devices and FIFOs are streamed into; symlinks are followed;
 * read-only files are refused. vks_bake_open checks the format's limits and the free space
 * of the target's file system against the output's size before creating anything. Outputs are in the file's own
 * vertex order: per mesh (file order), each file vertex once (duplicated model vertices
 * collapse back to the vertex they came from).
 *
 * Formats
 *   CSV  header "instance,frame,mesh,vertex,x,y,z,nx,ny,nz"; one line per file vertex.
 *   RAW  little-endian float32, 6 per vertex (x y z nx ny nz), ordered instance, frame, mesh,
 *        vertex; no header (the sizes are those of inspect).
 *   PC2  the standard point cache (Blender Mesh Cache, 3ds Max): "POINTCACHE2\0", version 1,
 *        point count, start frame 0, sample rate 1, sample count; then samples of float32 xyz.
 *        Points are all meshes' file vertices in order. Instances are written as consecutive
 *        samples: sample = instance * frames + frame. Normals are not stored.
 *   OBJ  one frame of one instance (frames * instances must be 1): v, vn, f per mesh (o).
 *   GLB, GLTF  glTF 2.0 (binary, or JSON with the buffer embedded as base64) of one instance,
 *        so a bake previews in any glTF viewer: per mesh one node under a root carrying the
 *        axis correction of vks_gltf_correction (gltf.h), the file's vertices and triangles.
 *        One frame: a plain mesh of the deformed positions and normals. Several: the mesh holds
 *        frame 0 and one morph target per frame (POSITION and NORMAL deltas from frame 0), and
 *        a STEP animation of the morph weights, one-hot per frame, frame f at f / fps (the
 *        fps of vks_bake_set_times; the first frame's time is kept in extras.vkskin) and a last
 *        key at frames / fps, so each frame shows for 1 / fps (extras.targetNames name them).
 *        Frames are kept in memory until close (24 bytes per vertex and frame, at most
 *        2 GiB); more than one instance is refused (bake one file per instance).
 *
 * THREADS
 *   A writer belongs to one thread at a time; separate writers may run on separate threads.
 */
#ifndef VKSKIN_BAKE_H
#define VKSKIN_BAKE_H

#include "output.h"
#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vks_bake_format {
    VKS_BAKE_CSV,
    VKS_BAKE_RAW,
    VKS_BAKE_PC2,
    VKS_BAKE_OBJ,
    VKS_BAKE_GLB,
    VKS_BAKE_GLTF
} vks_bake_format;

/* Parses "csv", "raw", "pc2", "obj", "glb", "gltf"; -1 when unknown. */
VKS_API int vks_bake_format_parse(const char *name);
/* From a file name's extension; CSV when unknown. */
VKS_API vks_bake_format vks_bake_format_from_path(const char *path);
/* "csv", "raw", "pc2", "obj", "glb", "gltf". */
VKS_API const char *vks_bake_format_name(vks_bake_format format);

/* Bytes the output will take at least (exact for RAW and PC2), saturating at UINT64_MAX. */
VKS_API uint64_t vks_bake_size_bound(vks_bake_format format, const vks_skin *skin, uint32_t instances,
                             uint32_t frames);
/* Everything vks_bake_open checks before it creates a file: the format's limits (OBJ: one
 * frame; PC2: sample and point counts in signed 32 bits; glTF: one instance, 2 GiB of frames:
 * VKS_ERR_LIMIT or VKS_ERR_INVALID)
 * and vks_output_check with the size bound (VKS_ERR_IO). */
VKS_API vks_result vks_bake_check(const char *path, vks_bake_format format, const vks_skin *skin,
                          uint32_t instances, uint32_t frames, vks_error *err);

typedef struct vks_bake vks_bake;

/* Opens an output of format for instances x frames of skin's vertices at path, written to a
 * temporary name until vks_bake_close commits it; checks what vks_bake_check checks first. */
VKS_API vks_result vks_bake_open(vks_bake **out, const char *path, vks_bake_format format,
                         const vks_skin *skin, uint32_t instances, uint32_t frames, vks_error *err);
/* positions/normals: one instance's skin->vertex_count vec3 (model order); normals may be NULL.
 * Calls must come in order: instance-major, then frame. */
VKS_API vks_result vks_bake_write(vks_bake *b, uint32_t instance, uint32_t frame, const float *positions,
                          const float *normals, vks_error *err);
/* glTF bakes: frame f is shown at start + f / fps seconds (default 0 and 30), as deform's
 * --time and --fps say. Call before the first write; ignored by the other formats. */
VKS_API void vks_bake_set_times(vks_bake *b, double start, double fps);
/* The temporary being written (NULL for a stream): for hosts that track their outputs. */
VKS_API const char *vks_bake_temp_path(const vks_bake *b);
/* commit != 0: flush, close and rename into place; otherwise remove the temporary. Write
 * failures report the errno of the call that failed. */
VKS_API vks_result vks_bake_close(vks_bake *b, int commit, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
