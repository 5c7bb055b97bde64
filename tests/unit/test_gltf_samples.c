/* Every glTF sample in ../shared/datasets/gltf reads with the counts of its JSON, validates,
 * and passes the bind-pose check (deforming with the bind pose gives the stored vertices).
 *
 * Where the numbers come from: ../shared/datasets/README.md (gltf/: joints, vertices, indices,
 * animations and their channels) and the files' own JSON, read independently of this reader (a
 * short Python walk of accessors, skins and the node tree): vertices = the POSITION
 * accessor's count, triangles = the indices accessor's count / 3 (Fox has no indices: its
 * 1728 vertices / 3), bones = skins[0].joints, nodes = the joints and their ancestors, first
 * node names the preorder from the roots; normals = whether the primitive has NORMAL.
 *
 * Bind pose. SimpleSkin and Fox reproduce their vertices at bind. The three COLLADA2GLTF
 * exports (RiggedSimple, RiggedFigure, CesiumMan) do not: under the specification's rule (the
 * mesh node's transform ignored, K = W(joint) * IB) every bone's K at bind is the same matrix,
 * a quarter turn (their inverse binds leave out the Z_UP root's rotation), so the stored
 * vertices come out turned as a whole, as glTF viewers show them. The test requires exactly
 * that: K at bind agrees across bones to float precision (a wrong bone or matrix would not),
 * and the bind check passes them as placed by that K (vks_bind_check.placed).
 *
 * Clips: names, durations (the input accessors' declared max, which the reader does not
 * read: it takes the largest time it decodes), tracks = distinct target nodes, keys = the
 * largest input count. SimpleSkin deformed at t = 1 s against values worked out by hand.
 * Truncations at the .glb chunk boundaries and sampled positions, corrupted bytes; RiggedSimple's
 * external .bin served through the file callback cut short and with bytes overwritten. Where
 * Debian's assimp-testmodels is installed, its glTF2 files too (an older SimpleSkin whose
 * inverse binds shift the strip by -0.5 in x; a node cycle; Draco; unskinned meshes). */
#include <math.h>
#include <string.h>

#include "testutil.h"

typedef struct expect {
    const char *file;
    uint32_t nodes, vertices, triangles, bones;
    int normals;
    const char *first_node, *mesh;
    int bind_consistent;
    uint32_t clips, tracks[3], keys[3];
    const char *names[3];
    double duration[3];
    uint32_t channels[3];
} expect;

static const expect samples[] = {
    {"gltf/SimpleSkin/SimpleSkin.gltf", 2, 10, 8, 2, 0, "nodes[1]", "meshes[0]", 1, 1, {1}, {12}, {"0"}, {5.5}, {1}},
    {"gltf/RiggedSimple/RiggedSimple.gltf", 4, 160, 188, 2, 1, "Z_UP", "Cylinder", 0, 1, {1}, {50}, {"0"}, {2.083333015441895}, {3}},
    {"gltf/RiggedFigure/RiggedFigure.gltf", 21, 370, 256, 19, 1, "Z_UP", "Proxy", 0, 1, {19}, {2}, {"0"}, {1.25}, {57}},
    {"gltf/CesiumMan/CesiumMan.glb", 21, 3273, 4672, 19, 1, "Z_UP", "Cesium_Man", 0, 1, {19}, {48}, {"0"}, {2}, {57}},
    {"gltf/Fox/Fox.glb", 25, 1728, 576, 24, 0, "root", "fox1", 1, 3, {20, 20, 20}, {83, 18, 25}, {"Survey", "Walk", "Run"},
     {3.4166667461395264, 0.7083333134651184, 1.1583333015441895}, {21, 21, 21}},
};

static uint8_t *slurp(const char *path, size_t *n)
{
    uint8_t *b = vks_test_read_file(path, n);
    if (!b) {
        fprintf(stderr, "cannot read %s\n", path);
        CHECK(0);
    }
    return b;
}

static void check_clips(const expect *e, const char *path, const vks_skin *s)
{
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    if (!b)
        return;
    vks_read_options opt = {0};
    opt.gltf.path = path;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_result r = vks_gltf_clip_read(&opt, b, n, &set, &err);
    if (r != VKS_OK)
        fprintf(stderr, "%s: %s: %s\n", e->file, err.path, err.msg);
    CHECK(r == VKS_OK);
    if (r == VKS_OK) {
        CHECK_EQ_INT(set->clip_count, e->clips);
        for (uint32_t c = 0; c < set->clip_count && c < e->clips; c++) {
            const vks_clip *cl = &set->clips[c];
            CHECK(!strcmp(cl->name, e->names[c]));
            CHECK_NEAR(cl->duration, e->duration[c], 1e-7);
            CHECK_EQ_INT(cl->track_count, e->tracks[c]);
            uint32_t keys = 0, channels = 0;
            for (uint32_t t = 0; t < cl->track_count; t++) {
                channels += (cl->tracks[t].rotation.key_count > 0) + (cl->tracks[t].translation.key_count > 0) +
                            (cl->tracks[t].scale.key_count > 0);
                keys = cl->tracks[t].rotation.key_count > keys ? cl->tracks[t].rotation.key_count : keys;
                keys = cl->tracks[t].translation.key_count > keys ? cl->tracks[t].translation.key_count : keys;
                keys = cl->tracks[t].scale.key_count > keys ? cl->tracks[t].scale.key_count : keys;
            }
            CHECK_EQ_INT(keys, e->keys[c]);
            CHECK_EQ_INT(channels, e->channels[c]);
            vks_clip_binding bind = {0};
            CHECK(vks_clip_bind(cl, s, &bind, &err) == VKS_OK);
            CHECK_EQ_INT(bind.unmatched_tracks, 0); /* every track finds its node */
            vks_clip_binding_free(&bind);
        }
    }
    vks_clip_set_free(set);
    free(b);
}

/* SimpleSkin at t = 1 s: node 2 turned 90 degrees about z (key 2, (0, 0, 0.707, 0.707)) about
 * its origin (0, 1, 0); K0 = I, K1 = T(0,1,0) Rz90 T(0,-1,0). Vertex 8 (-0.5, 2, 0), all on
 * joint 1: (-0.5, 1) turned -> (-1, -0.5), + (0, 1) = (-1, 0.5, 0). Vertex 4 (-0.5, 1, 0),
 * half and half: 0.5 (-0.5, 1, 0) + 0.5 (0, 0.5, 0) = (-0.25, 0.75, 0). Vertex 2 (-0.5, 0.5),
 * 0.75 / 0.25: 0.75 (-0.5, 0.5) + 0.25 ((0.5, 1) turned = (-0.5, 0.5) + (0, 1) = (0.5, 0.5)...
 * worked per joint: K1 (-0.5, 0.5) = Rz90 (-0.5, -0.5) + (0, 1) = (0.5, -0.5) + (0, 1) =
 * (0.5, 0.5); so 0.75 (-0.5, 0.5) + 0.25 (0.5, 0.5) = (-0.25, 0.5, 0). */
static void simple_skin_by_hand(const char *path)
{
    vks_skin *s = NULL;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    if (!b || vks_read_file(NULL, path, &s, &err) != VKS_OK || vks_gltf_clip_read(NULL, b, n, &set, &err) != VKS_OK) {
        CHECK(0);
        free(b);
        vks_skin_free(s);
        return;
    }
    vks_clip_binding bind = {0};
    CHECK(vks_clip_bind(&set->clips[0], s, &bind, &err) == VKS_OK);
    vks_affine locals[2];
    vks_clip_sample_locals_d(&set->clips[0], &bind, s, 1.0, locals);
    float pos[10][3], nrm[10][3];
    vks_deform_job j = {s, locals, 1, &pos[0][0], &nrm[0][0], NULL};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    static const struct {
        uint32_t v;
        float x, y;
    } want[] = {{8, -1, 0.5f}, {4, -0.25f, 0.75f}, {2, -0.25f, 0.5f}, {0, -0.5f, 0}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        uint32_t v = 0;
        while (v < s->vertex_count && s->source_vertex[v] != want[i].v)
            v++;
        CHECK(v < s->vertex_count);
        if (v < s->vertex_count) {
            CHECK_NEAR(pos[v][0], want[i].x, 1e-6);
            CHECK_NEAR(pos[v][1], want[i].y, 1e-6);
            CHECK_NEAR(pos[v][2], 0, 1e-6);
        }
    }
    vks_clip_binding_free(&bind);
    vks_clip_set_free(set);
    vks_skin_free(s);
    free(b);
}

/* Prefixes at the .glb's chunk boundaries and 100 sampled lengths; 120 corrupted bytes at
 * sampled positions (the header and chunk headers always). A .gltf: every prefix up to 12 KiB,
 * else boundaries between its top-level members and samples. */
static void robustness(const char *path)
{
    size_t n = 0;
    uint8_t *b = slurp(path, &n);
    if (!b)
        return;
    vks_read_options opt = {0};
    opt.gltf.path = path;
    size_t cuts[8] = {0, 12, 20}, nc = 3;
    if (n >= 20 && !memcmp(b, "glTF", 4)) {
        size_t j = (size_t)b[12] | (size_t)b[13] << 8 | (size_t)b[14] << 16;
        cuts[nc++] = 20 + j, cuts[nc++] = 28 + j, cuts[nc++] = n - 1;
    }
    int bad = vks_test_truncations(vks_gltf_read, &opt, b, n, 12 * 1024, cuts, nc, 100);
    size_t pos[120];
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (size_t i = 0; i < 120; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        pos[i] = i < nc ? cuts[i] : (size_t)(x % n);
    }
    bad += vks_test_corruptions(vks_gltf_read, &opt, b, n, pos, 120, 4);
    if (bad)
        fprintf(stderr, "%s: %d prefixes or corruptions not refused cleanly\n", path, bad);
    CHECK_EQ_INT(bad, 0);
    free(b);
}

/* A .gltf's external .bin served through the file callback cut short or with bytes overwritten:
 * the read fails naming the buffer, or gives a model that validates. */
typedef struct bin_server {
    const uint8_t *bytes;
    size_t size;      /* served length */
    size_t at, width; /* overwritten with 0xFF (width 0: none) */
} bin_server;

static vks_result serve_bin(void *user, const char *path, uint64_t max_size, void **bytes, size_t *size,
                            vks_error *err)
{
    bin_server *b = user;
    (void)max_size;
    if (!strstr(path, ".bin"))
        return vks_file_read_default(NULL, path, max_size, bytes, size, err);
    uint8_t *copy = malloc(b->size ? b->size : 1); /* exact size: ASan sees any over-read */
    memcpy(copy, b->bytes, b->size);
    for (size_t k = 0; k < b->width && b->at + k < b->size; k++)
        copy[b->at + k] = 0xFF;
    *bytes = copy;
    *size = b->size;
    return VKS_OK;
}

static void release_bin(void *user, void *bytes)
{
    (void)user;
    free(bytes);
}

static void external_buffer(const char *gltf_path, const char *bin_path)
{
    size_t n = 0, m = 0;
    uint8_t *text = slurp(gltf_path, &n), *bin = slurp(bin_path, &m);
    if (!text || !bin) {
        free(text), free(bin);
        return;
    }
    bin_server sv = {bin, m, 0, 0};
    vks_read_options opt = {0};
    opt.file.read = serve_bin;
    opt.file.release = release_bin;
    opt.file.user = &sv;
    opt.gltf.path = gltf_path;
    int bad = 0, refused = 0, read = 0;
    for (size_t cut = 0; cut < m; cut += cut < 256 ? 1 : 61) {
        sv.size = cut;
        vks_skin *s = NULL;
        vks_error err = {0};
        if (vks_gltf_read(&opt, text, n, &s, &err) == VKS_OK || s || strcmp(err.path, "buffers[0]"))
            bad++;
        vks_skin_free(s);
    }
    sv.size = m;
    sv.width = 4;
    for (size_t at = 0; at < m; at += 37) {
        sv.at = at;
        vks_skin *s = NULL;
        vks_error err = {0}, e2 = {0};
        if (vks_gltf_read(&opt, text, n, &s, &err) == VKS_OK) {
            read++;
            bad += vks_skin_validate(s, &e2) != VKS_OK;
        } else {
            refused++;
            bad += !err.msg[0] || s != NULL;
        }
        vks_skin_free(s);
    }
    printf("%s: .bin cut short at every length to 256, then every 61 bytes: refused; %d corrupted copies refused, "
           "%d read and valid\n", bin_path, refused, read);
    CHECK_EQ_INT(bad, 0);
    free(text), free(bin);
}

/* assimp-testmodels' glTF2 files, where installed. */
static void assimp_models(void)
{
    static const char *dir = "/usr/share/assimp/models/glTF2";
    char path[256];
    snprintf(path, sizeof path, "%s/simple_skin/simple_skin.gltf", dir);
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("assimp-testmodels not installed (%s): its files not read\n", dir);
        return;
    }
    fclose(f);
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK(vks_read_file(NULL, path, &s, &err) == VKS_OK);
    if (s) {
        /* joints under the mesh node: it joins the skeleton as their ancestor */
        CHECK_EQ_INT(s->node_count, 3);
        CHECK_EQ_INT(s->vertex_count, 10);
        vks_bind_check bc;
        CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
        /* both inverse binds carry x -0.5: one placement above the skeleton, which the bind
           check names (placed) and measures the vertices against */
        CHECK(bc.pass && bc.placed);
        CHECK_NEAR(fabs(bc.placement.m[9]), 0.5, 1e-6);
        CHECK(bc.max_error < 1e-6);
        vks_skin_free(s);
    }
    static const struct {
        const char *file, *path, *msg;
    } bad[] = {
        {"RecursiveNodes/RecursiveNodes.gltf", "nodes[0]", "cycle"},
        /* an unskinned mesh is a rigid part, read as the skinned ones are: its infinities refused
           (2CylinderEngine's Draco meshes, unskinned too, now read: test_gltf_compressed's cases) */
        {"BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", "meshes[0].primitives[0].attributes.POSITION", "not finite"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, bad[i].file);
        s = NULL;
        memset(&err, 0, sizeof err);
        vks_result r = vks_read_file(NULL, path, &s, &err);
        int ok = r != VKS_OK && !s && !strcmp(err.path, bad[i].path) && strstr(err.msg, bad[i].msg);
        if (!ok)
            fprintf(stderr, "%s: got %s [%s] %s\n", bad[i].file, vks_result_str(r), err.path, err.msg);
        CHECK(ok);
        vks_skin_free(s);
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        const expect *e = &samples[i];
        const char *path = vks_test_dataset(e->file);
        vks_skin *s = NULL;
        vks_error err = {0};
        vks_result r = vks_read_file(NULL, path, &s, &err);
        if (r != VKS_OK) {
            char buf[512];
            fprintf(stderr, "%s\n", vks_error_format(&err, path, buf, sizeof buf));
            CHECK(0);
            continue;
        }
        CHECK(vks_skin_validate(s, &err) == VKS_OK);
        CHECK(!strcmp(s->format, "gltf"));
        CHECK_EQ_INT(s->node_count, e->nodes);
        CHECK_EQ_INT(s->mesh_count, 1);
        CHECK_EQ_INT(s->meshes[0].source_vertex_count, e->vertices);
        CHECK_EQ_INT(s->triangle_count, e->triangles);
        CHECK_EQ_INT(s->bone_count, e->bones);
        CHECK_EQ_INT(!!(s->meshes[0].flags & VKS_MESH_HAS_NORMALS), e->normals);
        CHECK(!strcmp(s->nodes[0].name, e->first_node));
        CHECK(!strcmp(s->meshes[0].name, e->mesh));
        CHECK_EQ_INT(s->meshes[0].space_node, -1);
        vks_bind_check bc;
        CHECK(vks_cpu_bind_check(s, &bc, &err) == VKS_OK);
        printf("%s: %s, %u nodes, %u vertices, bind check max error %.3g (%s)\n", e->file, s->format_detail,
               s->node_count, s->vertex_count, bc.max_error, bc.pass ? "pass" : "FAIL");
        /* K = W * IB at bind: identity for a consistent file; for the COLLADA2GLTF samples one
           common matrix for every bone (their inverse binds leave out the Z_UP root's turn) */
        vks_affine *locals = calloc(s->node_count, sizeof *locals);
        vks_affine_d *world = calloc(s->node_count, sizeof *world), *K = calloc(s->bone_count, sizeof *K);
        for (uint32_t n = 0; n < s->node_count; n++)
            locals[n] = s->nodes[n].bind_local;
        vks_cpu_world_d(s, locals, world);
        vks_cpu_skin_matrices_d(s, world, K);
        double spread = 0, off_identity = 0;
        vks_affine_d I = vks_affine_d_identity();
        for (uint32_t b = 0; b < s->bone_count; b++)
            for (int k = 0; k < 12; k++) {
                spread = fmax(spread, fabs(K[b].m[k] - K[0].m[k]));
                off_identity = fmax(off_identity, fabs(K[b].m[k] - I.m[k]));
            }
        printf("  K at bind: spread over bones %.3g, off identity %.3g; K[0] x axis %.4f %.4f %.4f\n", spread,
               off_identity, K[0].m[0], K[0].m[1], K[0].m[2]);
        /* the bind check passes both kinds, and says which are placed: by K[0] itself */
        CHECK(bc.pass);
        CHECK_EQ_INT(bc.placed, !e->bind_consistent);
        for (int k = 0; bc.placed && k < 12; k++)
            CHECK(fabs(bc.placement.m[k] - K[0].m[k]) < 1e-5);
        free(locals), free(world), free(K);
        CHECK(spread < 1e-5);
        if (e->bind_consistent)
            CHECK(off_identity < 1e-4);
        check_clips(e, path, s);
        robustness(path);
        vks_skin_free(s);
    }
    simple_skin_by_hand(vks_test_dataset("gltf/SimpleSkin/SimpleSkin.gltf"));
    char gltf[512];
    snprintf(gltf, sizeof gltf, "%s", vks_test_dataset("gltf/RiggedSimple/RiggedSimple.gltf"));
    external_buffer(gltf, vks_test_dataset("gltf/RiggedSimple/RiggedSimple0.bin"));
    assimp_models();
    return vks_test_finish("test_gltf_samples");
}
