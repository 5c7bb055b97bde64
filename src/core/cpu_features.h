/* What the CPU runs (cpu_features.c): the vector forms of the CPU reference, the comparison,
 * NMSE's sums, the error scale and the fast engine are chosen by it at run time, each with the
 * scalar form as its rule. Internal. */
#ifndef VKSKIN_CORE_CPU_FEATURES_H
#define VKSKIN_CORE_CPU_FEATURES_H

/* 1 where the CPU (and the OS, for its registers) runs AVX2; 0 elsewhere, and on compilers or
 * architectures without the vector forms. */
int vks__cpu_has_avx2(void);
/* The same for AVX2 with FMA (the fast engine's kernel, which may contract; the reference and
 * the checks never do). */
int vks__cpu_has_avx2_fma(void);
/* AVX-512 F, VL, DQ and BW with AVX2 and FMA (the fast engine's sixteen-lane kernel), only where
 * the OS also saves the opmask and ZMM registers (XCR0): a kernel that hides them must not run
 * it, whatever cpuid says. */
int vks__cpu_has_avx512(void);
/* VKSKIN_CPU_CROWD=off in the environment: the CPU engines (fast and reference) deform one
 * instance at a time instead of several in vector lanes, for comparisons (the floats are the
 * same bits either way). */
int vks__cpu_crowd_off(void);

#endif
