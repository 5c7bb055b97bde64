/* Launch shapes the GPU tests plant as tune candidates, in one place so that test_tuning can
 * check them over every device table: a candidate is applied over the shape the device's
 * table row gives, so a key it leaves out takes that row's value (the H100's row says
 * pose=nodes, which refuses a pose_wg below its subgroup of 32). Each names what it needs. */
#ifndef VKS_TEST_PLANTED_SHAPES_H
#define VKS_TEST_PLANTED_SHAPES_H

/* Made slow for real: workgroups of one invocation that loop over one instance; the serial
 * pose pass named, since one invocation cannot hold a subgroup a GPU's nodes variant needs. */
#define VKS_TEST_SLOW_CANDIDATE "wg=1,pose_wg=1,run=1,palette=off,pose=serial"
/* What any device runs well enough to beat it. */
#define VKS_TEST_FAST_CANDIDATE "wg=64,run=32,palette=off"

#endif
