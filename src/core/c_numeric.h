/* The C locale's numbers, for the calling thread, while a library call writes or reads numbers
 * as text (CMDL and CSKLA XML, crowd files, P3D's material colours, reports, the tuning cache).
 *
 * Why: printf, strtod and sscanf follow the process's LC_NUMERIC, and a host that embeds the
 * library may call setlocale() for its own UI: under de_DE a CMDL would be written "0,5" (which
 * no reader takes back) and a crowd file's "0.5" refused. uselocale() changes the calling
 * thread only, so other threads of the host keep their locale. */
#ifndef VKS_CORE_C_NUMERIC_H
#define VKS_CORE_C_NUMERIC_H

#include <locale.h>

typedef struct vks_c_numeric {
    locale_t c, old;
} vks_c_numeric;

/* Switches the calling thread to the C locale's numbers (nothing where it cannot: no memory). */
void vks_c_numeric_enter(vks_c_numeric *scope);
/* Gives the thread back the locale it had. */
void vks_c_numeric_leave(vks_c_numeric *scope);

/* A public function's whole body as `return call;` under the C locale's numbers: its text
 * work is in a static function of its own, called here, so every return of it is covered. */
#define VKS_RETURN_IN_C_NUMERIC(type, call)                                                       \
    do {                                                                                         \
        vks_c_numeric scope_;                                                                    \
        vks_c_numeric_enter(&scope_);                                                            \
        type result_ = (call);                                                                   \
        vks_c_numeric_leave(&scope_);                                                            \
        return result_;                                                                          \
    } while (0)

#endif
