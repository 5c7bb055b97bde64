/* vkskin bake's manifest parser (src/bake/job_manifest.c) on arbitrary bytes: it must
 * refuse them with a message or give jobs whose every field is in range, never crash, leak
 * or read out of bounds. Nothing is read from disk: the parser only resolves paths.
 * Build: -DVKSKIN_FUZZ=ON with clang; seeds in tests/fuzz/bake_manifest/seeds. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bake/job_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vks_bake_manifest m;
    if (vks__bake_manifest_parse("seeds/bake.json", data, size, 0, NULL, &m) != VKS__BAKE_EXIT_OK) {
        assert(m.jobs == NULL && m.job_count == 0);
        return 0;
    }
    assert(m.job_count >= 1);
    for (uint32_t j = 0; j < m.job_count; j++) {
        const vks_bake_job *job = &m.jobs[j];
        assert(job->model && job->name && job->clip_count >= 1 && job->outputs);
        assert(job->fps > 0 && job->max_width >= 1 && strlen(job->hash) == 16);
        assert(!strchr(job->name, '/'));
        for (uint32_t c = 0; c < job->clip_count; c++)
            assert(job->clips[c].file && job->clips[c].file_given);
    }
    vks__bake_manifest_free(&m);
    return 0;
}
