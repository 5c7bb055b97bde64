/* Crowd files (crowd_file.h): JSON and CSV crowds read value by value (defaults, roots in
 * every form, paths resolved against the crowd file's folder, sources stored once), and bad
 * files refused with the line (CSV) or the entry and key (JSON) and what was expected. Also:
 * every prefix of a good file parses or fails cleanly, and allocations go through the
 * allocator given; entries made into instances (vks_crowd_spec_instance): layers with masks
 * by node name, references, cycles left to the clip, and entries refused where the host did
 * not load a clip or the model has no node of a mask's name. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "vkskin/clip.h"
#include "vkskin/crowd_file.h"

static vks_crowd_spec *parse(const char *text, const char *name, vks_error *err)
{
    vks_crowd_spec *s = NULL;
    memset(err, 0, sizeof *err);
    vks_crowd_file_parse(text, strlen(text), name, &s, err);
    return s;
}

/* Parses text, which must fail with code; checks that the message has want (and the line). */
static void bad(const char *what, const char *text, vks_result code, uint32_t line, const char *path, const char *want)
{
    vks_error err;
    vks_crowd_spec *s = parse(text, "dir/c.x", &err);
    char msg[512];
    vks_error_format(&err, NULL, msg, sizeof msg);
    int ok = !s && err.code == code && err.line == line && !strcmp(err.file, "dir/c.x") &&
             (!path || !strcmp(err.path, path)) && strstr(msg, want);
    if (!ok)
        fprintf(stderr, "  %s: got \"%s\" (code %d line %u path \"%s\")\n", what, msg, (int)err.code, err.line,
                err.path);
    CHECK(ok);
    vks_crowd_spec_free(s);
}

static int near_affine(const vks_affine *a, const vks_affine *b)
{
    for (int k = 0; k < 12; k++)
        if (fabsf(a->m[k] - b->m[k]) > 1e-6f)
            return 0;
    return 1;
}

static void test_json(void)
{
    const char *text = "{\"instances\": [\n"
                       "  {\"model\": \"hero.dff\", \"clip\": \"clips/walk.anm#walk\", \"start\": 0.25, \"speed\": -1.5,\n"
                       "   \"cycle\": \"mirror\", \"root\": {\"translation\": [1, 2, 3], \"rotation\": [0, 0, 2, 0],\n"
                       "   \"scale\": [2, 2, 2]}},\n"
                       "  {\"clip\": \"clips/walk.anm#walk\", \"root\": {\"matrix\": [0,1,0, -1,0,0, 0,0,1, 4,5,6]}},\n"
                       "  {\"model\": \"/abs/other.nif\", \"clip\": \"moves.ifp#3\", \"cycle\": \"RESET\",\n"
                       "   \"root\": {\"matrix\": [1,0,0,0, 0,1,0,0, 0,0,1,0, 7,8,9,1]}},\n"
                       "  {}\n"
                       "]}\n";
    vks_error err;
    vks_crowd_spec *s = parse(text, "crowds/street.json", &err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    CHECK(!strcmp(s->format, "json"));
    CHECK_EQ_INT(s->instance_count, 4);
    CHECK_EQ_INT(s->model_count, 2);
    CHECK_EQ_INT(s->clip_count, 2);
    CHECK(!strcmp(s->models[0].path, "crowds/hero.dff"));
    CHECK(!strcmp(s->models[1].path, "/abs/other.nif")); /* absolute: as written */
    CHECK(!strcmp(s->clips[0].path, "crowds/clips/walk.anm") && !strcmp(s->clips[0].name, "walk"));
    CHECK(!strcmp(s->clips[0].text, "clips/walk.anm#walk"));
    CHECK(!strcmp(s->clips[1].path, "crowds/moves.ifp") && !strcmp(s->clips[1].name, "3"));
    CHECK_EQ_INT(s->clips[1].first_instance, 2);
    const vks_crowd_entry *e = s->instances;
    CHECK(e[0].model == 0 && e[0].clip == 0 && e[0].start == 0.25f && e[0].speed == -1.5f);
    CHECK_EQ_INT(e[0].cycle, VKS_CYCLE_MIRROR);
    float t[3] = {1, 2, 3}, q[4] = {0, 0, 1, 0}, sc[3] = {2, 2, 2};
    vks_affine want = vks_affine_from_trs(t, q, sc);
    CHECK(near_affine(&e[0].root, &want));
    CHECK(e[1].model == -1 && e[1].clip == 0 && e[1].speed == 1 && e[1].cycle == -1 && e[1].start == 0);
    vks_affine m1 = {{0, 1, 0, -1, 0, 0, 0, 0, 1, 4, 5, 6}};
    CHECK(near_affine(&e[1].root, &m1));
    CHECK(e[2].model == 1 && e[2].clip == 1 && e[2].cycle == VKS_CYCLE_RESET);
    vks_affine m2 = {{1, 0, 0, 0, 1, 0, 0, 0, 1, 7, 8, 9}};
    CHECK(near_affine(&e[2].root, &m2));
    vks_affine id = vks_affine_identity();
    CHECK(e[3].model == -1 && e[3].clip == -1 && near_affine(&e[3].root, &id));
    char where[64];
    CHECK(!strcmp(vks_crowd_spec_where(s, 2, where, sizeof where), "crowds/street.json: instances[2]"));
    vks_crowd_spec_free(s);
}

static void test_csv(void)
{
    const char *text = "\xEF\xBB\xBF# a street corner\r\n"
                       "\n"
                       "Model, clip ,start,speed,cycle,tx,tz,qy,qw,sx,sy,sz\r\n"
                       "hero.dff,walk.anm#walk,0,1,loop,,,,,,,\r\n"
                       "  # an indented comment\n"
                       "hero.dff, walk.anm#walk ,0.5,1.25,,2,-3,0.7071068,0.7071068,1,1,1\n"
                       "\"a,b.dff\",\"odd\"\"#name.anm#\",,,clamp,,,,,,,\n"
                       ",,,,,,,,,,,"; /* no newline at the end: still a row */
    vks_error err;
    vks_crowd_spec *s = parse(text, "c.csv", &err);
    CHECK(s != NULL);
    if (!s) {
        fprintf(stderr, "  %s\n", err.msg);
        return;
    }
    CHECK(!strcmp(s->format, "csv"));
    CHECK_EQ_INT(s->instance_count, 4);
    CHECK_EQ_INT(s->model_count, 2);
    CHECK_EQ_INT(s->clip_count, 2);
    CHECK(!strcmp(s->models[0].path, "hero.dff")); /* no folder in the name: as written */
    CHECK(!strcmp(s->models[1].path, "a,b.dff"));
    CHECK(!strcmp(s->clips[1].path, "odd\"#name.anm") && !strcmp(s->clips[1].name, "")); /* last '#' */
    const vks_crowd_entry *e = s->instances;
    CHECK_EQ_INT(e[0].line, 4);
    CHECK_EQ_INT(e[1].line, 6);
    CHECK_EQ_INT(e[3].line, 8);
    CHECK(e[0].cycle == VKS_CYCLE_LOOP && e[1].cycle == -1 && e[2].cycle == VKS_CYCLE_CLAMP);
    CHECK(e[1].start == 0.5f && e[1].speed == 1.25f && e[1].clip == 0 && e[1].model == 0);
    float t[3] = {2, 0, -3}, q[4] = {0, 0.7071068f, 0, 0.7071068f}, sc[3] = {1, 1, 1};
    vks_affine want = vks_affine_from_trs(t, q, sc);
    CHECK(near_affine(&e[1].root, &want));
    CHECK(e[3].model == -1 && e[3].clip == -1 && e[3].speed == 1);
    char where[64];
    CHECK(!strcmp(vks_crowd_spec_where(s, 1, where, sizeof where), "c.csv:6"));
    vks_crowd_spec_free(s);

    /* a header with only some columns: everything else defaults; '#' lines are comments */
    s = parse("clip\n#walk.anm\nw.anm#1\nw.anm#1\n", "x/y/c.csv", &err);
    CHECK(s && s->instance_count == 2 && s->clip_count == 1 && s->model_count == 0);
    if (s)
        CHECK(!strcmp(s->clips[0].path, "x/y/w.anm") && !strcmp(s->clips[0].name, "1"));
    vks_crowd_spec_free(s);
}

static void test_bad(void)
{
    /* CSV: the line and the column */
    bad("bad number", "clip,speed\nw.anm,1\n\nw.anm,fast\n", VKS_ERR_FORMAT, 4, "speed", "expected a finite number, got \"fast\"");
    bad("nan", "speed\nnan\n", VKS_ERR_FORMAT, 2, "speed", "finite number");
    bad("huge", "start\n1e39\n", VKS_ERR_FORMAT, 2, "start", "finite number");
    bad("unknown column", "# c\nclip,sped\n", VKS_ERR_FORMAT, 2, "header", "unknown column \"sped\"");
    bad("twice", "clip,CLIP\n", VKS_ERR_FORMAT, 1, "header", "named twice");
    bad("cells", "clip,speed\nw.anm\n", VKS_ERR_FORMAT, 2, "", "expected 2 cells as the header names, got 1");
    bad("more cells", "clip,speed\nw.anm,1,2\n", VKS_ERR_FORMAT, 2, "", "expected at most 2 cells");
    bad("cycle", "cycle\nloop\nforever\n", VKS_ERR_FORMAT, 3, "cycle", "expected loop, clamp, mirror or reset, got \"forever\"");
    bad("quote", "clip\n\"w.anm\n", VKS_ERR_FORMAT, 2, "", "closing '\"'");
    bad("after quote", "clip\n\"w.anm\"x\n", VKS_ERR_FORMAT, 2, "", "expected ','");
    bad("no file 2", "clip\n\"#walk\"\n", VKS_ERR_FORMAT, 2, "clip", "no file before '#'");
    bad("zero q", "qx,qy,qz,qw\n0,0,0,0\n", VKS_ERR_FORMAT, 2, "qx..qw", "zero one");
    bad("flat root", "sx\n0\n", VKS_ERR_FORMAT, 2, "root", "invertible");
    bad("stretched root", "sx,sy\n10000,1\n", VKS_ERR_FORMAT, 2, "root", "stretches");
    bad("empty", "", VKS_ERR_FORMAT, 0, "", "header row");
    bad("header only", "# x\nclip,speed\n", VKS_ERR_FORMAT, 2, "", "at least one instance");
    {
        vks_crowd_spec *s = NULL;
        vks_error err = {0};
        CHECK(vks_crowd_file_parse("clip\nw.a\0nm\n", 12, "c.csv", &s, &err) == VKS_ERR_FORMAT && !s);
        CHECK(err.line == 2 && strstr(err.msg, "NUL"));
    }
    /* JSON: the entry and the key */
    bad("json speed", "{\"instances\": [{}, {\"speed\": \"fast\"}]}", VKS_ERR_FORMAT, 0, "instances[1].speed",
        "expected a finite number, got a string");
    bad("json key", "{\"instances\": [{\"sped\": 1}]}", VKS_ERR_FORMAT, 0, "instances[0].sped", "unknown key");
    bad("json top", "{\"instance\": []}", VKS_ERR_FORMAT, 0, "instance", "unknown key");
    /* a key given twice: one of the two would be read as if the other were not there */
    bad("json twice", "{\"instances\": [{\"speed\": 1, \"speed\": 2}]}", VKS_ERR_FORMAT, 0, "instances[0].speed",
        "given twice");
    bad("json top twice", "{\"instances\": [{}], \"instances\": [{}, {}]}", VKS_ERR_FORMAT, 0, "instances",
        "given twice");
    bad("json root twice", "{\"instances\": [{\"root\": {\"scale\": [1, 1, 1], \"scale\": [2, 2, 2]}}]}",
        VKS_ERR_FORMAT, 0, "instances[0].root", "\"scale\" is given twice");
    bad("json empty", "{\"instances\": []}", VKS_ERR_FORMAT, 0, "instances", "non-empty array");
    bad("json clip", "{\"instances\": [{\"clip\": 3}]}", VKS_ERR_FORMAT, 0, "instances[0].clip", "FILE#name");
    bad("json empty clip", "{\"instances\": [{\"clip\": \"\"}]}", VKS_ERR_FORMAT, 0, "instances[0].clip", "empty");
    bad("json cycle", "{\"instances\": [{\"cycle\": \"spin\"}]}", VKS_ERR_FORMAT, 0, "instances[0].cycle", "\"spin\"");
    bad("json matrix", "{\"instances\": [{\"root\": {\"matrix\": [1, 2]}}]}", VKS_ERR_FORMAT, 0,
        "instances[0].root.matrix", "12 or 16 numbers");
    bad("json 4x4", "{\"instances\": [{\"root\": {\"matrix\": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,2]}}]}",
        VKS_ERR_FORMAT, 0, "instances[0].root.matrix", "last row");
    bad("json matrix and t", "{\"instances\": [{\"root\": {\"matrix\": [], \"scale\": [1,1,1]}}]}", VKS_ERR_FORMAT,
        0, "instances[0].root.matrix", "alone");
    bad("json rotation", "{\"instances\": [{\"root\": {\"rotation\": [0, 0, 0, 0]}}]}", VKS_ERR_FORMAT, 0,
        "instances[0].root.rotation", "zero one");
    bad("json root key", "{\"instances\": [{\"root\": {\"pos\": [0, 0, 0]}}]}", VKS_ERR_FORMAT, 0,
        "instances[0].root", "unknown key \"pos\"");
    bad("json inf", "{\"instances\": [{\"root\": {\"translation\": [0, 1e999, 0]}}]}", VKS_ERR_FORMAT, 0,
        "instances[0].root.translation", "element 1");
    bad("json malformed", "{\"instances\": [\n{},\n{\"speed\": }\n]}", VKS_ERR_FORMAT, 3, "", "malformed JSON");
    bad("json not object", "{\"instances\": [{}, 3]}", VKS_ERR_FORMAT, 0, "instances[1]", "expected an object, got a number");
}

/* Every prefix of a good file, in an allocation of its own size: a clean result either way. */
static void test_prefixes(void)
{
    const char *texts[2] = {"model,clip,start,tx,qw\nhero.dff,\"w.anm#walk\",0.5,1,1\nhero.dff,w.anm#2,1,2,1\n",
                            "{\"instances\": [{\"model\": \"a.dff\", \"clip\": \"w.anm#1\", \"root\": {\"scale\": "
                            "[1,2,1]}}, {\"speed\": 2}]}"};
    for (int t = 0; t < 2; t++) {
        size_t n = strlen(texts[t]);
        for (size_t k = 0; k <= n; k++) {
            char *buf = malloc(k ? k : 1);
            memcpy(buf, texts[t], k);
            vks_crowd_spec *s = NULL;
            vks_error err = {0};
            vks_result r = vks_crowd_file_parse(buf, k, "p.csv", &s, &err);
            CHECK((r == VKS_OK) == (s != NULL));
            CHECK(r == VKS_OK || err.msg[0]);
            vks_crowd_spec_free(s);
            free(buf);
        }
    }
}

/* A counting allocator: everything the parser takes it gives back. */
static long live;
static void *count_alloc(void *user, size_t n)
{
    (void)user;
    live++;
    return malloc(n);
}
static void count_free(void *user, void *p)
{
    (void)user;
    if (p)
        live--;
    free(p);
}

static void test_allocator(void)
{
    vks_allocator a = {count_alloc, count_free, NULL};
    char *text = malloc(64 * 40 + 64);
    size_t n = (size_t)sprintf(text, "model,clip,speed\n");
    for (int i = 0; i < 64; i++) /* enough sources to grow the tables */
        n += (size_t)sprintf(text + n, "m%d.dff,c%d.anm#%d,%d\n", i % 40, i, i % 3, i);
    vks_crowd_spec *s = NULL;
    vks_error err = {0};
    CHECK(vks_crowd_file_parse_with(text, n, "c.csv", &a, &s, &err) == VKS_OK);
    CHECK(s && s->instance_count == 64 && s->model_count == 40 && s->clip_count == 64);
    if (s)
        CHECK(s->instances[63].model == 23 && s->instances[63].clip == 63 && s->instances[63].speed == 63);
    CHECK(live > 0);
    vks_crowd_spec_free(s);
    CHECK_EQ_INT(live, 0);
    /* a failure frees as much */
    strcpy(text + n, "x,y,z\n");
    CHECK(vks_crowd_file_parse_with(text, n + 6, "c.csv", &a, &s, &err) != VKS_OK && !s);
    CHECK_EQ_INT(live, 0);
    free(text);
}

/* Layers, transitions and root motion (issue 27): values in both forms, plain entries beside
 * them untouched, and bad ones refused naming the entry and key. */
static void test_layers(void)
{
    const char *json = "{\"instances\": [\n"
                       "  {\"clip\": \"w.anm\"},\n"
                       "  {\"model\": \"m.dff\", \"layers\": [{\"clip\": \"w.anm\", \"weight\": 0.7, \"start\": 0.5},\n"
                       "     {\"clip\": \"r.anm#run\", \"cycle\": \"clamp\", \"speed\": 2},\n"
                       "     {\"clip\": \"wave.anm\", \"blend\": \"additive\", \"mask\": \"Spine 1\"}],\n"
                       "   \"transition\": {\"start\": 2, \"duration\": 0.5, \"to\": [{\"clip\": \"i.anm\"}]},\n"
                       "   \"root_motion\": \"z\"},\n"
                       "  {\"clip\": \"w.anm\", \"start\": 1, \"transition\": {\"start\": 3, \"duration\": 0, \"to\": "
                       "[{\"clip\": \"r.anm#run\"}]}, \"root_motion\": true}\n"
                       "]}\n";
    vks_error err;
    vks_crowd_spec *s = parse(json, "c.json", &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(s->instance_count, 3);
        CHECK_EQ_INT(s->instances[0].layer_count, 0);
        const vks_crowd_entry *e = &s->instances[1];
        CHECK_EQ_INT(e->layer_count, 4);
        CHECK_EQ_INT(e->root_motion, VKS_ROOT_MOTION_Z_UP);
        CHECK(e->fade_start == 2 && e->fade_duration == 0.5f);
        const vks_crowd_entry_layer *y = s->layers + e->first_layer;
        CHECK(y[0].weight == 0.7f && y[0].start == 0.5f && y[0].fade == VKS_FADE_OUT && y[0].cycle == -1);
        CHECK(y[1].cycle == VKS_CYCLE_CLAMP && y[1].speed == 2 && y[1].weight == 1 && !strcmp(s->clips[y[1].clip].name, "run"));
        CHECK(y[2].mode == VKS_LAYER_ADDITIVE && y[2].mask && !strcmp(y[2].mask, "Spine 1"));
        CHECK(y[3].fade == VKS_FADE_IN && !strcmp(s->clips[y[3].clip].text, "i.anm"));
        CHECK(e->clip == y[0].clip && e->start == 0.5f); /* layer 0 for hosts without layers */
        e = &s->instances[2];
        CHECK_EQ_INT(e->layer_count, 2);
        CHECK_EQ_INT(e->root_motion, VKS_ROOT_MOTION_Y_UP);
        y = s->layers + e->first_layer;
        CHECK(y[0].start == 1 && y[0].fade == VKS_FADE_OUT && y[1].fade == VKS_FADE_IN && e->fade_start == 3);
    }
    vks_crowd_spec_free(s);

    const char *csv = "clip,start,weight,clip2,weight2,blend2,mask2,fade2,transition_start,transition_duration,"
                      "root_motion\n"
                      "w.anm,0.5,,,,,,,,,\n"
                      "w.anm,0.5,0.25,r.anm,0.75,additive,Hips,in,1.5,0.25,y\n";
    s = parse(csv, "c.csv", &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(s->instances[0].layer_count, 0);
        CHECK(s->instances[0].start == 0.5f);
        const vks_crowd_entry *e = &s->instances[1];
        CHECK_EQ_INT(e->layer_count, 2);
        const vks_crowd_entry_layer *y = s->layers + e->first_layer;
        CHECK(y[0].weight == 0.25f && y[0].start == 0.5f && y[0].fade == VKS_FADE_OUT);
        CHECK(y[1].weight == 0.75f && y[1].mode == VKS_LAYER_ADDITIVE && !strcmp(y[1].mask, "Hips") && y[1].fade == VKS_FADE_IN);
        CHECK(e->fade_start == 1.5f && e->fade_duration == 0.25f && e->root_motion == VKS_ROOT_MOTION_Y_UP);
    }
    vks_crowd_spec_free(s);

    bad("json layer weight", "{\"instances\": [{}, {\"layers\": [{\"clip\": \"a\", \"weight\": -1}]}]}", VKS_ERR_FORMAT, 0,
        "instances[1].layers[0].weight", "expected a weight >= 0");
    bad("json layer key", "{\"instances\": [{\"layers\": [{\"clip\": \"a\"}, {\"clip\": \"b\", \"blnd\": 1}]}]}",
        VKS_ERR_FORMAT, 0, "instances[0].layers[1].blnd", "unknown key");
    bad("json layer clip", "{\"instances\": [{\"layers\": [{\"weight\": 1}]}]}", VKS_ERR_FORMAT, 0,
        "instances[0].layers[0]", "expected a layer with \"clip\"");
    bad("json five layers", "{\"instances\": [{\"layers\": [{\"clip\": \"a\"}, {\"clip\": \"a\"}, {\"clip\": \"a\"}], "
        "\"transition\": {\"start\": 1, \"to\": [{\"clip\": \"b\"}, {\"clip\": \"c\"}]}}]}", VKS_ERR_FORMAT, 0,
        "instances[0].transition.to", "more than 4");
    bad("json both", "{\"instances\": [{\"clip\": \"a\", \"layers\": [{\"clip\": \"a\"}]}]}", VKS_ERR_FORMAT, 0,
        "instances[0].layers", "not both");
    bad("json blend", "{\"instances\": [{\"layers\": [{\"clip\": \"a\", \"blend\": \"mul\"}]}]}", VKS_ERR_FORMAT, 0,
        "instances[0].layers[0].blend", "\"normal\" or \"additive\"");
    bad("json transition to", "{\"instances\": [{\"clip\": \"a\", \"transition\": {\"start\": 1}}]}", VKS_ERR_FORMAT, 0,
        "instances[0].transition", "expected \"to\"");
    bad("json root motion", "{\"instances\": [{\"clip\": \"a\", \"root_motion\": \"x\"}]}", VKS_ERR_FORMAT, 0,
        "instances[0].root_motion", "the up axis");
    bad("json root motion alone", "{\"instances\": [{\"root_motion\": true}]}", VKS_ERR_FORMAT, 0, "instances[0]",
        "expected a clip or layers");
    bad("csv layer without clip", "clip,weight3\na,1\n", VKS_ERR_FORMAT, 2, "clip3", "expected the clip of layer 3");
    bad("csv layer gap", "clip,clip3\na,b\n", VKS_ERR_FORMAT, 2, "clip3", "without layer 2");
    bad("csv weight", "clip,weight\na,-2\n", VKS_ERR_FORMAT, 2, "weight", "expected a weight >= 0");
    /* an additive layer's weight is at most 1 (issue 37), whichever key or column comes first */
    bad("json additive weight", "{\"instances\": [{\"layers\": [{\"clip\": \"a\"}, {\"clip\": \"b\", \"weight\": 1e4, "
        "\"blend\": \"additive\"}]}]}", VKS_ERR_FORMAT, 0, "instances[0].layers[1].weight",
        "expected an additive weight <= 1");
    bad("csv additive weight", "clip,blend,weight\na,additive,1.5\n", VKS_ERR_FORMAT, 2, "weight",
        "expected an additive weight <= 1");
    bad("csv additive weight2", "clip,clip2,weight2,blend2\na,b,1e20,additive\n", VKS_ERR_FORMAT, 2, "weight2",
        "expected an additive weight <= 1");
    bad("csv fade", "clip,clip2,fade2\na,b,in\n", VKS_ERR_FORMAT, 2, "fade2", "expected transition_start");
    bad("csv transition", "clip,clip2,transition_start\na,b,1\n", VKS_ERR_FORMAT, 2, "fade", "fade \"in\"");
    bad("csv root motion", "clip,root_motion\na,up\n", VKS_ERR_FORMAT, 2, "root_motion", "expected 0, 1, y, z");
}

/* Root motion with yaw (issue 27): the object form and the root_yaw column, beside today's
 * forms (translation only), and bad ones refused naming the entry and key. */
static void test_root_yaw(void)
{
    const char *json = "{\"instances\": [\n"
                       "  {\"clip\": \"w.anm\", \"root_motion\": {\"up\": \"z\", \"yaw\": true}},\n"
                       "  {\"clip\": \"w.anm\", \"root_motion\": {\"yaw\": true}},\n"
                       "  {\"clip\": \"w.anm\", \"root_motion\": {\"up\": \"Y\", \"yaw\": false}},\n"
                       "  {\"clip\": \"w.anm\", \"root_motion\": \"z\"}\n"
                       "]}\n";
    vks_error err;
    vks_crowd_spec *s = parse(json, "c.json", &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(s->instances[0].root_motion, VKS_ROOT_MOTION_Z_UP | VKS_ROOT_MOTION_YAW);
        CHECK_EQ_INT(s->instances[1].root_motion, VKS_ROOT_MOTION_Y_UP | VKS_ROOT_MOTION_YAW);
        CHECK_EQ_INT(s->instances[2].root_motion, VKS_ROOT_MOTION_Y_UP);
        CHECK_EQ_INT(s->instances[3].root_motion, VKS_ROOT_MOTION_Z_UP);
        for (int k = 0; k < 4; k++)
            CHECK_EQ_INT(s->instances[k].layer_count, 1);
    }
    vks_crowd_spec_free(s);
    const char *csv = "clip,root_motion,root_yaw\n"
                      "w.anm,z,1\n"
                      "w.anm,y,false\n"
                      "w.anm,y,\n"
                      "w.anm,,no\n";
    s = parse(csv, "c.csv", &err);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ_INT(s->instances[0].root_motion, VKS_ROOT_MOTION_Z_UP | VKS_ROOT_MOTION_YAW);
        CHECK_EQ_INT(s->instances[1].root_motion, VKS_ROOT_MOTION_Y_UP);
        CHECK_EQ_INT(s->instances[2].root_motion, VKS_ROOT_MOTION_Y_UP);
        CHECK_EQ_INT(s->instances[3].root_motion, 0);
        CHECK_EQ_INT(s->instances[3].layer_count, 0); /* a plain row */
    }
    vks_crowd_spec_free(s);

    bad("json root motion up", "{\"instances\": [{}, {\"clip\": \"a\", \"root_motion\": {\"up\": \"x\"}}]}",
        VKS_ERR_FORMAT, 0, "instances[1].root_motion.up", "expected \"y\" or \"z\"");
    bad("json root motion up yes", "{\"instances\": [{\"clip\": \"a\", \"root_motion\": {\"up\": \"yes\"}}]}",
        VKS_ERR_FORMAT, 0, "instances[0].root_motion.up", "the up axis");
    bad("json root motion yaw", "{\"instances\": [{\"clip\": \"a\", \"root_motion\": {\"yaw\": 1}}]}",
        VKS_ERR_FORMAT, 0, "instances[0].root_motion.yaw", "expected true or false, got a number");
    bad("json root motion key", "{\"instances\": [{\"clip\": \"a\", \"root_motion\": {\"turn\": true}}]}",
        VKS_ERR_FORMAT, 0, "instances[0].root_motion.turn", "unknown key (expected up or yaw)");
    bad("json root motion twice",
        "{\"instances\": [{\"clip\": \"a\", \"root_motion\": {\"yaw\": true, \"yaw\": false}}]}", VKS_ERR_FORMAT,
        0, "instances[0].root_motion.yaw", "given twice");
    bad("json root motion array", "{\"instances\": [{\"clip\": \"a\", \"root_motion\": [1]}]}", VKS_ERR_FORMAT, 0,
        "instances[0].root_motion", "{\"up\": ..., \"yaw\": ...}");
    bad("json root yaw alone", "{\"instances\": [{\"root_motion\": {\"yaw\": true}}]}", VKS_ERR_FORMAT, 0,
        "instances[0]", "expected a clip or layers");
    bad("csv root yaw", "clip,root_motion,root_yaw\na,y,z\n", VKS_ERR_FORMAT, 2, "root_yaw",
        "expected 0, 1, true, false, yes or no");
    bad("csv root yaw without root motion", "clip,root_yaw\na,1\n", VKS_ERR_FORMAT, 2, "root_yaw",
        "expected root_motion");
}

/* An additive layer's reference pose (issue 27): "reference": {"clip", "time"} in JSON, the
 * reference and reference_time columns (suffixed per layer) in CSV, defaults (the layer's own
 * clip at 0) where not given, and refused on a normal layer naming the entry and key. */
static void test_reference(void)
{
    const char *json = "{\"instances\": [\n"
                       "  {\"layers\": [{\"clip\": \"w.anm\"},\n"
                       "     {\"clip\": \"wave.anm\", \"blend\": \"additive\",\n"
                       "      \"reference\": {\"clip\": \"i.anm#idle\", \"time\": 0.5}},\n"
                       "     {\"clip\": \"wave.anm\", \"blend\": \"additive\", \"reference\": {\"time\": 1.25}},\n"
                       "     {\"reference\": {\"clip\": \"w.anm\"}, \"clip\": \"wave.anm\",\n"
                       "      \"blend\": \"additive\"}]},\n"
                       "  {\"layers\": [{\"clip\": \"w.anm\"}, {\"clip\": \"wave.anm\", \"blend\": \"additive\"}]}\n"
                       "]}\n";
    vks_error err;
    vks_crowd_spec *s = parse(json, "c.json", &err);
    CHECK(s != NULL);
    if (s) {
        const vks_crowd_entry_layer *y = s->layers + s->instances[0].first_layer;
        CHECK(y[0].reference == -1 && y[0].ref_time == 0);
        CHECK(y[1].reference >= 0 && !strcmp(s->clips[y[1].reference].name, "idle") && y[1].ref_time == 0.5f);
        CHECK(y[2].reference == -1 && y[2].ref_time == 1.25f);
        CHECK(y[3].reference == y[0].clip && y[3].ref_time == 0 && y[3].mode == VKS_LAYER_ADDITIVE);
        y = s->layers + s->instances[1].first_layer;
        CHECK(y[1].reference == -1 && y[1].ref_time == 0); /* as before: the first frame */
    }
    vks_crowd_spec_free(s);

    const char *csv = "clip,clip2,blend2,reference2,reference_time2,clip3,blend3,reference_time3\n"
                      "w.anm,wave.anm,additive,i.anm#idle,0.5,wave.anm,additive,2\n"
                      "w.anm,wave.anm,additive,,,,,\n";
    s = parse(csv, "c.csv", &err);
    CHECK(s != NULL);
    if (s) {
        const vks_crowd_entry_layer *y = s->layers + s->instances[0].first_layer;
        CHECK_EQ_INT(s->instances[0].layer_count, 3);
        CHECK(y[0].reference == -1 && y[0].ref_time == 0);
        CHECK(y[1].reference >= 0 && !strcmp(s->clips[y[1].reference].name, "idle") && y[1].ref_time == 0.5f);
        CHECK(y[2].reference == -1 && y[2].ref_time == 2);
        y = s->layers + s->instances[1].first_layer;
        CHECK(y[1].reference == -1 && y[1].ref_time == 0);
    }
    vks_crowd_spec_free(s);

    bad("json reference on a normal layer",
        "{\"instances\": [{}, {\"layers\": [{\"clip\": \"a\", \"reference\": {\"time\": 1}}]}]}", VKS_ERR_FORMAT, 0,
        "instances[1].layers[0].reference", "for an additive layer");
    bad("json reference time", "{\"instances\": [{\"layers\": [{\"clip\": \"a\", \"blend\": \"additive\", "
        "\"reference\": {\"time\": -1}}]}]}", VKS_ERR_FORMAT, 0, "instances[0].layers[0].reference.time",
        "expected a clip time >= 0");
    bad("json reference key", "{\"instances\": [{\"layers\": [{\"clip\": \"a\", \"blend\": \"additive\", "
        "\"reference\": {\"frame\": 1}}]}]}", VKS_ERR_FORMAT, 0, "instances[0].layers[0].reference.frame",
        "unknown key");
    bad("json reference kind", "{\"instances\": [{\"layers\": [{\"clip\": \"a\", \"blend\": \"additive\", "
        "\"reference\": \"b\"}]}]}", VKS_ERR_FORMAT, 0, "instances[0].layers[0].reference", "expected an object");
    bad("json reference clip", "{\"instances\": [{\"layers\": [{\"clip\": \"a\", \"blend\": \"additive\", "
        "\"reference\": {\"clip\": 3}}]}]}", VKS_ERR_FORMAT, 0, "instances[0].layers[0].reference.clip",
        "a clip source");
    bad("csv reference on a normal layer", "clip,clip2,reference2\na,b,c\n", VKS_ERR_FORMAT, 2, "reference2",
        "for an additive layer (blend2 additive)");
    bad("csv reference time on a normal layer", "clip,reference_time\na,0\n", VKS_ERR_FORMAT, 2, "reference_time",
        "for an additive layer (blend additive)");
    bad("csv reference time", "clip,blend,reference_time\na,additive,-0.5\n", VKS_ERR_FORMAT, 2, "reference_time",
        "expected a clip time >= 0");
}

/* Entries as instances (instance.h): a layered entry's clips, cycles, weights, blend, mask by
 * node name, reference and transition; a plain one's clip; one without a clip the bind pose;
 * what the host did not load, or a mask the model lacks, refused by the entry's place. */
static void test_instances(void)
{
    static const char *json =
        "{\"instances\": ["
        "{\"model\": \"m.dff\", \"layers\": [{\"clip\": \"w.anm\", \"weight\": 0.7},"
        " {\"clip\": \"r.anm\", \"cycle\": \"clamp\", \"blend\": \"additive\", \"mask\": \"Spine\","
        " \"reference\": {\"clip\": \"w.anm\", \"time\": 0.5}}],"
        " \"transition\": {\"start\": 2, \"duration\": 0.5, \"to\": [{\"clip\": \"r.anm\"}]},"
        " \"root_motion\": \"z\"},"
        "{\"clip\": \"r.anm\", \"start\": 0.25, \"speed\": 2},"
        "{\"model\": \"m.dff\", \"root\": {\"translation\": [3, 0, 0]}},"
        "{\"model\": \"m.dff\", \"layers\": [{\"clip\": \"w.anm\", \"mask\": \"Tail\"}]}]}";
    vks_error err;
    vks_crowd_spec *s = parse(json, "crowds/c.json", &err);
    CHECK(s != NULL);
    if (!s)
        return;
    vks_node nodes[3] = {{.name = "Root"}, {.name = "Spine"}, {.name = "Head"}};
    vks_skin skin = {0};
    skin.nodes = nodes, skin.node_count = 3;
    const vks_skin *skins[2] = {&skin, &skin};
    const uint32_t models[1] = {1};
    const int32_t clips[2] = {5, 2}; /* w.anm, r.anm as the stream holds them */
    const vks_cycle cycles[2] = {VKS_CYCLE_MIRROR, VKS_CYCLE_LOOP};
    const char *const names[2] = {"m0.dff", "m.dff"};
    vks_crowd_binding b = {models, 0, skins, clips, cycles, names};
    vks_instance in;
    CHECK(vks_crowd_spec_instance(s, 0, &b, &in, &err) == VKS_OK);
    CHECK(in.model == 1 && in.pose == VKS_POSE_LAYERS && in.layer_count == 3 && in.root_motion == 2);
    CHECK(in.layers[0].clip == 5 && in.layers[0].cycle == VKS_CYCLE_MIRROR && in.layers[0].weight == 0.7f &&
          in.layers[0].mask == 0 && in.layers[0].reference == 0 && in.layers[0].fade == VKS_FADE_OUT);
    CHECK(in.layers[1].clip == 2 && in.layers[1].cycle == VKS_CYCLE_CLAMP && in.layers[1].mode == VKS_LAYER_ADDITIVE &&
          in.layers[1].mask == 2 && in.layers[1].reference == 6 && in.layers[1].ref_time == 0.5f);
    CHECK(in.layers[2].clip == 2 && in.layers[2].fade == VKS_FADE_IN);
    CHECK(in.fade_start == 2.0f && in.fade_duration == 0.5f);
    /* the same instance as the CPU engines play it (vks_instance_clip_play): pointers into the
       host's clips by the instance's numbers */
    vks_clip held[6];
    memset(held, 0, sizeof held);
    const vks_clip *list[6] = {&held[0], &held[1], &held[2], &held[3], &held[4], &held[5]};
    vks_clip_binding bound[6];
    memset(bound, 0, sizeof bound);
    vks_clip_play play;
    vks_clip_layers ly;
    CHECK(vks_instance_clip_play(&in, list, bound, 6, &play, &ly, &err) == VKS_OK);
    CHECK(ly.count == 3 && ly.root_motion == 2 && ly.fade_start == 2.0f && ly.fade_duration == 0.5f);
    CHECK(ly.layer[0].play.clip == &held[5] && ly.layer[0].play.binding == &bound[5] && ly.layer[0].weight == 0.7f &&
          ly.layer[0].play.cycle == VKS_CYCLE_MIRROR && !ly.layer[0].ref_clip && ly.layer[0].fade == VKS_FADE_OUT);
    CHECK(ly.layer[1].play.clip == &held[2] && ly.layer[1].mode == VKS_LAYER_ADDITIVE && ly.layer[1].mask == 2 &&
          ly.layer[1].ref_clip == &held[5] && ly.layer[1].ref_binding == &bound[5] && ly.layer[1].ref_time == 0.5f);
    CHECK(play.clip == &held[5] && play.binding == &bound[5]);
    list[5] = NULL; /* a clip the host did not load: refused, not followed */
    memset(&err, 0, sizeof err);
    CHECK(vks_instance_clip_play(&in, list, bound, 6, &play, &ly, &err) == VKS_ERR_INVALID);
    CHECK(vks_instance_clip_play(&in, list, bound, 6, &play, NULL, &err) == VKS_ERR_INVALID);
    list[5] = &held[5];
    CHECK(vks_crowd_spec_instance(s, 1, &b, &in, &err) == VKS_OK);
    CHECK(in.model == 0 && in.pose == VKS_POSE_CLIP && in.clip == 2 && in.clip_start == 0.25f &&
          in.clip_speed == 2.0f && in.clip_cycle == VKS_CYCLE_LOOP);
    CHECK(vks_instance_clip_play(&in, list, bound, 6, &play, &ly, &err) == VKS_OK);
    CHECK(play.clip == &held[2] && play.binding == &bound[2] && play.start == 0.25f && play.speed == 2.0f &&
          play.cycle == VKS_CYCLE_LOOP && ly.count == 0);
    CHECK(vks_instance_clip_play(&in, list, bound, 2, &play, &ly, &err) == VKS_ERR_INVALID); /* past the list */
    CHECK(vks_crowd_spec_instance(s, 2, &b, &in, &err) == VKS_OK);
    CHECK(in.model == 1 && in.pose == VKS_POSE_BIND && in.root.m[9] == 3.0f);
    CHECK(vks_instance_clip_play(&in, list, bound, 6, &play, NULL, &err) == VKS_OK && play.clip == NULL);
    memset(&err, 0, sizeof err);
    CHECK(vks_crowd_spec_instance(s, 3, &b, &in, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "crowds/c.json: instances[3]") && strstr(err.msg, "no node \"Tail\""));
    CHECK(strstr(err.msg, "instances[3]: layer 1: mask: the model m.dff has no node") != NULL);
    const int32_t unloaded[2] = {5, -1};
    b.clips = unloaded;
    memset(&err, 0, sizeof err);
    CHECK(vks_crowd_spec_instance(s, 1, &b, &in, &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "instances[1]") && strstr(err.msg, "not loaded"));
    memset(&err, 0, sizeof err);
    CHECK(vks_crowd_spec_instance(s, 4, &b, &in, &err) == VKS_ERR_INVALID);
    vks_crowd_spec_free(s);
}

int main(void)
{
    test_json();
    test_csv();
    test_layers();
    test_root_yaw();
    test_instances();
    test_reference();
    test_bad();
    test_prefixes();
    test_allocator();
    return vks_test_finish("test_crowd_file");
}
