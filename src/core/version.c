/* The version of the library as built (version.h), and whether it has the GPU engine. */
#include "vkskin/version.h"

uint32_t vks_version(void)
{
    return VKSKIN_VERSION;
}

const char *vks_version_string(void)
{
    return VKSKIN_VERSION_STRING;
}

int vks_has_gpu(void)
{
    /* Set by CMake from the VKSKIN_GPU option for the library's own sources only. */
#if defined(VKSKIN_GPU_ENABLED) && VKSKIN_GPU_ENABLED
    return 1;
#else
    return 0;
#endif
}
