/* NiObjectNET (nif.md 4.1): the name, extra data and controller that every scene-graph object,
 * property and shader block starts with; read by the scene graph (nif_avobject.c), the
 * properties (nif_aux.c) and Skyrim's shaders (nif_bsshader.c), apart from each of them. */
#include "nif_internal.h"

int nif_read_objectnet_links(nif_rd *r, const char **name, int32_t *extra, int32_t *controller)
{
    uint32_t v = r->f->ver, n;
    const int32_t *list;
    *extra = NIF_NONE;
    if (!nif_string(r, name, "name"))
        return 0;
    if (v <= NIF_V(4, 2, 2, 0) && !nif_i32(r, extra, "extra_data"))
        return 0;
    if (v >= NIF_V(10, 0, 1, 0)) {
        if (!nif_refs(r, &n, &list, "extra_data_list"))
            return 0;
        if (n)
            *extra = list[0];
    }
    return nif_i32(r, controller, "controller");
}

int nif_read_objectnet(nif_rd *r, const char **name)
{
    int32_t extra, controller;
    return nif_read_objectnet_links(r, name, &extra, &controller);
}
