/* vkskin render: a contact sheet of deformed instances drawn with a Vulkan graphics pipeline
 * (DESIGN.md section 3, src/render/). Each instance gets a cell of a grid, lit by one
 * directional light plus ambient on its deformed normals, seen by a fixed camera per model
 * fitted to the model's bind-pose bounds. The crowd's output buffers are bound as vertex
 * buffers as they are: no vertex comes back to the host, only the finished image.
 *
 * STEP BY STEP
 *   1. vks_gpu_create with options.will_render = 1 (a queue family with graphics),
 *      vks_gpu_upload(gpu, skins, m, &models), vks_crowd_create (crowd.h);
 *      the crowd's consumer stages must include vertex input (the default on a queue family
 *      with graphics) and its instances should have no root (a cell shows the instance where
 *      its outputs are, with its model's camera)
 *   2. vks_render_desc d = {0}; d.skins = skins; d.skin_count = m; d.width = 640; d.height = 360;
 *      vks_render_create(gpu, &d, &r, &err)     pipeline, targets, index buffers: once
 *   3. vks_render_crowd(r, crowd, time, &err)    records the crowd's frame and the sheet into
 *                                                one command buffer, submits it, waits
 *      (vks_render_crowd_part: a large sheet drawn a part of its cells, one crowd, at a time)
 *      or vks_render_host(r, models, n, positions, normals, &err): the same sheet from vertices
 *      the host has (the CPU reference's, say), uploaded into a plain vertex buffer
 *   4. vks_render_pixels(r, &w, &h): RGBA8 rows, top row first (write a PNG from them: the
 *      vkskin program does, through output.h)
 *   5. vks_render_destroy(r) before vks_gpu_destroy
 *
 * A CONTACT SHEET OF SEVERAL MODELS (what vkskin render draws; Since 0.8)
 *   after steps 1-2 (models uploaded, the renderer made for the same skins):
 *   vks_render_cells c = {0}; c.skins = skins; c.skin_count = m; c.counts = per_model;
 *   c.models = models; c.time = t;
 *   c.instance = my_instance; c.user = me;             // or NULL: procedural poses, c.seed
 *   vks_render_sheet(r, gpu, &c, &err)                 the cells drawn a part at a time
 *   vks_render_write_png(r, "sheet.png", &err)         through the library's PNG writer
 *   or all of it at once, procedural poses: vks_render_sheet_png(gpu, &job, &err)
 *
 * The image: R8G8B8A8 color with a D16 depth buffer, rendered offscreen (no window, no
 * swapchain: it runs on lavapipe). Cell i of n sits at column i % columns, row i / columns;
 * cells are the image cut into equal integer rectangles, each with its own viewport.
 *
 * THREADS. As the context: one thread at a time per context and everything made from it.
 */
#ifndef VKSKIN_RENDER_H
#define VKSKIN_RENDER_H

#include "crowd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vks_render vks_render;

typedef struct vks_render_desc {
    const vks_skin *const *skins; /* the uploaded models, in vks_gpu_upload's order: their
                                     triangles become index buffers (uploaded once) and their
                                     bind positions fit the cameras; must outlive the renderer */
    uint32_t skin_count;          /* >= 1 */
    uint32_t width, height;       /* the image (default 640 x 360; at most 8192 each) */
    uint32_t columns;             /* cells per row (0: the count that makes cells largest for
                                     the cell count of each draw, see vks_render_grid) */
    uint32_t background;          /* 0xRRGGBBAA (0: 0x262a30ff, a dark slate) */
} vks_render_desc;

/* Makes the render pass, the pipeline, the color and depth images, the readback buffer and one
 * index buffer per model. VKS_ERR_UNSUPPORTED when the context's queue family has no graphics
 * (create the context with vks_gpu_options.will_render: otherwise vkskin prefers a compute-only
 * family where the device has one, as NVIDIA and AMD GPUs do), VKS_ERR_INVALID for a bad desc,
 * VKS_ERR_NOMEM / VKS_ERR_VULKAN from the driver. */
VKS_API vks_result vks_render_create(vks_gpu *gpu, const vks_render_desc *desc, vks_render **out,
                                    vks_error *err);
/* Frees everything the renderer made (its submissions have completed); NULL is fine. */
VKS_API void vks_render_destroy(vks_render *r);

/* Records one frame of the crowd at `time` (vks_crowd_record), then the sheet drawn from the
 * crowd's output buffers (cell i: instance i), then the copy of the image into host-visible
 * memory; submits on the context's queue and waits. VKS_ERR_INVALID when an instance's model
 * is not one of desc.skins (vertex counts differ) or the crowd's outputs are not readable by
 * vertex input. Allocates nothing after the first call. */
VKS_API vks_result vks_render_crowd(vks_render *r, vks_crowd *crowd, float time, vks_error *err);

/* vks_render_crowd for a sheet larger than one crowd should be: crowd instance i is drawn
 * into cell first_cell + i of a sheet of cell_count cells (the grid is cell_count's). With
 * first_cell 0 the image is cleared first; a later part keeps what the earlier parts drew, so
 * a sheet drawn part by part, each part's crowd made (or re-aimed with vks_crowd_set_instance)
 * for its cells, is the very picture drawn at once, while the outputs held on the device are
 * only one part's (vkskin render draws this way). A part past cell 0 must continue a sheet of
 * the same cell_count drawn last (VKS_ERR_INVALID otherwise, as for cells past cell_count). */
VKS_API vks_result vks_render_crowd_part(vks_render *r, vks_crowd *crowd, float time, uint32_t first_cell,
                                        uint32_t cell_count, vks_error *err);

/* The same sheet from host vertices: cell i shows models[i] with the positions (and normals,
 * may be NULL) of instance i, instances one after the other, vertex_count * 3 floats each
 * (vks_crowd_read's layout, and the CPU engines'). They are copied into a host-visible vertex
 * buffer, grown when needed. */
VKS_API vks_result vks_render_host(vks_render *r, const uint32_t *models, uint32_t count,
                                  const float *positions, const float *normals, vks_error *err);

/* vks_render_host with a colour per vertex: colors holds RGBA8 bytes, vertex_count * 4 per
 * instance in the same order as positions (NULL: the base colour, as vks_render_host). Each
 * vertex's colour replaces the base colour under the same light, interpolated across
 * triangles: heat maps of per-vertex errors are drawn this way (vkskin validate --report). */
VKS_API vks_result vks_render_host_colored(vks_render *r, const uint32_t *models, uint32_t count,
                                          const float *positions, const float *normals, const uint8_t *colors,
                                          vks_error *err);

/* The last image: width * height RGBA8 pixels, rows top to bottom, width * 4 bytes apart.
 * Valid until the next draw or vks_render_destroy; NULL before the first draw. */
VKS_API const uint8_t *vks_render_pixels(const vks_render *r, uint32_t *width, uint32_t *height);

/* The cells of a contact sheet: model 0's instances first, then model 1's, and so on, each
 * model's counts[m] cells. Since 0.8. */
typedef struct vks_render_cells {
    const vks_skin *const *skins;  /* the renderer's (its desc.skins) */
    uint32_t skin_count;
    const uint32_t *counts;        /* per skin: its cell count (may be 0) */
    const vks_gpu_models *models;  /* the skins as uploaded (vks_gpu_upload), same order */
    const vks_gpu_clips *clips;    /* what VKS_POSE_CLIP and _LAYERS instances play (crowd.h); may
                                      be NULL */
    float time;                    /* the frame drawn (clip and procedural time) */
    /* Model m's instance j, its cell: a crowd instance (instance.h); its root is not drawn (a
       cell shows its instance where its model's camera looks). NULL: VKS_POSE_PROCEDURAL with
       seed, pose_instance j */
    void (*instance)(void *user, uint32_t model, uint32_t j, vks_instance *out);
    /* For an instance whose pose is VKS_POSE_LOCALS: its node_count locals (NULL: the bind pose) */
    void (*locals)(void *user, uint32_t model, uint32_t j, vks_affine *out);
    /* After each part: cells drawn so far of cells in all (NULL: none) */
    void (*progress)(void *user, uint32_t drawn, uint32_t cells);
    void *user;
    uint64_t seed;                 /* the procedural poses' seed when instance is NULL */
    uint64_t part_bytes;           /* the most deformed outputs (24 bytes a vertex) one part's crowd
                                      holds, at least one instance (0: 32 MiB) */
} vks_render_cells;

/* At most so many cells in one sheet (vkskin render's limit too). Since 0.8. */
#define VKS_RENDER_MAX_CELLS (1u << 20)
/* Draws the sheet of every cell (their sum, at most VKS_RENDER_MAX_CELLS) into r, a part at a
 * time (vks_render_crowd_part): a part holds at most part_bytes of outputs and 4096 cells, its
 * crowd made for it, or re-aimed (vks_crowd_set_instance) when its instances have the models of
 * the part before; so memory stays that of one part whatever the count, and the picture is the
 * one drawn at once. gpu: the context r was made on. VKS_ERR_INVALID for skins, counts or
 * models missing, or more cells than VKS_RENDER_MAX_CELLS; the crowd's and the renderer's errors
 * otherwise. Since 0.8. */
VKS_API vks_result vks_render_sheet(vks_render *r, vks_gpu *gpu, const vks_render_cells *cells, vks_error *err);

/* The last image as an 8-bit RGBA PNG at path (vat_write.h's vks_png_write: a temporary name
 * renamed when complete; "-" is standard output). VKS_ERR_INVALID before the first draw,
 * VKS_ERR_IO naming path. Since 0.8. */
VKS_API vks_result vks_render_write_png(const vks_render *r, const char *path, vks_error *err);

/* A whole contact sheet in one call (Since 0.8): the skins uploaded, a renderer made,
 * instances cells per model posed procedurally (seed, at time) drawn, the PNG written,
 * everything freed. With
 * several skins and columns 0, one row of instances cells per skin (so characters compare side
 * by side); one skin: vks_render_grid's. gpu must be made with will_render (gpu.h). */
typedef struct vks_render_sheet_job {
    const vks_skin *const *skins;  /* validated */
    uint32_t skin_count;           /* >= 1 */
    uint32_t instances;            /* cells per skin (0: 1) */
    uint64_t seed;
    float time;
    uint32_t width, height;        /* 0: 640 x 360; at most 8192 each */
    uint32_t columns;              /* 0: see above */
    uint32_t background;           /* 0xRRGGBBAA (0: the default) */
    const char *png;               /* the image's path */
} vks_render_sheet_job;
VKS_API vks_result vks_render_sheet_png(vks_gpu *gpu, const vks_render_sheet_job *job, vks_error *err);

/* The grid for count cells in a width x height image when columns is 0: the column count that
 * makes the smaller side of a cell largest (16 cells in 640 x 360: 6 x 3). */
VKS_API void vks_render_grid(uint32_t count, uint32_t width, uint32_t height, uint32_t *columns,
                             uint32_t *rows);

#ifdef __cplusplus
}
#endif
#endif
