/* Helpers shared by the RenderWare / GTA clip tests: fixture building on top of
 * core/bytebuf.h, the truncation and corruption sweeps for clip readers, and the
 * comparison of two clips through a skin (sampled locals). */
#ifndef VKS_TEST_RW_ANIM_UTIL_H
#define VKS_TEST_RW_ANIM_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "core/bytebuf.h"
#include "vkskin.h"

/* Fixtures are built with core/bytebuf.h (vks_buf_u32, vks_buf_f32, ...); tb is its short name. */
typedef vks_bytebuf tb;
void tb_str(tb *b, const char *s, size_t field); /* NUL-padded to field bytes */

/* Every prefix of bytes, each in its own exact-size allocation, must fail with a message and
 * an offset and leave *out NULL. Returns the number of violations (printed). */
int rwa_truncations(vks_clip_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes, size_t size,
                    const char *name);
/* Each byte overwritten with each of the values: the reader either fails with a message or
 * returns a set that validates and samples without harm. Returns the violations. */
int rwa_corruptions(vks_clip_reader_fn fn, const vks_read_options *opt, const uint8_t *bytes, size_t size,
                    const char *name);
/* The reader must fail with code, a message and no set, at offset at unless that is
 * VKS_NO_OFFSET (CHECKs count the misses; the message says which case). */
void rwa_expect(vks_clip_reader_fn fn, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                vks_result code, uint64_t at, const char *what);
/* Samples every curve of every clip at a few times (finite outputs expected). 0 when fine. */
int rwa_sample_all(const vks_clip_set *set);

/* Largest difference of the skin's locals (12 matrix entries) between two clips bound to it,
 * sampled at n + 1 times over [0, duration of a], or at the given times. -1 when a binding
 * fails. */
double rwa_locals_diff(const vks_clip *a, const vks_clip *b, const vks_skin *skin, int n);
double rwa_locals_diff_at(const vks_clip *a, const vks_clip *b, const vks_skin *skin, const float *times, int n);

/* Seeds for the fuzz target (tests/fuzz/rw_anim): a test run as `test --write-seeds DIR`
 * writes its fixtures there. rwa_seed_dir gives DIR or NULL; rwa_write_seed writes one file
 * when dir is not NULL. */
const char *rwa_seed_dir(int argc, char **argv);
void rwa_write_seed(const char *dir, const char *name, const uint8_t *bytes, size_t size);

/* A skin read back from a DFF of the generated character (nodes with tags and anim_index). */
vks_skin *rwa_dff_character(uint8_t **dff, size_t *dff_size);

#endif
