/* vks_cmdl_read: NintendoWare CTR intermediate model (.cmdl XML) -> vks_skin.
 * Parse (expat) -> skeleton -> one builder mesh per shape -> finish. See cmdl_internal.h for
 * the steps and ../shared/formats/nw4c_cmdl.md for the format. */
#include "cmdl_internal.h"
#include "core/c_numeric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does any set need the static model-space node? (a plain Model, or a None set without a
   table inside a SkeletalModel) */
static int needs_static(const cmdl_doc *d)
{
    if (d->skeletal != 1)
        return 1;
    const cmdl_shape *sh = d->shapes.data;
    for (size_t i = 0; i < d->shapes.count; i++) {
        const cmdl_set *sets = sh[i].sets.data;
        for (size_t k = 0; k < sh[i].sets.count; k++)
            if (sets[k].skinning == CMDL_SKIN_NONE && sets[k].table_count == 0)
                return 1;
    }
    return 0;
}

static vks_result cmdl_read_body(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                                 vks_error *err)
{
    cmdl_ctx c = {0};
    c.opt = vks_read_options_defaults(opt); /* also fills in malloc/free */
    vks_error local = {0};
    c.err = err ? err : &local;
    if (!bytes && size)
        return vks_error_set(err, VKS_ERR_INVALID, VKS_NO_OFFSET, "cmdl", "no bytes");

    vks_skin *skin = NULL;
    uint32_t *bone_node = NULL;
    vks_affine *inverse_bind = NULL;
    uint8_t *singular = NULL;
    vks_result rc = vks__cmdl_parse(&c, bytes ? bytes : "", size);
    if (rc != VKS_OK)
        goto done;
    cmdl_doc *d = &c.doc;
    if (d->skeletal < 0) {
        rc = vks_error_set(c.err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "GraphicsContentCtr/Models",
                           "no Model or SkeletalModel element");
        goto done;
    }
    if (d->skeletal == 1 && d->bones.count == 0) {
        rc = vks_error_set(c.err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "GraphicsContentCtr/Models/SkeletalModel[0]/Skeleton",
                           "SkeletalModel without bones");
        goto done;
    }
    skin = vks_skin_create(&c.opt.allocator);
    if (!skin) {
        rc = vks_error_set(c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl", "out of memory");
        goto done;
    }
    int32_t static_node = -1;
    if ((rc = vks__cmdl_skeleton(&c, skin, &bone_node, needs_static(d), &static_node)) != VKS_OK)
        goto done;
    inverse_bind = vks__cmdl_alloc(&c, skin->node_count, sizeof *inverse_bind);
    singular = vks__cmdl_alloc(&c, skin->node_count, 1);
    if (!inverse_bind || !singular) {
        rc = vks_error_set(c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl", "out of memory");
        goto done;
    }
    if ((rc = vks__cmdl_inverse_binds(&c, skin, inverse_bind, singular)) != VKS_OK)
        goto done;
    vks_skin_builder *b = vks_builder_create(skin);
    if (!b) {
        rc = vks_error_set(c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl", "out of memory");
        goto done;
    }
    rc = vks__cmdl_shapes(&c, skin, b, bone_node, static_node, inverse_bind, singular);
    if (rc != VKS_OK) {
        vks_builder_destroy(b);
        goto done;
    }
    if ((rc = vks_builder_finish(b, c.err)) != VKS_OK)
        goto done;
    if (skin->mesh_count == 0) {
        rc = vks_error_set(c.err, VKS_ERR_FORMAT, VKS_NO_OFFSET, "GraphicsContentCtr/Models",
                           "the model has no shape with triangles");
        goto done;
    }

    uint32_t billboards = 0;
    const cmdl_bone *bones = d->bones.data;
    for (size_t i = 0; i < d->bones.count; i++)
        billboards += bones[i].billboard != 0;
    char detail[192];
    int n = snprintf(detail, sizeof detail, "NW4C .cmdl %s%s, %s \"%.40s\"", d->version ? "GraphicsContentCtr " : "",
                     d->version ? d->version : "", d->skeletal ? "SkeletalModel" : "Model",
                     d->model_name ? d->model_name : "");
    if (billboards && n > 0 && (size_t)n < sizeof detail)
        n += snprintf(detail + n, sizeof detail - (size_t)n, ", %u billboard bone(s) deformed as Off", billboards);
    if (d->model_count > 1 && n > 0 && (size_t)n < sizeof detail)
        snprintf(detail + n, sizeof detail - (size_t)n, ", first of %u models", d->model_count);
    skin->format = "nw4c";
    skin->format_detail = vks_skin_strndup(skin, detail, strlen(detail));
    if (!skin->format_detail) {
        rc = vks_error_set(c.err, VKS_ERR_NOMEM, VKS_NO_OFFSET, "cmdl", "out of memory");
        goto done;
    }
done:
    vks__cmdl_free(&c, bone_node);
    vks__cmdl_free(&c, inverse_bind);
    vks__cmdl_free(&c, singular);
    vks__cmdl_doc_free(&c);
    if (rc != VKS_OK) {
        vks_skin_free(skin);
        if (c.err->code == VKS_OK)
            vks_error_set(c.err, rc, VKS_NO_OFFSET, "cmdl", "read failed");
        return rc;
    }
    *out = skin;
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_cmdl_read(const vks_read_options *opt, const void *bytes, size_t size, vks_skin **out,
                         vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, cmdl_read_body(opt, bytes, size, out, err));
}
