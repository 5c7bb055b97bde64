/* vkskin output plans: the rule of every output vkskin writes (docs/safety.md), decided before
 * any work: no output is one of the files the run reads; one name per model that no other
 * output of the run shares; a folder that exists and can be written (output.h's
 * vks_output_check). The `vkskin` program applies it to every command, vks_bake_run to every
 * bake, and a host writing files of its own may apply it to its outputs the same way.
 *
 * STEP BY STEP
 *   1. what the run reads:  vks_output_inputs in = {0};
 *                           vks_output_inputs_add_model(&in, "hero.gltf", &ropt, "the model");
 *                           vks_output_inputs_add(&in, "walk.anm", "the clip file");
 *   2. each output:         vks_logger log = {vks_log_stderr, NULL};
 *                           if (vks_output_refuse_input(&in, "--out", "out.csv", &log, &err) != VKS_OK)
 *                               ...   // said through log; err->code VKS_ERR_INVALID
 *      or one per model:    vks_output_plan plan;
 *                           vks_output_plan_models(&plan, out, "--out", "csv", models, n, &in, &log, &err);
 *                           ... plan.paths[m] ...
 *                           vks_output_plan_free(&plan);
 *   3. free:                vks_output_inputs_free(&in);
 *
 * Identity, not spelling: an output is an input when it is the same file after following
 * symlinks (device and inode, so a hard link is one too), or, for a name that does not exist
 * yet, when both resolve to one path. Each input's identity is taken when it is listed, so a
 * check costs one stat of the output, whatever the number of inputs (a bake checks hundreds of
 * outputs against every model and clip of its manifest).
 *
 * Messages: every refusal is one line said through the caller's logger (VKS_LOG_ERROR, no
 * "vkskin:" prefix; vks_log_stderr prints the program's), and err gets the code: VKS_ERR_INVALID
 * for what the caller asked that cannot be (an output that is an input, two outputs of one name,
 * standard output for several), VKS_ERR_IO for what stands in the way on disk (no such folder,
 * not writable, no room), VKS_ERR_NOMEM.
 *
 * THREADS: an inputs list belongs to one thread while it is added to; checks only read it.
 */
#ifndef VKSKIN_OUTPUT_PLAN_H
#define VKSKIN_OUTPUT_PLAN_H

#include <stdint.h>

#include "core.h"
#include "formats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a run reads. Zeroed is empty; free with vks_output_inputs_free. Since 0.8. */
typedef struct vks_output_input vks_output_input; /* one listed file (private) */
typedef struct vks_output_inputs {
    vks_output_input *items;
    uint32_t count, cap;
    int nomem; /* an input could not be listed: every check then fails (VKS_ERR_NOMEM) */
} vks_output_inputs;

/* Lists path, named label in messages ("the model", "the clip file of jobs[2].clips[0]"). A
 * missing path, or "-", is not listed: it cannot be overwritten (its reader says it is
 * missing). Since 0.8. */
VKS_API void vks_output_inputs_add(vks_output_inputs *in, const char *path, const char *label);
/* Lists a model or clip file and the files its reader reads or names beside it
 * (vks_list_side_files through ro, within ro->file.max_size: a P3D's model.cfg as "the
 * model.cfg of PATH", a .gltf's buffers and images as "buffers[0] of PATH"). ro may be NULL.
 * Since 0.8. */
VKS_API void vks_output_inputs_add_model(vks_output_inputs *in, const char *path, const vks_read_options *ro,
                                         const char *label);
/* Every file named dir/PREFIX...SUFFIX (a shard report folder's *.json: prefix "", suffix
 * ".json"), each labelled label. A folder that cannot be read lists nothing. Since 0.8. */
VKS_API void vks_output_inputs_add_like(vks_output_inputs *in, const char *dir, const char *prefix,
                                        const char *suffix, const char *label);
/* Frees what was listed; the list is empty (zeroed) again. Since 0.8. */
VKS_API void vks_output_inputs_free(vks_output_inputs *in);

/* The rule for one output: when out is one of the inputs, says "[OPTION ]OUT: the output is
 * INPUT (LABEL), one of the inputs; refusing to overwrite it" through log and returns
 * VKS_ERR_INVALID. out "-" (standard output) and a name that does not exist are never inputs.
 * option (may be NULL) is how the caller names the output ("--out", "jobs[3]:"). When the list
 * ran out of memory: "out of memory listing the inputs", VKS_ERR_NOMEM. Since 0.8. */
VKS_API vks_result vks_output_refuse_input(const vks_output_inputs *in, const char *option, const char *out,
                                           const vks_logger *log, vks_error *err);
/* The same for outputs whose names are known only during the run (a clip's contact sheet, a
 * heat map per device): every existing file in dir named prefix...suffix. Since 0.8. */
VKS_API vks_result vks_output_refuse_input_like(const vks_output_inputs *in, const char *option, const char *dir,
                                                const char *prefix, const char *suffix, const vks_logger *log,
                                                vks_error *err);

/* Output paths, one per model. Since 0.8. */
typedef struct vks_output_plan {
    char **paths; /* count of them; NULL for a model that writes none (side outputs) */
    uint32_t count;
} vks_output_plan;

/* Plans one output per model: with one model, out itself; with several, out must be a folder
 * and each model's output is "<out>/<model's file name>.<ext>" (a.dff -> a.dff.csv: two
 * formats of one stem stay apart). Refuses, in this order: out "-" with several models
 * ("OPTION - (standard output) takes one input; give a folder for N"), a folder that is not one
 * or does not exist (VKS_ERR_IO), two models of one output name, an output that is one of the
 * inputs, and what vks_output_check refuses (VKS_ERR_IO; with one model a folder for out is
 * said as such). option names out in messages ("--out"). Free the plan with
 * vks_output_plan_free whatever this returns. Since 0.8. */
VKS_API vks_result vks_output_plan_models(vks_output_plan *plan, const char *out, const char *option, const char *ext,
                                          const char *const *models, uint32_t model_count,
                                          const vks_output_inputs *in, const vks_logger *log, vks_error *err);

/* What vks_output_plan_side checks. Since 0.8. */
typedef struct vks_output_side {
    const char *main_label; /* what the main outputs are in messages ("vertex output") */
    const char *label;      /* what the side outputs are ("root-motion CSV") */
    const char *option;     /* how the side outputs are named in a refused input ("--root-motion") */
    const uint64_t *min_bytes; /* per model, the room each needs at least (NULL: no space check) */
} vks_output_side;

/* Checks side outputs a caller named beside each model's output (side->paths[m], NULL for
 * none; a crowd's root-motion CSV beside its vertex file): refuses a side output whose name
 * another output of the run has, or that is its own model's output through a link ("the
 * MAIN_LABEL of A and the LABEL of B would both be written to PATH; give them different file
 * names", VKS_ERR_INVALID), one that is an input, and what vks_output_check refuses with room
 * for min_bytes[m] (VKS_ERR_IO). models names each model in messages. Since 0.8. */
VKS_API vks_result vks_output_plan_side(const vks_output_plan *main, const vks_output_plan *side,
                                        const vks_output_side *what, const char *const *models,
                                        const vks_output_inputs *in, const vks_logger *log, vks_error *err);

/* Frees the paths (the plan may be zeroed or half made). Since 0.8. */
VKS_API void vks_output_plan_free(vks_output_plan *plan);

#ifdef __cplusplus
}
#endif
#endif
