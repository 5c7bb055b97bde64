/* Launch shapes the GPU tests plant (tune candidates, forced shapes), in one place so that
 * test_tuning can check them over every device's table row: a shape is applied over the shape
 * that row gives, so a key it leaves out takes the row's value (the H100's row says pose=nodes,
 * which refuses a pose_wg below its subgroup of 32). Each names what it needs. */
#ifndef VKS_TEST_PLANTED_SHAPES_H
#define VKS_TEST_PLANTED_SHAPES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Made slow for real: workgroups of one invocation that loop over one instance; the serial
 * pose pass named, since one invocation cannot hold a subgroup a GPU's nodes variant needs. */
#define VKS_TEST_SLOW_CANDIDATE "wg=1,pose_wg=1,run=1,palette=off,pose=serial"
/* What any device runs well enough to beat it. */
#define VKS_TEST_FAST_CANDIDATE "wg=64,run=32,palette=off"

/* The shapes test_gpu_shapes forces on the device at hand, over its table row: every one a GPU
 * takes. A key that only some rows allow is named with what it needs (pose=serial where a
 * pose_wg may be below a GPU's subgroup); texels=on is skipped where the device's texel
 * buffers cannot span its storage range, and a workgroup over the device's invocations
 * (wg=1024 on SwiftShader's 256) where vks_test_shape_over_limit says so. */
#define VKS_TEST_FORCED_SHAPES                                                                          \
    "wg=256,run=8,palette=off,texels=off",             /* NVIDIA's table row (the H100) */            \
    "wg=256,run=8,palette=off,texels=off,zeros=skip",  /* its gather-bound form without empty slots */ \
    "wg=32,run=3,palette=16,texels=off,zeros=skip",    /* the same, from shared and global palettes */ \
    "wg=256,run=8,palette=off,texels=on",              /* other GPUs' row where texels span the range */ \
    "wg=64,run=8,palette=on",                          /* the GPU default before the table */         \
    "wg=256,run=32,palette=on",                                                                       \
    "wg=1024,run=8,palette=on",                                                                       \
    "wg=32,run=3,palette=16,texels=off",               /* groups of 12 and 20 slots: shared and global */ \
    "wg=128,run=256,palette=off",                                                                     \
    "wg=256,run=1,palette=off,pose=serial,pose_wg=32", /* below an AMD wave's 64: serial named */     \
    "wg=256,run=8,palette=off,texels=off,pose=nodes",  /* a GPU's pose pass */                        \
    "wg=64,run=32,palette=off,pose=nodes,pose_wg=256"

/* 1 when shape names a workgroup (wg= or pose_wg=) over max invocations: a device refuses it,
 * so the forced shapes skip it there (test_gpu_shapes checks the refusal itself). */
static inline int vks_test_shape_over_limit(const char *shape, uint32_t max)
{
    static const char *const keys[] = {"wg=", "pose_wg="};
    for (size_t k = 0; k < 2; k++)
        for (const char *p = strstr(shape, keys[k]); p; p = strstr(p + 1, keys[k]))
            if ((p == shape || p[-1] == ',') && strtoul(p + strlen(keys[k]), NULL, 10) > max)
                return 1;
    return 0;
}

#endif
