/* vkskin export macro. VKS_API marks every function of the public headers; everything else in
 * the library is compiled with hidden visibility, so the shared library exports vks_* names
 * only (no vks__ internals, no volk vk* pointers that would clash with the host's Vulkan loader)
 * and the static library, prelinked into one object, keeps only the same names global.
 *
 * A host may define VKS_API itself before including vkskin.h (e.g. empty, to compile the
 * sources into its own program). On Windows, define VKSKIN_SHARED when using the DLL; the
 * build defines VKSKIN_BUILDING.
 */
#ifndef VKSKIN_API_H
#define VKSKIN_API_H

#ifndef VKS_API
#if defined(_WIN32) && defined(VKSKIN_SHARED)
#ifdef VKSKIN_BUILDING
#define VKS_API __declspec(dllexport)
#else
#define VKS_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define VKS_API __attribute__((visibility("default")))
#else
#define VKS_API
#endif
#endif

#endif
