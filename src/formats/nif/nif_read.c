/* vks_nif_read: Gamebryo / NetImmerse NIF (4.0.0.2 .. 20.2.0.7) -> vks_skin. The pieces:
 * nif_header.c (header), nif_walk.c (block walk and footer), nif_avobject.c / nif_geomdata.c /
 * nif_skinblocks.c / nif_aux.c (block layouts), nif_model.c (blocks -> model). Everything
 * parsed lives in a scratch arena freed here; the model gets its own copies. */
#include "nif_internal.h"

#include <stdio.h>
#include <string.h>

vks_result vks_nif_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err)
{
    vks_error local = {0};
    if (!err)
        err = &local;
    if (!bytes && size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "nif", "bytes is NULL");
    nif_file f = {0};
    f.opt = vks_read_options_defaults(opt);
    f.scratch = vks_skin_create(&f.opt.allocator);
    vks_skin *skin = vks_skin_create(&f.opt.allocator);
    if (!f.scratch || !skin) {
        vks_skin_free(f.scratch);
        vks_skin_free(skin);
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif", "out of memory");
    }
    vks_result rc = nif_parse(&f, bytes ? bytes : "", size, err);
    if (rc == VKS_OK)
        rc = nif_build_model(&f, skin, err);
    if (rc == VKS_OK) {
        char detail[64];
        uint32_t v = f.ver;
        if (f.bsver || f.user)
            snprintf(detail, sizeof detail, "NIF %u.%u.%u.%u (user %u, bs %u)", v >> 24, (v >> 16) & 255,
                     (v >> 8) & 255, v & 255, f.user, f.bsver);
        else
            snprintf(detail, sizeof detail, "NIF %u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
        skin->format = "nif";
        skin->format_detail = vks_skin_strndup(skin, detail, strlen(detail));
        if (!skin->format_detail)
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif", "out of memory");
    }
    vks_skin_free(f.scratch);
    if (rc != VKS_OK) {
        if (err->code == VKS_OK) /* every failure path sets err; keep the contract if one did not */
            vks_error_set(err, rc, VKS_NO_OFFSET, "nif", "read failed");
        vks_skin_free(skin);
        return rc;
    }
    *out = skin;
    return VKS_OK;
}
