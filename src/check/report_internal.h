/* Private to the report writers (junit.c, report_html.c): the wording both use, so JUnit and
 * the page say the same thing about a stream in the same words. */
#ifndef VKS_REPORT_INTERNAL_H
#define VKS_REPORT_INTERNAL_H

#include <stddef.h>

#include "vkskin/report.h"

/* Writes s with &, <, >, " and ' escaped (XML and HTML alike); control characters other than
 * tab and newline become '?', since XML 1.0 cannot carry them. */
void vks__report_escape(FILE *f, const char *s);

/* One line of a stream's metrics: max abs, max relative, NMSE and its bound, the count over
 * tolerance, the tolerance as used, the worst vertex and instance. */
void vks__report_metrics(char *buf, size_t size, const vks_diff_report *r);

/* "vertices over tolerance: N (largest first: a, b, ...)" from an error map, or "" when none
 * is over or there is no map. */
void vks__report_over(char *buf, size_t size, const vks_error_map *m);

/* The bind-pose finding in words. */
void vks__report_bind(char *buf, size_t size, const vks_report_file *f);

/* The file's name without its folders, for short labels. */
const char *vks__report_base(const char *path);

/* 1 when a file fails on its device: a stream over tolerance, a run error, the golden off or
 * not comparable, or a bind-pose check that failed without being allowed. */
int vks__report_file_fails(const vks_report_file *f);

/* The words for a stream the model does not have: "absent: <why> (not compared)". Used where
 * the stream's zeros matched (a mismatch on zeros stays a failure: the verdict is the
 * numbers'). */
void vks__report_absent(char *buf, size_t size, const char *why);

#endif
