#include "vkskin/deform.h"

vks_result vks_deform_validate(const vks_deform_job *j, vks_error *err)
{
    if (!j || !j->skin)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "deform job", "no skin");
    if (j->instance_count == 0)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "deform job", "instance count is 0");
    if (!j->locals)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "deform job", "no local transforms");
    if (!j->positions)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "deform job", "no position output");
    if (j->skin->vertex_count && (uint64_t)j->instance_count > SIZE_MAX / 12 / j->skin->vertex_count)
        return vks_error_set(err, VKS_ERR_LIMIT, VKS_NO_OFFSET, "deform job",
                             "%u instances of %u vertices overflow the address space", j->instance_count,
                             j->skin->vertex_count);
    return VKS_OK;
}
