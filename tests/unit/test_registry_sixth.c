/* A sixth format reaches everything that lists or detects formats (issue 39): this program is
 * built with registry.c compiled again under VKSKIN_TEST_FORMAT, which lists the test-only
 * record of tests/formats/vkstest, and nothing else of the library, the CLI's format lists or
 * the generator changed. Detection, vks_read_any (and its error's list of formats),
 * vks_format_find, the axes the glTF writer and the VAT sidecar use, the CLI's clip list and
 * the generator's formats must all show it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "character_files.h"
#include "vkskin/clip_formats.h"
#include "testutil.h"
#include "vkskin/gltf.h"
#include "vkskin/vat_write.h"

static const char file[] = "VKSTEST 1\nanything\n";

static void test_registry(void)
{
    CHECK_EQ_INT(vks_format_count(), 6);
    const vks_format_info *i = vks_format_at(5);
    CHECK(i && !strcmp(i->name, "vkstest"));
    CHECK(vks_format_find("vkstest") == i && vks_format_find(".vkstest") == i && vks_format_find("VKSTEST") == i);
    CHECK(vks_format_find("renderware") == vks_format_at(0)); /* the five keep their places */
}

static void test_detect_and_read(void)
{
    const char *name = NULL;
    vks_reader_fn fn = vks_detect_format(file, sizeof file - 1, "model.bin", &name);
    CHECK(fn != NULL && name && !strcmp(name, "vkstest"));
    vks_skin *s = NULL;
    vks_error err = {0};
    CHECK_EQ_INT(vks_read_any(NULL, file, sizeof file - 1, "model.bin", &s, &err), VKS_OK);
    CHECK(s && s->vertex_count == 3 && s->node_count == 2 && !strcmp(s->format, "vkstest"));
    if (s) { /* Z up, from the record: the glTF correction turns y into -z, the sidecar says +z */
        vks_affine c = vks_gltf_correction(s);
        CHECK(c.m[5] == -1.0f && c.m[7] == 1.0f && c.m[8] == 0.0f);
        const char *up = NULL, *hand = NULL;
        vks_vat_space(s, &up, &hand);
        CHECK(up && !strcmp(up, "+z") && hand && !strcmp(hand, "right"));
    }
    vks_skin_free(s);
    s = NULL;
    CHECK_EQ_INT(vks_read_any(NULL, "nothing", 7, "x.bin", &s, &err), VKS_ERR_FORMAT);
    CHECK(strstr(err.msg, "Bohemia, glTF 2.0 or vkskin test file") != NULL);
}

static void test_cli_lists(void)
{
    char list[512];
    vks_clip_format_list(list, sizeof list);
    CHECK(strstr(list, "RenderWare .anm .ska .ifp") != NULL);
    CHECK(strstr(list, "vkstest") == NULL); /* it has no clips */
}

static void test_generator(void)
{
    CHECK_EQ_INT(vks_gen_format_count(), 5);
    const vks_gen_format *g = vks_gen_format_find("vkstest");
    CHECK(g && g->frame == VKS_GEN_FRAME_Z_UP && !strcmp(g->extension, "vkstest"));
    CHECK(!strcmp(vks_gen_format_names(", "), "dff, nif, cmdl, p3d, vkstest"));
}

int main(void)
{
    test_registry();
    test_detect_and_read();
    test_cli_lists();
    test_generator();
    return vks_test_finish("test_registry_sixth");
}
