/* What every package consumer does with an installed (or add_subdirectory) libvkskin, through
 * the public headers only: the header and library versions agree, and each model given reads,
 * validates, reproduces its bind pose and deforms on the CPU reference under a pose file.
 * Between them the models reach expat (.cmdl), cJSON (the pose file) and the format readers,
 * so a link line missing a private dependency of the static library fails to link. */
#include "consumer_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vkskin.h>

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
            if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
                free(buf);
                buf = NULL;
            } else {
                *size = (size_t)n;
            }
        }
    }
    fclose(f);
    return buf;
}

static int check_model(const char *path)
{
    char msg[512];
    vks_error err = {0};
    size_t size = 0;
    char *bytes = slurp(path, &size);
    if (!bytes) {
        fprintf(stderr, "consumer: cannot read %s\n", path);
        return 1;
    }
    vks_skin *skin = NULL;
    vks_result r = vks_read_any(NULL, bytes, size, path, &skin, &err);
    free(bytes);
    if (r == VKS_OK)
        r = vks_skin_validate(skin, &err);
    if (r != VKS_OK) {
        fprintf(stderr, "consumer: %s\n", vks_error_format(&err, path, msg, sizeof msg));
        vks_skin_free(skin);
        return 1;
    }
    vks_bind_check bind;
    if (vks_cpu_bind_check(skin, &bind, &err) != VKS_OK || !bind.pass) {
        fprintf(stderr, "consumer: %s: bind-pose check failed\n", path);
        vks_skin_free(skin);
        return 1;
    }

    /* One frame from a pose file: node 1 moved, the rest at bind. */
    const char *json = "{\"nodes\": [{\"index\": 1, \"translation\": [0.1, 0.2, 0.3]}]}";
    vks_pose_set set = {0};
    int fail = 0;
    if (vks_pose_file_parse(skin, json, strlen(json), &set, &err) != VKS_OK) {
        fprintf(stderr, "consumer: %s: pose file: %s\n", path, vks_error_format(&err, NULL, msg, sizeof msg));
        fail = 1;
    }
    float *pos = fail ? NULL : malloc((size_t)skin->vertex_count * 3 * sizeof *pos);
    if (!fail && pos) {
        vks_deform_job job = {0};
        job.skin = skin;
        job.locals = set.locals;
        job.instance_count = 1;
        job.positions = pos;
        if (vks_cpu_reference_run(&job, &err) != VKS_OK) {
            fprintf(stderr, "consumer: %s: deform: %s\n", path, vks_error_format(&err, NULL, msg, sizeof msg));
            fail = 1;
        }
        for (size_t i = 0; !fail && i < (size_t)skin->vertex_count * 3; i++)
            if (!isfinite(pos[i])) {
                fprintf(stderr, "consumer: %s: deformed vertex %zu not finite\n", path, i / 3);
                fail = 1;
            }
        if (!fail)
            printf("consumer: %s (%s): %u vertices, %u bones, bind error %.3g, posed vertex 0 (%g, %g, %g)\n",
                   path, skin->format, skin->vertex_count, skin->bone_count, bind.max_error,
                   pos[0], pos[1], pos[2]);
    } else if (!fail) {
        fail = 1;
    }
    free(pos);
    vks_pose_set_free(&set);
    vks_skin_free(skin);
    return fail;
}

int consumer_run(int argc, char **argv, const char *expected_version)
{
    int fail = 0;
    printf("consumer: vkskin %s (headers %s), GPU engine: %s\n", vks_version_string(),
           VKSKIN_VERSION_STRING, vks_has_gpu() ? "yes" : "no");
    if (vks_version() != VKSKIN_VERSION || strcmp(vks_version_string(), VKSKIN_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: library version %s != header version %s\n", vks_version_string(),
                VKSKIN_VERSION_STRING);
        fail = 1;
    }
    if (vks_version() != VKSKIN_MAKE_VERSION(VKSKIN_VERSION_MAJOR, VKSKIN_VERSION_MINOR, VKSKIN_VERSION_PATCH)) {
        fprintf(stderr, "consumer: vks_version() 0x%06x is not major << 16 | minor << 8 | patch\n",
                (unsigned)vks_version());
        fail = 1;
    }
    if (expected_version && *expected_version && strcmp(expected_version, vks_version_string()) != 0) {
        fprintf(stderr, "consumer: the package says version %s, the library %s\n", expected_version,
                vks_version_string());
        fail = 1;
    }
    for (int i = 1; i < argc; i++)
        fail |= check_model(argv[i]);
    return fail;
}
