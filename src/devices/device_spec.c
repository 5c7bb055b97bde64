/* The rules of a --device value (devices.h): a number, a name (which may hold commas), "all",
 * or numbers with commas; the CLI and hosts with a --device option of their own share them. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "vkskin/devices.h"

/* "0,1,1": numbers and commas only, at least one comma. */
static int is_number_list(const char *s)
{
    int commas = 0, digits = 0;
    for (const char *p = s; *p; p++) {
        if (*p == ',') {
            if (!digits)
                return 0;
            commas++, digits = 0;
        } else if (*p >= '0' && *p <= '9') {
            digits++;
        } else {
            return 0;
        }
    }
    return commas && digits;
}

int vks_device_spec_is_list(const char *spec)
{
    return spec && (!strcmp(spec, "all") || is_number_list(spec));
}

/* A device number: digits only (anything else names a device). 1 with *index; 0 for a name;
 * -1 for a number past the library's int index, which strtol once wrapped (4294967296 to
 * device 0, 4294967295 to -1). */
static int device_number(const char *s, size_t len, int *index)
{
    long long n = 0;
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        if (n <= INT_MAX)
            n = n * 10 + (s[i] - '0');
    }
    if (n > INT_MAX)
        return -1;
    *index = (int)n;
    return 1;
}

static vks_result out_of_range(const char *p, size_t n, vks_error *err)
{
    return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "--device",
                         "device %.*s is out of range (devices are numbered from 0: see vkskin devices)", (int)n, p);
}

vks_result vks_device_spec_check(const char *spec, vks_error *err)
{
    if (!spec)
        return VKS_OK;
    int index, list = is_number_list(spec);
    const char *p = spec;
    do {
        size_t n = list ? strcspn(p, ",") : strlen(p);
        if (device_number(p, n, &index) < 0)
            return out_of_range(p, n, err);
        p += n;
        p += *p == ',';
    } while (list && *p);
    return VKS_OK;
}

void vks_device_spec_apply(const char *spec, vks_gpu_options *opt)
{
    int index;
    if (!spec || !opt)
        return;
    if (device_number(spec, strlen(spec), &index) > 0)
        opt->use_device_index = 1, opt->device_index = index, opt->device_name = NULL;
    else
        opt->device_name = spec; /* a name (a number out of range: vks_device_spec_check) */
}

/* "all": every device with compute. */
static vks_result all_devices(uint32_t *indices, uint32_t cap, uint32_t *count, vks_error *err)
{
    vks_gpu_device_info info[VKS_DEVICES_MAX];
    uint32_t n = 0;
    vks_result r = vks_gpu_list_devices(info, VKS_DEVICES_MAX, &n, err);
    if (r != VKS_OK)
        return r;
    for (uint32_t i = 0; i < n && i < VKS_DEVICES_MAX && *count < cap; i++)
        if (info[i].has_compute)
            indices[(*count)++] = i;
    if (!*count)
        return vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan", "no Vulkan device with compute");
    return VKS_OK;
}

vks_result vks_device_spec_split(const char *spec, uint32_t *indices, uint32_t cap, uint32_t *count, vks_error *err)
{
    *count = 0;
    if (cap > VKS_DEVICES_MAX)
        cap = VKS_DEVICES_MAX;
    if (!vks_device_spec_is_list(spec))
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "--device",
                             "'%s' names one device, not a list (all, or N,M,...)", spec ? spec : "(none)");
    if (!strcmp(spec, "all"))
        return all_devices(indices, cap, count, err);
    for (const char *p = spec; *p;) {
        size_t n = strcspn(p, ",");
        int index = 0;
        /* 15 digits: what the CLI's device strings always held */
        if (*count == cap || n >= 16)
            return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "--device",
                                 "at most %u devices of numbers up to 15 digits", cap);
        if (device_number(p, n, &index) < 0)
            return out_of_range(p, n, err);
        indices[(*count)++] = (uint32_t)index;
        p += n + (p[n] == ',');
    }
    return VKS_OK;
}
