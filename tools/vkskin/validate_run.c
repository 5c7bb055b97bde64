/* vkskin validate on one device: the GPU deforms every file's instances in one batch (or, with
 * clips, in crowds that sample them), and as each chunk comes back the CPU reference deforms the
 * same instances and the chunk is diffed, mapped per vertex (report.h), and stored into or
 * compared with a golden. Only a chunk is ever held in memory. */
#include <math.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_progress.h"
#include "validate.h"

static void get_locals(void *user, uint32_t entry, uint32_t instance, vks_affine *out)
{
    vctx *c = user;
    vks__validate_pose_locals(c, &c->files[entry], instance, out);
}

/* A pose's morph weights (a pose file's; clips in a batch are sampled on the host too). */
static void get_weights(void *user, uint32_t entry, uint32_t pose, float *out)
{
    vctx *c = user;
    const vfile *f = &c->files[entry];
    vks_pose_source_weights(f->ps.source, f->skin, pose / f->frames, pose % f->frames, out);
}

/* A chunk of the batch, as it comes back while the GPU deforms the next. */
static int deliver(void *user, uint32_t entry, uint32_t first, uint32_t count, const float *p, const float *n)
{
    vctx *c = user;
    vref_chunk ch = {&c->files[entry], first, count, 0, 0, p, n};
    vks__validate_note_chunk(c, ch.f, first, count); /* what the readback check names */
    int stop = vks__validate_ref_chunk(c, &ch);
    if (c->progress)
        vks_cli_progress_add(c->progress, count);
    return stop;
}

static int chunk_done(void *user, uint32_t chunk, const vks_gpu_figures *g)
{
    vctx *c = user;
    vks__validate_check_readback(c, chunk, "poses", g);
    vks__validate_next_chunk(c);
    return 0;
}

/* A frame of a run of one model's instances, as the crowd read them back. */
static int crowd_deliver(void *user, uint32_t m, uint32_t first, uint32_t count, uint32_t frame, const float *p,
                         const float *n)
{
    vctx *c = user;
    vref_chunk ch = {&c->files[m], first, count, frame, 1, p, n};
    vks__validate_note_chunk(c, ch.f, first, count);
    int stop = vks__validate_ref_chunk(c, &ch);
    if (c->progress)
        vks_cli_progress_add(c->progress, count);
    return stop;
}

/* A chunk's frame done (every model's run of it compared): its readback check, numbered in the
 * order the frames came (a device that cannot reduce gives no figures: left unchecked). */
static int crowd_delivered(void *user, uint32_t first, uint32_t count, uint32_t frame, const vks_gpu_figures *g)
{
    vctx *c = user;
    (void)first, (void)count;
    uint32_t chunk = c->counts->crowd_deliveries++;
    if (g) {
        char poses[48];
        snprintf(poses, sizeof poses, "frame %u, instances", frame);
        vks__validate_check_readback(c, chunk, poses, g);
    }
    vks__validate_next_chunk(c);
    return 0;
}

/* Empties every file's accumulators and points them at this device's maps. */
static int begin_device(vrun *r, vdevice *d)
{
    size_t n = (size_t)r->nfiles;
    d->files = calloc(n, sizeof *d->files);
    d->maps = calloc(n * 3, sizeof *d->maps);
    d->heatmaps = calloc(n, sizeof *d->heatmaps);
    d->heatmap_missing = calloc(n, sizeof *d->heatmap_missing);
    d->run_errors = calloc(n, sizeof *d->run_errors);
    d->golden_errors = calloc(n, sizeof *d->golden_errors);
    if (!d->files || !d->maps || !d->heatmaps || !d->heatmap_missing || !d->run_errors || !d->golden_errors)
        return 0;
    for (int f = 0; f < r->nfiles; f++) {
        vfile *vf = &r->files[f];
        for (int k = 0; k < 3; k++)
            if (vks_error_map_init(&d->maps[f * 3 + k], vf->skin->vertex_count) != VKS_OK)
                return 0;
        vf->pmap = &d->maps[f * 3], vf->nmap = &d->maps[f * 3 + 1], vf->gmap = &d->maps[f * 3 + 2];
        vks_diff_begin(&vf->pos, vf->model_scale, &vf->tp);
        vks_diff_begin(&vf->nrm, 1.0, &vf->tn);
        vks_diff_begin(&vf->gpos, vf->model_scale, &vf->tp);
        vks_diff_begin(&vf->gnrm, 1.0, &vf->tn);
        vf->delivered = 0;
        vf->check_ms = 0, vf->golden_ms = 0;
    }
    return 1;
}

static char *dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dup_printf(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}

/* Why the model has no normals stream, or NULL when a mesh has normals: the engines then
 * write zeros that trivially match, which must read as absent, not as a pass. */
static const char *normals_absent(const vks_skin *s)
{
    for (uint32_t m = 0; s->normals && m < s->mesh_count; m++)
        if (s->meshes[m].flags & VKS_MESH_HAS_NORMALS)
            return NULL;
    return "the model has no normals";
}

/* Each file's seconds for the JUnit cases: its own checking time, and the rest of the device's
 * run (the GPU's work, shared by every file's chunks) by its share of the vertex-instances. */
static void file_seconds(vrun *r, vdevice *d)
{
    double own = 0, work = 0;
    for (int f = 0; f < r->nfiles; f++) {
        own += r->files[f].check_ms + r->files[f].golden_ms;
        work += (double)r->files[f].skin->vertex_count * r->files[f].poses;
    }
    double rest = d->st.total_ms > own ? d->st.total_ms - own : 0;
    for (int f = 0; f < r->nfiles; f++) {
        const vfile *vf = &r->files[f];
        double share = work > 0 ? rest * ((double)vf->skin->vertex_count * vf->poses / work) : 0;
        d->files[f].seconds = (vf->check_ms + share) / 1e3;
        d->files[f].golden_seconds = vf->golden_ms / 1e3;
        d->files[f].bind_seconds = vf->bind_ms / 1e3;
    }
}

/* The device's verdict per file, into d->files (the report's view of it). */
static int collect(vrun *r, vdevice *d)
{
    int rc = VKS_EXIT_OK;
    file_seconds(r, d);
    for (int f = 0; f < r->nfiles; f++) {
        vfile *vf = &r->files[f];
        vks_report_file *o = &d->files[f];
        o->path = vf->path;
        o->format = vf->skin->format ? vf->skin->format : "?";
        o->vertices = vf->skin->vertex_count, o->poses = vf->poses;
        vks_diff_end(&vf->pos, &o->positions);
        vks_diff_end(&vf->nrm, &o->normals);
        o->position_errors = vf->pmap, o->normal_errors = vf->nmap;
        o->normals_absent = normals_absent(vf->skin);
        if (vf->delivered != vf->poses)
            d->run_errors[f] = dup_printf("the GPU delivered %u of %u poses", vf->delivered, vf->poses);
        o->run_error = d->run_errors[f];
        o->bind_pass = vf->bind.pass, o->bind_allowed = !vf->bind.pass && vf->bind_exit == VKS_EXIT_OK;
        o->bind_max_error = vf->bind.max_error, o->bind_max_relative = vf->bind.max_error_relative;
        o->bind_tolerance = vf->bind.tolerance;
        if (r->c.against) {
            o->has_golden = 1;
            vks_diff_end(&vf->gpos, &o->golden_positions);
            vks_diff_end(&vf->gnrm, &o->golden_normals);
            o->golden_errors = vf->gmap;
            if (vf->gold.mismatch)
                d->golden_errors[f] = dup_printf("%s", vf->gold.mismatch);
            else if (vf->gold.io_failed)
                d->golden_errors[f] = dup_printf("reading the golden's raw failed: %s", strerror(vf->gold.io_errno));
            o->golden_error = d->golden_errors[f];
        }
        o->skin = vf->skin;
        int engines_ok = o->positions.pass && o->normals.pass && !o->run_error;
        int golden_ok = !o->has_golden || (!o->golden_error && o->golden_positions.pass && o->golden_normals.pass);
        if (!engines_ok || !golden_ok)
            rc = vks_cli_worse_exit(rc, VKS_EXIT_VALIDATION);
        rc = vks_cli_worse_exit(rc, vf->bind_exit);
    }
    return rc;
}

/* The batch's reduction: --readback-check's rule for what the host recomputes, and with --sample
 * every chunk reduced whatever it says (the reduction is what vouches for the instances not
 * compared). 0, said, when --sample needs a reduction the device cannot make. */
static int batch_reduction(vrun *r, vks_gpu *gpu, vks_gpu_batch *b, vdevice *d)
{
    b->reduce = vks_validate_reduce_mode(r); /* auto leaves out a context that reads in place */
    r->c.reduce = vks_gpu_batch_reduces(gpu, b); /* the host recomputes only what will come */
    if (r->sampled)
        b->reduce = 1;
    d->reduced = vks_gpu_batch_reduces(gpu, b);
    r->c.sampled = r->sampled, r->c.counts = &d->chk;
    if (r->sampled && !d->reduced) {
        fprintf(stderr, "vkskin validate: --sample: the device cannot reduce the chunks (subgroup arithmetic), "
                        "which is what checks the instances not compared\n");
        snprintf(d->error, sizeof d->error, "--sample needs the GPU's reduction, which the device lacks");
        return 0;
    }
    return 1;
}

int vks_validate_on_device(vrun *r, vdevice *d)
{
    vks_gpu *gpu = NULL;
    vks_gpu_models *ms = NULL;
    vks_cli_gpu_clips gclips = {0};
    const vks_skin **skins = calloc((size_t)r->nfiles, sizeof *skins);
    const vks_cli_poser **posers = calloc((size_t)r->nfiles, sizeof *posers);
    vks_gpu_batch_entry *entries = calloc((size_t)r->nfiles, sizeof *entries);
    int rc = VKS_EXIT_OK;
    vks_error err = {0};
    char msg[512];
    if (!skins || !posers || !entries || !begin_device(r, d)) {
        snprintf(d->error, sizeof d->error, "out of memory");
        rc = VKS_EXIT_RUNTIME;
        goto out;
    }
    for (int f = 0; f < r->nfiles; f++) {
        skins[f] = r->files[f].skin, posers[f] = &r->posers[f];
        entries[f] = (vks_gpu_batch_entry){(uint32_t)f, r->files[f].poses, NULL};
    }
    if ((rc = vks_cli_gpu_open(&r->gopt, &gpu)) != VKS_EXIT_OK) {
        snprintf(d->error, sizeof d->error, "the Vulkan device could not be opened (exit %d)", rc);
        goto out;
    }
    snprintf(d->name, sizeof d->name, "%s", vks_gpu_device(gpu)->name);
    snprintf(d->type, sizeof d->type, "%s", vks_gpu_device(gpu)->type);
    d->queue_family = vks_gpu_device(gpu)->queue_family, d->queue_index = vks_gpu_device(gpu)->queue_index;
    if (vks_gpu_upload(gpu, skins, (uint32_t)r->nfiles, &ms, &err) != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        snprintf(d->error, sizeof d->error, "upload: %.480s", msg);
        rc = vks_cli_exit_code(err.code);
        goto out;
    }
    r->c.files = r->files;
    r->c.threads = r->threads;
    /* Chunks of at most 32 MiB a stream unless --max-chunk-mb says: the host compares chunk k
       while the GPU deforms chunk k + 1, which overlaps only over several chunks (a run of two
       waits for the first whole), and progress comes a chunk at a time. The results do not
       depend on the chunks. */
    if (!r->gopt.max_chunk_bytes)
        r->gopt.max_chunk_bytes = (uint64_t)32 << 20;
    uint64_t poses = 0;
    for (int f = 0; f < r->nfiles; f++)
        poses += r->files[f].poses;
    vks_cli_progress progress;
    vks_cli_progress_begin(&progress, "validate", "poses", poses);
    r->c.progress = &progress;
    vks_result run;
    int src = 0; /* a split run: VKS_EXIT_OK, an exit code (a context not opened) or -1 (err) */
    if (r->pose->anim) { /* clips: sampled on the GPU by crowds of instances, chunk by chunk */
        double t0 = vks__validate_now_ms();
        vks_cli_crowd_stats cs = {0};
        vks_cli_crowd_job job = {gpu, ms, &gclips, posers, (uint32_t)r->nfiles, r->pose->frames,
                                 r->gopt.max_chunk_bytes, 0, NULL, crowd_deliver, &r->c,
                                 r->readback_check >= 0, crowd_delivered}; /* the readback check, frame by frame:
                                                                              the stream always copies */
        job.progress = NULL; /* crowd_deliver reports it */
        d->reduced = r->readback_check >= 0;
        r->c.reduce = d->reduced, r->c.counts = &d->chk;
        vks__validate_next_chunk(&r->c);
        vks_gpu_figures_reset(&d->chk.gpu_figures);
        if (r->nsplit > 1) { /* instances split across contexts, compared in one context's order */
            src = vks_validate_split_crowd(r, gpu, ms, skins, &job, &cs, &d->split, &err);
            if (src && err.code == VKS_OK)
                err.code = VKS_ERR_INVALID;
            run = src ? err.code : VKS_OK;
        } else {
            run = vks_cli_gpu_clips_upload(gpu, ms, posers, (uint32_t)r->nfiles, &gclips, &err);
            if (run == VKS_OK)
                run = vks_cli_crowd_run(&job, &cs, &err);
        }
        d->st.chunks = cs.chunks, d->st.vertex_instances = cs.vertex_instances;
        d->st.pose_ms = cs.gpu_ms, d->st.total_ms = vks__validate_now_ms() - t0;
        d->crowd_path = 1;
        r->c.reduce = 0;
    } else if (r->nsplit > 1) { /* poses split across contexts, compared in pose order */
        double t0 = vks__validate_now_ms();
        r->c.counts = &d->chk; /* each context checks its readback as one device's batch does */
        vks__validate_next_chunk(&r->c);
        vks_gpu_figures_reset(&d->chk.gpu_figures);
        src = vks_validate_split_batch(r, gpu, ms, skins, &d->st, &d->reduced, &err);
        d->st.total_ms = vks__validate_now_ms() - t0;
        if (src && err.code == VKS_OK)
            err.code = VKS_ERR_INVALID;
        run = src ? err.code : VKS_OK;
    } else {
        vks_gpu_batch b = {0};
        b.entries = entries, b.entry_count = (uint32_t)r->nfiles;
        b.get_locals = get_locals, b.deliver = deliver, b.user = &r->c;
        for (int k = 0; k < r->nfiles; k++)
            if (r->files[k].ps.morph_meshes) /* the poses drive morph weights */
                b.get_weights = get_weights;
        b.want_normals = 1;
        b.max_chunk_bytes = r->gopt.max_chunk_bytes;
        b.chunk_done = chunk_done; /* the readback check, and --sample's bound, of each chunk */
        if (!batch_reduction(r, gpu, &b, d)) {
            rc = VKS_EXIT_RUNTIME;
            vks_cli_progress_end(&progress);
            r->c.progress = NULL;
            goto out;
        }
        vks__validate_next_chunk(&r->c);
        vks_gpu_figures_reset(&d->chk.gpu_figures);
        vks_gpu_calibrate_for_batch(gpu, ms, &b); /* a run never calibrates from inside */
        run = vks_gpu_run(gpu, ms, &b, &d->st, &err);
        r->c.reduce = 0, r->c.sampled = 0;
    }
    if (src > 0) { /* a context of the list could not be opened: said already */
        vks_cli_progress_end(&progress);
        r->c.progress = NULL;
        snprintf(d->error, sizeof d->error, "a Vulkan device of the list could not be opened (exit %d)", src);
        rc = src;
        goto out;
    }
    vks_cli_progress_end(&progress);
    r->c.progress = NULL;
    if (run != VKS_OK) {
        fprintf(stderr, "vkskin: %s\n", vks_error_format(&err, NULL, msg, sizeof msg));
        snprintf(d->error, sizeof d->error, "%s", msg);
        rc = err.code == VKS_ERR_INVALID ? VKS_EXIT_RUNTIME : vks_cli_exit_code(err.code);
        goto out;
    }
    d->ran = 1;
    d->validation_layer = r->gopt.validation;
    d->validation_messages = vks_gpu_validation_messages(gpu) + r->validation_messages;
    rc = collect(r, d);
    if (d->chk.readback_mismatches) /* the data compared is not what the GPU wrote: no verdict on it */
        rc = vks_cli_worse_exit(rc, VKS_EXIT_RUNTIME);
    if (d->chk.bound_failures) /* --sample: an instance not compared went wrong */
        rc = vks_cli_worse_exit(rc, VKS_EXIT_VALIDATION);
    if (r->gopt.validation && d->validation_messages)
        rc = vks_cli_worse_exit(rc, VKS_EXIT_VALIDATION);
    if (r->report_dir)
        for (int f = 0; f < r->nfiles; f++)
            vks_validate_heatmap(r, gpu, d, f);
out:
    d->exit_code = rc;
    vks_cli_gpu_clips_free(&gclips);
    vks_gpu_models_free(ms);
    vks_gpu_destroy(gpu);
    free(skins), free(posers), free(entries);
    return rc;
}

void vks_validate_device_free(vdevice *d, int nfiles)
{
    for (int f = 0; f < nfiles; f++) {
        if (d->maps)
            for (int k = 0; k < 3; k++)
                vks_error_map_free(&d->maps[f * 3 + k]);
        if (d->heatmaps)
            free(d->heatmaps[f]);
        if (d->heatmap_missing)
            free(d->heatmap_missing[f]);
        if (d->run_errors)
            free(d->run_errors[f]);
        if (d->golden_errors)
            free(d->golden_errors[f]);
    }
    free(d->files), free(d->maps), free(d->heatmaps), free(d->heatmap_missing), free(d->run_errors),
        free(d->golden_errors);
}
