/* The contact sheet as library calls (render.h, Since 0.8), with the validation layer on:
 * vks_render_sheet draws the cells a part at a time and must give the very picture one crowd
 * of every cell gives through vks_render_crowd, whether each part holds one instance or all;
 * its progress reaches every cell; a caller's instance callback poses the cells (here: the bind
 * pose, a picture of its own); more cells than VKS_RENDER_MAX_CELLS are refused;
 * vks_render_write_png refuses a renderer that drew nothing and writes the same bytes as
 * vks_render_sheet_png's whole job for the same sheet. Exit 77 without a Vulkan device. */
#include "gpu_check.h"
#include "testutil.h"

#include "vkskin/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { INSTANCES = 7, W = 160, H = 96 };
static const uint64_t SEED = 5;
static const float TIME = 0.3f;

typedef struct seen {
    uint32_t calls, last, cells;
} seen;

static void count_progress(void *user, uint32_t drawn, uint32_t cells)
{
    seen *s = user;
    s->calls++, s->last = drawn, s->cells = cells;
}

static void bind_pose(void *user, uint32_t model, uint32_t j, vks_instance *out)
{
    (void)user, (void)j;
    memset(out, 0, sizeof *out);
    out->model = model;
    out->pose = VKS_POSE_BIND;
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    uint8_t *b = malloc(1 << 22);
    *n = f && b ? fread(b, 1, 1 << 22, f) : 0;
    if (f)
        fclose(f);
    return b;
}

int main(void)
{
    vks_gpu_options o = {.will_render = 1, .validation = 1};
    vks_gpu *gpu = gpu_check_context_opt(&o);
    vks_skin *skin = gpu_check_character(1500, 24, 4, 0, 7);
    if (!skin)
        return 1;
    const vks_skin *const *skins = (const vks_skin *const *)&skin;
    vks_error err = {0};
    vks_gpu_models *models = NULL;
    CHECK(vks_gpu_upload(gpu, skins, 1, &models, &err) == VKS_OK);
    vks_render_desc rd = {.skins = skins, .skin_count = 1, .width = W, .height = H};
    vks_render *r = NULL;
    CHECK(vks_render_create(gpu, &rd, &r, &err) == VKS_OK);
    if (!r)
        return 1;
    char png[64], whole[64];
    snprintf(png, sizeof png, "render_sheet_%d.png", (int)getpid());
    snprintf(whole, sizeof whole, "render_sheet_job_%d.png", (int)getpid());
    CHECK_EQ_INT(vks_render_write_png(r, png, &err), VKS_ERR_INVALID); /* nothing drawn yet */
    CHECK(access(png, F_OK) != 0);

    /* the reference: every cell in one crowd */
    vks_instance inst[INSTANCES];
    memset(inst, 0, sizeof inst);
    for (uint32_t i = 0; i < INSTANCES; i++)
        inst[i].seed = SEED, inst[i].pose_instance = i;
    vks_crowd_desc cd = {.models = models, .instances = inst, .instance_count = INSTANCES};
    vks_crowd *crowd = NULL;
    CHECK(vks_crowd_create(gpu, &cd, &crowd, &err) == VKS_OK);
    CHECK(vks_render_crowd(r, crowd, TIME, &err) == VKS_OK);
    vks_crowd_destroy(crowd);
    uint32_t w = 0, h = 0;
    size_t bytes = (size_t)W * H * 4;
    uint8_t *once = malloc(bytes);
    memcpy(once, vks_render_pixels(r, &w, &h), bytes);

    /* the sheet a part at a time: one instance a part (a part holds at least one), then one part */
    uint32_t counts[1] = {INSTANCES};
    seen s = {0};
    vks_render_cells c = {.skins = skins, .skin_count = 1, .counts = counts, .models = models, .time = TIME,
                          .seed = SEED, .progress = count_progress, .user = &s, .part_bytes = 1};
    CHECK(vks_render_sheet(r, gpu, &c, &err) == VKS_OK);
    CHECK(memcmp(vks_render_pixels(r, &w, &h), once, bytes) == 0);
    CHECK_EQ_INT(s.calls, INSTANCES);
    CHECK(s.last == INSTANCES && s.cells == INSTANCES);
    s = (seen){0};
    c.part_bytes = 0;
    CHECK(vks_render_sheet(r, gpu, &c, &err) == VKS_OK);
    CHECK(memcmp(vks_render_pixels(r, &w, &h), once, bytes) == 0);
    CHECK_EQ_INT(s.calls, 1);
    CHECK(vks_render_write_png(r, png, &err) == VKS_OK);

    /* the caller poses the cells: the bind pose is another picture */
    c.instance = bind_pose;
    CHECK(vks_render_sheet(r, gpu, &c, &err) == VKS_OK);
    CHECK(memcmp(vks_render_pixels(r, &w, &h), once, bytes) != 0);

    counts[0] = VKS_RENDER_MAX_CELLS + 1;
    err = (vks_error){0};
    CHECK_EQ_INT(vks_render_sheet(r, gpu, &c, &err), VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "at most") != NULL);

    /* the whole job: the same sheet, the same file */
    vks_render_sheet_job job = {.skins = skins, .skin_count = 1, .instances = INSTANCES, .seed = SEED,
                                .time = TIME, .width = W, .height = H, .png = whole};
    CHECK(vks_render_sheet_png(gpu, &job, &err) == VKS_OK);
    size_t na = 0, nb = 0;
    uint8_t *a = read_all(png, &na), *b = read_all(whole, &nb);
    CHECK(na > 8 && na == nb && memcmp(a, b, na) == 0 && memcmp(a, "\x89PNG", 4) == 0);
    printf("render sheet: %u cells in %ux%u, parts of one instance and of all the same picture, PNG %zu bytes\n",
           INSTANCES, W, H, na);
    CHECK(vks_gpu_validation_messages(gpu) == 0);
    unlink(png), unlink(whole);
    free(a), free(b), free(once);
    vks_render_destroy(r);
    vks_gpu_models_free(models);
    vks_gpu_destroy(gpu);
    vks_skin_free(skin);
    return vks_test_finish("test_render_sheet");
}
