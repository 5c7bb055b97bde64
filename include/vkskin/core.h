/* vkskin core: results, errors, allocator, affine math.
 *
 * STEP BY STEP
 *   vks_error err = {0};
 *   if (vks_rw_read(&opt, bytes, size, &skin, &err) != VKS_OK)
 *       fprintf(stderr, "%s\n", vks_error_format(&err, "hero.dff", buf, sizeof buf));
 *
 * Conventions (DESIGN.md section 4): column vectors, matrices column-major in memory,
 * radians, float32 storage. An affine transform is 3x4: four columns of three floats
 * (x axis, y axis, z axis, translation), so p' = c0*x + c1*y + c2*z + c3.
 *
 * THREADS
 *   Everything here is reentrant and keeps no global state: results, errors (each vks_error is
 *   the caller's) and the math may be used from any number of threads. The logger and
 *   allocator callbacks a host installs are called on the threads that call the library (and
 *   a GPU context's logger on the driver's): make them thread-safe when vkskin runs on several.
 */
#ifndef VKSKIN_CORE_H
#define VKSKIN_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vks_result {
    VKS_OK = 0,
    VKS_ERR_TRUNCATED,   /* the bytes end before a structure does */
    VKS_ERR_FORMAT,      /* bytes present but not what the format allows */
    VKS_ERR_UNSUPPORTED, /* valid for the format, outside what vkskin reads (native geometry, a version) */
    VKS_ERR_LIMIT,       /* a count over a configured limit (hostile or absurd input) */
    VKS_ERR_NOMEM,       /* an allocation failed */
    VKS_ERR_IO,          /* a file could not be read or written */
    VKS_ERR_INVALID,     /* a caller contract or a model cross-check failed */
    VKS_ERR_VULKAN,      /* the Vulkan driver returned an error */
    VKS_ERR_NO_DEVICE    /* no Vulkan device (callers map this to exit 77 in tests) */
} vks_result;

/* The result's name as text ("VKS_OK", "VKS_ERR_FORMAT", ...), for messages and logs. */
VKS_API const char *vks_result_str(vks_result r);

/* Where and why something failed. offset is the byte offset in the input (UINT64_MAX when it
 * does not apply); path is the structure path ("clump/geometry[2]/skin"); msg says what was
 * expected and what was found. file is set when the failure lies in another file than the
 * input being read (a P3D's model.cfg): its name, with line its 1-based line (0: unknown);
 * the path then is a path inside that file and offset is UINT64_MAX. */
typedef struct vks_error {
    vks_result code;
    uint64_t offset;
    char path[128];
    char msg[192];
    char file[160];
    uint32_t line;
} vks_error;

#define VKS_NO_OFFSET UINT64_MAX

/* Records the first failure only (later calls keep the original cause), as one about the
 * input (file and line cleared). err may be NULL.
 * Returns code so callers can `return vks_error_set(...)`. */
VKS_API vks_result vks_error_set(vks_error *err, vks_result code, uint64_t offset, const char *path,
                         const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* "file:0x1a2c: path: msg (result)" into buf; returns buf. file (the input's name) may be NULL.
 * An error about another file names that one and its line instead of file and offset:
 * "tube.model.cfg:4: CfgSkeletons/Default: entry name expected (format error)". */
VKS_API const char *vks_error_format(const vks_error *err, const char *file, char *buf, size_t size);

/* Allocator: zeroed means malloc/free. */
typedef struct vks_allocator {
    void *(*alloc)(void *user, size_t size);
    void (*free)(void *user, void *ptr);
    void *user;
} vks_allocator;

/* a with malloc/free filled in where it has no alloc or no free (a may be NULL). */
VKS_API vks_allocator vks_allocator_or_default(const vks_allocator *a);

/* Logger (sokol style): where the library's notes and warnings go. Zeroed means silent: a
 * library prints nothing unless its host asks (errors still come back as vks_error). The
 * message has no trailing newline and no "vkskin:" prefix; it is valid during the call only.
 * func may be called from any thread that calls the library (and, for GPU validation
 * messages, from the driver's thread): make it thread-safe when the host runs vkskin on
 * several threads. */
typedef enum vks_log_level {
    VKS_LOG_ERROR = 0,   /* a failure the host may want to show (validation-layer errors) */
    VKS_LOG_WARNING = 1, /* something suspicious that did not stop the call */
    VKS_LOG_INFO = 2     /* a note: which skeleton config was used, and the like */
} vks_log_level;

typedef struct vks_logger {
    void (*func)(void *user, vks_log_level level, const char *msg);
    void *user;
} vks_logger;

/* Prints "vkskin: <msg>" on stderr, whatever the level (messages say what they are: "validation
 * error: ..."): the logger the CLI installs, for hosts that want its output. user is ignored. */
VKS_API void vks_log_stderr(void *user, vks_log_level level, const char *msg);

/* ---- affine math (float storage) ---- */
typedef struct vks_affine {
    float m[12]; /* column-major 3x4: m[0..2] x axis, m[3..5] y axis, m[6..8] z axis, m[9..11] translation */
} vks_affine;

typedef struct vks_affine_d {
    double m[12]; /* same layout in double, for the CPU reference */
} vks_affine_d;

/* The identity transform. */
VKS_API vks_affine vks_affine_identity(void);
/* a * b (apply b first). */
VKS_API vks_affine vks_affine_mul(const vks_affine *a, const vks_affine *b);
/* General 3x3 inverse plus translation; returns 0 when singular (|det| tiny), out then identity. */
VKS_API int vks_affine_inverse(const vks_affine *a, vks_affine *out);
VKS_API void vks_affine_apply(const vks_affine *a, const float p[3], float out[3]);
/* T * R(q) * S with q = (x, y, z, w), normalised here. */
VKS_API vks_affine vks_affine_from_trs(const float t[3], const float q[4], const float s[3]);
/* Splits the 3x3 of a into per-axis scale s and an orthonormal rotation given as its columns
 * cols[k][i] (no shear; a reflection is carried by a negative x scale). */
VKS_API void vks_affine_split_scale(const vks_affine *a, double cols[3][3], float s[3]);
/* Best-effort decomposition into translation, rotation (x,y,z,w) and per-axis scale (no shear). */
VKS_API void vks_affine_to_trs(const vks_affine *a, float t[3], float q[4], float s[3]);
VKS_API int vks_affine_is_finite(const vks_affine *a);

/* The same transform in double (each entry widened exactly). */
VKS_API vks_affine_d vks_affine_d_from(const vks_affine *a);
/* The identity transform in double. */
VKS_API vks_affine_d vks_affine_d_identity(void);
/* a * b in double (apply b first), the CPU reference's composition. */
VKS_API vks_affine_d vks_affine_d_mul(const vks_affine_d *a, const vks_affine_d *b);
/* The inverse of a into out; 0 (out unchanged) when a is singular or not finite. */
VKS_API int vks_affine_d_inverse(const vks_affine_d *a, vks_affine_d *out);
/* Largest |a - b| over the 12 entries. */
VKS_API double vks_affine_d_max_diff(const vks_affine_d *a, const vks_affine_d *b);

#ifdef __cplusplus
}
#endif
#endif
