/* Placeholder until the nif writer lands. */
#include "vkskin/formats.h"

vks_result vks_nif_write(const vks_skin *skin, const vks_write_options *opt, uint8_t **out_bytes,
                         size_t *out_size, vks_error *err)
{
    (void)skin, (void)opt, (void)out_bytes, (void)out_size;
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "nif", "writer not built yet");
}
