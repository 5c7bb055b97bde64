/* vkskin validate on one device: the files' inputs built from the posers (a pose source each,
 * and with clips the crowd instance each plays on the GPU), one vks_validate_run call on the
 * device's context (with a device list, the others beside it), and with a report folder the heat
 * maps drawn on that context. With clips across several contexts the library's stream runs
 * through the program's split (cli_crowd_split.h), handed whole frames of chunks. */
#include <stdlib.h>
#include <string.h>

#include "cli_progress.h"
#include "validate.h"

static void say(void *user, const char *line)
{
    (void)user;
    fputs(line, stderr);
}

static void progress(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    vks_cli_progress_set(user, done, NULL);
}

/* The GPU-clip route's state: the clips uploaded for the posers, and for a split the frame
 * being gathered from the pieces the contexts deliver. */
typedef struct vclips {
    vrun *r;
    vdevice *d;
    vks_gpu *const *gpus;        /* the contexts: [0] the run's */
    vks_poser_clips gclips;    /* on the run's context */
    const vks_stream_desc *desc; /* the library's stream */
    float *pos, *nrm;            /* a delivery's vertices gathered (split) */
    size_t at, cap;              /* floats gathered, room */
} vclips;

/* Instance j of file m as the crowd plays it (its clip, cycle, layers and root). */
static void gpu_instance(void *user, uint32_t j, vks_instance *out)
{
    const vclips *v = ((void **)user)[0];
    uint32_t m = (uint32_t)(uintptr_t)((void **)user)[1];
    vks_poser_crowd_instance(&v->gclips, &v->r->posers[m], m, j, 1, out);
}

/* A piece of a split's delivery (one file's instances at a frame), gathered. */
static int gather(void *user, uint32_t m, uint32_t first, uint32_t count, uint32_t frame, const float *p,
                  const float *n)
{
    vclips *v = user;
    (void)first, (void)frame;
    size_t floats = (size_t)count * v->r->files[m].skin->vertex_count * 3;
    if (v->at + floats > v->cap) {
        size_t cap = (v->at + floats) * 2;
        float *np = realloc(v->pos, cap * sizeof *np);
        if (np)
            v->pos = np;
        float *nn = np ? realloc(v->nrm, cap * sizeof *nn) : NULL;
        if (!np || !nn)
            return 1;
        v->nrm = nn, v->cap = cap;
    }
    memcpy(v->pos + v->at, p, floats * sizeof *p);
    memcpy(v->nrm + v->at, n, floats * sizeof *n);
    v->at += floats;
    return 0;
}

/* A split's delivery complete: handed to the library as one context's stream hands it. */
static int delivered(void *user, uint32_t first, uint32_t count, uint32_t frame, const vks_gpu_figures *g)
{
    vclips *v = user;
    const vks_stream_desc *d = v->desc;
    vks_stream_delivery dl = {first, count, frame, d->times[frame], v->pos, v->nrm, g};
    v->at = 0;
    return d->deliver(d->user, &dl);
}

/* The clips across the list's contexts (the program's split): every context gets the files'
 * models here, the first the library's. */
static vks_result run_split(vclips *v, vks_gpu *gpu, const vks_stream_desc *desc, vks_stream_stats *st,
                            vks_error *err)
{
    vrun *r = v->r;
    const vks_gpu_models *ms[VKS_CLI_MAX_DEVICES] = {desc->models};
    vks_gpu_models *own[VKS_CLI_MAX_DEVICES] = {0};
    vks_result rc = VKS_OK;
    for (int k = 1; k < r->nsplit && rc == VKS_OK; k++)
        rc = vks_gpu_upload(v->gpus[k], desc->skins, desc->model_count, &own[k], err), ms[k] = own[k];
    const vks_poser **posers = calloc((size_t)r->nfiles, sizeof *posers);
    for (int f = 0; posers && f < r->nfiles; f++)
        posers[f] = &r->posers[f];
    vks_poser_job job = {gpu, desc->models, &v->gclips, posers, (uint32_t)r->nfiles, desc->frame_count,
                             desc->chunk_bytes, 0, NULL, gather, v, desc->reduce, delivered, NULL};
    vks_poser_stats cs = {0};
    if (rc == VKS_OK && !posers)
        rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    if (rc == VKS_OK)
        rc = vks_poser_run_split(&job, v->gpus, ms, r->nsplit, &cs, &v->d->split, err);
    st->chunks = cs.chunks, st->vertex_instances = cs.vertex_instances, st->gpu_ms = cs.gpu_ms;
    for (int k = 1; k < r->nsplit; k++)
        vks_gpu_models_free(own[k]);
    free(posers);
    return rc;
}

/* vks_validate_options.run_stream: the posers' clips uploaded for the library's models, then
 * the stream on this context, or split across the list's. */
static vks_result run_stream(void *user, vks_gpu *gpu, const vks_stream_desc *desc, vks_stream_stats *st,
                             vks_error *err)
{
    vclips *v = user;
    vrun *r = v->r;
    const vks_poser **posers = calloc((size_t)r->nfiles, sizeof *posers);
    if (!posers)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    int layers = 0; /* any layered instance: every chunk's crowd takes them (one crowd reused) */
    for (int f = 0; f < r->nfiles; f++)
        posers[f] = &r->posers[f], layers |= r->posers[f].layers != NULL;
    vks_result rc = vks_poser_clips_upload(gpu, desc->models, posers, (uint32_t)r->nfiles, &v->gclips, err);
    free(posers);
    v->desc = desc;
    if (rc == VKS_OK && r->nsplit > 1)
        return run_split(v, gpu, desc, st, err);
    vks_stream_desc d = *desc;
    d.gpu_clips = v->gclips.gc, d.layers = layers;
    return rc == VKS_OK ? vks_stream_run(gpu, &d, st, err) : rc;
}

/* The files as the library takes them: each one's poses, and with clips its GPU instances. */
static vks_validate_input *make_inputs(vrun *r, vclips *v, void *(*users)[2])
{
    vks_validate_input *in = calloc((size_t)r->nfiles, sizeof *in);
    for (int f = 0; in && f < r->nfiles; f++) {
        const vks_poser *ps = &r->posers[f];
        in[f].skin = r->files[f].skin, in[f].name = r->files[f].path;
        in[f].instances = ps->instances, in[f].frames = ps->frames;
        in[f].poses = ps->source, in[f].roots = ps->roots;
        if (r->pose->plan.clips) {
            users[f][0] = v, users[f][1] = (void *)(uintptr_t)f;
            in[f].gpu_instance = gpu_instance, in[f].gpu_instance_user = users[f];
        }
    }
    return in;
}

/* The list's other contexts, opened (gpus[0] is the run's). VKS_EXIT_OK or the exit code of
 * the first that could not be (printed). */
static int open_others(vrun *r, vks_gpu **gpus)
{
    for (int k = 1; k < r->nsplit; k++) {
        vks_cli_gpu_opts g = r->gopt;
        g.device = r->split[k];
        int rc = vks_cli_gpu_open(&g, &gpus[k]);
        if (rc != VKS_EXIT_OK)
            return rc;
    }
    return VKS_EXIT_OK;
}

/* What a run that could not complete says: on stderr, as the device's error, as an exit code. */
static int run_failed(vrun *r, vdevice *d, const vks_error *err)
{
    char msg[512];
    if (r->opt.sample_count || r->opt.sample_percent > 0) {
        if (err->code == VKS_ERR_UNSUPPORTED) {
            fprintf(stderr, "vkskin validate: --sample: the device cannot reduce the chunks (subgroup arithmetic), "
                            "which is what checks the instances not compared\n");
            snprintf(d->lib.error, sizeof d->lib.error, "--sample needs the GPU's reduction, which the device lacks");
            return VKS_EXIT_RUNTIME;
        }
    }
    fprintf(stderr, "vkskin: %s\n", vks_error_format(err, NULL, msg, sizeof msg));
    snprintf(d->lib.error, sizeof d->lib.error, "%s", msg);
    return err->code == VKS_ERR_INVALID ? VKS_EXIT_RUNTIME : vks_cli_exit_code(err->code);
}

/* The library's run on the opened contexts into d; the device's exit code. */
static int run_library(vrun *r, vdevice *d, vks_gpu **gpus)
{
    vclips v = {.r = r, .d = d, .gpus = gpus};
    void *(*users)[2] = calloc((size_t)r->nfiles, sizeof *users);
    vks_validate_input *in = users ? make_inputs(r, &v, users) : NULL;
    vks_validate_options opt = r->opt;
    opt.say = say;
    opt.more_contexts = gpus + 1, opt.more_context_count = r->nsplit > 1 ? (uint32_t)r->nsplit - 1 : 0;
    if (r->pose->plan.clips)
        opt.run_stream = run_stream, opt.run_stream_user = &v;
    vks_cli_progress bar;
    uint64_t poses = 0;
    for (int f = 0; f < r->nfiles; f++)
        poses += r->files[f].poses;
    vks_cli_progress_begin(&bar, "validate", "poses", poses);
    opt.progress = progress, opt.progress_user = &bar;
    vks_error err = {0};
    vks_result res = in ? vks_validate_run(gpus[0], in, (uint32_t)r->nfiles, &opt, &d->res, &err)
                        : vks_error_set(&err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "validate", "out of memory");
    vks_cli_progress_end(&bar);
    if (d->res.device_count)
        d->lib = d->res.devices[0];
    int rc = res == VKS_OK ? d->lib.exit_code : run_failed(r, d, &err);
    d->lib.exit_code = rc;
    vks_poser_clips_free(&v.gclips);
    free(v.pos), free(v.nrm), free(users), free(in);
    return rc;
}

/* The device's files as the reports take them: the library's, the heat maps named here. */
static int take_files(vrun *r, vdevice *d)
{
    size_t n = (size_t)r->nfiles;
    d->files = calloc(n, sizeof *d->files);
    d->vfiles = calloc(n, sizeof *d->vfiles);
    d->heatmaps = calloc(n, sizeof *d->heatmaps);
    d->heatmap_missing = calloc(n, sizeof *d->heatmap_missing);
    if (!d->files || !d->vfiles || !d->heatmaps || !d->heatmap_missing)
        return 0;
    for (uint32_t f = 0; f < d->lib.file_count && f < n; f++)
        d->files[f] = d->lib.reports[f], d->vfiles[f] = d->lib.files[f];
    d->lib.reports = d->files, d->lib.files = d->vfiles;
    return 1;
}

/* The shares of a split the library made (a batch), as the program prints them. */
static void take_shares(vdevice *d)
{
    const vks_validate_device *l = &d->lib;
    if (d->split.shares.contexts >= 2 || l->share_count < 2)
        return; /* clips: the program's split said them; or no split */
    vks_cli_shares_begin(&d->shares, (int)l->share_count, l->share_unit, NULL);
    for (uint32_t k = 0; k < l->share_count && k < VKS_CLI_SHARES_MAX; k++)
        vks_cli_shares_set(&d->shares, (int)k, l->shares[k].device, l->shares[k].count, l->shares[k].chunks,
                           l->shares[k].seconds);
}

int vks_validate_on_device(vrun *r, vdevice *d)
{
    vks_gpu *gpus[VKS_CLI_MAX_DEVICES] = {0};
    int rc = vks_cli_gpu_open(&r->gopt, &gpus[0]);
    if (rc != VKS_EXIT_OK) {
        snprintf(d->lib.error, sizeof d->lib.error, "the Vulkan device could not be opened (exit %d)", rc);
    } else if ((rc = open_others(r, gpus)) != VKS_EXIT_OK) {
        const vks_gpu_device_info *info = vks_gpu_device(gpus[0]);
        snprintf(d->lib.name, sizeof d->lib.name, "%s", info->name);
        snprintf(d->lib.type, sizeof d->lib.type, "%s", info->type);
        snprintf(d->lib.error, sizeof d->lib.error, "a Vulkan device of the list could not be opened (exit %d)", rc);
    } else {
        rc = run_library(r, d, gpus);
    }
    d->lib.exit_code = rc;
    if (!take_files(r, d)) {
        snprintf(d->lib.error, sizeof d->lib.error, "out of memory");
        d->lib.ran = 0, d->lib.exit_code = rc = VKS_EXIT_RUNTIME;
    }
    if (d->split.contexts > 1) { /* clips split by the program: each context's instances and shares */
        d->lib.contexts = (uint32_t)d->split.contexts;
        for (int k = 0; k < d->split.contexts && k < VKS_VALIDATE_MAX_CONTEXTS; k++)
            d->lib.context_instances[k] = d->split.instances[k];
        d->shares = d->split.shares;
    }
    take_shares(d);
    if (r->report_dir && d->lib.ran)
        for (int f = 0; f < r->nfiles; f++)
            vks_validate_heatmap(r, gpus[0], d, f);
    for (int k = r->nsplit > 1 ? r->nsplit - 1 : 0; k >= 0; k--)
        vks_gpu_destroy(gpus[k]);
    return rc;
}

void vks_validate_device_free(vdevice *d, int nfiles)
{
    for (int f = 0; f < nfiles; f++) {
        if (d->heatmaps)
            free(d->heatmaps[f]);
        if (d->heatmap_missing)
            free(d->heatmap_missing[f]);
    }
    free(d->files), free(d->vfiles), free(d->heatmaps), free(d->heatmap_missing);
    vks_validate_result_free(&d->res);
}
