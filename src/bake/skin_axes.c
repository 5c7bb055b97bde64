/* A skin's axes from the format registry (skin_axes.h). */
#include "skin_axes.h"

vks_axes vks__skin_axes(const vks_skin *skin)
{
    const vks_format_info *f = skin->format ? vks_format_find(skin->format) : NULL;
    return f ? f->axes : VKS_AXES_Y_UP;
}
