/* Placeholder until the rw reader lands: a clear refusal, never a crash. */
#include "vkskin/formats.h"

vks_result vks_rw_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err)
{
    (void)opt, (void)bytes, (void)size, (void)out;
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "rw", "reader not built yet");
}
