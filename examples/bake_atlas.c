/* bake_atlas: a host program that bakes a bone-matrix atlas of a character through the
 * library's bake jobs (bake_job.h), as `vkskin bake` does, with the public headers only.
 *
 * One job in memory (vks_bake_manifest_parse) plays the clip file's clips at 30 fps over
 * FRAMES frames on the CPU reference engine and asks for an "atlas": NAME.atlas.exr, one row a
 * frame, bone b's 3x4 skin matrix in texels 3b..3b+2 (RGBA = a row of 4), NAME.atlas.glb, the
 * mesh that plays it, and the sidecar NAME.atlas.json. The check plays the atlas as an engine
 * would: the model (vks_read_file) skinned on the host with the matrices read back from the
 * texture (vks_vat_exr_read), every vertex of a few frames, against REF.raw, the same frames deformed by the CLI:
 *   vkskin deform MODEL --cpu --clip CLIP --frames FRAMES --fps 30 --out REF.raw
 * and the texture's size and the sidecar's "layout" width against the model's bones.
 * Usage: bake_atlas MODEL CLIP OUTDIR REF.raw FRAMES
 * Exit: 0 baked and matching, 1 a mismatch or an error. */
#include <vkskin.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void log_line(void *user, vks_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    fprintf(stderr, "bake_atlas: %s\n", msg);
}

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    unsigned char *b = NULL;
    if (f && fstat(fileno(f), &st) == 0 && (b = malloc((size_t)st.st_size + 1)))
        *size = fread(b, 1, (size_t)st.st_size, f);
    if (f)
        fclose(f);
    return b;
}

/* The atlas's texels as RGBA floats (width x height x 4, rows top down), read back by the
 * library (vat_read.h, through OpenEXR); NULL when the file is not an image of that size. */
static float *read_atlas(const char *path, uint32_t width, uint32_t height)
{
    float *texels = NULL;
    uint32_t w = 0, h = 0;
    int rgba = 4;
    vks_error err = {0};
    if (vks_vat_exr_read(path, &rgba, &texels, &w, &h, &err) != VKS_OK) {
        char msg[512];
        fprintf(stderr, "bake_atlas: %s\n", vks_error_format(&err, path, msg, sizeof msg));
        return NULL;
    }
    if (w != width || h != height) {
        free(texels);
        return NULL;
    }
    return texels;
}

/* Vertex v skinned by frame f's matrices (row r of bone b: texel 3b + r of row f). */
static void skin_vertex(const vks_skin *s, const float *row, uint32_t v, const vks_group *g, float out[3])
{
    const float *p = s->positions[v];
    out[0] = out[1] = out[2] = 0;
    for (int k = 0; k < VKS_MAX_INFLUENCES; k++) {
        float w = s->influences[v].weight[k];
        if (w == 0)
            continue;
        const float *m = row + (size_t)s->palette[g->first_palette + s->influences[v].index[k]] * 12;
        for (int r = 0; r < 3; r++)
            out[r] += w * (m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3]);
    }
}

/* Every vertex of frames 0, the middle one and the last, played from the atlas, against the
 * CLI's positions (REF.raw: 6 floats a file vertex, meshes in order, frame-major). */
static int compare(const vks_skin *s, const float *texels, uint32_t frames, const char *ref)
{
    size_t size = 0;
    float *r = (float *)read_all(ref, &size);
    size_t file_vertices = 0, checked = 0;
    for (uint32_t m = 0; m < s->mesh_count; m++)
        file_vertices += s->meshes[m].source_vertex_count;
    int ok = r && size == (size_t)frames * file_vertices * 24;
    double worst = 0;
    const uint32_t picks[3] = {0, frames / 2, frames - 1};
    for (uint32_t i = 0; ok && i < 3; i++)
        for (uint32_t gi = 0; gi < s->group_count; gi++) {
            const vks_group *g = &s->groups[gi];
            size_t mesh_at = 0; /* the file's vertices of the meshes before this one */
            for (uint32_t m = 0; m < g->mesh; m++)
                mesh_at += s->meshes[m].source_vertex_count;
            for (uint32_t v = g->first_vertex; v < g->first_vertex + g->vertex_count; v++, checked++) {
                float p[3];
                skin_vertex(s, texels + (size_t)picks[i] * s->bone_count * 12, v, g, p);
                const float *q = r + ((size_t)picks[i] * file_vertices + mesh_at + s->source_vertex[v]) * 6;
                for (int c = 0; c < 3; c++) {
                    double d = fabs((double)p[c] - q[c]) / (1.0 + fabs((double)q[c]));
                    worst = d > worst || d != d ? d : worst;
                }
            }
        }
    if (!ok || !(worst <= 1e-4))
        fprintf(stderr, "bake_atlas: MISMATCH: the atlas played against vkskin deform (%s; relative %.3g)\n",
                ok ? "positions differ" : "REF.raw's size", worst);
    else
        printf("bake_atlas: %zu vertices of 3 frames played from the atlas match vkskin deform (relative %.3g)\n",
               checked, worst);
    free(r);
    return ok && worst <= 1e-4;
}

/* The sidecar's "width" (inside "layout": the first one in the file). */
static double sidecar_width(const char *path)
{
    size_t size = 0;
    char *t = (char *)read_all(path, &size);
    const char *w = t ? (t[size] = 0, strstr(t, "\"width\":")) : NULL;
    double v = w ? atof(w + 8) : -1;
    free(t);
    return v;
}

static int bake(const char *model, const char *clip, const char *out, uint32_t frames, vks_bake_manifest **m)
{
    vks_bake_options o;
    vks_bake_options_init(&o);
    o.engine = VKS_BAKE_CPU;
    o.out_dir = out;
    o.force = 1; /* a run again writes again: the test checks this run's files */
    o.logger.func = log_line;
    char job[8192];
    snprintf(job, sizeof job,
             "{\"version\": 1, \"jobs\": [{\"name\": \"atlas\", \"model\": \"%s\", \"clips\": [\"%s\"], "
             "\"fps\": 30, \"range\": [0, %.9g], \"outputs\": [\"atlas\"]}]}",
             model, clip, (frames - 1) / 30.0);
    vks_error err = {0};
    vks_bake_job_info info;
    if (vks_bake_manifest_parse(m, "bake_atlas.json", job, strlen(job), &o, &err) != VKS_OK ||
        vks_bake_run(*m, &o, NULL, &err) != VKS_OK) {
        fprintf(stderr, "bake_atlas: %s\n", err.msg);
        return 0;
    }
    vks_bake_job_get(*m, 0, &info);
    for (uint32_t i = 0; i < info.file_count; i++) {
        vks_bake_file f;
        vks_bake_job_file(*m, 0, i, &f);
        printf("bake_atlas: %s (%s, %llu bytes)\n", f.path, f.kind, (unsigned long long)f.bytes);
    }
    if (info.status != VKS_BAKE_JOB_BAKED || info.frames != frames)
        fprintf(stderr, "bake_atlas: MISMATCH: not baked with %u frames\n", frames);
    return info.status == VKS_BAKE_JOB_BAKED && info.frames == frames;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: bake_atlas MODEL CLIP OUTDIR REF.raw FRAMES\n");
        return 1;
    }
    uint32_t frames = (uint32_t)atoi(argv[5]);
    vks_bake_manifest *m = NULL;
    int ok = bake(argv[1], argv[2], argv[3], frames, &m);
    vks_bake_manifest_free(m);
    vks_skin *skin = NULL;
    vks_error err = {0};
    vks_read_options ro = {0};
    if (ok && vks_read_file(&ro, argv[1], &skin, &err) != VKS_OK) {
        fprintf(stderr, "bake_atlas: %s\n", err.msg);
        ok = 0;
    }
    char exr[4096], sidecar[4096];
    snprintf(exr, sizeof exr, "%s/atlas.atlas.exr", argv[3]);
    snprintf(sidecar, sizeof sidecar, "%s/atlas.atlas.json", argv[3]);
    float *texels = ok ? read_atlas(exr, skin->bone_count * 3, frames) : NULL;
    if (ok && (!texels || sidecar_width(sidecar) != skin->bone_count * 3.0)) {
        fprintf(stderr, "bake_atlas: MISMATCH: %s is not %u x %u RGBA float texels, or the sidecar's width\n", exr,
                skin->bone_count * 3, frames);
        ok = 0;
    }
    ok = ok && compare(skin, texels, frames, argv[4]);
    free(texels);
    vks_skin_free(skin);
    return ok ? 0 : 1;
}
