/* Small test helpers shared by every test program: checks that count failures and keep
 * going, file loading, the real-dataset folder (exit 77 where it is absent), and the
 * truncation / corruption sweeps every reader must survive. */
#ifndef VKS_TESTUTIL_H
#define VKS_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "vkskin.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

extern int vks_test_failures;

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
            vks_test_failures++;                                                           \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                 \
    do {                                                                                   \
        long long va_ = (long long)(a), vb_ = (long long)(b);                              \
        if (va_ != vb_) {                                                                  \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__,  \
                    #a, #b, va_, vb_);                                                     \
            vks_test_failures++;                                                           \
        }                                                                                  \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                              \
    do {                                                                                   \
        double va_ = (double)(a), vb_ = (double)(b);                                       \
        if (!(va_ - vb_ <= (tol) && vb_ - va_ <= (tol))) {                                 \
            fprintf(stderr, "%s:%d: %s ~= %s failed: %.9g vs %.9g (tol %g)\n", __FILE__,   \
                    __LINE__, #a, #b, va_, vb_, (double)(tol));                            \
            vks_test_failures++;                                                           \
        }                                                                                  \
    } while (0)

/* A host that set a comma locale: compiles de_DE.UTF-8 with localedef into dir (a mkdtemp
 * template, kept for the caller to remove), points LOCPATH at it and calls setlocale(LC_ALL).
 * 1 when printf("%.1f", 1.5) then writes "1,5"; 0 where localedef or its sources are absent
 * (dir then removed). */
int vks_test_comma_locale(char *dir);

/* Prints a summary line and returns the process exit code. */
int vks_test_finish(const char *name);

/* Whole file into a malloc'ed buffer (NULL on failure). */
uint8_t *vks_test_read_file(const char *path, size_t *size);

/* Path of a file in the real sample datasets ($VKSKIN_REAL_DATASETS or ../shared/datasets);
 * exits 77 (skip) when the folder or the file is absent. Returns a static buffer. */
const char *vks_test_dataset(const char *relative);
/* Path under the source tree (VKSKIN_SOURCE_DIR, set by CTest). Static buffer. */
const char *vks_test_source_path(const char *relative);

/* Reads every prefix of bytes (each in its own exact-size allocation so ASan sees any
 * over-read) and requires a clean failure with a message. Prefixes at all positions when
 * size <= all_limit, otherwise at the given boundaries plus `samples` spread positions.
 * Returns the number of prefixes that were wrongly accepted or failed without a message. */
int vks_test_truncations(vks_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes,
                         size_t size, size_t all_limit, const size_t *boundaries, size_t nb,
                         size_t samples);

/* Flips / overwrites bytes at positions (every position when positions == NULL, stride 1)
 * with the given values and requires the reader to either fail with a message or return a
 * model that passes vks_skin_validate. Returns the number of violations. */
int vks_test_corruptions(vks_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes,
                         size_t size, const size_t *positions, size_t npos, size_t width);

#endif
