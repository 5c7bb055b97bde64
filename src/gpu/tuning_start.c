/* See tuning_start.h. */
#include "tuning_start.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int env_on(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

int vks__tuning_pretend_unknown(void)
{
    return env_on("VKSKIN_TEST_UNKNOWN_DEVICE");
}

int vks__override_split(const char *spec, char *context, char *small, size_t n)
{
    context[0] = small[0] = '\0';
    const char *p = spec ? spec : "";
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int is_small = len > 6 && strncmp(p, "small.", 6) == 0;
        char *to = is_small ? small : context;
        size_t at = strlen(to), take = is_small ? len - 6 : len;
        if (at + take + 2 > n)
            return 0;
        snprintf(to + at, n - at, "%s%.*s", at ? "," : "", (int)take, is_small ? p + 6 : p);
        if (!end)
            break;
        if (end[1] == '\0' || len == 0) { /* a comma at either end, or two together: refused whole */
            snprintf(context, n, "%s", spec);
            small[0] = '\0';
            return 1;
        }
        p = end + 1;
    }
    return 1;
}

int vks__shape_choose(const vks__device_facts *f, const char *cache_dir, const vks__cache_key *key, int shared_palette,
                      const char *override, vks__shape_choice *c)
{
    memset(c, 0, sizeof *c);
    char mine[512], small[512];
    if (override && !vks__override_split(override, mine, small, sizeof mine)) {
        snprintf(c->refused, sizeof c->refused, "launch shape: '%.400s' is too long", override);
        return 0;
    }
    vks__launch_shape s = vks__tuning_pick(f);
    if (vks__tuning_pretend_unknown() && s.known) {
        s.known = 0;
        s.reason = "the table's row, told it does not know this device (VKSKIN_TEST_UNKNOWN_DEVICE, testing)";
    }
    if (cache_dir && cache_dir[0]) {
        char stored[128], why[512];
        double rate = 0;
        int got = vks__cache_read_shape(cache_dir, key, stored, sizeof stored, &rate, why, sizeof why);
        vks__launch_shape m = s;
        if (got < 0) {
            snprintf(c->warning, sizeof c->warning, "%s", why);
        } else if (got > 0 && vks__launch_shape_apply(stored, f, &m, why, sizeof why)) {
            s = m;
            s.source = "cache";
            s.reason = "measured on this device and driver by an earlier calibration (vkskin tune, or at first use)";
        } else if (got > 0) {
            snprintf(c->warning, sizeof c->warning, "the cached launch shape '%s' is ignored: %s", stored, why);
        }
    }
    c->shape = s;
    if (shared_palette != 0 && !vks__launch_shape_apply(shared_palette > 0 ? "palette=on" : "palette=off", f,
                                                        &c->shape, c->refused, sizeof c->refused))
        return 0;
    /* the small-model class's keys are its own (vks__small_shape_choose); checked here too, so a
       bad one is refused when the context is made, as the context's are */
    vks__launch_shape trial = c->shape;
    if (override && small[0] && !vks__launch_shape_apply(small, f, &trial, c->refused, sizeof c->refused))
        return 0;
    return !override || !mine[0] || vks__launch_shape_apply(mine, f, &c->shape, c->refused, sizeof c->refused);
}

/* The class's own choice, before the override's small.* keys. */
static vks__launch_shape small_unforced(const vks__device_facts *f, const char *cache_dir, const vks__cache_key *key,
                                        const vks__launch_shape *ctx, char *warning, size_t n)
{
    if (ctx->source && strcmp(ctx->source, "forced") == 0)
        return *ctx;
    vks__launch_shape s = *ctx;
    s.source = "table";
    s.known = ctx->small_known && !vks__tuning_pretend_unknown();
    s.reason = s.known ? "the table's row, which holds for small models on this kind of device"
                       : "the table's row, measured on larger models: the small-model class calibrates at first use";
    vks__cache_key k = *key;
    k.size_class = 1;
    char stored[128], why[512];
    int got = cache_dir && cache_dir[0] ? vks__cache_read_shape(cache_dir, &k, stored, sizeof stored, NULL, why,
                                                                sizeof why)
                                        : 0;
    vks__launch_shape m = s;
    if (got < 0) {
        snprintf(warning, n, "%s", why);
    } else if (got > 0 && vks__launch_shape_apply(stored, f, &m, why, sizeof why)) {
        s = m;
        s.source = "cache";
        s.reason = "measured for small models on this device and driver by an earlier calibration at first use";
    } else if (got > 0) {
        snprintf(warning, n, "the cached small-model launch shape '%s' is ignored: %s", stored, why);
    }
    return s;
}

vks__launch_shape vks__small_shape_choose(const vks__device_facts *f, const char *cache_dir, const vks__cache_key *key,
                                          const vks__launch_shape *ctx, const char *override, char *warning, size_t n)
{
    warning[0] = '\0';
    vks__launch_shape s = small_unforced(f, cache_dir, key, ctx, warning, n);
    char mine[512], small[512], why[256];
    if (override && vks__override_split(override, mine, small, sizeof mine) && small[0] &&
        vks__launch_shape_apply(small, f, &s, why, sizeof why)) /* refused at the context's choice */
        s.reason = "forced by a launch-shape override (small.KEY)";
    s.pose_wg = ctx->pose_wg, s.pose_nodes = ctx->pose_nodes; /* the class changes the deform pass only */
    return s;
}

int vks__calibration_wanted(const vks__launch_shape *s, int option)
{
    return !s->known && s->source && strcmp(s->source, "table") == 0 && option >= 0 &&
           !env_on("VKSKIN_NO_CALIBRATE");
}

uint64_t vks__calibration_cost(uint32_t candidates, uint32_t vertices)
{
    return (uint64_t)candidates * (VKS__CALIBRATION_REPEATS + 1) * VKS__CALIBRATION_INSTANCES * vertices;
}

uint64_t vks__small_calibration_cost(uint32_t candidates, uint32_t vertices)
{
    return (uint64_t)candidates * (VKS__CALIBRATION_REPEATS + 1) * vks__small_calibration_instances(vertices) *
           vertices;
}

uint64_t vks__calibration_threshold(uint64_t calibration_vi)
{
    const char *test = getenv("VKSKIN_TEST_CALIBRATE_OVER");
    if (test && *test) {
        char *end = NULL;
        unsigned long long v = strtoull(test, &end, 10);
        if (end && *end == '\0')
            return (uint64_t)v;
    }
    uint64_t t = calibration_vi > UINT64_MAX / VKS__CALIBRATION_PAYBACK ? UINT64_MAX
                                                                         : calibration_vi * VKS__CALIBRATION_PAYBACK;
    return t > VKS__CALIBRATION_FLOOR ? t : VKS__CALIBRATION_FLOOR;
}

uint64_t vks__crowd_work(uint64_t per_frame, uint32_t frames)
{
    uint64_t f = frames ? frames : VKS__CROWD_ASSUMED_FRAMES;
    return per_frame > UINT64_MAX / f ? UINT64_MAX : per_frame * f;
}
