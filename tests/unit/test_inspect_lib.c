/* vkskin inspect as a library call (inspect.h): a model's counts against datasets/MANIFEST.md,
 * a clip file's tracks bound to its model, several reports as one JSON array, the verdict's
 * words, and a cut file refused with the offset where it ends. The text and JSON themselves
 * are the CLI's (same bytes as before the move: tools' cli tests and python/tests compare). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vkskin.h"

static char *source(const char *relative) { return strdup(vks_test_source_path(relative)); }

static void model_and_clip(void)
{
    char *dff = source("datasets/char_b24_pl8.dff"), *anm = source("datasets/char_b24_pl8.dff.walk.anm");
    vks_inspect *model = NULL, *clip = NULL, *bare = NULL;
    vks_error err = {0};
    CHECK(vks_inspect_file(dff, NULL, &model, &err) == VKS_OK);
    if (!model)
        return;
    const vks_skin *s = vks_inspect_skin(model);
    /* the manifest's char_b24_pl8.dff: 24 bones, 1562 vertices in the model, 2904 triangles */
    CHECK(s && s->bone_count == 24 && s->vertex_count == 1562 && s->triangle_count == 2904);
    CHECK(vks_inspect_bind_check(model) && vks_inspect_bind_check(model)->pass);
    CHECK(!vks_inspect_clips(model) && vks_inspect_exit_code(model) == 0);
    vks_inspect_options io = {.model = s, .model_name = "char.dff"};
    CHECK(vks_inspect_file(anm, &io, &clip, &err) == VKS_OK);
    CHECK(vks_inspect_file(anm, NULL, &bare, &err) == VKS_OK);
    const vks_clip_set *set = vks_inspect_clips(clip);
    /* a RenderWare .anm keys every bone of its model */
    CHECK(set && set->clip_count == 1 && set->clips[0].track_count == 24 && !vks_inspect_skin(clip));
    const vks_inspect *both[] = {model, clip};
    char *one = vks_inspect_json(both, 1, 0), *two = vks_inspect_json(both, 2, 0);
    char *unbound = vks_inspect_json((const vks_inspect *const[]){bare}, 1, 0);
    CHECK(one && one[0] == '{' && strstr(one, "\"bones\":\t24"));
    CHECK(two && two[0] == '[' && strstr(two, "\"bound_tracks\":\t24") && strstr(two, "\"model\":\t\"char.dff\""));
    CHECK(unbound && !strstr(unbound, "\"binding\""));
    free(one), free(two), free(unbound);
    vks_inspect_free(bare);
    vks_inspect_free(clip);
    vks_inspect_free(model);
    free(dff), free(anm);
}

static void verdict_words(void)
{
    vks_bind_check bc = {0};
    CHECK(!strcmp(vks_bind_status(&bc, 1, 0), "FAILED"));
    CHECK(!strcmp(vks_bind_status(&bc, 1, 1), "FAILED (allowed by --allow-bind-mismatch)"));
    CHECK(!strncmp(vks_bind_status(&bc, 0, 0), "differs", 7));
    bc.pass = 1;
    CHECK(!strcmp(vks_bind_status(&bc, 1, 0), "passed"));
}

static void cut_file(void)
{
    char *dff = source("datasets/char_b24_pl8.dff");
    size_t size = 0;
    uint8_t *bytes = vks_test_read_file(dff, &size);
    CHECK(bytes && size > 300);
    vks_inspect *in = NULL;
    vks_error err = {0};
    CHECK(vks_inspect_bytes(dff, bytes, 300, NULL, &in, &err) != VKS_OK && !in);
    CHECK(err.offset != VKS_NO_OFFSET && err.msg[0]);
    free(bytes);
    free(dff);
}

int main(void)
{
    model_and_clip();
    verdict_words();
    cut_file();
    return vks_test_finish("test_inspect_lib");
}
