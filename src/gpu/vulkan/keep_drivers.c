/* Sanitizer builds only: keep the Vulkan drivers the loader opened resident until the process
 * exits. The loader dlcloses an ICD when its last instance is destroyed; whatever the driver
 * still holds then (lavapipe keeps one 128-byte block from its start-up) is reported by
 * LeakSanitizer from "<unknown module>", which no suppression can name, and every GPU test
 * fails on the driver's leak instead of ours. Pinned with RTLD_NODELETE, a driver's blocks stay
 * reachable or attributable to it (tests/lsan.supp), and vkskin's own leaks are still reported.
 * Release builds compile this to nothing. */
#ifdef VKSKIN_KEEP_DRIVERS_LOADED
#define _GNU_SOURCE 1 /* dl_iterate_phdr, RTLD_NOLOAD, RTLD_NODELETE */
#endif
#include "gpu_internal.h"

#ifdef VKSKIN_KEEP_DRIVERS_LOADED
#include <dlfcn.h>
#include <link.h>
#include <string.h>

static int pin(struct dl_phdr_info *info, size_t size, void *user)
{
    (void)size, (void)user;
    const char *name = info->dlpi_name, *base = name ? strrchr(name, '/') : NULL;
    base = base ? base + 1 : name;
    /* ICDs are named libvulkan_<driver>.so by Mesa's convention; the loader itself stays */
    if (base && !strncmp(base, "libvulkan_", 10))
        dlopen(name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

void vks__keep_drivers_loaded(void)
{
    dl_iterate_phdr(pin, NULL);
}
#else
void vks__keep_drivers_loaded(void)
{
}
#endif
