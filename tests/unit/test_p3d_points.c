/* P3D outputs number vertices by the file's points (issue 9, point 14): for the synthetic
 * tube (an MLOD visual LOD of 58 points whose faces have 83 distinct corners) the model maps
 * every vertex to its point, the mesh has 58 file vertices, and the CSV and raw outputs at
 * the bind pose hold one row per point, row i at point i's stored position. The points are
 * read here straight from the file's bytes, not through the reader. Posed, the corners of
 * one point stay together (weights are per point), so one row per point loses nothing but
 * the split normals. An ODOL file's vertex is its LOD vertex index (checked on the backpack
 * against the LOD as the internal ODOL parser decodes it). */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "formats/p3d/p3d_internal.h"
#include "testutil.h"
#include "vkskin/bake.h"
#include "vkskin/cpu.h"
#include "vkskin/pose.h"

#define TUBE "p3d/synthetic_skinned_tube.p3d"

static uint8_t *load(const char *rel, size_t *n)
{
    uint8_t *b = vks_test_read_file(vks_test_dataset(rel), n);
    if (!b) {
        fprintf(stderr, "cannot read %s\n", rel);
        exit(1);
    }
    return b;
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* The first LOD's points of an MLOD (notes section 2.2): "MLOD" u32 version u32 lodCount,
 * then "P3DM" u32 major u32 minor u32 nPoints u32 nNormals u32 nFaces u32 flags, and the
 * points as 16-byte records (f32 x y z, u32 flags). Returns the count, 0 when malformed. */
static uint32_t first_lod_points(const uint8_t *b, size_t n, float (**out)[3])
{
    if (n < 40 || memcmp(b, "MLOD", 4) || memcmp(b + 12, "P3DM", 4))
        return 0;
    uint32_t np = le32(b + 24);
    if (np > (n - 40) / 16)
        return 0;
    *out = malloc((np ? np : 1) * sizeof **out);
    for (uint32_t i = 0; i < np; i++)
        memcpy((*out)[i], b + 40 + (size_t)i * 16, 12); /* little-endian host, as the tests assume */
    return np;
}

static vks_skin *read_tube(void)
{
    size_t n, cn;
    uint8_t *b = load(TUBE, &n);
    uint8_t *cfg = load("p3d/synthetic_skinned_tube.model.cfg", &cn);
    vks_read_options o = {0};
    o.p3d.model_cfg = (const char *)cfg;
    o.p3d.model_cfg_size = cn;
    o.p3d.model_name = "synthetic_skinned_tube";
    vks_skin *s = NULL;
    vks_error err = {0};
    if (vks_p3d_read(&o, b, n, &s, &err) != VKS_OK || vks_skin_validate(s, &err) != VKS_OK) {
        fprintf(stderr, "%s: %s: %s\n", TUBE, err.path, err.msg);
        exit(1);
    }
    free(b);
    free(cfg);
    return s;
}

/* One pose of every model vertex through the CPU reference. */
static void deform(const vks_skin *s, int posed, float *pos, float *nrm)
{
    vks_affine *locals = malloc(s->node_count * sizeof *locals);
    if (posed)
        vks_pose_procedural(s, 7, 0, 0.5f, 0.0f, locals);
    else
        vks_pose_bind(s, locals);
    vks_deform_job j = {s, locals, 1, pos, nrm, NULL};
    vks_error err = {0};
    CHECK_EQ_INT(vks_cpu_reference_run(&j, &err), VKS_OK);
    free(locals);
}

/* Writes one frame in format f under dir and returns the file's bytes (NUL-terminated). */
static char *bake(const vks_skin *s, const char *dir, vks_bake_format f, const float *pos, const float *nrm,
                  size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tube.%s", dir, f == VKS_BAKE_CSV ? "csv" : "raw");
    vks_bake *b = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_bake_open(&b, path, f, s, 1, 1, &err), VKS_OK);
    CHECK_EQ_INT(vks_bake_write(b, 0, 0, pos, nrm, &err), VKS_OK);
    CHECK_EQ_INT(vks_bake_close(b, 1, &err), VKS_OK);
    char *bytes = (char *)vks_test_read_file(path, n);
    remove(path);
    if (!bytes) {
        fprintf(stderr, "no output %s\n", path);
        exit(1);
    }
    bytes = realloc(bytes, *n + 1);
    bytes[*n] = 0;
    return bytes;
}

/* Is nrm one of the normals of point i's corners (model vertices from it)? */
static int corner_normal(const vks_skin *s, const float *model_nrm, uint32_t i, const float n[3])
{
    for (uint32_t v = 0; v < s->vertex_count; v++)
        if (s->source_vertex[v] == i && !memcmp(model_nrm + (size_t)v * 3, n, 12))
            return 1;
    return 0;
}

/* ODOL: model vertex v is LOD vertex source_vertex[v], every LOD vertex is one. */
static void test_odol(void)
{
    static const char rel[] = "p3d/odol/ace_tacticalladder_pack.p3d";
    size_t n;
    uint8_t *b = load(rel, &n);
    vks_read_options o = vks_read_options_defaults(NULL);
    p3d_pool pool = {0};
    p3d_file f;
    p3d_lod lod;
    memset(&f, 0, sizeof f);
    vks_error err = {0};
    CHECK_EQ_INT(p3d_odol_scan(&pool, b, n, &o, &f, &err), VKS_OK);
    CHECK_EQ_INT(p3d_odol_lod(&pool, &f, 0, &o, &lod, &err), VKS_OK); /* the visual LOD read by default */
    vks_skin *s = NULL;
    CHECK_EQ_INT(vks_p3d_read(NULL, b, n, &s, &err), VKS_OK);
    if (s && err.code == VKS_OK) {
        CHECK(strstr(s->format_detail, "LOD 0 of") != NULL);
        CHECK_EQ_INT(s->meshes[0].source_vertex_count, lod.vertex_count);
        CHECK_EQ_INT(lod.vertex_count, 2524);
        uint8_t *seen = calloc(lod.vertex_count, 1);
        for (uint32_t v = 0; v < s->vertex_count; v++) {
            uint32_t i = s->source_vertex[v];
            CHECK(i < lod.vertex_count);
            if (i >= lod.vertex_count)
                continue;
            seen[i] = 1;
            CHECK(!memcmp(s->positions[v], lod.points[lod.vertex_point[i]], 12));
        }
        for (uint32_t i = 0; i < lod.vertex_count; i++)
            CHECK(seen[i]);
        free(seen);
    }
    vks_skin_free(s);
    p3d_pool_free(&pool);
    free(b);
}

int main(void)
{
    size_t n;
    uint8_t *bytes = load(TUBE, &n);
    float (*pt)[3] = NULL;
    uint32_t np = first_lod_points(bytes, n, &pt);
    free(bytes);
    CHECK_EQ_INT(np, 58);
    vks_skin *s = read_tube();
    CHECK(strstr(s->format_detail, "LOD 0 of") != NULL); /* the LOD whose points were read */
    CHECK_EQ_INT(s->mesh_count, 1);
    CHECK_EQ_INT(s->meshes[0].source_vertex_count, np);
    CHECK(s->vertex_count > np); /* 83: corners split by normal and UV */

    /* every model vertex sits at its point; every point has a model vertex */
    uint32_t *seen = calloc(np ? np : 1, sizeof *seen);
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        uint32_t i = s->source_vertex[v];
        CHECK(i < np);
        if (i >= np)
            continue;
        seen[i]++;
        CHECK(!memcmp(s->positions[v], pt[i], 12));
    }
    for (uint32_t i = 0; i < np; i++)
        CHECK(seen[i] > 0);
    free(seen);

    float *pos = malloc(s->vertex_count * 12), *nrm = malloc(s->vertex_count * 12);
    double tol = 1e-6 * vks_skin_bounding_radius(s); /* bind skin matrices are identity up to rounding */
    char dir[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/vks_p3d_points_XXXXXX", tmp && tmp[0] ? tmp : ".");
    CHECK(mkdtemp(dir) != NULL);

    /* CSV at bind: a header, then row i = point i at its stored position */
    deform(s, 0, pos, nrm);
    char *csv = bake(s, dir, VKS_BAKE_CSV, pos, nrm, &n);
    const char *line = strchr(csv, '\n');
    CHECK(line && !strncmp(csv, "instance,frame,mesh,vertex,", 27));
    uint32_t rows = 0;
    while (line && line[1]) {
        unsigned inst, frame, mesh, vert;
        float p[3], q[3];
        int got = sscanf(line + 1, "%u,%u,%u,%u,%f,%f,%f,%f,%f,%f", &inst, &frame, &mesh, &vert, &p[0], &p[1], &p[2],
                         &q[0], &q[1], &q[2]);
        CHECK_EQ_INT(got, 10);
        CHECK(inst == 0 && frame == 0 && mesh == 0);
        CHECK_EQ_INT(vert, rows);
        if (got == 10 && vert < np) {
            for (int k = 0; k < 3; k++)
                CHECK_NEAR(p[k], pt[vert][k], tol);
            CHECK(corner_normal(s, nrm, vert, q)); /* the normal of one of its corners */
        }
        rows++;
        line = strchr(line + 1, '\n');
    }
    CHECK_EQ_INT(rows, np);
    free(csv);

    /* raw at bind: 6 floats per point, in point order */
    char *raw = bake(s, dir, VKS_BAKE_RAW, pos, nrm, &n);
    CHECK_EQ_INT(n, (size_t)np * 24);
    for (uint32_t i = 0; i < np && n == (size_t)np * 24; i++) {
        float r[6];
        memcpy(r, raw + (size_t)i * 24, 24);
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(r[k], pt[i][k], tol);
        CHECK(corner_normal(s, nrm, i, r + 3));
    }
    free(raw);
    rmdir(dir);

    /* posed: the corners of a point agree exactly (same point, same weights) */
    deform(s, 1, pos, nrm);
    uint32_t *first = malloc((np ? np : 1) * sizeof *first);
    for (uint32_t i = 0; i < np; i++)
        first[i] = UINT32_MAX;
    uint32_t moved = 0;
    for (uint32_t v = 0; v < s->vertex_count; v++) {
        uint32_t i = s->source_vertex[v];
        if (i >= np)
            continue;
        if (first[i] == UINT32_MAX)
            first[i] = v;
        CHECK(!memcmp(pos + (size_t)v * 3, pos + (size_t)first[i] * 3, 12));
        moved += fabsf(pos[v * 3 + 1] - pt[i][1]) > 1e-3f || fabsf(pos[v * 3] - pt[i][0]) > 1e-3f;
    }
    CHECK(moved > 0); /* the pose did bend the tube */
    free(first);
    free(pos);
    free(nrm);
    free(pt);
    vks_skin_free(s);
    test_odol();
    return vks_test_finish("test_p3d_points");
}
