/* Numbers as text for the text writers (CSV, OBJ): the characters printf("%.9g") and
 * printf("%u") give, without stdio or the locale.
 *
 * Why not printf: a CSV vertex cache is six floats a line, and glibc's exact %.9g costs about
 * 200 ns a number, so printf was nine tenths of a CSV deform's time. Why these characters: the
 * files written before must stay byte for byte what they were (bakes are compared across
 * releases), and nine significant digits give every float back exactly. The locale: a host
 * that embeds the library and calls setlocale() for a comma would otherwise get CSV columns
 * split inside its numbers. */
#ifndef VKS_CORE_FLOAT_TEXT_H
#define VKS_CORE_FLOAT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* The longest text either function writes ("-1.17549435e-38", "4294967295"); no NUL. */
#define VKS_FLOAT_TEXT_MAX 16

/* Writes v as printf("%.9g", (double)v) does in the C locale (rounded to nearest, ties to
 * even, on the float's exact value), returns the number of characters written. */
size_t vks_float_text(char *dst, float v);

/* Writes v in decimal as printf("%u") does; returns the number of characters written. */
size_t vks_u32_text(char *dst, uint32_t v);

/* An OBJ line "tag v[0] v[1] ... v[n-1]\n" (n at most 4) as fprintf("%s %.9g ...\n") writes it;
 * returns its length. dst needs VKS_TEXT_LINE_MAX bytes; tag at most 7 characters. */
#define VKS_TEXT_LINE_MAX (8 + 4 * (VKS_FLOAT_TEXT_MAX + 1) + 1)
size_t vks_text_line(char *dst, const char *tag, const float *v, int n);

#endif
