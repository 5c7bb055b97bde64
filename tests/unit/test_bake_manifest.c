/* vkskin bake's manifest (src/bake/job_manifest.c): defaults applied, paths resolved
 * against the manifest's folder, every prefix of a manifest refused cleanly, and the entry
 * hash that decides what a re-run skips: the same for the same job however it is written
 * (key order, whitespace, a default spelt out), different when anything baked changes. */
#include <string.h>

#include "bake/job_internal.h"
#include "testutil.h"

static int parse(const char *text, vks_bake_manifest *m)
{
    return vks__bake_manifest_parse("dir/bake.json", text, strlen(text), 0, NULL, m);
}

/* The hash of job 0 of text ("" when refused). */
static const char *hash_of(const char *text)
{
    static char h[17];
    vks_bake_manifest m;
    h[0] = 0;
    if (parse(text, &m) == VKS__BAKE_EXIT_OK) {
        memcpy(h, m.jobs[0].hash, sizeof h);
        vks__bake_manifest_free(&m);
    }
    return h;
}

int main(void)
{
    vks_bake_manifest m;
    /* nothing is a manifest */
    CHECK(parse("", &m) == VKS__BAKE_EXIT_INPUT);
    CHECK(m.jobs == NULL);
    CHECK(parse("{}", &m) == VKS__BAKE_EXIT_INPUT);
    CHECK(parse("{\"jobs\": []}", &m) == VKS__BAKE_EXIT_INPUT);

    const char *full =
        "{\"version\": 1, \"out\": \"baked\", \"defaults\": {\"fps\": 24, \"outputs\": [\"vat-png16\", \"atlas\"]},\n"
        " \"jobs\": [{\"model\": \"a/hero.dff\", \"clips\": [\"a/hero.ifp#wave\", {\"file\": \"/abs/walk.rtm\", "
        "\"duration\": 2}]},\n"
        "          {\"name\": \"two\", \"model\": \"b.nif\", \"clips\": [\"b.kf\"], \"fps\": 10, \"range\": [0.5, 1],\n"
        "           \"outputs\": [\"raw\"], \"normals\": false, \"read\": {\"model_cfg\": \"m.cfg\", \"bone_limit\": 20}}]}";
    CHECK_EQ_INT(parse(full, &m), VKS__BAKE_EXIT_OK);
    CHECK_EQ_INT(m.job_count, 2);
    if (m.job_count == 2) {
        const vks_bake_job *a = &m.jobs[0], *b = &m.jobs[1];
        CHECK(!strcmp(m.out, "dir/baked"));
        CHECK(!strcmp(a->model, "dir/a/hero.dff") && !strcmp(a->model_given, "a/hero.dff"));
        CHECK(!strcmp(a->name, "hero.dff"));
        CHECK(a->fps == 24 && a->normals == 1 && a->outputs == (VKS_BAKE_OUT_VAT_PNG16 | VKS_BAKE_OUT_ATLAS));
        CHECK_EQ_INT(a->clip_count, 2);
        CHECK(!strcmp(a->clips[0].file, "dir/a/hero.ifp") && !strcmp(a->clips[0].name, "wave"));
        CHECK(!strcmp(a->clips[1].file, "/abs/walk.rtm") && !a->clips[1].name && a->clips[1].duration == 2);
        CHECK(!strcmp(a->clips[1].where, "jobs[0].clips[1]"));
        CHECK(!strcmp(b->name, "two") && b->fps == 10 && b->has_range && b->range[0] == 0.5f && !b->normals);
        CHECK(b->outputs == VKS_BAKE_OUT_RAW && b->ropt.p3d.bone_limit == 20);
        CHECK(!strcmp(b->ropt.p3d.model_cfg_name, "dir/m.cfg"));
        CHECK(strcmp(a->hash, b->hash) != 0);
    }
    vks__bake_manifest_free(&m);

    /* every prefix is refused, with nothing left allocated (ASan's leak check) */
    int accepted = 0;
    for (size_t n = 0; n < strlen(full); n++) {
        accepted += vks__bake_manifest_parse("p.json", full, n, 0, NULL, &m) == VKS__BAKE_EXIT_OK;
        vks__bake_manifest_free(&m);
    }
    CHECK_EQ_INT(accepted, 0);

    /* the hash: the job as baked, not as written */
    const char *base = hash_of("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"]}]}");
    char h0[17];
    memcpy(h0, base, sizeof h0);
    CHECK(strlen(h0) == 16);
    CHECK(!strcmp(h0, hash_of("{\"jobs\":[{\"outputs\":[\"raw\"],\"clips\":[\"h.ifp\"],\"model\":\"h.dff\"}]}")));
    CHECK(!strcmp(h0, hash_of("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"], "
                              "\"fps\": 30, \"normals\": true}]}")));
    CHECK(!strcmp(h0, hash_of("{\"defaults\": {\"outputs\": [\"raw\"]}, \"jobs\": [{\"model\": \"h.dff\", "
                              "\"clips\": [\"h.ifp\"]}]}")));
    CHECK(strcmp(h0, hash_of("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"], "
                             "\"fps\": 25}]}")));
    CHECK(strcmp(h0, hash_of("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp#walk\"], \"outputs\": [\"raw\"]}]}")));
    CHECK(strcmp(h0, hash_of("{\"jobs\": [{\"model\": \"h2.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"]}]}")));
    /* outputs are not in the hash: each kind's sidecar says whether that kind is done */
    CHECK(!strcmp(h0, hash_of("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"pc2\"]}]}")));

    /* refused: what a typo would silently change */
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"], \"fsp\": 3}]}", &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"], \"fps\": 0}]}", &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"], \"range\": [2, 1]}]}",
                &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"], \"name\": \"a/b\"}]}",
                &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [{\"file\": \"x\", \"name\": \"a\", \"all\": true}], "
                "\"outputs\": [\"raw\"]}]}", &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"]}, "
                "{\"model\": \"x/h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"]}]}", &m)); /* same name */
    CHECK(parse("{\"version\": 2, \"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"]}]}", &m));
    /* a key given twice: cJSON would read the first and drop the second without a word */
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"], \"fps\": 24, "
                "\"fps\": 60}]}", &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"]}], \"out\": \"a\", "
                "\"out\": \"b\"}", &m));
    CHECK(parse("{\"defaults\": {\"normals\": true, \"normals\": false}, \"jobs\": [{\"model\": \"h.dff\", "
                "\"clips\": [\"h.ifp\"], \"outputs\": [\"raw\"]}]}", &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"clips\": [{\"file\": \"x\", \"file\": \"y\"}], "
                "\"outputs\": [\"raw\"]}]}", &m));

    /* layers (issue 27): the crowd file's keys, its clips the job's, the hash over their values */
    const char *lay = "{\"jobs\": [{\"model\": \"h.dff\", \"outputs\": [\"raw\"], \"layers\": [{\"clip\": "
                      "\"w.anm\", \"weight\": 0.5}, {\"clip\": \"h.ifp#run\", \"weight\": 0.5}, {\"clip\": "
                      "\"w.anm\", \"blend\": \"additive\", \"mask\": \"spine\"}]}]}";
    CHECK(!parse(lay, &m));
    if (m.job_count == 1) {
        CHECK(m.jobs[0].layers != NULL);
        CHECK(m.jobs[0].clip_count == 2); /* w.anm once, h.ifp#run */
        CHECK(!strcmp(m.jobs[0].clips[1].file_given, "h.ifp") && !strcmp(m.jobs[0].clips[1].name, "run"));
        vks__bake_manifest_free(&m);
    }
    char hl[17];
    snprintf(hl, sizeof hl, "%s", hash_of(lay));
    CHECK(hl[0] && strcmp(hl, h0) != 0);
    CHECK(!strcmp(hl, hash_of("{\"jobs\": [{\"layers\": [{\"weight\": 0.5, \"clip\": \"w.anm\"}, {\"clip\": "
                              "\"h.ifp#run\", \"weight\": 0.5, \"speed\": 1}, {\"mask\": \"spine\", \"clip\": "
                              "\"w.anm\", \"blend\": \"additive\"}], \"outputs\": [\"raw\"], \"model\": \"h.dff\"}]}")));
    CHECK(strcmp(hl, hash_of("{\"jobs\": [{\"model\": \"h.dff\", \"outputs\": [\"raw\"], \"layers\": [{\"clip\": "
                             "\"w.anm\", \"weight\": 0.5}, {\"clip\": \"h.ifp#run\", \"weight\": 0.4}, {\"clip\": "
                             "\"w.anm\", \"blend\": \"additive\", \"mask\": \"spine\"}]}]}")) != 0);
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"outputs\": [\"raw\"], \"layers\": [{\"clip\": \"w.anm\", "
                "\"weight\": -1}]}]}", &m));
    /* an additive layer's weight is at most 1 there too (the crowd file's rule, issue 37) */
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"outputs\": [\"raw\"], \"layers\": [{\"clip\": \"w.anm\"}, "
                "{\"clip\": \"w.anm\", \"blend\": \"additive\", \"weight\": 2}]}]}", &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"outputs\": [\"raw\"], \"layers\": [{\"clip\": \"w.anm\"}], "
                "\"clips\": [\"w.anm\"]}]}", &m));
    CHECK(parse("{\"jobs\": [{\"model\": \"h.dff\", \"outputs\": [\"raw\"], \"clips\": [\"w.anm\"], "
                "\"transition\": {\"start\": 0, \"duration\": 1, \"to\": [{\"clip\": \"x.anm\"}]}}]}", &m));
    return vks_test_failures ? 1 : 0;
}
