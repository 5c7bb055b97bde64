/* The generator's command line (vkskin generate, vkskin-gen) and the standard dataset set.
 * Options map one to one onto vks_gen_params and vks_write_options; files are written through
 * vks_output (a temporary name and a rename, special files streamed, read-only files kept), so
 * a crash never leaves half a file under the final name. */
#include "character_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../vkskin/cli.h" /* exit codes */

static const vks_gen_format formats[VKS_GEN_FORMAT_COUNT] = {
    {"dff", "dff", vks_rw_write, 0, 0, VKS_GEN_FRAME_Z_UP},
    {"nif", "nif", vks_nif_write, 0, 0, VKS_GEN_FRAME_Z_UP},
    {"cmdl", "cmdl", vks_cmdl_write, 20, 900, VKS_GEN_FRAME_Y_UP},  /* XML text: ~260 bytes per vertex */
    {"p3d", "p3d", vks_p3d_write, 0, 600, VKS_GEN_FRAME_LEFT_Y_UP}, /* MLOD: one selection byte per bone per point and face */
};

const vks_gen_format *vks_gen_format_find(const char *name)
{
    for (int i = 0; i < VKS_GEN_FORMAT_COUNT; i++)
        if (name && !strcmp(name, formats[i].name))
            return &formats[i];
    return NULL;
}

const vks_gen_format *vks_gen_format_at(int i)
{
    return i >= 0 && i < VKS_GEN_FORMAT_COUNT ? &formats[i] : NULL;
}

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

vks_result vks_gen_write_file(const char *path, const void *bytes, size_t size, vks_error *err)
{
    vks_output *o = NULL;
    vks_result r = vks_output_check(path, size, err);
    if (r == VKS_OK)
        r = vks_output_open(&o, path, err);
    if (r != VKS_OK)
        return r;
    if (size && fwrite(bytes, 1, size, vks_output_stream(o)) != size)
        vks_output_note_error(o, errno);
    return vks_output_close(o, 1, err);
}

/* Model facts for the manifest and the summary line. */
typedef struct model_facts {
    uint32_t bones, source_vertices, vertices, triangles, groups, max_palette, influences;
} model_facts;

static model_facts facts_of(const vks_skin *s)
{
    /* every mesh of a split character lists the same skeleton bones: count them once */
    model_facts f = {s->mesh_count ? s->meshes[0].bone_count : 0, 0, s->vertex_count, s->triangle_count,
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

/* P3D keeps its skeleton outside the model: write <stem>.model.cfg beside <stem>.p3d, with
 * the CfgModels class named after the stem (what readers look up by default). */
static vks_result write_p3d_cfg(const char *p3d_path, const vks_skin *model, vks_error *err)
{
    size_t n = strlen(p3d_path);
    char *cfg = malloc(n + 16), *name = malloc(n + 1);
    if (!cfg || !name) {
        free(cfg);
        free(name);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, p3d_path, "out of memory");
    }
    memcpy(cfg, p3d_path, n + 1);
    char *dot = strrchr(cfg, '.'), *slash = strrchr(cfg, '/');
    if (dot && (!slash || dot > slash))
        *dot = 0;
    const char *base = strrchr(cfg, '/') ? strrchr(cfg, '/') + 1 : cfg;
    memcpy(name, base, strlen(base) + 1);
    strcat(cfg, ".model.cfg");
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_result rc = vks_p3d_write_model_cfg(model, name, &bytes, &size, err);
    if (rc == VKS_OK)
        rc = vks_gen_write_file(cfg, bytes, size, err);
    free(bytes);
    free(cfg);
    free(name);
    return rc;
}

/* The file name of path without folder and extension (a P3D's CfgModels class). */
static void stem_of(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(out, cap, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot)
        *dot = 0;
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

#include <stdarg.h>
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
        size_t nc = t->cap ? t->cap * 2 : 4096;
        while (nc < t->len + (size_t)n + 1)
            nc *= 2;
        char *p = realloc(t->data, nc);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->data = p;
        t->cap = nc;
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
                                     "unknown format '%s' (dff, nif, cmdl, p3d)", name);
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
             "| file | format | made by | bones | vertices (file) | vertices (model) | triangles | groups | "
             "max palette | influences | exercises |\n"
             "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int fi = 0; fi < VKS_GEN_FORMAT_COUNT && rc == VKS_OK; fi++) {
        const vks_gen_format *fmt = &formats[fi];
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
                int is_p3d = !strcmp(fmt->name, "p3d");
                rc = path ? vks_gen_write_file(path, bytes, size, err)
                          : vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, dir, "out of memory");
                if (rc == VKS_OK && is_p3d)
                    rc = write_p3d_cfg(path, model, err);
                if (rc == VKS_OK) { /* RTM frames at 10 a second keep the folder small */
                    clip_rows cr = {&clips, log, dir, name};
                    vks_gen_clip_log cl = {clip_row, &cr};
                    rc = vks_gen_write_clip_files(path, fmt, model, bytes, size, d->stem, 10.0f, &cl, err);
                }
                free(path);
                if (rc == VKS_OK) {
                    count++;
                    model_facts f = facts_of(model);
                    text_add(&man, "| %s | %s%s | `%s` | %u | %u | %u | %u | %u | %u | %u | %s%s%s%s |\n", name,
                             fmt->name, d->strips ? " (strips)" : "", cmd, f.bones, f.source_vertices, f.vertices,
                             f.triangles, f.groups, f.max_palette, f.influences, d->why,
                             is_p3d ? "; skeleton in " : "", is_p3d ? d->stem : "", is_p3d ? ".model.cfg beside it" : "");
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

static void print_clip_file(void *user, const char *path, size_t size, const char *what)
{
    (void)user;
    printf("wrote %s (%zu bytes): %s\n", path, size, what);
}

static void usage(const char *prog, FILE *f)
{
    fprintf(f,
            "usage: %s [options] --out FILE\n"
            "       %s --datasets DIR\n"
            "\n"
            "Writes a procedural humanoid skinned character (deterministic: same options, same bytes).\n"
            "\n"
            "options:\n"
            "  --out FILE            the file to write (through a temporary name and a rename);\n"
            "                        P3D also gets its skeleton in FILE's stem + .model.cfg beside it\n"
            "  --format F            dff | nif | cmdl | p3d (default: from --out's extension, else dff)\n"
            "  --bones N             20..64 (default 32): humanoid core + twist, finger, jaw, hair bones\n"
            "  --vertices N          target vertex count (default 2000)\n"
            "  --influences N        1..4 bones per vertex (default 4)\n"
            "  --palette-limit N     bones per group; 0 = one group with all bones (default 0)\n"
            "  --materials N         1..256 (default 3), one per body region, wrapping\n"
            "  --max-mesh-vertices N split the body into meshes (whole limbs) of at most N vertices;\n"
            "                        default 60000 for dff and cmdl, 30000 for nif (16-bit indices and\n"
            "                        counts), no split for p3d\n"
            "  --seed S              (default 1)\n"
            "  --name NAME           mesh name (default \"character\")\n"
            "  --strips              triangle strips where the format has them\n"
            "  --version V           format version to write (0x... accepted; default: the writer's)\n"
            "  --quantize            NW4C: quantized vertex streams\n"
            "  --no-clips            do not write the walk and wave clips beside the model (by default:\n"
            "                        FILE.walk.anm, FILE.wave.anm, FILE.walk.ska, FILE.ifp beside a .dff;\n"
            "                        FILE.walk.rtm, FILE.wave.rtm beside a .p3d; FILE.walk.kf,\n"
            "                        FILE.wave.kf beside a .nif; FILE.walk.cskla, FILE.wave.cskla\n"
            "                        beside a .cmdl)\n"
            "  --datasets DIR        write the standard small set in every available format and\n"
            "                        DIR/MANIFEST.md (files whose writer says unsupported are skipped)\n"
            "  --formats LIST        with --datasets: only these formats (e.g. dff,p3d)\n"
            "\n"
            "exit codes: 0 ok, 1 generation failed (e.g. palette limit below what a triangle needs),\n"
            "            2 usage, 5 runtime (writer not available, output not writable)\n",
            prog, prog);
}

static int parse_u64(const char *prog, const char *opt, const char *text_value, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!text_value || !*text_value || *text_value == '-') {
        fprintf(stderr, "%s: %s needs a non-negative number\n", prog, opt);
        return 0;
    }
    unsigned long long v = strtoull(text_value, &end, 0);
    if (errno || *end || v > max) {
        fprintf(stderr, "%s: %s: '%s' is not a number in 0..%llu\n", prog, opt, text_value, (unsigned long long)max);
        return 0;
    }
    *out = v;
    return 1;
}

static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? dot + 1 : NULL;
}

int vks_gen_cli(const char *prog, int argc, char **argv)
{
    vks_gen_params p = {0};
    vks_write_options wo = {0};
    int no_clips = 0;
    const char *out = NULL, *format = NULL, *datasets_dir = NULL, *only_formats = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(prog, stdout);
            return VKS_EXIT_OK;
        }
        if (!strcmp(a, "--strips")) {
            wo.triangle_strips = 1;
            continue;
        }
        if (!strcmp(a, "--no-clips")) {
            no_clips = 1;
            continue;
        }
        if (!strcmp(a, "--quantize")) {
            wo.quantize = 1;
            continue;
        }
        static const char *with_value[] = {"--out", "--format", "--datasets", "--bones", "--vertices",
                                           "--influences", "--palette-limit", "--materials", "--seed", "--max-mesh-vertices",
                                           "--version", "--name", "--formats"};
        int known = 0;
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
            known |= !strcmp(a, with_value[k]);
        if (!known) {
            fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog, a);
            return VKS_EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", prog, a);
            return VKS_EXIT_USAGE;
        }
        const char *val = argv[++i];
        uint64_t n = 0;
        int ok = 1;
        if (!strcmp(a, "--out"))
            out = val;
        else if (!strcmp(a, "--format"))
            format = val;
        else if (!strcmp(a, "--datasets"))
            datasets_dir = val;
        else if (!strcmp(a, "--name"))
            p.name = val;
        else if (!strcmp(a, "--formats"))
            only_formats = val;
        else if (!strcmp(a, "--seed"))
            ok = parse_u64(prog, a, val, UINT64_MAX, &p.seed);
        else if ((ok = parse_u64(prog, a, val, UINT32_MAX, &n))) {
            /* in the params 0 means "default"; on the command line it would be a surprise */
            if (n == 0 && strcmp(a, "--palette-limit") && strcmp(a, "--version")) {
                fprintf(stderr, "%s: %s must be at least 1\n", prog, a);
                return VKS_EXIT_USAGE;
            }
            if (!strcmp(a, "--bones"))
                p.bones = (uint32_t)n;
            else if (!strcmp(a, "--vertices"))
                p.vertices = (uint32_t)n;
            else if (!strcmp(a, "--influences"))
                p.max_influences = (uint32_t)n;
            else if (!strcmp(a, "--palette-limit"))
                p.palette_limit = (uint32_t)n;
            else if (!strcmp(a, "--materials"))
                p.materials = (uint32_t)n;
            else if (!strcmp(a, "--max-mesh-vertices"))
                p.max_mesh_vertices = (uint32_t)n;
            else
                wo.version = (uint32_t)n;
        }
        if (!ok)
            return VKS_EXIT_USAGE;
    }
    if (datasets_dir) {
        if (out) {
            fprintf(stderr, "%s: --datasets and --out do not go together\n", prog);
            return VKS_EXIT_USAGE;
        }
        vks_error err = {0};
        int written = 0;
        vks_result rc = vks_gen_write_datasets(datasets_dir, only_formats, stderr, &written, &err);
        if (rc != VKS_OK) {
            char buf[512];
            fprintf(stderr, "%s: %s\n", prog, vks_error_format(&err, NULL, buf, sizeof buf));
            return rc == VKS_ERR_IO || rc == VKS_ERR_NOMEM ? VKS_EXIT_RUNTIME
                   : rc == VKS_ERR_INVALID && !strcmp(err.path, "--formats") ? VKS_EXIT_USAGE
                                                                              : VKS_EXIT_INPUT;
        }
        printf("wrote %d model files and MANIFEST.md to %s\n", written, datasets_dir);
        return VKS_EXIT_OK;
    }
    if (!out) {
        fprintf(stderr, "%s: --out FILE (or --datasets DIR) is required (see --help)\n", prog);
        return VKS_EXIT_USAGE;
    }
    const vks_gen_format *fmt = NULL;
    if (format) {
        fmt = vks_gen_format_find(format);
        if (!fmt) {
            fprintf(stderr, "%s: unknown format '%s' (dff, nif, cmdl, p3d)\n", prog, format);
            return VKS_EXIT_USAGE;
        }
    } else {
        fmt = vks_gen_format_find(extension_of(out));
        if (!fmt)
            fmt = &formats[0];
    }

    vks_gen_params d = vks_gen_params_defaults(&p);
    if (d.bones < VKS_GEN_MIN_BONES || d.bones > VKS_GEN_MAX_BONES) {
        fprintf(stderr, "%s: --bones %u outside %u..%u\n", prog, d.bones, VKS_GEN_MIN_BONES, VKS_GEN_MAX_BONES);
        return VKS_EXIT_USAGE;
    }
    if (d.max_influences > VKS_MAX_INFLUENCES) {
        fprintf(stderr, "%s: --influences %u outside 1..4\n", prog, d.max_influences);
        return VKS_EXIT_USAGE;
    }
    if (d.materials > 256 || d.vertices > VKS_GEN_MAX_VERTICES) {
        fprintf(stderr, "%s: --materials must be 1..256 and --vertices at most %u\n", prog, VKS_GEN_MAX_VERTICES);
        return VKS_EXIT_USAGE;
    }

    /* DFF, NIF and .cmdl index vertices with 16 bits: a benchmark-sized character becomes
       several meshes (atomics, shapes), leaving room for the vertices groups duplicate. */
    if (!p.max_mesh_vertices && strcmp(fmt->name, "p3d") != 0) /* NIF also counts triangles in 16 bits */
        p.max_mesh_vertices = strcmp(fmt->name, "nif") == 0 ? 30000 : 60000;
    p.frame = fmt->frame; /* the format's own axes: the file stands upright where it is opened */
    vks_error err = {0};
    char buf[512];
    vks_skin *s = vks_gen_character(&p, &err);
    if (!s) {
        fprintf(stderr, "%s: %s\n", prog, vks_error_format(&err, NULL, buf, sizeof buf));
        return err.code == VKS_ERR_NOMEM ? VKS_EXIT_RUNTIME : VKS_EXIT_INPUT;
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_result rc = fmt->write(s, &wo, &bytes, &size, &err);
    if (rc == VKS_ERR_UNSUPPORTED) {
        fprintf(stderr, "%s: the %s writer cannot write this model: %s\n", prog, fmt->name,
                vks_error_format(&err, NULL, buf, sizeof buf));
        vks_skin_free(s);
        free(bytes);
        return VKS_EXIT_RUNTIME;
    }
    if (rc == VKS_OK)
        rc = vks_gen_write_file(out, bytes, size, &err);
    if (rc == VKS_OK && !strcmp(fmt->name, "p3d"))
        rc = write_p3d_cfg(out, s, &err);
    if (rc == VKS_OK && !no_clips) {
        char stem[256];
        stem_of(out, stem, sizeof stem);
        vks_gen_clip_log cl = {print_clip_file, NULL};
        rc = vks_gen_write_clip_files(out, fmt, s, bytes, size, stem, 30.0f, &cl, &err);
    }
    free(bytes);
    if (rc != VKS_OK) {
        fprintf(stderr, "%s: %s\n", prog, vks_error_format(&err, out, buf, sizeof buf));
        vks_skin_free(s);
        return rc == VKS_ERR_IO || rc == VKS_ERR_NOMEM ? VKS_EXIT_RUNTIME : VKS_EXIT_INPUT;
    }
    model_facts f = facts_of(s);
    printf("wrote %s (%s, %zu bytes): %u bones, %u vertices (%u in the model), %u triangles, %u groups, "
           "max palette %u, %u influences\n",
           out, fmt->name, size, f.bones, f.source_vertices, f.vertices, f.triangles, f.groups, f.max_palette,
           f.influences);
    vks_skin_free(s);
    return VKS_EXIT_OK;
}
