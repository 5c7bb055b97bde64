/* Errors in a P3D's model.cfg are about the config, not the model (issue 9, point 8): they
 * name the config's file (vks_read_options.p3d.model_cfg_name, "model.cfg" by default) and
 * its line, with a path of classes inside it and no byte offset (an offset would be printed
 * as one into the .p3d). vks_error_format's output for every other error stays as it was. */
#include <string.h>

#include "character.h"
#include "formats/p3d/p3d_internal.h"
#include "testutil.h"

static void check_str(const char *got, const char *want)
{
    if (strcmp(got, want))
        fprintf(stderr, "  got  '%s'\n  want '%s'\n", got, want);
    CHECK(!strcmp(got, want));
}

/* Each malformed config fails at the line and class path of its fault. */
static void test_lines(void)
{
    static const struct {
        const char *text;
        unsigned line;
        const char *path, *words;
    } bad[] = {
        {"class CfgSkeletons\n{\n\tclass Default\n\t{ {\n\t};\n};\n", 4, "CfgSkeletons/Default", "entry name expected"},
        {"class A\n{\n  value\n};\n", 3, "A/value", "'=' expected after an entry name"},
        {"class A {\n x = \"open;\n};\n", 2, "A/x", "string not closed on its line"},
        {"class A {\n\n x = 1 }; };\n", 3, "A/x", "';' expected after a value"},
        {"class CfgSkeletons {\n class S {\n  skeletonBones[] = {\"a\", \"\"\n", 4, "CfgSkeletons/S/skeletonBones",
         "array not closed"},
        {"// top\n}\n", 2, "", "'}' without a class"},
        {"class CfgModels {\n class m {\n\n  skeletonName = \"T\";\n };\n};\n", 4, "CfgModels/m",
         "not a class of CfgSkeletons"},
        {"class CfgSkeletons {\n class S {\n  skeletonInherit = \"T\";\n };\n};\n"
         "class CfgModels { class m { skeletonName = \"S\"; }; };\n",
         3, "CfgSkeletons/S", "skeletonInherit 'T'"},
        {"class CfgSkeletons {\n class S {\n  skeletonBones[] = {\"a\", \"zz\"};\n };\n};\n"
         "class CfgModels { class m { skeletonName = \"S\"; }; };\n",
         2, "CfgSkeletons/S", "not a bone of the skeleton"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        p3d_pool pool = {0};
        p3d_skeleton skel;
        int found;
        vks_error err = {0};
        vks_result r = p3d_cfg_skeleton(&pool, bad[i].text, strlen(bad[i].text), "hero.model.cfg", "m", &skel, NULL,
                                        &found, &err);
        if (r == VKS_OK || err.line != bad[i].line || strcmp(err.path, bad[i].path) || !strstr(err.msg, bad[i].words))
            fprintf(stderr, "case %zu: %d, line %u, '%s: %s'\n", i, r, err.line, err.path, err.msg);
        CHECK(r != VKS_OK);
        CHECK(!strcmp(err.file, "hero.model.cfg"));
        CHECK_EQ_INT(err.line, bad[i].line);
        CHECK(!strcmp(err.path, bad[i].path));
        CHECK(strstr(err.msg, bad[i].words) != NULL);
        CHECK(err.offset == VKS_NO_OFFSET);
        p3d_pool_free(&pool);
    }
}

/* Through the reader: the message names the config given by the options, not the model. */
static void test_read(void)
{
    vks_gen_params gp = {0};
    gp.vertices = 300;
    vks_error err = {0};
    vks_skin *c = vks_gen_character(&gp, &err);
    CHECK(c != NULL);
    if (!c)
        return;
    uint8_t *p3d = NULL;
    size_t n = 0;
    CHECK_EQ_INT(vks_p3d_write(c, NULL, &p3d, &n, &err), VKS_OK);
    vks_skin_free(c);
    static const char cfg[] = "class CfgSkeletons\n{\n\tclass Default\n\t{ {\n\t};\n};\n";
    vks_read_options o = {0};
    o.p3d.model_cfg = cfg;
    o.p3d.model_cfg_size = sizeof cfg - 1;
    o.p3d.model_cfg_name = "tube.model.cfg";
    vks_skin *s = NULL;
    char line[512];
    CHECK_EQ_INT(vks_p3d_read(&o, p3d, n, &s, &err), VKS_ERR_FORMAT);
    check_str(vks_error_format(&err, "tube.p3d", line, sizeof line),
              "tube.model.cfg:4: CfgSkeletons/Default: entry name expected (format error)");
    o.p3d.model_cfg_name = NULL; /* the default name */
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(vks_p3d_read(&o, p3d, n, &s, &err), VKS_ERR_FORMAT);
    check_str(vks_error_format(&err, "tube.p3d", line, sizeof line),
              "model.cfg:4: CfgSkeletons/Default: entry name expected (format error)");
    CHECK(s == NULL);
    free(p3d);
}

/* Other errors print as before; a new failure recorded in a reused record is about the input. */
static void test_format(void)
{
    char line[512];
    vks_error err = {0};
    vks_error_set(&err, VKS_ERR_FORMAT, 0x25, "mlod/lod[0]/faces", "point %u out of range", 99u);
    check_str(vks_error_format(&err, "tube.p3d", line, sizeof line),
              "tube.p3d:0x25: mlod/lod[0]/faces: point 99 out of range (format error)");
    memset(&err, 0, sizeof err);
    vks_error_set(&err, VKS_ERR_INVALID, VKS_NO_OFFSET, "p3d/lod", "no visual LOD with faces");
    check_str(vks_error_format(&err, "tube.p3d", line, sizeof line),
              "tube.p3d:p3d/lod: no visual LOD with faces (invalid)");
    check_str(vks_error_format(&err, NULL, line, sizeof line), "p3d/lod: no visual LOD with faces (invalid)");
    /* a config error without a line (out of memory) still names the config */
    snprintf(err.file, sizeof err.file, "tube.model.cfg");
    check_str(vks_error_format(&err, "tube.p3d", line, sizeof line),
              "tube.model.cfg: p3d/lod: no visual LOD with faces (invalid)");
    err.code = VKS_OK;
    err.line = 7;
    vks_error_set(&err, VKS_ERR_TRUNCATED, 4, "p3d", "file of 4 bytes");
    CHECK(err.file[0] == 0 && err.line == 0);
    check_str(vks_error_format(&err, "x.p3d", line, sizeof line), "x.p3d:0x4: p3d: file of 4 bytes (truncated)");
}

int main(void)
{
    test_lines();
    test_read();
    test_format();
    return vks_test_finish("test_p3d_errors");
}
