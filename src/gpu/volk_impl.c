/* volk's loader, compiled once into the library (Debian's libvulkan-volk-dev ships volk.c).
 * Nothing links libvulkan: volkInitialize() opens the loader at run time, so a machine
 * without Vulkan still runs every CPU command. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#include <volk.c>
