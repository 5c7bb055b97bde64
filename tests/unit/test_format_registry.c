/* The format registry (issue 23): one record per format, which detection, vks_read_file and
 * vks_read_clips all go through. Every extension a record lists is detected as that record's
 * format; the probes pick the same readers by content; vks_read_clips reads a clip file
 * through the file callbacks (counted) and gives what the clip reader gives on its bytes. */
#include <string.h>

#include "testutil.h"
#include "vkskin.h"

static void test_records(void)
{
    CHECK_EQ_INT(vks_format_count(), 5);
    static const char *const names[] = {"renderware", "nif", "nw4c", "p3d", "gltf"};
    for (uint32_t i = 0; i < vks_format_count(); i++) {
        const vks_format_info *f = vks_format_at(i);
        CHECK(f && !strcmp(f->name, names[i]) && f->title && f->read && f->model_extensions[0]);
        for (const char *const *e = f->model_extensions; *e; e++) {
            char name[32];
            snprintf(name, sizeof name, "x%s", *e);
            const char *got = NULL;
            CHECK(vks_detect_format(NULL, 0, name, &got) == f->read);
            CHECK(got && !strcmp(got, f->name));
            CHECK(vks_format_find(*e) == f && vks_format_find(*e + 1) == f);
        }
        for (const char *const *e = f->clip_extensions; e && *e; e++) {
            char name[32];
            snprintf(name, sizeof name, "X%s", *e); /* case ignored */
            CHECK(vks_detect_clip_format(NULL, 0, name, NULL) != NULL);
        }
        CHECK(vks_format_find(f->name) == f);
    }
    CHECK(vks_format_at(vks_format_count()) == NULL);
    CHECK(vks_format_find("psk") == NULL && vks_format_find(NULL) == NULL);
    CHECK(vks_format_find("dff")->write == vks_rw_write);
    CHECK(vks_format_find("p3d")->side_file && !strcmp(vks_format_find("p3d")->side_file, "model.cfg"));
}

static void test_probes(void)
{
    const char *f = NULL;
    /* by content, whatever the name says */
    CHECK(vks_detect_format("Gamebryo File Format, Version 20", 32, "a.dff", &f) == vks_nif_read && !strcmp(f, "nif"));
    CHECK(vks_detect_clip_format("BMTR\4\0\0\0", 8, "a.anm", &f) == vks_rtm_read && !strcmp(f, "rtm"));
    CHECK(vks_detect_clip_format("ANP3....", 8, NULL, &f) == vks_ifp_read && !strcmp(f, "ifp"));
    /* a magic number outranks text inside the bytes */
    static const char glb_with_text[] = "glTF NintendoWareIntermediateFile <SkeletalAnimationData";
    CHECK(vks_detect_format(glb_with_text, sizeof glb_with_text, NULL, &f) == vks_gltf_read);
    CHECK(vks_detect_clip_format(glb_with_text, sizeof glb_with_text, NULL, &f) == vks_gltf_clip_read);
    /* legacy .ska: by name only */
    CHECK(vks_detect_clip_format("\1\0\0\0", 4, "walk.ska", &f) == vks_rw_ska_read && !strcmp(f, "renderware-ska"));
    CHECK(vks_detect_clip_format("\1\0\0\0", 4, "walk.bin", &f) == NULL && f == NULL);
}

typedef struct counter {
    int reads, releases;
} counter;

static vks_result counted_read(void *user, const char *path, uint64_t max_size, void **bytes, size_t *size,
                               vks_error *err)
{
    ((counter *)user)->reads++;
    return vks_file_read_default(NULL, path, max_size, bytes, size, err);
}

static void counted_release(void *user, void *bytes)
{
    ((counter *)user)->releases++;
    vks_file_release_default(NULL, bytes);
}

static void test_read_clips(void)
{
    const char *path = vks_test_source_path("datasets/char_b24_pl8.dff.walk.anm");
    size_t n = 0;
    uint8_t *b = vks_test_read_file(path, &n);
    CHECK(b != NULL);
    vks_clip_set *direct = NULL, *by_path = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_rw_anm_read(NULL, b, n, &direct, &err), VKS_OK);
    counter c = {0};
    vks_read_options opt = {0};
    opt.file.read = counted_read, opt.file.release = counted_release, opt.file.user = &c;
    CHECK_EQ_INT(vks_read_clips(&opt, path, &by_path, &err), VKS_OK);
    CHECK_EQ_INT(c.reads, 1);
    CHECK_EQ_INT(c.releases, 1);
    if (direct && by_path) {
        CHECK(!strcmp(by_path->format, direct->format) && !strcmp(by_path->format, "renderware-anm"));
        CHECK_EQ_INT(by_path->clip_count, direct->clip_count);
        CHECK_EQ_INT(by_path->clips[0].track_count, direct->clips[0].track_count);
    }
    vks_clip_set_free(direct);
    vks_clip_set_free(by_path);
    free(b);

    /* a file that is no clip: VKS_ERR_FORMAT, and the bytes released */
    vks_clip_set *none = NULL;
    vks_error e2 = {0};
    c.reads = c.releases = 0;
    CHECK_EQ_INT(vks_read_clips(&opt, vks_test_source_path("datasets/MANIFEST.md"), &none, &e2), VKS_ERR_FORMAT);
    CHECK(none == NULL && c.reads == 1 && c.releases == 1);
    /* a missing file: the cause, under "file" */
    vks_error e3 = {0};
    CHECK(vks_read_clips(NULL, "no/such/clip.anm", &none, &e3) != VKS_OK);
    CHECK(!strcmp(e3.path, "file"));
    CHECK_EQ_INT(vks_read_clips(NULL, NULL, &none, &e3), VKS_ERR_INVALID);
}

int main(void)
{
    test_records();
    test_probes();
    test_read_clips();
    return vks_test_finish("test_format_registry");
}
