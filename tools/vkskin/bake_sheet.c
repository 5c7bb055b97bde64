/* --contact-sheet: one PNG per baked clip, up to 16 of its frames spread over it in a grid,
 * drawn by the GPU renderer (render.h) from the very vertices the bake wrote, so a person
 * sees what was baked. NAME.CLIP.sheet.png beside the outputs (CLIP: the clip's name with
 * anything but letters, digits, '-' and '_' made '_'). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bake_job.h"
#include "cli_png.h"
#include "vkskin/render.h"

#define SHEET_CELLS 16u

int vks_bake_contact_sheets(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                            vks_gpu *gpu, const char *dir, vks_bake_result *res)
{
    const vks_skin *s = l->skin;
    vks_render_desc d = {0};
    d.skins = (const vks_skin *const *)&l->skin;
    d.skin_count = 1;
    d.width = 960;
    d.height = 540;
    vks_render *r = NULL;
    vks_error err = {0};
    vks_result rc = vks_render_create(gpu, &d, &r, &err);
    size_t per = (size_t)s->vertex_count * 3;
    float *pos = rc == VKS_OK ? malloc(per * SHEET_CELLS * sizeof *pos) : NULL;
    float *nrm = rc == VKS_OK && fr->normals ? malloc(per * SHEET_CELLS * sizeof *nrm) : NULL;
    uint32_t models[SHEET_CELLS] = {0};
    if (rc == VKS_OK && (!pos || (fr->normals && !nrm)))
        rc = vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory for the contact sheet");
    for (uint32_t c = 0; rc == VKS_OK && c < l->clip_count; c++) {
        const vks_bake_clip *bc = &l->clips[c];
        uint32_t n = bc->frames < SHEET_CELLS ? bc->frames : SHEET_CELLS;
        for (uint32_t i = 0; i < n; i++) {
            /* frames spread over the clip, its first and last included */
            uint32_t f = n > 1 ? (uint32_t)((uint64_t)i * (bc->frames - 1) / (n - 1)) : 0;
            size_t g = bc->first_frame + f;
            memcpy(pos + i * per, fr->positions + g * per, per * sizeof *pos);
            if (nrm)
                memcpy(nrm + i * per, fr->normals + g * per, per * sizeof *nrm);
        }
        rc = vks_render_host(r, models, n, pos, nrm, &err);
        uint32_t w = 0, h = 0;
        const uint8_t *px = rc == VKS_OK ? vks_render_pixels(r, &w, &h) : NULL;
        char label[64], name[512], path[4096];
        size_t k = 0;
        for (const char *p = bc->label; *p && k + 1 < sizeof label; p++)
            label[k++] = isalnum((unsigned char)*p) || *p == '-' || *p == '_' ? *p : '_';
        label[k] = 0;
        snprintf(name, sizeof name, "%s.%s.sheet.png", job->name, label);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (px)
            rc = vks_cli_write_png(path, px, w, h, &err);
        if (rc == VKS_OK) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "path", name);
            cJSON_AddStringToObject(e, "kind", "contact-sheet");
            cJSON_AddItemToArray(res->files, e);
        }
    }
    free(pos);
    free(nrm);
    vks_render_destroy(r);
    if (rc != VKS_OK) {
        char msg[512];
        fprintf(stderr, "vkskin: %s: contact sheet: %s\n", job->where, vks_error_format(&err, NULL, msg, sizeof msg));
        snprintf(res->error, sizeof res->error, "contact sheet: %.300s", msg); /* and in the report */
        return 0;
    }
    return 1;
}
