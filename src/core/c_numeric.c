/* c_numeric.h: a per-thread C locale around the library's text numbers. */
#include "c_numeric.h"

void vks_c_numeric_enter(vks_c_numeric *scope)
{
    scope->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    scope->old = scope->c ? uselocale(scope->c) : (locale_t)0;
}

void vks_c_numeric_leave(vks_c_numeric *scope)
{
    if (scope->c) {
        uselocale(scope->old);
        freelocale(scope->c);
        scope->c = (locale_t)0;
    }
}
