/* vks_nif_read: Gamebryo / NetImmerse NIF (4.0.0.2 .. 20.2.0.7) -> vks_skin. The pieces:
 * nif_header.c (header), nif_walk.c (block walk and footer), nif_avobject.c / nif_geomdata.c /
 * nif_skinblocks.c / nif_aux.c (block layouts), nif_model.c (blocks -> model). Everything
 * parsed lives in a scratch arena freed here; the model gets its own copies. nif_open and
 * nif_close are the same parse for the clip reader (nif_kf_*.c). */
#include "nif_internal.h"

#include <stdio.h>
#include <string.h>

vks_result nif_open(nif_file *f, const vks_read_options *opt, int want_anim, const void *bytes, size_t size,
                    vks_error *err)
{
    memset(f, 0, sizeof *f);
    f->opt = vks_read_options_defaults(opt);
    f->want_anim = want_anim;
    if (!bytes && size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "nif", "bytes is NULL");
    f->scratch = vks_skin_create(&f->opt.allocator);
    if (!f->scratch)
        return vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif", "out of memory");
    return nif_parse(f, bytes ? bytes : "", size, err);
}

void nif_close(nif_file *f)
{
    vks_skin_free(f->scratch);
    f->scratch = NULL;
}

vks_result vks_nif_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                        vks_error *err)
{
    vks_error local = {0};
    if (!err)
        err = &local;
    nif_file f;
    vks_result rc = nif_open(&f, opt, 0, bytes, size, err);
    uint32_t unplayed = 0;
    vks_skin *skin = NULL;
    if (rc == VKS_OK) {
        skin = vks_skin_create(&f.opt.allocator);
        if (!skin)
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif", "out of memory");
    }
    if (rc == VKS_OK)
        rc = nif_build_model(&f, skin, &unplayed, err);
    if (rc == VKS_OK) {
        char detail[160];
        nif_version_detail(&f, detail, sizeof detail);
        size_t len = strlen(detail);
        if (unplayed) /* said in --json too: the warnings went to the logger (nif_morph_model.c) */
            snprintf(detail + len, sizeof detail - len, ", %u NiGeomMorpherController(s) not applied as stored (warned)",
                     unplayed);
        skin->format = "nif";
        skin->format_detail = vks_skin_strndup(skin, detail, strlen(detail));
        if (!skin->format_detail)
            rc = vks_error_set(err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "nif", "out of memory");
    }
    nif_close(&f);
    if (rc != VKS_OK) {
        if (err->code == VKS_OK) /* every failure path sets err; keep the contract if one did not */
            vks_error_set(err, rc, VKS_NO_OFFSET, "nif", "read failed");
        vks_skin_free(skin);
        return rc;
    }
    *out = skin;
    return VKS_OK;
}
