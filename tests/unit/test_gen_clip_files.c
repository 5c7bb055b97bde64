/* Every clip file the generator writes plays on the model beside it as the clip plays on the
 * generated skin: for each format, the file is read by its reader, bound to the model as read
 * back, posed at the clip's key times and deformed by the CPU reference; each vertex must land
 * where the authored clip puts the same vertex of the generated skin (matched by bind
 * position; a .cmdl, whose vertices read back in NW4C's own layout, by each bone's world
 * transform). Float formats agree to float precision; lossy keys (compressed .anm: half floats;
 * BMTR: int16 quaternions) and P3D's byte weights within their quantisation. A clip bound to the wrong nodes, a wrong space, a conjugated
 * quaternion or a frame off by one moves vertices by centimetres. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "character.h"
#include "character_cli.h"
#include "character_clips.h"
#include "testutil.h"

static char dir[] = "/tmp/vks_gen_clip_files_XXXXXX";

typedef struct posed {
    float *pos;
    uint32_t n;
} posed;

static posed deform(const vks_skin *s, const vks_clip *clip, double t)
{
    vks_error err = {0};
    vks_clip_binding b;
    posed p = {calloc((size_t)s->vertex_count * 3 + 3, sizeof(float)), s->vertex_count};
    float *nrm = calloc((size_t)s->vertex_count * 3 + 3, sizeof(float));
    vks_affine *l = calloc(s->node_count, sizeof *l);
    CHECK(vks_clip_bind(clip, s, &b, &err) == VKS_OK);
    vks_clip_sample_locals_d(clip, &b, s, vks_clip_local_time(clip, VKS_CYCLE_CLAMP, t), l);
    vks_deform_job j = {s, l, 1, p.pos, nrm, NULL};
    CHECK(vks_cpu_reference_run(&j, &err) == VKS_OK);
    vks_clip_binding_free(&b);
    free(l), free(nrm);
    return p;
}

/* Largest distance between a read-back vertex and the authored vertex with its bind position. */
static double compare(const vks_skin *ga, const posed *a, const vks_skin *gb, const posed *b)
{
    double worst = 0;
    uint32_t unmatched = 0;
    for (uint32_t v = 0; v < gb->vertex_count; v++) {
        uint32_t found = UINT32_MAX;
        for (uint32_t u = 0; u < ga->vertex_count && found == UINT32_MAX; u++)
            if (fabsf(ga->positions[u][0] - gb->positions[v][0]) < 1e-6f &&
                fabsf(ga->positions[u][1] - gb->positions[v][1]) < 1e-6f &&
                fabsf(ga->positions[u][2] - gb->positions[v][2]) < 1e-6f)
                found = u;
        if (found == UINT32_MAX) {
            unmatched++;
            continue;
        }
        for (int k = 0; k < 3; k++)
            worst = fmax(worst, fabs((double)a->pos[3 * found + k] - b->pos[3 * v + k]));
    }
    CHECK_EQ_INT(unmatched, 0);
    return worst;
}

static vks_clip_set *read_clips(const char *path, const vks_skin *model, float duration)
{
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(path, &size);
    CHECK(bytes != NULL);
    vks_read_options opt = {0};
    opt.clip.duration = duration;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    vks_clip_reader_fn r = bytes ? vks_detect_clip_format(bytes, size, path, NULL) : NULL;
    vks_result res = !bytes ? VKS_ERR_IO
                     : r    ? r(&opt, bytes, size, &set, &err)
                            : vks_pose_json_clip_read(model, &opt, bytes, size, &set, &err);
    if (res != VKS_OK)
        fprintf(stderr, "%s: %s: %s\n", path, err.path, err.msg);
    CHECK(res == VKS_OK);
    free(bytes);
    return set;
}

/* The file's clip `which` against the authored clip at times every step seconds. */
static void check_file(const vks_skin *gen, const vks_skin *model, const vks_clip *authored, const char *file,
                       int which, double step, double tol)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    vks_clip_set *set = read_clips(path, model, authored->duration);
    if (!set)
        return;
    CHECK((uint32_t)which < set->clip_count);
    const vks_clip *c = &set->clips[which];
    double worst = 0;
    for (int k = 0; k * step <= authored->duration + 1e-9; k++) {
        double t = k * step;
        posed a = deform(gen, authored, t), b = deform(model, c, t);
        worst = fmax(worst, compare(gen, &a, model, &b));
        free(a.pos), free(b.pos);
    }
    fprintf(stderr, "  %-26s clip %d \"%s\": worst vertex %.3g m (tolerance %.0e)\n", file, which, authored->name,
            worst, tol);
    CHECK(worst <= tol);
    vks_clip_set_free(set);
}

/* The file's first clip against the authored clip by the world transform of each bone of
   the model (by name: the generated skin's node of that name), every step seconds: the
   largest difference of any entry (the axes and the origin, in metres). */
static void check_worlds(const vks_skin *gen, const vks_skin *model, const vks_clip *authored, const char *file,
                         double step, double tol)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    vks_clip_set *set = read_clips(path, model, authored->duration);
    if (!set)
        return;
    const vks_clip *c = &set->clips[0];
    vks_clip_binding ba, bb;
    vks_error err = {0};
    CHECK(vks_clip_bind(authored, gen, &ba, &err) == VKS_OK && vks_clip_bind(c, model, &bb, &err) == VKS_OK);
    CHECK_EQ_INT(bb.bound_tracks, c->track_count);
    vks_affine *la = calloc(gen->node_count, sizeof *la), *lb = calloc(model->node_count, sizeof *lb);
    vks_affine_d *wa = calloc(gen->node_count, sizeof *wa), *wb = calloc(model->node_count, sizeof *wb);
    double worst = 0;
    uint32_t matched = 0;
    for (int k = 0; k * step <= authored->duration + 1e-9; k++) {
        double t = vks_clip_local_time(authored, VKS_CYCLE_CLAMP, k * step);
        vks_clip_sample_locals_d(authored, &ba, gen, t, la);
        vks_clip_sample_locals_d(c, &bb, model, t, lb);
        vks_cpu_world_d(gen, la, wa);
        vks_cpu_world_d(model, lb, wb);
        for (uint32_t n = 0; n < model->node_count; n++) {
            int32_t g = vks_skin_find_node(gen, model->nodes[n].name);
            if (g < 0)
                continue;
            matched += k == 0;
            for (int m = 0; m < 12; m++)
                worst = fmax(worst, fabs(wa[g].m[m] - wb[n].m[m]));
        }
    }
    CHECK_EQ_INT(matched, gen->node_count);
    fprintf(stderr, "  %-26s clip 0 \"%s\": worst bone world entry %.3g (tolerance %.0e)\n", file, authored->name,
            worst, tol);
    CHECK(worst <= tol);
    free(la), free(lb), free(wa), free(wb);
    vks_clip_binding_free(&ba);
    vks_clip_binding_free(&bb);
    vks_clip_set_free(set);
}

static vks_skin *read_model(const char *file, const char *cfg)
{
    char path[256], cpath[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    vks_read_options opt = {0};
    if (cfg) {
        snprintf(cpath, sizeof cpath, "%s/%s", dir, cfg);
        opt.p3d.model_cfg_name = cpath;
    }
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK(vks_read_file(&opt, path, &s, &err) == VKS_OK);
    return s;
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    vks_gen_params p = {0};
    p.vertices = 1200;
    vks_error err = {0};
    vks_skin *gen = vks_gen_character(&p, &err);
    vks_clip_set *set = NULL;
    CHECK(gen && vks_gen_clips(gen, &set, &err) == VKS_OK);
    if (!set)
        return vks_test_finish("test_gen_clip_files");
    const vks_clip *walk = &set->clips[0], *wave = &set->clips[1];
    const char *formats[] = {"dff", "p3d", "nif", "cmdl"};
    for (int f = 0; f < 4; f++) {
        const vks_gen_format *fmt = vks_gen_format_find(formats[f]);
        char name[64], path[256];
        snprintf(name, sizeof name, "c.%s", formats[f]);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        uint8_t *bytes = NULL;
        size_t size = 0;
        vks_write_options wo = {0};
        vks_gen_params pf = p;
        pf.palette_limit = fmt->dataset_palette_limit; /* NW4C: 20 */
        vks_skin *model = vks_gen_character(&pf, &err);
        CHECK(model && fmt->write(model, &wo, &bytes, &size, &err) == VKS_OK);
        CHECK(vks_gen_write_file(path, bytes, size, &err) == VKS_OK);
        if (!strcmp(formats[f], "p3d")) {
            uint8_t *cfg = NULL;
            size_t cs = 0;
            char cp[256];
            snprintf(cp, sizeof cp, "%s/c.model.cfg", dir);
            CHECK(vks_p3d_write_model_cfg(gen, "c", &cfg, &cs, &err) == VKS_OK);
            CHECK(vks_gen_write_file(cp, cfg, cs, &err) == VKS_OK);
            free(cfg);
        }
        vks_result r = vks_gen_write_clip_files(path, fmt, model, bytes, size, "c", 30.0f, NULL, &err);
        if (r != VKS_OK)
            fprintf(stderr, "%s: %s: %s\n", name, err.path, err.msg);
        CHECK(r == VKS_OK);
        vks_skin_free(model);
        free(bytes);
    }
    fprintf(stderr, "clip files against the authored clips:\n");
    vks_skin *dff = read_model("c.dff", NULL), *p3d = read_model("c.p3d", "c.model.cfg");
    vks_skin *nif = read_model("c.nif", NULL), *cmdl = read_model("c.cmdl", NULL);
    if (dff) {
        check_file(gen, dff, walk, "c.dff.walk.anm", 0, 1.0 / 8, 1e-5);
        check_file(gen, dff, wave, "c.dff.wave.anm", 0, 1.0 / 8, 2e-3); /* half-float keys */
        check_file(gen, dff, walk, "c.dff.walk.ska", 0, 1.0 / 8, 1e-5);
        check_file(gen, dff, walk, "c.dff.ifp", 0, 1.0 / 8, 1e-5);
        check_file(gen, dff, wave, "c.dff.ifp", 1, 1.0 / 8, 1e-5);
    }
    if (p3d) {
        /* P3D stores weights as bytes (up to 0.006 off the generator's), which alone moves a
           vertex up to 0.9 mm here; the matrices themselves agree to 1e-7 (test_rtm) */
        check_file(gen, p3d, walk, "c.p3d.walk.rtm", 0, 1.0 / 30, 2e-3);
        check_file(gen, p3d, wave, "c.p3d.wave.rtm", 0, 1.0 / 30, 2.5e-3); /* + int16 quaternions, half floats */
    }
    if (nif) {
        check_file(gen, nif, walk, "c.nif.walk.kf", 0, 1.0 / 30, 1e-5);
        check_file(gen, nif, wave, "c.nif.wave.kf", 0, 1.0 / 30, 1e-5);
    }
    /* .cmdl: its model reads back with NW4C's own vertex layout (no bind position to match
       vertices by), so the .cskla clips are checked by every bone's world transform */
    CHECK(cmdl != NULL);
    if (cmdl) {
        check_worlds(gen, cmdl, walk, "c.cmdl.walk.cskla", 1.0 / 97, 1e-5); /* between frames too */
        check_worlds(gen, cmdl, wave, "c.cmdl.wave.cskla", 1.0 / 97, 1e-5);
    }
    vks_skin_free(dff), vks_skin_free(p3d), vks_skin_free(nif), vks_skin_free(cmdl);
    vks_clip_set_free(set);
    vks_skin_free(gen);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return vks_test_finish("test_gen_clip_files");
}
