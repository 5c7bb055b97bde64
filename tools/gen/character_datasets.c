/* The standard dataset set (character_datasets.h): small files, each exercising one grouping
 * case, in every format, with a MANIFEST.md giving the command that makes each one. */
#include "character_datasets.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "character_clip_files.h"
#include "core/vec.h"

/* The standard set: small files (< 300 KB), each exercising one grouping case. */
static const vks_gen_dataset datasets[VKS_GEN_DATASET_COUNT] = {
    {"char_b24_pl8", {.seed = 1, .bones = 24, .vertices = 1500, .max_influences = 4, .palette_limit = 8, .materials = 3},
     0, "several groups under a small palette limit, duplicated vertices"},
    {"char_b48_pl20_strips", {.seed = 2, .bones = 48, .vertices = 2000, .max_influences = 4, .palette_limit = 20,
     .materials = 3}, 1, "palette limit 20 (NW4C hardware), triangle strips, finger and twist bones"},
    {"char_b64_i4", {.seed = 3, .bones = 64, .vertices = 2500, .max_influences = 4, .palette_limit = 0, .materials = 4},
     0, "64 bones in one group, 4 influences"},
    {"char_b32_rigid", {.seed = 4, .bones = 32, .vertices = 1500, .max_influences = 1, .palette_limit = 0,
     .materials = 2}, 0, "rigid: one influence per vertex"},
};

const vks_gen_dataset *vks_gen_dataset_at(int i)
{
    return i >= 0 && i < VKS_GEN_DATASET_COUNT ? &datasets[i] : NULL;
}

vks_gen_model_facts vks_gen_facts_of(const vks_skin *s)
{
    /* every mesh of a split character lists the same skeleton bones: count them once */
    vks_gen_model_facts f = {s->mesh_count ? s->meshes[0].bone_count : 0, 0, s->vertex_count, s->triangle_count,
                     s->group_count, 0, 0};
    for (uint32_t m = 0; m < s->mesh_count; m++)
        f.source_vertices += s->meshes[m].source_vertex_count;
    for (uint32_t g = 0; g < s->group_count; g++) {
        if (s->groups[g].palette_count > f.max_palette)
            f.max_palette = s->groups[g].palette_count;
        if (s->groups[g].max_influences > f.influences)
            f.influences = s->groups[g].max_influences;
    }
    return f;
}

vks_gen_params vks_gen_dataset_params(const vks_gen_dataset *d, const vks_gen_format *fmt, char *cmd, size_t size)
{
    vks_gen_params p = d->params;
    p.frame = fmt->frame;
    p.texture = fmt->texture;
    p.material_suffix = fmt->material_suffix;
    if (fmt->dataset_palette_limit && (p.palette_limit == 0 || p.palette_limit > fmt->dataset_palette_limit))
        p.palette_limit = fmt->dataset_palette_limit;
    if (fmt->dataset_max_vertices && p.vertices > fmt->dataset_max_vertices)
        p.vertices = fmt->dataset_max_vertices;
    if (cmd)
        snprintf(cmd, size,
                 "vkskin generate --format %s --bones %u --vertices %u --influences %u --palette-limit %u "
                 "--materials %u --seed %llu%s --out %s.%s",
                 fmt->name, p.bones, p.vertices, p.max_influences, p.palette_limit, p.materials,
                 (unsigned long long)p.seed, d->strips ? " --strips" : "", d->stem, fmt->extension);
    return p;
}

static int format_selected(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        p += len + (comma ? 1 : 0);
    }
    return 0;
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (p)
        snprintf(p, a + b + 2, "%s/%s", dir, name);
    return p;
}

/* Appends to a growable text buffer (the manifest). */
typedef struct text {
    char *data;
    size_t len, cap;
    int failed;
} text;

static void text_add(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void text_add(text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->data ? t->data + t->len : NULL, t->data ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if (t->data && (size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        char *p = vks__grow_array(NULL, t->data, t->len, &t->cap, (size_t)n + 1, 1, 4096);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->data = p;
    }
}

/* The datasets' clip files: a manifest row and a log line each. */
typedef struct clip_rows {
    text *rows;
    FILE *log;
    const char *dir;
    const char *model;
} clip_rows;

static void clip_row(void *user, const char *path, size_t size, const char *what)
{
    clip_rows *c = user;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    text_add(c->rows, "| %s | %s | %s | %zu |\n", base, c->model, what, size);
    if (c->log)
        fprintf(c->log, "wrote %s (%zu bytes)\n", path, size);
}

vks_result vks_gen_write_datasets(const char *dir, const char *only_formats, FILE *log, int *written,
                                  vks_error *err)
{
    int count = 0;
    if (written)
        *written = 0;
    if (only_formats)
        for (const char *p = only_formats; *p;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char name[16];
            snprintf(name, sizeof name, "%.*s", (int)(len < 15 ? len : 15), p);
            if (!vks_gen_format_find(name))
                return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "--formats",
                                     "unknown format '%s' (%s)", name, vks_gen_format_names(", "));
            p += len + (comma ? 1 : 0);
        }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, dir, "cannot create the folder: %s", strerror(errno));

    vks_result rc = VKS_OK;
    text man = {0}, skipped = {0}, clips = {0};
    text_add(&man,
             "# Generated datasets\n\n"
             "Small procedural skinned characters written by vkskin's own generator (`tools/gen`), for\n"
             "tests, fixtures and benchmarks. Regenerate the whole folder with\n\n"
             "    vkskin generate --datasets datasets\n\n"
             "The generator is deterministic: the same command writes the same bytes on every machine,\n"
             "and `tests/unit/test_gen_datasets.c` checks that these files match what it writes now.\n"
             "Each row's command makes that one file. Counts are those of the generated model:\n"
             "vertices (file) before the builder duplicates vertices shared by groups, vertices\n"
             "(model) after; max palette is the largest group palette; influences the most bones\n"
             "any vertex uses. NW4C files keep the hardware's 20-bone palettes, and the CMDL and P3D\n"
             "files have fewer vertices, so that every file stays under 300 KB. Each format is written\n"
             "in its own axes (RenderWare and NIF Z up, P3D left-handed Y up, NW4C Y up), so every\n"
             "character stands upright where its format is opened and after `vkskin convert`.\n\n"
             "Every character is painted: one UV set, a mirrored cylindrical projection of the bind pose\n"
             "about the vertical axis (u = (1 - cos a) / 2 from the front, so no seam splits a vertex;\n"
             "v = 0 at the top of the head), and one material per region slot, `char_skin_<n>`, with a\n"
             "base colour and the texture name `char_skin` as each format names one (RenderWare:\n"
             "`char_skin`; NIF: `char_skin.dds`; NW4C: `char_skin`; P3D: `char_skin_co.paa`, the material\n"
             "`char_skin_<n>.rvmat`). Only the name ships, no image. A file keeps what its format's\n"
             "writer writes: the NIF files their UVs but no materials yet, the NW4C files the\n"
             "materials' names (see README, \"UV sets and materials\").\n\n"
             "| file | format | made by | bones | vertices (file) | vertices (model) | triangles | groups | "
             "max palette | influences | exercises |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int fi = 0; fi < vks_gen_format_count() && rc == VKS_OK; fi++) {
        const vks_gen_format *fmt = vks_gen_format_at(fi);
        if (!format_selected(only_formats, fmt->name))
            continue;
        for (int i = 0; i < VKS_GEN_DATASET_COUNT && rc == VKS_OK; i++) {
            const vks_gen_dataset *d = &datasets[i];
            char cmd[512], name[128];
            vks_gen_params p = vks_gen_dataset_params(d, fmt, cmd, sizeof cmd);
            snprintf(name, sizeof name, "%s.%s", d->stem, fmt->extension);
            vks_skin *model = vks_gen_character(&p, err);
            if (!model) {
                rc = err ? err->code : VKS_ERR_INVALID;
                break;
            }
            vks_write_options wo = {0};
            wo.triangle_strips = d->strips;
            uint8_t *bytes = NULL;
            size_t size = 0;
            vks_error werr = {0};
            vks_result wr = fmt->write(model, &wo, &bytes, &size, &werr);
            if (wr == VKS_ERR_UNSUPPORTED) {
                if (log)
                    fprintf(log, "vkskin generate: skipping %s: the %s writer says unsupported: %s\n", name, fmt->name,
                            werr.msg);
                text_add(&skipped, "- %s: the %s writer says: %s\n", name, fmt->name, werr.msg);
            } else if (wr != VKS_OK) {
                vks_error_set(err, wr, werr.offset, werr.path, "%s: %s writer: %s", name, fmt->name, werr.msg);
                rc = wr;
            } else {
                char *path = join(dir, name);
                int has_cfg = fmt->info->side_file != NULL; /* its skeleton's model.cfg */
                rc = path ? vks_gen_write_file(path, bytes, size, err)
                          : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, dir, "out of memory");
                if (rc == VKS_OK && has_cfg)
                    rc = vks_gen_write_p3d_cfg(path, model, err);
                if (rc == VKS_OK) { /* RTM frames at 10 a second keep the folder small */
                    clip_rows cr = {&clips, log, dir, name};
                    vks_gen_clip_log cl = {clip_row, &cr};
                    rc = vks_gen_write_clip_files(path, fmt, model, bytes, size, d->stem, 10.0f, &cl, err);
                }
                free(path);
                if (rc == VKS_OK) {
                    count++;
                    vks_gen_model_facts f = vks_gen_facts_of(model);
                    text_add(&man, "| %s | %s%s | `%s` | %u | %u | %u | %u | %u | %u | %u | %s%s%s%s |\n", name,
                             fmt->name, d->strips ? " (strips)" : "", cmd, f.bones, f.source_vertices, f.vertices,
                             f.triangles, f.groups, f.max_palette, f.influences, d->why,
                             has_cfg ? "; skeleton in " : "", has_cfg ? d->stem : "", has_cfg ? ".model.cfg beside it" : "");
                    if (log)
                        fprintf(log, "wrote %s/%s (%zu bytes)\n", dir, name, size);
                }
            }
            free(bytes);
            vks_skin_free(model);
        }
    }
    if (clips.len)
        text_add(&man,
                 "\n## Clips\n\n"
                 "Beside each model, its walk (1 s) and wave (2 s) loops (`tools/gen/character_clips.c`) in\n"
                 "the clip formats vkskin reads for it: RenderWare `.anm` (standard and compressed keys),\n"
                 "legacy `.ska` and a GTA `.ifp` beside each `.dff`; Arma RTM, plain and binarised (10\n"
                 "frames a second), beside each `.p3d`; Gamebryo `.kf` (10.1.0.0 and 20.2.0.7 layouts)\n"
                 "beside each `.nif`; NintendoWare `.cskla` (30 fps) beside each `.cmdl`. Every file plays\n"
                 "on its model as the clip plays on the generated skin\n"
                 "(`tests/unit/test_gen_clip_files.c`). Play one with\n\n"
                 "    vkskin validate datasets/char_b24_pl8.dff --clip datasets/char_b24_pl8.dff.walk.anm --frames 8\n\n"
                 "| file | plays on | holds | bytes |\n|---|---|---|---|\n%s",
                 clips.data);
    if (skipped.len)
        text_add(&man, "\nNot written (the writer answered \"unsupported\" when this folder was generated):\n\n%s",
                 skipped.data);
    if (rc == VKS_OK && (man.failed || skipped.failed || clips.failed))
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, dir, "out of memory");
    if (rc == VKS_OK) {
        char *path = join(dir, "MANIFEST.md");
        rc = path ? vks_gen_write_file(path, man.data, man.len, err)
                  : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, dir, "out of memory");
        free(path);
    }
    free(man.data);
    free(skipped.data);
    free(clips.data);
    if (written)
        *written = count;
    return rc;
}
