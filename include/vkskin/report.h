/* vkskin reports: what a validation run found, per device and file, written for CI systems
 * (JUnit XML) and for people (an HTML page with histograms and heat maps) (DESIGN.md 3: check/).
 *
 * STEP BY STEP
 *   1. per file and stream, beside the vks_diff_acc of check.h, an error map:
 *        vks_error_map m; vks_error_map_init(&m, skin->vertex_count);
 *        vks_error_map_add(&m, &tol, radius, gpu, ref, first, n, scales, ref_pos, ref_nrm)   per chunk
 *   2. fill a vks_report (devices, their files, the tolerances the run used) and write it:
 *        vks_report_junit(&report, stream, &err)
 *        vks_report_html(&report, stream, &err)     the page; the caller writes its pictures beside it
 *   3. vks_error_map_free(&m)
 *
 * The error of a vertex is its worst component's |a - b| divided by that component's tolerance
 * (abs_radius * scale + rel * |b|, the diff's own rule, check.h): 1 is the limit, over 1 fails.
 *
 * THREADS: an error map belongs to one thread at a time; the writers only read the report.
 */
#ifndef VKSKIN_REPORT_H
#define VKSKIN_REPORT_H

#include <stdio.h>

#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Histogram bins of error / tolerance: [0, 1e-4), [1e-4, 1e-3), [1e-3, 1e-2), [1e-2, 0.1),
 * [0.1, 0.5), [0.5, 1], (1, 10], (10, 100], > 100, not finite. The first six pass. */
enum { VKS_REPORT_BINS = 10, VKS_REPORT_PASS_BINS = 6 };
VKS_API const char *vks_report_bin_label(int bin);

typedef struct vks_error_map {
    uint32_t vertices;
    uint64_t hist[VKS_REPORT_BINS]; /* vertex-instances by their error */
    double worst;                   /* the largest error of any vertex-instance (-1: none yet) */
    uint32_t worst_instance;        /* whose vertices the arrays below hold */
    float *error;                   /* per vertex: its error in the worst instance */
    float *max_error;               /* per vertex: its largest error over every instance */
    float *positions, *normals;     /* the worst instance's vertices as drawn (the reference's),
                                       vertices * 3 each; zero where none were given */
} vks_error_map;

/* VKS_ERR_NOMEM when the arrays cannot be made (the map is then empty and safe to free). */
VKS_API vks_result vks_error_map_init(vks_error_map *m, uint32_t vertices);
/* Adds instances [first_instance, first_instance + instances) of a stream: a the engine under
 * test, b the reference, as vks_diff_add_scaled takes them (instance_scale may be NULL). When an
 * instance becomes the worst, draw_positions / draw_normals (the same layout as b; may be NULL)
 * of that instance are kept for the heat map. */
VKS_API void vks_error_map_add(vks_error_map *m, const vks_diff_tolerance *tol, double radius, const float *a,
                               const float *b, uint32_t first_instance, uint32_t instances,
                               const double *instance_scale, const float *draw_positions,
                               const float *draw_normals);
/* vks_diff_add_extremes(acc, a, b, first_instance, instances, vertices, instance_scale) and
 * vks_error_map_add(m, map_tol, map_radius, a, b, ...) of the same instances in one pass over
 * them: the same results, bit for bit, for about the cost of one (vkskin validate's
 * comparison). m must be of a model with `vertices` vertices (else only the diff is taken). */
VKS_API void vks_diff_and_map_add(vks_diff_acc *acc, vks_error_map *m, const vks_diff_tolerance *map_tol,
                                  double map_radius, const float *a, const float *b, uint32_t first_instance,
                                  uint32_t instances, uint32_t vertices, const double *instance_scale,
                                  const float *draw_positions, const float *draw_normals);
/* Adds another map of the same model (a thread's share): histograms add, the worse worst wins. */
VKS_API void vks_error_map_merge(vks_error_map *into, const vks_error_map *part);
/* The vertices whose largest error is over 1, largest first: up to cap into out; returns how
 * many there are in all. */
VKS_API uint32_t vks_error_map_over(const vks_error_map *m, uint32_t *out, uint32_t cap);
/* The same for the worst instance alone (the one a heat map draws). */
VKS_API uint32_t vks_error_map_worst_over(const vks_error_map *m, uint32_t *out, uint32_t cap);
/* Empties the map for another run of the same model. */
VKS_API void vks_error_map_reset(vks_error_map *m);
VKS_API void vks_error_map_free(vks_error_map *m);

/* One file's results on one device. */
typedef struct vks_report_file {
    const char *path, *format;
    uint32_t vertices, poses;
    vks_diff_report positions, normals;      /* against the CPU reference */
    const vks_error_map *position_errors;    /* may be NULL */
    const vks_error_map *normal_errors;      /* may be NULL */
    const char *run_error;                   /* the run itself failed for this file, or NULL */
    /* the bind-pose finding: deforming with the bind pose reproduces the stored vertices */
    int bind_pass, bind_allowed;             /* allowed: failed, accepted by --allow-bind-mismatch */
    double bind_max_error, bind_max_relative, bind_tolerance;
    /* golden regression (--against): the same poses compared with the stored results */
    int has_golden;
    const char *golden_error;                /* the golden could not be compared, or NULL */
    vks_diff_report golden_positions, golden_normals;
    const vks_error_map *golden_errors;      /* positions; may be NULL */
    /* pictures beside the page: a heat map of the worst instance (NULL: none) */
    const char *heatmap;
    /* the page's 3D view draws position_errors' worst instance with this model's triangles
       (NULL: no view for this file) */
    const vks_skin *skin;
    /* why there is no heat map (heatmap NULL), said on the page: e.g. the device's queue
       family cannot draw. NULL: none was asked for */
    const char *heatmap_missing;
    /* why the model has no normals stream (no mesh has normals), or NULL: then the normals and
       golden normals are reported absent (a skipped JUnit case), never as a PASS on zeros (an
       engine that wrote other than zeros still fails: the verdict is the numbers') */
    const char *normals_absent;
    /* seconds spent on this file (the JUnit cases' time; 0: not measured): comparing its
       poses with the engines' (its share of the device's run), comparing them with the
       golden, and its bind-pose check */
    double seconds, golden_seconds, bind_seconds;
} vks_report_file;

typedef struct vks_report_device {
    const char *name, *type;
    const char *error;             /* the device could not run the validation, or NULL */
    int validation_layer;          /* the Khronos layer was on */
    uint32_t validation_messages;
    int exit_code;                 /* this device's verdict, as vkskin validate's exit codes */
    double seconds;                /* how long its run took (the suite's time; 0: not measured) */
    const vks_report_file *files;
    uint32_t file_count;
    /* a sampled run (vks_report.sample): what the GPU's reduction of every chunk was held to
       (no non-finite component, extents inside the host's bound), a JUnit case of its own;
       NULL: no such check */
    const char *reduction_check;
    int reduction_pass;
} vks_report_device;

typedef struct vks_report {
    const char *version;           /* vkskin's */
    const char *command;           /* what was run, for the reader (may be NULL) */
    double tolerance_scale;        /* multiplies the derived position and normal tolerances */
    double nmse;                   /* the NMSE bound of every stream */
    const char *against;           /* the golden compared with, or NULL */
    const vks_report_device *devices;
    uint32_t device_count;
    int exit_code;                 /* the run's: the worst of the devices' */
    const char *three_js;          /* the page's 3D view loads this script (beside the page); NULL:
                                      no 3D view, and the page says why (three_js_missing) */
    const char *three_js_missing;
    /* the instances compared with the reference when not all were (validate --sample: how
       many of each file's, the seed), a property of every suite; NULL: every instance */
    const char *sample;
} vks_report;

/* JUnit XML as Jenkins and GitLab read it: one <testsuite> per device, one <testcase> per
 * file x stream (positions, normals; golden-positions, golden-normals with --against) and the
 * bind-pose check of each file, the metrics in the message, failures as <failure>, a device
 * that could not run as an <error>, a stream the model does not have as <skipped>. Class names are "validate.DEVICE.FILE" with every '.'
 * inside the device's name and the file's path written '_' (CI servers split a class name
 * at its dots: the package is validate.DEVICE, the class FILE); times come from the file's
 * seconds (shared by positions and normals), golden_seconds (by the two golden streams) and
 * bind_seconds. VKS_ERR_IO when the stream reports a write error. */
VKS_API vks_result vks_report_junit(const vks_report *r, FILE *f, vks_error *err);
/* One HTML page: the tolerances, a summary table per device and file (failing rows red), per
 * file an inline SVG histogram of the errors, its heat map (an <img> of file->heatmap) and a
 * three.js view of the worst instance coloured by error. Needs nothing from the network. */
VKS_API vks_result vks_report_html(const vks_report *r, FILE *f, vks_error *err);

/* The colour of an error for heat maps and the 3D view: blue (0) through green and yellow to
 * red (1, the tolerance) and magenta (far over), as RGB bytes. */
VKS_API void vks_report_error_color(double error, uint8_t rgb[3]);

#ifdef __cplusplus
}
#endif
#endif
