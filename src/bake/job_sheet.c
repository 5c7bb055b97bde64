/* --contact-sheet: one PNG per baked clip, up to 16 of its frames spread over it in a grid,
 * drawn by the GPU renderer (render.h) from the very vertices the bake wrote, so a person
 * sees what was baked. NAME.CLIP.sheet.png beside the outputs. CLIP is the clip's name, or
 * for a clip without one the clip file's name, as convert names such a clip but with the
 * file's extension kept (walk.anm and walk.ska are two clips), followed by its place when
 * the file holds several ("hero.dff.walk.anm 1"); anything but letters, digits, '-' and '_'
 * made '_', so no dot in CLIP and sheets of different jobs never meet. Two clips of a job with
 * one sheet name are refused before the job is baked. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "bake/job_internal.h"
#include "vkskin/vat_write.h"
#include "vkskin/render.h"

#define SHEET_CELLS 16u

#define SHEET_NAME_MAX 512

/* The clip file of the job's clip c (as the manifest gives it), its place in that file and
 * the file's clip count. */
static const char *clip_source(const vks_bake_job *job, const vks_bake_loaded *l, uint32_t c, uint32_t *index,
                               uint32_t *count)
{
    const vks_clip *clip = l->clips[c].clip;
    for (uint32_t s = 0; s < l->set_count; s++) {
        const vks_clip_set *set = l->sets[s];
        if (set && clip >= set->clips && clip < set->clips + set->clip_count) {
            *index = (uint32_t)(clip - set->clips);
            *count = set->clip_count;
            return job->clips[s].file_given;
        }
    }
    *index = 0, *count = 1;
    return l->clips[c].file;
}

/* "NAME.CLIP.sheet.png" of the job's clip c (see the top of the file). */
static void sheet_name(const vks_bake_job *job, const vks_bake_loaded *l, uint32_t c, char *out, size_t cap)
{
    char clip[256], label[256];
    const vks_clip *cl = l->clips[c].clip;
    if (cl->name[0]) {
        snprintf(clip, sizeof clip, "%s", cl->name);
    } else {
        uint32_t index, count;
        const char *file = clip_source(job, l, c, &index, &count);
        const char *base = strrchr(file, '/');
        base = base ? base + 1 : file;
        if (count > 1)
            snprintf(clip, sizeof clip, "%s %u", base, index);
        else
            snprintf(clip, sizeof clip, "%s", base);
    }
    size_t k = 0;
    for (const char *p = clip; *p && k + 1 < sizeof label; p++)
        label[k++] = isalnum((unsigned char)*p) || *p == '-' || *p == '_' ? *p : '_';
    label[k] = 0;
    snprintf(out, cap, "%s.%s.sheet.png", job->name, label);
}

typedef struct named_clip {
    char name[SHEET_NAME_MAX];
    uint32_t clip;
} named_clip;

static int by_name(const void *a, const void *b)
{
    const named_clip *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->clip > y->clip) - (x->clip < y->clip);
}

int vks__bake_sheet_names_check(const vks_bake_job *job, const vks_bake_loaded *l)
{
    /* sorted, so that a file of thousands of clips is not compared pair by pair */
    named_clip *all = malloc(((size_t)l->clip_count + 1) * sizeof *all);
    if (!all) {
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: out of memory naming the contact sheets", job->where);
        return 0;
    }
    for (uint32_t c = 0; c < l->clip_count; c++) {
        sheet_name(job, l, c, all[c].name, sizeof all[c].name);
        all[c].clip = c;
    }
    qsort(all, l->clip_count, sizeof *all, by_name);
    int ok = 1;
    for (uint32_t k = 1; k < l->clip_count && ok; k++) {
        if (strcmp(all[k - 1].name, all[k].name))
            continue;
        const vks_bake_clip *x = &l->clips[all[k - 1].clip], *y = &l->clips[all[k].clip];
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: clip \"%s\" of %s and clip \"%s\" of %s would both be drawn to the contact "
                        "sheet %s; give the clips different names or files, or leave one out",
                job->where, x->label, x->file, y->label, y->file, all[k].name);
        ok = 0;
    }
    free(all);
    return ok;
}

int vks__bake_contact_sheets(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
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
        char name[SHEET_NAME_MAX], path[4096];
        sheet_name(job, l, c, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (px)
            rc = vks_png_write(path, &(vks_png_image){px, w, h, 8, 4, 0, 0}, &err);
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
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: contact sheet: %s", job->where, vks_error_format(&err, NULL, msg, sizeof msg));
        snprintf(res->error, sizeof res->error, "contact sheet: %.300s", msg); /* and in the report */
        return 0;
    }
    return 1;
}
