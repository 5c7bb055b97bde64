/* The glTF writer (include/vkskin/gltf.h) without Node: the GLB framing and the .gltf data
 * URI read back by hand, the document's cross-references, and a round trip through vkskin's
 * own glTF reader: the generated characters of every format (in the repository's datasets/)
 * with a clip each, the glTF read back, its animation played by the CPU reference and compared
 * with the source's own deformation mapped by the axis correction, at times on the writer's
 * 30 fps grid. Then errors: an output folder that does not exist, a clip bound to another skin,
 * and deform --format glb's refusals through the bake API. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "character.h"
#include "character_clips.h"
#include "testutil.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Deforms skin with clip (bound by b) at time t with the CPU reference, into pos (model order). */
static void deform_at(const vks_skin *s, const vks_clip *clip, const vks_clip_binding *b, double t, float *pos)
{
    vks_affine *locals = malloc(s->node_count * sizeof *locals);
    vks_clip_sample_locals_d(clip, b, s, t, locals);
    vks_deform_job job = {s, locals, 1, pos, NULL, NULL};
    vks_error err = {0};
    CHECK(vks_cpu_reference_run(&job, &err) == VKS_OK);
    free(locals);
}

/* file vertex j of mesh m -> its first model vertex */
static uint32_t model_vertex(const vks_skin *s, uint32_t m, uint32_t j)
{
    const vks_mesh *me = &s->meshes[m];
    for (uint32_t v = 0; v < me->vertex_count; v++)
        if (s->source_vertex[me->first_vertex + v] == j)
            return me->first_vertex + v;
    return UINT32_MAX;
}

/* The GLB's framing and JSON, checked by hand; returns the parsed JSON (free it). */
static cJSON *check_glb(const uint8_t *b, size_t n)
{
    CHECK(n >= 28 && !memcmp(b, "glTF", 4));
    if (n < 28)
        return NULL;
    CHECK_EQ_INT(le32(b + 4), 2);
    CHECK_EQ_INT(le32(b + 8), n);
    uint32_t jn = le32(b + 12);
    CHECK(jn % 4 == 0 && !memcmp(b + 16, "JSON", 4) && 20 + (size_t)jn + 8 <= n);
    uint32_t bn = le32(b + 20 + jn);
    CHECK(bn % 4 == 0 && !memcmp(b + 24 + jn, "BIN\0", 4) && 28 + (size_t)jn + bn == n);
    cJSON *j = cJSON_ParseWithLength((const char *)b + 20, jn);
    CHECK(j != NULL);
    /* every accessor inside its view, every view inside the buffer */
    cJSON *views = cJSON_GetObjectItem(j, "bufferViews"), *acc, *v;
    cJSON_ArrayForEach(v, views) {
        double off = cJSON_GetObjectItem(v, "byteOffset")->valuedouble, len = cJSON_GetObjectItem(v, "byteLength")->valuedouble;
        CHECK(off + len <= bn && (uint64_t)off % 4 == 0);
    }
    cJSON_ArrayForEach(acc, cJSON_GetObjectItem(j, "accessors")) {
        cJSON *view = cJSON_GetArrayItem(views, cJSON_GetObjectItem(acc, "bufferView")->valueint);
        CHECK(view != NULL);
    }
    return j;
}

static void check_skins(cJSON *j, const vks_skin *s)
{
    cJSON *skins = cJSON_GetObjectItem(j, "skins"), *meshes = cJSON_GetObjectItem(j, "meshes");
    CHECK_EQ_INT(cJSON_GetArraySize(skins), s->mesh_count);
    CHECK_EQ_INT(cJSON_GetArraySize(meshes), s->mesh_count);
    for (uint32_t m = 0; m < s->mesh_count; m++) {
        cJSON *joints = cJSON_GetObjectItem(cJSON_GetArrayItem(skins, (int)m), "joints");
        CHECK_EQ_INT(cJSON_GetArraySize(joints), s->meshes[m].bone_count);
    }
}

/* src with clip (bound by b) written to out, read back by vkskin's glTF readers, and both
 * deformed at 8 times on the 30 fps grid: the worst error over the bounding radius. */
static double write_and_compare(const vks_skin *src, const vks_clip *clip, const vks_clip_binding *b, const char *out,
                                vks_gltf_report *rep)
{
    vks_read_options ro = {0};
    vks_skin *back = NULL;
    vks_clip_set *back_set = NULL;
    vks_error err = {0};
    double worst = 0;
    vks_gltf_clip gc = {clip, b, NULL};
    CHECK(vks_gltf_write_skin(out, src, &gc, 1, NULL, rep, &err) == VKS_OK);
    size_t n = 0;
    uint8_t *glb = vks_test_read_file(out, &n);
    cJSON *j = glb ? check_glb(glb, n) : NULL;
    if (j)
        check_skins(j, src);
    cJSON_Delete(j);
    /* vkskin's own glTF reader: the model and the animation as a clip */
    CHECK(vks_read_file(&ro, out, &back, &err) == VKS_OK);
    vks_clip_reader_fn read = glb ? vks_detect_clip_format(glb, n, out, NULL) : NULL;
    CHECK(read && read(&ro, glb, n, &back_set, &err) == VKS_OK);
    free(glb);
    if (back && back_set && back_set->clip_count == 1) {
        CHECK_EQ_INT(back->mesh_count, src->mesh_count);
        CHECK_NEAR(back_set->clips[0].duration, clip->duration, 1e-6);
        vks_clip_binding bb;
        CHECK(vks_clip_bind(&back_set->clips[0], back, &bb, &err) == VKS_OK);
        float *p1 = malloc(src->vertex_count * 12), *p2 = malloc(back->vertex_count * 12);
        vks_affine C = vks_gltf_correction(src);
        double radius = vks_skin_bounding_radius(src);
        for (int k = 0; k < 8; k++) {
            double t = fmin(k * 4.0 / 30.0, clip->duration * 0.999);
            deform_at(src, clip, b, t, p1);
            deform_at(back, &back_set->clips[0], &bb, t, p2);
            for (uint32_t m = 0; m < src->mesh_count && m < back->mesh_count; m++) {
                CHECK_EQ_INT(back->meshes[m].source_vertex_count, src->meshes[m].source_vertex_count);
                for (uint32_t v = 0; v < src->meshes[m].source_vertex_count; v++) {
                    uint32_t a = model_vertex(src, m, v), c = model_vertex(back, m, v);
                    if (a == UINT32_MAX || c == UINT32_MAX)
                        continue;
                    float want[3];
                    vks_affine_apply(&C, p1 + (size_t)a * 3, want);
                    double e = 0;
                    for (int i = 0; i < 3; i++)
                        e = fmax(e, fabs(want[i] - p2[(size_t)c * 3 + i]));
                    worst = fmax(worst, e / radius);
                }
            }
        }
        free(p1), free(p2);
        vks_clip_binding_free(&bb);
    } else
        worst = 1;
    vks_clip_set_free(back_set);
    vks_skin_free(back);
    return worst;
}

/* The round trip of one model and clip file of the repository's datasets. */
static double round_trip(const char *model, const char *clip_file, const char *out)
{
    vks_read_options ro = {0};
    vks_skin *src = NULL;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    char msg[512];
    double worst = 0;
    if (vks_read_file(&ro, vks_test_source_path(model), &src, &err) != VKS_OK) {
        fprintf(stderr, "%s\n", vks_error_format(&err, model, msg, sizeof msg));
        CHECK(0);
        return 1;
    }
    size_t n = 0;
    uint8_t *bytes = vks_test_read_file(vks_test_source_path(clip_file), &n);
    vks_clip_reader_fn read = vks_detect_clip_format(bytes, n, clip_file, NULL);
    CHECK(read && read(&ro, bytes, n, &set, &err) == VKS_OK);
    free(bytes);
    if (!set) {
        vks_skin_free(src);
        return 1;
    }
    vks_clip_binding b;
    CHECK(vks_clip_bind(&set->clips[0], src, &b, &err) == VKS_OK);
    vks_gltf_report rep;
    worst = write_and_compare(src, &set->clips[0], &b, out, &rep);
    CHECK_EQ_INT(rep.animations, 1);
    CHECK(rep.channels_kept + rep.channels_resampled > 0);
    vks_clip_binding_free(&b);
    vks_clip_set_free(set);
    vks_skin_free(src);
    return worst;
}

/* Meshes whose skin spaces differ get a skeleton copy each: a generated character split into
 * limb meshes, two of them given their own space_pre, played with the generator's walk. */
static void check_copies(const char *out)
{
    vks_gen_params p = {0};
    p.max_mesh_vertices = 600;
    vks_error err = {0};
    vks_skin *s = vks_gen_character(&p, &err);
    vks_clip_set *clips = NULL;
    CHECK(s && s->mesh_count >= 3);
    CHECK(s && vks_gen_clips(s, &clips, &err) == VKS_OK);
    if (!s || !clips || s->mesh_count < 3) {
        vks_skin_free(s), vks_clip_set_free(clips);
        return;
    }
    const float t1[3] = {0.5f, -1, 2}, q1[4] = {0, 0.6f, 0, 0.8f}, s1[3] = {1, 1, 1};
    const float t2[3] = {0, 0, -3}, q2[4] = {0.28f, 0, 0, 0.96f}, s2[3] = {2, 2, 2};
    s->meshes[1].space_pre = vks_affine_from_trs(t1, q1, s1);
    s->meshes[2].space_pre = vks_affine_from_trs(t2, q2, s2);
    CHECK(vks_skin_validate(s, &err) == VKS_OK);
    vks_clip_binding b;
    CHECK(vks_clip_bind(&clips->clips[0], s, &b, &err) == VKS_OK);
    vks_gltf_report rep;
    double worst = write_and_compare(s, &clips->clips[0], &b, out, &rep);
    printf("%u meshes in 3 skin spaces: %u skeleton copies, worst %.3g of the bounding radius\n", s->mesh_count,
           rep.skeleton_copies, worst);
    CHECK_EQ_INT(rep.skeleton_copies, 3);
    CHECK(worst < 1e-5);
    vks_clip_binding_free(&b);
    vks_clip_set_free(clips);
    vks_skin_free(s);
}

/* .gltf: one JSON file whose buffer is a base64 data URI of the GLB's BIN chunk. */
static void check_embedded(const char *glb_path, const char *gltf_path, const vks_skin *s)
{
    vks_error err = {0};
    CHECK(vks_gltf_write_skin(gltf_path, s, NULL, 0, NULL, NULL, &err) == VKS_OK);
    CHECK(vks_gltf_write_skin(glb_path, s, NULL, 0, NULL, NULL, &err) == VKS_OK);
    size_t ng = 0, nt = 0;
    uint8_t *g = vks_test_read_file(glb_path, &ng), *t = vks_test_read_file(gltf_path, &nt);
    cJSON *j = t ? cJSON_ParseWithLength((const char *)t, nt) : NULL;
    const char *uri = j ? cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "buffers"), 0), "uri")->valuestring : "";
    const char *prefix = "data:application/octet-stream;base64,";
    CHECK(!strncmp(uri, prefix, strlen(prefix)));
    /* decode and compare with the BIN chunk */
    const char *b64 = uri + strlen(prefix);
    size_t len = strlen(b64), o = 0;
    uint8_t *bin = malloc(len / 4 * 3 + 3);
    for (size_t i = 0; i + 3 < len + 3 && i < len; i += 4) {
        uint32_t v = 0;
        int pad = 0;
        for (int k = 0; k < 4; k++) {
            char c = b64[i + k];
            int d = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
                    : c == '+' ? 62 : c == '/' ? 63 : (pad++, 0);
            v = v << 6 | (uint32_t)d;
        }
        for (int k = 0; k < 3 - pad; k++)
            bin[o++] = (uint8_t)(v >> (16 - 8 * k));
    }
    uint32_t jn = g && ng > 20 ? le32(g + 12) : 0;
    CHECK(g && ng >= 28 + (size_t)jn && o == le32(g + 20 + jn) && !memcmp(bin, g + 28 + jn, o));
    free(bin), free(g), free(t);
    cJSON_Delete(j);
}

int main(void)
{
    char dir[] = "/tmp/vks_gltf_write_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char out[256];
    static const char *const cases[][2] = {
        {"datasets/char_b24_pl8.dff", "datasets/char_b24_pl8.dff.ifp"},           /* kept LINEAR keys */
        {"datasets/char_b24_pl8.nif", "datasets/char_b24_pl8.nif.wave.kf"},       /* B-splines: sampled */
        {"datasets/char_b32_rigid.cmdl", "datasets/char_b32_rigid.cmdl.walk.cskla"}, /* rigid, Euler: sampled */
        {"datasets/char_b48_pl20_strips.p3d", "datasets/char_b48_pl20_strips.p3d.walk.rtm"}, /* deltas: sampled */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(out, sizeof out, "%s/rt%zu.glb", dir, i);
        double worst = round_trip(cases[i][0], cases[i][1], out);
        printf("%s with %s: worst %.3g of the bounding radius after the round trip\n", cases[i][0], cases[i][1], worst);
        CHECK(worst < 1e-5);
    }

    snprintf(out, sizeof out, "%s/copies.glb", dir);
    check_copies(out);
    unlink(out);

    vks_read_options ro = {0};
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK(vks_read_file(&ro, vks_test_source_path("datasets/char_b64_i4.dff"), &s, &err) == VKS_OK);
    if (s) {
        char g1[256], g2[256];
        snprintf(g1, sizeof g1, "%s/e.glb", dir), snprintf(g2, sizeof g2, "%s/e.gltf", dir);
        check_embedded(g1, g2, s);
        unlink(g1), unlink(g2);
        /* a folder that does not exist: an IO error naming it, nothing written */
        snprintf(out, sizeof out, "%s/missing/x.glb", dir);
        memset(&err, 0, sizeof err);
        CHECK(vks_gltf_write_skin(out, s, NULL, 0, NULL, NULL, &err) == VKS_ERR_IO);
        CHECK(access(out, F_OK) != 0);
        /* a binding made for another skin is refused */
        vks_clip_binding wrong = {0};
        wrong.node_count = s->node_count + 1;
        vks_clip clip = {0};
        clip.duration = 1;
        vks_gltf_clip gc = {&clip, &wrong, "bad"};
        snprintf(out, sizeof out, "%s/bad.glb", dir);
        memset(&err, 0, sizeof err);
        CHECK(vks_gltf_write_skin(out, s, &gc, 1, NULL, NULL, &err) == VKS_ERR_INVALID);
        CHECK(strstr(err.msg, "bad") != NULL);
        CHECK(access(out, F_OK) != 0);
        /* deform --format glb: one instance only, and a bake of 2 frames is a valid GLB */
        vks_bake *b = NULL;
        snprintf(out, sizeof out, "%s/bake.glb", dir);
        memset(&err, 0, sizeof err);
        CHECK(vks_bake_open(&b, out, VKS_BAKE_GLB, s, 2, 1, &err) == VKS_ERR_INVALID);
        CHECK(strstr(err.msg, "one instance") != NULL);
        CHECK(vks_bake_format_parse("glb") == VKS_BAKE_GLB && vks_bake_format_parse("gltf") == VKS_BAKE_GLTF);
        CHECK(vks_bake_format_from_path("x.gltf") == VKS_BAKE_GLTF);
        CHECK(vks_bake_open(&b, out, VKS_BAKE_GLB, s, 1, 2, &err) == VKS_OK);
        if (b) {
            vks_bake_set_times(b, 0.5, 10);
            CHECK(vks_bake_write(b, 0, 0, &s->positions[0][0], &s->normals[0][0], &err) == VKS_OK);
            CHECK(vks_bake_write(b, 0, 1, &s->positions[0][0], &s->normals[0][0], &err) == VKS_OK);
            CHECK(vks_bake_close(b, 1, &err) == VKS_OK);
            size_t n = 0;
            uint8_t *glb = vks_test_read_file(out, &n);
            cJSON *j = glb ? check_glb(glb, n) : NULL;
            cJSON *prim = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "meshes"), 0), "primitives"), 0);
            CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(prim, "targets")), 2);
            CHECK_EQ_INT(cJSON_GetArraySize(cJSON_GetObjectItem(j, "animations")), 1);
            cJSON_Delete(j);
            free(glb);
            unlink(out);
        }
    }
    vks_skin_free(s);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(out, sizeof out, "%s/rt%zu.glb", dir, i);
        unlink(out);
    }
    rmdir(dir);
    return vks_test_finish("test_gltf_write");
}
