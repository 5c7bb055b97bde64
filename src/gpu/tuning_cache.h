/* The cache of measured launch shapes and compiled pipelines: one folder
 * ($XDG_CACHE_HOME/vkskin, else $HOME/.cache/vkskin, or vks_gpu_options.cache_dir), never
 * required: an absent, unreadable or read-only folder only costs the measurement and the
 * compile again. Entries are keyed by device (vendor, device id, the driver's pipeline-cache
 * UUID), driver version and vkskin version, checked when read, and written to a temporary name
 * and renamed, so parallel processes never see half a file. The folder is trusted no further
 * than its user: one that another user owns or that its group or others may write is not used,
 * entries are read only when they are regular files (no symlink followed, no FIFO waited on)
 * and temporaries are created new, never through a link. File I/O only, no Vulkan call. */
#ifndef VKS_GPU_TUNING_CACHE_H
#define VKS_GPU_TUNING_CACHE_H

#include <stddef.h>
#include <stdint.h>

typedef struct vks__cache_key {
    uint32_t vendor_id, device_id, driver_version;
    uint8_t uuid[16]; /* VkPhysicalDeviceProperties.pipelineCacheUUID */
    const char *vkskin_version;
    uint32_t size_class; /* 0: the context's shape (launch-shape.txt); 1: the small-model class's
                            (launch-shape-small.txt; tuning.h: VKS__SMALL_MODEL_VERTICES) */
} vks__cache_key;

/* The entry a launch shape of key's size class is stored in ("launch-shape.txt" or
 * "launch-shape-small.txt"). */
const char *vks__cache_shape_entry(const vks__cache_key *key);

/* The cache folder for an option value: NULL the default, "" none (returns 0). 1 with the
 * folder in out[n]. */
int vks__cache_dir(const char *option, char *out, size_t n);

/* The path of one kind of entry ("launch-shape.txt", "pipelines.bin") for key in dir. */
void vks__cache_path(const char *dir, const vks__cache_key *key, const char *kind, char *out, size_t n);

/* Reads a stored launch shape for key: 1 with the shape's override text in shape[n] (and its
 * measured rate, vertex-instances per second, in *rate when not NULL); 0 when there is none or
 * it is for another device, driver or vkskin version; -1 when the file is there but corrupt
 * (why[wn] says what), so the caller can warn. */
int vks__cache_read_shape(const char *dir, const vks__cache_key *key, char *shape, size_t n, double *rate,
                          char *why, size_t wn);

/* Stores a launch shape for key (folder made if need be). 1 on success; 0 with why[wn]. */
int vks__cache_write_shape(const char *dir, const vks__cache_key *key, const char *shape, double rate, char *why,
                           size_t wn);

/* Whether the folder dir may be used: 1 when it does not exist (it is made 0700 when first
 * written) or is a folder that the process's effective user owns and that neither its group
 * nor others may write; 0 with why[wn] saying which otherwise. Whoever can write the cache
 * chooses every later run's launch shape and compiled pipelines, and plants files there. */
int vks__cache_dir_trusted(const char *dir, char *why, size_t wn);
/* vks__cache_dir for option, then vks__cache_dir_trusted: 1 with the folder in out[n]; 0 with
 * out[0] = 0 when there is none or it is not trusted (why[wn] then says why, the first time in
 * the process only: callers warn when why[0] is set, and every context runs without a cache). */
int vks__cache_dir_usable(const char *option, char *out, size_t n, char *why, size_t wn);

/* Whole-file read of at most max bytes (NULL when absent, unreadable or larger); the caller
 * frees. The entry is opened without following a symlink and without waiting on a FIFO; a
 * name that is not a regular file is skipped with why[wn] saying so (why is untouched when
 * the entry is merely absent). */
void *vks__cache_read_blob(const char *path, size_t max, size_t *size, char *why, size_t wn);
/* Temporary-and-rename write of a blob, making the folder; the temporary is created new
 * (O_EXCL, O_NOFOLLOW, mode 0644), never through a planted link, and nothing is written into a
 * folder vks__cache_dir_trusted refuses. 1 on success; 0 with errno. */
int vks__cache_write_blob(const char *dir, const char *path, const void *data, size_t size);

#endif
