/* The contract every clip reader's fuzz harness checks (the clip readers' fuzz_check.h): read
 * the bytes under small limits; a failure must carry a message and leave *out alone; a set the
 * reader returns must validate. A violation aborts, which libFuzzer reports as a finding. */
#ifndef VKS_FUZZ_CLIP_CHECK_H
#define VKS_FUZZ_CLIP_CHECK_H

#include <stdint.h>
#include <stdlib.h>

#include "vkskin.h"

/* The set read from data, or NULL when the reader refused it (cleanly). Free with
 * vks_clip_set_free. */
static inline vks_clip_set *vks_fuzz_clip_read(vks_clip_reader_fn read, const uint8_t *data, size_t size)
{
    vks_read_options opt = {0};
    opt.max_nodes = 1024;
    opt.clip.max_keys = 1u << 16;
    opt.clip.max_clips = 256;
    vks_clip_set *set = NULL;
    vks_error err = {0};
    if (read(&opt, data, size, &set, &err) != VKS_OK) {
        if (!err.msg[0] || set)
            abort(); /* every failure says why, and returns nothing */
        return NULL;
    }
    vks_error e2 = {0};
    if (!set || vks_clip_set_validate(set, &e2) != VKS_OK)
        abort(); /* a set the reader returns must validate */
    return set;
}

#endif
