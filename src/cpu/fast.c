/* Placeholder until the fast CPU deformer lands (GPU issue): refuses clearly. */
#include "vkskin/cpu.h"

vks_result vks_cpu_fast_run(const vks_deform_job *job, int threads, vks_error *err)
{
    (void)job, (void)threads;
    return vks_error_set(err, VKS_ERR_UNSUPPORTED, VKS_NO_OFFSET, "cpu-fast", "the fast CPU deformer is not built yet");
}
