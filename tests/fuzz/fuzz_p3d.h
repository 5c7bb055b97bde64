/* The P3D harnesses (MLOD and ODOL) share this: a small model.cfg so selection weights reach
 * the skinning code, and the magic forced so every input walks the chosen reader. */
#ifndef VKS_FUZZ_P3D_H
#define VKS_FUZZ_P3D_H

#include <string.h>

#include "fuzz_check.h"

static const char cfg[] =
    "class CfgSkeletons { class S { isDiscrete = 0; skeletonBones[] = {\"root\",\"\",\"mid\",\"root\",\"tip\",\"mid\","
    "\"Spine2\",\"\",\"1\",\"\",\"2\",\"1\"}; }; };\n"
    "class CfgModels { class m { skeletonName = \"S\"; sections[] = {\"camo\"}; }; };\n";

static inline void vks_fuzz_p3d(const uint8_t *data, size_t size, const char magic[4])
{
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy)
        return;
    if (size)
        memcpy(copy, data, size);
    if (size >= 4)
        memcpy(copy, magic, 4);
    vks_read_options opt = vks_fuzz_options();
    opt.p3d.model_cfg = cfg;
    opt.p3d.model_cfg_size = sizeof cfg - 1;
    opt.p3d.model_name = "m";
    opt.p3d.bone_limit = 8;
    vks_fuzz_check(vks_p3d_read, &opt, copy, size);
    free(copy);
}

#endif
