/* The contact sheet's grid (render.h): pure arithmetic, so it is built with or without the
 * GPU (a -DVKSKIN_GPU=OFF build keeps this file of src/render and stubs the rest). */
#include "vkskin/render.h"

void vks_render_grid(uint32_t count, uint32_t width, uint32_t height, uint32_t *columns, uint32_t *rows)
{
    uint32_t best = 1;
    double best_side = -1;
    for (uint32_t c = 1; c <= (count ? count : 1); c++) {
        uint32_t rw = (count + c - 1) / c;
        double w = (double)width / c, h = (double)height / (rw ? rw : 1);
        double side = w < h ? w : h;
        if (side > best_side)
            best_side = side, best = c;
    }
    *columns = best;
    *rows = count ? (count + best - 1) / best : 1;
}
