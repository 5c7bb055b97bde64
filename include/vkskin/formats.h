/* vkskin formats: one reader per file format, all with the same shape, and the writers the
 * project needs for its generated fixtures.
 *
 * STEP BY STEP
 *   vks_read_options opt = {0};                       // zeroed: defaults
 *   vks_skin *skin = NULL; vks_error err = {0};
 *   if (vks_read_any(&opt, bytes, size, "hero.dff", &skin, &err) != VKS_OK) ... report err
 *   ... vks_skin_free(skin);
 *
 * Readers take bytes and a length and never trust a count: each count is
 * checked against the bytes left (and the limits below) before anything is allocated.
 * *out is written only on success; a failing reader frees its partial result.
 * Format knowledge ends here: nothing after a reader asks which format a skin came from.
 * Only vks_read_file touches files, and only through the read options' file callbacks.
 *
 * THREADS
 *   Every call here is reentrant: readers, vks_read_file, detection and writers keep no
 *   global state, so any number may run at once on different threads (each with its own
 *   output; options and input bytes may be shared, read-only). The callbacks in the options
 *   (allocator, file, logger) are called on the calling thread and must be safe to call from
 *   every thread that reads at once.
 *
 * LOCALE
 *   Numbers in text (CMDL and CSKLA XML, P3D's LOD names and colour textures, crowd files,
 *   reports, vertex caches in CSV and OBJ) are read and written with '.', whatever the host
 *   set with setlocale(): the library switches the calling thread to the C locale's numbers
 *   for the call (uselocale) and back, and other threads keep theirs.
 */
#ifndef VKSKIN_FORMATS_H
#define VKSKIN_FORMATS_H

#include "skin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* File access for vks_read_file (cgltf_file_options style). read gets a whole file: on
 * success *bytes and *size hold it until release(user, *bytes). It must refuse a file larger
 * than max_size with VKS_ERR_LIMIT (before reading it where the size is known), and answer
 * VKS_ERR_IO for a file that cannot be opened (a P3D's model.cfg search goes on past those,
 * and stops at any other failure). err may be NULL; record the cause with vks_error_set.
 * Zeroed (read NULL): the library's own, vks_file_read_default over the read options'
 * allocator (release must then be NULL too). */
typedef struct vks_file_options {
    vks_result (*read)(void *user, const char *path, uint64_t max_size, void **bytes, size_t *size,
                       vks_error *err);
    void (*release)(void *user, void *bytes);
    void *user;
    uint64_t max_size; /* largest file read, model or config; also the most a compressed glTF
                          may decompress to (meshopt views and Draco primitives, all together);
                          default 2 GiB */
} vks_file_options;

/* The default read: the file system through open/read. A regular file over max_size is
 * refused by its size before a byte is read; anything else (a pipe, a device) is read until
 * it ends or passes max_size. A folder is VKS_ERR_IO. user: a const vks_allocator * for the
 * bytes (NULL: malloc); release with vks_file_release_default and the same user. */
VKS_API vks_result vks_file_read_default(void *user, const char *path, uint64_t max_size, void **bytes,
                                 size_t *size, vks_error *err);
VKS_API void vks_file_release_default(void *user, void *bytes);

typedef struct vks_read_options {
    vks_allocator allocator;   /* default: malloc/free */
    vks_file_options file;     /* vks_read_file's file access; default: the file system */
    vks_logger logger;         /* notes ("using skeleton config X"); default: silent */
    uint32_t max_vertices;     /* default: 1 << 24, over all meshes */
    uint32_t max_triangles;    /* default: 1 << 25 */
    uint32_t max_nodes;        /* default: 1 << 16 */
    uint32_t max_meshes;       /* default: 4096 */

    /* P3D only. */
    struct {
        const char *model_cfg;    /* model.cfg text (not a path); NULL: no config (vks_read_file:
                                     model_cfg_name, else the one vks_p3d_find_model_cfg finds) */
        size_t model_cfg_size;
        const char *model_cfg_name; /* the config's file name, for errors in it; default "model.cfg".
                                       vks_read_file without model_cfg: the config file to read
                                       (through file.read; a missing one is an error) */
        const char *model_name;   /* CfgModels class to use; default: the file's base name
                                     (vks_read_file: the model path's file name without extension) */
        const char *lod;          /* LOD to read ("1", "shadow", resolution text); default: first visual */
        const char *bones;        /* comma-separated bone selections when there is no skeleton */
        uint32_t bone_limit;      /* palette size per section; default 64 */
    } p3d;

    /* glTF only (model and clips). */
    struct {
        const char *path;         /* the .gltf's own path: relative buffer URIs are read from its
                                     folder through file.read; NULL: only data: URIs and a .glb's
                                     BIN chunk (vks_read_file sets it) */
        const char *root;         /* a folder external files may also lie in; NULL: only the
                                     .gltf's folder and those below it. A URI is decoded before it
                                     is judged; a scheme, an absolute path or a ".." above the
                                     allowed folders is refused, and so is a name that exists on
                                     the file system and leads out of them through a link */
    } gltf;

    /* Clip readers (clip_formats.h). */
    struct {
        float duration;           /* seconds, for formats that store none (RTM); <= 0: 1 s */
        float fps;                /* frames per second for frame-based formats that store none
                                     (pose JSON, .cskla); <= 0: 30 */
        uint32_t max_keys;        /* keys in one file over all tracks; default 1 << 24 */
        uint32_t max_clips;       /* clips in one file; default 65536 */
    } clip;
} vks_read_options;

/* Applies the defaults to a copy of opt (opt may be NULL). */
VKS_API vks_read_options vks_read_options_defaults(const vks_read_options *opt);

typedef vks_result (*vks_reader_fn)(const vks_read_options *opt, const void *bytes, size_t size,
                                    vks_skin **out, vks_error *err);

/* RenderWare .dff (RW 3.0-3.7 clumps): skinned and rigid atomics, HAnim, Skin PLG, morph targets. */
VKS_API vks_result vks_rw_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                       vks_error *err);
/* Gamebryo .nif (4.0.0.2 to 20.2.0.7, Bethesda): skinned and rigid shapes, skin partitions, morphs. */
VKS_API vks_result vks_nif_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err);
/* NintendoWare CTR .cmdl (XML): smooth, rigid and unskinned primitive sets. */
VKS_API vks_result vks_cmdl_read(const vks_read_options *opt, const void *bytes, size_t size,
                         vks_skin **out, vks_error *err);
/* Bohemia .p3d (MLOD, ODOL) with the model.cfg that opt names or finds beside it. */
VKS_API vks_result vks_p3d_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err);
/* glTF 2.0, .gltf (JSON; external buffers through opt->gltf.path and opt->file) or .glb: every
 * skinned mesh node of the scene, one mesh per primitive; skin space is the scene root's (the
 * mesh node's own transform is ignored, as the specification says). Compressed geometry is
 * decoded: EXT_/KHR_meshopt_compression (libmeshoptimizer) and KHR_draco_mesh_compression
 * (libdraco), its decoded size bounded by opt->file.max_size; KHR_mesh_quantization's
 * integer attributes are read. */
VKS_API vks_result vks_gltf_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                                 vks_error *err);

/* The reader for these bytes (by magic, then by the file name's extension), or NULL.
 * name may be NULL. *format_name gets "renderware", "nif", "nw4c", "p3d", "gltf" when not NULL. */
VKS_API vks_reader_fn vks_detect_format(const void *bytes, size_t size, const char *name,
                                const char **format_name);

/* Detects the format and reads. An unknown format is VKS_ERR_FORMAT naming what was seen. */
VKS_API vks_result vks_read_any(const vks_read_options *opt, const void *bytes, size_t size,
                        const char *name, vks_skin **out, vks_error *err);

/* Reads the file at path through opt->file (zeroed: the file system, max_size applied),
 * detects its format and reads it, like cgltf_parse_file. A P3D finds its skeleton config
 * itself when opt->p3d.model_cfg is NULL: the file opt->p3d.model_cfg_name, else the one
 * vks_p3d_find_model_cfg finds (noted through opt->logger at VKS_LOG_INFO: "<path>: using
 * skeleton config <cfg>"). A failure to read the model has err->path "file"; one in or about
 * the config names it in err->file (with err->line for its text). Every file read is released
 * before the call returns. Same contract as the readers otherwise. */
VKS_API vks_result vks_read_file(const vks_read_options *opt, const char *path, vks_skin **out,
                         vks_error *err);

/* vks_read_file, then vks_skin_validate: the model a host deforms, as the vkskin program and
 * the bake job engine load theirs. What a host should say about it goes through opt->logger,
 * each message starting with path: VKS_LOG_WARNING "PATH: warning: N vertices lost
 * influences: the 4 largest kept and renormalised, the largest weight dropped W" where a vertex
 * stored more than VKS_MAX_INFLUENCES (skin->weights.truncated), VKS_LOG_INFO "PATH: note: N
 * vertices store more weights than FORMAT's engines skin with ..." where the format's own rule
 * kept fewer (weights.rule_dropped); the reader's notes as vks_read_file gives them. Errors as
 * vks_read_file's and vks_skin_validate's (vks_load_error_format says them in one line); *out
 * is written only on success. Since 0.7. */
VKS_API vks_result vks_load_model(const vks_read_options *opt, const char *path, vks_skin **out,
                                  vks_error *err);
/* vks_load_model of a model whose bytes the caller holds already (read once to tell a clip
 * from a model, as inspect does): the reader gets bytes for path itself and reads any other
 * file it asks for (a P3D's model.cfg, a .gltf's buffers) through opt->file as usual. bytes
 * stay the caller's. Since 0.8. */
VKS_API vks_result vks_load_model_bytes(const vks_read_options *opt, const char *path, const uint8_t *bytes,
                                        size_t size, vks_skin **out, vks_error *err);
/* One line for a failed vks_load_model, vks_read_clips or vks_read_clip_bytes of path: a
 * failure about the file as a whole (err->path "file", no other file named: it could not be
 * read, or it is no file of a format vkskin reads) as "PATH: MSG", followed by " LIMIT_HINT"
 * for VKS_ERR_LIMIT when limit_hint is given (the vkskin program's "(--max-input-mb N)");
 * anything else as vks_error_format(err, path, ...). Returns buf. Since 0.7. */
VKS_API const char *vks_load_error_format(const vks_error *err, const char *path, const char *limit_hint,
                                          char *buf, size_t size);

/* Every file besides path that a read of the model or clip file at path reads or names, so a
 * host never writes over one of them (the CLI checks its outputs against these): a P3D's
 * model.cfg (the one vks_read_file would use), a .gltf's or .glb's external buffers and the
 * images it names by URI, each resolved by the reader's own rule (a URI the reader refuses is
 * not listed: nothing is read there). visit(user, file, what) for each, in the file's order;
 * what names the entry ("model.cfg", "buffers[1]", "images[0]"). path is read through
 * opt->file within opt->file.max_size (a .glb on the file system: its JSON chunk only). A file
 * that cannot be read or parsed lists nothing and is VKS_OK: its reader will say why. */
typedef void (*vks_side_file_fn)(void *user, const char *file, const char *what);
VKS_API vks_result vks_list_side_files(const vks_read_options *opt, const char *path, vks_side_file_fn visit,
                                       void *user, vks_error *err);

/* Which model.cfg the P3D reader would use for the model at model_path when neither
 * opt->p3d.model_cfg nor opt->p3d.model_cfg_name is given: "<stem>.model.cfg" beside the
 * model (how the project's samples pair them), then "model.cfg" in the model's folder and in
 * each parent folder up to the top of the path given (binarize walks up the same way).
 * Candidates are tried through opt->file (opt may be NULL: the file system); the first that
 * reads wins. Writes its path (NUL-terminated) into out and returns 1; returns 0 when there is
 * none or cap is under strlen(model_path) + 16. Allocates through opt->allocator. */
VKS_API int vks_p3d_find_model_cfg(const vks_read_options *opt, const char *model_path, char *out, size_t cap);

/* ---- writers (fixtures for tests, datasets and benchmarks) ----
 * Each writes a whole file into a growable buffer. The caller frees *out_bytes with free(). */
typedef struct vks_write_options {
    uint32_t version;    /* format version to write; 0: the writer's default */
    int triangle_strips; /* write strips instead of lists where the format has both */
    int quantize;        /* NW4C: quantized vertex streams */
} vks_write_options;

/* ---- the formats this build reads (the registry) ----
 * One record per format, always in this order: RenderWare, Gamebryo NIF, NintendoWare CTR,
 * Bohemia P3D, glTF. Detection, vks_read_file and vks_read_clips go through the same records;
 * a program that lists formats (the CLI's help, the generator) loops over them too. */
typedef vks_result (*vks_writer_fn)(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                                    size_t *out_size, vks_error *err);

/* The axes a format's files are authored in: what vks_gltf_correction turns into glTF's Y up,
 * and what the VAT sidecar states (up_axis, handedness). */
typedef enum vks_axes {
    VKS_AXES_Y_UP = 0,  /* right-handed, Y up (glTF, NW4C) */
    VKS_AXES_Z_UP,      /* right-handed, Z up (RenderWare, NIF) */
    VKS_AXES_LEFT_Y_UP, /* left-handed, Y up (Bohemia P3D) */
} vks_axes;

typedef struct vks_format_info {
    const char *name;                    /* vks_detect_format's format_name: "renderware", "nif", ... */
    const char *title;                   /* for people: "RenderWare", "Gamebryo", ... */
    const char *const *model_extensions; /* lower case with the dot, NULL-terminated: ".dff" */
    const char *const *clip_extensions;  /* the clip files of the format (vks_detect_clip_format) */
    const char *side_file;               /* what vks_read_file reads beside a model ("model.cfg"), or NULL */
    vks_reader_fn read;                  /* the model reader */
    vks_writer_fn write;                 /* the model writer, NULL when there is none */
    int bind_not_promised;               /* 1: the format does not promise that a mesh is stored
                                            at the pose its inverse binds imply (glTF: rest and
                                            bind may differ), so a bind-pose check that differs
                                            is a note, not a failure */
    vks_axes axes;                       /* the axes its files are authored in */
} vks_format_info;

/* How many formats the registry lists (models and clips, vks_format_at). */
VKS_API uint32_t vks_format_count(void);
/* The record at index (0 .. vks_format_count() - 1), NULL past the end. */
VKS_API const vks_format_info *vks_format_at(uint32_t index);
/* The record whose name is name, or one of whose model extensions is name with or without its
 * dot ("nif", "dff", ".p3d"; case ignored), or NULL. */
VKS_API const vks_format_info *vks_format_find(const char *name);

/* The writers (test fixtures and the generator): skin as the format's bytes in *out_bytes
 * (free with free()), *out_size long; what each writes: docs/formats.md, the "write" column. */
VKS_API vks_result vks_rw_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                        size_t *out_size, vks_error *err);
VKS_API vks_result vks_nif_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                         size_t *out_size, vks_error *err);
VKS_API vks_result vks_cmdl_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                          size_t *out_size, vks_error *err);
VKS_API vks_result vks_p3d_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                         size_t *out_size, vks_error *err);

/* P3D extras. vks_p3d_write writes an MLOD (one visual LOD per mesh plus a memory LOD with a
 * pivot point per node); its skeleton goes into a model.cfg written by vks_p3d_write_model_cfg
 * (CfgSkeletons class "<model_name>_Skeleton", CfgModels class model_name; NULL: "model").
 * vks_p3d_parse_model_cfg parses model.cfg text and resolves the skeleton of CfgModels class
 * model_name (NULL: the only model class); *bone_count (may be NULL) gets its bone count, 0
 * when no class matched. */
VKS_API vks_result vks_p3d_write_model_cfg(const vks_skin *skin, const char *model_name, uint8_t **out_bytes,
                                   size_t *out_size, vks_error *err);
VKS_API vks_result vks_p3d_parse_model_cfg(const char *text, size_t size, const char *model_name,
                                   uint32_t *bone_count, vks_error *err);

#ifdef __cplusplus
}
#endif
#endif
