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

int vks__shape_choose(const vks__device_facts *f, const char *cache_dir, const vks__cache_key *key, int shared_palette,
                      const char *override, vks__shape_choice *c)
{
    memset(c, 0, sizeof *c);
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
    return !override || vks__launch_shape_apply(override, f, &c->shape, c->refused, sizeof c->refused);
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
