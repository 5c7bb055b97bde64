/* ODOL placeholder (replaced below). */
#include "formats/p3d_internal.h"
vks_result p3d_odol_scan(p3d_pool *pool, const uint8_t *bytes, size_t size, const vks_read_options *opt,
                         p3d_file *file, vks_error *err)
{
    (void)pool, (void)bytes, (void)size, (void)opt, (void)file;
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, 0, "odol", "not yet");
}
vks_result p3d_odol_lod(p3d_pool *pool, const p3d_file *file, uint32_t index, const vks_read_options *opt,
                        p3d_lod *lod, vks_error *err)
{
    (void)pool, (void)file, (void)index, (void)opt, (void)lod;
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, 0, "odol", "not yet");
}
