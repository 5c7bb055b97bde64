/* Where a run's outputs go, decided before any work: one name per model that no other output
 * of the run shares, never one of the inputs (output_inputs.c), a folder that exists and can be
 * written, room for what a side output holds at least. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bake/output_plan_internal.h"
#include "vkskin/output.h"

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void vks_output_plan_free(vks_output_plan *plan)
{
    if (!plan)
        return;
    for (uint32_t i = 0; plan->paths && i < plan->count; i++)
        free(plan->paths[i]);
    free(plan->paths);
    plan->paths = NULL;
    plan->count = 0;
}

/* The output of one input among several: "<folder>/<input's file name>.<format>", keeping the
 * input's extension so a.dff and a.nif do not both become a.csv. */
static char *name_in_folder(const char *folder, const char *input, const char *ext)
{
    size_t n = strlen(folder) + strlen(input) + strlen(ext) + 3;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s.%s", folder, folder[strlen(folder) - 1] == '/' ? "" : "/", base_name(input), ext);
    return p;
}

static vks_result no_memory(const vks_logger *log, vks_error *err)
{
    return vks__output_say(log, err, VKS_ERR_NOMEM, "out of memory planning the outputs");
}

/* One path per model: out itself, or the models' names in out's folder. */
static vks_result name_outputs(vks_output_plan *plan, const char *out, const char *option, const char *ext,
                               const char *const *models, uint32_t n, const vks_logger *log, vks_error *err)
{
    struct stat st;
    if (n > 1) {
        if (!strcmp(out, "-"))
            return vks__output_say(log, err, VKS_ERR_INVALID,
                                   "%s - (standard output) takes one input; give a folder for %u", option, n);
        int exists = stat(out, &st) == 0;
        if (!exists || !S_ISDIR(st.st_mode))
            return vks__output_say(log, err, VKS_ERR_IO, "%s: with %u inputs %s names a folder, and %s", out, n,
                                   option, exists ? "this is not one" : "it does not exist");
    }
    for (uint32_t f = 0; f < n; f++)
        if (!(plan->paths[f] = n > 1 ? name_in_folder(out, models[f], ext) : strdup(out)))
            return no_memory(log, err);
    return VKS_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two inputs with one file name (x/a.dff, y/a.dff, or one given twice) would write one output. */
static vks_result refuse_shared_names(const vks_output_plan *plan, const char *const *models, const vks_logger *log,
                                      vks_error *err)
{
    uint32_t n = plan->count;
    char **sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return no_memory(log, err);
    memcpy(sorted, plan->paths, (size_t)n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, by_name);
    vks_result r = VKS_OK;
    for (uint32_t f = 1; f < n && r == VKS_OK; f++)
        if (!strcmp(sorted[f - 1], sorted[f])) {
            const char *first = NULL, *second = NULL;
            for (uint32_t g = 0; g < n; g++)
                if (!strcmp(plan->paths[g], sorted[f])) {
                    if (!first)
                        first = models[g];
                    else if (!second)
                        second = models[g];
                }
            r = vks__output_say(log, err, VKS_ERR_INVALID,
                                "inputs %s and %s would both be written to %s; give them different file names", first,
                                second ? second : first, sorted[f]);
        }
    free(sorted);
    return r;
}

/* vks_output_check's word on path, said through log in one line as the error format gives it. */
static vks_result check_writable(const char *path, uint64_t min_bytes, const char *folder_hint,
                                 const vks_logger *log, vks_error *err)
{
    vks_error why = {0};
    if (vks_output_check(path, min_bytes, &why) == VKS_OK)
        return VKS_OK;
    struct stat st;
    /* the hint belongs to the caller's option, not to the general check */
    if (folder_hint && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return vks__output_say(log, err, VKS_ERR_IO, "%s: is a folder; name the output file (%s takes a folder with "
                               "several inputs)", path, folder_hint);
    char msg[512];
    return vks__output_say(log, err, VKS_ERR_IO, "%s", vks_error_format(&why, NULL, msg, sizeof msg));
}

vks_result vks_output_plan_models(vks_output_plan *plan, const char *out, const char *option, const char *ext,
                                  const char *const *models, uint32_t model_count, const vks_output_inputs *in,
                                  const vks_logger *log, vks_error *err)
{
    memset(plan, 0, sizeof *plan);
    if (!out || !models || !model_count || !in)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, NULL,
                             "vks_output_plan_models needs an output, models and their inputs");
    option = option ? option : "out";
    uint32_t n = model_count;
    if (!(plan->paths = calloc(n, sizeof *plan->paths)))
        return no_memory(log, err);
    plan->count = n;
    vks_result r = name_outputs(plan, out, option, ext ? ext : "out", models, n, log, err);
    if (r == VKS_OK)
        r = refuse_shared_names(plan, models, log, err);
    for (uint32_t f = 0; f < n && r == VKS_OK; f++)
        r = vks_output_refuse_input(in, NULL, plan->paths[f], log, err);
    for (uint32_t f = 0; f < n && r == VKS_OK; f++)
        r = check_writable(plan->paths[f], 0, n == 1 ? option : NULL, log, err);
    return r;
}

typedef struct named {
    const char *path;
    uint32_t model;
    int side; /* 0: the model's main output */
} named;

static int by_path(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : x->side != y->side ? x->side - y->side : (x->model > y->model) - (x->model < y->model);
}

static vks_result say_shared(const vks_output_side *what, const char *const *models, const named *a, const named *b,
                             const vks_logger *log, vks_error *err)
{
    return vks__output_say(log, err, VKS_ERR_INVALID,
                           "the %s of %s and the %s of %s would both be written to %s; give them different file names",
                           a->side ? what->label : what->main_label, models[a->model],
                           b->side ? what->label : what->main_label, models[b->model], b->path);
}

/* Two outputs of one name where one is a side output (two main outputs are refused by
 * vks_output_plan_models already); and a side output that is its own model's through a link. */
static vks_result refuse_shared(const vks_output_plan *main, const vks_output_plan *side,
                                const vks_output_side *what, const char *const *models, const vks_logger *log,
                                vks_error *err)
{
    uint32_t n = main->count, k = 0;
    named *all = malloc(2 * (size_t)n * sizeof *all);
    if (!all)
        return no_memory(log, err);
    for (uint32_t m = 0; m < n; m++) {
        all[k++] = (named){main->paths[m], m, 0};
        if (m < side->count && side->paths[m])
            all[k++] = (named){side->paths[m], m, 1};
    }
    qsort(all, k, sizeof *all, by_path);
    vks_result r = VKS_OK;
    for (uint32_t i = 1; i < k && r == VKS_OK; i++)
        if (!strcmp(all[i - 1].path, all[i].path) && all[i].side)
            r = say_shared(what, models, &all[i - 1], &all[i], log, err);
    for (uint32_t m = 0; m < n && m < side->count && r == VKS_OK; m++)
        if (side->paths[m] && strcmp(main->paths[m], "-") && strcmp(side->paths[m], "-") &&
            vks_output_same_file(side->paths[m], main->paths[m])) {
            named a = {main->paths[m], m, 0}, b = {side->paths[m], m, 1};
            r = say_shared(what, models, &a, &b, log, err);
        }
    free(all);
    return r;
}

vks_result vks_output_plan_side(const vks_output_plan *main, const vks_output_plan *side,
                                const vks_output_side *what, const char *const *models,
                                const vks_output_inputs *in, const vks_logger *log, vks_error *err)
{
    if (!main || !side || !what || !models || !in)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, NULL,
                             "vks_output_plan_side needs both plans, what they are, the models and the inputs");
    vks_result r = refuse_shared(main, side, what, models, log, err);
    for (uint32_t m = 0; m < side->count && r == VKS_OK; m++)
        if (side->paths[m])
            r = vks_output_refuse_input(in, what->option, side->paths[m], log, err);
    for (uint32_t m = 0; m < side->count && r == VKS_OK; m++)
        if (side->paths[m])
            r = check_writable(side->paths[m], what->min_bytes ? what->min_bytes[m] : 0, NULL, log, err);
    return r;
}
