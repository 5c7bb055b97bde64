/* A bake job's outputs (docs/baking.md "Batch baking"): VAT textures (OpenEXR float and half, 16-bit
 * PNG), the rest mesh that addresses them, the bone-matrix atlas, PC2 and raw caches; each
 * output kind with a JSON sidecar written last, so that a sidecar on disk means its files are
 * complete, and a re-run can tell what is up to date from the sidecars alone. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bake/job_internal.h"
#include "vkskin/gltf.h"
#include "vkskin/vat_write.h"

/* "dir/namesuffix"; with dir NULL, "namesuffix" (the name a sidecar records). */
static char *join(const char *dir, const char *name, const char *suffix)
{
    size_t a = dir ? strlen(dir) + 1 : 0, b = strlen(name), c = strlen(suffix);
    char *p = malloc(a + b + c + 1);
    if (p)
        snprintf(p, a + b + c + 1, "%s%s%s%s", dir ? dir : "", dir ? "/" : "", name, suffix);
    return p;
}

static uint64_t file_bytes(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

static const char *sidecar_suffix(int k)
{
    static const char *const s[VKS_BAKE_OUT_KINDS] = {".vat-exr-float.json", ".vat-exr-half.json", ".vat-png16.json",
                                                      ".atlas.json", ".pc2.json", ".raw.json",
                                                      ".gltf-morph.json"};
    return s[k];
}

int vks__bake_out_files(int k, const char *suffixes[6])
{
    static const char *const vat[3][2] = {{".vat.pos.f32.exr", ".vat.nrm.f32.exr"},
                                          {".vat.pos.f16.exr", ".vat.nrm.f16.exr"},
                                          {".vat.pos.png", ".vat.nrm.png"}};
    int n = 0;
    if (k < 3) { /* write_vat: both streams (normals when the job has them), the rest meshes */
        suffixes[n++] = vat[k][0], suffixes[n++] = vat[k][1];
        suffixes[n++] = ".vat.obj", suffixes[n++] = ".vat.glb";
    } else if (k == 3) { /* write_atlas */
        suffixes[n++] = ".atlas.exr", suffixes[n++] = ".atlas.glb";
    } else { /* write_cache */
        suffixes[n++] = k == 4 ? ".pc2" : k == 5 ? ".raw" : ".morph.glb";
    }
    suffixes[n++] = sidecar_suffix(k);
    return n;
}

uint32_t vks__bake_up_to_date(const vks_bake_job *job, const char *dir, cJSON *files)
{
    uint32_t bits = 0;
    for (int k = 0; k < VKS_BAKE_OUT_KINDS; k++) {
        if (!(job->outputs & (1u << k)))
            continue;
        char *path = join(dir, job->name, sidecar_suffix(k));
        size_t size = 0;
        FILE *f = path ? fopen(path, "rb") : NULL;
        char *text = NULL;
        if (f) {
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            text = n > 0 && n < (1l << 26) ? malloc((size_t)n + 1) : NULL;
            if (text && (size = fread(text, 1, (size_t)n, f)) == (size_t)n)
                text[size] = 0;
            else
                free(text), text = NULL;
            fclose(f);
        }
        cJSON *sc = text ? cJSON_ParseWithLength(text, size) : NULL;
        free(text);
        const cJSON *hash = cJSON_GetObjectItemCaseSensitive(sc, "entry_hash");
        const cJSON *ver = cJSON_GetObjectItemCaseSensitive(sc, "tool_version");
        const cJSON *fl = cJSON_GetObjectItemCaseSensitive(sc, "files");
        int ok = cJSON_IsString(hash) && !strcmp(hash->valuestring, job->hash) && cJSON_IsString(ver) &&
                 !strcmp(ver->valuestring, vks_version_string()) && cJSON_IsArray(fl) &&
                 /* a sidecar from before the space and clip fields (same version, same entry)
                    cannot be trusted by an engine script: redone */
                 cJSON_IsString(cJSON_GetObjectItemCaseSensitive(sc, "up_axis"));
        /* every file it lists still there with the size it had */
        for (const cJSON *it = ok ? fl->child : NULL; it && ok; it = it->next) {
            const cJSON *p = cJSON_GetObjectItemCaseSensitive(it, "path");
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(it, "bytes");
            char *fp = cJSON_IsString(p) && !strchr(p->valuestring, '/') ? join(dir, p->valuestring, "") : NULL;
            struct stat st;
            ok = fp && cJSON_IsNumber(b) && stat(fp, &st) == 0 && (double)st.st_size == b->valuedouble;
            free(fp);
        }
        if (ok) {
            bits |= 1u << k;
            for (const cJSON *it = fl->child; files && it; it = it->next) {
                cJSON *e = cJSON_Duplicate(it, 1);
                cJSON_AddStringToObject(e, "kind", vks_bake_out_name(k));
                cJSON_AddBoolToObject(e, "skipped", 1);
                cJSON_AddItemToArray(files, e);
            }
        }
        cJSON_Delete(sc);
        free(path);
    }
    return bits;
}

/* ---- what every sidecar says ---- */

typedef struct sidecar {
    cJSON *root, *files;
    const char *dir;
    uint64_t bytes;
} sidecar;

/* The model's space as the file stores it (vks_vat_space; the glTF outputs' root node holds
 * the correction, vks_gltf_correction); one unit is taken as one metre, as convert does. */
static void add_space(cJSON *o, const vks_skin *skin)
{
    const char *up, *hand;
    vks_vat_space(skin, &up, &hand);
    cJSON_AddStringToObject(o, "up_axis", up);
    cJSON_AddStringToObject(o, "handedness", hand);
    cJSON_AddStringToObject(o, "unit", "metre");
}

static sidecar sidecar_begin(const vks_bake_job *job, const vks_bake_loaded *l, const char *dir, int kind,
                             const char *encoding, vks_bake_engine e)
{
    sidecar s = {cJSON_CreateObject(), NULL, dir, 0};
    cJSON *o = s.root;
    cJSON_AddStringToObject(o, "tool", "vkskin bake");
    cJSON_AddStringToObject(o, "tool_version", vks_version_string());
    cJSON_AddStringToObject(o, "kind", vks_bake_out_name(kind));
    cJSON_AddStringToObject(o, "entry", job->where);
    cJSON_AddStringToObject(o, "entry_hash", job->hash);
    cJSON_AddStringToObject(o, "engine", vks_bake_engine_name(e));
    cJSON_AddStringToObject(o, "model", job->model_given);
    cJSON_AddStringToObject(o, "model_format", l->skin->format);
    cJSON_AddNumberToObject(o, "vertex_count", l->skin->vertex_count);
    cJSON_AddStringToObject(o, "vertex_order", kind >= 4 ? "file" : "model");
    cJSON_AddNumberToObject(o, "bone_count", l->skin->bone_count);
    cJSON_AddNumberToObject(o, "frame_count", l->frames);
    cJSON_AddNumberToObject(o, "fps", job->fps);
    cJSON_AddStringToObject(o, "encoding", encoding);
    cJSON_AddStringToObject(o, "normals", vks__bake_normals_note(l->skin));
    add_space(o, l->skin);
    s.files = cJSON_AddArrayToObject(o, "files");
    return s;
}

/* The clip table: where every clip and frame is, in texture rows (or cache samples). A split
   VAT (per_part: frames a texture, 0 none) gives each frame's part and its row in that part. */
static void add_clips(sidecar *s, const vks_bake_job *job, const vks_bake_loaded *l, uint32_t rows_per_frame,
                      uint32_t per_part)
{
    cJSON *a = cJSON_AddArrayToObject(s->root, "clips");
    for (uint32_t c = 0; c < l->clip_count; c++) {
        const vks_bake_clip *bc = &l->clips[c];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", bc->label);
        cJSON_AddStringToObject(o, "file", bc->file);
        cJSON_AddNumberToObject(o, "index", bc->index); /* in its file: what finds an unnamed clip */
        cJSON_AddNumberToObject(o, "duration", bc->clip->duration);
        /* how the file asks the clip to play past its end; loop: whether the engine should wrap */
        static const char *const cycles[4] = {"loop", "clamp", "mirror", "reset"};
        unsigned cy = (unsigned)bc->clip->cycle;
        cJSON_AddStringToObject(o, "cycle", cy < 4 ? cycles[cy] : "loop");
        cJSON_AddBoolToObject(o, "loop", bc->clip->cycle == VKS_CYCLE_LOOP);
        cJSON_AddNumberToObject(o, "fps", job->fps);
        cJSON_AddNumberToObject(o, "start", bc->t0);
        cJSON_AddNumberToObject(o, "end", bc->t1);
        cJSON_AddNumberToObject(o, "first_frame", bc->first_frame);
        cJSON_AddNumberToObject(o, "frame_count", bc->frames);
        uint32_t per = per_part ? per_part : UINT32_MAX;
        if (per_part)
            cJSON_AddNumberToObject(o, "part", bc->first_frame / per);
        cJSON_AddNumberToObject(o, "row", (double)(bc->first_frame % per) * rows_per_frame);
        cJSON_AddNumberToObject(o, "rows", (double)bc->frames * rows_per_frame);
        if (l->layers)
            vks__bake_layers_sidecar(o, job, l);
        cJSON *fa = cJSON_AddArrayToObject(o, "frames");
        for (uint32_t f = 0; f < bc->frames; f++) {
            cJSON *fo = cJSON_CreateObject();
            cJSON_AddNumberToObject(fo, "time", (float)vks__bake_frame_time(job, bc, f));
            if (per_part)
                cJSON_AddNumberToObject(fo, "part", (bc->first_frame + f) / per);
            cJSON_AddNumberToObject(fo, "row", (double)((bc->first_frame + f) % per) * rows_per_frame);
            cJSON_AddItemToArray(fa, fo);
        }
        cJSON_AddItemToArray(a, o);
    }
}

static void add_file(sidecar *s, const char *name, const char *role)
{
    char *p = join(s->dir, name, "");
    uint64_t n = p ? file_bytes(p) : 0;
    free(p);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", name);
    cJSON_AddStringToObject(o, "role", role);
    cJSON_AddNumberToObject(o, "bytes", (double)n);
    cJSON_AddItemToArray(s->files, o);
    s->bytes += n;
}

vks_result vks__bake_write_json(const char *path, const cJSON *o, vks_error *err)
{
    char *text = cJSON_Print(o);
    vks_output *out = NULL;
    vks_result r = text ? vks_output_open(&out, path, err)
                        : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory for %s", path);
    if (r == VKS_OK) {
        size_t n = strlen(text);
        int ok = fwrite(text, 1, n, vks_output_stream(out)) == n && fputc('\n', vks_output_stream(out)) != EOF;
        r = vks_output_close(out, ok, err);
    }
    free(text);
    return r;
}

/* Writes the sidecar (last), records the kind's files in the run's result. */
static int sidecar_end(sidecar *s, const vks_bake_job *job, int kind, vks_bake_result *res)
{
    if (vks__bake_root_motion_of(job)) { /* written before any kind (vks_bake_write_root_motion) */
        char *name = vks__bake_root_motion_name(job, NULL);
        if (name)
            add_file(s, name, vks__bake_root_motion_role(job));
        free(name);
    }
    char *path = join(s->dir, job->name, sidecar_suffix(kind));
    vks_error err = {0};
    vks_result r = path ? vks__bake_write_json(path, s->root, &err)
                        : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
    if (r == VKS_OK) {
        for (const cJSON *it = s->files->child; it; it = it->next) {
            cJSON *e = cJSON_Duplicate(it, 1);
            cJSON_AddStringToObject(e, "kind", vks_bake_out_name(kind));
            cJSON_AddItemToArray(res->files, e);
        }
        res->bytes += s->bytes + file_bytes(path);
        res->outputs_written++;
    } else {
        char msg[512];
        vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %s", job->where, vks_error_format(&err, NULL, msg, sizeof msg));
    }
    free(path);
    cJSON_Delete(s->root);
    return r == VKS_OK;
}

static int report(const vks_bake_job *job, vks_result r, const vks_error *err)
{
    if (r == VKS_OK)
        return 1;
    char msg[512];
    vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %s", job->where, vks_error_format(err, NULL, msg, sizeof msg));
    return 0;
}

/* ---- engine limits ---- */

static uint32_t pow2_up(uint32_t x)
{
    uint32_t p = 1;
    while (p < x && p < (1u << 31))
        p <<= 1;
    return p;
}

static uint32_t pow2_down(uint32_t x)
{
    uint32_t p = 1;
    while (p <= x / 2)
        p <<= 1;
    return p;
}

/* One texture holding every frame (frames) of the job. */
static vks_result whole_layout(const vks_bake_job *job, uint32_t vertices, uint32_t frames, vks_vat_layout *out,
                               vks_error *err)
{
    uint32_t mw = job->max_width;
    if (job->pow2 && mw) /* the widest power of two the limit allows */
        for (uint32_t p = 1u << 31; p; p >>= 1)
            if (p <= mw) {
                mw = p;
                break;
            }
    vks_result r = vks_vat_layout_make(vertices, frames, mw, out, err);
    if (r != VKS_OK || !job->pow2)
        return r;
    /* columns past the last vertex and rows past the last frame are padding, left 0: the
       texel formula (row = frame * rows_per_frame + vertex / width) is unchanged */
    uint64_t h = pow2_up(out->height);
    if (h < out->height || h > INT32_MAX)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "vat", "%u rows padded to a power of two exceed an "
                             "image's %d rows", out->height, INT32_MAX);
    out->width = pow2_up(out->width);
    out->height = (uint32_t)h;
    return VKS_OK;
}

vks_result vks__bake_vat_layout(const vks_bake_job *job, uint32_t vertices, uint32_t frames, vks_vat_layout *out,
                               vks_error *err)
{
    vks_result r = whole_layout(job, vertices, frames, out, err);
    uint32_t mh = job->max_height ? job->max_height : VKS_BAKE_DEFAULT_MAX_HEIGHT;
    if (r != VKS_OK || !job->split || out->height <= mh)
        return r;
    /* split: as many whole frames a texture as max_height holds (with pow2, as its padded height
       must stay within it); every part that tall, so one rest mesh UV addresses frame 0 of each */
    uint32_t per = (job->pow2 ? pow2_down(mh) : mh) / out->rows_per_frame;
    if (!per)
        return r; /* not one frame fits: vks_bake_limits_check refuses the job */
    return whole_layout(job, vertices, per < frames ? per : frames, out, err);
}

int vks__bake_limits_check(const vks_bake_job *job, const vks_bake_loaded *l, const char *manifest)
{
    uint32_t mh = job->max_height ? job->max_height : VKS_BAKE_DEFAULT_MAX_HEIGHT;
    if (job->outputs & VKS_BAKE_OUT_VAT_KINDS) {
        vks_vat_layout lay;
        vks_error err = {0};
        if (vks__bake_vat_layout(job, l->skin->vertex_count, l->frames, &lay, &err) != VKS_OK) {
            char msg[400];
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: %s: %s", manifest, job->where, vks_error_format(&err, NULL, msg, sizeof msg));
            return 0;
        }
        if (lay.height > mh && job->split) { /* split, and still one frame's rows are too many */
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR,
                    "%s: %s: one frame of the VAT of %u vertices is %u rows of %u texels%s, over "
                    "\"max_height\" %u even split: raise \"max_width\" (now %u) for fewer rows per frame, or "
                    "raise \"max_height\" if the engine takes it",
                    manifest, job->where, l->skin->vertex_count, lay.rows_per_frame, lay.width,
                    job->pow2 ? ", padded to powers of two" : "", mh, job->max_width);
            return 0;
        }
        if (lay.height > mh) {
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR,
                    "%s: %s: the VAT of %u vertices x %u frames is %u x %u texels (%u row%s per frame%s), "
                    "over \"max_height\" %u: lower \"fps\" or \"range\", split its clips into jobs, raise "
                    "\"max_width\" (now %u) for fewer rows per frame, raise \"max_height\" if the engine "
                    "takes it, or set \"split\": true (--split) to spread its frames over several textures",
                    manifest, job->where, l->skin->vertex_count, l->frames, lay.width, lay.height,
                    lay.rows_per_frame, lay.rows_per_frame == 1 ? "" : "s", job->pow2 ? ", padded to powers of two" : "", mh, job->max_width);
            return 0;
        }
    }
    if (job->outputs & VKS_BAKE_OUT_ATLAS) {
        uint64_t w = (uint64_t)l->skin->bone_count * 3;
        if ((l->frames > mh && !job->split) || w > VKS_BAKE_MAX_TEXTURE_SIDE) {
            vks__log(vks__bake_log(job->host), VKS_LOG_ERROR,
                    "%s: %s: the bone atlas of %u bones x %u frames is %llu x %u texels, over %s %u: %s",
                    manifest, job->where, l->skin->bone_count, l->frames, (unsigned long long)w, l->frames,
                    l->frames > mh ? "\"max_height\"" : "the widest texture,",
                    l->frames > mh ? mh : VKS_BAKE_MAX_TEXTURE_SIDE,
                    l->frames > mh ? "lower \"fps\" or \"range\", split its clips into jobs, raise \"max_height\" "
                                     "if the engine takes it, or set \"split\": true (--split) to spread its frames "
                                     "over several textures"
                                   : "the model has too many bones for one atlas row; bake a VAT instead");
            return 0;
        }
    }
    return 1;
}

/* ---- the rest mesh: bind pose, each vertex's UV its texel in frame 0 ---- */

/* Frame-major vertices into the VAT layout's texels (vks_vat_texels), malloc'ed. */
static float *to_texels(const float *src, const vks_vat_layout *lay)
{
    float *t = malloc((vks_vat_texel_floats(lay) + 1) * sizeof *t);
    if (t)
        vks_vat_texels(src, lay, t);
    return t;
}

/* A frame a row, every row a frame's (no wrap, no padding): the texels are the frames as they
   are, and the copy (a texture's worth of fresh pages per stream and kind) is not made. */
static int frames_are_texels(const vks_vat_layout *lay)
{
    return lay->width == lay->vertex_count && lay->rows_per_frame == 1 && lay->height == lay->frames;
}

/* The rest mesh every VAT kind of the job lists (its sidecar records the files' sizes, so they
 * are written before any VAT sidecar). The same bytes whichever kind asks for it. */
int vks__bake_write_rest_mesh(const vks_bake_job *job, const vks_bake_loaded *l, const char *dir)
{
    vks_vat_layout lay;
    vks_error err = {0};
    if (!report(job, vks__bake_vat_layout(job, l->skin->vertex_count, l->frames, &lay, &err), &err))
        return 0;
    char *mesh = join(dir, job->name, ".vat.obj"), *glb = join(dir, job->name, ".vat.glb");
    int ok = mesh && glb && report(job, vks_vat_write_rest_obj(mesh, l->skin, &lay, job->model_given, &err), &err) &&
             report(job, vks_vat_write_rest_glb(glb, l->skin, &lay, &err), &err);
    free(glb);
    free(mesh);
    return ok;
}

/* The library's sidecar (vks_vat_sidecar_write) with the job's entry, hash and engine, its
 * clip table (frame times as the GPU samples them); then the kind's files in the run's result. */
static int vat_sidecar(const vks_bake_job *job, const vks_bake_loaded *l, const char *dir, int kind, vks_bake_engine e,
                       vks_vat_sidecar *sd, vks_bake_result *res)
{
    const char *extra[] = {"entry", job->where, "entry_hash", job->hash, "engine", vks_bake_engine_name(e),
                           "normals", vks__bake_normals_note(l->skin), NULL};
    vks_vat_sidecar_clip *sc = calloc(l->clip_count + 1, sizeof *sc);
    char *path = join(dir, job->name, sidecar_suffix(kind));
    vks_error err = {0};
    vks_result r = sc && path ? VKS_OK : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
    for (uint32_t c = 0; r == VKS_OK && c < l->clip_count; c++) {
        const vks_bake_clip *bc = &l->clips[c];
        float *t = malloc(sizeof *t * (bc->frames + 1));
        if (!t) {
            r = vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
            break;
        }
        for (uint32_t f = 0; f < bc->frames; f++)
            t[f] = (float)vks__bake_frame_time(job, bc, f);
        sc[c] = (vks_vat_sidecar_clip){bc->label, bc->file, bc->index, bc->clip, bc->t0, bc->t1, bc->first_frame,
                                       bc->frames, t};
    }
    sd->tool = "vkskin bake", sd->kind = vks_bake_out_name(kind), sd->extra = extra;
    sd->model = job->model_given, sd->skin = l->skin, sd->frame_count = l->frames, sd->fps = job->fps;
    sd->clips = sc, sd->clip_count = l->clip_count;
    if (r == VKS_OK)
        r = vks_vat_sidecar_write(path, sd, &err);
    if (r == VKS_OK) {
        for (uint32_t i = 0; i < sd->file_count; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "path", sd->files[i].path);
            cJSON_AddStringToObject(o, "role", sd->files[i].role);
            cJSON_AddNumberToObject(o, "bytes", (double)sd->files[i].bytes);
            cJSON_AddStringToObject(o, "kind", vks_bake_out_name(kind));
            cJSON_AddItemToArray(res->files, o);
            res->bytes += sd->files[i].bytes;
        }
        res->bytes += file_bytes(path);
        res->outputs_written++;
    }
    for (uint32_t c = 0; sc && c < l->clip_count; c++)
        free((void *)sc[c].times);
    free(sc);
    free(path);
    return report(job, r, &err);
}

/* One texture of a VAT kind: stream (position, normal) of part p, written by vat_stream. */
typedef struct vat_streams {
    const vks_bake_job *job;
    const vks_bake_frames *fr;
    const char *dir;
    const vks_vat_layout *lay;
    const float *bounds_min, *bounds_max;
    uint32_t frames, per, parts, streams, parts_named;
    int k;
    char **names;     /* [part * streams + stream]: its file name once written, else NULL */
    uint64_t *bytes;  /* [the same]: its size */
} vat_streams;

/* Index i of the kind's textures: encoded and written (a pool share: the textures of one kind
 * are written at once, and each PNG's deflate is the bake's longest single step). */
static void vat_stream(void *arg, uint32_t i)
{
    const vat_streams *v = arg;
    const vks_vat_layout *lay = v->lay;
    uint32_t p = i / v->streams, stream = i % v->streams;
    int k = v->k;
    vks_vat_layout pl = *lay; /* this part's frames */
    pl.frames = p + 1 < v->parts ? v->per : v->frames - p * v->per;
    const float *src = (stream ? v->fr->normals : v->fr->positions) + (size_t)p * v->per * lay->vertex_count * 3;
    char suffix[48], part[24] = "";
    if (v->parts_named)
        snprintf(part, sizeof part, "_part%u", p);
    snprintf(suffix, sizeof suffix, ".vat.%s%s%s", stream ? "nrm" : "pos", k == 2 ? part : (k ? ".f16" : ".f32"),
             k == 2 ? ".png" : "");
    if (k < 2)
        snprintf(suffix + strlen(suffix), sizeof suffix - strlen(suffix), "%s.exr", part);
    char *name = join(NULL, v->job->name, suffix), *path = join(v->dir, v->job->name, suffix);
    float *copy = frames_are_texels(&pl) ? NULL : to_texels(src, &pl);
    const float *tex = frames_are_texels(&pl) ? src : copy;
    vks_error err = {0};
    vks_result r = tex && path && name ? VKS_OK : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
    if (r == VKS_OK && k < 2) {
        r = vks_vat_exr_write(path, tex, lay->width, lay->height, 3, k ? VKS_VAT_TEXEL_HALF : VKS_VAT_TEXEL_FLOAT,
                              &err);
    } else if (r == VKS_OK) {
        size_t n = (size_t)lay->width * lay->height * 3;
        uint16_t *q = malloc(n * 2 + 2);
        float nlo[3] = {-1, -1, -1}, nhi[3] = {1, 1, 1};
        if (q)
            vks_vat_quantize_texels(tex, n / 3, stream ? nlo : v->bounds_min, stream ? nhi : v->bounds_max, q);
        r = q ? vks_vat_png16_write(path, q, lay->width, lay->height, &err)
              : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
        free(q);
    }
    if (report(v->job, r, &err)) {
        v->bytes[i] = file_bytes(path);
        v->names[i] = name, name = NULL;
    }
    free(copy);
    free(name);
    free(path);
}

/* The rest mesh is written already (vks_bake_write_rest_mesh); this kind's streams (on the
 * pool's idle threads too: vks__work_pool_share), then its sidecar listing them and the mesh. */
static int write_vat(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                     const char *dir, int kind, vks_bake_engine e, vks__work_pool *pool, vks_bake_result *res)
{
    vks_vat_layout lay;
    vks_error err = {0};
    if (!report(job, vks__bake_vat_layout(job, l->skin->vertex_count, l->frames, &lay, &err), &err))
        return 0;
    static const char *const enc[3] = {"float32", "float16", "unorm16"};
    int k = kind; /* 0, 1, 2: the VAT kinds */
    vks_vat_sidecar sd = {0};
    sd.encoding = enc[k], sd.layout = &lay, sd.pow2 = job->pow2;
    size_t count = (size_t)l->frames * l->skin->vertex_count;
    if (fr->has_bounds) {
        memcpy(sd.bounds_min, fr->bounds_min, sizeof sd.bounds_min);
        memcpy(sd.bounds_max, fr->bounds_max, sizeof sd.bounds_max);
    } else {
        vks_vat_bounds(fr->positions, count, sd.bounds_min, sd.bounds_max);
    }
    /* split (lay.frames < the job's): part p holds frames [p * per, (p + 1) * per), each part
       lay.height rows, the last one's rows past its frames 0 */
    const uint32_t per = lay.frames, parts = (l->frames + per - 1) / per, streams = fr->normals ? 2 : 1;
    vks_vat_sidecar_part *pv = parts > 1 ? calloc(parts, sizeof *pv) : NULL;
    uint32_t cap = 2 * parts + 3, nf = 0; /* streams, the two meshes, root motion */
    vks_vat_sidecar_file *files = calloc(cap, sizeof *files);
    char **names = calloc(cap, sizeof *names);
    uint64_t *bytes = calloc(cap, sizeof *bytes);
    int ok = files && names && bytes && (parts < 2 || pv);
    if (!ok)
        report(job, vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory"), &err);
    if (ok) {
        vat_streams v = {job, fr, dir, &lay, sd.bounds_min, sd.bounds_max, l->frames, per, parts, streams,
                         pv != NULL, k, names, bytes};
        vks__work_pool_share(pool, parts * streams, vat_stream, &v);
    }
    /* the files in the order one thread wrote them: part by part, position before normal (a
       stream that failed said so itself, and no sidecar is written) */
    for (uint32_t i = 0; ok && i < parts * streams; i++) {
        uint32_t p = i / streams, stream = i % streams;
        ok = names[i] != NULL;
        files[nf++] = (vks_vat_sidecar_file){names[i], stream ? "normal" : "position", bytes[i]};
        if (pv && !stream) /* part p: its first frame, frames and rows */
            pv[p] = (vks_vat_sidecar_part){p * per, p + 1 < parts ? per : l->frames - p * per, lay.height, NULL, NULL};
        if (pv)
            *(stream ? &pv[p].normal : &pv[p].position) = names[i];
    }
    static const char *const mesh_suffix[2] = {".vat.obj", ".vat.glb"};
    /* the .glb's lookup is TEXCOORD_1 after the character's own UV0 (vks_gltf_bind_mesh_lookup_set) */
    const char *const mesh_role[2] = {"rest mesh (OBJ, vt = texel)", vks_gltf_bind_mesh_lookup_set(l->skin)
                                                                         ? "rest mesh (glTF, TEXCOORD_1 = texel)"
                                                                         : "rest mesh (glTF, TEXCOORD_0 = texel)"};
    for (int m = 0; ok && m < 2; m++) {
        char *name = join(NULL, job->name, mesh_suffix[m]), *path = join(dir, job->name, mesh_suffix[m]);
        files[nf] = (vks_vat_sidecar_file){name ? name : "", mesh_role[m], path ? file_bytes(path) : 0};
        names[nf++] = name;
        free(path);
    }
    if (ok && vks__bake_root_motion_of(job)) { /* written before any kind (vks_bake_write_root_motion) */
        char *name = vks__bake_root_motion_name(job, NULL), *path = vks__bake_root_motion_name(job, dir);
        files[nf] = (vks_vat_sidecar_file){name ? name : "", vks__bake_root_motion_role(job), path ? file_bytes(path) : 0};
        names[nf++] = name;
        free(path);
    }
    sd.files = files, sd.file_count = nf;
    sd.parts = pv, sd.part_count = pv ? parts : 0, sd.frames_per_part = pv ? per : 0;
    ok = ok && vat_sidecar(job, l, dir, kind, e, &sd, res);
    for (uint32_t i = 0; names && i < cap; i++)
        free(names[i]);
    free(names);
    free(bytes);
    free(files);
    free(pv);
    return ok;
}

/* The atlas sidecar's meshes: each mesh's name and its range of atlas bones. */
static void add_atlas_meshes(cJSON *root, const vks_skin *sk)
{
    cJSON *meshes = cJSON_AddArrayToObject(root, "meshes");
    for (uint32_t m = 0; m < sk->mesh_count; m++) {
        cJSON *mo = cJSON_CreateObject();
        cJSON_AddStringToObject(mo, "name", sk->meshes[m].name);
        cJSON_AddNumberToObject(mo, "first_bone", sk->meshes[m].first_bone);
        cJSON_AddNumberToObject(mo, "bone_count", sk->meshes[m].bone_count);
        cJSON_AddItemToArray(meshes, mo);
    }
}

static int write_atlas(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                       const char *dir, vks_bake_engine e, vks_bake_result *res)
{
    const vks_skin *sk = l->skin;
    sidecar s = sidecar_begin(job, l, dir, 3, "float32", e);
    cJSON_ReplaceItemInObject(s.root, "engine", cJSON_CreateString("cpu-reference"));
    cJSON_AddStringToObject(s.root, "color_space", "linear");
    /* split: max_height frames a part, every part that tall (the last one's rows past its frames 0) */
    const uint32_t mh = job->max_height ? job->max_height : VKS_BAKE_DEFAULT_MAX_HEIGHT;
    const uint32_t per = job->split && l->frames > mh ? mh : l->frames, parts = (l->frames + per - 1) / per;
    cJSON *lo = cJSON_AddObjectToObject(s.root, "layout");
    cJSON_AddNumberToObject(lo, "width", (double)sk->bone_count * 3);
    cJSON_AddNumberToObject(lo, "height", per);
    cJSON_AddNumberToObject(lo, "rows_per_frame", 1);
    cJSON_AddStringToObject(lo, "texel", parts > 1 ? "part = frame / frames_per_part; bone b of frame f: texels 3b, "
                                                     "3b+1, 3b+2 of row f % frames_per_part hold rows x, y, z of its "
                                                     "3x4 skin matrix (RGBA = m0 m1 m2 m3)"
                                                   : "bone b of frame f: texels 3b, 3b+1, 3b+2 of row f hold rows x, "
                                                     "y, z of its 3x4 skin matrix (RGBA = m0 m1 m2 m3)");
    if (parts > 1)
        cJSON_AddNumberToObject(lo, "frames_per_part", per);
    cJSON *pa = parts > 1 ? cJSON_AddArrayToObject(lo, "parts") : NULL;
    cJSON *bones = cJSON_AddArrayToObject(s.root, "bones");
    for (uint32_t b = 0; b < sk->bone_count; b++)
        cJSON_AddItemToArray(bones, cJSON_CreateString(sk->nodes[sk->bones[b].node].name));
    add_clips(&s, job, l, 1, parts > 1 ? per : 0);
    vks_error err = {0};
    vks_result r = VKS_OK;
    int ok = 1;
    char *name, *path;
    const size_t row = (size_t)sk->bone_count * 3 * 4; /* floats a frame */
    for (uint32_t p = 0; p < parts && ok; p++) {
        char suffix[32] = ".atlas.exr";
        if (pa)
            snprintf(suffix, sizeof suffix, ".atlas_part%u.exr", p);
        uint32_t count = p + 1 < parts ? per : l->frames - p * per;
        name = join(NULL, job->name, suffix), path = join(dir, job->name, suffix);
        const float *rows = fr->matrices + (size_t)p * per * row;
        float *padded = NULL; /* the last part, shorter: its rows past its frames 0 */
        if (count < per && (padded = calloc((size_t)per * row, sizeof *padded)))
            memcpy(padded, rows, (size_t)count * row * sizeof *padded);
        r = name && path && (count == per || padded)
                ? vks_vat_exr_write(path, padded ? padded : rows, sk->bone_count * 3, per, 4, VKS_VAT_TEXEL_FLOAT, &err)
                : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
        ok = report(job, r, &err);
        if (ok)
            add_file(&s, name, "bone matrices");
        if (ok && pa) {
            cJSON *po = cJSON_CreateObject();
            cJSON_AddNumberToObject(po, "first_frame", (double)p * per);
            cJSON_AddNumberToObject(po, "frame_count", count);
            cJSON_AddNumberToObject(po, "height", per);
            cJSON_AddStringToObject(po, "matrices", name);
            cJSON_AddItemToArray(pa, po);
        }
        free(padded);
        free(name);
        free(path);
    }
    /* the mesh that plays it: joints and weights in glTF (file vertex order), JOINTS_0 of mesh m
       being atlas bone meshes[m].first_bone + joint */
    name = join(NULL, job->name, ".atlas.glb");
    path = join(dir, job->name, ".atlas.glb");
    add_atlas_meshes(s.root, sk);
    cJSON_AddStringToObject(s.root, "mesh_joints", "glTF JOINTS_0 j of mesh m is atlas bone meshes[m].first_bone + j; "
                                                   "vertices as the source stores them (the glTF root node's "
                                                   "transform holds the axis correction); at most 4 joints a "
                                                   "vertex (the largest, renormalised), as the engine kits' "
                                                   "shaders read them");
    if (ok) {
        vks_gltf_options go = {0};
        go.generator = "vkskin bake";
        go.max_influences = 4; /* the kits' atlas shaders blend JOINTS_0/WEIGHTS_0 only */
        vks_gltf_report gr = {0};
        r = name && path ? vks_gltf_write_skin(path, sk, NULL, 0, &go, &gr, &err)
                         : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
        ok = report(job, r, &err);
        if (ok)
            add_file(&s, name, "mesh with joints and weights (glTF)");
        if (ok && gr.influences_dropped) {
            vks__bake_influences_warning(job->host, job->where, "the bone atlas's mesh (4 joints a vertex)", 4,
                                       gr.influences_dropped, gr.influence_max_dropped);
            vks__bake_influences_json(cJSON_AddObjectToObject(s.root, "influences_lost"), 4, gr.influences_dropped,
                                    gr.influence_max_dropped);
            res->lost_vertices[1] = gr.influences_dropped;
            res->lost_largest[1] = gr.influence_max_dropped;
        }
    }
    free(name);
    free(path);
    if (!ok) {
        cJSON_Delete(s.root);
        return 0;
    }
    return sidecar_end(&s, job, 3, res);
}

static int write_cache(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                       const char *dir, int kind, vks_bake_engine e, vks_bake_result *res)
{
    vks_bake_format fmt = kind == 4 ? VKS_BAKE_PC2 : kind == 5 ? VKS_BAKE_RAW : VKS_BAKE_GLB;
    const char *suffix = kind == 4 ? ".pc2" : kind == 5 ? ".raw" : ".morph.glb";
    sidecar s = sidecar_begin(job, l, dir, kind,
                              kind == 4   ? "pc2 float32 xyz, sample = frame"
                              : kind == 5 ? "float32 x y z nx ny nz per file vertex, frame-major"
                                          : "glTF: frame 0 as the mesh, one morph target per frame, STEP weights",
                              e);
    add_clips(&s, job, l, 1, 0);
    char *name = join(NULL, job->name, suffix), *path = join(dir, job->name, suffix);
    vks_error err = {0};
    vks_bake *b = NULL;
    vks_result r = name && path ? vks_bake_open(&b, path, fmt, l->skin, 1, l->frames, &err)
                                : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, NULL, "no memory");
    size_t per = (size_t)l->skin->vertex_count * 3;
    for (uint32_t g = 0; r == VKS_OK && g < l->frames; g++)
        r = vks_bake_write(b, 0, g, fr->positions + g * per, fr->normals ? fr->normals + g * per : NULL, &err);
    if (b) {
        vks_result rc = vks_bake_close(b, r == VKS_OK, r == VKS_OK ? &err : NULL);
        if (r == VKS_OK)
            r = rc;
    }
    int ok = report(job, r, &err);
    if (ok)
        add_file(&s, name, kind == 4 ? "point cache" : kind == 5 ? "raw positions and normals" : "morph targets");
    free(name);
    free(path);
    if (!ok) {
        cJSON_Delete(s.root);
        return 0;
    }
    return sidecar_end(&s, job, kind, res);
}

/* No output holds an inf or a NaN: a clip's keys are bounded (src/core/clip_float32.c), but a
 * hierarchy composes them, so the frames the outputs are made of are scanned once first. */
int vks__bake_frames_finite(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr, uint32_t kinds)
{
    size_t per = (size_t)l->skin->vertex_count * 3, vertices = per * l->frames;
    int deformed = (kinds & ~(uint32_t)VKS_BAKE_OUT_ATLAS) != 0;
    const struct {
        const float *v;
        size_t n, per;
        const char *what;
    } arrays[3] = {{deformed ? fr->positions : NULL, vertices, per, "a deformed position"},
                   {deformed ? fr->normals : NULL, vertices, per, "a deformed normal"},
                   {kinds & VKS_BAKE_OUT_ATLAS ? fr->matrices : NULL, (size_t)12 * l->skin->bone_count * l->frames,
                    (size_t)12 * l->skin->bone_count, "a skin matrix"}};
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; arrays[a].v && i < arrays[a].n; i++)
            if (!isfinite(arrays[a].v[i])) {
                vks__log(vks__bake_log(job->host), VKS_LOG_ERROR, "%s: frame %zu: %s is %g, beyond float32 (the clip takes the model too far); "
                        "no output written", job->where, i / arrays[a].per, arrays[a].what, (double)arrays[a].v[i]);
                return 0;
            }
    return 1;
}

int vks__bake_write_kind(const vks_bake_job *job, const vks_bake_loaded *l, const vks_bake_frames *fr,
                        const char *dir, int k, vks_bake_engine e, vks__work_pool *pool, vks_bake_result *res)
{
    return k < 3   ? write_vat(job, l, fr, dir, k, e, pool, res)
           : k == 3 ? write_atlas(job, l, fr, dir, e, res)
                    : write_cache(job, l, fr, dir, k, e, res);
}
