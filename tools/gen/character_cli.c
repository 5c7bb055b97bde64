/* The generator's command line (vkskin generate, vkskin-gen). Options map one to one onto
 * vks_gen_params and vks_write_options; the files are written by character_files.c and the
 * standard set by character_datasets.c. */
#include "character_cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../vkskin/cli.h" /* exit codes */

/* The file name of path without folder and extension (a P3D's CfgModels class). */
static void stem_of(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(out, cap, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot)
        *dot = 0;
}

static void print_clip_file(void *user, const char *path, size_t size, const char *what)
{
    (void)user;
    printf("wrote %s (%zu bytes): %s\n", path, size, what);
}

void vks_gen_cli_usage(const char *prog, FILE *f)
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
            "  --format F            %s (default: from --out's extension, else %s)\n"
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
            prog, prog, vks_gen_format_names(" | "), vks_gen_format_at(0)->name);
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

/* What the command line asked for. */
typedef struct gen_args {
    vks_gen_params p;
    vks_write_options wo;
    int no_clips;
    const char *out, *format, *datasets_dir, *only_formats;
} gen_args;

/* One option that takes a value; returns 1 when taken, 0 on a usage error (printed). */
static int parse_value(const char *prog, gen_args *g, const char *a, const char *val)
{
    uint64_t n = 0;
    if (!strcmp(a, "--out"))
        g->out = val;
    else if (!strcmp(a, "--format"))
        g->format = val;
    else if (!strcmp(a, "--datasets"))
        g->datasets_dir = val;
    else if (!strcmp(a, "--name"))
        g->p.name = val;
    else if (!strcmp(a, "--formats"))
        g->only_formats = val;
    else if (!strcmp(a, "--seed"))
        return parse_u64(prog, a, val, UINT64_MAX, &g->p.seed);
    else if (parse_u64(prog, a, val, UINT32_MAX, &n)) {
        /* in the params 0 means "default"; on the command line it would be a surprise */
        if (n == 0 && strcmp(a, "--palette-limit") && strcmp(a, "--version")) {
            fprintf(stderr, "%s: %s must be at least 1\n", prog, a);
            return 0;
        }
        if (!strcmp(a, "--bones"))
            g->p.bones = (uint32_t)n;
        else if (!strcmp(a, "--vertices"))
            g->p.vertices = (uint32_t)n;
        else if (!strcmp(a, "--influences"))
            g->p.max_influences = (uint32_t)n;
        else if (!strcmp(a, "--palette-limit"))
            g->p.palette_limit = (uint32_t)n;
        else if (!strcmp(a, "--materials"))
            g->p.materials = (uint32_t)n;
        else if (!strcmp(a, "--max-mesh-vertices"))
            g->p.max_mesh_vertices = (uint32_t)n;
        else
            g->wo.version = (uint32_t)n;
    } else
        return 0;
    return 1;
}

/* Fills g from argv; returns -1 to go on, else the exit code (--help, a usage error). */
static int parse_args(const char *prog, int argc, char **argv, gen_args *g)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            vks_gen_cli_usage(prog, stdout);
            return VKS_EXIT_OK;
        }
        if (!strcmp(a, "--strips")) {
            g->wo.triangle_strips = 1;
            continue;
        }
        if (!strcmp(a, "--no-clips")) {
            g->no_clips = 1;
            continue;
        }
        if (!strcmp(a, "--quantize")) {
            g->wo.quantize = 1;
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
        if (!parse_value(prog, g, a, argv[++i]))
            return VKS_EXIT_USAGE;
    }
    return -1;
}

static int write_datasets(const char *prog, const gen_args *g)
{
    if (g->out) {
        fprintf(stderr, "%s: --datasets and --out do not go together\n", prog);
        return VKS_EXIT_USAGE;
    }
    vks_error err = {0};
    int written = 0;
    vks_result rc = vks_gen_write_datasets(g->datasets_dir, g->only_formats, stderr, &written, &err);
    if (rc != VKS_OK) {
        char buf[512];
        fprintf(stderr, "%s: %s\n", prog, vks_error_format(&err, NULL, buf, sizeof buf));
        return rc == VKS_ERR_IO || rc == VKS_ERR_NOMEM ? VKS_EXIT_RUNTIME
               : rc == VKS_ERR_INVALID && !strcmp(err.path, "--formats") ? VKS_EXIT_USAGE
                                                                          : VKS_EXIT_INPUT;
    }
    printf("wrote %d model files and MANIFEST.md to %s\n", written, g->datasets_dir);
    return VKS_EXIT_OK;
}

/* The format named by --format, else by --out's extension, else DFF; NULL (printed): unknown. */
static const vks_gen_format *choose_format(const char *prog, const gen_args *g)
{
    if (g->format) {
        const vks_gen_format *fmt = vks_gen_format_find(g->format);
        if (!fmt)
            fprintf(stderr, "%s: unknown format '%s' (%s)\n", prog, g->format, vks_gen_format_names(", "));
        return fmt;
    }
    const vks_gen_format *fmt = vks_gen_format_find(extension_of(g->out));
    return fmt ? fmt : vks_gen_format_at(0);
}

/* Ranges the params must be in; 0 when one is out (printed). */
static int params_in_range(const char *prog, const vks_gen_params *p)
{
    vks_gen_params d = vks_gen_params_defaults(p);
    if (d.bones < VKS_GEN_MIN_BONES || d.bones > VKS_GEN_MAX_BONES) {
        fprintf(stderr, "%s: --bones %u outside %u..%u\n", prog, d.bones, VKS_GEN_MIN_BONES, VKS_GEN_MAX_BONES);
        return 0;
    }
    if (d.max_influences > VKS_GEN_MAX_INFLUENCES) {
        fprintf(stderr, "%s: --influences %u outside 1..4\n", prog, d.max_influences);
        return 0;
    }
    if (d.materials > 256 || d.vertices > VKS_GEN_MAX_VERTICES) {
        fprintf(stderr, "%s: --materials must be 1..256 and --vertices at most %u\n", prog, VKS_GEN_MAX_VERTICES);
        return 0;
    }
    return 1;
}

/* Writes the model's bytes to --out, its .model.cfg and its clips beside it. */
static vks_result write_character(const gen_args *g, const vks_gen_format *fmt, const vks_skin *s,
                                  const uint8_t *bytes, size_t size, vks_error *err)
{
    vks_result rc = vks_gen_write_file(g->out, bytes, size, err);
    if (rc == VKS_OK && fmt->info->side_file) /* P3D: the skeleton's model.cfg */
        rc = vks_gen_write_p3d_cfg(g->out, s, err);
    if (rc == VKS_OK && !g->no_clips) {
        char stem[256];
        stem_of(g->out, stem, sizeof stem);
        vks_gen_clip_log cl = {print_clip_file, NULL};
        rc = vks_gen_write_clip_files(g->out, fmt, s, bytes, size, stem, 30.0f, &cl, err);
    }
    return rc;
}

int vks_gen_cli(const char *prog, int argc, char **argv)
{
    gen_args g = {0};
    int parsed = parse_args(prog, argc, argv, &g);
    if (parsed >= 0)
        return parsed;
    if (g.datasets_dir)
        return write_datasets(prog, &g);
    if (!g.out) {
        fprintf(stderr, "%s: --out FILE (or --datasets DIR) is required (see --help)\n", prog);
        return VKS_EXIT_USAGE;
    }
    const vks_gen_format *fmt = choose_format(prog, &g);
    if (!fmt || !params_in_range(prog, &g.p))
        return VKS_EXIT_USAGE;

    /* DFF, NIF and .cmdl index vertices with 16 bits: a benchmark-sized character becomes
       several meshes (atomics, shapes), leaving room for the vertices groups duplicate. */
    if (!g.p.max_mesh_vertices)
        g.p.max_mesh_vertices = fmt->max_mesh_vertices;
    g.p.frame = fmt->frame; /* the format's own axes: the file stands upright where it is opened */
    g.p.texture = fmt->texture;
    g.p.material_suffix = fmt->material_suffix;
    vks_error err = {0};
    char buf[512];
    vks_skin *s = vks_gen_character(&g.p, &err);
    if (!s) {
        fprintf(stderr, "%s: %s\n", prog, vks_error_format(&err, NULL, buf, sizeof buf));
        return err.code == VKS_ERR_NOMEM ? VKS_EXIT_RUNTIME : VKS_EXIT_INPUT;
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    vks_result rc = fmt->write(s, &g.wo, &bytes, &size, &err);
    if (rc == VKS_ERR_UNSUPPORTED) {
        fprintf(stderr, "%s: the %s writer cannot write this model: %s\n", prog, fmt->name,
                vks_error_format(&err, NULL, buf, sizeof buf));
        vks_skin_free(s);
        free(bytes);
        return VKS_EXIT_RUNTIME;
    }
    if (rc == VKS_OK)
        rc = write_character(&g, fmt, s, bytes, size, &err);
    free(bytes);
    if (rc != VKS_OK) {
        fprintf(stderr, "%s: %s\n", prog, vks_error_format(&err, g.out, buf, sizeof buf));
        vks_skin_free(s);
        return rc == VKS_ERR_IO || rc == VKS_ERR_NOMEM ? VKS_EXIT_RUNTIME : VKS_EXIT_INPUT;
    }
    vks_gen_model_facts f = vks_gen_facts_of(s);
    printf("wrote %s (%s, %zu bytes): %u bones, %u vertices (%u in the model), %u triangles, %u groups, "
           "max palette %u, %u influences\n",
           g.out, fmt->name, size, f.bones, f.source_vertices, f.vertices, f.triangles, f.groups, f.max_palette,
           f.influences);
    vks_skin_free(s);
    return VKS_EXIT_OK;
}
