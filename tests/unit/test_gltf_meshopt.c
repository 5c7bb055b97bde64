/* EXT_ and KHR_meshopt_compression read exactly (src/formats/gltf/gltf_meshopt.c): a generated
 * character written as .glb, its views packed losslessly by libmeshoptimizer's own encoders
 * (meshopt_pack.c: ATTRIBUTES, TRIANGLES and INDICES modes, under either extension name),
 * must read back bit for bit (vertices, normals, influences, inverse binds) and deform to the
 * same bytes on the CPU reference. Then the packed file broken one way at a time, each refused
 * with the error naming the bufferView's extension: truncated data, a stride the mode does not
 * allow, a count past the view, an unknown filter, a newer encoding version, and decoded sizes
 * past the read options' max input size. Errors about the compressed bytes give their offset
 * in the .glb. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "character.h"
#include "meshopt_pack.h"
#include "testutil.h"

static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*size);
    *size = fread(b, 1, *size, f);
    fclose(f);
    return b;
}

/* The generated character as a .glb (malloc), written through a temporary folder made in the
 * test's working directory and removed. */
static uint8_t *character_glb(size_t *size)
{
    vks_gen_params p = {0};
    p.bones = 24, p.vertices = 600, p.seed = 7;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    CHECK(s != NULL);
    char dir[] = "vks_gltf_meshopt_XXXXXX", path[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/c.glb", dir);
    CHECK(vks_gltf_write_skin(path, s, NULL, 0, NULL, NULL, &err) == VKS_OK);
    uint8_t *b = slurp(path, size);
    remove(path);
    rmdir(dir);
    vks_skin_free(s);
    return b;
}

static vks_skin *read_glb(const uint8_t *b, size_t n)
{
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_gltf_read(NULL, b, n, &s, &err) != VKS_OK)
        fprintf(stderr, "read: [%s] %s\n", err.path, err.msg);
    return s;
}

/* Reference deformation of s in a procedural pose (malloc'd positions and normals). */
static float *deform(const vks_skin *s)
{
    vks_affine *locals = malloc(s->node_count * sizeof *locals);
    vks_pose_procedural(s, 3, 0, 0.4f, 0.6f, locals);
    float *out = malloc((size_t)s->vertex_count * 6 * sizeof *out);
    vks_deform_job j = {s, locals, 1, out, out + (size_t)s->vertex_count * 3, NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    free(locals);
    return out;
}

static void same_skin(const vks_skin *a, const vks_skin *b, int same_triangles)
{
    CHECK_EQ_INT(a->vertex_count, b->vertex_count);
    CHECK_EQ_INT(a->triangle_count, b->triangle_count);
    CHECK_EQ_INT(a->bone_count, b->bone_count);
    if (a->vertex_count != b->vertex_count || a->bone_count != b->bone_count)
        return;
    size_t n = a->vertex_count;
    CHECK(!memcmp(a->positions, b->positions, n * sizeof *a->positions));
    CHECK(!memcmp(a->normals, b->normals, n * sizeof *a->normals));
    CHECK(!memcmp(a->influences, b->influences, n * sizeof *a->influences));
    for (uint32_t i = 0; i < a->bone_count; i++)
        CHECK(!memcmp(&a->bones[i].inverse_bind, &b->bones[i].inverse_bind, sizeof a->bones[i].inverse_bind));
    if (same_triangles)
        CHECK(!memcmp(a->triangles, b->triangles, a->triangle_count * sizeof *a->triangles));
    float *da = deform(a), *db = deform(b);
    CHECK(!memcmp(da, db, n * 6 * sizeof *da));
    free(da);
    free(db);
}

/* The packed file with one change: fn edits the first view's extension of the given mode. */
static uint8_t *edited(const uint8_t *glb, size_t size, const char *mode, void (*fn)(cJSON *ext), size_t *out_size)
{
    uint32_t jl = (uint32_t)glb[12] | (uint32_t)glb[13] << 8 | (uint32_t)glb[14] << 16 | (uint32_t)glb[15] << 24;
    cJSON *json = cJSON_ParseWithLength((const char *)glb + 20, jl), *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(json, "bufferViews"))
    {
        cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(v, "extensions"),
                                                    "EXT_meshopt_compression");
        if (e && !strcmp(cJSON_GetObjectItemCaseSensitive(e, "mode")->valuestring, mode)) {
            fn(e);
            break;
        }
    }
    char *text = cJSON_PrintUnformatted(json);
    size_t tl = strlen(text), tp = (tl + 3) / 4 * 4, rest = size - 20 - jl;
    *out_size = 20 + tp + rest;
    uint8_t *out = malloc(*out_size);
    memcpy(out, glb, 20);
    uint32_t total = (uint32_t)*out_size, tp32 = (uint32_t)tp;
    memcpy(out + 8, &total, 4);
    memcpy(out + 12, &tp32, 4);
    memcpy(out + 20, text, tl);
    memset(out + 20 + tl, ' ', tp - tl);
    memcpy(out + 20 + tp, glb + 20 + jl, rest);
    free(text);
    cJSON_Delete(json);
    return out;
}

static void halve_length(cJSON *e)
{
    cJSON *l = cJSON_GetObjectItemCaseSensitive(e, "byteLength");
    cJSON_SetNumberValue(l, (double)(l->valueint / 2));
}
static void stride_6(cJSON *e) { cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "byteStride"), 6); }
static void count_up(cJSON *e)
{
    cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "count");
    cJSON_SetNumberValue(c, (double)(c->valueint + 3));
}
static void filter_color(cJSON *e) { cJSON_AddStringToObject(e, "filter", "COLOR"); }

typedef struct broken {
    const char *what, *mode;
    void (*fn)(cJSON *ext);
    vks_result code;
    const char *msg;
} broken;

static void test_errors(const uint8_t *packed, size_t size)
{
    static const broken cases[] = {
        {"truncated vertices", "ATTRIBUTES", halve_length, VKS_ERR_FORMAT, "malformed compressed data"},
        {"truncated triangles", "TRIANGLES", halve_length, VKS_ERR_FORMAT, "malformed compressed data"},
        {"stride 6", "ATTRIBUTES", stride_6, VKS_ERR_FORMAT, "byteStride 6 must be 4..256 and a multiple of 4"},
        {"count past the view", "ATTRIBUTES", count_up, VKS_ERR_FORMAT, "passes the bufferView's byteLength"},
        {"filter COLOR", "ATTRIBUTES", filter_color, VKS_ERR_UNSUPPORTED, "filter must be"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = 0;
        uint8_t *b = edited(packed, size, cases[i].mode, cases[i].fn, &n);
        vks_skin *s = NULL;
        vks_error err = {0};
        vks_result r = vks_gltf_read(NULL, b, n, &s, &err);
        int ok = r == cases[i].code && !s && strstr(err.path, ".extensions.EXT_meshopt_compression") &&
                 !strncmp(err.path, "bufferViews[", 12) && strstr(err.msg, cases[i].msg);
        /* the decoder's refusals point into the BIN chunk; the JSON's have no offset */
        int in_data = strstr(cases[i].msg, "malformed") != NULL;
        ok = ok && (in_data ? err.offset > 20 && err.offset < n : err.offset == VKS_NO_OFFSET);
        if (!ok)
            fprintf(stderr, "%s: got %s [%s] %s\n", cases[i].what, vks_result_str(r), err.path, err.msg);
        CHECK(ok);
        vks_skin_free(s);
        free(b);
    }
}

/* A vertex stream of meshopt's version 1 codec (header byte 0xa1, KHR_meshopt_compression's
 * newer encoding), which this libmeshoptimizer cannot decode: refused as unsupported, naming
 * the view and the version byte. */
static void test_version(const uint8_t *packed, size_t size)
{
    uint32_t jl = (uint32_t)packed[12] | (uint32_t)packed[13] << 8 | (uint32_t)packed[14] << 16 |
                  (uint32_t)packed[15] << 24;
    cJSON *json = cJSON_ParseWithLength((const char *)packed + 20, jl), *v;
    int at = -1;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(json, "bufferViews"))
    {
        cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(v, "extensions"),
                                                    "EXT_meshopt_compression");
        if (at < 0 && e && !strcmp(cJSON_GetObjectItemCaseSensitive(e, "mode")->valuestring, "ATTRIBUTES"))
            at = cJSON_GetObjectItemCaseSensitive(e, "byteOffset")->valueint;
    }
    cJSON_Delete(json);
    CHECK(at >= 0);
    uint8_t *b = malloc(size);
    memcpy(b, packed, size);
    CHECK(b[20 + jl + 8 + at] == 0xa0); /* version 0, as this library encodes */
    b[20 + jl + 8 + at] = 0xa1;
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK(vks_gltf_read(NULL, b, size, &s, &err) == VKS_ERR_UNSUPPORTED && !s);
    CHECK(strstr(err.msg, "encoding version") && strstr(err.msg, "0xa1"));
    CHECK(strstr(err.path, ".extensions.EXT_meshopt_compression") != NULL);
    CHECK(err.offset == 20 + jl + 8 + (uint64_t)at); /* the compressed bytes' place in the .glb */
    free(b);
}

/* Decoded sizes count against file.max_size: 4 KiB is less than the character decodes to. */
static void test_limit(const uint8_t *packed, size_t size)
{
    vks_read_options opt = {0};
    opt.file.max_size = 4096;
    vks_skin *s = NULL;
    vks_error err = {0};
    vks_result r = vks_gltf_read(&opt, packed, size, &s, &err);
    CHECK(r == VKS_ERR_LIMIT && !s);
    CHECK(strstr(err.msg, "passes the max input size") != NULL);
    CHECK(strstr(err.path, ".extensions.EXT_meshopt_compression") != NULL);
}

int main(void)
{
    size_t size = 0;
    uint8_t *glb = character_glb(&size);
    vks_skin *orig = read_glb(glb, size);
    CHECK(orig != NULL);
    static const struct {
        const char *ext;
        int triangles;
    } packs[] = {{"EXT_meshopt_compression", 1}, {"KHR_meshopt_compression", 0}};
    for (int k = 0; k < 2 && orig; k++) {
        size_t n = 0;
        uint8_t *packed = meshopt_pack_glb(glb, size, packs[k].ext, packs[k].triangles, &n);
        CHECK(packed != NULL && n < size); /* compressed, and smaller */
        if (!packed)
            continue;
        /* the modes this pass means to exercise are in the file */
        const char *modes[] = {"\"ATTRIBUTES\"", packs[k].triangles ? "\"TRIANGLES\"" : "\"INDICES\""};
        for (int m = 0; m < 2; m++)
            CHECK(memmem(packed, n, modes[m], strlen(modes[m])) != NULL);
        vks_skin *copy = read_glb(packed, n);
        CHECK(copy != NULL);
        if (copy)
            same_skin(orig, copy, !packs[k].triangles); /* TRIANGLES may rotate a triangle's corners */
        vks_skin_free(copy);
        if (k == 0) {
            test_errors(packed, n);
            test_version(packed, n);
            test_limit(packed, n);
        }
        free(packed);
    }
    vks_skin_free(orig);
    free(glb);
    return vks_test_finish("test_gltf_meshopt");
}
