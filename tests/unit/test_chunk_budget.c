/* The chunk budget of vks_gpu_run (vks__chunk_budget) for the devices a GPU path meets: the
 * H100 (a 4 GiB - 1 storage range and 79.6 GiB of device memory: the host budget decides),
 * lavapipe (128 MiB range), a GPU with a small heap, and the caller's cap. Every budget keeps
 * the shaders' 32-bit offsets in range: a chunk's output floats (3 per vertex) and its skin
 * matrix rows (3 per matrix) are indexed with uint in compute/deform.comp. No device needed. */
#include "gpu/plan.h"
#include "testutil.h"

static void check_offsets(uint64_t budget)
{
    uint64_t vertices = budget / 12, matrices = budget / 48;
    CHECK(vertices * 3 < (1ull << 32));
    CHECK(matrices * 3 < (1ull << 32));
    CHECK(budget <= 0xffffffffull); /* bound whole as one storage buffer */
}

int main(void)
{
    const uint64_t MiB = 1ull << 20, GiB = 1ull << 30;
    /* H100: maxStorageBufferRange 4294967295, heap 0 of 79.6 GiB (h100-vulkaninfo.txt) */
    uint64_t h100_heap = 85520809984ull;
    CHECK_EQ_INT(vks__chunk_budget(4294967295ull, h100_heap, 2, 0), 256 * MiB); /* 1 GiB host / 2 / 2 */
    CHECK_EQ_INT(vks__chunk_budget(4294967295ull, h100_heap, 4, 0), 128 * MiB);
    CHECK_EQ_INT(vks__chunk_budget(4294967295ull, h100_heap, 1, 0), 512 * MiB);
    check_offsets(vks__chunk_budget(4294967295ull, h100_heap, 1, 0));
    /* lavapipe: 128 MiB range, 2 GiB heap */
    CHECK_EQ_INT(vks__chunk_budget(128 * MiB, 2 * GiB, 2, 0), 128 * MiB);
    /* a GPU with 512 MiB of device memory: an eighth per slot */
    CHECK_EQ_INT(vks__chunk_budget(4294967295ull, 512 * MiB, 2, 0), 32 * MiB);
    /* no device-local heap reported: the range and the host budget */
    CHECK_EQ_INT(vks__chunk_budget(64 * MiB, 0, 2, 0), 64 * MiB);
    /* the caller's cap wins when smaller, never when larger */
    CHECK_EQ_INT(vks__chunk_budget(4294967295ull, h100_heap, 2, 3 * MiB), 3 * MiB);
    CHECK_EQ_INT(vks__chunk_budget(128 * MiB, 2 * GiB, 2, 8 * GiB), 128 * MiB);
    for (uint32_t ring = 1; ring <= 4; ring++)
        check_offsets(vks__chunk_budget(UINT64_MAX, UINT64_MAX, ring, 0));
    return vks_test_finish("test_chunk_budget");
}
