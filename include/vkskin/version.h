/* vkskin version: the version of the headers (macros) and of the library linked (functions).
 *
 * STEP BY STEP
 *   if (vks_version() >> 8 != VKSKIN_VERSION >> 8) ...   // built against other headers than
 *                                                        // the library loaded (0.x: a new minor
 *                                                        // version may change the ABI)
 *   printf("vkskin %s%s\n", vks_version_string(), vks_has_gpu() ? "" : " (no GPU)");
 *
 * One source of truth: the three numbers below. CMake reads them for project(VERSION), the
 * package version file (find_package(vkskin 0.1 CONFIG)) and vkskin.pc, so they change here
 * and nowhere else. Versions compare as integers: VKSKIN_MAKE_VERSION(0, 1, 0) == 0x000100.
 * Compatibility: before 1.0 the same major and minor version is compatible; from 1.0 the same
 * major version (the CMake version file says the same).
 *
 * THREADS
 *   Constant data: safe from any thread.
 */
#ifndef VKSKIN_VERSION_H
#define VKSKIN_VERSION_H

#include <stdint.h>

#include "api.h"

#define VKSKIN_VERSION_MAJOR 0
#define VKSKIN_VERSION_MINOR 8
#define VKSKIN_VERSION_PATCH 0

#define VKSKIN_MAKE_VERSION(major, minor, patch) \
    ((uint32_t)(major) << 16 | (uint32_t)(minor) << 8 | (uint32_t)(patch))
#define VKSKIN_VERSION \
    VKSKIN_MAKE_VERSION(VKSKIN_VERSION_MAJOR, VKSKIN_VERSION_MINOR, VKSKIN_VERSION_PATCH)

#define VKS__VERSION_STR2(x) #x
#define VKS__VERSION_STR(x) VKS__VERSION_STR2(x)
/* "0.1.0" */
#define VKSKIN_VERSION_STRING                                                  \
    VKS__VERSION_STR(VKSKIN_VERSION_MAJOR) "." VKS__VERSION_STR(VKSKIN_VERSION_MINOR) "." \
    VKS__VERSION_STR(VKSKIN_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library linked, as VKSKIN_MAKE_VERSION: major << 16 | minor << 8 | patch.
 * Differs from VKSKIN_VERSION when a program runs with another shared library than the one
 * it was compiled against. Thread-safe, O(1). */
VKS_API uint32_t vks_version(void);
/* The same as "major.minor.patch" (static storage). */
VKS_API const char *vks_version_string(void);
/* 1 when the library was built with the GPU engine (CMake option VKSKIN_GPU, the default);
 * 0 when built with -DVKSKIN_GPU=OFF: every function of gpu.h then exists but fails with
 * VKS_ERR_NO_DEVICE ("vkskin was built without GPU support"), exactly as on a machine without
 * a Vulkan device, so a host needs no #ifdef to handle both. */
VKS_API int vks_has_gpu(void);

#ifdef __cplusplus
}
#endif
#endif
