/* Private to src/render: the renderer object (render.c makes it, sheet.c draws with it) and
 * the camera math (camera.c). */
#ifndef VKS_RENDER_INTERNAL_H
#define VKS_RENDER_INTERNAL_H

#include "gpu/vulkan/vk_shared.h" /* the backend's device, buffers and crowds: nothing private */
#include "vkskin/render.h"

/* A model's fixed camera: fitted to its bind-pose bounds, looking at it from the front,
 * a little to the side and above. */
typedef struct vks__camera {
    float eye[3], center[3], up[3];
    float radius; /* of the bounds' sphere */
    int mirror;   /* a left-handed file: the picture mirrored, as a right-handed viewer sees it */
} vks__camera;

/* Fits a camera to a skin's bind positions: up is the file's up axis (vks_vat_space), the
 * front +Z for Y-up, -Y for Z-up (as the right-handed frame sees a left-handed file). */
void vks__camera_fit(const vks_skin *skin, vks__camera *out);
/* Column-major matrices for the shaders: clip_from_model (Vulkan clip space, y down, depth
 * 0..1) and view_from_model, for a cell of the given aspect (width / height). */
void vks__camera_matrices(const vks__camera *c, float aspect, float clip[16], float view[16]);

/* Where a model's indices are in the shared index buffer. */
typedef struct vks__render_model {
    uint32_t first_index, index_count, vertex_count;
    vks__camera camera;
} vks__render_model;

struct vks_render {
    vks_gpu *gpu;
    vks__vk_device dev;   /* the context's device (vks__device_of) */
    vks_render_desc desc; /* defaults applied */
    uint32_t model_count;
    vks__render_model *models;
    vks__buf indices;     /* device-local, every model's triangles (global vertex numbers) */
    vks__buf zeros;       /* zero normals for models or crowds without them */
    vks__buf host_pos, host_nrm; /* vks_render_host's vertex buffers, grown when needed */
    vks__buf host_col;    /* vks_render_host_colored's RGBA8 colours, grown when needed */
    vks__buf readback;    /* the image, copied here after each draw */
    VkImage color, depth;
    VkDeviceMemory color_mem, depth_mem;
    VkImageView color_view, depth_view;
    VkRenderPass pass;       /* clears the image: a new sheet */
    VkRenderPass pass_keep;  /* keeps it: the next part of a sheet drawn in parts */
    VkFramebuffer framebuffer;
    VkShaderModule vert, frag;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    vks__oneshot own;
    int drawn;            /* an image is in readback */
    uint32_t sheet_cells; /* the cell count of the sheet the last draw was part of */
};

/* One cell to draw: a model and the vertex streams it reads. */
typedef struct vks__cell {
    uint32_t model;
    VkBuffer pos, nrm;
    VkDeviceSize pos_offset, nrm_offset;
    VkBuffer col;            /* RGBA8 per vertex; VK_NULL_HANDLE: none (zeros: the base colour) */
    VkDeviceSize col_offset;
} vks__cell;

/* Records the render pass over cells [first, first + count) of a sheet of total cells (cells[i]
 * is cell first + i) and the copy of the image into the readback buffer (then made visible to
 * the host) into cmd. first == 0 clears the image; a later part keeps what is drawn. */
void vks__sheet_record(vks_render *r, VkCommandBuffer cmd, const vks__cell *cells, uint32_t first, uint32_t count,
                       uint32_t total);

#endif
