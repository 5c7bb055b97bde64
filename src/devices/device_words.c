/* See device_words.h. */
#include "devices/device_words.h"

#include <cjson/cJSON.h>
#include <stdio.h>

#include "vkskin/gpu.h"

void vks__queue_flag_words(uint32_t flags, char *buf, size_t cap, cJSON *array)
{
    static const struct {
        uint32_t bit;
        const char *word;
    } words[] = {{VKS_QUEUE_GRAPHICS, "graphics"},         {VKS_QUEUE_COMPUTE, "compute"},
                 {VKS_QUEUE_TRANSFER, "transfer"},         {VKS_QUEUE_SPARSE_BINDING, "sparse_binding"},
                 {VKS_QUEUE_PROTECTED, "protected"},       {VKS_QUEUE_VIDEO_DECODE, "video_decode"},
                 {VKS_QUEUE_VIDEO_ENCODE, "video_encode"}, {VKS_QUEUE_OPTICAL_FLOW, "optical_flow"}};
    size_t at = 0;
    buf[0] = 0;
    uint32_t known = 0;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        known |= words[k].bit;
        if (!(flags & words[k].bit))
            continue;
        if (at < cap)
            at += (size_t)snprintf(buf + at, cap - at, "%s%s", at ? " " : "", words[k].word);
        if (array)
            cJSON_AddItemToArray(array, cJSON_CreateString(words[k].word));
    }
    if ((flags & ~known) && at < cap)
        snprintf(buf + at, cap - at, "%s0x%x", at ? " " : "", flags & ~known);
    if ((flags & ~known) && array) {
        char hex[16];
        snprintf(hex, sizeof hex, "0x%x", flags & ~known);
        cJSON_AddItemToArray(array, cJSON_CreateString(hex));
    }
}
