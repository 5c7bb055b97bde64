/* --contact-sheet: one PNG per baked clip, its frames in a grid, drawn by the GPU renderer
 * (render.h) from the same crowd path the bake deforms with. */
#include "bake_job.h"

int vks_bake_contact_sheets(const vks_bake_job *job, const vks_bake_loaded *l, vks_gpu *gpu, const char *dir,
                            vks_bake_result *res)
{
    fprintf(stderr, "vkskin: %s: --contact-sheet is not available yet\n", job->where);
    return 0;
}
