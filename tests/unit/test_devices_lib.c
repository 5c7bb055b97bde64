/* devices.h as a host calls it: the --device rules (lists, names with commas, numbers past an
 * int refused), the tune report's table from a result made by hand (the winner marked, the
 * rates relative to it, where it was stored), and, where there is a Vulkan device, the list
 * against gpu.h's own calls (the default device is the one a zeroed context opens, each launch
 * shape the one a context starts with) and its text and JSON against the list. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "vkskin.h"

static void check_specs(void)
{
    CHECK(vks_device_spec_is_list("all"));
    CHECK(vks_device_spec_is_list("0,1,1"));
    CHECK(!vks_device_spec_is_list("0"));
    CHECK(!vks_device_spec_is_list("llvmpipe (LLVM 15.0.6, 256 bits)"));
    CHECK(!vks_device_spec_is_list("0,"));
    CHECK(!vks_device_spec_is_list(",1"));
    CHECK(!vks_device_spec_is_list(NULL));
    vks_error err = {0};
    CHECK(vks_device_spec_check("2147483647", &err) == VKS_OK);
    CHECK(vks_device_spec_check("llvmpipe (LLVM 15.0.6, 256 bits)", &err) == VKS_OK);
    CHECK(vks_device_spec_check("4294967296", &err) == VKS_ERR_INVALID); /* strtol once made it device 0 */
    CHECK(strstr(err.msg, "device 4294967296 is out of range") != NULL);
    err = (vks_error){0};
    CHECK(vks_device_spec_check("0,2147483648", &err) == VKS_ERR_INVALID);
    CHECK(strstr(err.msg, "device 2147483648 ") != NULL);

    vks_gpu_options o = {0};
    vks_device_spec_apply("3", &o);
    CHECK(o.use_device_index == 1 && o.device_index == 3 && o.device_name == NULL);
    vks_gpu_options named = {0};
    vks_device_spec_apply("llvmpipe (LLVM 15.0.6, 256 bits)", &named);
    CHECK(!named.use_device_index && named.device_name && !strcmp(named.device_name, "llvmpipe (LLVM 15.0.6, 256 bits)"));

    uint32_t idx[16], n = 99;
    CHECK(vks_device_spec_split("0,1,1", idx, 16, &n, &err) == VKS_OK);
    CHECK(n == 3 && idx[0] == 0 && idx[1] == 1 && idx[2] == 1);
    err = (vks_error){0};
    CHECK(vks_device_spec_split("0,1,2", idx, 2, &n, &err) == VKS_ERR_INVALID); /* past cap */
    CHECK(strstr(err.msg, "at most 2 devices") != NULL);
    err = (vks_error){0};
    CHECK(vks_device_spec_split("llvmpipe (LLVM 15.0.6, 256 bits)", idx, 16, &n, &err) == VKS_ERR_INVALID);
    CHECK(n == 0);
}

/* The text f held, malloc'd. */
static char *text_of(int (*write)(void *, FILE *), void *arg)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (!f)
        return NULL;
    CHECK(write(arg, f) == VKS_OK);
    fclose(f);
    return text;
}

typedef struct tune_args {
    vks_skin *skin;
    vks_gpu_tune_options *opt;
    vks_gpu_tune_result *r;
} tune_args;

static int write_tune(void *a, FILE *f)
{
    tune_args *t = a;
    return vks_gpu_tune_write_text(NULL, t->skin, t->opt, t->r, f, NULL);
}

static void check_tune_report(void)
{
    vks_skin skin = {0};
    skin.vertex_count = 1234;
    vks_gpu_tune_options opt = {NULL, 0, 10, 2, 0};
    vks_gpu_tune_result r = {0};
    r.count = 2, r.best = 1;
    snprintf(r.candidate[0].shape, sizeof r.candidate[0].shape, "wg=64");
    r.candidate[0].vertex_instances_per_second = 1e6, r.candidate[0].deform_ms = 2;
    snprintf(r.candidate[1].shape, sizeof r.candidate[1].shape, "wg=128");
    r.candidate[1].vertex_instances_per_second = 4e6, r.candidate[1].deform_ms = 0.5;
    tune_args a = {&skin, &opt, &r};
    char *text = text_of(write_tune, &a);
    CHECK(text && strstr(text, "workload: 1234 vertices x 10 instances, deform pass median of 2 runs\n"));
    CHECK(text && strstr(text, "  * wg=128 "));
    CHECK(text && strstr(text, "    wg=64 "));
    CHECK(text && strstr(text, "x0.25\n") && strstr(text, "x1.00\n"));
    CHECK(text && strstr(text, "chosen: wg=128\nnot stored (--no-store)\n"));
    free(text);
    r.stored = 1, opt.store = 1;
    snprintf(r.cache_path, sizeof r.cache_path, "cache/x-launch-shape.txt");
    text = text_of(write_tune, &a);
    CHECK(text && strstr(text, "stored in cache/x-launch-shape.txt: later runs"));
    free(text);
    char *json = vks_gpu_tune_json(NULL, &skin, &opt, &r);
    cJSON *j = json ? cJSON_Parse(json) : NULL;
    CHECK(j && cJSON_GetObjectItem(j, "chosen") && !strcmp(cJSON_GetObjectItem(j, "chosen")->valuestring, "wg=128"));
    CHECK(j && cJSON_GetArraySize(cJSON_GetObjectItem(j, "candidates")) == 2);
    cJSON_Delete(j);
    free(json);
}

static int write_list(void *l, FILE *f)
{
    return vks_device_list_write_text(l, f, NULL);
}

/* The list against gpu.h's calls and its text and JSON against the list. 0: no device. */
static int check_list(void)
{
    vks_device_list *l = malloc(sizeof *l);
    vks_error err = {0};
    vks_result r = l ? vks_device_list_get(NULL, l, &err) : VKS_ERR_NOMEM;
    if (r == VKS_ERR_NO_DEVICE) {
        free(l);
        return 0;
    }
    CHECK(r == VKS_OK && l->count > 0);
    if (r != VKS_OK) {
        free(l);
        return 1;
    }
    CHECK(l->default_index == vks_device_default(l->devices, l->count));
    vks_gpu *gpu = NULL;
    vks_gpu_options o = {0};
    CHECK(vks_gpu_create(&o, &gpu, &err) == VKS_OK); /* the default device is the one a zeroed context opens */
    if (gpu && l->default_index >= 0) {
        CHECK(!strcmp(vks_gpu_device(gpu)->name, l->devices[l->default_index].name));
        vks_gpu_shape_info s;
        vks_gpu_launch_shape(gpu, &s);
        CHECK((uint32_t)l->default_index < l->shape_count && !strcmp(s.text, l->shapes[l->default_index].text));
    }
    vks_gpu_destroy(gpu);
    char *text = text_of(write_list, l);
    char first[300];
    snprintf(first, sizeof first, "* %d: %s (", l->default_index, l->devices[l->default_index].name);
    const char *at = text ? strstr(text, first) : NULL; /* '*' marks the default, at a line's start */
    CHECK(at && (at == text || at[-1] == '\n'));
    CHECK(text && strstr(text, "     queue family 0: ") && strstr(text, "     launch shape: "));
    free(text);
    char *json = vks_device_list_json(l);
    cJSON *j = json ? cJSON_Parse(json) : NULL;
    CHECK(j && cJSON_IsArray(j) && cJSON_GetArraySize(j) == (int)l->count);
    for (uint32_t i = 0; j && i < l->count; i++) {
        cJSON *d = cJSON_GetArrayItem(j, (int)i);
        CHECK(!strcmp(cJSON_GetObjectItem(d, "name")->valuestring, l->devices[i].name));
        CHECK(cJSON_IsTrue(cJSON_GetObjectItem(d, "default")) == ((int)i == l->default_index));
    }
    cJSON_Delete(j);
    free(json);
    /* "all" is every device with compute, by number */
    uint32_t idx[16], n = 0;
    CHECK(vks_device_spec_split("all", idx, 16, &n, &err) == VKS_OK && n >= 1 && idx[0] < l->count);
    free(l);
    return 1;
}

int main(void)
{
    check_specs();
    check_tune_report();
    if (!check_list())
        printf("test_devices_lib: no Vulkan device: the list's checks skipped\n");
    return vks_test_finish("test_devices_lib");
}
