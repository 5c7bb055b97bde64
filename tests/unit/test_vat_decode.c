/* The bake decode test: every texture a bake wrote, read back through its sidecar alone, must
 * reproduce the CPU reference within its encoding's bound: float32 1e-6 of the model's extent
 * (its largest coordinate; positions near 0 carry the cancellation of larger terms), half the
 * half-precision step of the bounds (|x| * 2^-11), 16-bit PNG (max - min) / 65535 per axis;
 * the atlas's matrices as float32 of the reference's; the rest mesh's UVs on their texels
 * (OBJ and glTF); PC2 and raw caches' positions at each vertex's file vertex. A split texture
 * (layout.parts) is decoded part by part, each file's frames found in the parts' list.
 * A bake by the GPU or the fast CPU engine adds the float engines' noise to each bound.
 *
 * usage: test_vat_decode OUTDIR BASEDIR   (BASEDIR: the manifest's folder, where the
 *        sidecars' model and clip paths start). Every *.json in OUTDIR that a bake wrote. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "vkskin/vat.h"
#include "vkskin/vat_read.h"

static const char *base;

static char *path2(const char *a, const char *b)
{
    static char buf[2][4096];
    static int k;
    k ^= 1;
    if (b[0] == '/')
        snprintf(buf[k], sizeof buf[k], "%s", b);
    else
        snprintf(buf[k], sizeof buf[k], "%s/%s", a, b);
    return buf[k];
}

/* A file as a NUL-terminated string (testutil's reader gives bytes). */
static char *slurp(const char *path, size_t *size)
{
    uint8_t *b = vks_test_read_file(path, size);
    char *t = b ? realloc(b, *size + 1) : NULL;
    if (!t) {
        free(b);
        return NULL;
    }
    t[*size] = 0;
    return t;
}

static double num(const cJSON *o, const char *k) { return cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(o, k)); }
static const char *str(const cJSON *o, const char *k) { return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, k)); }

/* The frames file holds (as key of a part of layout.parts: "position", "normal", "matrices"):
   [*first, *first + *count); all of them when the texture is not split. */
static void part_of(const cJSON *layout, const char *key, const char *file, uint32_t frames, uint32_t *first,
                    uint32_t *count)
{
    *first = 0, *count = frames;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(layout, "parts"))
    {
        const char *f = str(p, key);
        if (f && !strcmp(f, file)) {
            *first = (uint32_t)num(p, "first_frame"), *count = (uint32_t)num(p, "frame_count");
            return;
        }
    }
    CHECK(!cJSON_GetObjectItemCaseSensitive(layout, "parts")); /* a split texture names every file */
}

/* The reference: per frame of the sidecar's clip table, positions, normals and skin matrices. */
typedef struct reference {
    vks_skin *skin;
    uint32_t frames;
    float *pos, *nrm;
    double *mat; /* frames x bones x 12 */
} reference;

static int make_reference(const cJSON *sc, reference *r)
{
    memset(r, 0, sizeof *r);
    vks_error err = {0};
    if (vks_read_file(NULL, path2(base, str(sc, "model")), &r->skin, &err) != VKS_OK) {
        fprintf(stderr, "cannot read %s: %s\n", str(sc, "model"), err.msg);
        return 0;
    }
    const vks_skin *s = r->skin;
    r->frames = (uint32_t)num(sc, "frame_count");
    size_t n = (size_t)r->frames * s->vertex_count * 3;
    r->pos = malloc(n * 4);
    r->nrm = malloc(n * 4);
    r->mat = malloc(sizeof(double) * 12 * r->frames * (s->bone_count + 1));
    vks_affine *locals = malloc(sizeof *locals * s->node_count);
    vks_affine_d *world = malloc(sizeof *world * s->node_count), *k = malloc(sizeof *k * (s->bone_count + 1));
    const cJSON *clips = cJSON_GetObjectItemCaseSensitive(sc, "clips"), *c;
    int ok = 1;
    cJSON_ArrayForEach(c, clips)
    {
        size_t size = 0;
        char *bytes = slurp(path2(base, str(c, "file")), &size);
        vks_read_options o = {0};
        o.clip.duration = (float)num(c, "duration");
        vks_clip_set *set = NULL;
        vks_clip_reader_fn rd = bytes ? vks_detect_clip_format(bytes, size, str(c, "file"), NULL) : NULL;
        if (!rd || rd(&o, bytes, size, &set, &err) != VKS_OK) {
            fprintf(stderr, "cannot read clip %s\n", str(c, "file"));
            free(bytes);
            ok = 0;
            break;
        }
        free(bytes);
        /* by its place in the file: an unnamed clip's name is its file's (as convert names it) */
        double index = num(c, "index");
        int32_t ci = index >= 0 && index < set->clip_count ? (int32_t)index : -1;
        CHECK(ci >= 0);
        vks_clip_binding b;
        CHECK(vks_clip_bind(&set->clips[ci < 0 ? 0 : ci], s, &b, &err) == VKS_OK);
        const cJSON *f;
        uint32_t g = (uint32_t)num(c, "first_frame");
        cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(c, "frames"))
        {
            vks_clip_sample_locals_d(&set->clips[ci < 0 ? 0 : ci], &b, s, num(f, "time"), locals);
            vks_deform_job j = {s, locals, 1, r->pos + (size_t)g * s->vertex_count * 3,
                                r->nrm + (size_t)g * s->vertex_count * 3, NULL};
            CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
            vks_cpu_world_d(s, locals, world);
            vks_cpu_skin_matrices_d(s, world, k);
            for (uint32_t bone = 0; bone < s->bone_count; bone++)
                for (int row = 0; row < 3; row++)
                    for (int col = 0; col < 4; col++)
                        r->mat[((size_t)g * s->bone_count + bone) * 12 + row * 4 + col] = k[bone].m[col * 3 + row];
            g++;
        }
        vks_clip_binding_free(&b);
        vks_clip_set_free(set);
    }
    free(locals);
    free(world);
    free(k);
    return ok;
}

static void free_reference(reference *r)
{
    free(r->pos);
    free(r->nrm);
    free(r->mat);
    vks_skin_free(r->skin);
}

static int failures_before;
static double worst_ratio; /* largest error / bound seen over everything */

static void compare(const char *what, double got, double want, double bound)
{
    double e = fabs(got - want);
    if (bound > 0 && e / bound > worst_ratio)
        worst_ratio = e / bound;
    if (!(e <= bound)) {
        if (vks_test_failures - failures_before < 5)
            fprintf(stderr, "%s: %.9g, reference %.9g, error %.3g over the bound %.3g\n", what, got, want, e, bound);
        vks_test_failures++;
    }
}

/* The rest mesh's vt lines: vertex v's UV must land on v's texel of frame 0. */
static void check_obj(const char *path, const vks_vat_layout *l)
{
    size_t size = 0;
    char *t = slurp(path, &size);
    CHECK(t != NULL);
    uint32_t v = 0;
    for (char *line = t ? strtok(t, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        float u, w;
        if (sscanf(line, "vt %f %f", &u, &w) != 2)
            continue;
        CHECK_EQ_INT((uint32_t)floorf(u * l->width), vks_vat_column(l, v));
        CHECK_EQ_INT((uint32_t)floorf((1.0f - w) * l->height), vks_vat_row(l, 0, v));
        v++;
    }
    CHECK_EQ_INT(v, l->vertex_count);
    free(t);
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* TEXCOORD_n of the first primitive as floats at *off (0: absent); checks its count. */
static int texcoord(const cJSON *doc, const cJSON *prim, uint32_t n, uint32_t count, size_t bin_size, size_t *off)
{
    char name[16];
    snprintf(name, sizeof name, "TEXCOORD_%u", n);
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(prim, "attributes"), name);
    if (!cJSON_IsNumber(a))
        return 0;
    const cJSON *acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "accessors"), a->valueint);
    const cJSON *view = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "bufferViews"), (int)num(acc, "bufferView"));
    *off = (size_t)num(view, "byteOffset");
    CHECK_EQ_INT(num(acc, "count"), count);
    CHECK(*off + (size_t)count * 8 <= bin_size);
    return *off + (size_t)count * 8 <= bin_size;
}

/* The rest mesh's .glb: the sidecar's lookup set (rest_mesh_uv.glb.lookup) of vertex v on v's
 * texel of frame 0 (glTF's v from the top), and the character's own UV sets where the sidecar
 * says, equal to the model's (issue 26: UV0 the character's, UV1 the lookup). */
static void check_glb(const char *path, const vks_vat_layout *l, const cJSON *sc, const vks_skin *skin)
{
    size_t size = 0;
    uint8_t *b = vks_test_read_file(path, &size);
    CHECK(b && size > 28 && !memcmp(b, "glTF", 4));
    if (!b || size <= 28) {
        free(b);
        return;
    }
    uint32_t jl = le32(b + 12);
    CHECK((size_t)jl + 28 <= size);
    cJSON *doc = (size_t)jl + 28 <= size ? cJSON_ParseWithLength((const char *)b + 20, jl) : NULL;
    const uint8_t *bin = b + 28 + jl;
    size_t bin_size = size - 28 - jl;
    const cJSON *prim = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "meshes"), 0),
                                         "primitives"), 0);
    const cJSON *glb = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(sc, "rest_mesh_uv"), "glb");
    uint32_t lookup = (uint32_t)num(glb, "lookup");
    CHECK_EQ_INT(lookup, skin->uv_set_count ? 1 : 0);
    size_t off = 0;
    int have = doc && texcoord(doc, prim, lookup, l->vertex_count, bin_size, &off);
    CHECK(have);
    for (uint32_t v = 0; have && v < l->vertex_count; v++) {
        float uv[2];
        memcpy(uv, bin + off + (size_t)v * 8, 8);
        CHECK_EQ_INT((uint32_t)floorf(uv[0] * l->width), vks_vat_column(l, v));
        CHECK_EQ_INT((uint32_t)floorf(uv[1] * l->height), vks_vat_row(l, 0, v));
    }
    const cJSON *own = cJSON_GetObjectItemCaseSensitive(glb, "character");
    CHECK_EQ_INT(cJSON_GetArraySize(own), skin->uv_set_count);
    for (uint32_t k = 0; k < skin->uv_set_count && k < (uint32_t)cJSON_GetArraySize(own); k++) {
        int ok = doc && texcoord(doc, prim, (uint32_t)cJSON_GetArrayItem(own, (int)k)->valueint, l->vertex_count,
                                 bin_size, &off);
        CHECK(ok);
        for (uint32_t v = 0; ok && v < l->vertex_count; v++) {
            float uv[2];
            memcpy(uv, bin + off + (size_t)v * 8, 8);
            CHECK(uv[0] == skin->uv[k][v][0] && uv[1] == skin->uv[k][v][1]);
        }
    }
    cJSON_Delete(doc);
    free(b);
}

static void check_vat(const char *dir, const cJSON *sc, const reference *r, double engine_rel)
{
    const char *enc = str(sc, "encoding");
    const cJSON *lo = cJSON_GetObjectItemCaseSensitive(sc, "layout");
    vks_vat_layout l;
    vks_error err = {0};
    /* split: each part lays out frames_per_part frames */
    const uint32_t per = cJSON_GetObjectItemCaseSensitive(lo, "parts") ? (uint32_t)num(lo, "frames_per_part") : r->frames;
    CHECK(per > 0 && vks_vat_layout_make(r->skin->vertex_count, per, (uint32_t)num(lo, "width"), &l, &err) == VKS_OK);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(lo, "pow2"))) {
        /* padded: the sidecar's powers of two, at least the rows and columns the frames need;
           the texel formula is the same */
        uint32_t w = (uint32_t)num(lo, "width"), h = (uint32_t)num(lo, "height");
        CHECK(w >= l.width && !(w & (w - 1)) && h >= l.height && !(h & (h - 1)));
        l.width = w, l.height = h;
        l.rows_per_frame = (l.vertex_count + w - 1) / w;
    }
    CHECK_EQ_INT(l.height, num(lo, "height"));
    CHECK_EQ_INT(l.rows_per_frame, num(lo, "rows_per_frame"));
    const cJSON *bounds = cJSON_GetObjectItemCaseSensitive(sc, "bounds");
    float mn[3], mx[3];
    for (int k = 0; k < 3; k++) {
        mn[k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(bounds, "min"), k)->valuedouble;
        mx[k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(bounds, "max"), k)->valuedouble;
    }
    double extent = 0; /* the error scale of the engines' noise: the largest coordinate */
    for (int k = 0; k < 3; k++)
        extent = fmax(extent, fmax(fabs(mn[k]), fabs(mx[k])));
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(sc, "files"))
    {
        const char *role = str(f, "role"), *p = path2(dir, str(f, "path"));
        if (!strncmp(role, "rest mesh (OBJ", 14)) {
            check_obj(p, &l);
            continue;
        }
        if (!strncmp(role, "rest mesh (glTF", 15)) {
            check_glb(p, &l, sc, r->skin);
            continue;
        }
        int normal = !strcmp(role, "normal");
        const float *want = normal ? r->nrm : r->pos;
        uint32_t g0, gn;
        part_of(lo, normal ? "normal" : "position", str(f, "path"), r->frames, &g0, &gn);
        CHECK(g0 + gn <= r->frames && gn <= per);
        float *tex = NULL;
        uint32_t w = 0, h = 0;
        uint16_t *q = NULL;
        int rgb = 3;
        if (!strcmp(enc, "unorm16"))
            CHECK(vks_vat_png16_read(p, &q, &w, &h, &err) == VKS_OK);
        else
            CHECK(vks_vat_exr_read(p, &rgb, &tex, &w, &h, &err) == VKS_OK);
        if (!tex && !q) {
            fprintf(stderr, "%s: %s\n", p, err.msg);
            continue;
        }
        CHECK_EQ_INT(w, l.width);
        CHECK_EQ_INT(h, l.height);
        double scale = normal ? 1.0 : extent;
        for (uint32_t g = g0; w == l.width && h == l.height && g < g0 + gn && g < r->frames && g - g0 < per; g++)
            for (uint32_t v = 0; v < l.vertex_count; v++)
                for (int k = 0; k < 3; k++) {
                    size_t at = ((size_t)vks_vat_row(&l, g - g0, v) * l.width + vks_vat_column(&l, v)) * 3 + (size_t)k;
                    double ref = want[((size_t)g * l.vertex_count + v) * 3 + (size_t)k], got, bound;
                    if (q) {
                        float lo_ = normal ? -1.0f : mn[k], hi_ = normal ? 1.0f : mx[k];
                        got = vks_vat_dequantize16(q[at], lo_, hi_);
                        bound = ((double)hi_ - lo_) / 65535.0;
                    } else if (!strcmp(enc, "float16")) {
                        got = tex[at];
                        bound = scale * ldexp(1.0, -11) + ldexp(1.0, -25);
                    } else {
                        got = tex[at];
                        bound = 1e-6 * scale; /* relative to the model's extent, as the diff's errors */
                    }
                    compare(p, got, ref, bound + engine_rel * scale);
                }
        free(tex);
        free(q);
    }
}

static void check_atlas(const char *dir, const cJSON *sc, const reference *r)
{
    const cJSON *lo = cJSON_GetObjectItemCaseSensitive(sc, "layout"), *f;
    const uint32_t rows = (uint32_t)num(lo, "height"), bones = r->skin->bone_count;
    int files = 0;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(sc, "files"))
    {
        if (strcmp(str(f, "role"), "bone matrices"))
            continue;
        files++;
        float *tex = NULL;
        uint32_t w = 0, h = 0, g0, gn;
        vks_error err = {0};
        const char *p = path2(dir, str(f, "path"));
        part_of(lo, "matrices", str(f, "path"), r->frames, &g0, &gn);
        CHECK(g0 + gn <= r->frames && gn <= rows);
        int rgba = 4;
        if (vks_vat_exr_read(p, &rgba, &tex, &w, &h, &err) != VKS_OK) {
            fprintf(stderr, "%s: %s\n", p, err.msg);
            vks_test_failures++;
            continue;
        }
        CHECK_EQ_INT(w, bones * 3);
        CHECK_EQ_INT(h, rows);
        const size_t at = (size_t)g0 * bones * 12; /* the part's first frame in the reference */
        for (size_t i = 0; w == bones * 3 && h == rows && gn <= rows && g0 + gn <= r->frames &&
                           i < (size_t)gn * bones * 12; i++)
            compare(p, tex[i], r->mat[at + i], 1e-6 * fmax(fabs(r->mat[at + i]), 1.0));
        free(tex);
    }
    CHECK(files > 0);
}

/* PC2 and raw caches (file vertex order, sample = frame): every model vertex's position at
 * its file vertex (duplicates share their file vertex's position) against the reference. */
static void check_cache(const char *dir, const cJSON *sc, const reference *r, int pc2, double engine_rel)
{
    const vks_skin *s = r->skin;
    const cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sc, "files"), 0);
    const char *p = path2(dir, str(f, "path"));
    size_t size = 0;
    uint8_t *b = vks_test_read_file(p, &size);
    uint32_t points = 0, *first = calloc(s->mesh_count + 1, sizeof *first);
    for (uint32_t m = 0; first && m < s->mesh_count; m++)
        first[m + 1] = first[m] + s->meshes[m].source_vertex_count;
    points = first ? first[s->mesh_count] : 0;
    size_t header = pc2 ? 32 : 0, stride = pc2 ? 3 : 6;
    size_t want = header + (size_t)r->frames * points * stride * 4;
    CHECK(b != NULL);
    CHECK_EQ_INT(size, want);
    if (b && pc2 && size >= 32) {
        CHECK(!memcmp(b, "POINTCACHE2", 12));
        CHECK_EQ_INT(le32(b + 16), points);
        CHECK_EQ_INT(le32(b + 28), r->frames);
    }
    double extent = 0;
    for (size_t i = 0; i < (size_t)r->frames * s->vertex_count * 3; i++)
        extent = fmax(extent, fabs(r->pos[i]));
    for (uint32_t m = 0; b && first && size == want && m < s->mesh_count; m++)
        for (uint32_t v = s->meshes[m].first_vertex; v < s->meshes[m].first_vertex + s->meshes[m].vertex_count; v++)
            for (uint32_t g = 0; g < r->frames; g++)
                for (int k = 0; k < 3; k++) {
                    float got;
                    size_t at = header + (((size_t)g * points + first[m] + s->source_vertex[v]) * stride + (size_t)k) * 4;
                    memcpy(&got, b + at, 4);
                    compare(p, got, r->pos[((size_t)g * s->vertex_count + v) * 3 + (size_t)k],
                            (1e-6 + engine_rel) * extent);
                }
    free(first);
    free(b);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_vat_decode OUTDIR BASEDIR\n");
        return 2;
    }
    const char *dir = argv[1];
    base = argv[2];
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: cannot open\n", dir);
        return 1;
    }
    struct dirent *e;
    int checked = 0;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json"))
            continue;
        size_t size = 0;
        char *text = slurp(path2(dir, e->d_name), &size);
        cJSON *sc = text ? cJSON_Parse(text) : NULL;
        free(text);
        const char *kind = str(sc, "kind"), *tool = str(sc, "tool");
        if (!kind || !tool || strcmp(tool, "vkskin bake")) {
            cJSON_Delete(sc);
            continue;
        }
        failures_before = vks_test_failures;
        reference r;
        if (!strcmp(kind, "gltf-morph")) { /* deform's glTF writer, validated by the glTF tests */
            cJSON_Delete(sc);
            continue;
        }
        if (!make_reference(sc, &r)) {
            vks_test_failures++;
        } else {
            const char *engine = str(sc, "engine");
            /* float engines against the double reference: a few float32 steps of the extent */
            double engine_rel = !strcmp(engine, "cpu-reference") ? 0.0 : 2e-5;
            if (!strcmp(kind, "atlas"))
                check_atlas(dir, sc, &r);
            else if (!strcmp(kind, "pc2") || !strcmp(kind, "raw"))
                check_cache(dir, sc, &r, !strcmp(kind, "pc2"), engine_rel);
            else
                check_vat(dir, sc, &r, engine_rel);
            checked++;
        }
        if (vks_test_failures != failures_before)
            fprintf(stderr, "FAILED: %s\n", e->d_name);
        free_reference(&r);
        cJSON_Delete(sc);
    }
    closedir(d);
    printf("test_vat_decode: %d outputs decoded, worst error %.3f of its bound\n", checked, worst_ratio);
    CHECK(checked > 0);
    return vks_test_failures ? 1 : 0;
}
