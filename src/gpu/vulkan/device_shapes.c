/* vks_gpu_list_launch_shapes: the launch shape a context would start with on each device, and
 * why (gpu.h), for `vkskin devices`: the same choice a context makes (tuning_start.h) from the
 * same facts and cache entry, without making a device or compiling anything. */
#include "gpu_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "gpu/tuning_start.h"

static void shape_of(const vks__instance_fns *f, VkPhysicalDevice pd, const vks_gpu_options *o, const char *dir,
                     vks_gpu_shape_info *out)
{
    vks_gpu_device_info d;
    vks__describe(f, pd, UINT32_MAX, &d);
    VkPhysicalDeviceProperties p;
    f->vkGetPhysicalDeviceProperties(pd, &p);
    vks__device_facts facts = vks__facts_of(&p, d.subgroup_size);
    vks__cache_key key = vks__cache_key_of(&p);
    vks__shape_choice c;
    int ok = vks__shape_choose(&facts, dir, &key, o->shared_palette, o->launch_shape, &c);
    if (c.warning[0])
        vks__log(&o->logger, VKS_LOG_WARNING, "%s", c.warning);
    const vks__launch_shape *s = &c.shape;
    memset(out, 0, sizeof *out);
    vks__shape_info_of(s, out);
    if (!ok) { /* vks_gpu_create would refuse the override on this device */
        out->source = "forced";
        out->reason = "refused: the launch-shape override cannot run on this device (the context is not made)";
        out->text[0] = '\0';
    }
    if (dir[0])
        vks__cache_path(dir, &key, "launch-shape.txt", out->cache_path, sizeof out->cache_path);
    out->calibrates_at_first_use = ok && d.timestamp_period_ns > 0 && vks__calibration_wanted(s, o->calibrate);
}

vks_result vks_gpu_list_launch_shapes(const vks_gpu_options *opt, vks_gpu_shape_info *out, uint32_t cap,
                                      uint32_t *count, vks_error *err)
{
    vks_gpu_options o = {0};
    if (opt)
        o = *opt;
    char dir[512], why[800] = "";
    if (!vks__cache_dir_usable(o.cache_dir, dir, sizeof dir, why, sizeof why) && why[0])
        vks__log(&o.logger, VKS_LOG_WARNING, "%s", why);
    VkInstance inst = VK_NULL_HANDLE;
    vks__instance_fns f;
    *count = 0;
    vks_result res = vks__make_instance(NULL, 0, &f, &inst, err);
    if (res != VKS_OK)
        return res;
    uint32_t n = 0;
    VkResult r = f.vkEnumeratePhysicalDevices(inst, &n, NULL);
    VkPhysicalDevice *pds = r == VK_SUCCESS && n ? calloc(n, sizeof *pds) : NULL;
    if (r != VK_SUCCESS)
        res = vks__vk_fail(err, r, "vkEnumeratePhysicalDevices");
    else if (n == 0)
        res = vks_error_set(err, VKS_ERR_NO_DEVICE, VKS_NO_OFFSET, "vulkan", "no Vulkan device found");
    else if (!pds)
        res = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "vulkan", "out of memory");
    else if ((r = f.vkEnumeratePhysicalDevices(inst, &n, pds)) != VK_SUCCESS && r != VK_INCOMPLETE)
        res = vks__vk_fail(err, r, "vkEnumeratePhysicalDevices");
    if (res == VKS_OK) {
        for (uint32_t i = 0; i < n && i < cap; i++)
            shape_of(&f, pds[i], &o, dir, &out[i]);
        *count = n;
    }
    free(pds);
    f.vkDestroyInstance(inst, NULL);
    return res;
}
