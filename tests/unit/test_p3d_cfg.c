/* model.cfg parsing: the samples' skeletons, the config syntax the parser must take
 * (inheritance, skeletonInherit, +=, comments, preprocessor lines, "" in strings) and one
 * clear error for each malformed case; every prefix of the samples parses or fails cleanly. */
#include <string.h>

#include "formats/p3d/p3d_internal.h"
#include "testutil.h"

typedef struct parsed {
    vks_result r;
    p3d_pool pool;
    p3d_skeleton skel;
    const char *model;
    int found;
    vks_error err;
} parsed;

static void parse(parsed *p, const char *text, const char *model)
{
    memset(p, 0, sizeof *p);
    p->r = p3d_cfg_skeleton(&p->pool, text, strlen(text), NULL, model, &p->skel, &p->model, &p->found, &p->err);
}

static int bone_is(const parsed *p, uint32_t i, const char *name, int32_t parent)
{
    return i < p->skel.bone_count && !strcmp(p->skel.names[i], name) && p->skel.parents[i] == parent;
}

static void test_samples(void)
{
    size_t n;
    char *t = (char *)vks_test_read_file(vks_test_dataset("p3d/synthetic_skinned_tube.model.cfg"), &n);
    uint32_t bones = 0;
    vks_error err = {0};
    CHECK_EQ_INT(vks_p3d_parse_model_cfg(t, n, "synthetic_skinned_tube", &bones, &err), VKS_OK);
    CHECK_EQ_INT(bones, 3);
    p3d_pool pool = {0};
    p3d_skeleton sk;
    const char *model;
    int found;
    CHECK_EQ_INT(p3d_cfg_skeleton(&pool, t, n, NULL, "SYNTHETIC_skinned_tube", &sk, &model, &found, &err), VKS_OK);
    CHECK(found && !strcmp(model, "synthetic_skinned_tube"));
    CHECK(sk.bone_count == 3 && !sk.is_discrete && sk.section_count == 1 && !strcmp(sk.sections[0], "camo"));
    p3d_pool_free(&pool);
    /* every prefix parses or fails with a message, never crashes */
    for (size_t k = 0; k < n; k++) {
        vks_error e = {0};
        char *copy = malloc(k ? k : 1);
        memcpy(copy, t, k);
        vks_result r = vks_p3d_parse_model_cfg(copy, k, "synthetic_skinned_tube", NULL, &e);
        CHECK(r == VKS_OK || e.msg[0]);
        free(copy);
    }
    free(t);

    t = (char *)vks_test_read_file(vks_test_dataset("p3d/a3ob_tests_model.cfg"), &n);
    CHECK_EQ_INT(vks_p3d_parse_model_cfg(t, n, "sample_1_character", &bones, &err), VKS_OK);
    CHECK_EQ_INT(bones, 18);
    CHECK_EQ_INT(vks_p3d_parse_model_cfg(t, n, NULL, &bones, &err), VKS_OK); /* the only model */
    CHECK_EQ_INT(bones, 18);
    CHECK_EQ_INT(vks_p3d_parse_model_cfg(t, n, "other_model", &bones, &err), VKS_OK);
    CHECK_EQ_INT(bones, 0);
    free(t);
}

static void test_syntax(void)
{
    parsed p;
    parse(&p,
          "#include \"basic.hpp\"\n#define X 1 \\\n  continued\n"
          "/* block\n comment */ class CfgSkeletons { class Base; class Default { isDiscrete = 1;\n"
          "  skeletonInherit = \"\"; skeletonBones[] = {}; };\n"
          "  class Man: Default { isDiscrete = 0; skeletonBones[] = { \"Pelvis\", \"\", \"Spine\", \"Pelvis\" }; };\n"
          "  class Armed: Man { skeletonInherit = \"Man\"; skeletonBones[] = {\"Weapon\",\"spine\", "
          "{\"Nested\", \"Weapon\"}}; }; // trailing\n"
          "  class Odd: Default { skeletonBones[] = {\"Child\", \"Parent\", \"Parent\", \"\"}; };\n"
          "};\n"
          "class CfgModels { class Default { sections[] = {\"a\"}; skeletonName = \"\"; };\n"
          "  class gun: Default { skeletonName = \"Armed\"; sections[] += {\"b\"}; label = \"say \"\"hi\"\"\"; "
          "angle1 = rad 90; };\n"
          "  class crate: Default {};\n  class odd: Default { skeletonName = Odd; };\n};\n",
          "gun");
    CHECK_EQ_INT(p.r, VKS_OK);
    CHECK_EQ_INT(p.skel.bone_count, 4);
    CHECK(bone_is(&p, 0, "Pelvis", -1) && bone_is(&p, 1, "Spine", 0) && bone_is(&p, 2, "Weapon", 1) &&
          bone_is(&p, 3, "Nested", 2));
    CHECK_EQ_INT(p.skel.is_discrete, 0); /* Man's value, inherited by class */
    CHECK(p.skel.section_count == 2 && !strcmp(p.skel.sections[0], "a") && !strcmp(p.skel.sections[1], "b"));
    p3d_pool_free(&p.pool);

    parse(&p, "class CfgModels { class crate { sections[] = {}; }; };", "crate");
    CHECK(p.r == VKS_OK && p.found && p.skel.bone_count == 0);
    p3d_pool_free(&p.pool);

    /* a child listed before its parent is reordered parents first */
    parse(&p,
          "class CfgSkeletons { class S { skeletonBones[] = {\"c\", \"p\", \"p\", \"\"}; isDiscrete = 1; }; };"
          "class CfgModels { class m { skeletonName = \"S\"; }; };",
          "m");
    CHECK_EQ_INT(p.r, VKS_OK);
    CHECK(bone_is(&p, 0, "p", -1) && bone_is(&p, 1, "c", 0) && p.skel.is_discrete == 1);
    p3d_pool_free(&p.pool);
}

static void test_errors(void)
{
    static const struct {
        const char *text;
        vks_result code;
        const char *words;
    } bad[] = {
        {"class CfgModels { class m { skeletonName = \"S\"; };", VKS_ERR_TRUNCATED, "not closed"},
        {"class CfgModels { class m { skeletonName = \"S\"; }; };", VKS_ERR_FORMAT, "not a class of CfgSkeletons"},
        {"class CfgSkeletons { class S { skeletonBones[] = {\"a\"}; }; }; class CfgModels { class m { "
         "skeletonName = \"S\"; }; };",
         VKS_ERR_FORMAT, "pairs"},
        {"class CfgSkeletons { class S { skeletonBones[] = {\"a\", \"zz\"}; }; }; class CfgModels { class m { "
         "skeletonName = \"S\"; }; };",
         VKS_ERR_FORMAT, "not a bone"},
        {"class CfgSkeletons { class S { skeletonBones[] = {\"a\", \"b\", \"b\", \"a\"}; }; }; class CfgModels { "
         "class m { skeletonName = \"S\"; }; };",
         VKS_ERR_FORMAT, "cycle"},
        {"class CfgSkeletons { class S { skeletonInherit = \"T\"; }; }; class CfgModels { class m { "
         "skeletonName = \"S\"; }; };",
         VKS_ERR_FORMAT, "skeletonInherit"},
        {"class A { x = \"open;\n};", VKS_ERR_FORMAT, "not closed on its line"},
        {"class A { x = 1 }; };", VKS_ERR_FORMAT, "';' expected"},
        {"class A { x[] = 1; };", VKS_ERR_FORMAT, "'{' expected"},
        {"class A { /* never closed", VKS_ERR_TRUNCATED, "comment"},
        {"}", VKS_ERR_FORMAT, "without a class"},
        {"class { };", VKS_ERR_FORMAT, "class name"},
        {"class A\n{\n  value\n};", VKS_ERR_FORMAT, "'=' expected"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        parsed p;
        parse(&p, bad[i].text, "m");
        if (p.r != bad[i].code || !strstr(p.err.msg, bad[i].words))
            fprintf(stderr, "case %zu: got %d '%s: %s'\n", i, p.r, p.err.path, p.err.msg);
        CHECK_EQ_INT(p.r, bad[i].code);
        CHECK(strstr(p.err.msg, bad[i].words) != NULL);
        CHECK(!strcmp(p.err.file, "model.cfg")); /* errors name the config, not the model */
        p3d_pool_free(&p.pool);
    }
    /* nesting and inheritance limits */
    char deep[2000] = "";
    for (int i = 0; i < 70; i++)
        strcat(deep, "class A{");
    parsed p;
    parse(&p, deep, "m");
    CHECK_EQ_INT(p.r, VKS_ERR_LIMIT);
    p3d_pool_free(&p.pool);
    parse(&p, "class CfgSkeletons { class S: S { }; }; class CfgModels { class m: m { skeletonName = \"S\"; }; };",
          "m");
    CHECK_EQ_INT(p.r, VKS_OK); /* self-inheritance resolves to nothing, no loop */
    p3d_pool_free(&p.pool);
}

int main(void)
{
    test_syntax();
    test_errors();
    test_samples();
    return vks_test_finish("test_p3d_cfg");
}
