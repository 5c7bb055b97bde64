/* vkskin validate's parts around the library's engine (vkskin/validate.h): the run of one
 * device (validate_run.c: the inputs built from the posers, one vks_validate_run call, the heat
 * maps), golden folders (validate_golden.c), --sample's option (validate_sample.c) and the
 * report files asked of the library's writers (validate_report.c); cmd_validate.c parses the
 * options, runs every device and prints the library's text (vks_validate_write_text). */
#ifndef VKSKIN_CLI_VALIDATE_H
#define VKSKIN_CLI_VALIDATE_H

#include "cli_shares.h"
#include "cli_gpu.h"
#include "vkskin/report.h"
#include "vkskin/validate.h"

/* A file of the run as the command read it. */
typedef struct vinput {
    const char *path;
    vks_skin *skin;
    uint64_t hash;            /* vks_validate_model_hash of the file's bytes (the golden's) */
    vks_bind_check bind;      /* the bind-pose check, said on stderr as the file was read */
    int bind_exit;            /* VKS_EXIT_OK or VKS_EXIT_BIND */
    int bind_promised;        /* the format promises rest = bind (vks_bind_promised) */
    uint32_t frames, poses;
} vinput;

/* What the run of one device found, kept for the reports written at the end. */
typedef struct vdevice {
    vks_validate_result res; /* the library's run (zeroed where the device could not start) */
    vks_validate_device lib; /* the device as printed and reported: res's, or named here when it
                                could not run (error, exit code) */
    vks_validate_file *vfiles; /* one per file: res's, with the heat maps named in files */
    vks_report_file *files;
    char **heatmaps;          /* per file: the heat map's file name in the report folder, or NULL */
    char **heatmap_missing;   /* per file: why it has none (--report only), or NULL */
    vks_poser_split_stats split; /* clips across several contexts: what each did */
    vks_cli_shares shares;    /* what each context of a split took (batch or clips) */
} vdevice;

typedef struct vrun {
    vinput *files;
    vks_poser *posers;    /* per file */
    int nfiles;
    const vks_cli_pose *pose;
    vks_cli_gpu_opts gopt;    /* with the device of this run */
    vks_validate_options opt; /* the library's, as the command line says */
    const char *report_dir;   /* --report: heat maps are drawn into it per device */
    int device_number;        /* for heat map names */
    /* --device all or a list without --each: the contexts the work is split across (split[0]
       is gopt.device); nsplit <= 1: the one device of gopt */
    const char (*split)[16];
    int nsplit;
} vrun;

/* Runs every file on the device of r->gopt into d through vks_validate_run, and with a report
 * folder draws the heat maps. Returns the device's exit code (0 when everything passed). */
int vks_validate_on_device(vrun *r, vdevice *d);
void vks_validate_device_free(vdevice *d, int nfiles);

/* ---- sampled validation (validate_sample.c) ---- */

/* --sample N|P% and --sample-seed S */
typedef struct vsample {
    int on;
    uint32_t count;   /* N instances of each file (count) or P percent of them (percent > 0) */
    double percent;
    uint64_t seed;
} vsample;

enum { VKS_SAMPLE_DEFAULT_SEED = 41 };

/* The setter of --sample and --sample-seed (cli_options.h; field: the vsample). */
int vks_validate_sample_set(void *field, const vks_cli_option *opt, const char *v);

/* ---- golden folders (validate_golden.c) ---- */

/* Before any work: refuses (vks_cli_refuse_input, exit 2) a file --save-golden DIR would write
 * for nfiles files that is one of the inputs. */
int vks_golden_refuse_inputs(const char *dir, int nfiles, const vks_output_inputs *in);
/* The files of a golden folder (--against DIR reads golden.json and the raws it names, all in
 * DIR) as inputs. */
void vks_golden_add_inputs(const char *dir, vks_output_inputs *in);
/* Makes DIR and opens the library's golden for storing the files' results; 0 on success (else
 * prints why, exit code). */
int vks_golden_begin_save(const char *dir, const vinput *files, int nfiles, vks_validate_golden **out);
/* Reads DIR/golden.json for the comparison; each file it does not hold is said on stderr. Exit
 * code (1: the golden cannot be read at all). */
int vks_golden_begin_against(const char *dir, const vinput *files, int nfiles, const char *pose_spec,
                             vks_validate_golden **out);
/* Commits the raws and writes DIR/golden.json (commit: the run completed). Exit code. */
int vks_golden_finish_save(const char *dir, vks_validate_golden *g, const char *pose_spec, const char *engine,
                           const char *device, int commit);

/* ---- reports (validate_report.c) ---- */

typedef struct vreport_opts {
    const char *junit;       /* --junit FILE */
    const char *report_dir;  /* --report DIR */
    const char *against;
    const char *command;
} vreport_opts;

/* Writes the JUnit file and the report folder of r (every device's results, the run's verdict)
 * through the library; a failure to write is printed and returned as VKS_EXIT_RUNTIME. */
int vks_validate_reports(const vreport_opts *o, const vks_validate_result *r);
/* Before any work: refuses (vks_cli_refuse_input, exit 2) a report file that is one of the
 * inputs: the JUnit file, and in the report folder index.html, three.min.js and the heat maps. */
int vks_validate_reports_refuse_inputs(const vreport_opts *o, const vks_output_inputs *in);
/* Makes the folder an option names unless it exists; prints why not (exit 5). */
int vks_validate_make_dir(const char *option, const char *dir);
/* Draws the heat map of file f's worst instance into the report folder through the library
 * (name in d->heatmaps, or why none in d->heatmap_missing); prints why not when it cannot. */
void vks_validate_heatmap(const vrun *r, vks_gpu *gpu, vdevice *d, int f);

#endif
