/* vkskin bake: output writers for deformed frames (DESIGN.md section 9).
 *
 * STEP BY STEP
 *   vks_bake *b; vks_bake_open(&b, "out.csv", VKS_BAKE_CSV, skin, instances, frames, &err);
 *   for each (instance, frame): vks_bake_write(b, instance, frame, pos, nrm, &err);
 *   vks_bake_close(b, 1, &err);   // 1: rename the temporary into place; 0: discard it
 *
 * Files are written to "<path>.tmp.<pid>" and renamed when complete, so a crash or an error
 * never leaves a half-written output under the final name. Outputs are in the file's own
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
 */
#ifndef VKSKIN_BAKE_H
#define VKSKIN_BAKE_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vks_bake_format { VKS_BAKE_CSV, VKS_BAKE_RAW, VKS_BAKE_PC2, VKS_BAKE_OBJ } vks_bake_format;

/* Parses "csv", "raw", "pc2", "obj"; -1 when unknown. */
int vks_bake_format_parse(const char *name);
/* From a file name's extension; CSV when unknown. */
vks_bake_format vks_bake_format_from_path(const char *path);

typedef struct vks_bake vks_bake;

vks_result vks_bake_open(vks_bake **out, const char *path, vks_bake_format format,
                         const vks_skin *skin, uint32_t instances, uint32_t frames, vks_error *err);
/* positions/normals: one instance's skin->vertex_count vec3 (model order); normals may be NULL.
 * Calls must come in order: instance-major, then frame. */
vks_result vks_bake_write(vks_bake *b, uint32_t instance, uint32_t frame, const float *positions,
                          const float *normals, vks_error *err);
/* commit != 0: flush, close and rename into place; otherwise remove the temporary. */
vks_result vks_bake_close(vks_bake *b, int commit, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
